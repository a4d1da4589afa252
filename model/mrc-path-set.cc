/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-path-set.h"

#include <algorithm>
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
            if (!m_entries.emplace(ev, Entry{p, MrcEvState::GOOD, 0, 0}).second)
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
        if (e.state == MrcEvState::SKIP && pl.rotation >= e.skipRotation + m_skipRotations)
        {
            Change(ev, MrcEvState::GOOD, "rotation");
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
MrcPathSet::OnEcn(uint32_t ev)
{
    auto it = m_entries.find(ev);
    if (it != m_entries.end() && it->second.state == MrcEvState::GOOD)
    {
        it->second.skipRotation = m_planes[it->second.plane].rotation;
        Change(ev, MrcEvState::SKIP, "ecn");
    }
}

void
MrcPathSet::OnTrimmed(uint32_t ev)
{
    auto it = m_entries.find(ev);
    if (it != m_entries.end() && it->second.state == MrcEvState::GOOD)
    {
        it->second.skipRotation = m_planes[it->second.plane].rotation;
        Change(ev, MrcEvState::SKIP, "trimmed");
    }
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
    if (std::optional<uint32_t> ev = Next(plane))
    {
        return ev;
    }
    Plane& pl = m_planes.at(plane);
    if (!pl.enabled)
    {
        return std::nullopt;
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
MrcPathSet::OnSilentLoss(uint32_t ev)
{
    auto it = m_entries.find(ev);
    if (it == m_entries.end() || it->second.state == MrcEvState::ASSUMED_BAD
        || it->second.state == MrcEvState::DENIED)
    {
        return std::nullopt;
    }
    const bool wasActive = RemoveActive(ev);
    it->second.probeSuccesses = 0;
    Change(ev, MrcEvState::ASSUMED_BAD, "silent loss");
    Plane& pl = m_planes[it->second.plane];
    if (!wasActive || pl.backups.empty())
    {
        return std::nullopt;
    }
    // A backup of the same plane keeps the planes equally loaded.
    const uint32_t replacement = pl.backups.front();
    pl.backups.erase(pl.backups.begin());
    pl.active.push_back(replacement);
    return replacement;
}

void
MrcPathSet::OnProbeSuccess(uint32_t ev)
{
    auto it = m_entries.find(ev);
    if (it == m_entries.end() || it->second.state != MrcEvState::ASSUMED_BAD)
    {
        return;
    }
    if (++it->second.probeSuccesses < m_probeSuccesses)
    {
        return;
    }
    it->second.probeSuccesses = 0;
    Plane& pl = m_planes[it->second.plane];
    (pl.active.size() < m_target ? pl.active : pl.backups).push_back(ev);
    Change(ev, MrcEvState::GOOD, "probes");
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
