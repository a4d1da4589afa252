/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-qp-prober.h"

#include "mrc-path-set.h"
#include "mrc-probe-header.h"
#include "mrc-spray-ev-rules.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcQpProber");

namespace
{
/**
 * \param retired the retired EVs (MrcPathSet::GetProbeCandidates)
 * \param rules their rules (the path of an EV)
 * \param path a path (MrcSprayEvRules::GetPathKey)
 * \return the retired EVs on that path
 */
std::vector<uint32_t>
OnPath(const std::vector<uint32_t>& retired, const MrcSprayEvRules& rules, uint64_t path)
{
    std::vector<uint32_t> on;
    std::copy_if(retired.begin(), retired.end(), std::back_inserter(on), [&](uint32_t ev) {
        return rules.GetPathKey(ev) == path;
    });
    return on;
}
} // namespace

MrcQpProber::MrcQpProber(MrcSprayEvRules& rules,
                         const Config& config,
                         Hooks hooks,
                         MrcQpStats& stats,
                         Ptr<UniformRandomVariable> rng)
    : m_rules(rules)
    , m_paths(rules.GetPathSet())
    , m_config(config)
    , m_hooks(std::move(hooks))
    , m_stats(stats)
    , m_rng(rng)
{
}

MrcQpProber::~MrcQpProber()
{
    Stop();
}

void
MrcQpProber::Stop()
{
    Simulator::Cancel(m_restoreEvent);
    Simulator::Cancel(m_livenessEvent);
}

void
MrcQpProber::OnEvRetired()
{
    if (m_restoreEvent.IsExpired())
    {
        m_restoreEvent =
            Simulator::Schedule(m_config.restoreInterval, &MrcQpProber::OnRestoreTimer, this);
    }
}

void
MrcQpProber::OnDataArrival()
{
    if (m_livenessEvent.IsExpired() && m_hooks.onlyReceiving())
    {
        m_livenessEvent =
            Simulator::Schedule(m_config.livenessInterval, &MrcQpProber::OnLivenessTimer, this);
    }
}

void
MrcQpProber::Send(uint32_t ev, bool liveness)
{
    MrcProbeHeader probe;
    probe.SetSequence(m_nextSeq);
    probe.SetEv(ev);
    m_probes[m_nextSeq++] = Outstanding{ev, liveness, Simulator::Now()};
    Ptr<Packet> p = Create<Packet>(liveness ? 0 : m_config.restoreProbeBytes);
    p->AddHeader(probe);
    m_stats.probesSent++;
    m_stats.restoreProbesSent += liveness ? 0 : 1;
    m_hooks.sendProbe(ev, p);
}

void
MrcQpProber::OnResponse(const MrcProbeHeader& response)
{
    auto it = m_probes.find(response.GetSequence());
    if (it == m_probes.end() || it->second.ev != response.GetEv())
    {
        return; // late (already counted as failed) or not ours
    }
    const Outstanding probe = it->second;
    m_probes.erase(it);
    if (!probe.liveness)
    {
        // The probe answered for its path: every retired EV on it (under SRv6 several EVs may
        // name the same path) counts the success, each under its own hold-down.
        const uint64_t path = m_rules.GetPathKey(probe.ev);
        for (uint32_t ev : OnPath(m_paths.GetProbeCandidates(), m_rules, path))
        {
            m_backoff.erase(ev);
            m_rules.OnProbeSuccess(ev, Simulator::Now());
        }
        m_hooks.restored();
    }
}

void
MrcQpProber::OnRestoreTimer()
{
    // The retired EVs (a failed probe changes no EV's state: one list serves the round).
    const std::vector<uint32_t> retired = m_paths.GetProbeCandidates();
    // Restoration probes of the last round that went unanswered failed.
    for (auto it = m_probes.begin(); it != m_probes.end();)
    {
        if (!it->second.liveness)
        {
            // The failure counts for the EV probed only, and so does its backoff (an EV whose
            // probes keep failing is probed every 2, 4, ... rounds, up to restoreBackoffMax):
            // the path's other retired EVs stand in for it in the next rounds, so a repaired
            // path is found again within a few rounds, not after restoreBackoffMax of them.
            const uint32_t ev = it->second.ev;
            m_rules.OnProbeFailure(ev);
            Backoff& b = m_backoff[ev];
            b.failures = std::min<uint32_t>(b.failures + 1, 10);
            b.nextRound = m_round
                          + std::min<uint64_t>(uint64_t(1) << b.failures,
                                               std::max(m_config.restoreBackoffMax, 1u));
            it = m_probes.erase(it);
        }
        else
        {
            ++it;
        }
    }
    // At most restoreProbesPerRound probes a round, taking the candidates in turn: with many
    // retired EVs, full-size probes would otherwise crowd out the data on the NIC's ports.
    ++m_round;
    // One probe per path: EVs that name the same path (SRv6 gives a path several EVs when
    // EVs outnumber paths) would only repeat its answer, each a full-size packet.
    std::vector<uint32_t> candidates;
    std::set<uint64_t> paths;
    for (uint32_t ev : retired)
    {
        auto b = m_backoff.find(ev);
        if ((b == m_backoff.end() || b->second.nextRound <= m_round)
            && paths.insert(m_rules.GetPathKey(ev)).second)
        {
            candidates.push_back(ev);
        }
    }
    const bool any = !retired.empty();
    const size_t n = m_config.restoreProbesPerRound == 0
                         ? candidates.size()
                         : std::min<size_t>(candidates.size(), m_config.restoreProbesPerRound);
    for (size_t i = 0; i < n; ++i)
    {
        Send(candidates[(m_restoreCursor + i) % candidates.size()], false);
    }
    m_restoreCursor = candidates.empty() ? 0 : (m_restoreCursor + n) % candidates.size();
    if (any)
    {
        m_restoreEvent =
            Simulator::Schedule(m_config.restoreInterval, &MrcQpProber::OnRestoreTimer, this);
    }
}

void
MrcQpProber::OnLivenessTimer()
{
    const Time now = Simulator::Now();
    bool waiting = false;
    for (auto it = m_probes.begin(); it != m_probes.end();)
    {
        if (it->second.liveness && it->second.sentAt + m_config.livenessTimeout <= now)
        {
            const uint32_t ev = it->second.ev;
            it = m_probes.erase(it);
            if (m_paths.Contains(ev) && m_paths.GetState(ev) != MrcEvState::ASSUMED_BAD
                && m_paths.GetState(ev) != MrcEvState::DENIED)
            {
                NS_LOG_INFO("reverse EV " << ev << " failed its liveness probe");
                m_rules.OnSilentLoss(ev, now);
                OnEvRetired();
            }
            continue;
        }
        waiting = waiting || it->second.liveness;
        ++it;
    }
    if (m_hooks.onlyReceiving())
    {
        std::vector<uint32_t> active;
        for (uint32_t plane = 0; plane < m_paths.GetPlaneCount(); ++plane)
        {
            if (m_paths.IsPlaneEnabled(plane))
            {
                const std::vector<uint32_t>& a = m_paths.GetActive(plane);
                active.insert(active.end(), a.begin(), a.end());
            }
        }
        if (!active.empty())
        {
            Send(active[m_rng->GetInteger(0, active.size() - 1)], true);
            waiting = true;
        }
    }
    if (waiting)
    {
        m_livenessEvent =
            Simulator::Schedule(m_config.livenessInterval, &MrcQpProber::OnLivenessTimer, this);
    }
}

} // namespace ns3
