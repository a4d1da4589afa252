/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-fabric-shortest-paths.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <stdexcept>

namespace ns3
{

namespace
{
/// Per-plane switch graph: vertices are switches, edges are links (parallel links repeated).
using SwitchGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
} // namespace

MrcFabricShortestPaths::MrcFabricShortestPaths(const MrcFabricTopology& topo, uint32_t plane)
{
    const MrcClosSpec& spec = topo.GetSpec();
    std::vector<Ptr<Node>> nodes;
    std::map<uint32_t, uint32_t> vertexOf; // node id -> vertex
    for (uint32_t t = 0; t < spec.GetTiers(); ++t)
    {
        const NodeContainer& c = topo.GetSwitches(MrcSwitchTier(t), plane);
        for (auto it = c.Begin(); it != c.End(); ++it)
        {
            vertexOf[(*it)->GetId()] = nodes.size();
            nodes.push_back(*it);
        }
    }
    SwitchGraph graph(nodes.size());
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> ports(nodes.size()); // (nbr, if)
    for (const MrcFabricLink& link : topo.GetLinks())
    {
        if (link.plane != plane || link.tier == MrcLinkTier::HOST_T0)
        {
            continue;
        }
        const uint32_t a = vertexOf.at(link.lower->GetId());
        const uint32_t b = vertexOf.at(link.upper->GetId());
        boost::add_edge(a, b, graph);
        ports[a].emplace_back(b, link.lowerInterface);
        ports[b].emplace_back(a, link.upperInterface);
    }
    const NodeContainer& t0s = topo.GetSwitches(MrcSwitchTier::T0, plane);
    for (const Ptr<Node>& n : nodes)
    {
        m_nextHops[n->GetId()].resize(t0s.GetN());
    }
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
            std::vector<uint32_t>& hops = m_nextHops[nodes[v]->GetId()][d];
            for (const auto& [neighbour, interface] : ports[v])
            {
                if (dist[neighbour] + 1 == dist[v] && (dist[neighbour] > 0 || neighbour == root))
                {
                    hops.push_back(interface);
                }
            }
        }
    }
}

const std::vector<uint32_t>&
MrcFabricShortestPaths::GetNextHops(Ptr<const Node> node, uint32_t t0) const
{
    auto it = m_nextHops.find(node->GetId());
    if (it == m_nextHops.end() || t0 >= it->second.size())
    {
        throw std::out_of_range("MrcFabricShortestPaths: node is not a switch of this plane, or T0 "
                                "index out of range");
    }
    return it->second[t0];
}

} // namespace ns3
