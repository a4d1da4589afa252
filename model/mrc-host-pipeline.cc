/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-host-pipeline.h"

#include "mrc-header-types.h"
#include "mrc-ipv6-receive-takeover.h"
#include "mrc-ipv6-route-input-compat.h"
#include "mrc-ipv6-srv6-host-routing.h"
#include "mrc-l4-protocol.h"

#include "ns3/boolean.h"
#include "ns3/ipv6-interface.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/ipv6-list-routing.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/udp-header.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcHostPipeline");

NS_OBJECT_ENSURE_REGISTERED(MrcHostPipeline);

TypeId
MrcHostPipeline::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcHostPipeline")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcHostPipeline>()
            .AddAttribute("Enabled",
                          "Hosts hand arriving MRC datagrams to MrcL4Protocol directly (true) or "
                          "through Ipv6L3Protocol and UdpL4Protocol (false). Read by Install().",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcHostPipeline::m_enabled),
                          MakeBooleanChecker());
    return tid;
}

MrcHostPipeline::MrcHostPipeline() = default;

MrcHostPipeline::~MrcHostPipeline() = default;

Ptr<MrcHostPipeline>
MrcHostPipeline::Install(Ptr<Node> node)
{
    NS_ASSERT_MSG(node, "MrcHostPipeline::Install: null node");
    Ptr<MrcHostPipeline> pipeline = CreateObject<MrcHostPipeline>();
    if (!pipeline->m_enabled || node->GetObject<MrcHostPipeline>())
    {
        return nullptr;
    }
    if (!MrcIpv6ReceiveTakeover::IsPossible(node) || !node->GetObject<MrcL4Protocol>())
    {
        NS_LOG_WARN("node " << node->GetId()
                            << ": not installed (needs IPv6, traffic control and MrcL4Protocol, "
                               "no IPv4)");
        return nullptr;
    }
    pipeline->Attach(node);
    node->AggregateObject(pipeline);
    return pipeline;
}

void
MrcHostPipeline::Attach(Ptr<Node> node)
{
    m_node = node;
    m_ipv6 = node->GetObject<Ipv6L3Protocol>();
    m_tc = node->GetObject<TrafficControlLayer>();
    m_l4 = node->GetObject<MrcL4Protocol>();
    BooleanValue strong;
    m_ipv6->GetAttribute("StrongEndSystemModel", strong);
    m_strongEndSystem = strong.Get();
    m_forward = MakeCallback(&MrcHostPipeline::Forward, this);
    m_forwardMulticast = MakeCallback(&MrcHostPipeline::ForwardMulticast, this);
    m_deliver = MakeCallback(&MrcHostPipeline::Deliver, this);
    m_routeError = MakeCallback(&MrcHostPipeline::RouteError, this);

    m_interfaceOf.assign(node->GetNDevices(), -1);
    m_served =
        MrcIpv6ReceiveTakeover::Apply(node,
                                      MakeCallback(&MrcHostPipeline::Receive, this),
                                      [this](uint32_t index, Ptr<Ipv6Interface> interface) {
                                          m_interfaceOf[interface->GetDevice()->GetIfIndex()] =
                                              static_cast<int32_t>(index);
                                      });
}

void
MrcHostPipeline::DoDispose()
{
    m_node = nullptr;
    m_ipv6 = nullptr;
    m_tc = nullptr;
    m_l4 = nullptr;
    m_srv6 = nullptr;
    m_interfaceOf.clear();
    m_served.clear();
    m_forward = Ipv6RoutingProtocol::UnicastForwardCallback();
    m_forwardMulticast = Ipv6RoutingProtocol::MulticastForwardCallback();
    m_deliver = Ipv6RoutingProtocol::LocalDeliverCallback();
    m_routeError = Ipv6RoutingProtocol::ErrorCallback();
    Object::DoDispose();
}

uint64_t
MrcHostPipeline::GetDeliveredPackets() const
{
    return m_delivered;
}

uint64_t
MrcHostPipeline::GetSlowPathPackets() const
{
    return m_slowPath;
}

uint64_t
MrcHostPipeline::GetMisroutedPackets() const
{
    return m_misrouted;
}

const Ptr<MrcIpv6Srv6HostRouting>&
MrcHostPipeline::GetSrv6()
{
    if (!m_srv6Resolved)
    {
        m_srv6Resolved = true;
        Ptr<Ipv6RoutingProtocol> routing = m_ipv6->GetRoutingProtocol();
        m_srv6 = DynamicCast<MrcIpv6Srv6HostRouting>(routing);
        if (Ptr<Ipv6ListRouting> list = DynamicCast<Ipv6ListRouting>(routing))
        {
            for (uint32_t i = 0; !m_srv6 && i < list->GetNRoutingProtocols(); ++i)
            {
                int16_t priority = 0;
                m_srv6 = DynamicCast<MrcIpv6Srv6HostRouting>(list->GetRoutingProtocol(i, priority));
            }
        }
    }
    return m_srv6;
}

