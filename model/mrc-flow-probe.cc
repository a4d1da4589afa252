/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-flow-probe.h"

#include "mrc-bth-header.h"
#include "mrc-fabric-drop-monitor.h"
#include "mrc-flow-probe-tag.h"
#include "mrc-header-types.h"
#include "mrc-l4-protocol.h"
#include "mrc-wire-size.h"

#include "ns3/flow-monitor.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/queue-disc.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/udp-header.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcFlowProbe");

NS_OBJECT_ENSURE_REGISTERED(MrcFlowProbe);

TypeId
MrcFlowProbe::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcFlowProbe").SetParent<FlowProbe>().SetGroupName("Mrc");
    return tid;
}

Ptr<FlowMonitor>
MrcFlowProbe::CheckArguments(Ptr<FlowMonitor> monitor,
                             Ptr<Ipv6FlowClassifier> classifier,
                             Ptr<Node> node)
{
    if (!monitor || !classifier || !node)
    {
        throw std::invalid_argument("MrcFlowProbe: the monitor, the classifier and the node "
                                    "must not be null");
    }
    if (!node->GetObject<Ipv6L3Protocol>())
    {
        throw std::invalid_argument("MrcFlowProbe: node " + std::to_string(node->GetId())
                                    + " has no IPv6 stack (the fabric's hosts and switches have)");
    }
    return monitor;
}

MrcFlowProbe::MrcFlowProbe(Ptr<FlowMonitor> monitor,
                           Ptr<Ipv6FlowClassifier> classifier,
                           Ptr<Node> node)
    : FlowProbe(CheckArguments(monitor, classifier, node))
    , m_classifier(classifier)
    , m_l4(node->GetObject<MrcL4Protocol>())
{
    NS_LOG_FUNCTION(this << node->GetId());
    if (m_l4)
    {
        m_traces.Connect(m_l4, "TxPath", MakeCallback(&MrcFlowProbe::TxLogger, this));
        m_traces.Connect(m_l4, "Rx", MakeCallback(&MrcFlowProbe::RxLogger, this));
    }
    Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
    for (uint32_t d = 0; d < node->GetNDevices(); ++d)
    {
        Ptr<NetDevice> device = node->GetDevice(d);
        if (Ptr<QueueDisc> q = tc ? tc->GetRootQueueDiscOnDevice(device) : nullptr)
        {
            m_traces.Connect(q, "Drop", MakeCallback(&MrcFlowProbe::QueueDiscDropLogger, this));
        }
        // FaultDrop fires before the MacTxDrop or PhyRxDrop of the same frame.
        m_traces.Connect(device, "FaultDrop", MakeCallback(&MrcFlowProbe::FaultDropLogger, this));
        m_traces.Connect(device, "MacTxDrop", MakeCallback(&MrcFlowProbe::DeviceDropLogger, this));
        m_traces.Connect(device, "PhyRxDrop", MakeCallback(&MrcFlowProbe::DeviceDropLogger, this));
    }
    for (Ptr<Ipv6RoutingProtocol> r : MrcFabricDropMonitor::GetRoutingProtocols(node))
    {
        if (DynamicCast<MrcIpv6EcmpRouting>(r))
        {
            m_traces.Connect(
                r,
                "Drop",
                MakeCallback(&MrcFlowProbe::RoutingDropLogger<MrcIpv6EcmpRouting::DropReason>,
                             this));
            m_traces.Connect(r,
                             "Forward",
                             MakeCallback(&MrcFlowProbe::ForwardLogger<uint32_t, uint32_t>, this));
        }
        else if (DynamicCast<MrcIpv6Srv6Routing>(r))
        {
            m_traces.Connect(
                r,
                "Drop",
                MakeCallback(&MrcFlowProbe::RoutingDropLogger<MrcIpv6Srv6Routing::DropReason>,
                             this));
            m_traces.Connect(r,
                             "Forward",
                             MakeCallback(&MrcFlowProbe::ForwardLogger<uint32_t>, this));
        }
        else if (DynamicCast<MrcIpv6Srv6HostRouting>(r))
        {
            m_traces.Connect(
                r,
                "Drop",
                MakeCallback(&MrcFlowProbe::RoutingDropLogger<MrcIpv6Srv6HostRouting::DropReason>,
                             this));
        }
    }
    if (Ptr<MrcSwitchPipeline> pipeline = node->GetObject<MrcSwitchPipeline>())
    {
        m_traces.Connect(
            pipeline,
            "Drop",
            MakeCallback(&MrcFlowProbe::RoutingDropLogger<MrcSwitchPipeline::DropReason>, this));
    }
    m_traces.Connect(node->GetObject<Ipv6L3Protocol>(),
                     "Drop",
                     MakeCallback(&MrcFlowProbe::Ipv6DropLogger, this));
}

MrcFlowProbe::~MrcFlowProbe() = default;

void
MrcFlowProbe::DoDispose()
{
    m_traces.DisconnectAll();
    m_l4 = nullptr;
    m_classifier = nullptr;
    FlowProbe::DoDispose();
}

