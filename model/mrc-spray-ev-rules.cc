/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-spray-ev-rules.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

MrcSprayEvRules::MrcSprayEvRules(MrcPathSet& set, uint32_t probeSuccesses)
    : m_set(set)
    , m_rotations(set.GetPlaneCount())
    , m_probeSuccesses(probeSuccesses)
    , m_planeStates(set.GetPlaneCount())
{
    if (probeSuccesses == 0)
    {
        throw std::invalid_argument("MrcSprayEvRules: ProbeSuccesses must be >= 1");
    }
}

MrcPathSet&
MrcSprayEvRules::GetPathSet()
{
    return m_set;
}

const MrcPathSet&
MrcSprayEvRules::GetPathSet() const
{
    return m_set;
}

void
MrcSprayEvRules::SetSkipRotations(uint32_t rotations)
{
    m_skipRotations = std::max<uint32_t>(1, rotations);
}

void
MrcSprayEvRules::SetSkipTime(Time one, Time memory)
{
    m_skipTime = one.IsStrictlyPositive() ? one : Time(0);
    m_skipMemory = std::max(Time(0), memory);
}

void
MrcSprayEvRules::SetClock(std::function<Time()> clock)
{
    m_clock = std::move(clock);
}

void
MrcSprayEvRules::SetAlwaysSkipFactor(uint32_t factor)
{
    m_alwaysSkipFactor = std::max<uint32_t>(1, factor);
}

void
MrcSprayEvRules::SetEscalation(double ratio, double gain)
{
    if (!(ratio >= 0) || !(gain > 0 && gain <= 1))
    {
        throw std::invalid_argument("MrcSprayEvRules: escalation ratio (=" + std::to_string(ratio)
                                    + ") must be >= 0 and mark-rate gain (=" + std::to_string(gain)
                                    + ") in (0, 1]");
    }
    m_escalationRatio = ratio;
    m_markRateGain = gain;
}

void
MrcSprayEvRules::OnFeedback(uint32_t ev, bool marked)
{
    if (m_set.Contains(ev))
    {
        Entry& e = Get(ev);
        e.markRate += m_markRateGain * ((marked ? 1.0 : 0.0) - e.markRate);
    }
}

double
MrcSprayEvRules::GetMarkRate(uint32_t ev) const
{
    return Peek(ev).markRate;
}

void
MrcSprayEvRules::SetSkipRelease(double ratio)
{
    if (!(ratio >= 0))
    {
        throw std::invalid_argument("MrcSprayEvRules: SKIP release ratio (=" + std::to_string(ratio)
                                    + ") must be >= 0");
    }
    m_releaseRatio = ratio;
}

void
MrcSprayEvRules::AddMarkRates(uint32_t plane,
                              std::optional<uint32_t> except,
                              double& sum,
                              size_t& count) const
{
    for (uint32_t a : m_set.GetActive(plane))
    {
        if (a != except)
        {
            sum += Peek(a).markRate;
            ++count;
        }
    }
}

bool
MrcSprayEvRules::StillMoreMarked(const Entry& e, uint32_t plane) const
{
    const Time now = Now();
    if (m_marksAt.IsStrictlyNegative() || now - m_marksAt >= m_skipTime)
    {
        m_marksAt = now;
        m_markSum.assign(m_set.GetPlaneCount(), 0.0);
        m_markCount.assign(m_set.GetPlaneCount(), 0);
        for (uint32_t p = 0; p < m_set.GetPlaneCount(); ++p)
        {
            AddMarkRates(p, std::nullopt, m_markSum[p], m_markCount[p]);
        }
    }
    if (plane >= m_markCount.size() || m_markCount[plane] < 2)
    {
        return true;
    }
    const double others =
        std::max(0.0, m_markSum[plane] - e.markRate) / double(m_markCount[plane] - 1);
    return e.markRate >= m_releaseRatio * others;
}

