/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_QUEUE_PAIR_H
#define MRC_QUEUE_PAIR_H

#include "mrc-congestion-ops.h"
#include "mrc-header-types.h"
#include "mrc-loss-recovery.h"
#include "mrc-path-selection.h"
#include "mrc-qp-receiver.h"
#include "mrc-qp-stats.h"
#include "mrc-send-queue.h"
#include "mrc-wire-path.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/ipv6-header.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class MrcBthHeader;
class MrcL4Protocol;

/**
 * \ingroup mrc
 * \brief One end of an MRC reliable connection (a queue pair): RDMA WRITE and WRITE with
 * immediate of any size, sprayed packet by packet over an EV set, with selective retransmission.
 *
 * Three policies are pluggable ns-3 Objects chosen by TypeId attribute, MRC's by default:
 * PathSelection (MrcSprayPathSelection; MrcSinglePathSelection), LossRecovery
 * (MrcSelectiveRecovery; MrcGoBackN) and CongestionControl (MrcNscc; MrcFixedWindow, MrcDcqcn).
 * RoCEv2 RC is single path + go-back-N + DCQCN (MrcHelper::SetRoceV2Baseline). The description
 * below is MRC's; see the policy classes for the others.
 *
 * Sender: each posted message is cut into packets of Mss payload bytes with consecutive 24-bit
 * PSNs. When one of the NIC's ports asks (MrcNicPort), the QP sends a queued retransmission or
 * the next new packet, if the window (congestion control, MaxOutstandingPsns) and the pacing rate
 * of a rate-based congestion control allow, on the next EV of that port's plane (MrcPathSet). Every
 * data packet carries BTH, METH (message), TSETH (send time), RETH (its own virtual address, the
 * rkey and the message length: the receiver places every packet on arrival) and, on the last packet
 * of a WRITE with immediate, ImmDt; then the payload and the ICRC.
 *  - SACK (cumulative PSN + 64-bit bitmap, reflected EV, ECN echo, CC block): acknowledged
 *    packets leave the window; an ECN echo puts the EV in SKIP and feeds congestion control.
 *  - NACK TRIMMED: the PSN is retransmitted at once and the EV goes to SKIP; TRIMMED_LASTHOP:
 *    retransmitted, the EV is not penalised (incast is not the path's fault); NO_BITMAP and
 *    PSN_OOR_WINDOW: retransmitted, no penalty (the receiver, not the path, refused it).
 *  - Loss timer (LossTimeout after each transmission): a packet neither acknowledged nor
 *    NACKed is retransmitted and its EV becomes ASSUMED_BAD at once, replaced by a backup EV
 *    of the same plane; ASSUMED_BAD EVs are probed every ProbeInterval and come back after
 *    ProbeSuccesses answered probes (MrcQpProber).
 *  - QP timeout: when the cumulative acknowledgement has not moved for AckTimeout (1.024 us x
 *    2^AckTimeoutExponent) RetryCount + 1 times in a row, the QP fails: QpError fires and
 *    every unfinished message is reported failed.
 * Receiver (MrcQpReceiver): places each packet on arrival, exactly once per PSN, into a
 * registered memory region when there is one, reports a message when its last byte (and its
 * immediate) is in, sends a SACK per SackBytes placed (and at once on ECN marks, duplicates and
 * message ends), a NACK per trimmed packet (its DSCP tells fabric from last-hop trimming), and
 * answers probes, and a CNP per CE-marked packet (at most one per CnpInterval) when the congestion
 * control asks for CNPs. Control packets travel on the QP's own EV set towards the peer; a QP
 * that only receives checks those reverse EVs with a probe per base RTT (MrcQpProber).
 */
class MrcQueuePair : public Object
{
  public:
    /// A packet ready for a NIC port.
    struct TxPacket
    {
        Ptr<Packet> packet; //!< MRC payload (BTH ... ICRC)
        MrcWirePath path;   //!< where it goes
        uint8_t dscp;       //!< DSCP
    };

    /// Counters.
    using Stats = MrcQpStats;