void
MrcFlowProbe::TxLogger(Ptr<const Packet> packet, const Ipv6Header& header, const MrcWirePath& path)
{
    const uint32_t udpAt = MrcSrhBytes(static_cast<uint32_t>(path.carriers.size()));
    const uint32_t bthAt = udpAt + kMrcUdpHeaderBytes;
    if (packet->GetSize() < bthAt + MrcBthHeader::kSize)
    {
        NS_LOG_WARN("a packet of " << packet->GetSize() << " bytes has no room for its BTH");
        return;
    }
    MrcBthHeader bth;
    packet->CreateFragment(bthAt, MrcBthHeader::kSize)->PeekHeader(bth);

    // The flow: sending port, the peer's port on this plane, UDP, destination QP, 4791.
    Ipv6Header flowHeader = header;
    flowHeader.SetDestination(path.destination.IsAny() ? header.GetDestination()
                                                       : path.destination);
    flowHeader.SetNextHeader(kMrcUdpProtocolNumber);
    UdpHeader ports;
    ports.SetSourcePort(static_cast<uint16_t>(bth.GetDestQp() & 0xffff));
    ports.SetDestinationPort(kMrcUdpPort);
    Ptr<Packet> key = Create<Packet>();
    key->AddHeader(ports);
    uint32_t flowId = 0;
    uint32_t packetId = 0;
    if (!m_classifier->Classify(flowHeader, key, &flowId, &packetId))
    {
        NS_LOG_LOGIC("not classified (multicast destination " << flowHeader.GetDestination()
                                                              << ")");
        return;
    }
    const uint32_t ipBytes = header.GetSerializedSize() + packet->GetSize();
    const uint32_t mrcBytes = packet->GetSize() - bthAt;
    NS_LOG_LOGIC("flow " << flowId << " packet " << packetId << ": " << ipBytes << " bytes");
    m_flowMonitor->ReportFirstTx(this, flowId, packetId, ipBytes);
    MrcFlowProbeTag tag(flowId, packetId, ipBytes, mrcBytes);
    MrcFlowProbeTag old;
    if (packet->PeekPacketTag(old))
    {
        // The same packet object sent again (MRC builds a packet per transmission, but a
        // policy of one's own might not): this transmission's ids replace the old ones.
        ConstCast<Packet>(packet)->ReplacePacketTag(tag);
        return;
    }
    packet->AddPacketTag(tag);
}

void
MrcFlowProbe::RxLogger(Ptr<const Packet> packet, const Ipv6Header& header, uint32_t plane)
{
    MrcFlowProbeTag tag;
    if (!packet->PeekPacketTag(tag))
    {
        // Sent by a host without a probe, or before the probe existed.
        return;
    }
    if (packet->GetSize() < tag.GetMrcBytes())
    {
        NS_LOG_LOGIC("flow " << tag.GetFlowId() << " packet " << tag.GetPacketId()
                             << " arrived trimmed on plane " << plane);
        m_flowMonitor->ReportDrop(this,
                                  tag.GetFlowId(),
                                  tag.GetPacketId(),
                                  tag.GetIpBytes(),
                                  DROP_TRIMMED);
        return;
    }
    m_flowMonitor->ReportLastRx(this, tag.GetFlowId(), tag.GetPacketId(), tag.GetIpBytes());
}

void
MrcFlowProbe::ReportDrop(Ptr<const Packet> packet, DropReason reason)
{
    MrcFlowProbeTag tag;
    if (!packet || !packet->PeekPacketTag(tag))
    {
        return;
    }
    const std::pair<uint32_t, uint32_t> key{tag.GetFlowId(), tag.GetPacketId()};
    if (key == m_lastDrop)
    {
        return; // the second trace of the same loss
    }
    m_lastDrop = key;
    NS_LOG_LOGIC("flow " << key.first << " packet " << key.second << " dropped: " << reason);
    m_flowMonitor->ReportDrop(this, key.first, key.second, tag.GetIpBytes(), reason);
}

template<typename... Rest>
void
MrcFlowProbe::ForwardLogger(Ptr<const Packet> packet, const Ipv6Header& header, Rest...)
{
    MrcFlowProbeTag tag;
    if (!packet->PeekPacketTag(tag))
    {
        return;
    }
    const uint32_t bytes = header.GetSerializedSize() + packet->GetSize();
    NS_LOG_LOGIC("flow " << tag.GetFlowId() << " packet " << tag.GetPacketId() << " forwarded, "
                         << bytes << " bytes");
    m_flowMonitor->ReportForwarding(this, tag.GetFlowId(), tag.GetPacketId(), bytes);
}

void
MrcFlowProbe::QueueDiscDropLogger(Ptr<const QueueDiscItem> item)
{
    ReportDrop(item->GetPacket(), DROP_QUEUE_DISC);
}

void
MrcFlowProbe::DeviceDropLogger(Ptr<const Packet> packet)
{
    ReportDrop(packet, DROP_DEVICE);
}

void
MrcFlowProbe::FaultDropLogger(Ptr<const Packet> packet, MrcFabricLossCause)
{
    ReportDrop(packet, DROP_DEVICE);
}

template<typename Reason>
void
MrcFlowProbe::RoutingDropLogger(Ptr<const Packet> packet, const Ipv6Header&, Reason)
{
    ReportDrop(packet, DROP_ROUTING);
}

void
MrcFlowProbe::Ipv6DropLogger(const Ipv6Header&,
                             Ptr<const Packet> packet,
                             Ipv6L3Protocol::DropReason,
                             Ptr<Ipv6>,
                             uint32_t)
{
    ReportDrop(packet, DROP_ROUTING);
}

} // namespace ns3
