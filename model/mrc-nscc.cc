/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-nscc.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcNscc");

NS_OBJECT_ENSURE_REGISTERED(MrcNscc);

TypeId
MrcNscc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcNscc")
            .SetParent<MrcCongestionOps>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcNscc>()
            .AddAttribute("TargetDelay",
                          "Target queueing delay (0: 0.75 x base RTT, the value for a fabric "
                          "with trimming).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcNscc::m_targetAttr),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MaxWindowFactor",
                          "Maximum window in bandwidth-delay products.",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&MrcNscc::m_maxWindowFactor),
                          MakeDoubleChecker<double>(0.01))
            .AddAttribute("InitialWindow",
                          "Initial window in bytes (0: the maximum window).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcNscc::m_initialWindow),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Gamma",
                          "Multiplicative-decrease gain.",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&MrcNscc::m_gamma),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("DecreaseOncePerRtt",
                          "true: a multiplicative decrease waits, since the last one, for the "
                          "RTT of the marked packet that asks for it (Swift's rule, Kumar et al., "
                          "SIGCOMM 2020), never less than the base RTT, so a queue of several "
                          "base RTTs is not answered by several decreases before the first one "
                          "shows; false: once per base RTT, whatever the queue (the UEC "
                          "reference simulator).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcNscc::m_decreaseOncePerRtt),
                          MakeBooleanChecker())
            .AddAttribute("DelayAlpha",
                          "Weight of a new delay sample in the moving average.",
                          DoubleValue(0.0125),
                          MakeDoubleAccessor(&MrcNscc::m_delayAlpha),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("AlphaFactor",
                          "alpha = AlphaFactor x MSS x a x b / target.",
                          DoubleValue(4.0),
                          MakeDoubleAccessor(&MrcNscc::m_alphaFactor),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("FairIncreaseFactor",
                          "fi = FairIncreaseFactor x MSS x a.",
                          DoubleValue(5.0),
                          MakeDoubleAccessor(&MrcNscc::m_fiFactor),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("EtaFactor",
                          "eta = EtaFactor x MSS x a, added once per base RTT.",
                          DoubleValue(0.15),
                          MakeDoubleAccessor(&MrcNscc::m_etaFactor),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("Pi",
                          "Cap of the proportional increase per acknowledged byte (0: none).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&MrcNscc::m_pi),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("AdjustMtus",
                          "Apply pending increases every this many full packets acknowledged.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&MrcNscc::m_adjustMtus),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("QuickAdapt",
                          "Enable quick adapt.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcNscc::m_quickAdapt),
                          MakeBooleanChecker())
            .AddAttribute("QuickAdaptFactor",
                          "Quick adapt when the average delay exceeds this many targets.",
                          DoubleValue(4.0),
                          MakeDoubleAccessor(&MrcNscc::m_qaFactor),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("QuickAdaptGate",
                          "Quick adapt fires only if the bytes acknowledged in the last period "
                          "are below MaxWindow / 2^gate (the UEC reference simulator's qa_gate, "
                          "default 3: under 12.5 % of the window, a major loss of capacity).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&MrcNscc::m_qaGate),
                          MakeUintegerChecker<uint32_t>(0, 16))
            .AddAttribute("FastIncreaseFactor",
                          "Fast increase per acknowledged byte, x a (the reference simulator's "
                          "fi_scale = 0.25 a).",
                          DoubleValue(0.25),
                          MakeDoubleAccessor(&MrcNscc::m_fastFactor),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("FastIncreaseThreshold",
                          "Fast increase after a window of acknowledgements with delays under "
                          "this (the reference simulator: 1 us; 0 disables fast increase).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&MrcNscc::m_fastThreshold),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ReferenceRate",
                          "Reference line rate of the scaling factor a.",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&MrcNscc::m_refRate),
                          MakeDataRateChecker())
            .AddAttribute("ReferenceRtt",
                          "Reference RTT of the scaling factors a and b.",
                          TimeValue(MicroSeconds(12)),
                          MakeTimeAccessor(&MrcNscc::m_refRtt),
                          MakeTimeChecker(NanoSeconds(1)));
    return tid;
}

void
MrcNscc::Init(uint32_t mss, uint32_t mtu, DataRate linkRate, Time baseRtt)
{
    m_mtu = mtu;
    m_linkRate = linkRate;
    m_configuredRtt = baseRtt;
    m_baseRtt = baseRtt;
    m_target = m_targetAttr.IsStrictlyPositive() ? m_targetAttr : baseRtt * 0.75;
    const double bdp = linkRate.GetBitRate() / 8.0 * baseRtt.GetSeconds();
    const double refBdp = m_refRate.GetBitRate() / 8.0 * m_refRtt.GetSeconds();
    const double a = bdp / refBdp;
    const double b = m_target.GetSeconds() / m_refRtt.GetSeconds();
    m_alpha = m_alphaFactor * mss * a * b / m_target.GetSeconds();
    m_fi = m_fiFactor * mss * a;
    m_eta = m_etaFactor * mss * a;
    m_fastScale = m_fastFactor * a;
    m_maxWnd = std::max<double>(m_maxWindowFactor * bdp, mtu);
    m_cwnd = m_initialWindow ? double(m_initialWindow) : m_maxWnd;
    Bound();
    NS_LOG_INFO("NSCC init: bdp " << bdp << " B, target " << m_target.As(Time::US) << ", alpha "
                                  << m_alpha << " B/s, fi " << m_fi << ", eta " << m_eta
                                  << ", cwnd " << m_cwnd);
}

void
MrcNscc::Bound()
{
    m_cwnd = std::clamp<double>(m_cwnd, m_mtu, m_maxWnd);
}

bool
MrcNscc::QuickAdapt(Time now, bool loss)
{
    if (!m_quickAdapt)
    {
        return false;
    }
    bool done = false;
    if (m_qaEnd.IsStrictlyPositive() && now > m_qaEnd + m_baseRtt + m_target)
    {
        // Idle for more than a period: what was achieved says nothing of the capacity, and a
        // trigger from before the idle gap is stale.
        m_qaTrigger = loss;
        m_achieved = 0;
        m_qaEnd = now + m_baseRtt + m_target;
        return false;
    }
    if (now > m_qaEnd)
    {
        const bool delayed = m_avgDelay > m_qaFactor * m_target.GetSeconds();
        if (m_qaEnd.IsStrictlyPositive() && (m_qaTrigger || loss || delayed)
            && m_achieved < m_maxWnd / double(uint64_t(1) << m_qaGate))
        {
            NS_LOG_LOGIC("quick adapt: cwnd " << m_cwnd << " -> " << m_achieved);
            // Marked feedback on the packets in flight now describes the congestion this
            // answers: ignore it (the reference simulator's bytes_to_ignore = in_flight).
            m_bytesToIgnore = m_bytesInFlight;
            m_bytesIgnored = 0;
            m_cwnd = std::max<double>(m_achieved, m_mtu);
            m_qaTrigger = false;
            done = true;
        }
        m_achieved = 0;
        m_qaEnd = now + m_baseRtt + m_target;
    }
    if (done)
    {
        m_inc = 0;
        m_received = 0;
    }
    return done;
}

bool
MrcNscc::Ignoring(uint32_t bytes, bool ecn)
{
    // After a quick adapt, the feedback on what was then in flight is counted; marked feedback
    // among it is ignored (it reports the congestion the quick adapt already answered).
    const bool ignore = ecn && m_bytesIgnored < m_bytesToIgnore;
    m_bytesIgnored += bytes;
    return ignore;
}

void
MrcNscc::UpdateDelay(double delay, bool ecn)
{
    const double target = m_target.GetSeconds();
    // An unmarked packet that saw a long delay was delayed elsewhere than in a fabric queue.
    const double sample = (!ecn && delay > target) ? 0.25 * m_baseRtt.GetSeconds() : delay;
    m_avgDelay = m_delayAlpha * sample + (1 - m_delayAlpha) * m_avgDelay;
}

bool
MrcNscc::FastIncrease(uint32_t ackedBytes, double delay)
{
    if (m_fastThreshold.IsStrictlyPositive() && delay < m_fastThreshold.GetSeconds())
    {
        m_fastCount += ackedBytes;
        if (m_fastCount > m_cwnd || m_increasing)
        {
            m_cwnd += ackedBytes * m_fastScale;
            m_increasing = true;
            return true;
        }
    }
    else
    {
        m_fastCount = 0;
    }
    m_increasing = false;
    return false;
}

void
MrcNscc::OnAck(Time now, uint32_t ackedBytes, Time rtt, bool ecn)
{
    double delay = m_avgDelay;
    if (rtt.IsStrictlyPositive())
    {
        if (rtt < m_baseRtt)
        {
            // The smallest RTT seen is the base RTT (the configured one is the longest path's).
            m_baseRtt = rtt;
            const double bdp = m_linkRate.GetBitRate() / 8.0 * m_baseRtt.GetSeconds();
            m_maxWnd = std::max<double>(m_maxWindowFactor * bdp, m_mtu);
        }
        delay = (rtt - m_baseRtt).GetSeconds();
        UpdateDelay(delay, ecn);
    }
    m_achieved += ackedBytes;
    if (Ignoring(ackedBytes, ecn) || QuickAdapt(now, false))
    {
        m_inc = 0;
        m_received = 0;
        return;
    }
    const double target = m_target.GetSeconds();
    if (!ecn && delay >= target)
    {
        m_inc += m_fi * ackedBytes;
    }
    else if (!ecn)
    {
        if (FastIncrease(ackedBytes, delay))
        {
            Bound();
            return;
        }
        double inc = m_alpha * ackedBytes * (target - delay);
        if (m_pi > 0)
        {
            inc = std::min(inc, m_pi * ackedBytes);
        }
        m_inc += inc;
    }
    else if (delay >= target)
    {
        m_increasing = false;
        m_fastCount = 0;
        const Time gate = (m_decreaseOncePerRtt && rtt > m_baseRtt) ? rtt : m_baseRtt;
        if (m_avgDelay > target
            && (m_lastDecrease.IsStrictlyNegative() || now - m_lastDecrease > gate))
        {
            m_cwnd *= std::max(1 - m_gamma * (m_avgDelay - target) / m_avgDelay, 0.5);
            m_lastDecrease = now;
        }
    }
    Bound();
    m_received += ackedBytes;
    if (m_received >= uint64_t(m_adjustMtus) * m_mtu || now - m_lastAdjust > m_baseRtt)
    {
        m_cwnd += m_inc / m_cwnd;
        if (now - m_lastEta >= m_baseRtt)
        {
            m_cwnd += m_eta;
            m_lastEta = now;
        }
        m_inc = 0;
        m_received = 0;
        m_lastAdjust = now;
    }
    Bound();
}

void
MrcNscc::OnNack(Time now, uint32_t nackedBytes, bool lastHop)
{
    m_bytesIgnored += nackedBytes;
    // A trim says the packet met a full queue: a delay sample of one network RTT.
    UpdateDelay(m_configuredRtt.GetSeconds(), true);
    m_qaTrigger = true;
    if (QuickAdapt(now, true))
    {
        m_inc = 0;
        m_received = 0;
        return;
    }
    m_cwnd -= nackedBytes;
    Bound();
}

void
MrcNscc::OnLoss(Time now, uint32_t lostBytes)
{
    m_cwnd -= lostBytes;
    Bound();
}

uint64_t
MrcNscc::GetCwnd() const
{
    return static_cast<uint64_t>(std::llround(m_cwnd));
}

uint64_t
MrcNscc::GetMaxCwnd() const
{
    return static_cast<uint64_t>(std::llround(m_maxWnd));
}

Time
MrcNscc::GetBaseRtt() const
{
    return m_baseRtt;
}

Time
MrcNscc::GetTarget() const
{
    return m_target;
}

Time
MrcNscc::GetAverageDelay() const
{
    return Seconds(m_avgDelay);
}

double
MrcNscc::GetAlpha() const
{
    return m_alpha;
}

double
MrcNscc::GetFairIncrease() const
{
    return m_fi;
}

double
MrcNscc::GetEta() const
{
    return m_eta;
}

double
MrcNscc::GetMaxWindow() const
{
    return m_maxWnd;
}

} // namespace ns3
