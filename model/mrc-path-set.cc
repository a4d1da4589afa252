/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-path-set.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

std::ostream&
operator<<(std::ostream& os, MrcEvState s)
{
    switch (s)
    {
        case MrcEvState::GOOD:
            return os << "GOOD";
        case MrcEvState::SKIP:
            return os << "SKIP";
        case MrcEvState::ASSUMED_BAD:
            return os << "ASSUMED_BAD";
        case MrcEvState::DENIED:
            return os << "DENIED";
    }
    return os << "?";
}

namespace
{
/**
 * \param plane a plane
 * \return a GOOD entry of that plane
 */
MrcPathSet::Entry
MakeEntry(uint32_t plane)
{
    MrcPathSet::Entry e;
    e.plane = plane;
    return e;
}
} // namespace

MrcPathSet::MrcPathSet(const std::vector<std::vector<uint32_t>>& evsPerPlane,
                       uint32_t activePerPlane,
                       uint32_t probeSuccesses)
    : m_planes(evsPerPlane.size())
    , m_target(activePerPlane)
    , m_probeSuccesses(probeSuccesses)
{
    if (activePerPlane == 0)
    {
        throw std::invalid_argument("MrcPathSet: active EVs per plane must be >= 1");
    }
    if (probeSuccesses == 0)
    {
        throw std::invalid_argument("MrcPathSet: ProbeSuccesses must be >= 1");
    }
    for (uint32_t p = 0; p < evsPerPlane.size(); ++p)
    {
        for (uint32_t ev : evsPerPlane[p])
        {
            if (!m_entries.emplace(ev, MakeEntry(p)).second)
            {
                throw std::invalid_argument("MrcPathSet: EV " + std::to_string(ev)
                                            + " appears twice");
            }
            auto& list =
                m_planes[p].active.size() < m_target ? m_planes[p].active : m_planes[p].backups;
            list.push_back(ev);
        }
    }
}

void
MrcPathSet::SetChangeCallback(ChangeCallback cb)
{
    m_onChange = std::move(cb);
}

void
MrcPathSet::SetSkipRotations(uint32_t rotations)
{
    m_skipRotations = std::max<uint32_t>(1, rotations);
}

void
MrcPathSet::SetSkipTime(Time one, Time memory)
{
    m_skipTime = one.IsStrictlyPositive() ? one : Time(0);
    m_skipMemory = std::max(Time(0), memory);
}

void
MrcPathSet::SetClock(std::function<Time()> clock)
{
    m_clock = std::move(clock);
}

Time
MrcPathSet::Now() const
{
    return m_clock ? m_clock() : Simulator::Now();
}

bool
MrcPathSet::SkipOver(const Entry& e, const Plane& pl) const
{
    if (m_skipTime.IsStrictlyPositive())
    {
        return Now() >= e.skipEnd;
    }
    return pl.rotation >= e.skipUntil;
}

bool
MrcPathSet::SkipRecent(const Entry& e, const Plane& pl) const
{
    if (e.state == MrcEvState::SKIP)
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
    return pl.rotation < e.skipUntil + uint64_t(e.skipLength + 2) * m_skipRotations;
}

void
MrcPathSet::SetPathKey(std::function<uint64_t(uint32_t)> key)
{
    m_pathKey = std::move(key);
}

void
MrcPathSet::SetAlwaysSkipFactor(uint32_t factor)
{
    m_alwaysSkipFactor = std::max<uint32_t>(1, factor);
}

void
MrcPathSet::SetDampening(Time initial, Time maximum, Time flapWindow)
{
    m_holdDownInitial = initial;
    m_holdDownMax = std::max(initial, maximum);
    m_flapWindow = flapWindow;
}

uint32_t
MrcPathSet::GetPlaneCount() const
{
    return m_planes.size();
}

void
MrcPathSet::Change(uint32_t ev, MrcEvState to, const std::string& cause)
{
    Entry& e = m_entries.at(ev);
    const MrcEvState from = e.state;
    if (from == to)
    {
        return;
    }
    e.state = to;
    if (m_onChange)
    {
        m_onChange(ev, from, to, cause);
    }
}

bool
MrcPathSet::IsGoodNow(const Entry& e, const Plane& pl) const
{
    return e.state == MrcEvState::GOOD || (e.state == MrcEvState::SKIP && SkipOver(e, pl));
}

