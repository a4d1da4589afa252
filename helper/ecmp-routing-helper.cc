/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ecmp-routing-helper.h"

#include "fabric-address-plan.h"

#include "ns3/channel.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EcmpRoutingHelper");

namespace
{

/// Per-plane switch graph: vertices are switches, edges are links (parallel links repeated).
using SwitchGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;

/**
 * A well-mixed 32-bit seed for one switch (SplitMix64 finaliser).
 * \param base the base seed
 * \param nodeId the switch's node id
 * \return the seed
 */
uint32_t
MixSeed(uint32_t base, uint32_t nodeId)
{
    uint64_t z = (uint64_t(base) << 32 | nodeId) + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<uint32_t>(z ^ (z >> 31));
}

} // namespace

void
EcmpRoutingHelper::SetBaseSeed(uint32_t seed)
{
    m_baseSeed = seed;
}

void
EcmpRoutingHelper::SetPerSwitchSeeds(bool perSwitch)
{
    m_perSwitchSeeds = perSwitch;
}

Ptr<Ipv6EcmpRouting>
EcmpRoutingHelper::GetRouting(Ptr<Node> node)
{
    Ptr<Ipv6> ipv6 = node->GetObject<Ipv6>();
    return ipv6 ? DynamicCast<Ipv6EcmpRouting>(ipv6->GetRoutingProtocol()) : nullptr;
}

void
EcmpRoutingHelper::Install(const FabricTopology& topo) const
{
    const ClosSpec& spec = topo.GetSpec();
    for (uint32_t p = 0; p < spec.planes; ++p)
    {
        // Vertices: this plane's switches; remember each one's node and routing object.
        std::vector<Ptr<Node>> nodes;
        std::map<uint32_t, uint32_t> vertexOf; // node id -> vertex
        for (uint32_t t = 0; t < spec.GetTiers(); ++t)
        {
            const NodeContainer& c = topo.GetSwitches(SwitchTier(t), p);
            for (auto it = c.Begin(); it != c.End(); ++it)
            {
                vertexOf[(*it)->GetId()] = nodes.size();
                nodes.push_back(*it);
            }
        }
        std::vector<Ptr<Ipv6EcmpRouting>> routing(nodes.size());
        for (uint32_t v = 0; v < nodes.size(); ++v)
        {
            routing[v] = CreateObject<Ipv6EcmpRouting>();
            routing[v]->SetHashSeed(m_perSwitchSeeds ? MixSeed(m_baseSeed, nodes[v]->GetId())
                                                     : m_baseSeed);
            nodes[v]->GetObject<Ipv6>()->SetRoutingProtocol(routing[v]);
        }

        // Edges: switch-to-switch links; per vertex, (neighbour vertex, outgoing interface).
        SwitchGraph graph(nodes.size());
        std::vector<std::vector<std::pair<uint32_t, uint32_t>>> ports(nodes.size());
        for (const FabricLink& link : topo.GetLinks())
        {
            if (link.plane != p)
            {
                continue;
            }
            if (link.tier == LinkTier::HOST_T0)
            {
                // The T0 reaches the host's /64 out of this port.
                const auto host = topo.GetHostIndex(link.lower);
                const uint32_t t0 = topo.GetHostT0(*host);
                routing[vertexOf.at(link.upper->GetId())]->AddRoute(
                    FabricAddressPlan::HostLinkPrefix(p, t0, *host % spec.hostsPerT0),
                    FabricAddressPlan::kHostLinkPrefixLength,
                    {link.upperInterface});
                continue;
            }
            const uint32_t a = vertexOf.at(link.lower->GetId());
            const uint32_t b = vertexOf.at(link.upper->GetId());
            boost::add_edge(a, b, graph);
            ports[a].emplace_back(b, link.lowerInterface);
            ports[b].emplace_back(a, link.upperInterface);
        }

        // One BFS per destination T0: next hops are the ports towards a closer neighbour.
        const NodeContainer& t0s = topo.GetSwitches(SwitchTier::T0, p);
        for (uint32_t d = 0; d < t0s.GetN(); ++d)
        {
            const uint32_t root = vertexOf.at(t0s.Get(d)->GetId());
            std::vector<uint32_t> dist(nodes.size(), 0);
            boost::breadth_first_search(
                graph,
                boost::vertex(root, graph),
                boost::visitor(boost::make_bfs_visitor(
                    boost::record_distances(dist.data(), boost::on_tree_edge()))));
            for (uint32_t v = 0; v < nodes.size(); ++v)
            {
                if (v == root)
                {
                    continue;
                }
                std::vector<uint32_t> nextHops;
                for (const auto& [neighbour, interface] : ports[v])
                {
                    if (dist[neighbour] + 1 == dist[v]
                        && (dist[neighbour] > 0 || neighbour == root))
                    {
                        nextHops.push_back(interface);
                    }
                }
                if (!nextHops.empty())
                {
                    routing[v]->AddRoute(FabricAddressPlan::T0Prefix(p, d),
                                         FabricAddressPlan::kT0PrefixLength,
                                         nextHops);
                }
            }
        }
        NS_LOG_INFO("plane " << p << ": ECMP tables installed on " << nodes.size() << " switches");
    }
}

std::vector<Ptr<Node>>
EcmpRoutingHelper::TracePath(const FabricTopology& topo,
                             uint32_t srcHost,
                             uint32_t plane,
                             const EcmpFlowKey& key)
{
    std::vector<Ptr<Node>> path{topo.GetHost(srcHost)};
    Ptr<NetDevice> out = topo.GetHostDevice(srcHost, plane);
    // A path is at most 2 * tiers switches long; anything longer is a loop.
    for (uint32_t hops = 0; hops <= 2 * topo.GetSpec().GetTiers(); ++hops)
    {
        Ptr<Channel> channel = out->GetChannel();
        Ptr<NetDevice> in =
            channel->GetDevice(0) == out ? channel->GetDevice(1) : channel->GetDevice(0);
        Ptr<Node> node = in->GetNode();
        path.push_back(node);
        if (topo.GetHostIndex(node))
        {
            return path;
        }
        Ptr<Ipv6EcmpRouting> routing = GetRouting(node);
        const int32_t interface = routing ? routing->SelectNextHop(key) : -1;
        if (interface < 0)
        {
            return {};
        }
        out = node->GetObject<Ipv6>()->GetNetDevice(interface);
    }
    return {};
}

} // namespace ns3
