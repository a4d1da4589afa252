/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-fabric-failure-state.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mrc-fabric-net-device.h"
#include "ns3/mrc-l4-protocol.h"
#include "ns3/names.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcFabricFailureState");

MrcFabricFailureState::MrcFabricFailureState(Ptr<MrcFabricTopology> topo)
    : m_topo(topo)
{
    for (const MrcFabricLink& l : topo->GetLinks())
    {
        for (Ptr<NetDevice> d : {l.lowerDevice, l.upperDevice})
        {
            Ptr<MrcFabricNetDevice> device = DynamicCast<MrcFabricNetDevice>(d);
            if (!device)
            {
                throw std::invalid_argument("MrcFailureHelper: the devices of link "
                                            + std::to_string(l.id)
                                            + " are not FabricNetDevices (build the fabric with "
                                              "MrcClosTopologyHelper)");
            }
            m_devices.push_back(device);
        }
    }
    m_down.resize(topo->GetLinks().size());
    m_blackhole.resize(m_devices.size());
}

Ptr<MrcFabricTopology>
MrcFabricFailureState::GetTopology() const
{
    return m_topo;
}

Ptr<MrcFabricNetDevice>
MrcFabricFailureState::GetDevice(uint32_t link, LinkEnd end) const
{
    return m_devices.at(2 * link + uint32_t(end));
}

std::vector<MrcFabricFailureState::LinkEnd>
MrcFabricFailureState::GetEnds(MrcLinkDirection direction, bool receiving)
{
    switch (direction)
    {
        case MrcLinkDirection::UP: // lower -> upper: the upper end receives
            return {receiving ? LinkEnd::UPPER : LinkEnd::LOWER};
        case MrcLinkDirection::DOWN:
            return {receiving ? LinkEnd::LOWER : LinkEnd::UPPER};
        case MrcLinkDirection::BOTH:
            break;
    }
    return {LinkEnd::LOWER, LinkEnd::UPPER};
}

void
MrcFabricFailureState::SetDown(uint32_t link, DownCause cause, bool down)
{
    const bool wasDown = m_down.at(link).any();
    m_down[link].set(uint32_t(cause), down);
    const bool up = m_down[link].none();
    if (up != wasDown)
    {
        return;
    }
    NS_LOG_INFO(DescribeLink(link) << (up ? " up" : " down"));
    GetDevice(link, LinkEnd::LOWER)->SetLinkUp(up);
    GetDevice(link, LinkEnd::UPPER)->SetLinkUp(up);
    const MrcFabricLink& l = m_topo->GetLinks()[link];
    if (l.tier == MrcLinkTier::HOST_T0)
    {
        // The NIC sees its own carrier: MRC's port state follows it.
        Ptr<MrcL4Protocol> l4 = l.lower->GetObject<MrcL4Protocol>();
        if (l4 && l.plane < l4->GetPortCount())
        {
            l4->SetPortUp(l.plane, up);
        }
    }
}

bool
MrcFabricFailureState::IsDown(uint32_t link) const
{
    return m_down.at(link).any();
}

void
MrcFabricFailureState::SetBlackhole(uint32_t link, LinkEnd end, BlackholeCause cause, bool on)
{
    std::bitset<2>& causes = m_blackhole.at(2 * link + uint32_t(end));
    const bool was = causes.any();
    causes.set(uint32_t(cause), on);
    if (causes.any() != was)
    {
        GetDevice(link, end)->SetReceiveBlackhole(!was);
    }
}

void
MrcFabricFailureState::SetLossProbability(uint32_t link, LinkEnd end, double probability)
{
    Ptr<MrcFabricNetDevice> device = GetDevice(link, end);
    if (device->GetFaultModel()->GetLossProbability() != probability)
    {
        device->SetReceiveLossProbability(probability);
    }
}

void
MrcFabricFailureState::DegradeRate(uint32_t link, LinkEnd end, DataRate rate)
{
    Ptr<MrcFabricNetDevice> device = GetDevice(link, end);
    DataRateValue current;
    device->GetAttribute("DataRate", current);
    m_originalRate.emplace(2 * link + uint32_t(end), current.Get()); // keeps the first
    device->SetDataRate(rate);
}

