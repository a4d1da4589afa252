/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FABRIC_NET_DEVICE_H
#define MRC_FABRIC_NET_DEVICE_H

#include "mrc-fabric-fault-error-model.h"

#include "ns3/point-to-point-net-device.h"
#include "ns3/traced-callback.h"

#include <array>

namespace ns3
{

class MrcDeviceTxQueue;

/**
 * \ingroup mrc
 * \brief A PointToPointNetDevice whose carrier can fail: the NetDevice of every fabric link
 * (MrcClosTopologyHelper installs it).
 *
 * On a healthy link it behaves exactly as PointToPointNetDevice (same timing, traces, pcap;
 * Config paths and GetObject<PointToPointNetDevice> still find it). In addition:
 *  - SetLinkUp (false) drops the carrier: IsLinkUp() reports false, the link-change callbacks
 *    (NetDevice::AddLinkChangeCallback) fire, the frames waiting in the device's own transmit
 *    queue are discarded, every later Send() is refused, and frames arriving afterwards — also
 *    those already on the wire — are dropped by the receive side (MrcFabricFaultErrorModel).
 *    SetLinkUp (true) restores the carrier and fires the callbacks again.
 *  - SetReceiveBlackhole and SetReceiveLossProbability drop arriving frames silently or at
 *    random while the carrier stays up.
 *  - Every such loss is counted by cause (GetLostPackets) and traced (FaultDrop).
 *
 * The receive side is an MrcFabricFaultErrorModel set as the device's ReceiveErrorModel when a
 * fault first needs it; an error model the device already had is chained behind it (consulted
 * for what the faults let through). A ReceiveErrorModel set on the device while one of its
 * faults is active replaces the fault's receive side until the next fault change on it.
 */
class MrcFabricNetDevice : public PointToPointNetDevice
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcFabricNetDevice();
    ~MrcFabricNetDevice() override;

    /**
     * TracedCallback signature of the FaultDrop trace.
     * \param packet the packet
     * \param cause why it was lost
     */
    typedef void (*FaultDropTracedCallback)(Ptr<const Packet> packet, MrcFabricLossCause cause);

    /**
     * TracedCallback signature of the ReceiveFaultChange trace.
     * \param blackhole every arriving frame is now dropped
     * \param lossProbability probability an arriving frame is dropped at random
     */
    typedef void (*ReceiveFaultTracedCallback)(bool blackhole, double lossProbability);

    /// \return frames arriving at this device are all dropped (carrier stays up)
    bool IsReceiveBlackhole() const;

    /// \return probability that a frame arriving at this device is dropped at random
    double GetReceiveLossProbability() const;

    /**
     * Set the carrier of this end of the link (the peer's is set separately; MrcFailureHelper
     * sets both). Nothing happens if the state does not change.
     * \param up new state
     */
    void SetLinkUp(bool up);

    /**
     * This device started a frame (called by its MrcFabricChannel from the device's
     * TransmitStart, the device BUSY; in place of the PhyTxBegin trace, which costs a traced
     * callback per hop): its flow control may run the queue disc now, and learns when the
     * frame completes (txTime plus InterframeGap as read at initialisation), after which a
     * dequeue is TransmitComplete's.
     * \param txTime the frame's serialisation time
     */
    void NotifyFrameStart(Time txTime);

    /**
     * \param blackhole drop every frame arriving at this device (carrier stays up)
     */
    void SetReceiveBlackhole(bool blackhole);

    /**
     * \param probability probability of losing each frame arriving at this device, in [0, 1]
     * \throws std::invalid_argument outside [0, 1]
     */
    void SetReceiveLossProbability(double probability);

    /**
     * \return the receive side of the faults (created on first call; installed as the
     *         ReceiveErrorModel only once a fault needs it)
     */
    Ptr<MrcFabricFaultErrorModel> GetFaultModel();

    /**
     * \param stream first stream index to use
     * \return number of streams used (1: gray loss of frames arriving here)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \param cause a cause
     * \return packets lost for it at this device: refused or discarded on transmission
     *         (LINK_DOWN) and dropped on arrival (every cause)
     */
    uint64_t GetLostPackets(MrcFabricLossCause cause) const;

    /// \return the device at the other end of the link, or nullptr if not attached
    Ptr<PointToPointNetDevice> GetPeer() const;

    // Overridden from PointToPointNetDevice
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;

  protected:
    void DoInitialize() override;

  private:
    /// Make the fault model this device's ReceiveErrorModel, chaining any other model.
    void InstallFaultModel();

    /**
     * Drop trace of the fault model (counted there).
     * \param packet the frame
     * \param cause why
     */
    void OnReceiveDrop(Ptr<const Packet> packet, MrcFabricLossCause cause);

    /**
     * Count and trace a transmit-side loss.
     * \param packet the packet
     * \param cause why
     */
    void NotifyLoss(Ptr<const Packet> packet, MrcFabricLossCause cause);

    /**
     * PhyTxEnd (in TransmitComplete): a dequeue and the next frame's start follow. Connected
     * only when the channel is not an MrcFabricChannel, which announces frames itself.
     * \param packet the frame sent
     */
    void OnTransmitEnd(Ptr<const Packet> packet);

    /**
     * PhyTxBegin: the device started a frame (BUSY); a woken queue disc may run now.
     * \param packet the frame
     */
    void OnTransmitBegin(Ptr<const Packet> packet);

    /// the device's transmission queue if it is an MrcDeviceTxQueue (not a Ptr: the queue holds
    /// the device, and the device's aggregated NetDeviceQueueInterface holds the queue)
    MrcDeviceTxQueue* m_txQueue{nullptr};
    bool m_channelAnnounces{false};        //!< an MrcFabricChannel announces this device's frames
    Time m_interframeGap;                  //!< InterframeGap, read at initialisation
    bool m_carrier{true};                  //!< carrier up
    Ptr<MrcFabricFaultErrorModel> m_fault; //!< receive side (no reference back: no cycle)
    bool m_blackhole{false};               //!< receive black hole on
    double m_lossProbability{0};           //!< receive random loss
    /// receive-side fault changed (what a failure detector such as BFD could notice)
    TracedCallback<bool, double> m_receiveFaultTrace;
    TracedCallback<> m_linkChange;                                          //!< link change
    std::array<uint64_t, kMrcFabricLossCauses> m_txLost{};                  //!< transmit-side
    TracedCallback<Ptr<const Packet>, MrcFabricLossCause> m_faultDropTrace; //!< FaultDrop
};

} // namespace ns3

#endif /* MRC_FABRIC_NET_DEVICE_H */