    /**
     * TracedCallback signature of Tx.
     * \param packet the data packet
     * \param psn its PSN
     * \param ev its EV
     * \param retransmission true if resent
     */
    typedef void (*TxTracedCallback)(Ptr<const Packet> packet,
                                     uint32_t psn,
                                     uint32_t ev,
                                     bool retransmission);
    /**
     * TracedCallback signature of Rx.
     * \param packet the payload placed
     * \param psn its PSN
     * \param ev its EV
     */
    typedef void (*RxTracedCallback)(Ptr<const Packet> packet, uint32_t psn, uint32_t ev);
    /**
     * TracedCallback signature of Retransmit.
     * \param psn the PSN
     * \param ev the EV of its last transmission
     * \param cause why
     */
    typedef void (*RetransmitTracedCallback)(uint32_t psn, uint32_t ev, std::string cause);
    /**
     * TracedCallback signature of NackReceived.
     * \param psn the PSN
     * \param code the NACK code
     */
    typedef void (*NackTracedCallback)(uint32_t psn, MrcNackCode code);
    /**
     * TracedCallback signature of EvStateChange.
     * \param ev the EV
     * \param from old state
     * \param to new state
     * \param cause why
     */
    typedef void (*EvStateTracedCallback)(uint32_t ev,
                                          MrcEvState from,
                                          MrcEvState to,
                                          std::string cause);
    /**
     * TracedCallback signature of the message traces.
     * \param msn message sequence number
     * \param bytes bytes
     */
    typedef void (*MessageTracedCallback)(uint32_t msn, uint64_t bytes);
    /**
     * TracedCallback signature of QpError.
     * \param reason why the QP failed
     */
    typedef void (*ErrorTracedCallback)(std::string reason);
    /**
     * TracedCallback signature of CnpSent and CnpReceived.
     * \param ev the EV of the CE-marked packet (CnpSent) or of the CNP (CnpReceived)
     */
    typedef void (*CnpTracedCallback)(uint32_t ev);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcQueuePair();
    ~MrcQueuePair() override;

    /// \return this QP's number
    uint32_t GetQpn() const;

    /// \return the node of its NIC (nullptr before the QP is attached to one)
    Ptr<Node> GetNode() const;

    /**
     * Connect to the peer (MrcHelper does this for both ends).
     * \param remoteQpn the peer's QP number
     * \param evsPerPlane candidate EVs towards the peer, per plane, shuffled
     * \param resolver EV -> wire path towards the peer
     * \param baseRtt unloaded RTT (congestion control and timer defaults)
     * \param firstPsn the first PSN this end sends
     * \param peerFirstPsn the first PSN the peer sends
     */
    void Connect(uint32_t remoteQpn,
                 const std::vector<std::vector<uint32_t>>& evsPerPlane,
                 MrcPathResolver resolver,
                 Time baseRtt,
                 uint32_t firstPsn,
                 uint32_t peerFirstPsn);

    /**
     * Post an RDMA WRITE (or WRITE with immediate) to the peer.
     * \param bytes message size (0 allowed)
     * \param remoteVa virtual address at the peer
     * \param rkey the peer's memory key
     * \param immediate immediate data (WRITE with immediate), if any
     * \param data the bytes to write (nullptr: the payload is not modelled byte by byte)
     * \return the message sequence number
     * \throws std::invalid_argument if data is given with another size than bytes, or the
     *         message exceeds 4 GiB
     */
    uint32_t PostWrite(uint64_t bytes,
                       uint64_t remoteVa = 0,
                       uint32_t rkey = 0,
                       std::optional<uint32_t> immediate = std::nullopt,
                       std::shared_ptr<const std::vector<uint8_t>> data = nullptr);

    /**
     * Register local memory that the peer's WRITEs land in.
     * \param va its virtual address
     * \param region the bytes (written in place)
     */
    void RegisterMemory(uint64_t va, std::shared_ptr<std::vector<uint8_t>> region);

    /// \param cb called with the MSN when the peer has acknowledged a message's last byte
    void SetSendCompleteCallback(Callback<void, uint32_t> cb);
    /// \param cb called with MSN, bytes and immediate (if any) when a message has arrived
    void SetReceiveCallback(Callback<void, uint32_t, uint64_t, std::optional<uint32_t>> cb);
    /// \param cb called with the reason when the QP fails
    void SetErrorCallback(Callback<void, std::string> cb);

    /// \param ev put on the denylist (never used again)
    void DenyEv(uint32_t ev);

    /// \return the EV set (read-only)
    const MrcPathSet& GetPathSet() const;
    /// \return the counters
    const Stats& GetStats() const;
    /// \return true after a fatal error
    bool IsFailed() const;
    /// \return messages posted and not yet acknowledged
    uint32_t GetPendingMessages() const;
    /// \return the congestion control in use
    Ptr<MrcCongestionOps> GetCongestionControl() const;
    /// \return the path selection in use (after Connect)
    Ptr<MrcPathSelection> GetPathSelection() const;
    /// \return the loss recovery in use (after Connect)
    Ptr<MrcLossRecovery> GetLossRecovery() const;

