/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_IPV6_HOST_LIST_ROUTING_H
#define MRC_IPV6_HOST_LIST_ROUTING_H

#include "mrc-ipv6-route-input-compat.h"

#include "ns3/ipv6-list-routing.h"

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The routing list of a fabric host: ns-3's Ipv6ListRouting, except that SRv6 endpoint
 * protocols (MrcIpv6Srv6HostRouting) see arriving packets even though the host does not forward.
 *
 * Ipv6ListRouting refuses every arriving packet on a non-forwarding interface before asking its
 * protocols; an SRv6 packet that ends at a host is addressed to one of the host's SIDs, not to
 * an interface address, so it would never reach the decapsulation. Everything else behaves as
 * Ipv6ListRouting (Ipv6StaticRoutingHelper::GetStaticRouting finds the static routing in it).
 */
class MrcIpv6HostListRouting : public Ipv6ListRouting
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    bool RouteInput(Ptr<const Packet> p,
                    const Ipv6Header& header,
                    Ptr<const NetDevice> idev,
                    Ipv6RouteInputCbArg<UnicastForwardCallback> ucb,
                    Ipv6RouteInputCbArg<MulticastForwardCallback> mcb,
                    Ipv6RouteInputCbArg<LocalDeliverCallback> lcb,
                    Ipv6RouteInputCbArg<ErrorCallback> ecb) override;
};

} // namespace ns3

#endif /* MRC_IPV6_HOST_LIST_ROUTING_H */
