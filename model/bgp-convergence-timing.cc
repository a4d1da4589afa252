/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bgp-convergence-timing.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

/**
 * \param field attribute name
 * \param value its value
 * \param range the accepted range, in words
 * \throws std::invalid_argument always
 */
[[noreturn]] void
Reject(const char* field, Time value, const char* range)
{
    std::ostringstream oss;
    oss << "BgpReconvergenceModel: " << field << " (=" << value.As(Time::MS) << ") must be "
        << range;
    throw std::invalid_argument(oss.str());
}

/**
 * \param field attribute name
 * \param value its value
 * \throws std::invalid_argument if value is negative
 */
void
CheckNonNegative(const char* field, Time value)
{
    if (value.IsStrictlyNegative())
    {
        Reject(field, value, ">= 0");
    }
}

} // namespace

void
BgpConvergenceTiming::Validate() const
{
    CheckNonNegative("CarrierDetectionDelay", carrierDetectionDelay);
    if (!bfdInterval.IsStrictlyPositive())
    {
        Reject("BfdInterval", bfdInterval, "> 0");
    }
    if (bfdDetectMultiplier < 1 || bfdDetectMultiplier > 255)
    {
        throw std::invalid_argument("BgpReconvergenceModel: BfdDetectMultiplier (="
                                    + std::to_string(bfdDetectMultiplier)
                                    + ") must be in 1..255 (RFC 5880: an 8-bit, non-zero field)");
    }
    if (!holdTime.IsZero() && (holdTime < Seconds(3) || holdTime > Seconds(65535)))
    {
        Reject("HoldTime", holdTime, "0 (no hold timer) or in 3..65535 s (RFC 4271)");
    }
    CheckNonNegative("SessionEstablishDelay", sessionEstablishDelay);
    CheckNonNegative("PerHopDelay", perHopDelay);
    CheckNonNegative("Mrai", mrai);
    CheckNonNegative("FibBaseTime", fibBaseTime);
    CheckNonNegative("FibPerRouteTime", fibPerRouteTime);
}

Time
BgpConvergenceTiming::GetBfdDetectionTime() const
{
    return bfdInterval * int64_t(bfdDetectMultiplier);
}

FailureDetector
BgpConvergenceTiming::GetDetector(LinkFailureKind kind) const
{
    FailureDetector best = FailureDetector::NONE;
    Time bestDelay = Time::Max();
    auto consider = [&](FailureDetector d) {
        const Time delay = GetDetectionDelay(d);
        if (delay < bestDelay)
        {
            best = d;
            bestDelay = delay;
        }
    };
    if (kind == LinkFailureKind::CARRIER_LOSS)
    {
        consider(FailureDetector::CARRIER);
    }
    if (bfdEnabled)
    {
        consider(FailureDetector::BFD);
    }
    if (holdTimerDetection && !holdTime.IsZero())
    {
        consider(FailureDetector::HOLD_TIMER);
    }
    return best;
}

Time
BgpConvergenceTiming::GetDetectionDelay(FailureDetector detector) const
{
    switch (detector)
    {
        case FailureDetector::CARRIER:
            return carrierDetectionDelay;
        case FailureDetector::BFD:
            return GetBfdDetectionTime();
        case FailureDetector::HOLD_TIMER:
            return holdTime;
        case FailureDetector::NONE:
            break;
    }
    throw std::invalid_argument("BgpConvergenceTiming: detector NONE never detects a failure");
}

Time
BgpConvergenceTiming::GetRestoreDelay(FailureDetector detector) const
{
    switch (detector)
    {
        case FailureDetector::CARRIER:
            return carrierDetectionDelay + sessionEstablishDelay;
        case FailureDetector::BFD:
            return GetBfdDetectionTime() + sessionEstablishDelay;
        case FailureDetector::HOLD_TIMER:
            return sessionEstablishDelay;
        case FailureDetector::NONE:
            break;
    }
    throw std::invalid_argument("BgpConvergenceTiming: detector NONE took no session down");
}

Time
BgpConvergenceTiming::GetHopDelay() const
{
    return perHopDelay + mrai;
}

Time
BgpConvergenceTiming::GetFibProgrammingTime(uint32_t routes) const
{
    return fibBaseTime + fibPerRouteTime * int64_t(routes);
}

Time
BgpConvergenceTiming::GetFibBatchEnd(Time ready, Time busyUntil, uint32_t routes) const
{
    return std::max(ready, busyUntil) + GetFibProgrammingTime(routes);
}

Time
BgpConvergenceTiming::GetSwitchConvergenceTime(FailureDetector detector,
                                               uint32_t hops,
                                               uint32_t routes) const
{
    return GetDetectionDelay(detector) + GetHopDelay() * int64_t(hops)
           + GetFibProgrammingTime(routes);
}

std::ostream&
operator<<(std::ostream& os, LinkFailureKind kind)
{
    switch (kind)
    {
        case LinkFailureKind::CARRIER_LOSS:
            return os << "CARRIER_LOSS";
        case LinkFailureKind::BLACKHOLE:
            return os << "BLACKHOLE";
    }
    return os << "UNKNOWN";
}

std::ostream&
operator<<(std::ostream& os, FailureDetector detector)
{
    switch (detector)
    {
        case FailureDetector::NONE:
            return os << "NONE";
        case FailureDetector::CARRIER:
            return os << "CARRIER";
        case FailureDetector::BFD:
            return os << "BFD";
        case FailureDetector::HOLD_TIMER:
            return os << "HOLD_TIMER";
    }
    return os << "UNKNOWN";
}

} // namespace ns3