    /**
     * Give a policy its attributes: when Connect makes the policy that CongestionControl,
     * PathSelection or LossRecovery names, a factory of that same type makes it (with the
     * factory's attributes); without one it is made with its attributes' defaults. (MrcHelper's
     * SetCongestionControl, SetPathSelection and SetLossRecovery call this.) Call before
     * Connect; a later factory of the same type replaces an earlier one.
     * \param factory a factory (TypeId set)
     */
    void SetPolicyFactory(const ObjectFactory& factory);

    /**
     * Use fixed random-variable streams (the liveness probes' EV choice).
     * \param stream first stream index
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /// \name Used by MrcL4Protocol and MrcNicPort
    /// @{
    /**
     * \param l4 the NIC
     * \param qpn this QP's number
     */
    void Attach(MrcL4Protocol* l4, uint32_t qpn);
    /**
     * \param plane the asking port's plane
     * \return the next packet for that port, if any may go now
     */
    std::optional<TxPacket> PullPacket(uint32_t plane);
    /**
     * \return the DSCP the next packet PullPacket gives would carry (retransmission or new
     *         data), so that a NIC port can hold the QP back while that priority is paused
     */
    uint8_t GetNextDscp();
    /**
     * \param packet the packet after the BTH
     * \param bth its BTH
     * \param outer its outer IPv6 header
     * \param ev its EV (from flow label and UDP source port)
     * \param plane the port it arrived on
     */
    void Receive(Ptr<Packet> packet,
                 const MrcBthHeader& bth,
                 const Ipv6Header& outer,
                 uint32_t ev,
                 uint32_t plane);
    /**
     * \param plane a local NIC port
     * \param up its new state
     */
    void NotifyLocalPortState(uint32_t plane, bool up);
    /// @}

  protected:
    void DoDispose() override;

  private:
    using TxRecord = MrcSendQueue::Record; //!< one PSN in flight

    /// Ask every port to pull.
    void Kick();
    /**
     * \return the packet that may go next and whether it is a retransmission, or nothing if the
     *         window or the pacing rate holds it back (a paced QP is woken up when it may go)
     */
    std::optional<std::pair<uint32_t, bool>> NextLength();
    /**
     * Start the loss recovery and the receiving half (the end of Connect).
     * \param peerFirstPsn the first PSN the peer sends
     */
    void StartPolicies(uint32_t peerFirstPsn);
    /// Slide the window over acknowledged PSNs and report completed messages.
    void Slide();
    /**
     * \param sack a SACK
     * \param ev the EV it arrived on
     */
    void OnSack(Ptr<Packet> sack, uint32_t ev);
    /// \param nack a NACK packet
    void OnNack(Ptr<Packet> nack);
    /**
     * The RTT sample of an acknowledgement (SACK or NACK), after the send queue processed it.
     * \param ev the EV it reflects
     * \param timestamp the TSETH timestamp it reflects
     * \return now minus the exact send time of the newly acknowledged transmission with that EV
     *         and timestamp, or zero (no sample: that packet was acknowledged before)
     */
    Time AckedRtt(uint32_t ev, uint16_t timestamp) const;
    /// \param ev the EV a CNP arrived on
    void OnCnp(uint32_t ev);
    /**
     * \param packet a probe (after the BTH)
     * \param plane arrival port
     * \param dscp its DSCP (a trimmed tail-loss probe is not answered)
     */
    void OnProbe(Ptr<Packet> packet, uint32_t plane, uint8_t dscp);
    /**
     * Send a probe on an EV.
     * \param ev the EV
     * \param body the probe header (BTH and ICRC are added here)
     */
    void SendProbe(uint32_t ev, Ptr<Packet> body);
    /**
     * Send a control packet back along the path of the EV a data packet or probe came on: an
     * EV writes the same uplink numbers in both directions, so the answer crosses the links
     * the data just crossed, and a lost answer blames the path that lost it (on any other
     * reverse EV a dead reverse path would make healthy EVs look dead).
     * \param packet BTH and body (the ICRC is added)
     * \param ev the EV
     * \return false if this end has no such usable EV (the caller picks another)
     */
    bool SendOnMirror(Ptr<Packet> packet, uint32_t ev);
    /**
     * Put a control packet on the wire: add the ICRC and queue it at the path's NIC port.
     * \param packet BTH and body
     * \param path where it goes
     */
    void SendOnPath(Ptr<Packet> packet, const MrcWirePath& path);
    /**
     * \param packet BTH and body
     * \param path where it goes
     * \param dscp its DSCP
     */
    void SendOnPath(Ptr<Packet> packet, const MrcWirePath& path, uint8_t dscp);
    /**
     * Send a tail-loss probe (a probe with the acknowledgement request flag) on a data EV.
     * \param sequence the probe's sequence number
     */
    void SendTailProbe(uint32_t sequence);
    /**
     * \param evsPerPlane candidate EVs per plane (planes without EVs are not used)
     * \param baseRtt base RTT
     * \return MaxOutstandingPsns sized from the NIC's rate and WindowRecoveryTime
     */
    uint32_t AutoWindow(const std::vector<std::vector<uint32_t>>& evsPerPlane, Time baseRtt) const;
    /**
     * \param evsPerPlane candidate EVs per plane (planes without EVs are not used)
     * \return the summed line rate of the NIC ports of the planes with EVs, bit/s
     */
    uint64_t SendingRate(const std::vector<std::vector<uint32_t>>& evsPerPlane) const;
    /**
     * SkipTime's default: one rotation of the active EV set at the queue pair's line rate.
     * \param evsPerPlane candidate EVs per plane (the planes the queue pair sends on)
     * \return EvSetSize full-size packets' time at the summed rate of those planes' ports
     */
    Time RotationTime(const std::vector<std::vector<uint32_t>>& evsPerPlane) const;
    /**
     * Offer the next packet again to the ports that PullPacket turned away since the last
     * packet left (their plane had sent its share: PlaneLeadLimit), now that another port has
     * sent: a NIC would have queued the packets of their EVs on them.
     */
    void RetryPassedPorts();
    /// \return true while data arrives and none of this end's own is in flight
    bool OnlyReceiving() const;
    /**
     * Fail the QP.
     * \param reason why
     */
    void Fail(const std::string& reason);