bool
MrcSprayEvRules::MoreMarkedThanOthers(uint32_t ev, const Entry& e) const
{
    if (m_escalationRatio <= 0)
    {
        return true;
    }
    double sum = 0;
    size_t others = 0;
    for (uint32_t p = 0; p < m_set.GetPlaneCount(); ++p)
    {
        if (m_set.IsPlaneEnabled(p))
        {
            AddMarkRates(p, ev, sum, others);
        }
    }
    return others == 0 || e.markRate >= m_escalationRatio * sum / double(others);
}

void
MrcSprayEvRules::SetDampening(Time initial, Time maximum, Time flapWindow)
{
    m_holdDownInitial = initial;
    m_holdDownMax = std::max(initial, maximum);
    m_flapWindow = flapWindow;
}

void
MrcSprayEvRules::SetPathKey(std::function<uint64_t(uint32_t)> key)
{
    m_pathKey = std::move(key);
}

MrcSprayEvRules::Entry&
MrcSprayEvRules::Get(uint32_t ev)
{
    return m_entries[ev];
}

const MrcSprayEvRules::Entry&
MrcSprayEvRules::Peek(uint32_t ev) const
{
    auto it = m_entries.find(ev);
    return it == m_entries.end() ? m_fresh : it->second;
}

Time
MrcSprayEvRules::Now() const
{
    return m_clock ? m_clock() : Simulator::Now();
}

bool
MrcSprayEvRules::SkipOver(const Entry& e, uint32_t plane) const
{
    if (m_skipTime.IsStrictlyPositive())
    {
        // An escalated SKIP lasts while its path stands out; once the others are marked as
        // much (the load it shed went onto them), it is one path among equals again.
        return Now() >= e.skipEnd
               || (m_releaseRatio > 0 && e.skipLength > 1 && !StillMoreMarked(e, plane));
    }
    return m_rotations[plane].rotation >= e.skipUntil;
}

bool
MrcSprayEvRules::SkipRecent(uint32_t ev, const Entry& e) const
{
    if (m_set.GetState(ev) == MrcEvState::SKIP)
    {
        return true;
    }
    if (e.skipLength == 0)
    {
        return false; // never skipped for ECN
    }
    if (m_skipTime.IsStrictlyPositive())
    {
        return Now() < e.skipEnd + m_skipMemory;
    }
    // (An echo needs an RTT to come back: "recent" spans the last SKIP's length plus two.)
    return m_rotations[m_set.GetPlane(ev)].rotation
           < e.skipUntil + uint64_t(e.skipLength + 2) * m_skipRotations;
}

bool
MrcSprayEvRules::IsGoodNow(uint32_t ev) const
{
    const MrcEvState state = m_set.GetState(ev);
    return state == MrcEvState::GOOD
           || (state == MrcEvState::SKIP && SkipOver(Peek(ev), m_set.GetPlane(ev)));
}

const MrcSprayEvRules::PlaneStates&
MrcSprayEvRules::StatesOf(uint32_t plane) const
{
    PlaneStates& p = m_planeStates.at(plane);
    if (p.version != m_set.GetVersion())
    {
        p.version = m_set.GetVersion();
        p.good = 0;
        p.skipping.clear();
        for (uint32_t ev : m_set.GetActive(plane))
        {
            const MrcEvState state = m_set.GetState(ev);
            p.good += state == MrcEvState::GOOD ? 1 : 0;
            if (state == MrcEvState::SKIP)
            {
                p.skipping.push_back(ev);
            }
        }
    }
    return p;
}

uint32_t
MrcSprayEvRules::GetGoodCount(uint32_t plane) const
{
    if (!m_set.IsPlaneEnabled(plane))
    {
        return 0;
    }
    // As counting IsGoodNow over the active EVs, with the states read once per set change.
    const PlaneStates& p = StatesOf(plane);
    return p.good + std::count_if(p.skipping.begin(), p.skipping.end(), [&](uint32_t ev) {
               return SkipOver(Peek(ev), plane);
           });
}

