/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-usid-plan.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace ns3
{

MrcUsidPlan::MrcUsidPlan(const MrcClosSpec& spec)
    : m_spec(spec)
{
    spec.Validate();
    if (spec.planes > kMaxPlanes)
    {
        throw std::invalid_argument("MrcUsidPlan: planes (=" + std::to_string(spec.planes)
                                    + ") must be <= 16 for SRv6 (4 plane bits per uSID)");
    }
    const uint32_t p01 = spec.GetT0T1Parallel();
    const uint32_t p12 = spec.GetT1T2Parallel();
    m_variants[0] = p01;
    m_variants[1] = std::max(p01, std::max(p12, 1u));
    m_variants[2] = std::max(p12, 1u);
    const uint32_t counts[3] = {spec.GetT0Count(), spec.GetT1Count(), spec.t2Count};
    uint32_t next = 1;
    for (uint32_t t = 0; t < 3; ++t)
    {
        m_base[t] = next;
        next += counts[t] * m_variants[t];
    }
    m_end = next;
    if (m_end - 1 > kMaxSwitchId)
    {
        throw std::invalid_argument(
            "MrcUsidPlan: the fabric needs " + std::to_string(m_end - 1)
            + " switch uSIDs per plane (switches x parallel-link variants), 12-bit ids allow "
            + std::to_string(kMaxSwitchId));
    }
    if (spec.hostsPerT0 > 0x1ff + 1)
    {
        throw std::invalid_argument("MrcUsidPlan: hostsPerT0 (=" + std::to_string(spec.hostsPerT0)
                                    + ") must be <= 512 for SRv6 host-port uSIDs");
    }
}

uint32_t
MrcUsidPlan::GetVariants(MrcSwitchTier tier) const
{
    return m_variants[uint32_t(tier)];
}

uint16_t
MrcUsidPlan::GetSwitchUsid(MrcSwitchTier tier,
                           uint32_t plane,
                           uint32_t index,
                           uint32_t variant) const
{
    const uint32_t t = uint32_t(tier);
    const uint32_t counts[3] = {m_spec.GetT0Count(), m_spec.GetT1Count(), m_spec.t2Count};
    if (t >= m_spec.GetTiers() || plane >= m_spec.planes || index >= counts[t]
        || variant >= m_variants[t])
    {
        throw std::out_of_range("MrcUsidPlan: no uSID for tier " + std::to_string(t) + ", plane "
                                + std::to_string(plane) + ", index " + std::to_string(index)
                                + ", variant " + std::to_string(variant));
    }
    const uint32_t id = m_base[t] + index * m_variants[t] + variant;
    return static_cast<uint16_t>(plane << 12 | id);
}

uint16_t
MrcUsidPlan::GetPortUsid(uint32_t plane, uint32_t port) const
{
    if (plane >= m_spec.planes || port >= m_spec.hostsPerT0)
    {
        throw std::out_of_range("MrcUsidPlan: no host-port uSID for plane " + std::to_string(plane)
                                + ", port " + std::to_string(port));
    }
    return static_cast<uint16_t>(plane << 12 | (kPortBase + port));
}

std::string
MrcUsidPlan::Describe(uint16_t usid) const
{
    const uint32_t plane = usid >> 12;
    const uint32_t id = usid & 0xfff;
    std::ostringstream os;
    if (plane >= m_spec.planes || id == 0)
    {
        return "unallocated";
    }
    if (id >= kPortBase)
    {
        if (id - kPortBase >= m_spec.hostsPerT0)
        {
            return "unallocated";
        }
        os << "p" << plane << " port " << id - kPortBase;
        return os.str();
    }
    for (int t = 2; t >= 0; --t)
    {
        if (id >= m_base[t] && id < (t == 2 ? m_end : m_base[t + 1]))
        {
            const uint32_t offset = id - m_base[t];
            os << "p" << plane << " T" << t << "[" << offset / m_variants[t] << "] v"
               << offset % m_variants[t];
            return os.str();
        }
    }
    return "unallocated";
}

} // namespace ns3
