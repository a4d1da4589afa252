/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_COMPLETION_STATS_H
#define MRC_COMPLETION_STATS_H

#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Order statistics of a set of completion times (flows, transfers, steps).
 *
 * Percentiles use the nearest-rank definition: P(q) is the smallest sample such that at least
 * q % of the samples are <= it. P100 is the maximum, which is what a synchronous job waits for.
 */
class MrcCompletionStats
{
  public:
    /**
     * \param samples the completion times (copied and sorted); may be empty
     */
    explicit MrcCompletionStats(std::vector<Time> samples);

    /// \return number of samples
    uint32_t GetCount() const;
    /// \return the smallest sample (zero if empty)
    Time GetMin() const;
    /// \return P50
    Time GetMedian() const;
    /// \return the mean (zero if empty)
    Time GetMean() const;
    /// \return the largest sample (P100)
    Time GetMax() const;

    /**
     * \param q percentile, 0 < q <= 100
     * \return the nearest-rank percentile (zero if empty)
     * \throws std::invalid_argument if q is outside (0, 100]
     */
    Time GetPercentile(double q) const;

  private:
    std::vector<Time> m_sorted; //!< samples, ascending
};

} // namespace ns3

#endif /* MRC_COMPLETION_STATS_H */