    /**
     * An EV changed state (the path-selection policy's hook): log and trace it.
     * \param ev the EV
     * \param from its old state
     * \param to its new state
     * \param cause why
     */
    void OnEvStateChange(uint32_t ev, MrcEvState from, MrcEvState to, const std::string& cause);

    /**
     * A message was delivered in full (the receiver's hook): log, trace, call back.
     * \param msn its message sequence number
     * \param bytes its length
     * \param imm its immediate data, if any
     */
    void OnDelivered(uint32_t msn, uint64_t bytes, std::optional<uint32_t> imm);
    /**
     * Send a control packet towards the peer.
     * \param packet the MRC payload (BTH ... ICRC)
     * \param plane preferred plane
     */
    void SendControl(Ptr<Packet> packet, uint32_t plane);
    /**
     * \param opcode control opcode
     * \return a BTH addressed to the peer
     */
    MrcBthHeader ControlBth(MrcOpcode opcode) const;

    // Attributes
    uint32_t m_mss;                               //!< payload bytes per packet
    TypeId m_ccType;                              //!< congestion control
    TypeId m_pathSelectionType;                   //!< path selection
    TypeId m_lossRecoveryType;                    //!< loss recovery
    std::vector<ObjectFactory> m_policyFactories; //!< SetPolicyFactory
    uint32_t m_evSetSize;                         //!< active EVs (all planes)
    uint32_t m_maxOutstanding;                    //!< PSN window (0 until Connect: automatic)
    Time m_windowRecoveryTime;                    //!< automatic window: hold time of a hole
    Time m_lossTimeout;                           //!< loss timer (0: LossTimeoutRtts x base RTT)
    double m_lossTimeoutRtts;                     //!< loss timer in base RTTs
    Time m_probeInterval;                         //!< probe period (0: 2 x base RTT)
    uint32_t m_probeSuccesses;                    //!< probe successes to restore an EV
    uint32_t m_skipRotations;           //!< SKIP duration in rotations (0: in time, SkipTime)
    Time m_skipTime;                    //!< SKIP duration (0: a rotation, at least a base RTT)
    Time m_skipMemory;                  //!< echo memory after a SKIP (0: 8 base RTTs)
    bool m_skipAcrossPlanes;            //!< a plane of SKIP EVs yields to a plane with a GOOD one
    double m_planeLeadLimit;            //!< rounds a port may run ahead of its plane's share
    std::vector<uint32_t> m_planeOrder; //!< Kick: the order the NIC ports are offered a packet
    uint32_t m_alwaysSkipFactor;        //!< ALWAYS_SKIP: SKIP this many times longer
    uint32_t m_alwaysSkipMarks;         //!< receiver: CE marks in a row for ALWAYS_SKIP
    double m_escalationRatio;           //!< SKIP escalation: marking rate over the others'
    double m_markRateGain;              //!< weight of one feedback in an EV's marking rate
    double m_skipReleaseRatio;          //!< escalated SKIP ends below this x its plane's mean
    Time m_holdDown;                    //!< dampening: first hold-down (0: derived)
    Time m_holdDownMax;                 //!< dampening: largest hold-down (0: derived)
    Time m_flapWindow;                  //!< dampening: flap window (0: derived)
    bool m_fullSizeProbes;              //!< restoration probes padded to Mss
    uint32_t m_probesPerRound;          //!< restoration probes per round at most
    uint32_t m_probeBackoffMax;         //!< most rounds between probes of a failing EV
    uint32_t m_ackTimeoutExponent;      //!< QP timeout = 1.024 us x 2^t
    uint32_t m_retryCount;              //!< QP timeouts tolerated
    uint32_t m_sackBytes;               //!< bytes placed per SACK
    Time m_sackDelay;                   //!< longest wait of a coalesced SACK (0: derived)
    uint32_t m_bitmapPsns;              //!< receive bitmap (0: the PSN window)
    uint8_t m_windowPenalty;            //!< receiver window penalty advertised
    uint8_t m_dataDscp;                 //!< DSCP of data
    uint8_t m_rtxDscp;                  //!< DSCP of retransmissions
    uint8_t m_controlDscp;              //!< DSCP of control packets
    uint8_t m_trimmedDscp;              //!< DSCP of fabric-trimmed packets
    uint8_t m_trimmedLastHopDscp;       //!< DSCP of last-hop-trimmed packets

