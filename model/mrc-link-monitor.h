/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_LINK_MONITOR_H
#define MRC_LINK_MONITOR_H

#include "mrc-fabric-link.h"
#include "mrc-fabric-topology.h"
#include "mrc-failure-spec.h"
#include "mrc-trace-connections.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/queue-disc.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Per-link, per-direction load of a fabric over time: bytes sent, utilisation, queue
 * occupancy; and how evenly each link tier was loaded (spraying against ECMP collisions).
 *
 * A direction is one end of an MrcFabricLink transmitting: `up` is the lower node (host or
 * lower-tier switch) sending to the upper node, `down` the reverse. Install() watches both
 * directions of every switch-to-switch link (and of every host link with IncludeHostLinks),
 * in link id order, up before down: that order is the direction index.
 *
 * Every Interval from `start` until `stop` a sample closes the interval that just ended (the
 * last one is cut at `stop` if Interval does not divide `stop - start`; nothing is scheduled
 * after `stop`). Per direction and interval:
 *  - bytes: frames whose transmission began in the interval, counted at the transmitting
 *    device's PhyTxBegin trace with their size on the wire (the IPv6 packet plus the 2-byte
 *    PPP header). The device's trace is used rather than the root queue disc's nTotalSentBytes
 *    because an MrcTrimmingQueueDisc accounts a trimmed packet at its original size;
 *  - utilisation: the share of the interval during which the transmitter was busy (PhyTxBegin
 *    to PhyTxEnd, split exactly at interval boundaries), in [0, 1]. At a constant rate this is
 *    bytes x 8 / (DataRate x interval) up to the frames that straddle a boundary; it stays
 *    exact when the device's DataRate changes in the interval (MrcFailureHelper::DegradeRate);
 *  - rate: the transmitting device's DataRate at the sample instant;
 *  - queue bytes: the root queue disc's GetNBytes() at the sample instant (for a
 *    MrcTrimmingQueueDisc, trimmed packets at their original size, as QueueDisc counts them); the
 *    device's own small transmit queue is not included;
 *  - peak queue bytes: the largest value of the queue disc's BytesInQueue during the interval.
 * A direction whose node has no root queue disc reports 0 queue bytes. Stop the simulation
 * later than `stop` (Simulator::Stop): an event at the very time of the stop may not run, and
 * the last interval would stay open.
 *
 * \code
 *   Ptr<MrcLinkMonitor> links = CreateObject<MrcLinkMonitor>();
 *   links->SetAttribute("Interval", TimeValue(MicroSeconds(50)));
 *   links->Install(topo, Seconds(0), MilliSeconds(2));
 *   Simulator::Run();
 *   links->WriteSeriesCsv(seriesFile);
 *   double b = links->GetBalance(MrcLinkTier::T0_T1, MrcLinkDirection::UP);
 * \endcode
 */
