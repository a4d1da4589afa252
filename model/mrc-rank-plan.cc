/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-rank-plan.h"

#include <stdexcept>
#include <string>

namespace ns3
{

MrcRankPlan::MrcRankPlan(const MrcClosSpec& spec, uint32_t ranks)
    : m_spec(spec)
    , m_ranks(ranks)
{
    if (ranks < 1 || ranks > spec.GetT0Count())
    {
        throw std::invalid_argument("MrcRankPlan: ranks (=" + std::to_string(ranks)
                                    + ") must be in 1.." + std::to_string(spec.GetT0Count())
                                    + " (the fabric's T0 count per plane: hosts stay with "
                                      "their T0)");
    }
}

uint32_t
MrcRankPlan::GetRanks() const
{
    return m_ranks;
}

uint32_t
MrcRankPlan::OfT0(uint32_t t) const
{
    return static_cast<uint32_t>(uint64_t(t) * m_ranks / m_spec.GetT0Count());
}

uint32_t
MrcRankPlan::OfHost(uint32_t host) const
{
    return OfT0(host / m_spec.hostsPerT0);
}

uint32_t
MrcRankPlan::OfSwitch(MrcSwitchTier tier, uint32_t index) const
{
    switch (tier)
    {
        case MrcSwitchTier::T0:
            return OfT0(index);
        case MrcSwitchTier::T1: {
            const uint32_t pod = index / m_spec.t1PerPod;
            const uint32_t local = index % m_spec.t1PerPod;
            return OfT0(
                pod * m_spec.t0PerPod
                + static_cast<uint32_t>(uint64_t(local) * m_spec.t0PerPod / m_spec.t1PerPod));
        }
        case MrcSwitchTier::T2:
            break;
    }
    return index % m_ranks;
}

} // namespace ns3
