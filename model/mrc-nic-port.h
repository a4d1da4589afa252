/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_NIC_PORT_H
#define MRC_NIC_PORT_H

#include "mrc-fabric-channel.h"
#include "mrc-pfc-port.h"
#include "mrc-wire-path.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/simple-ref-count.h"

#include <array>
#include <deque>
#include <functional>
#include <list>

namespace ns3
{

class MrcL4Protocol;
class MrcQueuePair;

/**
 * \ingroup mrc
 * \brief One port of an MRC NIC: schedules the queue pairs that have something to send, one
 * packet at a time at line rate, so that many QPs share the port fairly and no queue builds in
 * the host.
 *
 * When the port is free it sends a queued control packet (SACK, NACK, probe) if any, else asks
 * the next ready QP, in round robin, for a packet — the QP picks the packet's EV at that moment.
 * The port is then busy for the packet's serialisation time at the port's rate (the wire size:
 * the MRC payload plus UDP, SRH, IPv6 and link framing). A QP that has nothing to send (window
 * closed, nothing posted) leaves the ready list until it asks again.
 *
 * Priority flow control: when the port's NetDevice has an MrcPfcPort (MrcPfcHelper::Install), the
 * port starts no packet whose priority (MrcPfcPort::GetPriority of its DSCP, as MrcPfcQueueDisc
 * classifies) the peer has
 * paused: a QP whose next packet is of a paused priority stays in the ready list but is
 * skipped, a control packet of a paused priority waits (control packets of other priorities
 * go first), and the port runs again when the MrcPfcPort reports that a priority resumed
 * (PauseStateChange). The queue pairs are thus held back instead of their packets piling up
 * in the host's queue disc. Without an MrcPfcPort nothing changes.
 */
class MrcNicPort : public SimpleRefCount<MrcNicPort>
{
  public:
    /**
     * \param l4 the NIC's protocol
     * \param plane the port's plane
     * \param rate the port's line rate
     */
    MrcNicPort(MrcL4Protocol* l4, uint32_t plane, DataRate rate);

    /// \param qp a QP that may have packets for this port
    void Request(Ptr<MrcQueuePair> qp);

    /**
     * Queue a control packet; it goes before data.
     * \param packet the MRC payload (BTH ... ICRC)
     * \param path where it goes
     * \param dscp its DSCP
     */
    void SendControl(Ptr<Packet> packet, const MrcWirePath& path, uint8_t dscp);

    /// \param up false when the port's link is down: nothing is sent
    void SetUp(bool up);
    /// \return whether the port is up
    bool IsUp() const;
    /// \return the port's rate
    DataRate GetRate() const;
    /// Forget every QP and queued packet (end of simulation).
    void Clear();

    /**
     * \param device the port's NetDevice: its MrcPfcPort, if it has one (now or once PFC is
     *        installed), is honoured
     */
    void SetDevice(Ptr<NetDevice> device);

    /// \return packets not started because their priority was paused (each wait counted once)
    uint64_t GetPausedHolds() const;

  private:
    /// Send the next packet if the port is free, and schedule the end of its serialisation.
    void Run();

    /// The port finished sending a packet.
    void Done();

    /**
     * \param size the packet's wire size
     */
    void Busy(uint32_t size);

    /**
     * Find the device's MrcPfcPort (once it has one) and listen to its pause state.
     * \return the MrcPfcPort, or null
     */
    MrcPfcPort* Pfc();

    /**
     * \param pfc the device's MrcPfcPort, or null
     * \param dscp a packet's DSCP
     * \return true if the MrcPfcPort has the packet's priority paused
     */
    static bool IsPaused(const MrcPfcPort* pfc, uint8_t dscp);

    /**
     * MrcPfcPort's PauseStateChange.
     * \param priority the priority
     * \param paused true when paused, false when resumed
     */
    void OnPauseState(uint8_t priority, bool paused);

    MrcL4Protocol* m_l4; //!< the NIC (owner)
    uint32_t m_plane;    //!< plane
    DataRate m_rate;     //!< line rate
    bool m_up{true};     //!< link state
    bool m_busy{false};  //!< a packet is being serialised
    /// The last two sizes serialised (0: none yet) and m_rate's times for them, newest first.
    std::array<std::pair<uint32_t, Time>, 2> m_txTimes{};
    EventId m_doneEvent;                  //!< end of serialisation
    Ptr<NetDevice> m_device;              //!< the port's device (PFC), or null
    Ptr<MrcPfcPort> m_pfc;                //!< the device's MrcPfcPort, once found
    Ptr<MrcFabricChannel> m_channel;      //!< the device's channel, if a fabric channel
    bool m_holding{false};                //!< a packet is held by a pause
    uint64_t m_pausedHolds{0};            //!< GetPausedHolds
    std::list<Ptr<MrcQueuePair>> m_ready; //!< QPs that may have data, round-robin order
    /// Queued control packets.
    std::deque<std::tuple<Ptr<Packet>, MrcWirePath, uint8_t>> m_control;
};

} // namespace ns3

#endif /* MRC_NIC_PORT_H */