    // Wiring
    MrcL4Protocol* m_l4{nullptr};       //!< the NIC
    uint32_t m_qpn{0};                  //!< this QP
    uint32_t m_remoteQpn{0};            //!< the peer's QP
    Ptr<MrcPathSelection> m_paths;      //!< path selection (EV set)
    Ptr<MrcLossRecovery> m_recovery;    //!< loss recovery
    Ptr<MrcCongestionOps> m_cc;         //!< congestion control
    Time m_baseRtt;                     //!< base RTT
    bool m_failed{false};               //!< fatal error happened
    std::vector<bool> m_peerPlaneDown;  //!< peer's ports down (from SACKs)
    std::vector<bool> m_localPlaneDown; //!< local ports down
    uint32_t m_tailProbePlane{0};       //!< plane of the next tail-loss probe

    // Sender
    std::unique_ptr<MrcSendQueue> m_sendQueue; //!< messages, records, PSN window
    Time m_nextSendTime;                       //!< pacing: earliest next data packet
    EventId m_paceEvent;                       //!< pacing: wake-up
    std::vector<uint32_t> m_passedPorts;       //!< ports that found no EV for their plane
    EventId m_retryEvent;                      //!< offer the passed ports the next packet
    Ptr<UniformRandomVariable> m_rng;          //!< liveness probe EV choice

    // Receiver
    std::unique_ptr<MrcQpReceiver> m_receiver; //!< receiving half
    std::vector<std::pair<uint64_t, std::shared_ptr<std::vector<uint8_t>>>>
        m_pendingMemory; //!< regions registered before Connect

    Stats m_stats;                                                         //!< counters
    Callback<void, uint32_t> m_sendComplete;                               //!< sender completion
    Callback<void, uint32_t, uint64_t, std::optional<uint32_t>> m_receive; //!< receive
    Callback<void, std::string> m_error;                                   //!< fatal error

    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t, bool> m_txTrace;   //!< Tx
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t> m_rxTrace;         //!< Rx
    TracedCallback<uint32_t, uint32_t, std::string> m_rtxTrace;              //!< Retransmit
    TracedCallback<uint32_t, MrcNackCode> m_nackTrace;                       //!< NackReceived
    TracedCallback<uint32_t, MrcEvState, MrcEvState, std::string> m_evTrace; //!< EvStateChange
    TracedValue<uint64_t> m_cwnd;                                            //!< CwndChange
    TracedCallback<Time> m_rttTrace;                                         //!< RttSample
    TracedCallback<uint32_t, uint64_t> m_postedTrace;                        //!< MessagePosted
    TracedCallback<uint32_t, uint64_t> m_firstSentTrace;                     //!< FirstByteSent
    TracedCallback<uint32_t, uint64_t> m_completeTrace;                      //!< MessageComplete
    TracedCallback<uint32_t, uint64_t> m_deliveredTrace;                     //!< MessageDelivered
    TracedCallback<std::string> m_errorTrace;                                //!< QpError
    TracedCallback<uint32_t> m_cnpSentTrace;                                 //!< CnpSent
    TracedCallback<uint32_t> m_cnpReceivedTrace;                             //!< CnpReceived
};

} // namespace ns3

#endif /* MRC_QUEUE_PAIR_H */
