/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-clos-spec.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/**
 * Throw std::invalid_argument with a message that names a parameter and its accepted range.
 * \param field the parameter name
 * \param value its value
 * \param range the accepted range, in words
 */
[[noreturn]] void
Reject(const std::string& field, uint64_t value, const std::string& range)
{
    std::ostringstream os;
    os << "MrcClosSpec: " << field << " (=" << value << ") " << range;
    throw std::invalid_argument(os.str());
}

} // namespace

MrcClosSpec
MrcClosSpec::TwoTier(uint32_t planes,
                     uint32_t t0Count,
                     uint32_t hostsPerT0,
                     uint32_t t1Count,
                     uint32_t t0Uplinks)
{
    MrcClosSpec s;
    s.planes = planes;
    s.pods = 1;
    s.t0PerPod = t0Count;
    s.hostsPerT0 = hostsPerT0;
    s.t1PerPod = t1Count;
    s.t0Uplinks = (t0Uplinks == 0) ? hostsPerT0 : t0Uplinks;
    s.t1Uplinks = 0;
    s.t2Count = 0;
    return s;
}

MrcClosSpec
MrcClosSpec::FatTree(uint32_t k, uint32_t planes)
{
    if (k < 2 || k > kMaxFatTreeK || k % 2 != 0)
    {
        Reject("k", k, "must be an even number in 2.." + std::to_string(kMaxFatTreeK));
    }
    MrcClosSpec s;
    s.planes = planes;
    s.pods = k;
    s.t0PerPod = k / 2;
    s.hostsPerT0 = k / 2;
    s.t0Uplinks = k / 2;
    s.t1PerPod = k / 2;
    s.t1Uplinks = k / 2;
    s.t2Count = (k / 2) * (k / 2);
    s.radix = k;
    return s;
}

void
MrcClosSpec::Validate() const
{
    if (planes < 1 || planes > kMaxPlanes)
    {
        Reject("planes", planes, "must be in 1.." + std::to_string(kMaxPlanes));
    }
    if (pods < 1)
    {
        Reject("pods", pods, "must be >= 1");
    }
    if (t0PerPod < 1)
    {
        Reject("t0PerPod", t0PerPod, "must be >= 1");
    }
    if (hostsPerT0 < 1 || hostsPerT0 > kMaxSwitchIndex)
    {
        Reject("hostsPerT0", hostsPerT0, "must be in 1.." + std::to_string(kMaxSwitchIndex));
    }
    if (t1PerPod < 1)
    {
        Reject("t1PerPod", t1PerPod, "must be >= 1");
    }
    if (t0Uplinks < 1 || t0Uplinks % t1PerPod != 0)
    {
        Reject("t0Uplinks",
               t0Uplinks,
               "must be a positive multiple of t1PerPod (=" + std::to_string(t1PerPod)
                   + ") so that every T1 gets the same number of links");
    }
    const uint64_t t0Total = uint64_t(pods) * t0PerPod;
    if (t0Total > kMaxSwitchIndex + 1)
    {
        Reject("pods * t0PerPod", t0Total, "must be <= " + std::to_string(kMaxSwitchIndex + 1));
    }
    if (uint64_t(pods) * t1PerPod > kMaxSwitchIndex + 1)
    {
        Reject("pods * t1PerPod",
               uint64_t(pods) * t1PerPod,
               "must be <= " + std::to_string(kMaxSwitchIndex + 1));
    }
    if (t2Count == 0)
    {
        if (pods != 1)
        {
            Reject("pods", pods, "must be 1 for a two-tier Clos (t2Count = 0)");
        }
        if (t1Uplinks != 0)
        {
            Reject("t1Uplinks", t1Uplinks, "must be 0 for a two-tier Clos (t2Count = 0)");
        }
    }
    else
    {
        if (t2Count % t1PerPod != 0 || t2Count > kMaxSwitchIndex + 1)
        {
            Reject("t2Count",
                   t2Count,
                   "must be a multiple of t1PerPod (=" + std::to_string(t1PerPod)
                       + ") and <= " + std::to_string(kMaxSwitchIndex + 1));
        }
        const uint32_t group = t2Count / t1PerPod;
        if (t1Uplinks < 1 || t1Uplinks % group != 0)
        {
            Reject("t1Uplinks",
                   t1Uplinks,
                   "must be a positive multiple of t2Count / t1PerPod (=" + std::to_string(group)
                       + ")");
        }
    }
    if (radix != 0)
    {
        if (uint64_t(hostsPerT0) + t0Uplinks > radix)
        {
            Reject("hostsPerT0 + t0Uplinks",
                   uint64_t(hostsPerT0) + t0Uplinks,
                   "must be <= radix (=" + std::to_string(radix) + "): a T0 has only radix ports");
        }
        const uint64_t t1Ports = uint64_t(GetT1Downlinks()) + t1Uplinks;
        if (t1Ports > radix)
        {
            Reject("T1 ports (downlinks + t1Uplinks)",
                   t1Ports,
                   "must be <= radix (=" + std::to_string(radix) + ")");
        }
        if (t2Count != 0 && GetT2Downlinks() > radix)
        {
            Reject("T2 ports (downlinks)",
                   GetT2Downlinks(),
                   "must be <= radix (=" + std::to_string(radix) + ")");
        }
    }
}

