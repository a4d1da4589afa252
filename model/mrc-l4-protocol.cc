/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-l4-protocol.h"

#include "mrc-bth-header.h"
#include "mrc-header-types.h"
#include "mrc-queue-pair.h"
#include "mrc-segment-routing-header.h"
#include "mrc-wire-size.h"

#include "ns3/ipv6-end-point.h"
#include "ns3/ipv6-interface.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/loopback-net-device.h"
#include "ns3/node.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/udp-header.h"
#include "ns3/udp-l4-protocol.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcL4Protocol");

NS_OBJECT_ENSURE_REGISTERED(MrcL4Protocol);

TypeId
MrcL4Protocol::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcL4Protocol")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcL4Protocol>()
            .AddTraceSource("Tx",
                            "A packet leaves a NIC port: IPv6 payload, outer header, plane.",
                            MakeTraceSourceAccessor(&MrcL4Protocol::m_txTrace),
                            "ns3::MrcL4Protocol::PacketTracedCallback")
            .AddTraceSource("TxPath",
                            "A packet leaves a NIC port, as Tx, with its wire path (EV, plane, "
                            "carriers, the peer's address on that plane).",
                            MakeTraceSourceAccessor(&MrcL4Protocol::m_txPathTrace),
                            "ns3::MrcL4Protocol::PathTracedCallback")
            .AddTraceSource("Rx",
                            "A packet arrives: IPv6 payload (from BTH), outer header, plane.",
                            MakeTraceSourceAccessor(&MrcL4Protocol::m_rxTrace),
                            "ns3::MrcL4Protocol::PacketTracedCallback")
            .AddTraceSource("Drop",
                            "An arriving packet is dropped before any queue pair: packet, "
                            "header, reason.",
                            MakeTraceSourceAccessor(&MrcL4Protocol::m_dropTrace),
                            "ns3::MrcL4Protocol::DropTracedCallback");
    return tid;
}

MrcL4Protocol::MrcL4Protocol() = default;

MrcL4Protocol::~MrcL4Protocol() = default;

void
MrcL4Protocol::NotifyNewAggregate()
{
    if (!m_node)
    {
        Ptr<Node> node = GetObject<Node>();
        Ptr<UdpL4Protocol> udp = node ? node->GetObject<UdpL4Protocol>() : nullptr;
        if (node && udp)
        {
            m_node = node;
            m_ipv6 = node->GetObject<Ipv6L3Protocol>();
            m_endPoint = udp->Allocate6(nullptr, kMrcUdpPort);
            NS_ABORT_MSG_IF(!m_endPoint, "MrcL4Protocol: UDP port 4791 is already taken");
            m_endPoint->SetRxCallback(MakeCallback(&MrcL4Protocol::Receive, this));
        }
    }
    Object::NotifyNewAggregate();
}

void
MrcL4Protocol::DoDispose()
{
    for (auto& port : m_ports)
    {
        port->Clear();
    }
    m_ports.clear();
    for (auto& [qpn, qp] : m_qps)
    {
        qp->Dispose();
    }
    m_qps.clear();
    m_txInterfaces.clear();
    m_tc = nullptr;
    // The endpoint belongs to UdpL4Protocol's demultiplexer, which frees it on its own disposal
    // (the node may dispose UDP first): only forget it here.
    m_endPoint = nullptr;
    m_node = nullptr;
    m_ipv6 = nullptr;
    Object::DoDispose();
}

Ptr<Node>
MrcL4Protocol::GetNode() const
{
    return m_node;
}

void
MrcL4Protocol::AddPort(uint32_t plane, uint32_t interface, DataRate rate)
{
    if (plane != m_ports.size())
    {
        throw std::invalid_argument("MrcL4Protocol::AddPort: planes must be added in order");
    }
    m_ports.push_back(Create<MrcNicPort>(this, plane, rate));
    m_planeOfInterface[interface] = plane;
    Ptr<Ipv6L3Protocol> ipv6 = m_node ? m_node->GetObject<Ipv6L3Protocol>() : nullptr;
    if (ipv6 && interface < ipv6->GetNInterfaces())
    {
        m_ports.back()->SetDevice(ipv6->GetInterface(interface)->GetDevice());
        ipv6->GetInterface(interface)->GetDevice()->AddLinkChangeCallback(
            MakeCallback(&MrcL4Protocol::OnDeviceLinkChange, this, plane));
    }
}

