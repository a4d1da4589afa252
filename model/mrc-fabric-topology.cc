/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-fabric-topology.h"

#include "mrc-fabric-address-plan.h"

#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

/**
 * \param what parameter name
 * \param value its value
 * \param bound exclusive upper bound
 * \throws std::out_of_range unless value < bound
 */
void
CheckIndex(const char* what, uint32_t value, uint32_t bound)
{
    if (value >= bound)
    {
        throw std::out_of_range(std::string("MrcFabricTopology: ") + what
                                + " (=" + std::to_string(value) + ") must be in 0.."
                                + (bound == 0 ? std::string("(none)") : std::to_string(bound - 1)));
    }
}

} // namespace

MrcFabricTopology::MrcFabricTopology(const MrcClosSpec& spec)
    : m_spec(spec)
    , m_switches(3, std::vector<NodeContainer>(spec.planes))
{
}

const MrcClosSpec&
MrcFabricTopology::GetSpec() const
{
    return m_spec;
}

const NodeContainer&
MrcFabricTopology::GetHosts() const
{
    return m_hosts;
}

Ptr<Node>
MrcFabricTopology::GetHost(uint32_t host) const
{
    CheckIndex("host", host, m_hosts.GetN());
    return m_hosts.Get(host);
}

uint32_t
MrcFabricTopology::GetHostCount() const
{
    return m_hosts.GetN();
}

Ptr<Node>
MrcFabricTopology::GetSwitch(MrcSwitchTier tier, uint32_t plane, uint32_t index) const
{
    const NodeContainer& c = GetSwitches(tier, plane);
    CheckIndex("switch index", index, c.GetN());
    return c.Get(index);
}

const NodeContainer&
MrcFabricTopology::GetSwitches(MrcSwitchTier tier, uint32_t plane) const
{
    CheckIndex("tier", uint32_t(tier), m_spec.GetTiers());
    CheckIndex("plane", plane, m_spec.planes);
    return m_switches[uint32_t(tier)][plane];
}

NodeContainer
MrcFabricTopology::GetAllSwitches() const
{
    NodeContainer all;
    for (const auto& tier : m_switches)
    {
        for (const auto& plane : tier)
        {
            all.Add(plane);
        }
    }
    return all;
}

std::optional<MrcFabricTopology::SwitchPosition>
MrcFabricTopology::GetSwitchPosition(Ptr<const Node> node) const
{
    auto it = m_switchByNodeId.find(node->GetId());
    if (it == m_switchByNodeId.end())
    {
        return std::nullopt;
    }
    return it->second;
}

std::optional<uint32_t>
MrcFabricTopology::GetHostIndex(Ptr<const Node> node) const
{
    auto it = m_hostByNodeId.find(node->GetId());
    if (it == m_hostByNodeId.end())
    {
        return std::nullopt;
    }
    return it->second;
}

Ptr<NetDevice>
MrcFabricTopology::GetHostDevice(uint32_t host, uint32_t plane) const
{
    CheckIndex("host", host, m_hostLinks.size());
    CheckIndex("plane", plane, m_hostLinks[host].size());
    return m_links[m_hostLinks[host][plane]].lowerDevice;
}

uint32_t
MrcFabricTopology::GetHostInterface(uint32_t host, uint32_t plane) const
{
    CheckIndex("host", host, m_hostLinks.size());
    CheckIndex("plane", plane, m_hostLinks[host].size());
    return m_links[m_hostLinks[host][plane]].lowerInterface;
}

uint32_t
MrcFabricTopology::GetHostT0(uint32_t host) const
{
    CheckIndex("host", host, m_hosts.GetN());
    return host / m_spec.hostsPerT0;
}

Ipv6Address
MrcFabricTopology::GetHostAddress(uint32_t host, uint32_t plane) const
{
    CheckIndex("host", host, m_hosts.GetN());
    CheckIndex("plane", plane, m_spec.planes);
    return MrcFabricAddressPlan::HostAddress(plane, GetHostT0(host), host % m_spec.hostsPerT0);
}

uint32_t
MrcFabricTopology::GetSwitchHops(uint32_t src, uint32_t dst) const
{
    const uint32_t t0s = GetHostT0(src);
    const uint32_t t0d = GetHostT0(dst);
    if (t0s == t0d)
    {
        return 1;
    }
    return t0s / m_spec.t0PerPod == t0d / m_spec.t0PerPod ? 3 : 5;
}

std::optional<uint32_t>
MrcFabricTopology::FindHostByAddress(Ipv6Address address) const
{
    auto loc = MrcFabricAddressPlan::ParseHostAddress(address);
    if (!loc || loc->plane >= m_spec.planes || loc->t0 >= m_spec.GetT0Count()
        || loc->port >= m_spec.hostsPerT0)
    {
        return std::nullopt;
    }
    return loc->t0 * m_spec.hostsPerT0 + loc->port;
}

const std::vector<MrcFabricLink>&
MrcFabricTopology::GetLinks() const
{
    return m_links;
}

std::vector<MrcFabricLink>
MrcFabricTopology::GetLinksBetween(Ptr<const Node> a, Ptr<const Node> b) const
{
    std::vector<MrcFabricLink> out;
    for (const MrcFabricLink& l : GetLinksOf(a))
    {
        if (l.lower == b || l.upper == b)
        {
            out.push_back(l);
        }
    }
    return out;
}

std::vector<MrcFabricLink>
MrcFabricTopology::GetLinksOf(Ptr<const Node> node) const
{
    std::vector<MrcFabricLink> out;
    auto it = m_linksByNodeId.find(node->GetId());
    if (it != m_linksByNodeId.end())
    {
        for (uint32_t id : it->second)
        {
            out.push_back(m_links[id]);
        }
    }
    return out;
}

void
MrcFabricTopology::AddHost(Ptr<Node> node)
{
    m_hostByNodeId[node->GetId()] = m_hosts.GetN();
    m_hosts.Add(node);
    m_hostLinks.emplace_back();
}

void
MrcFabricTopology::AddSwitch(MrcSwitchTier tier, uint32_t plane, Ptr<Node> node)
{
    NodeContainer& c = m_switches.at(uint32_t(tier)).at(plane);
    m_switchByNodeId[node->GetId()] = SwitchPosition{tier, plane, c.GetN()};
    c.Add(node);
}

const MrcFabricLink&
MrcFabricTopology::AddLink(MrcFabricLink link)
{
    link.id = m_links.size();
    m_links.push_back(link);
    m_linksByNodeId[link.lower->GetId()].push_back(link.id);
    m_linksByNodeId[link.upper->GetId()].push_back(link.id);
    if (link.tier == MrcLinkTier::HOST_T0)
    {
        auto host = GetHostIndex(link.lower);
        if (host)
        {
            m_hostLinks[*host].push_back(link.id);
        }
    }
    return m_links.back();
}

} // namespace ns3
