/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-switch-pipeline.h"

#include "mrc-header-types.h"
#include "mrc-ipv6-receive-takeover.h"
#include "mrc-ipv6-route-input-compat.h"

#include "ns3/boolean.h"
#include "ns3/icmpv6-l4-protocol.h"
#include "ns3/ipv6-interface.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/ipv6-routing-protocol.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/traffic-control-layer.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSwitchPipeline");

namespace
{

/**
 * Ipv6Address::IsDocumentation (2001:db8::/32) on the address's bytes: ns-3's builds an
 * Ipv6Prefix per call, a cost paid on every forwarded packet.
 * \param address an address
 * \return true if it is a documentation address
 */
bool
IsDocumentationAddress(const Ipv6Address& address)
{
    uint8_t b[16];
    address.GetBytes(b);
    return b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8;
}

/**
 * Ipv6Address::IsLinkLocal (fe80::/64) on the address's bytes, for the same reason.
 * \param address an address
 * \return true if it is a link-local unicast address
 */
bool
IsLinkLocalAddress(const Ipv6Address& address)
{
    uint8_t b[16];
    address.GetBytes(b);
    return b[0] == 0xfe && b[1] == 0x80 && b[2] == 0 && b[3] == 0 && b[4] == 0 && b[5] == 0
           && b[6] == 0 && b[7] == 0;
}

} // namespace

NS_OBJECT_ENSURE_REGISTERED(MrcSwitchPipeline);

TypeId
MrcSwitchPipeline::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcSwitchPipeline")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcSwitchPipeline>()
            .AddAttribute("Enabled",
                          "Fabric switches forward through the lean pipeline (true) or as plain "
                          "ns-3 IPv6 routers through Ipv6L3Protocol (false). Read by Install().",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcSwitchPipeline::m_enabled),
                          MakeBooleanChecker())
            .AddTraceSource("Drop",
                            "The pipeline dropped a packet: packet, IPv6 header, reason.",
                            MakeTraceSourceAccessor(&MrcSwitchPipeline::m_dropTrace),
                            "ns3::MrcSwitchPipeline::DropTracedCallback");
    return tid;
}

MrcSwitchPipeline::MrcSwitchPipeline() = default;

MrcSwitchPipeline::~MrcSwitchPipeline() = default;

Ptr<MrcSwitchPipeline>
MrcSwitchPipeline::Install(Ptr<Node> node)
{
    NS_ASSERT_MSG(node, "MrcSwitchPipeline::Install: null node");
    Ptr<MrcSwitchPipeline> pipeline = CreateObject<MrcSwitchPipeline>();
    if (!pipeline->m_enabled || node->GetObject<MrcSwitchPipeline>())
    {
        return nullptr;
    }
    if (!MrcIpv6ReceiveTakeover::IsPossible(node))
    {
        NS_LOG_WARN("node " << node->GetId()
                            << ": not installed (needs IPv6 and traffic control, no IPv4)");
        return nullptr;
    }
    pipeline->Attach(node);
    node->AggregateObject(pipeline);
    return pipeline;
}

void
MrcSwitchPipeline::Attach(Ptr<Node> node)
{
    m_node = node;
    m_ipv6 = node->GetObject<Ipv6L3Protocol>();
    m_tc = node->GetObject<TrafficControlLayer>();
    BooleanValue strong;
    m_ipv6->GetAttribute("StrongEndSystemModel", strong);
    m_strongEndSystem = strong.Get();

    m_ports.assign(node->GetNDevices(), nullptr);
    m_broadcasts.assign(node->GetNDevices(), Address());
    m_forward = MakeCallback(&MrcSwitchPipeline::Forward, this);
    m_forwardMulticast = MakeCallback(&MrcSwitchPipeline::ForwardMulticast, this);
    m_deliverLocally = MakeCallback(&MrcSwitchPipeline::DeliverLocally, this);
    m_routeError = MakeCallback(&MrcSwitchPipeline::RouteError, this);
    m_served = MrcIpv6ReceiveTakeover::Apply(node,
                                             MakeCallback(&MrcSwitchPipeline::Receive, this),
                                             [this](uint32_t, Ptr<Ipv6Interface> interface) {
                                                 Ptr<NetDevice> device = interface->GetDevice();
                                                 m_ports[device->GetIfIndex()] = interface;
                                                 m_broadcasts[device->GetIfIndex()] =
                                                     device->GetBroadcast();
                                             });
}