void
MrcL4Protocol::OnDeviceLinkChange(uint32_t plane)
{
    Ptr<Ipv6L3Protocol> ipv6 = m_node->GetObject<Ipv6L3Protocol>();
    for (const auto& [interface, p] : m_planeOfInterface)
    {
        if (p != plane)
        {
            continue;
        }
        const bool up = ipv6->GetInterface(interface)->GetDevice()->IsLinkUp();
        if (up != m_ports.at(plane)->IsUp())
        {
            NS_LOG_INFO("NIC port " << plane << " link " << (up ? "up" : "down"));
            SetPortUp(plane, up);
        }
    }
}

Ptr<MrcNicPort>
MrcL4Protocol::GetPort(uint32_t plane) const
{
    return m_ports.at(plane);
}

uint32_t
MrcL4Protocol::GetPortCount() const
{
    return m_ports.size();
}

void
MrcL4Protocol::SetPortUp(uint32_t plane, bool up)
{
    m_ports.at(plane)->SetUp(up);
    for (auto& [qpn, qp] : m_qps)
    {
        qp->NotifyLocalPortState(plane, up);
    }
}

uint8_t
MrcL4Protocol::GetPortStateBitmap() const
{
    uint8_t bitmap = 0;
    for (uint32_t p = 0; p < m_ports.size() && p < 8; ++p)
    {
        if (!m_ports[p]->IsUp())
        {
            bitmap |= uint8_t(1u << p);
        }
    }
    return bitmap;
}

Ptr<MrcQueuePair>
MrcL4Protocol::CreateQueuePair()
{
    if (m_nextQpn > kMrcPsnMask)
    {
        throw std::length_error("MrcL4Protocol: QP numbers are exhausted (24 bits)");
    }
    Ptr<MrcQueuePair> qp = CreateObject<MrcQueuePair>();
    qp->Attach(this, m_nextQpn);
    m_qps[m_nextQpn++] = qp;
    return qp;
}

Ptr<MrcQueuePair>
MrcL4Protocol::GetQueuePair(uint32_t qpn) const
{
    auto it = m_qps.find(qpn);
    return it == m_qps.end() ? nullptr : it->second;
}

uint32_t
MrcL4Protocol::GetWireSize(uint32_t mrcBytes, const MrcWirePath& path)
{
    return MrcWireBytes(mrcBytes, static_cast<uint32_t>(path.carriers.size()));
}

void
MrcL4Protocol::Transmit(Ptr<Packet> packet, const MrcWirePath& path, uint8_t dscp, bool ect)
{
    UdpHeader udp;
    udp.SetSourcePort(static_cast<uint16_t>(path.ev & 0xffff));
    udp.SetDestinationPort(kMrcUdpPort);
    packet->AddHeader(udp);
    uint8_t next = kMrcUdpProtocolNumber;
    if (path.carriers.size() > 1)
    {
        MrcSegmentRoutingHeader srh;
        srh.SetNextHeader(next);
        srh.SetSegments(std::vector<Ipv6Address>(path.carriers.rbegin(), path.carriers.rend()));
        srh.SetSegmentsLeft(static_cast<uint8_t>(path.carriers.size() - 1));
        packet->AddHeader(srh);
        next = MrcSegmentRoutingHeader::kProtocolNumber;
    }
    Ipv6Header h = m_blankHeader;
    h.SetSource(path.source);
    h.SetDestination(path.carriers.front());
    h.SetNextHeader(next);
    h.SetPayloadLength(packet->GetSize());
    h.SetHopLimit(64);
    h.SetTrafficClass(static_cast<uint8_t>(dscp << 2 | (ect ? Ipv6Header::ECN_ECT0 : 0)));
    h.SetFlowLabel((path.ev >> 16) & 0xffff);
    m_txTrace(packet, h, path.plane);
    m_txPathTrace(packet, h, path);
    const TxInterface& out = GetTxInterface(path.interface);
    if (out.direct && out.interface->IsUp() && !HasAddress(out.interface, h.GetDestination()))
    {
        // What ns-3's Ipv6Interface::Send does for such a device and destination, without the
        // per-packet object lookups, casts and the broadcast address parsed from a string.
        m_tc->Send(out.device,
                   Create<Ipv6QueueDiscItem>(packet, out.broadcast, kMrcIpv6EtherType, h));
        return;
    }
    out.interface->Send(packet, h, h.GetDestination());
}

