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
                       uint32_t activePerPlane)
    : m_planes(evsPerPlane.size())
    , m_target(activePerPlane)
{
    if (activePerPlane == 0)
    {
        throw std::invalid_argument("MrcPathSet: active EVs per plane must be >= 1");
    }
    size_t count = 0;
    for (const std::vector<uint32_t>& evs : evsPerPlane)
    {
        count += evs.size();
    }
    m_entries.reserve(count);
    for (uint32_t p = 0; p < evsPerPlane.size(); ++p)
    {
        for (uint32_t ev : evsPerPlane[p])
        {
            Entry e;
            e.plane = p;
            if (!m_entries.emplace(ev, e).second)
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

uint32_t
MrcPathSet::GetPlaneCount() const
{
    return m_planes.size();
}

uint32_t
MrcPathSet::GetActiveTarget() const
{
    return m_target;
}

void
MrcPathSet::SetState(uint32_t ev, MrcEvState to, const std::string& cause)
{
    Entry& e = m_entries.at(ev);
    const MrcEvState from = e.state;
    if (from == to)
    {
        return;
    }
    e.state = to;
    ++m_version;
    if (m_onChange)
    {
        m_onChange(ev, from, to, cause);
    }
}

std::optional<size_t>
MrcPathSet::RemoveActive(uint32_t ev)
{
    Plane& pl = m_planes.at(m_entries.at(ev).plane);
    auto it = std::find(pl.active.begin(), pl.active.end(), ev);
    if (it == pl.active.end())
    {
        return std::nullopt;
    }
    const size_t index = it - pl.active.begin();
    pl.active.erase(it);
    ++m_version;
    return index;
}

void
MrcPathSet::AddActive(uint32_t ev)
{
    m_planes.at(m_entries.at(ev).plane).active.push_back(ev);
    ++m_version;
}

void
MrcPathSet::AddBackup(uint32_t ev, bool front)
{
    std::vector<uint32_t>& backups = m_planes.at(m_entries.at(ev).plane).backups;
    backups.insert(front ? backups.begin() : backups.end(), ev);
}

uint32_t
MrcPathSet::TakeBackup(uint32_t plane, size_t index)
{
    std::vector<uint32_t>& backups = m_planes.at(plane).backups;
    const uint32_t ev = backups.at(index);
    backups.erase(backups.begin() + index);
    return ev;
}

std::optional<uint32_t>
MrcPathSet::NextInTurn(uint32_t plane, size_t& cursor) const
{
    const Plane& pl = m_planes.at(plane);
    if (!pl.enabled)
    {
        return std::nullopt;
    }
    std::optional<uint32_t> fallback;
    for (size_t tries = 0; tries < pl.active.size(); ++tries)
    {
        const uint32_t ev = pl.active[cursor++ % pl.active.size()];
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
    return fallback;
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
    // rotation (nor end SKIPs).
    if (const std::optional<uint32_t> ev = NextInTurn(plane, pl.activeControlCursor))
    {
        return ev;
    }
    const std::vector<uint32_t> bad = GetEvsInState(plane, MrcEvState::ASSUMED_BAD);
    if (bad.empty())
    {
        return std::nullopt;
    }
    return bad[pl.controlCursor++ % bad.size()];
}

std::optional<size_t>
MrcPathSet::Deny(uint32_t ev)
{
    auto it = m_entries.find(ev);
    if (it == m_entries.end() || it->second.state == MrcEvState::DENIED)
    {
        return std::nullopt;
    }
    Plane& pl = m_planes[it->second.plane];
    const std::optional<size_t> index = RemoveActive(ev);
    pl.backups.erase(std::remove(pl.backups.begin(), pl.backups.end(), ev), pl.backups.end());
    SetState(ev, MrcEvState::DENIED, "denylist");
    if (index && !pl.backups.empty())
    {
        pl.active.push_back(pl.backups.front());
        pl.backups.erase(pl.backups.begin());
        ++m_version;
    }
    return index;
}

void
MrcPathSet::SetPlaneEnabled(uint32_t plane, bool enabled)
{
    m_planes.at(plane).enabled = enabled;
    ++m_version;
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

std::vector<uint32_t>
MrcPathSet::GetEvsInState(uint32_t plane, MrcEvState state) const
{
    std::vector<uint32_t> out;
    for (const auto& [ev, e] : m_entries)
    {
        if (e.plane == plane && e.state == state)
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

uint64_t
MrcPathSet::GetVersion() const
{
    return m_version;
}

const std::vector<uint32_t>&
MrcPathSet::GetBackups(uint32_t plane) const
{
    return m_planes.at(plane).backups;
}

} // namespace ns3
