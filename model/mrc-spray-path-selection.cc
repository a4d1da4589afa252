/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-spray-path-selection.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcSprayPathSelection);

TypeId
MrcSprayPathSelection::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcSprayPathSelection")
                            .SetParent<MrcPathSelection>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcSprayPathSelection>();
    return tid;
}

MrcSprayPathSelection::MrcSprayPathSelection() = default;

MrcSprayPathSelection::~MrcSprayPathSelection() = default;

void
MrcSprayPathSelection::Start(const Config& config,
                             const Hooks& hooks,
                             MrcQpStats& stats,
                             Ptr<UniformRandomVariable> rng)
{
    SetResolver(config.resolver);
    const uint32_t planes = config.evsPerPlane.size();
    const uint32_t perPlane = std::max<uint32_t>(1, config.evSetSize / planes);
    MakePathSet(config.evsPerPlane, perPlane, hooks.stateChange);
    m_rules = std::make_unique<MrcSprayEvRules>(*m_pathSet, config.probeSuccesses);
    m_skipAcrossPlanes = config.skipAcrossPlanes && config.skipRotations == 0 && planes > 1;
    m_leadLimit = config.planeLeadLimit;
    m_credit.assign(planes, 0);
    m_weight.assign(planes, 0);
    if (config.skipRotations == 0)
    {
        m_rules->SetSkipTime(config.skipTime.IsZero() ? config.baseRtt : config.skipTime,
                             config.skipMemory.IsZero() ? config.baseRtt * 8 : config.skipMemory);
    }
    else
    {
        m_rules->SetSkipRotations(config.skipRotations);
    }
    m_rules->SetAlwaysSkipFactor(config.alwaysSkipFactor);
    m_rules->SetEscalation(config.escalationRatio, config.markRateGain);
    m_rules->SetSkipRelease(config.skipReleaseRatio);
    // The path is what the EV's carriers say where they name it (SRv6); where switches choose
    // (ECMP), which EVs share a path is unknown: every EV is its own.
    m_rules->SetPathKey([this](uint32_t ev) {
        return GetRouteKey(ev);
    });
    m_rules->SetDampening(config.holdDown, config.holdDownMax, config.flapWindow);
    MrcQpProber::Config pc;
    pc.restoreProbeBytes = config.probeBytes;
    pc.restoreProbesPerRound = config.probesPerRound;
    pc.restoreBackoffMax = config.probeBackoffMax;
    pc.restoreInterval = config.probeInterval;
    pc.livenessInterval = config.baseRtt;
    pc.livenessTimeout = config.lossTimeout;
    m_prober = std::make_unique<MrcQpProber>(*m_rules, pc, hooks.prober, stats, rng);
}

std::optional<uint32_t>
MrcSprayPathSelection::NextData(uint32_t plane)
{
    if (m_skipAcrossPlanes && !m_rules->HasGood(plane))
    {
        // Only SKIP EVs here: leave the packet to a plane that has a GOOD EV, if any. (The
        // QP's next Kick, at the next acknowledgement, asks this port again.)
        for (uint32_t p = 0; p < m_pathSet->GetPlaneCount(); ++p)
        {
            if (p != plane && m_rules->HasGood(p))
            {
                return std::nullopt;
            }
        }
    }
    if (m_leadLimit > 0 && m_credit.size() > 1 && m_credit[plane] < 0)
    {
        const int64_t total = UpdateWeights();
        // This port has sent more than its share by over PlaneLeadLimit rounds: the packet is
        // owed to a plane that has GOOD EVs and is behind, whose port takes it when it frees
        // (the queue pair is in its list), as a NIC queues a packet on the port of the EV that
        // the rotation chose. Without this, the port that frees first takes every packet of
        // a window that opens one packet at a time, whatever the planes' weights.
        for (uint32_t p = 0; p < m_credit.size() && m_credit[plane] < -m_leadLimit * total; ++p)
        {
            if (p != plane && m_weight[p] > 0 && m_credit[p] > 0)
            {
                return std::nullopt;
            }
        }
    }
    const std::optional<uint32_t> ev = m_rules->Next(plane);
    const int64_t total = ev && m_credit.size() > 1 ? UpdateWeights() : 0;
    if (total > 0)
    {
        // Smooth weighted round robin: every plane earns its weight, the one that sent pays
        // the total; credits stay within a few rounds so that a busy port's owed packets do
        // not come in a burst once it frees.
        for (uint32_t p = 0; p < m_weight.size(); ++p)
        {
            m_credit[p] = std::clamp<int64_t>(m_credit[p] + m_weight[p] - (p == plane ? total : 0),
                                              -2 * total,
                                              2 * total);
        }
    }
    return ev;
}

