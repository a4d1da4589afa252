/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TRIMMING_QUEUE_DISC_H
#define MRC_TRIMMING_QUEUE_DISC_H

#include "mrc-red-ecn-marker.h"
#include "mrc-trimming-data-queue.h"

#include "ns3/queue-disc.h"
#include "ns3/random-variable-stream.h"

#include <bitset>
#include <optional>
#include <string>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief A switch port queue that trims instead of dropping: the lossy-but-unambiguous fabric
 * of MRC (and NDP / Ultra Ethernet).
 *
 * Two internal queues: a priority queue (index 0) for control packets and trimmed headers, and
 * a data queue (index 1). Classification is by DSCP: ControlDscp, TrimmedDscp and
 * TrimmedLastHopDscp go to the priority queue, everything else is data.
 *
 * When a data packet does not fit in the data queue (DataMaxSize), it is trimmed to TrimSize
 * bytes (counting the IP header), its DSCP rewritten to TrimmedDscp — or TrimmedLastHopDscp
 * where LastHop is true (a host-facing port), so the receiver can tell incast from fabric
 * congestion — and it joins the priority queue; if the priority queue is full too, it is
 * dropped ("Priority queue full"). A packet whose DSCP is listed in NonTrimmableDscps, or any
 * packet when TrimmingEnabled is false, is dropped instead ("Data queue full, not trimmable").
 * With VictimTrimProbability p > 0, a full data queue trims its tail packet (the most recent
 * arrival) with probability p and admits the arrival in its place, as NDP's switch does.
 *
 * Service is strict priority (default) or, with StrictPriority false, weighted round robin of
 * PriorityWeight packets from the priority queue per DataWeight packets from the data queue.
 *
 * ECN: data packets that are ECN-capable are CE-marked with the RED-like probability of
 * MrcRedEcnMarker over the data queue's length in bytes (EcnMinTh, EcnMaxTh, EcnMaxP), at enqueue
 * (default) or at dequeue (MarkAtDequeue). EcnEnabled false turns marking off (MRC does so on
 * the last hop, so that a mark means "this path is loaded").
 *
 * Statistics: QueueDisc::Stats drop reasons kDropNotTrimmable and kDropPriorityFull, mark
 * reason kMarkEcn; trims are not drops and are counted by GetTrimStats() and the Trim trace.
 * ns-3's QueueDisc counts every packet whole (received = enqueued + dropped, in packets and in
 * bytes), so a trim is a substitution: the queued item keeps its original size in QueueDisc's
 * byte counters and its trimmed form leaves in its place; PriorityMaxSize counts trimmed sizes.
 */
class MrcTrimmingQueueDisc : public QueueDisc
{
  public:
    /// Drop reason: data did not fit and may not be trimmed.
    static constexpr const char* kDropNotTrimmable = "Data queue full, not trimmable";
    /// Drop reason: a control packet or trimmed header did not fit in the priority queue.
    static constexpr const char* kDropPriorityFull = "Priority queue full";
    /// Mark reason: ECN congestion experienced.
    static constexpr const char* kMarkEcn = "ECN mark";

    /// Trim counters.
    struct TrimStats
    {
        uint64_t trimmed{0};      //!< packets trimmed (arrivals and victims)
        uint64_t victims{0};      //!< of which queued victims
        uint64_t bytesRemoved{0}; //!< payload bytes cut away
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcTrimmingQueueDisc();
    ~MrcTrimmingQueueDisc() override;

    /**
     * TracedCallback signature of the Trim trace.
     * \param original the packet as it arrived (or as it was queued, for a victim)
     * \param trimmed the trimmed packet
     * \param victim true if a queued packet was trimmed in favour of the arrival
     */
    typedef void (*TrimTracedCallback)(Ptr<const QueueDiscItem> original,
                                       Ptr<const QueueDiscItem> trimmed,
                                       bool victim);

    /// \return the trim counters
    const TrimStats& GetTrimStats() const;

    /**
     * Assign a fixed random variable stream number to the random variables used by this model.
     * \param stream first stream index to use
     * \return the number of stream indices assigned
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    bool CheckConfig() override;
    void InitializeParams() override;

    /**
     * \param dscp a DSCP (nothing for non-IP items)
     * \return true if the packet belongs in the priority queue
     */
    bool IsPriority(std::optional<uint8_t> dscp) const;

