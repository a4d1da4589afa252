/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TRANSFER_MONITOR_H
#define MRC_TRANSFER_MONITOR_H

#include "ns3/mrc-queue-pair.h"
#include "ns3/mrc-transfer-event-log.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class MrcCollective;

/**
 * \ingroup mrc
 * \brief Watches transfers (one or more queue pairs between two hosts) and reports what a
 * failure cost them: goodput per time interval, the longest stall, bytes retransmitted, and
 * whether a queue pair failed.
 *
 * A flow is a set of (sender, receiver) queue-pair pairs, one for a single QP, several for a
 * striped QP group. Goodput counts payload bytes placed at the receivers for the first time
 * (the Rx trace), so retransmitted duplicates do not count. A stall is a gap during which a
 * member queue pair has a message outstanding (posted, not yet acknowledged whole at its
 * sender) and makes no progress (places no payload, completes no message at the sender): from
 * its last progress, or from the post that made data due again if that is later (an idle QP
 * between the steps of a training job is not stalled), to its next progress or to the report
 * time. So the first packet's latency after a post counts as a (short) gap, and so does a
 * message delivered whole whose acknowledgement is lost (the sender, and a ring waiting for
 * its write to complete, wait for a NIC timeout). A flow's longest
 * stall is the longest of its members' (a striped message completes only when every part has,
 * so one stuck member stalls the transfer even while the others move); its stalled time is the
 * sum of its members' gaps longer than StallThreshold.
 *
 * The summary also sums the members' MrcQpStats by cause (retransmissions after a trim NACK,
 * after the loss timer, after another NACK; go-back-N rewinds; NACKs; trimmed packets received;
 * CNPs) and counts the senders' EV state changes (EvStateChange trace) and retirements (to
 * ASSUMED_BAD).
 *
 * \code
 *   Ptr<MrcTransferMonitor> monitor = CreateObject<MrcTransferMonitor>();
 *   monitor->SetAttribute("Interval", TimeValue(MicroSeconds(100)));
 *   monitor->AddFlow("h0->h4", sender, receiver);   // before Simulator::Run
 *   ...
 *   for (const MrcTransferMonitor::FlowSummary& f : monitor->GetSummaries(Simulator::Now())) ...
 * \endcode
 */
