/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ipv6-fabric-routing.h"

#include "ns3/ipv6-route.h"
#include "ns3/ipv6.h"
#include "ns3/names.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <sstream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcIpv6FabricRouting);

TypeId
MrcIpv6FabricRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcIpv6FabricRouting").SetParent<Ipv6RoutingProtocol>().SetGroupName("Mrc");
    return tid;
}

void
MrcIpv6FabricRouting::NotifyInterfaceUp(uint32_t interface)
{
}

void
MrcIpv6FabricRouting::NotifyInterfaceDown(uint32_t interface)
{
}

void
MrcIpv6FabricRouting::NotifyAddAddress(uint32_t interface, Ipv6InterfaceAddress address)
{
}

void
MrcIpv6FabricRouting::NotifyRemoveAddress(uint32_t interface, Ipv6InterfaceAddress address)
{
}

void
MrcIpv6FabricRouting::NotifyAddRoute(Ipv6Address dst,
                                     Ipv6Prefix mask,
                                     Ipv6Address nextHop,
                                     uint32_t interface,
                                     Ipv6Address prefixToUse)
{
}

void
MrcIpv6FabricRouting::NotifyRemoveRoute(Ipv6Address dst,
                                        Ipv6Prefix mask,
                                        Ipv6Address nextHop,
                                        uint32_t interface,
                                        Ipv6Address prefixToUse)
{
}

void
MrcIpv6FabricRouting::SetIpv6(Ptr<Ipv6> ipv6)
{
    m_ipv6 = ipv6;
    m_routeCache.clear();
}

void
MrcIpv6FabricRouting::DoDispose()
{
    m_ipv6 = nullptr;
    m_routeCache.clear();
    Ipv6RoutingProtocol::DoDispose();
}

Ptr<Ipv6>
MrcIpv6FabricRouting::GetIpv6() const
{
    return m_ipv6;
}

Ptr<Ipv6Route>
MrcIpv6FabricRouting::GetRouteVia(uint32_t interface)
{
    if (interface >= m_routeCache.size())
    {
        m_routeCache.resize(interface + 1);
    }
    Ptr<Ipv6Route>& route = m_routeCache[interface];
    if (!route)
    {
        route = MakeRoute(interface, Ipv6Address::GetAny());
    }
    return route;
}

Ptr<Ipv6Route>
MrcIpv6FabricRouting::MakeRoute(uint32_t interface, Ipv6Address destination) const
{
    Ptr<Ipv6Route> route = Create<Ipv6Route>();
    route->SetDestination(destination);
    route->SetGateway(Ipv6Address::GetAny());
    route->SetOutputDevice(m_ipv6->GetNetDevice(interface));
    // An interface set down has no address left (Ipv6Interface::SetDown clears them).
    route->SetSource(m_ipv6->GetNAddresses(interface) > 0
                         ? m_ipv6->GetAddress(interface, 0).GetAddress()
                         : Ipv6Address::GetAny());
    return route;
}

std::string
MrcIpv6FabricRouting::DescribeNode(Time::Unit unit) const
{
    Ptr<Node> node = m_ipv6 ? m_ipv6->GetObject<Node>() : nullptr;
    std::ostringstream os;
    os << "Node: " << (node ? Names::FindName(node) : std::string("?")) << " (id "
       << (node ? node->GetId() : 0) << "), Time: " << Simulator::Now().As(unit);
    return os.str();
}

} // namespace ns3