uint32_t
MrcPathSet::GetGoodCount(uint32_t plane) const
{
    const Plane& pl = m_planes.at(plane);
    if (!pl.enabled)
    {
        return 0;
    }
    return std::count_if(pl.active.begin(), pl.active.end(), [&](uint32_t ev) {
        return IsGoodNow(m_entries.at(ev), pl);
    });
}

bool
MrcPathSet::HasGood(uint32_t plane) const
{
    const Plane& pl = m_planes.at(plane);
    if (!pl.enabled)
    {
        return false;
    }
    return std::any_of(pl.active.begin(), pl.active.end(), [&](uint32_t ev) {
        return IsGoodNow(m_entries.at(ev), pl);
    });
}

std::optional<uint32_t>
MrcPathSet::Next(uint32_t plane)
{
    Plane& pl = m_planes.at(plane);
    if (!pl.enabled || pl.active.empty())
    {
        return std::nullopt;
    }
    std::optional<uint32_t> fallback;
    for (size_t tries = 0; tries < pl.active.size(); ++tries)
    {
        if (pl.cursor >= pl.active.size())
        {
            pl.cursor = 0;
            ++pl.rotation;
        }
        const uint32_t ev = pl.active[pl.cursor++];
        Entry& e = m_entries.at(ev);
        if (e.state == MrcEvState::SKIP && SkipOver(e, pl))
        {
            Change(ev,
                   MrcEvState::GOOD,
                   m_skipTime.IsStrictlyPositive() ? "skip-time" : "rotation");
        }
        if (e.state == MrcEvState::GOOD)
        {
            return ev;
        }
        if (!fallback && e.state == MrcEvState::SKIP)
        {
            fallback = ev;
        }
    }
    return fallback;
}

void
MrcPathSet::Skip(uint32_t ev, uint32_t skips, const std::string& cause)
{
    auto it = m_entries.find(ev);
    if (it == m_entries.end()
        || (it->second.state != MrcEvState::GOOD && it->second.state != MrcEvState::SKIP))
    {
        return;
    }
    // A new echo while in SKIP starts the SKIP again (never shortens a longer one).
    Entry& e = it->second;
    const bool skipping = e.state == MrcEvState::SKIP;
    if (m_skipTime.IsStrictlyPositive())
    {
        const Time end = Now() + m_skipTime * int64_t(skips);
        e.skipEnd = skipping ? std::max(e.skipEnd, end) : end;
    }
    else
    {
        const uint64_t until = m_planes[e.plane].rotation + uint64_t(skips) * m_skipRotations;
        e.skipUntil = skipping ? std::max(e.skipUntil, until) : until;
    }
    Change(ev, MrcEvState::SKIP, cause);
}

void
MrcPathSet::OnEcn(uint32_t ev, bool persistent)
{
    auto it = m_entries.find(ev);
    if (it == m_entries.end())
    {
        return;
    }
    // Persistent congestion: an echo while the EV is still in SKIP, or soon after its return,
    // doubles its next SKIP (up to AlwaysSkipFactor SKIPs, at once on ALWAYS_SKIP); a
    // first echo after a quiet spell starts again from one SKIP.
    Entry& e = it->second;
    const Plane& pl = m_planes[e.plane];
    const bool recent = SkipRecent(e, pl);
    // Escalate only while the congestion is the path's: if half or more of the plane's other
    // active EVs are in SKIP too, every path is loaded (e.g. an oversubscribed first hop) and a
    // longer SKIP would only pile the load onto the few EVs left.
    size_t others = 0;
    size_t skipping = 0;
    for (uint32_t a : pl.active)
    {
        if (a != ev)
        {
            ++others;
            const Entry& o = m_entries.at(a);
            skipping += (o.state == MrcEvState::SKIP && !SkipOver(o, pl)) ? 1 : 0;
        }
    }
    const bool everywhere = others > 0 && 2 * skipping >= others;
    e.skipLength = everywhere   ? 1
                   : persistent ? m_alwaysSkipFactor
                   : recent     ? std::min(m_alwaysSkipFactor, std::max(1u, 2 * e.skipLength))
                                : 1;
    Skip(ev, e.skipLength, persistent ? "ecn-always" : "ecn");
}

