/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-bgp-convergence-timing.h"

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
    oss << "MrcBgpReconvergenceModel: " << field << " (=" << value.As(Time::MS) << ") must be "
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
MrcBgpConvergenceTiming::Validate() const
{
    CheckNonNegative("CarrierDetectionDelay", carrierDetectionDelay);
    if (!bfdInterval.IsStrictlyPositive())
    {
        Reject("BfdInterval", bfdInterval, "> 0");
    }
    if (bfdDetectMultiplier < 1 || bfdDetectMultiplier > 255)
    {
        throw std::invalid_argument("MrcBgpReconvergenceModel: BfdDetectMultiplier (="
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
MrcBgpConvergenceTiming::GetBfdDetectionTime() const
{
    return bfdInterval * int64_t(bfdDetectMultiplier);
}

MrcFailureDetector
MrcBgpConvergenceTiming::GetDetector(MrcLinkFailureKind kind) const
{
    MrcFailureDetector best = MrcFailureDetector::NONE;
    Time bestDelay = Time::Max();
    auto consider = [&](MrcFailureDetector d) {
        const Time delay = GetDetectionDelay(d);
        if (delay < bestDelay)
        {
            best = d;
            bestDelay = delay;
        }
    };
    if (kind == MrcLinkFailureKind::CARRIER_LOSS)
    {
        consider(MrcFailureDetector::CARRIER);
    }
    if (bfdEnabled)
    {
        consider(MrcFailureDetector::BFD);
    }
    if (holdTimerDetection && !holdTime.IsZero())
    {
        consider(MrcFailureDetector::HOLD_TIMER);
    }
    return best;
}

Time
MrcBgpConvergenceTiming::GetDetectionDelay(MrcFailureDetector detector) const
{
    switch (detector)
    {
        case MrcFailureDetector::CARRIER:
            return carrierDetectionDelay;
        case MrcFailureDetector::BFD:
            return GetBfdDetectionTime();
        case MrcFailureDetector::HOLD_TIMER:
            return holdTime;
        case MrcFailureDetector::NONE:
            break;
    }
    throw std::invalid_argument("MrcBgpConvergenceTiming: detector NONE never detects a failure");
}

Time
MrcBgpConvergenceTiming::GetRestoreDelay(MrcFailureDetector detector) const
{
    switch (detector)
    {
        case MrcFailureDetector::CARRIER:
            return carrierDetectionDelay + sessionEstablishDelay;
        case MrcFailureDetector::BFD:
            return GetBfdDetectionTime() + sessionEstablishDelay;
        case MrcFailureDetector::HOLD_TIMER:
            return sessionEstablishDelay;
        case MrcFailureDetector::NONE:
            break;
    }
    throw std::invalid_argument("MrcBgpConvergenceTiming: detector NONE took no session down");
}

Time
MrcBgpConvergenceTiming::GetHopDelay() const
{
    return perHopDelay + mrai;
}

Time
MrcBgpConvergenceTiming::GetFibProgrammingTime(uint32_t routes) const
{
    return fibBaseTime + fibPerRouteTime * int64_t(routes);
}

Time
MrcBgpConvergenceTiming::GetFibBatchEnd(Time ready, Time busyUntil, uint32_t routes) const
{
    return std::max(ready, busyUntil) + GetFibProgrammingTime(routes);
}

Time
MrcBgpConvergenceTiming::GetSwitchConvergenceTime(MrcFailureDetector detector,
                                                  uint32_t hops,
                                                  uint32_t routes) const
{
    return GetDetectionDelay(detector) + GetHopDelay() * int64_t(hops)
           + GetFibProgrammingTime(routes);
}

std::ostream&
operator<<(std::ostream& os, MrcLinkFailureKind kind)
{
    switch (kind)
    {
        case MrcLinkFailureKind::CARRIER_LOSS:
            return os << "CARRIER_LOSS";
        case MrcLinkFailureKind::BLACKHOLE:
            return os << "BLACKHOLE";
    }
    return os << "UNKNOWN";
}

std::ostream&
operator<<(std::ostream& os, MrcFailureDetector detector)
{
    switch (detector)
    {
        case MrcFailureDetector::NONE:
            return os << "NONE";
        case MrcFailureDetector::CARRIER:
            return os << "CARRIER";
        case MrcFailureDetector::BFD:
            return os << "BFD";
        case MrcFailureDetector::HOLD_TIMER:
            return os << "HOLD_TIMER";
    }
    return os << "UNKNOWN";
}

} // namespace ns3
