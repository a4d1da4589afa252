/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ipv6-ecmp-routing.h"

#include "ns3/ipv6-route.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/names.h"
#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcIpv6EcmpRouting");

NS_OBJECT_ENSURE_REGISTERED(MrcIpv6EcmpRouting);

TypeId
MrcIpv6EcmpRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcIpv6EcmpRouting")
            .SetParent<MrcIpv6FabricRouting>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcIpv6EcmpRouting>()
            .AddAttribute("HashSeed",
                          "Seed of this switch's ECMP hash. Switches of different tiers need "
                          "different seeds, or their choices correlate (polarisation).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcIpv6EcmpRouting::SetHashSeed,
                                               &MrcIpv6EcmpRouting::GetHashSeed),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Forward",
                            "A packet is forwarded: packet, IPv6 header, outgoing interface, "
                            "flow hash.",
                            MakeTraceSourceAccessor(&MrcIpv6EcmpRouting::m_forwardTrace),
                            "ns3::MrcIpv6EcmpRouting::ForwardTracedCallback")
            .AddTraceSource("Drop",
                            "A packet is not forwarded: packet, IPv6 header, reason.",
                            MakeTraceSourceAccessor(&MrcIpv6EcmpRouting::m_dropTrace),
                            "ns3::MrcIpv6EcmpRouting::DropTracedCallback")
            .AddTraceSource("NextHopChange",
                            "A next hop is withdrawn or restored: interface, enabled, number "
                            "of routes whose ECMP group changed.",
                            MakeTraceSourceAccessor(&MrcIpv6EcmpRouting::m_nextHopChangeTrace),
                            "ns3::MrcIpv6EcmpRouting::NextHopChangeTracedCallback")
            .AddTraceSource("RouteChange",
                            "One route's next hops are replaced (SetRouteNextHops): prefix, "
                            "prefix length, number of next hops it uses now.",
                            MakeTraceSourceAccessor(&MrcIpv6EcmpRouting::m_routeChangeTrace),
                            "ns3::MrcIpv6EcmpRouting::RouteChangeTracedCallback");
    return tid;
}

MrcIpv6EcmpRouting::MrcIpv6EcmpRouting()
{
    NS_LOG_FUNCTION(this);
}

MrcIpv6EcmpRouting::~MrcIpv6EcmpRouting() = default;

void
MrcIpv6EcmpRouting::AddRoute(Ipv6Address network,
                             uint8_t prefixLength,
                             const std::vector<uint32_t>& interfaces)
{
    NS_LOG_FUNCTION(this << network << unsigned(prefixLength));
    m_table.AddRoute(network, prefixLength, interfaces);
}

void
MrcIpv6EcmpRouting::WithdrawNextHop(uint32_t interface)
{
    const uint32_t changed = m_table.SetNextHopEnabled(interface, false);
    NS_LOG_INFO("t=" << Simulator::Now().As(Time::US) << " withdraw next hop " << interface << ": "
                     << changed << " routes changed");
    m_nextHopChangeTrace(interface, false, changed);
}

void
MrcIpv6EcmpRouting::RestoreNextHop(uint32_t interface)
{
    const uint32_t changed = m_table.SetNextHopEnabled(interface, true);
    NS_LOG_INFO("t=" << Simulator::Now().As(Time::US) << " restore next hop " << interface << ": "
                     << changed << " routes changed");
    m_nextHopChangeTrace(interface, true, changed);
}

bool
MrcIpv6EcmpRouting::SetRouteNextHops(Ipv6Address network,
                                     uint8_t prefixLength,
                                     const std::vector<uint32_t>& interfaces)
{
    if (!m_table.SetRouteNextHops(network, prefixLength, interfaces))
    {
        return false;
    }
    const auto route = m_table.GetRoute(network, prefixLength);
    const uint32_t active = route ? route->active.size() : 0;
    NS_LOG_INFO("t=" << Simulator::Now().As(Time::US) << " route " << network << "/"
                     << unsigned(prefixLength) << ": " << active << " next hops");
    m_routeChangeTrace(network, prefixLength, active);
    return true;
}

const MrcEcmpRouteTable&
MrcIpv6EcmpRouting::GetTable() const
{
    return m_table;
}

