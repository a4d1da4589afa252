/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_IPV6_ROUTE_INPUT_COMPAT_H
#define MRC_IPV6_ROUTE_INPUT_COMPAT_H

#include "ns3/ipv6-routing-protocol.h"

#include <type_traits>

namespace ns3
{

/**
 * \ingroup mrc
 * True where ns-3 (3.39 and later) passes Ipv6RoutingProtocol::RouteInput's callbacks by const
 * reference; false where it passes them by value (3.37, 3.38).
 */
inline constexpr bool kMrcIpv6RouteInputCallbacksByRef =
    std::is_same_v<decltype(&Ipv6RoutingProtocol::RouteInput),
                   bool (Ipv6RoutingProtocol::*)(
                       Ptr<const Packet>,
                       const Ipv6Header&,
                       Ptr<const NetDevice>,
                       const Ipv6RoutingProtocol::UnicastForwardCallback&,
                       const Ipv6RoutingProtocol::MulticastForwardCallback&,
                       const Ipv6RoutingProtocol::LocalDeliverCallback&,
                       const Ipv6RoutingProtocol::ErrorCallback&)>;

/**
 * \ingroup mrc
 * The type in which RouteInput takes callback Cb in the ns-3 version built against, so that one
 * override compiles with every version.
 */
template<typename Cb>
using Ipv6RouteInputCbArg = std::conditional_t<kMrcIpv6RouteInputCallbacksByRef, const Cb&, Cb>;

} // namespace ns3

#endif /* MRC_IPV6_ROUTE_INPUT_COMPAT_H */