const MrcL4Protocol::TxInterface&
MrcL4Protocol::GetTxInterface(uint32_t index)
{
    if (index >= m_txInterfaces.size())
    {
        m_txInterfaces.resize(index + 1);
    }
    TxInterface& out = m_txInterfaces[index];
    if (!out.interface)
    {
        out.interface = m_ipv6->GetInterface(index);
        out.device = out.interface->GetDevice();
        out.broadcast = out.device->GetBroadcast();
        m_tc = m_tc ? m_tc : m_node->GetObject<TrafficControlLayer>();
        out.direct = m_tc && !out.device->NeedsArp() && !DynamicCast<LoopbackNetDevice>(out.device);
    }
    return out;
}

bool
MrcL4Protocol::HasAddress(const Ptr<Ipv6Interface>& interface, const Ipv6Address& address)
{
    for (uint32_t i = 0; i < interface->GetNAddresses(); ++i)
    {
        if (interface->GetAddress(i).GetAddress() == address)
        {
            return true;
        }
    }
    return false;
}

void
MrcL4Protocol::Drop(Ptr<const Packet> packet, const Ipv6Header& header, DropReason reason)
{
    NS_LOG_LOGIC("drop from " << header.GetSource() << ": " << reason);
    m_dropped[reason]++;
    m_dropTrace(packet, header, reason);
}

uint64_t
MrcL4Protocol::GetDroppedPackets(DropReason reason) const
{
    auto it = m_dropped.find(reason);
    return it == m_dropped.end() ? 0 : it->second;
}

void
MrcL4Protocol::Receive(Ptr<Packet> packet,
                       Ipv6Header header,
                       uint16_t sport,
                       Ptr<Ipv6Interface> interface)
{
    const int32_t index = m_ipv6->GetInterfaceForDevice(interface->GetDevice());
    auto pit = m_planeOfInterface.find(index);
    const uint32_t plane = pit == m_planeOfInterface.end() ? 0 : pit->second;
    m_rxTrace(packet, header, plane);
    if (plane < m_ports.size() && !m_ports[plane]->IsUp())
    {
        Drop(packet, header, DropReason::PORT_DOWN);
        return;
    }
    MrcBthHeader bth;
    packet->PeekHeader(bth);
    if (!bth.IsValid())
    {
        NS_LOG_WARN("malformed BTH: " << bth.GetError());
        Drop(packet, header, DropReason::MALFORMED);
        return;
    }
    Ptr<MrcQueuePair> qp = GetQueuePair(bth.GetDestQp());
    if (!qp)
    {
        Drop(packet, header, DropReason::UNKNOWN_QP);
        return;
    }
    packet->RemoveHeader(bth);
    const uint32_t ev = (header.GetFlowLabel() & 0xffff) << 16 | sport;
    qp->Receive(packet, bth, header, ev, plane);
}

std::ostream&
operator<<(std::ostream& os, MrcL4Protocol::DropReason r)
{
    switch (r)
    {
        case MrcL4Protocol::DropReason::MALFORMED:
            return os << "MALFORMED";
        case MrcL4Protocol::DropReason::UNKNOWN_QP:
            return os << "UNKNOWN_QP";
        case MrcL4Protocol::DropReason::PORT_DOWN:
            return os << "PORT_DOWN";
    }
    return os << "?";
}

} // namespace ns3
