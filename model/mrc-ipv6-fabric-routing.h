/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_IPV6_FABRIC_ROUTING_H
#define MRC_IPV6_FABRIC_ROUTING_H

#include "mrc-ipv6-route-input-compat.h"

#include "ns3/ipv6-routing-protocol.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Common base of the module's static switch routing protocols (MrcIpv6EcmpRouting,
 * MrcIpv6Srv6Routing): tables written by a helper, never by interface or address events.
 *
 * Ignores interface and address notifications (static tables), keeps the node's Ipv6, and
 * hands out one cached Ipv6Route per egress interface: Ipv6L3Protocol uses only the output
 * device and the gateway of a forwarding route, and the gateway is unspecified because every
 * link is point-to-point (no neighbour discovery).
 */
class MrcIpv6FabricRouting : public Ipv6RoutingProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    void NotifyInterfaceUp(uint32_t interface) override;
    void NotifyInterfaceDown(uint32_t interface) override;
    void NotifyAddAddress(uint32_t interface, Ipv6InterfaceAddress address) override;
    void NotifyRemoveAddress(uint32_t interface, Ipv6InterfaceAddress address) override;
    void NotifyAddRoute(Ipv6Address dst,
                        Ipv6Prefix mask,
                        Ipv6Address nextHop,
                        uint32_t interface,
                        Ipv6Address prefixToUse = Ipv6Address::GetZero()) override;
    void NotifyRemoveRoute(Ipv6Address dst,
                           Ipv6Prefix mask,
                           Ipv6Address nextHop,
                           uint32_t interface,
                           Ipv6Address prefixToUse = Ipv6Address::GetZero()) override;
    void SetIpv6(Ptr<Ipv6> ipv6) override;

  protected:
    void DoDispose() override;

    /// \return the node's IPv6 stack
    Ptr<Ipv6> GetIpv6() const;

    /**
     * \param interface an IPv6 interface index
     * \return the (cached) route object that sends out of it
     */
    Ptr<Ipv6Route> GetRouteVia(uint32_t interface);

    /**
     * \param interface an IPv6 interface index
     * \param destination the packet's destination
     * \return a fresh route out of that interface (for RouteOutput)
     */
    Ptr<Ipv6Route> MakeRoute(uint32_t interface, Ipv6Address destination) const;

    /**
     * \param unit time unit
     * \return "Node: <name> (id N), Time: T" for PrintRoutingTable
     */
    std::string DescribeNode(Time::Unit unit) const;

  private:
    Ptr<Ipv6> m_ipv6;                         //!< the node's IPv6 stack
    std::vector<Ptr<Ipv6Route>> m_routeCache; //!< one route object per egress interface
};

} // namespace ns3

#endif /* MRC_IPV6_FABRIC_ROUTING_H */