void
MrcPathSet::OnTrimmed(uint32_t ev)
{
    Skip(ev, 1, "trimmed");
}

bool
MrcPathSet::RemoveActive(uint32_t ev)
{
    Plane& pl = m_planes.at(m_entries.at(ev).plane);
    auto it = std::find(pl.active.begin(), pl.active.end(), ev);
    if (it == pl.active.end())
    {
        return false;
    }
    const size_t index = it - pl.active.begin();
    pl.active.erase(it);
    if (pl.cursor > index)
    {
        --pl.cursor;
    }
    return true;
}

std::optional<uint32_t>
MrcPathSet::NextControl(uint32_t plane)
{
    Plane& pl = m_planes.at(plane);
    if (!pl.enabled)
    {
        return std::nullopt;
    }
    // The active EVs with a cursor of their own: a control packet does not move the data
    // rotation (nor end SKIPs). GOOD first, a SKIP EV if no GOOD one is left.
    std::optional<uint32_t> fallback;
    for (size_t tries = 0; tries < pl.active.size(); ++tries)
    {
        const uint32_t ev = pl.active[pl.activeControlCursor++ % pl.active.size()];
        const MrcEvState state = m_entries.at(ev).state;
        if (state == MrcEvState::GOOD)
        {
            return ev;
        }
        if (!fallback && state == MrcEvState::SKIP)
        {
            fallback = ev;
        }
    }
    if (fallback)
    {
        return fallback;
    }
    std::vector<uint32_t> bad;
    for (const auto& [ev, e] : m_entries)
    {
        if (e.plane == plane && e.state == MrcEvState::ASSUMED_BAD)
        {
            bad.push_back(ev);
        }
    }
    if (bad.empty())
    {
        return std::nullopt;
    }
    return bad[pl.controlCursor++ % bad.size()];
}

std::optional<uint32_t>
MrcPathSet::OnSilentLoss(uint32_t ev, Time now)
{
    auto it = m_entries.find(ev);
    if (it == m_entries.end() || it->second.state == MrcEvState::ASSUMED_BAD
        || it->second.state == MrcEvState::DENIED)
    {
        return std::nullopt;
    }
    const bool wasActive = RemoveActive(ev);
    Entry& e = it->second;
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
    Change(ev, MrcEvState::ASSUMED_BAD, "silent loss");
    Plane& pl = m_planes[it->second.plane];
    if (!wasActive || pl.backups.empty())
    {
        return std::nullopt;
    }
    // A backup of the same plane keeps the planes equally loaded; one on another path than the
    // lost EV's where the plane has one (a path that lost a packet may have lost them all): the
    // fewest EVs retired on its path, then the fewest active EVs there, so that replacements
    // neither land on a path whose EVs are failing nor pile the active set onto whichever path
    // comes first among the backups.
    auto pick = pl.backups.begin();
    if (m_pathKey)
    {
        std::map<uint64_t, uint32_t> activePerPath = CountActivePerPath(pl);
        std::map<uint64_t, uint32_t> retiredPerPath;
        for (const auto& [other, entry] : m_entries)
        {
            if (entry.plane == it->second.plane && entry.state == MrcEvState::ASSUMED_BAD)
            {
                retiredPerPath[m_pathKey(other)]++;
            }
        }
        std::pair<uint32_t, uint32_t> best{UINT32_MAX, UINT32_MAX};
        for (auto b = pl.backups.begin(); b != pl.backups.end(); ++b)
        {
            const uint64_t key = m_pathKey(*b);
            const std::pair<uint32_t, uint32_t> load{retiredPerPath[key], activePerPath[key]};
            if (load < best)
            {
                best = load;
                pick = b;
            }
        }
    }
    const uint32_t replacement = *pick;
    pl.backups.erase(pick);
    pl.active.push_back(replacement);
    return replacement;
}

