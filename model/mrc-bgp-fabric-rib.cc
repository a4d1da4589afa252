/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-bgp-fabric-rib.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

MrcBgpFabricRib::MrcBgpFabricRib(Ptr<MrcFabricTopology> topo)
{
    const MrcClosSpec& spec = topo->GetSpec();
    for (uint32_t p = 0; p < spec.planes; ++p)
    {
        m_planes.emplace_back(spec.GetT0Count());
        m_sessionLink.emplace_back();
        for (uint32_t t = 0; t < spec.GetTiers(); ++t)
        {
            const NodeContainer& c = topo->GetSwitches(MrcSwitchTier(t), p);
            for (uint32_t i = 0; i < c.GetN(); ++i)
            {
                const auto origin = t == 0 ? std::optional<uint32_t>(i) : std::nullopt;
                const uint32_t asn = ComputeAsn(*topo, *topo->GetSwitchPosition(c.Get(i)));
                m_switchByNode[c.Get(i)->GetId()] = m_switches.size();
                m_switches.push_back(Switch{c.Get(i), p, m_planes[p].AddSpeaker(asn, origin)});
            }
        }
    }
    m_links.resize(topo->GetLinks().size());
    for (const MrcFabricLink& link : topo->GetLinks())
    {
        if (link.tier == MrcLinkTier::HOST_T0)
        {
            continue;
        }
        Link l;
        l.plane = link.plane;
        l.switches = {m_switchByNode.at(link.lower->GetId()),
                      m_switchByNode.at(link.upper->GetId())};
        l.interfaces = {link.lowerInterface, link.upperInterface};
        l.session = m_planes[l.plane].AddSession(m_switches[l.switches[0]].speaker,
                                                 m_switches[l.switches[1]].speaker);
        m_sessionLink[l.plane].push_back(link.id);
        m_linkByPort[{l.switches[0], l.interfaces[0]}] = link.id;
        m_linkByPort[{l.switches[1], l.interfaces[1]}] = link.id;
        m_links[link.id] = l;
    }
    for (MrcBgpPathVector& pv : m_planes)
    {
        pv.Converge();
    }
}

uint32_t
MrcBgpFabricRib::ComputeAsn(const MrcFabricTopology& topo,
                            const MrcFabricTopology::SwitchPosition& pos)
{
    const uint32_t base = 4200000000U + pos.plane * 4000000U;
    switch (pos.tier)
    {
        case MrcSwitchTier::T0:
            return base + pos.index;
        case MrcSwitchTier::T1:
            return base + 1000000U + pos.index / topo.GetSpec().t1PerPod;
        case MrcSwitchTier::T2:
            return base + 2000000U;
    }
    return base + 3000000U;
}

uint32_t
MrcBgpFabricRib::GetNSwitches() const
{
    return m_switches.size();
}

Ptr<Node>
MrcBgpFabricRib::GetNode(uint32_t sw) const
{
    return m_switches.at(sw).node;
}

uint32_t
MrcBgpFabricRib::GetPlane(uint32_t sw) const
{
    return m_switches.at(sw).plane;
}

std::optional<uint32_t>
MrcBgpFabricRib::FindSwitch(Ptr<const Node> node) const
{
    if (!node)
    {
        return std::nullopt;
    }
    auto it = m_switchByNode.find(node->GetId());
    return it == m_switchByNode.end() ? std::nullopt : std::optional<uint32_t>(it->second);
}

uint32_t
MrcBgpFabricRib::GetAsn(uint32_t sw) const
{
    const Switch& s = m_switches.at(sw);
    return m_planes[s.plane].GetAsn(s.speaker);
}

bool
MrcBgpFabricRib::HasSession(uint32_t linkId) const
{
    return linkId < m_links.size() && m_links[linkId].has_value();
}

const MrcBgpFabricRib::Link&
MrcBgpFabricRib::CheckedLink(uint32_t linkId) const
{
    if (!HasSession(linkId))
    {
        throw std::out_of_range("MrcBgpFabricRib: link (id " + std::to_string(linkId)
                                + ") is not a switch-to-switch link");
    }
    return *m_links[linkId];
}

uint32_t
MrcBgpFabricRib::GetSwitch(uint32_t linkId, uint32_t end) const
{
    return CheckedLink(linkId).switches.at(end);
}

std::optional<uint32_t>
MrcBgpFabricRib::FindLink(uint32_t sw, uint32_t interface) const
{
    auto it = m_linkByPort.find({sw, interface});
    return it == m_linkByPort.end() ? std::nullopt : std::optional<uint32_t>(it->second);
}

bool
MrcBgpFabricRib::IsSessionUp(uint32_t linkId) const
{
    const Link& l = CheckedLink(linkId);
    return m_planes[l.plane].IsSessionUp(l.session);
}

std::array<std::vector<MrcBgpPathVector::Decision>, 2>
MrcBgpFabricRib::SessionDown(uint32_t linkId)
{
    const Link& l = CheckedLink(linkId);
    return m_planes[l.plane].SessionDown(l.session);
}

void
MrcBgpFabricRib::SessionUp(uint32_t linkId)
{
    const Link& l = CheckedLink(linkId);
    m_planes[l.plane].SessionUp(l.session);
}

std::vector<MrcBgpPathVector::Decision>
MrcBgpFabricRib::Receive(uint32_t linkId, uint32_t toEnd, const MrcBgpPathVector::Update& update)
{
    const Link& l = CheckedLink(linkId);
    return m_planes[l.plane].Receive(l.session, toEnd, update);
}

MrcBgpPathVector::Update
MrcBgpFabricRib::GetAdvertisements(uint32_t sw, const std::vector<uint32_t>& t0s) const
{
    const Switch& s = m_switches.at(sw);
    return m_planes[s.plane].GetAdvertisements(s.speaker, t0s);
}

MrcBgpPathVector::Update
MrcBgpFabricRib::GetAllAdvertisements(uint32_t sw) const
{
    const Switch& s = m_switches.at(sw);
    return m_planes[s.plane].GetAllAdvertisements(s.speaker);
}

std::vector<std::pair<uint32_t, uint32_t>>
MrcBgpFabricRib::GetUpSessions(uint32_t sw) const
{
    const Switch& s = m_switches.at(sw);
    const MrcBgpPathVector& pv = m_planes[s.plane];
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (const auto& [session, end] : pv.GetSessions(s.speaker))
    {
        if (pv.IsSessionUp(session))
        {
            out.emplace_back(m_sessionLink[s.plane][session], end);
        }
    }
    return out;
}

std::vector<uint32_t>
MrcBgpFabricRib::GetNextHops(uint32_t sw, uint32_t t0) const
{
    const Switch& s = m_switches.at(sw);
    std::vector<uint32_t> out;
    for (uint32_t session : m_planes[s.plane].GetBestSessions(s.speaker, t0))
    {
        const Link& l = *m_links[m_sessionLink[s.plane][session]];
        out.push_back(l.switches[0] == sw ? l.interfaces[0] : l.interfaces[1]);
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace ns3