std::optional<DataRate>
MrcFabricFailureState::RestoreRate(uint32_t link, LinkEnd end)
{
    auto it = m_originalRate.find(2 * link + uint32_t(end));
    if (it == m_originalRate.end())
    {
        return std::nullopt;
    }
    const DataRate rate = it->second;
    m_originalRate.erase(it);
    GetDevice(link, end)->SetDataRate(rate);
    return rate;
}

uint32_t
MrcFabricFailureState::FindLink(const std::string& a,
                                const std::string& b,
                                std::optional<uint32_t> index) const
{
    auto node = [this](const std::string& name) {
        Ptr<Node> n = Names::Find<Node>(name);
        if (!n)
        {
            throw std::invalid_argument("no node named '" + name
                                        + "' (fabric nodes are named host-<i> and "
                                          "p<plane>-t<tier>-<index>)");
        }
        if (!m_topo->GetSwitchPosition(n) && !m_topo->GetHostIndex(n))
        {
            throw std::invalid_argument("node '" + name + "' is not part of this fabric");
        }
        return n;
    };
    Ptr<Node> na = node(a); // a first: the message names the first unknown node
    Ptr<Node> nb = node(b);
    const std::vector<MrcFabricLink> links = m_topo->GetLinksBetween(na, nb);
    const std::string between = "'" + a + "' and '" + b + "'";
    if (links.empty())
    {
        throw std::invalid_argument("no link between " + between);
    }
    const std::string range = "0.." + std::to_string(links.size() - 1);
    if (!index && links.size() > 1)
    {
        throw std::invalid_argument(between + " are joined by " + std::to_string(links.size())
                                    + " parallel links: give an index in " + range);
    }
    if (index.value_or(0) >= links.size())
    {
        throw std::invalid_argument("index (=" + std::to_string(index.value_or(0)) + ") must be in "
                                    + range + " (the links between " + between + ")");
    }
    return links[index.value_or(0)].id;
}

std::string
MrcFabricFailureState::DescribeLink(uint32_t link) const
{
    const std::vector<MrcFabricLink>& links = m_topo->GetLinks();
    if (link >= links.size())
    {
        throw std::invalid_argument("link id (=" + std::to_string(link) + ") must be in 0.."
                                    + std::to_string(links.size() - 1));
    }
    const MrcFabricLink& l = links[link];
    std::string s = "link " + Names::FindName(l.lower) + " " + Names::FindName(l.upper);
    const std::vector<MrcFabricLink> parallel = m_topo->GetLinksBetween(l.lower, l.upper);
    for (uint32_t i = 0; parallel.size() > 1 && i < parallel.size(); ++i)
    {
        if (parallel[i].id == link)
        {
            s += " index " + std::to_string(i);
        }
    }
    return s;
}

uint32_t
MrcFabricFailureState::GetHostLink(uint32_t host, uint32_t plane) const
{
    Ptr<NetDevice> device = m_topo->GetHostDevice(host, plane);
    for (const MrcFabricLink& l : m_topo->GetLinksOf(m_topo->GetHost(host)))
    {
        if (l.lowerDevice == device)
        {
            return l.id;
        }
    }
    NS_ABORT_MSG("the host's link is missing from the fabric");
    return 0;
}

uint64_t
MrcFabricFailureState::GetLostPackets(MrcFabricLossCause cause) const
{
    uint64_t n = 0;
    for (const Ptr<MrcFabricNetDevice>& d : m_devices)
    {
        n += d->GetLostPackets(cause);
    }
    return n;
}

uint64_t
MrcFabricFailureState::GetLinkLostPackets(uint32_t link, MrcFabricLossCause cause) const
{
    return GetDevice(link, LinkEnd::LOWER)->GetLostPackets(cause)
           + GetDevice(link, LinkEnd::UPPER)->GetLostPackets(cause);
}

int64_t
MrcFabricFailureState::AssignStreams(int64_t stream)
{
    for (size_t d = 0; d < m_devices.size(); ++d)
    {
        m_devices[d]->AssignStreams(stream + static_cast<int64_t>(d));
    }
    return static_cast<int64_t>(m_devices.size());
}

} // namespace ns3
