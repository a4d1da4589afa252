/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_IPV6_RECEIVE_TAKEOVER_H
#define MRC_IPV6_RECEIVE_TAKEOVER_H

#include "ns3/ipv6-interface.h"
#include "ns3/node.h"

#include <functional>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Puts a receive handler in place of the traffic-control layer's on a node's IPv6 ports.
 *
 * Ipv6L3Protocol::AddInterface registers TrafficControlLayer::Receive as the IPv6 protocol
 * handler of every interface's device except the loopback's. MrcSwitchPipeline and
 * MrcHostPipeline take that place: Apply removes one such registration per port (Node removes
 * one per call) and registers the given handler for IPv6 on the port's device instead. What a
 * handler does not serve itself it hands to TrafficControlLayer::Receive, so ns-3's path stays.
 */
class MrcIpv6ReceiveTakeover
{
  public:
    /// Called for each port whose device needs no neighbour discovery: interface index, interface.
    using PortCallback = std::function<void(uint32_t, Ptr<Ipv6Interface>)>;

    /**
     * \param node a node
     * \return true if the node has IPv6 and traffic control and no IPv4 (the pipelines serve
     *         IPv6-only nodes)
     */
    static bool IsPossible(Ptr<Node> node);

    /**
     * \param node a node for which IsPossible holds
     * \param handler the receive handler for IPv6 on every non-loopback port
     * \param onPort called for every port whose device needs no neighbour discovery (the
     *        point-to-point ports a pipeline serves directly)
     */
    static void Apply(Ptr<Node> node, Node::ProtocolHandler handler, const PortCallback& onPort);
};

} // namespace ns3

#endif /* MRC_IPV6_RECEIVE_TAKEOVER_H */
