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

class MrcArrivalOrder;
class MrcFabricNetDevice;
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
 *
 * Distributed runs (ns-3 built with MPI, MpiInterface enabled): when the two ends' nodes have
 * different system ids, SetUpRanks() makes the link cross ranks as PointToPointRemoteChannel
 * does. A frame for the end simulated by another rank is sent to it with
 * MpiInterface::SendPacket, arriving after txTime + delay (tags travel with it); the receiving
 * rank hands it to the device's MpiReceiver, which calls ReceiveFromRank: a PAUSE frame goes
 * to the port's MrcPfcPort::ReceivePause, any other frame to the device's Receive. The link's
 * delay is then the run's lookahead (ns-3's distributed simulators read the Delay attribute).
 *
 * OrderArrivals (default off): every other frame is handed to the receiving node's
 * MrcArrivalOrder one time step before it arrives, locally or from another rank, and delivered
 * with that step's other frames by interface index (see MrcArrivalOrder). Same-time ties are
 * then broken by the fabric, not by event creation order: one process and two ranks give the
 * same results, and so do two runs that post the same writes in different orders.
 * Every rank holds a copy of every node; a frame that the copy of a node simulated by another
 * rank hands to such a link is dropped and counted (GetForeignFrames), never delivered.
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
     * Forget which ends have an MrcPfcPort (and which are MrcFabricNetDevices): they are looked
     * up again at the next frame. MrcPfcPort calls it when it is aggregated to a device of this
     * channel.
     */
    void RefreshPfcPorts();

    /**
     * \param device one of the channel's two devices
     * \return its MrcPfcPort, or null (none, or not a device of this channel)
     */
    Ptr<MrcPfcPort> GetPfcPort(Ptr<const NetDevice> device);

    /**
     * Make the link cross ranks if its two devices are attached and their nodes are simulated
     * by different ranks of a distributed run (see the class description). Without MPI, or
     * with both ends on one rank, nothing changes. Call it once, after both Attach() calls.
     */
    void SetUpRanks();

    /**
     * \return frames that the end this rank does not simulate handed to a link crossing ranks,
     *         dropped there (that node's real frames come from its own rank; 0 without MPI)
     */
    uint64_t GetForeignFrames() const;

  protected:
    void DoDispose() override;

  private:
    /// Look the two ends' MrcPfcPorts and MrcFabricNetDevices up if not yet done or a refresh
    /// asked for it (two devices attached).
    void UpdateEnds();

    /**
     * Carry a frame to the other end: PointToPointChannel's delivery, or, if that end is on
     * another rank, MpiInterface::SendPacket.
     * \param p the frame
     * \param src the sending device
     * \param dstEnd the receiving end (0 or 1)
     * \param txTime its serialisation time
     * \return true
     */
    bool Carry(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, unsigned dstEnd, Time txTime);

    /**
     * Hand a PAUSE frame to an end's MrcPfcPort after delay (dropped, and logged, if it does not
     * parse or that end has no port).
     * \param frame the PAUSE frame with its PPP header
     * \param dstEnd the receiving end
     * \param delay when it arrives, from now
     */
    void DeliverPause(Ptr<const Packet> frame, unsigned dstEnd, Time delay);

    /**
     * A frame from the other rank arrived at an end (the MpiReceiver's callback).
     * \param dstEnd the receiving end
     * \param p the frame
     */
    void ReceiveFromRank(unsigned dstEnd, Ptr<Packet> p);

    /**
     * \param end 0 or 1
     * \return the MrcArrivalOrder of that end's node (looked up once)
     */
    Ptr<MrcArrivalOrder> GetArrivalOrder(unsigned end);

    /// The two ends as MrcFabricNetDevices (null where another type), which the channel tells
    /// of their frame starts; plain pointers, as the ends hold this channel.
    std::array<MrcFabricNetDevice*, 2> m_fabricEnds{nullptr, nullptr};
    /// The two ends' MrcPfcPorts (null where none), looked up at the first frame after a
    /// refresh, not per frame: the aggregate search was 5 % of a fabric's instructions.
    std::array<Ptr<MrcPfcPort>, 2> m_pfcPorts;
    bool m_endsKnown{false};   //!< m_pfcPorts and m_fabricEnds are current
    uint64_t m_pauseFrames{0}; //!< PAUSE frames carried
    /// Per end: simulated by another rank (SetUpRanks); never true without MPI
    std::array<bool, 2> m_remoteEnd{false, false};
    uint64_t m_foreignFrames{0}; //!< frames from the remote end's local copy, dropped
    bool m_orderArrivals{false}; //!< OrderArrivals attribute
    /// The two ends' nodes' MrcArrivalOrder, looked up at their first ordered frame
    std::array<Ptr<MrcArrivalOrder>, 2> m_arrivalOrder;
};

} // namespace ns3

#endif /* MRC_FABRIC_CHANNEL_H */