bool
MrcPathSet::OnProbeSuccess(uint32_t ev, Time now)
{
    auto it = m_entries.find(ev);
    if (it == m_entries.end() || it->second.state != MrcEvState::ASSUMED_BAD)
    {
        return false;
    }
    Entry& e = it->second;
    Plane& pl = m_planes[e.plane];
    // The hold-down keeps a flapping path out while others can stand in; a plane short of
    // active EVs with no backup left takes back whatever its probes show working (under
    // random loss every EV "flaps", and the hold-downs would otherwise empty the plane).
    const bool shortOfEvs = pl.active.size() < m_target && pl.backups.empty();
    if (++e.probeSuccesses < m_probeSuccesses || (now - e.retiredAt < e.holdDown && !shortOfEvs))
    {
        return false;
    }
    e.probeSuccesses = 0;
    e.restoredAt = now;
    if (pl.active.size() < m_target)
    {
        pl.active.push_back(ev);
    }
    else if (const std::optional<uint32_t> standIn = FindStandIn(pl, ev))
    {
        // The active set is full because stand-ins took the retired EVs' places: the path
        // that has come back takes its share back, or spraying would stay off it for good.
        RemoveActive(*standIn);
        pl.backups.insert(pl.backups.begin(), *standIn);
        pl.active.push_back(ev);
    }
    else
    {
        pl.backups.push_back(ev);
    }
    Change(ev, MrcEvState::GOOD, "probes");
    return true;
}

std::map<uint64_t, uint32_t>
MrcPathSet::CountActivePerPath(const Plane& pl) const
{
    std::map<uint64_t, uint32_t> count;
    for (uint32_t a : pl.active)
    {
        count[m_pathKey(a)]++;
    }
    return count;
}

std::optional<uint32_t>
MrcPathSet::FindStandIn(const Plane& pl, uint32_t ev) const
{
    if (!m_pathKey)
    {
        return std::nullopt;
    }
    std::map<uint64_t, uint32_t> activePerPath = CountActivePerPath(pl);
    const uint32_t own = activePerPath[m_pathKey(ev)];
    std::optional<uint32_t> standIn;
    uint32_t most = own + 1; // only a path with at least two more active EVs gives one up
    for (auto a = pl.active.rbegin(); a != pl.active.rend(); ++a)
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
MrcPathSet::GetHoldDown(uint32_t ev) const
{
    return m_entries.at(ev).holdDown;
}

void
MrcPathSet::OnProbeFailure(uint32_t ev)
{
    auto it = m_entries.find(ev);
    if (it != m_entries.end())
    {
        it->second.probeSuccesses = 0;
    }
}

void
MrcPathSet::Deny(uint32_t ev)
{
    auto it = m_entries.find(ev);
    if (it == m_entries.end() || it->second.state == MrcEvState::DENIED)
    {
        return;
    }
    Plane& pl = m_planes[it->second.plane];
    const bool wasActive = RemoveActive(ev);
    pl.backups.erase(std::remove(pl.backups.begin(), pl.backups.end(), ev), pl.backups.end());
    Change(ev, MrcEvState::DENIED, "denylist");
    if (wasActive && !pl.backups.empty())
    {
        pl.active.push_back(pl.backups.front());
        pl.backups.erase(pl.backups.begin());
    }
}

void
MrcPathSet::SetPlaneEnabled(uint32_t plane, bool enabled)
{
    m_planes.at(plane).enabled = enabled;
}

bool
MrcPathSet::IsPlaneEnabled(uint32_t plane) const
{
    return m_planes.at(plane).enabled;
}

std::vector<uint32_t>
MrcPathSet::GetProbeCandidates() const
{
    std::vector<uint32_t> out;
    for (const auto& [ev, e] : m_entries)
    {
        if (e.state == MrcEvState::ASSUMED_BAD && m_planes[e.plane].enabled)
        {
            out.push_back(ev);
        }
    }
    return out;
}

MrcEvState
MrcPathSet::GetState(uint32_t ev) const
{
    return m_entries.at(ev).state;
}

bool
MrcPathSet::Contains(uint32_t ev) const
{
    return m_entries.count(ev) > 0;
}

uint32_t
MrcPathSet::GetPlane(uint32_t ev) const
{
    return m_entries.at(ev).plane;
}

const std::vector<uint32_t>&
MrcPathSet::GetActive(uint32_t plane) const
{
    return m_planes.at(plane).active;
}

const std::vector<uint32_t>&
MrcPathSet::GetBackups(uint32_t plane) const
{
    return m_planes.at(plane).backups;
}

} // namespace ns3