uint32_t
MrcClosSpec::GetTiers() const
{
    return t2Count == 0 ? 2 : 3;
}

uint32_t
MrcClosSpec::GetHostCount() const
{
    return pods * t0PerPod * hostsPerT0;
}

uint32_t
MrcClosSpec::GetT0Count() const
{
    return pods * t0PerPod;
}

uint32_t
MrcClosSpec::GetT1Count() const
{
    return pods * t1PerPod;
}

uint32_t
MrcClosSpec::GetT0T1Parallel() const
{
    return t0Uplinks / t1PerPod;
}

uint32_t
MrcClosSpec::GetT2GroupSize() const
{
    return t2Count == 0 ? 0 : t2Count / t1PerPod;
}

uint32_t
MrcClosSpec::GetT1T2Parallel() const
{
    return t2Count == 0 ? 0 : t1Uplinks / GetT2GroupSize();
}

uint32_t
MrcClosSpec::GetT1Downlinks() const
{
    return t0PerPod * GetT0T1Parallel();
}

uint32_t
MrcClosSpec::GetT2Downlinks() const
{
    return t2Count == 0 ? 0 : pods * GetT1T2Parallel();
}

double
MrcClosSpec::GetT0Oversubscription() const
{
    return double(hostsPerT0) / double(t0Uplinks);
}

uint64_t
MrcClosSpec::GetSwitchCount() const
{
    return uint64_t(planes) * (uint64_t(GetT0Count()) + GetT1Count() + t2Count);
}

uint64_t
MrcClosSpec::GetLinkCount() const
{
    const uint64_t hosts = uint64_t(pods) * t0PerPod * hostsPerT0;
    const uint64_t t0t1 = uint64_t(pods) * t0PerPod * t0Uplinks;
    const uint64_t t1t2 = t2Count == 0 ? 0 : uint64_t(pods) * t1PerPod * t1Uplinks;
    return uint64_t(planes) * (hosts + t0t1 + t1t2);
}

void
MrcClosSpec::CheckSize(uint64_t maxLinks, const std::string& knob) const
{
    if (GetLinkCount() > maxLinks)
    {
        throw std::invalid_argument(
            "the fabric (" + Describe() + ") would have " + std::to_string(GetHostCount())
            + " hosts, " + std::to_string(GetSwitchCount()) + " switches and "
            + std::to_string(GetLinkCount()) + " links, more than the cap of "
            + std::to_string(maxLinks) + " links; fewer planes or a smaller k, or raise " + knob
            + " to " + std::to_string(GetLinkCount()) + " to build it anyway");
    }
}

std::string
MrcClosSpec::Describe() const
{
    std::ostringstream os;
    os << GetTiers() << "-tier Clos, " << planes << " plane(s), " << GetHostCount()
       << " hosts; per plane: " << GetT0Count() << " T0 (" << hostsPerT0 << " down, " << t0Uplinks
       << " up), " << GetT1Count() << " T1 (" << GetT1Downlinks() << " down";
    if (t2Count != 0)
    {
        os << ", " << t1Uplinks << " up), " << t2Count << " T2 (" << GetT2Downlinks() << " down";
    }
    os << ")";
    return os.str();
}

} // namespace ns3
