/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_IPV6_RECEIVE_TAKEOVER_H
#define MRC_IPV6_RECEIVE_TAKEOVER_H

#include "ns3/ipv6-interface.h"
#include "ns3/node.h"

#include <functional>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Puts a receive handler in place of the traffic-control layer's on a node's IPv6 ports.
 *
 * Ipv6L3Protocol::AddInterface registers TrafficControlLayer::Receive as the IPv6 protocol
 * handler of every interface's device except the loopback's. MrcSwitchPipeline and
 * MrcHostPipeline take that place: Apply removes one such registration per port (Node removes
 * one per call) and registers the given handler once, for IPv6 on every device of the node.
 * Node::ReceiveFromDevice compares every registered handler's device with the receiving one, so a
 * registration per port cost a switch of k ports k comparisons (and k entries to read) on every
 * packet; one registration costs one. The handler is therefore also called for devices it does
 * not serve (the loopback, devices added later, which keep ns-3's own registration): it must
 * ignore those, by the vector Apply returns. What a handler does not serve itself on a port it
 * hands to TrafficControlLayer::Receive, so ns-3's path stays.
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
     * \param handler the receive handler for IPv6, registered once for every device
     * \param onPort called for every port whose device needs no neighbour discovery (the
     *        point-to-point ports a pipeline serves directly)
     * \return by device index (Node's), true for the ports the handler serves: every
     *         non-loopback IPv6 interface's device at the time of the call. The handler must
     *         ignore a packet from any other device (ns-3's handler for it, if any, gets it too).
     */
    static std::vector<bool> Apply(Ptr<Node> node,
                                   Node::ProtocolHandler handler,
                                   const PortCallback& onPort);
};

} // namespace ns3

#endif /* MRC_IPV6_RECEIVE_TAKEOVER_H */