class MrcLinkMonitor : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcLinkMonitor();
    ~MrcLinkMonitor() override;

    /// One watched direction of a link.
    struct DirectionInfo
    {
        uint32_t link{0};                                 //!< MrcFabricLink::id
        MrcLinkTier tier{MrcLinkTier::HOST_T0};           //!< link tier
        uint32_t plane{0};                                //!< plane
        MrcLinkDirection direction{MrcLinkDirection::UP}; //!< UP (lower to upper) or DOWN
        Ptr<Node> from;                                   //!< transmitting node
        Ptr<Node> to;                                     //!< receiving node
        std::string fromName;                             //!< ns-3 name of `from` (or node-<id>)
        std::string toName;                               //!< ns-3 name of `to` (or node-<id>)
        Ptr<NetDevice> device;                            //!< the transmitting NetDevice
    };

    /// One closed interval of one direction.
    struct Sample
    {
        Time start;                 //!< interval start
        Time end;                   //!< interval end (start + Interval, stop, or Finish())
        uint64_t bytes{0};          //!< frame bytes whose transmission began in it
        double utilisation{0};      //!< busy share of the interval, 0..1
        DataRate rate;              //!< device DataRate at the end of the interval
        uint32_t queueBytes{0};     //!< root queue disc bytes at the end of the interval
        uint32_t peakQueueBytes{0}; //!< largest root queue disc bytes during the interval
    };

    /// One direction over the whole run (the closed intervals).
    struct Summary
    {
        uint64_t bytes{0};          //!< frame bytes sent
        double meanUtilisation{0};  //!< busy time / sampled time
        double peakUtilisation{0};  //!< largest utilisation of an interval
        uint32_t peakQueueBytes{0}; //!< largest root queue disc bytes
    };

    /**
     * Watch a fabric. Call once, after the fabric is built (its queue discs exist).
     * \param topo the fabric
     * \param start first interval start (>= now)
     * \param stop last interval end (> start)
     * \throws std::invalid_argument if called twice, if start is in the past or stop <= start
     */
    void Install(Ptr<MrcFabricTopology> topo, Time start, Time stop);

    /**
     * Close the open interval now, cut short, and sample no more: for a run that ends at an
     * event of its own (a collective's completion calling Simulator::Stop) before `stop`. Call
     * it during or after Simulator::Run (Simulator::Now() is then the last event's time). Before
     * `start` it only cancels the start; before Install(), after `stop`, or a second time, it
     * does nothing. An interval of zero width (Finish at an interval boundary) is not added.
     */
    void Finish();

    /// \return number of watched directions
    uint32_t GetDirectionCount() const;

    /**
     * \param direction a direction index
     * \return its description
     * \throws std::out_of_range if the index is invalid
     */
    const DirectionInfo& GetDirectionInfo(uint32_t direction) const;

    /**
     * \param link an MrcFabricLink id
     * \param direction UP or DOWN
     * \return the direction index, if watched
     */
    std::optional<uint32_t> FindDirection(uint32_t link, MrcLinkDirection direction) const;

    /**
     * \return number of intervals closed so far (ceil((stop - start) / Interval) after a run,
     * fewer if Finish() ended it early)
     */
    uint32_t GetIntervalCount() const;

    /**
     * \param direction a direction index
     * \return its closed intervals, in time order
     * \throws std::out_of_range if the index is invalid
     */
    const std::vector<Sample>& GetSeries(uint32_t direction) const;

    /**
     * \param direction a direction index
     * \return its totals over the closed intervals
     * \throws std::out_of_range if the index is invalid
     */
    Summary GetSummary(uint32_t direction) const;

    /**
     * How evenly a tier's links carried bytes over the run: the largest per-direction byte
     * count divided by the mean over the watched directions of that tier (1 = perfectly
     * balanced; n = everything on one of n links).
     * \param tier link tier
     * \param direction UP, DOWN, or BOTH (every direction of the tier)
     * \return the ratio, or 0 if no watched direction of the tier carried a byte
     */
    double GetBalance(MrcLinkTier tier, MrcLinkDirection direction) const;

    /**
     * \param interval the sampling interval (> 0)
     * \throws std::invalid_argument if interval <= 0 or after Install()
     */
    void SetInterval(Time interval);

    /// \return the sampling interval
    Time GetInterval() const;

    /**
     * Write the series, one row per (interval, direction), intervals in time order and
     * directions by index within one interval. Columns:
     * `interval` (0-based), `start_us`, `end_us` (interval bounds), `dir_index`, `link`
     * (MrcFabricLink id), `tier` (host-T0, T0-T1, T1-T2), `plane`, `direction` (up, down),
     * `from`, `to` (node names), `bytes`, `utilisation` (0..1), `rate_gbps` (DataRate at the
     * interval's end), `queue_bytes` (at the interval's end), `peak_queue_bytes`.
     * \param os where
     */
    void WriteSeriesCsv(std::ostream& os) const;

    /**
     * Write one row per direction: `dir_index,link,tier,plane,direction,from,to,bytes,
     * mean_utilisation,peak_utilisation,peak_queue_bytes,intervals` (as in GetSummary).
     * \param os where
     */
    void WriteSummaryCsv(std::ostream& os) const;

    /**
     * Write GetBalance() for every watched tier and direction (up, down, both):
     * `tier,direction,directions,total_bytes,mean_bytes,max_bytes,balance`.
     * \param os where
     */
    void WriteBalanceCsv(std::ostream& os) const;

    /**
     * The first `intervals` samples of every direction, for a sum over MPI ranks: bytes, queue
     * bytes and peak queue bytes (three values per sample), direction by direction. A rank
     * sees only the directions its nodes transmit on; the others' samples are zero there.
     * \param intervals samples per direction (at most GetIntervalCount())
     * \return the values
     */
    std::vector<uint64_t> ExportCounts(uint32_t intervals) const;

    /**
     * \param intervals as ExportCounts
     * \return the utilisation of the same samples, in the same order
     */
    std::vector<double> ExportUtilisation(uint32_t intervals) const;

    /**
     * Keep the first `intervals` samples of every direction and set their values (every
     * rank's ExportCounts and ExportUtilisation, summed).
     * \param intervals samples per direction kept (at most GetIntervalCount())
     * \param counts three values per sample
     * \param utilisation one value per sample
     * \throws std::invalid_argument if intervals or a size does not fit
     */
    void ImportSamples(uint32_t intervals,
                       const std::vector<uint64_t>& counts,
                       const std::vector<double>& utilisation);

  protected:
    void DoDispose() override;

  private:
    /// State of one watched direction.
    struct Watch
    {
        DirectionInfo info;         //!< description
        Ptr<QueueDisc> queue;       //!< root queue disc of the transmitting device (or null)
        uint64_t bytes{0};          //!< open interval: bytes
        Time busy;                  //!< open interval: busy time
        Time busySince{-1};         //!< transmitting since (negative: idle)
        uint32_t peak{0};           //!< open interval: peak queue bytes
        std::vector<Sample> series; //!< closed intervals
    };

    /// Bytes of the watched directions of one tier.
    struct TierTotals
    {
        uint64_t total{0};      //!< sum
        uint64_t largest{0};    //!< largest direction
        uint32_t directions{0}; //!< directions counted
    };

    /**
     * \param tier link tier
     * \param direction UP, DOWN or BOTH
     * \return the bytes of its watched directions over the run
     */
    TierTotals GetTierTotals(MrcLinkTier tier, MrcLinkDirection direction) const;

    /**
     * \param d direction index
     * \param packet the frame
     */
    void OnTxBegin(uint32_t d, Ptr<const Packet> packet);
    /**
     * \param d direction index
     * \param packet the frame
     */
    void OnTxEnd(uint32_t d, Ptr<const Packet> packet);
    /**
     * \param d direction index
     * \param oldValue previous queue bytes
     * \param newValue queue bytes now
     */
    void OnQueueBytes(uint32_t d, uint32_t oldValue, uint32_t newValue);
    /// Open the first interval.
    void Start();
    /// Close the open interval; schedule the next one or stop.
    void CloseInterval();
    /**
     * \param w a watched direction
     * \return its root queue disc bytes now
     */
    static uint32_t QueueBytes(const Watch& w);

    Time m_interval;                //!< sampling interval
    bool m_includeHostLinks{false}; //!< watch host links too
    bool m_installed{false};        //!< Install() was called
    bool m_active{false};           //!< between start and stop
    Time m_start;                   //!< first interval start
    Time m_stop;                    //!< last interval end
    Time m_intervalStart;           //!< start of the open interval
    uint32_t m_intervals{0};        //!< intervals closed
    EventId m_event;                //!< next start or sample
    std::vector<Watch> m_watches;   //!< by direction index
    MrcTraceConnections m_traces;   //!< trace connections
};

} // namespace ns3

#endif /* MRC_LINK_MONITOR_H */
