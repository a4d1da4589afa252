/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "failure-spec.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace ns3
{

namespace
{

/// Kinds and their names in schedule files.
const std::vector<std::pair<FailureKind, const char*>>&
KindNames()
{
    static const std::vector<std::pair<FailureKind, const char*>> names = {
        {FailureKind::LINK_DOWN, "link-down"},
        {FailureKind::LINK_UP, "link-up"},
        {FailureKind::BLACKHOLE, "blackhole"},
        {FailureKind::BLACKHOLE_END, "blackhole-end"},
        {FailureKind::GRAY_LOSS, "gray-loss"},
        {FailureKind::GRAY_LOSS_END, "gray-loss-end"},
        {FailureKind::RATE, "rate"},
        {FailureKind::RATE_RESTORE, "rate-restore"},
        {FailureKind::FLAP, "flap"},
        {FailureKind::SWITCH_DOWN, "switch-down"},
        {FailureKind::SWITCH_UP, "switch-up"},
        {FailureKind::SWITCH_BLACKHOLE, "switch-blackhole"},
        {FailureKind::SWITCH_BLACKHOLE_END, "switch-blackhole-end"},
        {FailureKind::PORT_DOWN, "port-down"},
        {FailureKind::PORT_UP, "port-up"},
    };
    return names;
}

} // namespace

std::string
FailureSpec::GetKindName(FailureKind kind)
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

std::optional<FailureKind>
FailureSpec::ParseKind(const std::string& name)
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
FailureSpec::GetKindNames()
{
    std::string all;
    for (const auto& [k, name] : KindNames())
    {
        all += (all.empty() ? "" : ", ") + std::string(name);
    }
    return all;
}

std::string
FailureSpec::FormatTime(Time time)
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
FailureSpec::FormatNumber(double x)
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
FailureSpec::FormatRate(DataRate rate)
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

FailureTarget
FailureSpec::GetTarget(FailureKind kind)
{
    switch (kind)
    {
        case FailureKind::SWITCH_DOWN:
        case FailureKind::SWITCH_UP:
        case FailureKind::SWITCH_BLACKHOLE:
        case FailureKind::SWITCH_BLACKHOLE_END:
            return FailureTarget::SWITCH;
        case FailureKind::PORT_DOWN:
        case FailureKind::PORT_UP:
            return FailureTarget::HOST_PORT;
        default:
            return FailureTarget::LINK;
    }
}

bool
FailureSpec::TakesDuration(FailureKind kind)
{
    return GetEndKind(kind) != kind;
}

FailureKind
FailureSpec::GetEndKind(FailureKind kind)
{
    switch (kind)
    {
        case FailureKind::LINK_DOWN:
            return FailureKind::LINK_UP;
        case FailureKind::BLACKHOLE:
            return FailureKind::BLACKHOLE_END;
        case FailureKind::GRAY_LOSS:
            return FailureKind::GRAY_LOSS_END;
        case FailureKind::RATE:
            return FailureKind::RATE_RESTORE;
        case FailureKind::SWITCH_DOWN:
            return FailureKind::SWITCH_UP;
        case FailureKind::SWITCH_BLACKHOLE:
            return FailureKind::SWITCH_BLACKHOLE_END;
        case FailureKind::PORT_DOWN:
            return FailureKind::PORT_UP;
        default:
            return kind;
    }
}

bool
FailureSpec::TakesDirection(FailureKind kind)
{
    switch (kind)
    {
        case FailureKind::BLACKHOLE:
        case FailureKind::BLACKHOLE_END:
        case FailureKind::GRAY_LOSS:
        case FailureKind::GRAY_LOSS_END:
        case FailureKind::RATE:
        case FailureKind::RATE_RESTORE:
            return true;
        default:
            return false;
    }
}

std::string
FailureSpec::GetDirectionName(LinkDirection direction)
{
    switch (direction)
    {
        case LinkDirection::BOTH:
            return "both";
        case LinkDirection::UP:
            return "up";
        case LinkDirection::DOWN:
            return "down";
    }
    return "?";
}

std::string
FailureSpec::DescribeTarget() const
{
    switch (GetTarget(kind))
    {
        case FailureTarget::SWITCH:
            return "switch " + switchName;
        case FailureTarget::HOST_PORT:
            return "host " + std::to_string(host) + " plane " + std::to_string(plane);
        case FailureTarget::LINK:
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
FailureSpec::GetTargetKey() const
{
    if (GetTarget(kind) != FailureTarget::LINK || linkId)
    {
        return DescribeTarget();
    }
    return "link " + std::min(nodeA, nodeB) + " " + std::max(nodeA, nodeB) + " index "
           + std::to_string(index.value_or(0));
}

std::vector<Time>
FailureSpec::GetFlapTimes() const
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
FailureSpec::GetEventCount() const
{
    if (kind != FailureKind::FLAP)
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
operator<<(std::ostream& os, FailureKind kind)
{
    return os << FailureSpec::GetKindName(kind);
}

std::ostream&
operator<<(std::ostream& os, LinkDirection direction)
{
    return os << FailureSpec::GetDirectionName(direction);
}

} // namespace ns3