void
MrcSwitchPipeline::DoDispose()
{
    m_node = nullptr;
    m_ipv6 = nullptr;
    m_tc = nullptr;
    m_served.clear();
    m_ports.clear();
    m_broadcasts.clear();
    m_forward = Ipv6RoutingProtocol::UnicastForwardCallback();
    m_forwardMulticast = Ipv6RoutingProtocol::MulticastForwardCallback();
    m_deliverLocally = Ipv6RoutingProtocol::LocalDeliverCallback();
    m_routeError = Ipv6RoutingProtocol::ErrorCallback();
    Object::DoDispose();
}

uint64_t
MrcSwitchPipeline::GetForwardedPackets() const
{
    return m_forwarded;
}

uint64_t
MrcSwitchPipeline::GetSlowPathPackets() const
{
    return m_slowPath;
}

uint64_t
MrcSwitchPipeline::GetDroppedPackets(DropReason reason) const
{
    auto it = m_drops.find(reason);
    return it == m_drops.end() ? 0 : it->second;
}

bool
MrcSwitchPipeline::NeedsSlowPath(const Ptr<Ipv6Interface>& input, const Ipv6Header& header) const
{
    const Ipv6Address dst = header.GetDestination();
    if (!input || !input->IsUp() || header.GetNextHeader() == Ipv6Header::IPV6_EXT_HOP_BY_HOP
        || dst.IsMulticast())
    {
        return true;
    }
    if (!m_strongEndSystem)
    {
        return m_ipv6->GetInterfaceForAddress(dst) >= 0; // an address of any interface
    }
    for (uint32_t a = 0; a < input->GetNAddresses(); ++a)
    {
        if (input->GetAddress(a).GetAddress() == dst)
        {
            return true;
        }
    }
    return false;
}

void
MrcSwitchPipeline::Receive(Ptr<NetDevice> device,
                           Ptr<const Packet> p,
                           uint16_t protocol,
                           const Address& from,
                           const Address& to,
                           NetDevice::PacketType type)
{
    const uint32_t index = device->GetIfIndex();
    if (index >= m_served.size() || !m_served[index])
    {
        return; // not a port of this pipeline: ns-3's own handler for the device has it
    }
    // The header is read once, from the copy the routing gets; ns-3's path gets the original.
    Ipv6Header header = m_blankHeader;
    Ptr<Packet> packet;
    if (index < m_ports.size() && p->GetSize() >= header.GetSerializedSize())
    {
        packet = p->Copy();
        if (packet->RemoveHeader(header) == 0 || NeedsSlowPath(m_ports[index], header))
        {
            packet = nullptr;
        }
    }
    if (!packet)
    {
        ++m_slowPath;
        NS_LOG_LOGIC("to Ipv6L3Protocol: " << p->GetSize() << " bytes");
        m_tc->Receive(device, p, protocol, from, to, type);
        return;
    }
    if (header.GetPayloadLength() < packet->GetSize())
    {
        packet->RemoveAtEnd(packet->GetSize() - header.GetPayloadLength());
    }
    m_receiving = packet;
    const bool routed = m_ipv6->GetRoutingProtocol()->RouteInput(packet,
                                                                 header,
                                                                 device,
                                                                 m_forward,
                                                                 m_forwardMulticast,
                                                                 m_deliverLocally,
                                                                 m_routeError);
    m_receiving = nullptr;
    if (!routed)
    {
        NS_LOG_WARN("no route for " << header.GetDestination() << ": dropped");
    }
}