    /**
     * \param queue an internal queue
     * \param item an item
     * \return true if the item fits in the queue now
     */
    static bool Fits(Ptr<InternalQueue> queue, Ptr<const QueueDiscItem> item);

    /**
     * \param bytes size the packet will have in the priority queue
     * \return true if it fits under PriorityMaxSize
     */
    bool PriorityFits(uint32_t bytes) const;

    /**
     * Put an item in the priority queue, or drop it if there is no room.
     * \param item the item as the queue disc accounts it
     * \param substitute the packet that leaves in its place (its trimmed form), or nullptr
     * \return true if queued
     */
    bool EnqueuePriority(Ptr<QueueDiscItem> item, Ptr<QueueDiscItem> substitute);

    /**
     * \param item a queued item
     * \return the packet that will leave for it (its substitute, if any)
     */
    Ptr<const QueueDiscItem> Content(Ptr<const QueueDiscItem> item) const;

    /**
     * Mark an item with the RED-like probability of the current data queue length.
     * \param item the item
     */
    void MaybeMark(Ptr<QueueDiscItem> item);

    /**
     * \param field the attribute's name, for the error
     * \param list comma-separated DSCPs, or "*" for all 64
     * \return the set
     * \throws std::invalid_argument naming the field if malformed
     */
    static std::bitset<64> ParseDscpList(const std::string& field, const std::string& list);

    /**
     * \param dscp an item's DSCP (none: not an IP packet)
     * \return true if the item may be trimmed (TrimmableDscps, not NonTrimmableDscps)
     */
    bool IsTrimmable(std::optional<uint8_t> dscp) const;

    // Attributes
    QueueSize m_dataMaxSize;      //!< data queue limit
    QueueSize m_priorityMaxSize;  //!< priority queue limit
    bool m_trimmingEnabled;       //!< trim (true) or drop (false) on overflow
    uint32_t m_trimSize;          //!< bytes kept, counting the IP header
    uint8_t m_controlDscp;        //!< DSCP of control packets
    uint8_t m_trimmedDscp;        //!< DSCP written on trimmed packets
    uint8_t m_trimmedLastHopDscp; //!< DSCP written on trimmed packets at a host-facing port
    bool m_lastHop;               //!< this port faces a host
    std::string m_trimmable;      //!< DSCPs that may be trimmed (comma-separated, or "*")
    std::string m_nonTrimmable;   //!< DSCPs never trimmed (comma-separated)
    double m_victimProbability;   //!< probability of trimming the tail instead of the arrival
    bool m_strictPriority;        //!< strict priority (true) or WRR (false)
    uint32_t m_priorityWeight;    //!< WRR: packets from the priority queue per round
    uint32_t m_dataWeight;        //!< WRR: packets from the data queue per round
    bool m_ecnEnabled;            //!< mark ECN-capable data packets
    uint32_t m_ecnMinTh;          //!< bytes
    uint32_t m_ecnMaxTh;          //!< bytes
    double m_ecnMaxP;             //!< probability at EcnMaxTh
    bool m_markAtDequeue;         //!< mark at dequeue instead of enqueue

    // State
    std::bitset<64> m_trimmableSet;          //!< parsed m_trimmable
    std::bitset<64> m_nonTrimmableSet;       //!< parsed m_nonTrimmable
    std::optional<MrcRedEcnMarker> m_marker; //!< marking law (when enabled)
    Ptr<UniformRandomVariable> m_uv;         //!< marking and victim draws
    Ptr<InternalQueue> m_priorityQueue;      //!< internal queue 0
    Ptr<MrcTrimmingDataQueue> m_dataQueue;   //!< internal queue 1
    uint32_t m_wrrCredit{0};                 //!< WRR: packets left in the current turn
    bool m_wrrServingPriority{true};         //!< WRR: whose turn it is
    TrimStats m_trimStats;                   //!< counters
    /// queued item -> the packet that leaves in its place (its trimmed header, or, for a
    /// victim's slot, the arrival that took it)
    std::unordered_map<const QueueDiscItem*, Ptr<QueueDiscItem>> m_substitute;
    uint64_t m_priorityBytes{0};   //!< priority queue bytes, trimmed sizes
    uint32_t m_priorityPackets{0}; //!< priority queue packets
    TracedCallback<Ptr<const QueueDiscItem>, Ptr<const QueueDiscItem>, bool> m_trimTrace; //!< Trim
};

} // namespace ns3

#endif /* MRC_TRIMMING_QUEUE_DISC_H */
