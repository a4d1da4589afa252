/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-dcqcn.h"

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
                          "Lowest rate a CNP can cut to.",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&MrcDcqcn::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("G",
                          "Alpha gain g (DCQCN paper: 1/256).",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&MrcDcqcn::m_g),
                          MakeDoubleChecker<double>())
            .AddAttribute("AlphaTimer",
                          "K: alpha decays once per K without a CNP (DCQCN paper: 55 us).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&MrcDcqcn::m_alphaPeriod),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("IncreaseTimer",
                          "T: period of the rate-increase timer (55 us, as K).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&MrcDcqcn::m_increasePeriod),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ByteCounter",
                          "B: bytes sent per byte-counter stage (DCQCN paper: 10 MB).",
                          UintegerValue(10'000'000),
                          MakeUintegerAccessor(&MrcDcqcn::m_byteCounter),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("FastRecoverySteps",
                          "F: timer or byte-counter stages of fast recovery (DCQCN paper: 5).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&MrcDcqcn::m_fastRecovery),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAi",
                          "R_AI: additive increase step (DCQCN paper: 40 Mb/s).",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&MrcDcqcn::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("RateHai",
                          "R_HAI: hyper increase step (400 Mb/s, ten times R_AI).",
                          DataRateValue(DataRate("400Mbps")),
                          MakeDataRateAccessor(&MrcDcqcn::m_rateHai),
                          MakeDataRateChecker())
            .AddAttribute("CnpInterval",
                          "N: the receiving end sends at most one CNP per this interval "
                          "(DCQCN paper: 50 us).",
                          TimeValue(MicroSeconds(50)),
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
                            "DCQCN's alpha.",
                            MakeTraceSourceAccessor(&MrcDcqcn::m_alpha),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

MrcDcqcn::MrcDcqcn() = default;

MrcDcqcn::~MrcDcqcn() = default;

void
MrcDcqcn::DoDispose()
{
    Simulator::Cancel(m_alphaEvent);
    Simulator::Cancel(m_increaseEvent);
    MrcCongestionOps::DoDispose();
}

void
MrcDcqcn::Init(uint32_t mss, uint32_t mtu, DataRate linkRate, Time baseRtt)
{
    DcqcnRateState::Params p;
    p.lineRate = static_cast<double>(linkRate.GetBitRate());
    p.minRate = static_cast<double>(m_minRate.GetBitRate());
    p.g = m_g;
    p.byteCounter = m_byteCounter;
    p.fastRecoverySteps = m_fastRecovery;
    p.additiveIncrease = static_cast<double>(m_rateAi.GetBitRate());
    p.hyperIncrease = static_cast<double>(m_rateHai.GetBitRate());
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

void
MrcDcqcn::OnCongestionNotification(Time now)
{
    if (m_lastAlphaTick && m_alphaEvent.IsExpired())
    {
        // The timers were idle at line rate: apply the alpha decays they would have made (after
        // 4096 periods alpha is below 1e-6 of its value for any g >= 1/256: stop there).
        const int64_t missed = (now - *m_lastAlphaTick).GetTimeStep() / m_alphaPeriod.GetTimeStep();
        for (int64_t i = 0; i < std::min<int64_t>(missed, 4096); ++i)
        {
            m_state->OnAlphaTimer();
        }
        m_alpha = m_state->GetAlpha();
    }
    const double before = m_state->GetRate();
    m_state->OnCnp();
    NS_LOG_INFO("CNP: rate " << before << " -> " << m_state->GetRate() << " bit/s, alpha "
                             << m_state->GetAlpha());
    m_rate = m_state->GetRate();
    m_alpha = m_state->GetAlpha();
    m_lastAlphaTick = now;
    Simulator::Cancel(m_alphaEvent);
    Simulator::Cancel(m_increaseEvent);
    m_alphaEvent = Simulator::Schedule(m_alphaPeriod, &MrcDcqcn::OnAlphaTimer, this);
    m_increaseEvent = Simulator::Schedule(m_increasePeriod, &MrcDcqcn::OnIncreaseTimer, this);
}

void
MrcDcqcn::OnAlphaTimer()
{
    m_state->OnAlphaTimer();
    m_lastAlphaTick = Simulator::Now();
    m_alpha = m_state->GetAlpha();
    m_alphaEvent = Simulator::Schedule(m_alphaPeriod, &MrcDcqcn::OnAlphaTimer, this);
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
        Simulator::Cancel(m_alphaEvent);
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
    return m_state ? m_state->GetAlpha() : 1.0;
}

double
MrcDcqcn::GetLineRate() const
{
    return m_lineRate;
}

} // namespace ns3
