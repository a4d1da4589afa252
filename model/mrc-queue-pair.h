/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_QUEUE_PAIR_H
#define MRC_QUEUE_PAIR_H

#include "mrc-congestion-ops.h"
#include "mrc-header-types.h"
#include "mrc-path-set.h"
#include "mrc-receive-state.h"
#include "mrc-wire-path.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/ipv6-header.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <boost/circular_buffer.hpp>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
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
 * Sender: each posted message is cut into packets of Mss payload bytes with consecutive 24-bit
 * PSNs. When one of the NIC's ports asks (MrcNicPort), the QP sends a queued retransmission or
 * the next new packet, if the window (congestion control, MaxOutstandingPsns) allows, on the
 * next EV of that port's plane (MrcPathSet). Every data packet carries BTH, METH (message),
 * TSETH (send time), RETH (its own virtual address, the rkey and the message length: the
 * receiver places every packet on arrival) and, on the last packet of a WRITE with immediate,
 * ImmDt; then the payload and the ICRC.
 *  - SACK (cumulative PSN + 64-bit bitmap, reflected EV, ECN echo, CC block): acknowledged
 *    packets leave the window; an ECN echo puts the EV in SKIP and feeds congestion control.
 *  - NACK TRIMMED: the PSN is retransmitted at once and the EV goes to SKIP; TRIMMED_LASTHOP:
 *    retransmitted, the EV is not penalised (incast is not the path's fault).
 *  - Loss timer (LossTimeout after each transmission): a packet neither acknowledged nor
 *    NACKed is retransmitted and its EV becomes ASSUMED_BAD at once, replaced by a backup EV
 *    of the same plane; ASSUMED_BAD EVs are probed every ProbeInterval and come back after
 *    ProbeSuccesses answered probes.
 *  - QP timeout: when the cumulative acknowledgement has not moved for AckTimeout (1.024 us x
 *    2^AckTimeoutExponent) RetryCount + 1 times in a row, the QP fails: QpError fires and
 *    every unfinished message is reported failed.
 * Receiver: places each packet on arrival (MrcReceiveState: exactly once per PSN), writes the
 * bytes into a registered memory region when there is one, reports a message when its last
 * byte (and its immediate) is in, and answers every SackEvery data packets with a SACK, every
 * trimmed packet with a NACK (its DSCP tells fabric from last-hop trimming), probes with probe
 * responses. Control packets travel on the QP's own EV set towards the peer.
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
    struct Stats
    {
        uint64_t dataPacketsSent{0};     //!< new data packets
        uint64_t retransmissions{0};     //!< retransmitted packets
        uint64_t rtxTrimmed{0};          //!< retransmissions after NACK TRIMMED
        uint64_t rtxTrimmedLastHop{0};   //!< retransmissions after NACK TRIMMED_LASTHOP
        uint64_t rtxTimeout{0};          //!< retransmissions after the loss timer
        uint64_t bytesRetransmitted{0};  //!< payload bytes retransmitted
        uint64_t sacksReceived{0};       //!< SACKs
        uint64_t nacksReceived{0};       //!< NACKs
        uint64_t probesSent{0};          //!< probes
        uint64_t dataPacketsReceived{0}; //!< new data packets placed
        uint64_t duplicatesReceived{0};  //!< duplicate data packets
        uint64_t trimmedReceived{0};     //!< trimmed data packets
        uint64_t malformedReceived{0};   //!< malformed packets dropped
        uint64_t outOfWindowReceived{0}; //!< PSNs beyond the window
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcQueuePair();
    ~MrcQueuePair() override;

    /// \return this QP's number
    uint32_t GetQpn() const;

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
    /// A message being sent.
    struct TxMessage
    {
        uint32_t msn{0};                                  //!< message sequence number
        uint64_t bytes{0};                                //!< size
        uint64_t va{0};                                   //!< remote address
        uint32_t rkey{0};                                 //!< remote key
        std::optional<uint32_t> immediate;                //!< immediate data
        std::shared_ptr<const std::vector<uint8_t>> data; //!< bytes (optional)
        uint64_t packetized{0};                           //!< bytes cut into packets
        uint32_t unacked{0};                              //!< packets not yet acknowledged
        bool fullyPacketized{false};                      //!< last packet created
    };

    /// One PSN in flight.
    struct TxRecord
    {
        uint32_t psn{0};                         //!< PSN
        uint32_t msn{0};                         //!< its message
        uint64_t offset{0};                      //!< offset in the message
        uint32_t length{0};                      //!< payload bytes
        MrcOpcode opcode{MrcOpcode::WRITE_ONLY}; //!< opcode
        Time sentAt;                             //!< last transmission
        uint32_t ev{0};                          //!< EV of the last transmission
        uint32_t transmissions{0};               //!< times sent
        bool acked{false};                       //!< acknowledged
        bool inFlight{false};                    //!< counted in bytes in flight
        bool queued{false};                      //!< waiting in the retransmission queue
    };

    /// Ask every port to pull.
    void Kick();
    /**
     * \param psn a PSN in the window
     * \return its record, or nullptr if outside the window
     */
    TxRecord* Find(uint32_t psn);
    /**
     * \param msn a message sequence number
     * \return the unfinished message, or nullptr (constant time)
     */
    TxMessage* FindMessage(uint32_t msn);
    /**
     * Build a data packet for a record.
     * \param r the record
     * \param ev its EV
     * \return the MRC payload
     */
    Ptr<Packet> BuildData(const TxRecord& r, uint32_t ev) const;
    /**
     * Queue a retransmission.
     * \param r the record
     * \param cause why
     */
    void QueueRetransmission(TxRecord& r, const std::string& cause);
    /**
     * Mark a record acknowledged.
     * \param r the record
     * \return its payload bytes if newly acknowledged, else 0
     */
    uint32_t Ack(TxRecord& r);
    /// Slide the window over acknowledged PSNs and complete messages.
    void Slide();
    /**
     * \param sack a SACK
     * \param ev the EV it arrived on
     */
    void OnSack(Ptr<Packet> sack, uint32_t ev);
    /// \param nack a NACK packet
    void OnNack(Ptr<Packet> nack);
    /**
     * Receiver side of a data packet.
     * \param packet after the BTH
     * \param bth BTH
     * \param outer outer header
     * \param ev EV
     * \param plane arrival port
     */
    void OnData(Ptr<Packet> packet,
                const MrcBthHeader& bth,
                const Ipv6Header& outer,
                uint32_t ev,
                uint32_t plane);
    /**
     * \param packet a probe (after the BTH)
     * \param plane arrival port
     */
    void OnProbe(Ptr<Packet> packet, uint32_t plane);
    /// Loss timer expiry.
    void OnLossTimer();
    /// Re-arm the loss timer for the oldest transmission.
    void ArmLossTimer();
    /// Probe ASSUMED_BAD EVs.
    void OnProbeTimer();
    /// QP timeout check.
    void OnQpTimer();
    /**
     * Fail the QP.
     * \param reason why
     */
    void Fail(const std::string& reason);
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
    /// \return 16-bit microsecond timestamp of now
    static uint16_t Timestamp();

    // Attributes
    uint32_t m_mss;                //!< payload bytes per packet
    TypeId m_ccType;               //!< congestion control
    uint32_t m_evSetSize;          //!< active EVs (all planes)
    uint32_t m_maxOutstanding;     //!< PSN window
    Time m_lossTimeout;            //!< loss timer (0: LossTimeoutRtts x base RTT)
    double m_lossTimeoutRtts;      //!< loss timer in base RTTs
    Time m_probeInterval;          //!< probe period (0: 2 x base RTT)
    uint32_t m_probeSuccesses;     //!< probe successes to restore an EV
    uint32_t m_skipRotations;      //!< SKIP duration in rotations (0: one base RTT's worth)
    uint32_t m_ackTimeoutExponent; //!< QP timeout = 1.024 us x 2^t
    uint32_t m_retryCount;         //!< QP timeouts tolerated
    uint32_t m_sackEvery;          //!< data packets per SACK
    uint8_t m_windowPenalty;       //!< receiver window penalty advertised
    uint8_t m_dataDscp;            //!< DSCP of data
    uint8_t m_rtxDscp;             //!< DSCP of retransmissions
    uint8_t m_controlDscp;         //!< DSCP of control packets
    uint8_t m_trimmedDscp;         //!< DSCP of fabric-trimmed packets
    uint8_t m_trimmedLastHopDscp;  //!< DSCP of last-hop-trimmed packets

    // Wiring
    MrcL4Protocol* m_l4{nullptr};            //!< the NIC
    uint32_t m_qpn{0};                       //!< this QP
    uint32_t m_remoteQpn{0};                 //!< the peer's QP
    MrcPathResolver m_resolver;              //!< EV -> path
    std::map<uint32_t, MrcWirePath> m_paths; //!< resolved paths
    std::unique_ptr<MrcPathSet> m_pathSet;   //!< EV set
    Ptr<MrcCongestionOps> m_cc;              //!< congestion control
    Time m_baseRtt;                          //!< base RTT
    bool m_failed{false};                    //!< fatal error happened
    std::vector<bool> m_peerPlaneDown;       //!< peer's ports down (from SACKs)
    std::vector<bool> m_localPlaneDown;      //!< local ports down

    // Sender
    std::deque<TxMessage> m_messages;          //!< unfinished messages, by MSN
    uint32_t m_nextMsn{0};                     //!< next MSN
    uint32_t m_cutMsn{0};                      //!< MSN of the next message to cut into packets
    boost::circular_buffer<TxRecord> m_window; //!< PSNs from m_basePsn on
    uint32_t m_basePsn{0};                     //!< oldest unacknowledged PSN
    uint32_t m_nextPsn{0};                     //!< next new PSN
    std::deque<uint32_t> m_rtxQueue;           //!< PSNs to retransmit
    uint64_t m_inFlight{0};                    //!< bytes in flight
    std::deque<std::pair<Time, uint32_t>> m_lossQueue; //!< (deadline, PSN), in send order
    EventId m_lossEvent;                               //!< loss timer
    EventId m_probeEvent;                              //!< probe timer
    EventId m_qpEvent;                                 //!< QP timeout timer
    uint32_t m_lastCumulative{0};                      //!< cumulative PSN at the last QP timer
    uint32_t m_qpTimeouts{0};                          //!< consecutive QP timeouts
    uint32_t m_probeSeq{0};                            //!< next probe sequence number
    std::map<uint32_t, uint32_t> m_probes;             //!< outstanding probe -> EV

    // Receiver
    std::unique_ptr<MrcReceiveState> m_rx; //!< received PSNs and messages
    uint32_t m_sinceSack{0};               //!< data packets since the last SACK
    std::map<uint64_t, std::shared_ptr<std::vector<uint8_t>>> m_memory; //!< va -> region

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
    TracedCallback<uint32_t, uint64_t> m_completeTrace;                      //!< MessageComplete
    TracedCallback<uint32_t, uint64_t> m_deliveredTrace;                     //!< MessageDelivered
    TracedCallback<std::string> m_errorTrace;                                //!< QpError
};

} // namespace ns3

#endif /* MRC_QUEUE_PAIR_H */