int64_t
MrcSprayPathSelection::UpdateWeights()
{
    // Every plane's weight: its GOOD EVs; all its active EVs when no plane has one. (m_weight:
    // scratch, no allocation per packet.)
    int64_t total = 0;
    for (bool anyGood : {true, false})
    {
        for (uint32_t p = 0; p < m_weight.size(); ++p)
        {
            m_weight[p] = anyGood                        ? m_rules->GetGoodCount(p)
                          : m_pathSet->IsPlaneEnabled(p) ? m_pathSet->GetActive(p).size()
                                                         : 0;
            total += m_weight[p];
        }
        if (total > 0)
        {
            break;
        }
    }
    return total;
}

void
MrcSprayPathSelection::OrderPlanes(std::vector<uint32_t>& order)
{
    const uint32_t planes = m_credit.size();
    order.resize(planes);
    for (uint32_t i = 0; i < planes; ++i)
    {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) {
        return m_credit[a] > m_credit[b];
    });
}

void
MrcSprayPathSelection::OnAckFeedback(uint32_t ev, bool ecn, bool persistent)
{
    m_rules->OnFeedback(ev, ecn); // (EVs not in the set are ignored)
    MrcPathSelection::OnAckFeedback(ev, ecn, persistent);
}

void
MrcSprayPathSelection::OnEcnEcho(uint32_t ev, bool persistent)
{
    if (m_pathSet->Contains(ev))
    {
        m_rules->OnEcn(ev, persistent);
    }
}

void
MrcSprayPathSelection::SetPlaneEnabled(uint32_t plane, bool enabled)
{
    MrcPathSelection::SetPlaneEnabled(plane, enabled);
    if (enabled)
    {
        // EVs retired while the plane was disabled were not probed: probe them now.
        m_prober->OnEvRetired();
    }
}

void
MrcSprayPathSelection::Deny(uint32_t ev)
{
    m_rules->Deny(ev);
}

void
MrcSprayPathSelection::OnTrimmed(uint32_t ev)
{
    if (m_pathSet->Contains(ev))
    {
        m_rules->OnTrimmed(ev);
    }
}

void
MrcSprayPathSelection::OnSilentLoss(uint32_t ev)
{
    m_rules->OnSilentLoss(ev, Simulator::Now());
    m_prober->OnEvRetired();
}

bool
MrcSprayPathSelection::IsRetiredWith(uint32_t lost, uint32_t other) const
{
    return lost == other
           || (m_rules && m_pathSet->Contains(other)
               && m_pathSet->GetState(other) == MrcEvState::ASSUMED_BAD
               && m_rules->IsSamePath(lost, other));
}

void
MrcSprayPathSelection::OnPathLoss(uint32_t ev)
{
    m_rules->RetirePath(ev, Simulator::Now());
    m_prober->OnEvRetired();
}

uint64_t
MrcSprayPathSelection::GetPathId(uint32_t ev) const
{
    return m_rules ? m_rules->GetPathKey(ev) : ev;
}

void
MrcSprayPathSelection::OnDataArrival()
{
    m_prober->OnDataArrival();
}

void
MrcSprayPathSelection::OnProbeResponse(const MrcProbeHeader& response)
{
    m_prober->OnResponse(response);
}

void
MrcSprayPathSelection::Stop()
{
    if (m_prober)
    {
        m_prober->Stop();
    }
}

} // namespace ns3
