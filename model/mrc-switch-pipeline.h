/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SWITCH_PIPELINE_H
#define MRC_SWITCH_PIPELINE_H

#include "ns3/address.h"
#include "ns3/ipv6-header.h"
#include "ns3/ipv6-route.h"
#include "ns3/ipv6-routing-protocol.h"
#include "ns3/net-device.h"
#include "ns3/object.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <ostream>
#include <vector>

namespace ns3
{

class Ipv6Interface;
class Ipv6L3Protocol;
class Node;
class Packet;
class TrafficControlLayer;

/**
 * \ingroup mrc
 * \brief The lean forwarding path of a fabric switch: what ns-3's Ipv6L3Protocol does for a
 * transit packet, without the work a host's stack does on every packet.
 *
 * A fabric switch does one thing per packet: read the IPv6 header, let its routing (the static
 * uSID shift of MrcIpv6Srv6Routing, the hash of MrcIpv6EcmpRouting, or any other
 * Ipv6RoutingProtocol installed on the node) pick a port, decrement the hop limit and hand the
 * packet to the port's queue disc. Through Ipv6L3Protocol it also pays, per packet, for
 * interface searches over every port (`GetInterfaceForDevice`, twice), a scan of every address
 * of every port (to tell whether the switch itself sent the packet), a neighbour-cache lookup,
 * two packet copies and a look at its raw sockets: O(ports) work on every hop.
 *
 * Install() registers this object as the node's IPv6 protocol handler on each of its
 * point-to-point ports in place of the traffic-control layer's (which only passes packets on
 * to Ipv6L3Protocol::Receive). Per packet it then:
 *  - takes ns-3's own path (TrafficControlLayer::Receive, hence Ipv6L3Protocol::Receive), so
 *    that the result is exactly ns-3's, for anything that is not plain transit: an input
 *    interface that is down, a hop-by-hop options header, a multicast destination, or a
 *    destination that is one of the input interface's addresses (of any interface when the
 *    node's Ipv6L3Protocol::StrongEndSystemModel is false);
 *  - otherwise removes the IPv6 header (and any frame padding past its payload length) and
 *    calls the node's routing protocol's RouteInput, so that routing, its counters and its
 *    traces (Shift, Forward, Drop) are the same objects as under Ipv6L3Protocol;
 *  - forwards as Ipv6L3Protocol::IpForward and SendRealOut do: drops a packet from a
 *    link-local source, decrements the hop limit and drops at 0 with an ICMPv6 Time Exceeded,
 *    drops a packet larger than the output port's MTU with an ICMPv6 Packet Too Big, drops
 *    when the output interface is down, and otherwise enqueues an Ipv6QueueDiscItem on the
 *    output device through the node's TrafficControlLayer (so queue discs, trimming, ECN, PFC,
 *    device traces, pcap and failure injection see the same packets);
 *  - on the routing's error callback (no route), drops with an ICMPv6 Destination Unreachable
 *    as Ipv6L3Protocol::RouteInputError does.
 *
 * What differs from a switch that forwards through Ipv6L3Protocol: on transit packets
 * Ipv6L3Protocol's own trace sources (Rx, Tx, UnicastForward, Drop) do not fire, so a
 * FlowMonitor installed on switches sees no forwarding there (install it on hosts, or turn
 * the pipeline off); this object's Drop trace reports its drops instead. No ICMPv6 Redirect
 * is sent (fabric switches disable them). Raw IPv6 sockets on the switch do not see transit
 * packets. A hop limit of 0 on arrival is dropped (ns-3.37's Ipv6L3Protocol would wrap it to 255;
 * ns-3-dev drops it too).
 *
 * MrcClosTopologyHelper::Build installs it on every switch unless Enabled is false (then
 * switches are plain IPv6 routers, as before). Nodes with an IPv4 stack are left alone (the
 * traffic-control handler is shared with IPv4 and cannot be removed for IPv6 alone).
 */
class MrcSwitchPipeline : public Object
{
  public:
    /// Why the pipeline dropped a packet (the routing's own drops are in its Drop trace).
    enum class DropReason
    {
        HOP_LIMIT,         //!< hop limit reached 0: ICMPv6 Time Exceeded sent
        TOO_BIG,           //!< larger than the output port's MTU: ICMPv6 Packet Too Big sent
        OUTPUT_DOWN,       //!< the output interface is down
        ROUTE_ERROR,       //!< the routing reported an error: ICMPv6 Destination Unreachable
        LINK_LOCAL_SOURCE, //!< a link-local source is never forwarded (silently, as ns-3 does)
    };

    /**
     * TracedCallback signature for a drop.
     * \param packet the packet, without its IPv6 header
     * \param header its IPv6 header
     * \param reason why
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet,
                                       const Ipv6Header& header,
                                       DropReason reason);

    /// \return the TypeId
    static TypeId GetTypeId();

    MrcSwitchPipeline();
    ~MrcSwitchPipeline() override;

    /**
     * Create a pipeline (with the attribute defaults) and install it on a switch, after its
     * IPv6 interfaces exist. Does nothing when Enabled is false, when the node already has
     * one, or when the node has an IPv4 stack.
     * \param node the switch
     * \return the installed pipeline, or nullptr
     */
    static Ptr<MrcSwitchPipeline> Install(Ptr<Node> node);

