/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FABRIC_CHANNEL_H
#define MRC_FABRIC_CHANNEL_H

#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h" // point-to-point-channel.h needs it complete

#include <array>

namespace ns3
{

class MrcPfcPort;

/**
 * \ingroup mrc
 * \brief The channel of a fabric link: a PointToPointChannel that carries PFC PAUSE frames.
 *
 * Between devices without an MrcPfcPort it is exactly PointToPointChannel. When either end has
 * one (aggregated to the device):
 *  - a frame tagged MrcPfcTag PAUSE_FRAME occupies the wire for its serialisation time, as any
 *    frame, and is then handed to the peer's MrcPfcPort::ReceivePause (after txTime + delay)
 *    instead of the peer's receive path, which only knows IPv4 and IPv6; a PAUSE frame whose
 *    payload does not parse is dropped (and logged);
 *  - every other frame gets an MrcPfcTag INGRESS naming the receiving device's interface index
 *    (any older one is removed), so the receiving switch can charge it to its ingress port.
 */
class MrcFabricChannel : public PointToPointChannel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcFabricChannel();
    ~MrcFabricChannel() override;

    bool TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime) override;

    /// \return PAUSE frames carried to an MrcPfcPort
    uint64_t GetPauseFrames() const;

    /**
     * Forget which ends have an MrcPfcPort: they are looked up again at the next frame.
     * MrcPfcPort calls it when it is aggregated to a device of this channel.
     */
    void RefreshPfcPorts();

    /**
     * \param device one of the channel's two devices
     * \return its MrcPfcPort, or null (none, or not a device of this channel)
     */
    Ptr<MrcPfcPort> GetPfcPort(Ptr<const NetDevice> device);

  protected:
    void DoDispose() override;

  private:
    /// Look the two ends' MrcPfcPorts up if a refresh asked for it (two devices attached).
    void UpdatePfcPorts();

    /// The two ends' MrcPfcPorts (null where none), looked up at the first frame after a
    /// refresh, not per frame: the aggregate search was 5 % of a fabric's instructions.
    std::array<Ptr<MrcPfcPort>, 2> m_pfcPorts;
    bool m_pfcPortsKnown{false}; //!< m_pfcPorts is current
    uint64_t m_pauseFrames{0};   //!< PAUSE frames carried
};

} // namespace ns3

#endif /* MRC_FABRIC_CHANNEL_H */
