/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-failure-spec.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace ns3
{

namespace
{

/// Kinds and their names in schedule files.
const std::vector<std::pair<MrcFailureKind, const char*>>&
KindNames()
{
    static const std::vector<std::pair<MrcFailureKind, const char*>> names = {
        {MrcFailureKind::LINK_DOWN, "link-down"},
        {MrcFailureKind::LINK_UP, "link-up"},
        {MrcFailureKind::BLACKHOLE, "blackhole"},
        {MrcFailureKind::BLACKHOLE_END, "blackhole-end"},
        {MrcFailureKind::GRAY_LOSS, "gray-loss"},
        {MrcFailureKind::GRAY_LOSS_END, "gray-loss-end"},
        {MrcFailureKind::RATE, "rate"},
        {MrcFailureKind::RATE_RESTORE, "rate-restore"},
        {MrcFailureKind::FLAP, "flap"},
        {MrcFailureKind::SWITCH_DOWN, "switch-down"},
        {MrcFailureKind::SWITCH_UP, "switch-up"},
        {MrcFailureKind::SWITCH_BLACKHOLE, "switch-blackhole"},
        {MrcFailureKind::SWITCH_BLACKHOLE_END, "switch-blackhole-end"},
        {MrcFailureKind::PORT_DOWN, "port-down"},
        {MrcFailureKind::PORT_UP, "port-up"},
    };
    return names;
}

} // namespace

std::string
MrcFailureSpec::GetKindName(MrcFailureKind kind)
{
    for (const auto& [k, name] : KindNames())
    {
        if (k == kind)
        {
            return name;
        }
    }
    return "?";
}

std::optional<MrcFailureKind>
MrcFailureSpec::ParseKind(const std::string& name)
{
    for (const auto& [k, n] : KindNames())
    {
        if (name == n)
        {
            return k;
        }
    }
    return std::nullopt;
}

std::string
MrcFailureSpec::GetKindNames()
{
    std::string all;
    for (const auto& [k, name] : KindNames())
    {
        all += (all.empty() ? "" : ", ") + std::string(name);
    }
    return all;
}

std::string
MrcFailureSpec::FormatTime(Time time)
{
    const int64_t ns = time.GetNanoSeconds();
    const std::pair<int64_t, const char*> units[] = {{1000000000, "s"},
                                                     {1000000, "ms"},
                                                     {1000, "us"}};
    for (const auto& [scale, unit] : units)
    {
        if (ns != 0 && ns % scale == 0)
        {
            return std::to_string(ns / scale) + unit;
        }
    }
    return std::to_string(ns) + (ns == 0 ? "s" : "ns");
}

std::string
MrcFailureSpec::FormatNumber(double x)
{
    for (int digits = 1;; ++digits)
    {
        std::ostringstream os;
        os.precision(digits);
        os << x;
        if (digits >= 17 || std::stod(os.str()) == x)
        {
            return os.str();
        }
    }
}

std::string
MrcFailureSpec::FormatRate(DataRate rate)
{
    const uint64_t bps = rate.GetBitRate();
    const std::pair<uint64_t, const char*> units[] = {{1000000000ULL, "Gbps"},
                                                      {1000000ULL, "Mbps"},
                                                      {1000ULL, "kbps"}};
    for (const auto& [scale, unit] : units)
    {
        if (bps != 0 && bps % scale == 0)
        {
            return std::to_string(bps / scale) + unit;
        }
    }
    return std::to_string(bps) + "bps";
}

MrcFailureTarget
MrcFailureSpec::GetTarget(MrcFailureKind kind)
{
    switch (kind)
    {
        case MrcFailureKind::SWITCH_DOWN:
        case MrcFailureKind::SWITCH_UP:
        case MrcFailureKind::SWITCH_BLACKHOLE:
        case MrcFailureKind::SWITCH_BLACKHOLE_END:
            return MrcFailureTarget::SWITCH;
        case MrcFailureKind::PORT_DOWN:
        case MrcFailureKind::PORT_UP:
            return MrcFailureTarget::HOST_PORT;
        default:
            return MrcFailureTarget::LINK;
    }
}

bool
MrcFailureSpec::TakesDuration(MrcFailureKind kind)
{
    return GetEndKind(kind) != kind;
}

MrcFailureKind
MrcFailureSpec::GetEndKind(MrcFailureKind kind)
{
    switch (kind)
    {
        case MrcFailureKind::LINK_DOWN:
            return MrcFailureKind::LINK_UP;
        case MrcFailureKind::BLACKHOLE:
            return MrcFailureKind::BLACKHOLE_END;
        case MrcFailureKind::GRAY_LOSS:
            return MrcFailureKind::GRAY_LOSS_END;
        case MrcFailureKind::RATE:
            return MrcFailureKind::RATE_RESTORE;
        case MrcFailureKind::SWITCH_DOWN:
            return MrcFailureKind::SWITCH_UP;
        case MrcFailureKind::SWITCH_BLACKHOLE:
            return MrcFailureKind::SWITCH_BLACKHOLE_END;
        case MrcFailureKind::PORT_DOWN:
            return MrcFailureKind::PORT_UP;
        default:
            return kind;
    }
}

bool
MrcFailureSpec::TakesDirection(MrcFailureKind kind)
{
    switch (kind)
    {
        case MrcFailureKind::BLACKHOLE:
        case MrcFailureKind::BLACKHOLE_END:
        case MrcFailureKind::GRAY_LOSS:
        case MrcFailureKind::GRAY_LOSS_END:
        case MrcFailureKind::RATE:
        case MrcFailureKind::RATE_RESTORE:
            return true;
        default:
            return false;
    }
}

std::string
MrcFailureSpec::GetDirectionName(MrcLinkDirection direction)
{
    switch (direction)
    {
        case MrcLinkDirection::BOTH:
            return "both";
        case MrcLinkDirection::UP:
            return "up";
        case MrcLinkDirection::DOWN:
            return "down";
    }
    return "?";
}

std::string
MrcFailureSpec::DescribeTarget() const
{
    switch (GetTarget(kind))
    {
        case MrcFailureTarget::SWITCH:
            return "switch " + switchName;
        case MrcFailureTarget::HOST_PORT:
            return "host " + std::to_string(host) + " plane " + std::to_string(plane);
        case MrcFailureTarget::LINK:
            break;
    }
    std::string s = linkId ? "link " + std::to_string(*linkId) : "link " + nodeA + " " + nodeB;
    if (index)
    {
        s += " index " + std::to_string(*index);
    }
    return s;
}

std::string
MrcFailureSpec::GetTargetKey() const
{
    if (GetTarget(kind) != MrcFailureTarget::LINK || linkId)
    {
        return DescribeTarget();
    }
    return "link " + std::min(nodeA, nodeB) + " " + std::max(nodeA, nodeB) + " index "
           + std::to_string(index.value_or(0));
}

std::vector<Time>
MrcFailureSpec::GetFlapTimes() const
{
    std::vector<Time> times;
    if (!offsets.empty())
    {
        for (const Time& offset : offsets)
        {
            times.push_back(at + offset);
        }
        return times;
    }
    if (!period.IsStrictlyPositive() || !duration.IsStrictlyPositive())
    {
        return times;
    }
    const Time down = TimeStep(static_cast<uint64_t>(
        std::llround(static_cast<double>(period.GetTimeStep()) * std::clamp(duty, 0.0, 1.0))));
    for (Time start; start < duration; start += period)
    {
        times.push_back(at + start);
        times.push_back(at + std::min(start + down, duration));
    }
    return times;
}

uint64_t
MrcFailureSpec::GetEventCount() const
{
    if (kind != MrcFailureKind::FLAP)
    {
        return TakesDuration(kind) && duration.IsStrictlyPositive() ? 2 : 1;
    }
    if (!offsets.empty())
    {
        return offsets.size();
    }
    if (!period.IsStrictlyPositive() || !duration.IsStrictlyPositive())
    {
        return 0;
    }
    // Periods started in [0, duration): ceil(duration / period), each a down and an up.
    const uint64_t d = static_cast<uint64_t>(duration.GetTimeStep());
    const uint64_t p = static_cast<uint64_t>(period.GetTimeStep());
    const uint64_t periods = d / p + (d % p != 0 ? 1 : 0);
    return periods > std::numeric_limits<uint64_t>::max() / 2 ? std::numeric_limits<uint64_t>::max()
                                                              : 2 * periods;
}

std::ostream&
operator<<(std::ostream& os, MrcFailureKind kind)
{
    return os << MrcFailureSpec::GetKindName(kind);
}

std::ostream&
operator<<(std::ostream& os, MrcLinkDirection direction)
{
    return os << MrcFailureSpec::GetDirectionName(direction);
}

} // namespace ns3