bool
MrcSprayEvRules::HasGood(uint32_t plane) const
{
    return GetGoodCount(plane) > 0;
}

std::optional<uint32_t>
MrcSprayEvRules::Next(uint32_t plane)
{
    const std::vector<uint32_t>& active = m_set.GetActive(plane);
    if (!m_set.IsPlaneEnabled(plane) || active.empty())
    {
        return std::nullopt;
    }
    Rotation& r = m_rotations.at(plane);
    std::optional<uint32_t> fallback;
    for (size_t tries = 0; tries < active.size(); ++tries)
    {
        if (r.cursor >= active.size())
        {
            r.cursor = 0;
            ++r.rotation;
        }
        const uint32_t ev = active[r.cursor++];
        if (m_set.GetState(ev) == MrcEvState::SKIP && SkipOver(Get(ev), plane))
        {
            m_set.SetState(ev,
                           MrcEvState::GOOD,
                           m_skipTime.IsStrictlyPositive() ? "skip-time" : "rotation");
        }
        const MrcEvState state = m_set.GetState(ev);
        if (state == MrcEvState::GOOD)
        {
            return ev;
        }
        if (!fallback && state == MrcEvState::SKIP)
        {
            fallback = ev;
        }
    }
    return fallback;
}

void
MrcSprayEvRules::Skip(uint32_t ev, uint32_t skips, const std::string& cause)
{
    if (!m_set.Contains(ev))
    {
        return;
    }
    const MrcEvState state = m_set.GetState(ev);
    if (state != MrcEvState::GOOD && state != MrcEvState::SKIP)
    {
        return;
    }
    // A new echo while in SKIP starts the SKIP again (never shortens a longer one).
    Entry& e = Get(ev);
    const bool skipping = state == MrcEvState::SKIP;
    if (m_skipTime.IsStrictlyPositive())
    {
        const Time end = Now() + m_skipTime * int64_t(skips);
        e.skipEnd = skipping ? std::max(e.skipEnd, end) : end;
    }
    else
    {
        const uint64_t until =
            m_rotations[m_set.GetPlane(ev)].rotation + uint64_t(skips) * m_skipRotations;
        e.skipUntil = skipping ? std::max(e.skipUntil, until) : until;
    }
    m_set.SetState(ev, MrcEvState::SKIP, cause);
}

void
MrcSprayEvRules::OnEcn(uint32_t ev, bool persistent)
{
    if (!m_set.Contains(ev))
    {
        return;
    }
    // Persistent congestion: an echo while the EV is still in SKIP, or soon after its return,
    // doubles its next SKIP (up to AlwaysSkipFactor SKIPs, at once on ALWAYS_SKIP); a
    // first echo after a quiet spell starts again from one SKIP. Escalate only while the
    // congestion is the path's, not every path's (MoreMarkedThanOthers).
    Entry& e = Get(ev);
    const bool recent = SkipRecent(ev, e);
    // (The comparison walks the active EVs: only when there is an escalation to allow.)
    const bool pathOwn = (persistent || recent) && MoreMarkedThanOthers(ev, e);
    e.skipLength = !pathOwn     ? 1
                   : persistent ? m_alwaysSkipFactor
                                : std::min(m_alwaysSkipFactor, std::max(1u, 2 * e.skipLength));
    Skip(ev, e.skipLength, (persistent && pathOwn) ? "ecn-always" : "ecn");
}

void
MrcSprayEvRules::OnTrimmed(uint32_t ev)
{
    OnFeedback(ev, true);
    Skip(ev, 1, "trimmed");
}

void
MrcSprayEvRules::OnRemoved(uint32_t plane, std::optional<size_t> index)
{
    Rotation& r = m_rotations.at(plane);
    if (index && r.cursor > *index)
    {
        --r.cursor;
    }
}