void
MrcSwitchPipeline::Forward(Ptr<const NetDevice> idev,
                           Ptr<Ipv6Route> route,
                           Ptr<const Packet> p,
                           const Ipv6Header& header)
{
    // As Ipv6L3Protocol::IpForward, then SendRealOut and Ipv6Interface::Send.
    if (IsDocumentationAddress(header.GetDestination()))
    {
        Drop(p, header, DropReason::ROUTE_ERROR);
        return;
    }
    if (IsLinkLocalAddress(header.GetSource()))
    {
        Drop(p, header, DropReason::LINK_LOCAL_SOURCE);
        return;
    }
    Ipv6Header out = header;
    // The copy Receive made is this switch's own: forward it rather than copy it again
    // (ns-3's IpForward copies because its caller may keep the packet). Anything else the
    // routing hands over (an SRH rewritten into a new packet) is copied as ns-3 does.
    Ptr<Packet> packet = PeekPointer(p) == PeekPointer(m_receiving) ? m_receiving : p->Copy();
    m_receiving = nullptr;
    if (header.GetHopLimit() <= 1)
    {
        out.SetHopLimit(0);
        Drop(packet, out, DropReason::HOP_LIMIT);
        packet->AddHeader(out);
        m_node->GetObject<Icmpv6L4Protocol>()->SendErrorTimeExceeded(packet,
                                                                     out.GetSource(),
                                                                     Icmpv6Header::ICMPV6_HOPLIMIT);
        return;
    }
    out.SetHopLimit(header.GetHopLimit() - 1);
    Ptr<NetDevice> device = route->GetOutputDevice();
    const uint32_t index = device->GetIfIndex();
    const Ptr<Ipv6Interface> output = index < m_ports.size() ? m_ports[index] : nullptr;
    if (!output)
    {
        // Not a port the pipeline knows (added later, or one that needs neighbour discovery).
        NS_LOG_WARN("output device " << index << " is not a point-to-point fabric port");
        Drop(packet, out, DropReason::ROUTE_ERROR);
        return;
    }
    if (packet->GetSize() + out.GetSerializedSize() > device->GetMtu())
    {
        Drop(packet, out, DropReason::TOO_BIG);
        packet->AddHeader(out);
        m_node->GetObject<Icmpv6L4Protocol>()->SendErrorTooBig(packet,
                                                               out.GetSource(),
                                                               device->GetMtu());
        return;
    }
    if (!output->IsUp())
    {
        Drop(packet, out, DropReason::OUTPUT_DOWN);
        return;
    }
    ++m_forwarded;
    m_tc->Send(device,
               Create<Ipv6QueueDiscItem>(packet, m_broadcasts[index], kMrcIpv6EtherType, out));
}

void
MrcSwitchPipeline::ForwardMulticast(Ptr<const NetDevice> idev,
                                    Ptr<Ipv6MulticastRoute> route,
                                    Ptr<const Packet> p,
                                    const Ipv6Header& header)
{
    NS_LOG_WARN("multicast route for " << header.GetDestination() << ": dropped");
    Drop(p, header, DropReason::ROUTE_ERROR);
}

void
MrcSwitchPipeline::DeliverLocally(Ptr<const Packet> p, const Ipv6Header& header, uint32_t)
{
    NS_LOG_WARN("the routing delivers " << header.GetDestination()
                                        << " locally, which a fabric switch cannot: dropped");
    Drop(p, header, DropReason::ROUTE_ERROR);
}

void
MrcSwitchPipeline::RouteError(Ptr<const Packet> p,
                              const Ipv6Header& header,
                              Socket::SocketErrno error)
{
    NS_LOG_LOGIC("route error " << error << " for " << header.GetDestination());
    Drop(p, header, DropReason::ROUTE_ERROR);
    Ptr<Packet> packet = p->Copy();
    packet->AddHeader(header);
    m_node->GetObject<Icmpv6L4Protocol>()->SendErrorDestinationUnreachable(
        packet,
        header.GetSource(),
        Icmpv6Header::ICMPV6_NO_ROUTE);
}

void
MrcSwitchPipeline::Drop(Ptr<const Packet> p, const Ipv6Header& header, DropReason reason)
{
    NS_LOG_LOGIC("drop " << header.GetDestination() << ": " << reason);
    ++m_drops[reason];
    m_dropTrace(p, header, reason);
}

std::ostream&
operator<<(std::ostream& os, MrcSwitchPipeline::DropReason reason)
{
    switch (reason)
    {
        case MrcSwitchPipeline::DropReason::HOP_LIMIT:
            return os << "HOP_LIMIT";
        case MrcSwitchPipeline::DropReason::TOO_BIG:
            return os << "TOO_BIG";
        case MrcSwitchPipeline::DropReason::OUTPUT_DOWN:
            return os << "OUTPUT_DOWN";
        case MrcSwitchPipeline::DropReason::ROUTE_ERROR:
            return os << "ROUTE_ERROR";
        case MrcSwitchPipeline::DropReason::LINK_LOCAL_SOURCE:
            return os << "LINK_LOCAL_SOURCE";
    }
    return os << "UNKNOWN";
}

} // namespace ns3
