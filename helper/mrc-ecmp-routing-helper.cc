/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ecmp-routing-helper.h"

#include "ns3/channel.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/mrc-fabric-address-plan.h"
#include "ns3/mrc-fabric-shortest-paths.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcEcmpRoutingHelper");

namespace
{

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
MrcEcmpRoutingHelper::SetBaseSeed(uint32_t seed)
{
    m_baseSeed = seed;
}

void
MrcEcmpRoutingHelper::SetPerSwitchSeeds(bool perSwitch)
{
    m_perSwitchSeeds = perSwitch;
}

Ptr<MrcIpv6EcmpRouting>
MrcEcmpRoutingHelper::GetRouting(Ptr<Node> node)
{
    Ptr<Ipv6> ipv6 = node->GetObject<Ipv6>();
    return ipv6 ? DynamicCast<MrcIpv6EcmpRouting>(ipv6->GetRoutingProtocol()) : nullptr;
}

void
MrcEcmpRoutingHelper::Install(const MrcFabricTopology& topo) const
{
    const MrcClosSpec& spec = topo.GetSpec();
    for (uint32_t p = 0; p < spec.planes; ++p)
    {
        const MrcFabricShortestPaths paths(topo, p);
        std::map<uint32_t, Ptr<MrcIpv6EcmpRouting>> routing; // node id -> protocol
        for (uint32_t t = 0; t < spec.GetTiers(); ++t)
        {
            const NodeContainer& c = topo.GetSwitches(MrcSwitchTier(t), p);
            for (auto it = c.Begin(); it != c.End(); ++it)
            {
                Ptr<MrcIpv6EcmpRouting> r = CreateObject<MrcIpv6EcmpRouting>();
                r->SetHashSeed(m_perSwitchSeeds ? MixSeed(m_baseSeed, (*it)->GetId()) : m_baseSeed);
                (*it)->GetObject<Ipv6>()->SetRoutingProtocol(r);
                // Every host behind each other T0: all shortest-path ports.
                for (uint32_t d = 0; d < spec.GetT0Count(); ++d)
                {
                    const std::vector<uint32_t>& hops = paths.GetNextHops(*it, d);
                    if (!hops.empty())
                    {
                        r->AddRoute(MrcFabricAddressPlan::T0Prefix(p, d),
                                    MrcFabricAddressPlan::kT0PrefixLength,
                                    hops);
                    }
                }
                routing[(*it)->GetId()] = r;
            }
        }
        // A T0 reaches each attached host's /64 out of its port.
        for (const MrcFabricLink& link : topo.GetLinks())
        {
            if (link.plane == p && link.tier == MrcLinkTier::HOST_T0)
            {
                const uint32_t host = *topo.GetHostIndex(link.lower);
                routing.at(link.upper->GetId())
                    ->AddRoute(MrcFabricAddressPlan::HostLinkPrefix(p,
                                                                    topo.GetHostT0(host),
                                                                    host % spec.hostsPerT0),
                               MrcFabricAddressPlan::kHostLinkPrefixLength,
                               {link.upperInterface});
            }
        }
        NS_LOG_INFO("plane " << p << ": ECMP tables installed on " << routing.size()
                             << " switches");
    }
}

std::vector<Ptr<Node>>
MrcEcmpRoutingHelper::TracePath(const MrcFabricTopology& topo,
                                uint32_t srcHost,
                                uint32_t plane,
                                const MrcEcmpFlowKey& key)
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
        Ptr<MrcIpv6EcmpRouting> routing = GetRouting(node);
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