    /// \return transit packets forwarded by the lean path
    uint64_t GetForwardedPackets() const;
    /// \return packets handed to ns-3's own IPv6 path
    uint64_t GetSlowPathPackets() const;
    /**
     * \param reason a drop reason
     * \return packets the pipeline dropped for it
     */
    uint64_t GetDroppedPackets(DropReason reason) const;

  protected:
    void DoDispose() override;

  private:
    /**
     * Take over the node's IPv6 receive path.
     * \param node the switch
     */
    void Attach(Ptr<Node> node);

    /**
     * The node's protocol handler (see Node::ProtocolHandler).
     * \param device input device
     * \param p packet with its IPv6 header
     * \param protocol EtherType
     * \param from source address
     * \param to destination address
     * \param type packet type
     */
    void Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> p,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType type);

    /**
     * \param input the input port's IPv6 interface (null: a port the pipeline does not handle)
     * \param header the packet's IPv6 header
     * \return true when ns-3's IPv6 path must handle the packet
     */
    bool NeedsSlowPath(const Ptr<Ipv6Interface>& input, const Ipv6Header& header) const;

    /**
     * The routing's unicast-forward callback.
     * \param idev input device
     * \param route the chosen route
     * \param p packet without its IPv6 header
     * \param header IPv6 header
     */
    void Forward(Ptr<const NetDevice> idev,
                 Ptr<Ipv6Route> route,
                 Ptr<const Packet> p,
                 const Ipv6Header& header);

    /**
     * The routing's multicast-forward callback (never used: multicast takes the slow path).
     * \param idev input device
     * \param route the route
     * \param p packet
     * \param header IPv6 header
     */
    void ForwardMulticast(Ptr<const NetDevice> idev,
                          Ptr<Ipv6MulticastRoute> route,
                          Ptr<const Packet> p,
                          const Ipv6Header& header);

    /**
     * The routing's local-delivery callback (packets for the switch take the slow path, so a
     * routing that still delivers locally is a configuration the pipeline cannot serve).
     * \param p packet
     * \param header IPv6 header
     * \param interface input interface
     */
    void DeliverLocally(Ptr<const Packet> p, const Ipv6Header& header, uint32_t interface);

    /**
     * The routing's error callback: drop with an ICMPv6 Destination Unreachable.
     * \param p packet
     * \param header IPv6 header
     * \param error the routing's error
     */
    void RouteError(Ptr<const Packet> p, const Ipv6Header& header, Socket::SocketErrno error);

    /**
     * Count and trace a drop.
     * \param p packet
     * \param header IPv6 header
     * \param reason why
     */
    void Drop(Ptr<const Packet> p, const Ipv6Header& header, DropReason reason);

    bool m_enabled{true};          //!< the Enabled attribute
    Ptr<Node> m_node;              //!< the switch
    Ptr<Ipv6L3Protocol> m_ipv6;    //!< its IPv6 stack (interfaces, routing, ICMPv6)
    Ptr<TrafficControlLayer> m_tc; //!< its traffic-control layer
    /// By device index: true for the ports whose IPv6 packets this pipeline receives (its
    /// handler is registered once for every device; the others it ignores).
    std::vector<bool> m_served;
    /// By device index: the port's IPv6 interface (null: not a point-to-point port it handles).
    std::vector<Ptr<Ipv6Interface>> m_ports;
    /// By device index: the port's broadcast address, the frame destination of every packet.
    std::vector<Address> m_broadcasts;
    /// What each packet's header is read into: copied, since ns-3's Ipv6Header constructor
    /// parses the string "::" twice (1.2 % of a run's instructions, once per switch hop).
    const Ipv6Header m_blankHeader;
    /// The packet Receive copied and handed to the routing: Forward sends this object on,
    /// once (Forward clears it, so a second hand-over of the same packet is copied).
    Ptr<Packet> m_receiving;
    bool m_strongEndSystem{true};                          //!< the node's StrongEndSystemModel
    Ipv6RoutingProtocol::UnicastForwardCallback m_forward; //!< Forward()
    Ipv6RoutingProtocol::MulticastForwardCallback m_forwardMulticast; //!< ForwardMulticast()
    Ipv6RoutingProtocol::LocalDeliverCallback m_deliverLocally;       //!< DeliverLocally()
    Ipv6RoutingProtocol::ErrorCallback m_routeError;                  //!< RouteError()
    uint64_t m_forwarded{0};                //!< forwarded by the lean path
    uint64_t m_slowPath{0};                 //!< handed to ns-3's path
    std::map<DropReason, uint64_t> m_drops; //!< drops by reason

    /// Trace of the pipeline's drops.
    TracedCallback<Ptr<const Packet>, const Ipv6Header&, DropReason> m_dropTrace;
};

/**
 * \param os output stream
 * \param reason a drop reason
 * \return os, with the reason's name
 */
std::ostream& operator<<(std::ostream& os, MrcSwitchPipeline::DropReason reason);

} // namespace ns3

#endif /* MRC_SWITCH_PIPELINE_H */
