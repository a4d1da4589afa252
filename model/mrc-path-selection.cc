/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-path-selection.h"

#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcPathSelection);

TypeId
MrcPathSelection::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcPathSelection").SetParent<Object>().SetGroupName("Mrc");
    return tid;
}

MrcPathSelection::MrcPathSelection() = default;

MrcPathSelection::~MrcPathSelection() = default;

void
MrcPathSelection::DoDispose()
{
    Stop();
    m_resolver = nullptr;
    Object::DoDispose();
}

void
MrcPathSelection::MakePathSet(const std::vector<std::vector<uint32_t>>& evsPerPlane,
                              uint32_t activePerPlane,
                              MrcPathSet::ChangeCallback stateChange)
{
    m_pathSet = std::make_unique<MrcPathSet>(evsPerPlane, activePerPlane);
    m_dataCursor.assign(evsPerPlane.size(), 0);
    m_pathSet->SetChangeCallback(std::move(stateChange));
}

void
MrcPathSelection::SetResolver(MrcPathResolver resolver)
{
    m_resolver = std::move(resolver);
}

const MrcWirePath&
MrcPathSelection::GetWirePath(uint32_t ev)
{
    auto it = m_wirePaths.find(ev);
    if (it == m_wirePaths.end())
    {
        it = m_wirePaths.emplace(ev, m_resolver(ev)).first;
    }
    return it->second;
}

std::optional<uint32_t>
MrcPathSelection::NextData(uint32_t plane)
{
    const std::optional<uint32_t> ev = m_pathSet->NextInTurn(plane, m_dataCursor.at(plane));
    m_lastDataPlane = ev ? plane : m_lastDataPlane;
    return ev;
}

void
MrcPathSelection::OrderPlanes(std::vector<uint32_t>& order)
{
    const uint32_t planes = m_pathSet->GetPlaneCount();
    order.resize(planes);
    for (uint32_t i = 0; i < planes; ++i)
    {
        order[i] = (m_lastDataPlane + 1 + i) % planes;
    }
}

std::optional<uint32_t>
MrcPathSelection::NextControl(uint32_t plane)
{
    return m_pathSet->NextControl(plane);
}

void
MrcPathSelection::OnAckFeedback(uint32_t ev, bool ecn, bool persistent)
{
    if (ecn)
    {
        OnEcnEcho(ev, persistent);
    }
}

void
MrcPathSelection::OnEcnEcho(uint32_t ev, bool persistent)
{
}

void
MrcPathSelection::OnTrimmed(uint32_t ev)
{
}

bool
MrcPathSelection::IsRetiredWith(uint32_t lost, uint32_t other) const
{
    return lost == other;
}

void
MrcPathSelection::OnPathLoss(uint32_t /* ev */)
{
}

uint64_t
MrcPathSelection::GetPathId(uint32_t ev) const
{
    return ev;
}

void
MrcPathSelection::OnSilentLoss(uint32_t ev)
{
}

void
MrcPathSelection::OnDataArrival()
{
}

void
MrcPathSelection::OnProbeResponse(const MrcProbeHeader& response)
{
}

void
MrcPathSelection::Stop()
{
}

void
MrcPathSelection::SetPlaneEnabled(uint32_t plane, bool enabled)
{
    m_pathSet->SetPlaneEnabled(plane, enabled);
}

void
MrcPathSelection::Deny(uint32_t ev)
{
    m_pathSet->Deny(ev);
}

const MrcPathSet&
MrcPathSelection::GetPathSet() const
{
    if (!m_pathSet)
    {
        throw std::logic_error("MrcPathSelection: the queue pair is not connected");
    }
    return *m_pathSet;
}

bool
MrcPathSelection::UsesPlane(uint32_t plane) const
{
    return plane < m_pathSet->GetPlaneCount()
           && !(m_pathSet->GetActive(plane).empty() && m_pathSet->GetBackups(plane).empty());
}

} // namespace ns3
