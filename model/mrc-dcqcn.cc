/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-dcqcn.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcDcqcn");

NS_OBJECT_ENSURE_REGISTERED(MrcDcqcn);

TypeId
MrcDcqcn::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcDcqcn")
            .SetParent<MrcCongestionOps>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcDcqcn>()
            .AddAttribute("MinRate",
                          "Lowest rate a cut can reach: 1 Gb/s, the HPCC simulator's DCQCN floor "
                          "(ConnectX rpg_min_rate: 1 Mb/s, with which a 400G flow cut to the "
                          "floor takes tens of ms to recover).",
                          DataRateValue(DataRate("1Gbps")),
                          MakeDataRateAccessor(&MrcDcqcn::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("G",
                          "Alpha gain g, in (0, 1] (ConnectX dce_tcp_g 1019: g = 5/1024; the "
                          "DCQCN paper: 1/256).",
                          DoubleValue(5.0 / 1024),
                          MakeDoubleAccessor(&MrcDcqcn::m_g),
                          MakeDoubleChecker<double>())
            .AddAttribute("AlphaTimer",
                          "K: alpha is updated once per period, from the first CNP on: up if a "
                          "CNP arrived in it, down otherwise (ConnectX dce_tcp_rtt: 1 us; the "
                          "DCQCN paper: 55 us).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&MrcDcqcn::m_alphaPeriod),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RateDecreaseInterval",
                          "At most one rate cut per interval; the CNPs of an interval make one "
                          "cut (ConnectX rate_reduce_monitor_period: 4 us). 0: a cut at every "
                          "CNP, as the DCQCN paper.",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&MrcDcqcn::m_decreasePeriod),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("IncreaseTimer",
                          "T: period of the rate-increase timer, restarted at every cut "
                          "(ConnectX rpg_time_reset: 300 us; the DCQCN paper: 55 us).",
                          TimeValue(MicroSeconds(300)),
                          MakeTimeAccessor(&MrcDcqcn::m_increasePeriod),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ByteCounter",
                          "B: bytes sent per byte-counter stage; 0: no byte counter, the timer "
                          "stage alone drives recovery (the default, as the HPCC simulator's "
                          "ConnectX model; the NIC's rpg_byte_reset unit is not documented) "
                          "[open]. The DCQCN paper: 10 MB.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcDcqcn::m_byteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("FastRecoverySteps",
                          "F: stages of fast recovery (ConnectX rpg_threshold: 1; the DCQCN "
                          "paper: 5).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MrcDcqcn::m_fastRecovery),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAi",
                          "R_AI: additive increase step; 0 (default): 5 Mb/s per 25 Gb/s of line "
                          "rate, the HPCC simulator's DCQCN setting (20 Mb/s at 100G, 80 Mb/s at "
                          "400G; ConnectX rpg_ai_rate: 5 Mb/s at any rate; the DCQCN paper: 40 "
                          "Mb/s at 40G).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&MrcDcqcn::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("RateHai",
                          "R_HAI: hyper increase step; 0 (default): 50 Mb/s per 25 Gb/s of line "
                          "rate, as RateAi (ConnectX rpg_hai_rate: 50 Mb/s).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&MrcDcqcn::m_rateHai),
                          MakeDataRateChecker())
            .AddAttribute("ClampTargetRate",
                          "Set the target rate to the current rate at every cut (the DCQCN "
                          "paper; ConnectX clamp_tgt_rate: false).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcDcqcn::m_clampTarget),
                          MakeBooleanChecker())
            .AddAttribute("ClampTargetRateAfterTimeIncrease",
                          "Set the target rate to the current rate at a cut that follows a "
                          "rate-increase timer stage (ConnectX clamp_tgt_rate_after_time_inc: "
                          "true).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcDcqcn::m_clampAfterIncrease),
                          MakeBooleanChecker())
            .AddAttribute("CnpInterval",
                          "N: the receiving end sends at most one CNP per this interval "
                          "(ConnectX min_time_between_cnps: 4 us; the DCQCN paper: 50 us).",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&MrcDcqcn::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Window",
                          "Bytes in flight allowed (0: no byte window; the queue pair's "
                          "MaxOutstandingPsns is the only cap, as in a RoCEv2 NIC).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcDcqcn::m_windowAttr),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("Rate",
                            "The current rate Rc (bit/s).",
                            MakeTraceSourceAccessor(&MrcDcqcn::m_rate),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("Alpha",
                            "DCQCN's alpha, as of the last CNP or cut (it is updated lazily on "
                            "its period grid; GetAlpha gives the current value).",
                            MakeTraceSourceAccessor(&MrcDcqcn::m_alpha),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

MrcDcqcn::MrcDcqcn() = default;

MrcDcqcn::~MrcDcqcn() = default;

void
MrcDcqcn::DoDispose()
{
    Simulator::Cancel(m_decreaseEvent);
    Simulator::Cancel(m_increaseEvent);
    MrcCongestionOps::DoDispose();
}

void
MrcDcqcn::Init(uint32_t mss, uint32_t mtu, DataRate linkRate, Time baseRtt)
{
    MrcDcqcnRateState::Params p;
    p.lineRate = static_cast<double>(linkRate.GetBitRate());
    p.minRate = static_cast<double>(m_minRate.GetBitRate());
    p.g = m_g;
    p.byteCounter = m_byteCounter;
    p.fastRecoverySteps = m_fastRecovery;
    // 0: scaled with the line rate, 5 and 50 Mb/s per 25 Gb/s (the HPCC simulator's setting).
    const double per25G = p.lineRate / 25e9;
    p.additiveIncrease =
        m_rateAi.GetBitRate() == 0 ? 5e6 * per25G : static_cast<double>(m_rateAi.GetBitRate());
    p.hyperIncrease =
        m_rateHai.GetBitRate() == 0 ? 50e6 * per25G : static_cast<double>(m_rateHai.GetBitRate());
    p.clampTargetRate = m_clampTarget;
    p.clampAfterTimeIncrease = m_clampAfterIncrease;
    m_state.emplace(p);
    m_lineRate = p.lineRate;
    m_rate = m_state->GetRate();
    m_alpha = m_state->GetAlpha();
}

void
MrcDcqcn::OnAck(Time now, uint32_t ackedBytes, Time rtt, bool ecn)
{
}

void
MrcDcqcn::OnNack(Time now, uint32_t nackedBytes, bool lastHop)
{
}

void
MrcDcqcn::OnLoss(Time now, uint32_t lostBytes)
{
}

uint64_t
MrcDcqcn::GetCwnd() const
{
    return m_windowAttr == 0 ? kNoWindow : m_windowAttr;
}

bool
MrcDcqcn::IsLimited() const
{
    return m_state && !m_state->IsAtLineRate();
}

std::optional<DataRate>
MrcDcqcn::GetPacingRate() const
{
    if (!IsLimited())
    {
        return std::nullopt;
    }
    return DataRate(static_cast<uint64_t>(std::llround(m_state->GetRate())));
}

std::optional<Time>
MrcDcqcn::GetCnpInterval() const
{
    return m_cnpInterval;
}

int64_t
MrcDcqcn::EndedAlphaPeriods(Time now) const
{
    if (m_alphaStart.IsStrictlyNegative() || now < m_alphaStart + m_alphaPeriod)
    {
        return 0;
    }
    return (now - m_alphaStart).GetTimeStep() / m_alphaPeriod.GetTimeStep();
}

void
MrcDcqcn::ApplyAlphaPeriods(MrcDcqcnRateState& state, bool cnpInFirst, int64_t periods)
{
    // The first period may have seen a CNP, the others none (the alpha clock is free-running,
    // as the NIC's; no event is needed for it).
    state.UpdateAlpha(cnpInFirst);
    state.DecayAlpha(static_cast<uint64_t>(periods - 1));
}

void
MrcDcqcn::AdvanceAlpha(Time now)
{
    const int64_t periods = EndedAlphaPeriods(now);
    if (periods == 0)
    {
        return;
    }
    ApplyAlphaPeriods(*m_state, m_cnpInPeriod, periods);
    m_alphaStart += m_alphaPeriod * periods;
    m_cnpInPeriod = false;
    m_alpha = m_state->GetAlpha();
}

void
MrcDcqcn::OnCongestionNotification(Time now)
{
    AdvanceAlpha(now);
    if (m_alphaStart.IsStrictlyNegative())
    {
        m_alphaStart = now; // the rate limiter starts at the first CNP, alpha = 1
    }
    m_cnpInPeriod = true;
    if (!m_decreaseEvent.IsExpired()) // IsRunning() in 3.37, IsPending() in ns-3-dev
    {
        return; // a cut is due at the end of the interval: this CNP joins it
    }
    if (m_decreasePeriod.IsZero() || m_lastCut.IsStrictlyNegative()
        || now >= m_lastCut + m_decreasePeriod)
    {
        Cut(now);
        return;
    }
    m_decreaseEvent =
        Simulator::Schedule(m_lastCut + m_decreasePeriod - now, &MrcDcqcn::OnDecreaseDue, this);
}

void
MrcDcqcn::OnDecreaseDue()
{
    Cut(Simulator::Now());
}

void
MrcDcqcn::Cut(Time now)
{
    AdvanceAlpha(now);
    const double before = m_state->GetRate();
    m_state->Cut();
    NS_LOG_INFO("cut: rate " << before << " -> " << m_state->GetRate() << " bit/s, target "
                             << m_state->GetTargetRate() << ", alpha " << m_state->GetAlpha());
    m_lastCut = now;
    m_rate = m_state->GetRate();
    m_alpha = m_state->GetAlpha();
    Simulator::Cancel(m_increaseEvent);
    m_increaseEvent = Simulator::Schedule(m_increasePeriod, &MrcDcqcn::OnIncreaseTimer, this);
}

void
MrcDcqcn::OnIncreaseTimer()
{
    m_state->OnIncreaseTimer();
    m_increaseEvent = Simulator::Schedule(m_increasePeriod, &MrcDcqcn::OnIncreaseTimer, this);
    Update();
}

void
MrcDcqcn::OnDataSent(Time now, uint32_t wireBytes)
{
    if (IsLimited())
    {
        m_state->OnBytesSent(wireBytes);
        Update();
    }
}

void
MrcDcqcn::Update()
{
    m_rate = m_state->GetRate();
    if (m_state->IsAtLineRate())
    {
        // Recovered: the rate limiter is idle until the next CNP.
        Simulator::Cancel(m_increaseEvent);
    }
}

double
MrcDcqcn::GetRate() const
{
    return m_state ? m_state->GetRate() : m_lineRate;
}

double
MrcDcqcn::GetTargetRate() const
{
    return m_state ? m_state->GetTargetRate() : m_lineRate;
}

double
MrcDcqcn::GetAlpha() const
{
    if (!m_state)
    {
        return 1.0;
    }
    // Alpha is updated lazily (AdvanceAlpha): project it to now on a copy of the state.
    const int64_t periods = EndedAlphaPeriods(Simulator::Now());
    if (periods == 0)
    {
        return m_state->GetAlpha();
    }
    MrcDcqcnRateState projected = *m_state;
    ApplyAlphaPeriods(projected, m_cnpInPeriod, periods);
    return projected.GetAlpha();
}

double
MrcDcqcn::GetLineRate() const
{
    return m_lineRate;
}

} // namespace ns3