bool
MrcHostPipeline::NeedsSlowPath(uint32_t index,
                               const Ipv6Header& header,
                               const Ptr<Packet>& packet,
                               bool& local)
{
    const Ipv6Address dst = header.GetDestination();
    if (header.GetNextHeader() != kMrcUdpProtocolNumber || dst.IsMulticast()
        || header.GetPayloadLength() > packet->GetSize() || Node::ChecksumEnabled()
        || !m_ipv6->GetInterface(index)->IsUp())
    {
        return true;
    }
    UdpHeader udp;
    if (packet->GetSize() < udp.GetSerializedSize())
    {
        return true;
    }
    packet->PeekHeader(udp);
    if (udp.GetDestinationPort() != kMrcUdpPort)
    {
        return true;
    }
    // Ipv6L3Protocol::Receive delivers to an address of the input interface, or of any
    // interface under the weak end-system model, before it asks the routing.
    const int32_t owner = m_ipv6->GetInterfaceForAddress(dst);
    local = owner >= 0;
    if (local)
    {
        return m_strongEndSystem && owner != static_cast<int32_t>(index);
    }
    const Ptr<MrcIpv6Srv6HostRouting>& srv6 = GetSrv6();
    return !srv6 || !srv6->IsLocalSid(dst);
}

void
MrcHostPipeline::Receive(Ptr<NetDevice> device,
                         Ptr<const Packet> p,
                         uint16_t protocol,
                         const Address& from,
                         const Address& to,
                         NetDevice::PacketType type)
{
    const uint32_t devIndex = device->GetIfIndex();
    if (devIndex >= m_served.size() || !m_served[devIndex])
    {
        return; // not a port of this pipeline: ns-3's own handler for the device has it
    }
    const int32_t index = devIndex < m_interfaceOf.size() ? m_interfaceOf[devIndex] : -1;
    Ipv6Header header = m_blankHeader;
    Ptr<Packet> packet;
    bool local = false;
    if (index >= 0 && p->GetSize() >= header.GetSerializedSize())
    {
        packet = p->Copy();
        if (packet->RemoveHeader(header) == 0
            || NeedsSlowPath(static_cast<uint32_t>(index), header, packet, local))
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
    if (local)
    {
        Deliver(packet, header, static_cast<uint32_t>(index));
    }
    else if (!m_srv6->RouteInput(packet,
                                 header,
                                 device,
                                 m_forward,
                                 m_forwardMulticast,
                                 m_deliver,
                                 m_routeError))
    {
        ++m_misrouted;
        NS_LOG_WARN("the SRv6 routing refused local SID " << header.GetDestination()
                                                          << ": dropped");
    }
    m_receiving = nullptr;
}

void
MrcHostPipeline::Deliver(Ptr<const Packet> p, const Ipv6Header& header, uint32_t interface)
{
    // As UdpL4Protocol::Receive (checksums off) and Ipv6EndPoint::ForwardUp. The copy Receive
    // made is this host's own: deliver it rather than copy it again; anything else the
    // routing hands over (an SRH rewritten into a new packet) is copied as ns-3 does.
    Ptr<Packet> packet = PeekPointer(p) == PeekPointer(m_receiving) ? m_receiving : p->Copy();
    m_receiving = nullptr;
    UdpHeader udp;
    packet->RemoveHeader(udp);
    ++m_delivered;
    m_l4->Receive(packet, header, udp.GetSourcePort(), m_ipv6->GetInterface(interface));
}

void
MrcHostPipeline::Forward(Ptr<const NetDevice> idev,
                         Ptr<Ipv6Route> route,
                         Ptr<const Packet> p,
                         const Ipv6Header& header)
{
    ++m_misrouted;
    NS_LOG_WARN("the SRv6 routing forwards a local SID " << header.GetDestination() << ": dropped");
}

void
MrcHostPipeline::ForwardMulticast(Ptr<const NetDevice> idev,
                                  Ptr<Ipv6MulticastRoute> route,
                                  Ptr<const Packet> p,
                                  const Ipv6Header& header)
{
    ++m_misrouted;
    NS_LOG_WARN("multicast route for " << header.GetDestination() << ": dropped");
}

void
MrcHostPipeline::RouteError(Ptr<const Packet> p,
                            const Ipv6Header& header,
                            Socket::SocketErrno error)
{
    ++m_misrouted;
    NS_LOG_WARN("route error " << error << " for " << header.GetDestination() << ": dropped");
}

} // namespace ns3