bool
MrcSprayEvRules::RemoveActive(uint32_t ev)
{
    const std::optional<size_t> index = m_set.RemoveActive(ev);
    OnRemoved(m_set.GetPlane(ev), index);
    return index.has_value();
}

std::optional<uint32_t>
MrcSprayEvRules::OnSilentLoss(uint32_t ev, Time now)
{
    if (!m_set.Contains(ev) || m_set.GetState(ev) == MrcEvState::ASSUMED_BAD
        || m_set.GetState(ev) == MrcEvState::DENIED)
    {
        return std::nullopt;
    }
    return Retire(ev, now, "silent loss");
}

void
MrcSprayEvRules::RetirePath(uint32_t ev, Time now)
{
    if (m_pathKey && m_set.Contains(ev))
    {
        // The path's active EVs, while the plane has backups on other paths to replace them
        // (Retire takes those first). Past that, or on a plane of one path, the rest wait for
        // losses of their own: a path's loss never empties a plane.
        const uint32_t plane = m_set.GetPlane(ev);
        const uint64_t key = m_pathKey(ev);
        auto elsewhere = [this, plane, key]() {
            const std::vector<uint32_t>& backups = m_set.GetBackups(plane);
            return std::any_of(backups.begin(), backups.end(), [this, key](uint32_t b) {
                return m_pathKey(b) != key;
            });
        };
        while (elsewhere())
        {
            const std::vector<uint32_t>& active = m_set.GetActive(plane);
            auto sibling = std::find_if(active.begin(), active.end(), [this, key](uint32_t a) {
                return m_pathKey(a) == key;
            });
            if (sibling == active.end())
            {
                break;
            }
            Retire(*sibling, now, "silent loss on its path");
        }
    }
}

bool
MrcSprayEvRules::IsSamePath(uint32_t a, uint32_t b) const
{
    return m_pathKey && m_pathKey(a) == m_pathKey(b);
}

uint64_t
MrcSprayEvRules::GetPathKey(uint32_t ev) const
{
    return m_pathKey ? m_pathKey(ev) : ev;
}

std::optional<uint32_t>
MrcSprayEvRules::Retire(uint32_t ev, Time now, const std::string& cause)
{
    const uint32_t plane = m_set.GetPlane(ev);
    const bool wasActive = RemoveActive(ev);
    Entry& e = Get(ev);
    e.probeSuccesses = 0;
    e.retiredAt = now;
    if (m_flapWindow.IsStrictlyPositive() && !e.restoredAt.IsStrictlyNegative())
    {
        // Healthy for k flap windows halves the hold-down k times; retired within one doubles it.
        const int64_t healthy =
            (now - e.restoredAt).GetNanoSeconds() / m_flapWindow.GetNanoSeconds();
        for (int64_t k = 0; k < healthy && e.holdDown.IsStrictlyPositive(); ++k)
        {
            e.holdDown = e.holdDown / 2 < m_holdDownInitial ? Time(0) : e.holdDown / 2;
        }
        if (healthy == 0)
        {
            e.holdDown = std::min(std::max(e.holdDown * 2, m_holdDownInitial), m_holdDownMax);
        }
    }
    m_set.SetState(ev, MrcEvState::ASSUMED_BAD, cause);
    const std::vector<uint32_t>& backups = m_set.GetBackups(plane);
    if (!wasActive || backups.empty())
    {
        return std::nullopt;
    }
    // A backup of the same plane keeps the planes equally loaded; one on another path than the
    // lost EV's where the plane has one (a path that lost a packet may have lost them all): the
    // fewest EVs retired on its path, then the fewest active EVs there, so that replacements
    // neither land on a path whose EVs are failing nor pile the active set onto whichever path
    // comes first among the backups.
    size_t pick = 0;
    if (m_pathKey)
    {
        std::map<uint64_t, uint32_t> activePerPath = CountActivePerPath(plane);
        std::map<uint64_t, uint32_t> retiredPerPath;
        for (uint32_t other : m_set.GetEvsInState(plane, MrcEvState::ASSUMED_BAD))
        {
            retiredPerPath[m_pathKey(other)]++;
        }
        std::pair<uint32_t, uint32_t> best{UINT32_MAX, UINT32_MAX};
        for (size_t b = 0; b < backups.size(); ++b)
        {
            const uint64_t key = m_pathKey(backups[b]);
            const std::pair<uint32_t, uint32_t> load{retiredPerPath[key], activePerPath[key]};
            if (load < best)
            {
                best = load;
                pick = b;
            }
        }
    }
    const uint32_t replacement = m_set.TakeBackup(plane, pick);
    m_set.AddActive(replacement);
    return replacement;
}

