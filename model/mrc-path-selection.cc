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
    size_t evs = 0;
    for (const std::vector<uint32_t>& plane : evsPerPlane)
    {
        evs += plane.size();
    }
    m_resolved.reserve(evs); // the EVs it can use: no rehash while packets are sent
    m_dataCursor.assign(evsPerPlane.size(), 0);
    m_pathSet->SetChangeCallback(std::move(stateChange));
}

void
MrcPathSelection::SetResolver(MrcPathResolver resolver)
{
    m_resolver = std::move(resolver);
}

const MrcPathSelection::Resolved&
MrcPathSelection::Resolve(uint32_t ev)
{
    auto it = m_resolved.find(ev);
    if (it == m_resolved.end())
    {
        Resolved r{m_resolver(ev), uint64_t(1) << 63 | ev};
        if (r.wire.sourceRouted)
        {
            uint64_t key = 0;
            for (const Ipv6Address& a : r.wire.carriers)
            {
                uint8_t bytes[16];
                a.GetBytes(bytes);
                for (uint8_t b : bytes)
                {
                    key = key * 1099511628211ULL ^ b; // FNV-1 style
                }
            }
            r.route = key & ~(uint64_t(1) << 63);
        }
        it = m_resolved.emplace(ev, std::move(r)).first;
    }
    return it->second;
}

const MrcWirePath&
MrcPathSelection::GetWirePath(uint32_t ev)
{
    return Resolve(ev).wire;
}

uint64_t
MrcPathSelection::GetRouteKey(uint32_t ev)
{
    return Resolve(ev).route;
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
