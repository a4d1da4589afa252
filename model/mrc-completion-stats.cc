/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-completion-stats.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{

MrcCompletionStats::MrcCompletionStats(std::vector<Time> samples)
    : m_sorted(std::move(samples))
{
    std::sort(m_sorted.begin(), m_sorted.end());
}

uint32_t
MrcCompletionStats::GetCount() const
{
    return m_sorted.size();
}

Time
MrcCompletionStats::GetMin() const
{
    return m_sorted.empty() ? Time(0) : m_sorted.front();
}

Time
MrcCompletionStats::GetMedian() const
{
    return GetPercentile(50);
}

Time
MrcCompletionStats::GetMean() const
{
    if (m_sorted.empty())
    {
        return Time(0);
    }
    int64x64_t sum = 0;
    for (const Time& t : m_sorted)
    {
        sum += t.GetTimeStep();
    }
    return Time(sum / int64x64_t(m_sorted.size()));
}

Time
MrcCompletionStats::GetMax() const
{
    return m_sorted.empty() ? Time(0) : m_sorted.back();
}

Time
MrcCompletionStats::GetPercentile(double q) const
{
    if (!(q > 0 && q <= 100))
    {
        throw std::invalid_argument("MrcCompletionStats: percentile (=" + std::to_string(q)
                                    + ") must be in (0, 100]");
    }
    if (m_sorted.empty())
    {
        return Time(0);
    }
    // The epsilon keeps e.g. 99 % of 100 samples at rank 99 despite rounding in q * n / 100.
    const auto rank = static_cast<size_t>(std::ceil(q * m_sorted.size() / 100.0 - 1e-9));
    return m_sorted[std::max<size_t>(rank, 1) - 1];
}

} // namespace ns3
