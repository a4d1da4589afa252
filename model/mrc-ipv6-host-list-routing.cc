/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ipv6-host-list-routing.h"

#include "mrc-ipv6-srv6-host-routing.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcIpv6HostListRouting);

TypeId
MrcIpv6HostListRouting::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcIpv6HostListRouting")
                            .SetParent<Ipv6ListRouting>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcIpv6HostListRouting>();
    return tid;
}

bool
MrcIpv6HostListRouting::RouteInput(Ptr<const Packet> p,
                                   const Ipv6Header& header,
                                   Ptr<const NetDevice> idev,
                                   Ipv6RouteInputCbArg<UnicastForwardCallback> ucb,
                                   Ipv6RouteInputCbArg<MulticastForwardCallback> mcb,
                                   Ipv6RouteInputCbArg<LocalDeliverCallback> lcb,
                                   Ipv6RouteInputCbArg<ErrorCallback> ecb)
{
    for (uint32_t i = 0; i < GetNRoutingProtocols(); ++i)
    {
        int16_t priority = 0;
        Ptr<Ipv6RoutingProtocol> proto = GetRoutingProtocol(i, priority);
        if (DynamicCast<MrcIpv6Srv6HostRouting>(proto)
            && proto->RouteInput(p, header, idev, ucb, mcb, lcb, ecb))
        {
            return true;
        }
    }
    return Ipv6ListRouting::RouteInput(p, header, idev, ucb, mcb, lcb, ecb);
}

} // namespace ns3
