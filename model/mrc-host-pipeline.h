/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_HOST_PIPELINE_H
#define MRC_HOST_PIPELINE_H

#include "ns3/address.h"
#include "ns3/ipv6-header.h"
#include "ns3/ipv6-route.h"
#include "ns3/ipv6-routing-protocol.h"
#include "ns3/net-device.h"
#include "ns3/object.h"
#include "ns3/socket.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Ipv6Interface;
class Ipv6L3Protocol;
class MrcIpv6Srv6HostRouting;
class MrcL4Protocol;
class Node;
class Packet;
class TrafficControlLayer;

/**
 * \ingroup mrc
 * \brief The receive path of MRC datagrams on a fabric host: what ns-3's Ipv6L3Protocol,
 * Ipv6L3Protocol::LocalDeliver and UdpL4Protocol do for a UDP/4791 datagram addressed to the
 * host, without the work they do for every other kind of packet.
 *
 * ns-3.37's Ipv6L3Protocol::Receive builds four routing callbacks per packet, LocalDeliver
 * walks the extension-header demultiplexer and UdpL4Protocol searches its endpoints: about
 * 11,000 instructions per arriving packet before MrcL4Protocol sees it, three times what a
 * switch hop through MrcSwitchPipeline costs (callgrind, mrc-benchmark). A host receives one
 * packet for every four or five switch hops, so that is about an eighth of a permutation's
 * simulation.
 *
 * Install() registers this object as the node's IPv6 protocol handler on each of its
 * point-to-point ports in place of the traffic-control layer's (which only passes packets on
 * to Ipv6L3Protocol::Receive). Per packet it then:
 *  - takes ns-3's own path (TrafficControlLayer::Receive, hence Ipv6L3Protocol::Receive), so
 *    that the result is exactly ns-3's, for anything that is not an MRC datagram for this host:
 *    an input interface that is down, a next header other than UDP (an SRH, IPv6-in-IPv6, any
 *    extension header), a UDP destination port other than 4791, a multicast destination, a
 *    truncated packet, UDP checksums enabled (Node::ChecksumEnabled), a destination that is
 *    neither an address of the host (of the input interface when the node's
 *    Ipv6L3Protocol::StrongEndSystemModel is true) nor a local SID of its
 *    MrcIpv6Srv6HostRouting, or a node without MrcL4Protocol;
 *  - otherwise removes the IPv6 header (and any frame padding past its payload length); for a
 *    SID destination calls the node's MrcIpv6Srv6HostRouting::RouteInput, so that its counters
 *    and traces are those of ns-3's path (it is the first protocol MrcIpv6HostListRouting
 *    asks); then removes the UDP header and hands the datagram to MrcL4Protocol as the UDP
 *    endpoint would.
 *
 * What differs from a host that receives through Ipv6L3Protocol: for MRC datagrams,
 * Ipv6L3Protocol's trace sources (Rx, LocalDeliver) do not fire (use MrcL4Protocol's Rx trace;
 * ns-3's FlowMonitor sees MRC through MrcFlowMonitorHelper, with or without this pipeline); raw
 * IPv6 sockets on the host do not see them. Every other packet (TCP, user UDP, ICMPv6,
 * neighbour discovery) goes through ns-3's stack as before.
 *
 * MrcHelper::Install installs it on every host unless Enabled is false. Nodes with an IPv4
 * stack are left alone (the traffic-control handler is shared with IPv4).
 */