class MrcTransferMonitor : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcTransferMonitor();

    /// One queue pair's two ends.
    using QpPair = std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>>;

    /// What happened to one flow, up to a report time.
    struct FlowSummary
    {
        std::string label;              //!< the label given to AddFlow
        uint64_t bytesPosted{0};        //!< bytes of the messages posted by the senders
        uint64_t bytesDelivered{0};     //!< payload bytes placed (first copies only)
        uint64_t retransmissions{0};    //!< packets retransmitted by the senders
        uint64_t bytesRetransmitted{0}; //!< payload bytes retransmitted by the senders
        Time firstByte{-1};             //!< first placement (negative: none)
        Time completion{-1};            //!< every posted message delivered (negative: not yet)
        Time longestStall{0};           //!< longest gap in placements while data was due
        Time stallStart{-1};            //!< when that gap began (negative: none)
        Time stalledTime{0};            //!< sum of the gaps longer than StallThreshold
        bool failed{false};             //!< a sender reported a fatal error
        /// \name Causes (sums over the flow's queue pairs, MrcQpStats)
        /// @{
        uint64_t rtxTrimmed{0};      //!< retransmissions after a NACK for a trimmed packet
        uint64_t rtxTimeout{0};      //!< retransmissions after the loss timer
        uint64_t rtxNack{0};         //!< retransmissions after another NACK (window, bitmap)
        uint64_t rewinds{0};         //!< go-back-N rewinds (NACK or timeout)
        uint64_t nacksReceived{0};   //!< NACKs at the senders
        uint64_t trimmedReceived{0}; //!< trimmed packets at the receivers
        uint64_t cnpsReceived{0};    //!< CNPs at the senders
        uint64_t evStateChanges{0};  //!< EV state changes at the senders
        uint64_t evRetirements{0};   //!< of which to ASSUMED_BAD (a silent loss retired an EV)
        /// @}
    };

    /**
     * Watch a flow of several queue pairs (a QP group). Call before its messages are posted.
     * \param label a name for reports
     * \param qps (sender, receiver) of each member queue pair
     * \return the flow's index
     * \throws std::invalid_argument if qps is empty or holds a null queue pair
     */
    uint32_t AddFlow(const std::string& label, const std::vector<QpPair>& qps);

    /**
     * Watch every queue-pair group of the collectives, one flow each, labelled
     * "<collective><index>:h<src>->h<dst>" ("ring" for a ring all-reduce, "a2a<index>" for an
     * all-to-all).
     * \param collectives the collectives (Setup done)
     */
    void AddCollectives(const std::vector<Ptr<MrcCollective>>& collectives);

    /**
     * Watch a flow of one queue pair.
     * \param label a name for reports
     * \param sender the sending end
     * \param receiver the receiving end
     * \return the flow's index
     */
    uint32_t AddFlow(const std::string& label,
                     Ptr<MrcQueuePair> sender,
                     Ptr<MrcQueuePair> receiver);

    /// \return number of flows
    uint32_t GetFlowCount() const;

    /**
     * \param flow a flow index
     * \param end the report time (usually Simulator::Now() after the run)
     * \return its summary
     */
    FlowSummary GetSummary(uint32_t flow, Time end) const;

    /// \param end report time \return every flow's summary, by index
    std::vector<FlowSummary> GetSummaries(Time end) const;

    /**
     * \param flow a flow index
     * \return payload bytes placed in each interval [i x Interval, (i + 1) x Interval)
     */
    const std::vector<uint64_t>& GetSeries(uint32_t flow) const;

    /// \return the sum over all flows of GetSeries()
    std::vector<uint64_t> GetTotalSeries() const;

    /// \return the series interval
    Time GetInterval() const;

    /**
     * Write the goodput series, one row per interval and flow: `time_us,flow,label,bytes,gbps`
     * (time is the interval's start).
     * \param os where
     */
    void WriteSeriesCsv(std::ostream& os) const;

    /**
     * Write the summaries: `flow,label,bytes_posted,bytes_delivered,retransmissions,
     * bytes_retransmitted,first_byte_us,completion_us,longest_stall_us,stall_start_us,failed,
     * stalled_us,rtx_trimmed,rtx_timeout,rtx_nack,rewinds,nacks,trimmed_received,cnps,
     * ev_changes,ev_retired` (negative times: never; see FlowSummary for each column).
     * \param os where
     * \param end report time
     */
    void WriteSummaryCsv(std::ostream& os, Time end) const;

    /// Counters per flow in GetCounters(): retransmissions, bytes retransmitted, after a trim,
    /// after the loss timer, after another NACK, rewinds, NACKs, CNPs, trims received, failed.
    static constexpr size_t kCounters = 10;

    /**
     * Record every event in an MrcTransferEventLog as well (off by default: the log grows by
     * one event per placed packet). On MPI ranks each rank's monitor sees only its own hosts'
     * queue pairs; MrcDistributed::GatherTransferMonitor replays every rank's log at rank 0.
     * \param recording whether to record
     */
    void SetRecording(bool recording);

    /// \return the events recorded since SetRecording(true)
    const MrcTransferEventLog& GetEventLog() const;

    /**
     * Forget what the trace sources told this monitor and compute everything again from a log
     * (events of several ranks in any order: they are sorted first). The flows stay.
     * \param log the events
     * \throws std::invalid_argument if an event names a member this monitor does not have
     */
    void Replay(MrcTransferEventLog log);

    /**
     * \return the queue pairs' counters (kCounters per flow, flow by flow), read from their
     *         MrcQpStats now: on an MPI rank, only this rank's queue pairs count
     */
    std::vector<uint64_t> GetCounters() const;

    /**
     * Report these counters instead of the queue pairs' (e.g. every rank's GetCounters()
     * summed); an empty vector goes back to the queue pairs'.
     * \param counters kCounters per flow, or none
     * \throws std::invalid_argument if the size is neither
     */
    void SetCounters(std::vector<uint64_t> counters);

  protected:
    void DoDispose() override;

  private:
    /// One member queue pair of a flow.
    struct Member
    {
        uint32_t flow{0};              //!< its flow
        uint32_t messagesPosted{0};    //!< messages posted on it
        uint32_t messagesDelivered{0}; //!< of which delivered
        uint32_t messagesCompleted{0}; //!< of which acknowledged whole at the sender
        Time lastProgress{-1};         //!< latest placement or completion
        Time dueSince{-1};             //!< when data last became due (nothing outstanding before)
        Time longestStall{0};          //!< longest gap so far
        Time stallStart{-1};           //!< its start
        Time stalledTime{0};           //!< sum of closed gaps longer than the threshold
        uint64_t evStateChanges{0};    //!< EvStateChange events at the sender
        uint64_t evRetirements{0};     //!< ... to ASSUMED_BAD
    };

    /// A watched flow.
    struct Flow
    {
        std::string label;             //!< label
        std::vector<QpPair> qps;       //!< member queue pairs
        std::vector<uint32_t> members; //!< their indices in m_members
        uint64_t posted{0};            //!< bytes posted
        uint32_t messagesPosted{0};    //!< messages posted
        uint32_t messagesDelivered{0}; //!< messages delivered
        uint64_t delivered{0};         //!< bytes placed
        Time firstByte{-1};            //!< first placement
        Time completion{-1};           //!< all posted messages delivered
        std::vector<uint64_t> series;  //!< bytes per interval
    };

    /**
     * Close the member's open gap (a placement or a completion).
     * \param m the member
     * \param now the time
     */
    void Progress(Member& m, Time now);
    /**
     * Record an event (when recording) and apply it now.
     * \param member member index
     * \param kind what happened
     * \param value its value (MrcTransferEventLog::Kind)
     */
    void Record(uint32_t member, MrcTransferEventLog::Kind kind, uint64_t value);
    /**
     * Update the member and its flow.
     * \param member member index
     * \param kind what happened
     * \param value its value (MrcTransferEventLog::Kind)
     * \param now when
     */
    void Apply(uint32_t member, MrcTransferEventLog::Kind kind, uint64_t value, Time now);
    /**
     * \param flow a flow
     * \return its queue pairs' counters now (kCounters values)
     */
    std::vector<uint64_t> GetFlowCounters(uint32_t flow) const;
    /**
     * \param member member index
     * \param msn message sequence number
     * \param bytes message size
     */
    void OnComplete(uint32_t member, uint32_t msn, uint64_t bytes);
    /**
     * \param member member index
     * \param msn message
     * \param bytes its size
     */
    void OnPosted(uint32_t member, uint32_t msn, uint64_t bytes);
    /**
     * \param member member index
     * \param packet placed payload
     * \param psn its PSN
     * \param ev its EV
     */
    void OnPlaced(uint32_t member, Ptr<const Packet> packet, uint32_t psn, uint32_t ev);
    /**
     * \param member member index
     * \param msn message
     * \param bytes its size
     */
    void OnDelivered(uint32_t member, uint32_t msn, uint64_t bytes);
    /**
     * A sender's EV changed state.
     * \param member member index
     * \param ev the EV
     * \param from old state
     * \param to new state
     * \param cause why
     */
    void OnEvState(uint32_t member, uint32_t ev, MrcEvState from, MrcEvState to, std::string cause);
    /**
     * \param m a member
     * \param now the time
     * \return the open gap of m at now: time since its last placement or since data became due,
     *         whichever is later (zero when nothing is due)
     */
    static Time OpenGap(const Member& m, Time now);

    Time m_interval;                  //!< series interval
    Time m_stallThreshold;            //!< StallThreshold attribute
    std::vector<Flow> m_flows;        //!< watched flows
    std::vector<Member> m_members;    //!< every flow's member queue pairs
    bool m_recording{false};          //!< SetRecording
    MrcTransferEventLog m_log;        //!< events recorded
    std::vector<uint64_t> m_counters; //!< SetCounters (empty: the queue pairs')
};

} // namespace ns3

#endif /* MRC_TRANSFER_MONITOR_H */