int32_t
MrcIpv6EcmpRouting::SelectNextHop(const MrcEcmpFlowKey& key) const
{
    const std::vector<uint32_t>* group = m_table.Lookup(key.GetDestination());
    if (group == nullptr)
    {
        return -1;
    }
    return static_cast<int32_t>((*group)[key.Hash(m_hashSeed) % group->size()]);
}

uint32_t
MrcIpv6EcmpRouting::GetHashSeed() const
{
    return m_hashSeed;
}

void
MrcIpv6EcmpRouting::SetHashSeed(uint32_t seed)
{
    m_hashSeed = seed;
}

uint64_t
MrcIpv6EcmpRouting::GetForwardedPackets() const
{
    return m_forwarded;
}

uint64_t
MrcIpv6EcmpRouting::GetDroppedPackets() const
{
    return m_dropped;
}

Ptr<Ipv6Route>
MrcIpv6EcmpRouting::RouteOutput(Ptr<Packet> p,
                                const Ipv6Header& header,
                                Ptr<NetDevice> oif,
                                Socket::SocketErrno& sockerr)
{
    NS_LOG_FUNCTION(this << header.GetDestination());
    const int32_t interface = SelectNextHop(MrcEcmpFlowKey::FromPacket(header, p));
    if (interface < 0 || (oif && GetIpv6()->GetNetDevice(interface) != oif))
    {
        sockerr = Socket::ERROR_NOROUTETOHOST;
        return nullptr;
    }
    sockerr = Socket::ERROR_NOTERROR;
    Ptr<Ipv6Route> route = MakeRoute(interface, header.GetDestination());
    return route;
}

bool
MrcIpv6EcmpRouting::RouteInput(Ptr<const Packet> p,
                               const Ipv6Header& header,
                               Ptr<const NetDevice> idev,
                               Ipv6RouteInputCbArg<UnicastForwardCallback> ucb,
                               Ipv6RouteInputCbArg<MulticastForwardCallback> mcb,
                               Ipv6RouteInputCbArg<LocalDeliverCallback> lcb,
                               Ipv6RouteInputCbArg<ErrorCallback> ecb)
{
    NS_LOG_FUNCTION(this << p << header.GetDestination());
    if (header.GetDestination().IsMulticast())
    {
        // Link-scope multicast (neighbour discovery) was delivered locally by Ipv6L3Protocol.
        m_dropTrace(p, header, DropReason::MULTICAST);
        return true;
    }
    const MrcEcmpFlowKey key = MrcEcmpFlowKey::FromPacket(header, p);
    const std::vector<uint32_t>* group = m_table.Lookup(header.GetDestination());
    if (group == nullptr)
    {
        NS_LOG_LOGIC("no route to " << header.GetDestination());
        ++m_dropped;
        m_dropTrace(p, header, DropReason::NO_ROUTE);
        ecb(p, header, Socket::ERROR_NOROUTETOHOST);
        return true;
    }
    const uint32_t hash = key.Hash(m_hashSeed);
    const uint32_t interface = (*group)[hash % group->size()];
    ++m_forwarded;
    m_forwardTrace(p, header, interface, hash);
    ucb(idev, GetRouteVia(interface), p, header);
    return true;
}

void
MrcIpv6EcmpRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit unit) const
{
    std::ostream& os = *stream->GetStream();
    os << DescribeNode(unit) << ", MrcIpv6EcmpRouting table, HashSeed " << m_hashSeed << "\n";
    for (const auto& route : m_table.GetRoutes())
    {
        std::ostringstream prefix;
        prefix << route.network << "/" << unsigned(route.prefixLength);
        os << std::left << std::setw(28) << prefix.str() << " via interfaces";
        for (uint32_t i : route.members)
        {
            const bool active =
                std::find(route.active.begin(), route.active.end(), i) != route.active.end();
            os << " " << i << (active ? "" : "(withdrawn)");
        }
        os << "\n";
    }
}

std::ostream&
operator<<(std::ostream& os, MrcIpv6EcmpRouting::DropReason reason)
{
    switch (reason)
    {
        case MrcIpv6EcmpRouting::DropReason::NO_ROUTE:
            return os << "NO_ROUTE";
        case MrcIpv6EcmpRouting::DropReason::MULTICAST:
            return os << "MULTICAST";
    }
    return os << "UNKNOWN";
}

} // namespace ns3