class MrcHostPipeline : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    MrcHostPipeline();
    ~MrcHostPipeline() override;

    /**
     * Create a pipeline (with the attribute defaults) and install it on a host, after its IPv6
     * interfaces exist and MrcL4Protocol is aggregated to it. Does nothing when Enabled is
     * false, when the node already has one, or when the node has an IPv4 stack or no
     * MrcL4Protocol.
     * \param node the host
     * \return the installed pipeline, or nullptr
     */
    static Ptr<MrcHostPipeline> Install(Ptr<Node> node);

    /// \return MRC datagrams delivered by the lean path
    uint64_t GetDeliveredPackets() const;
    /// \return packets handed to ns-3's own IPv6 path
    uint64_t GetSlowPathPackets() const;
    /// \return packets the SRv6 routing did not deliver locally (dropped; not expected)
    uint64_t GetMisroutedPackets() const;

  protected:
    void DoDispose() override;

  private:
    /**
     * Take over the node's IPv6 receive path.
     * \param node the host
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
     * \param index input interface
     * \param header the packet's IPv6 header
     * \param packet the packet without its IPv6 header
     * \param[out] local set when the destination is an address of the host (not a SID)
     * \return true when ns-3's IPv6 path must handle the packet
     */
    bool NeedsSlowPath(uint32_t index,
                       const Ipv6Header& header,
                       const Ptr<Packet>& packet,
                       bool& local);

    /**
     * Deliver an MRC datagram (the routing's local-delivery callback).
     * \param p the datagram from its UDP header
     * \param header IPv6 header (outer)
     * \param interface input interface
     */
    void Deliver(Ptr<const Packet> p, const Ipv6Header& header, uint32_t interface);

    /**
     * The routing's unicast-forward callback (never used for a local SID).
     * \param idev input device
     * \param route the route
     * \param p packet
     * \param header IPv6 header
     */
    void Forward(Ptr<const NetDevice> idev,
                 Ptr<Ipv6Route> route,
                 Ptr<const Packet> p,
                 const Ipv6Header& header);

    /**
     * The routing's multicast-forward callback (never used for a local SID).
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
     * The routing's error callback (never used for a local SID).
     * \param p packet
     * \param header IPv6 header
     * \param error the routing's error
     */
    void RouteError(Ptr<const Packet> p, const Ipv6Header& header, Socket::SocketErrno error);

    /// \return the node's SRv6 host routing, looked up once (the routing exists by then)
    const Ptr<MrcIpv6Srv6HostRouting>& GetSrv6();

    bool m_enabled{true};               //!< Enabled attribute
    bool m_strongEndSystem{true};       //!< the node's StrongEndSystemModel
    Ptr<Node> m_node;                   //!< the host
    Ptr<Ipv6L3Protocol> m_ipv6;         //!< its IPv6
    Ptr<TrafficControlLayer> m_tc;      //!< its traffic control (the slow path)
    Ptr<MrcL4Protocol> m_l4;            //!< its MRC transport
    Ptr<MrcIpv6Srv6HostRouting> m_srv6; //!< its SRv6 host routing, if any
    bool m_srv6Resolved{false};         //!< m_srv6 was looked up
    std::vector<int32_t> m_interfaceOf; //!< by device index: IPv6 interface, -1 if not a port
    /// By device index: true for the ports whose IPv6 packets this pipeline receives (its
    /// handler is registered once for every device; the others it ignores).
    std::vector<bool> m_served;
    const Ipv6Header m_blankHeader; //!< copied per packet (see MrcSwitchPipeline)
    uint64_t m_delivered{0};        //!< MRC datagrams delivered
    uint64_t m_slowPath{0};         //!< packets handed to Ipv6L3Protocol
    uint64_t m_misrouted{0};        //!< packets the routing did not deliver
    Ipv6RoutingProtocol::UnicastForwardCallback m_forward;            //!< Forward
    Ipv6RoutingProtocol::MulticastForwardCallback m_forwardMulticast; //!< ForwardMulticast
    Ipv6RoutingProtocol::LocalDeliverCallback m_deliver;              //!< Deliver
    Ipv6RoutingProtocol::ErrorCallback m_routeError;                  //!< RouteError
    /// The packet Receive copied and handed on: Deliver passes this object up, once (Deliver
    /// clears it, so a second hand-over of the same packet is copied).
    Ptr<Packet> m_receiving;
};

} // namespace ns3

#endif /* MRC_HOST_PIPELINE_H */