bool
MrcSprayEvRules::OnProbeSuccess(uint32_t ev, Time now)
{
    if (!m_set.Contains(ev) || m_set.GetState(ev) != MrcEvState::ASSUMED_BAD)
    {
        return false;
    }
    Entry& e = Get(ev);
    const uint32_t plane = m_set.GetPlane(ev);
    const size_t active = m_set.GetActive(plane).size();
    const uint32_t target = m_set.GetActiveTarget();
    // The hold-down keeps a flapping path out while others can stand in; a plane short of
    // active EVs with no backup left takes back whatever its probes show working (under
    // random loss every EV "flaps", and the hold-downs would otherwise empty the plane).
    const bool shortOfEvs = active < target && m_set.GetBackups(plane).empty();
    if (++e.probeSuccesses < m_probeSuccesses || (now - e.retiredAt < e.holdDown && !shortOfEvs))
    {
        return false;
    }
    e.probeSuccesses = 0;
    e.restoredAt = now;
    if (active < target)
    {
        m_set.AddActive(ev);
    }
    else if (const std::optional<uint32_t> standIn = FindStandIn(plane, ev))
    {
        // The active set is full because stand-ins took the retired EVs' places: the path
        // that has come back takes its share back, or spraying would stay off it for good.
        RemoveActive(*standIn);
        m_set.AddBackup(*standIn, true);
        m_set.AddActive(ev);
    }
    else
    {
        m_set.AddBackup(ev);
    }
    m_set.SetState(ev, MrcEvState::GOOD, "probes");
    return true;
}

std::map<uint64_t, uint32_t>
MrcSprayEvRules::CountActivePerPath(uint32_t plane) const
{
    std::map<uint64_t, uint32_t> count;
    for (uint32_t a : m_set.GetActive(plane))
    {
        count[m_pathKey(a)]++;
    }
    return count;
}

std::optional<uint32_t>
MrcSprayEvRules::FindStandIn(uint32_t plane, uint32_t ev) const
{
    if (!m_pathKey)
    {
        return std::nullopt;
    }
    std::map<uint64_t, uint32_t> activePerPath = CountActivePerPath(plane);
    const uint32_t own = activePerPath[m_pathKey(ev)];
    std::optional<uint32_t> standIn;
    uint32_t most = own + 1; // only a path with at least two more active EVs gives one up
    const std::vector<uint32_t>& active = m_set.GetActive(plane);
    for (auto a = active.rbegin(); a != active.rend(); ++a)
    {
        const uint32_t load = activePerPath[m_pathKey(*a)];
        if (load > most)
        {
            most = load;
            standIn = *a;
        }
    }
    return standIn;
}

Time
MrcSprayEvRules::GetHoldDown(uint32_t ev) const
{
    return Peek(ev).holdDown;
}

void
MrcSprayEvRules::OnProbeFailure(uint32_t ev)
{
    if (m_set.Contains(ev))
    {
        Get(ev).probeSuccesses = 0;
    }
}

void
MrcSprayEvRules::Deny(uint32_t ev)
{
    if (m_set.Contains(ev))
    {
        OnRemoved(m_set.GetPlane(ev), m_set.Deny(ev));
    }
}

} // namespace ns3
