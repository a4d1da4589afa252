/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ipv6-srv6-host-routing.h"

#include "mrc-segment-routing-header.h"

#include "ns3/ipv6-l3-protocol.h"
#include "ns3/ipv6-route.h"
#include "ns3/log.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/packet.h"
#include "ns3/socket.h"

#include <algorithm>
#include <iomanip>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcIpv6Srv6HostRouting");

NS_OBJECT_ENSURE_REGISTERED(MrcIpv6Srv6HostRouting);

namespace
{
constexpr uint8_t kIpv6InIpv6 = 41; //!< IANA protocol number of an encapsulated IPv6 packet
} // namespace

TypeId
MrcIpv6Srv6HostRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcIpv6Srv6HostRouting")
            .SetParent<MrcIpv6FabricRouting>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcIpv6Srv6HostRouting>()
            .AddTraceSource("Decap",
                            "An SRv6 packet ended here and its inner packet was delivered.",
                            MakeTraceSourceAccessor(&MrcIpv6Srv6HostRouting::m_decapTrace),
                            "ns3::MrcIpv6Srv6HostRouting::DecapTracedCallback")
            .AddTraceSource("Drop",
                            "A packet addressed to a local uSID was dropped: packet, outer "
                            "header, reason.",
                            MakeTraceSourceAccessor(&MrcIpv6Srv6HostRouting::m_dropTrace),
                            "ns3::MrcIpv6Srv6HostRouting::DropTracedCallback");
    return tid;
}

MrcIpv6Srv6HostRouting::MrcIpv6Srv6HostRouting() = default;

MrcIpv6Srv6HostRouting::~MrcIpv6Srv6HostRouting() = default;

void
MrcIpv6Srv6HostRouting::SetCarrier(const MrcUsidCarrier& carrier)
{
    m_carrier = carrier;
}

const MrcUsidCarrier&
MrcIpv6Srv6HostRouting::GetCarrier() const
{
    return m_carrier;
}

void
MrcIpv6Srv6HostRouting::AddLocalUsid(uint16_t usid, uint32_t interface)
{
    m_local[usid] = interface;
}

uint64_t
MrcIpv6Srv6HostRouting::GetDecapsulatedPackets() const
{
    return m_decapsulated;
}

uint64_t
MrcIpv6Srv6HostRouting::GetUpperLayerPackets() const
{
    return m_deliveredUpperLayer;
}

uint64_t
MrcIpv6Srv6HostRouting::GetEncapsulatedPackets() const
{
    return m_encapsulated;
}

uint64_t
MrcIpv6Srv6HostRouting::GetDroppedPackets(DropReason reason) const
{
    auto it = m_dropped.find(reason);
    return it == m_dropped.end() ? 0 : it->second;
}

void
MrcIpv6Srv6HostRouting::Drop(Ptr<const Packet> p, const Ipv6Header& h, DropReason reason)
{
    NS_LOG_LOGIC("drop " << h.GetDestination() << ": " << reason);
    m_dropped[reason]++;
    m_dropTrace(p, h, reason);
}

void
MrcIpv6Srv6HostRouting::Send(Ptr<Packet> packet,
                             uint8_t protocol,
                             Ipv6Address innerSource,
                             Ipv6Address innerDestination,
                             const std::vector<Ipv6Address>& carriers,
                             uint32_t interface,
                             uint8_t dscp,
                             bool forceSrh)
{
    NS_LOG_FUNCTION(this << packet << innerDestination << carriers.size() << interface);
    if (carriers.empty())
    {
        throw std::invalid_argument("MrcIpv6Srv6HostRouting::Send: the path has no carrier");
    }
    Ptr<Ipv6> ipv6 = GetIpv6();
    if (interface == 0 || interface >= ipv6->GetNInterfaces())
    {
        throw std::invalid_argument("MrcIpv6Srv6HostRouting::Send: interface (="
                                    + std::to_string(interface) + ") must be in 1.."
                                    + std::to_string(ipv6->GetNInterfaces() - 1));
    }
    Ipv6Header inner;
    inner.SetSource(innerSource);
    inner.SetDestination(innerDestination);
    inner.SetNextHeader(protocol);
    inner.SetPayloadLength(packet->GetSize());
    inner.SetHopLimit(64);
    inner.SetTrafficClass(static_cast<uint8_t>(dscp << 2));
    packet->AddHeader(inner);

    uint8_t outerProtocol = kIpv6InIpv6;
    if (carriers.size() > 1 || forceSrh)
    {
        // Segment List[0] is the last carrier; Segments Left points at the one in use.
        MrcSegmentRoutingHeader srh;
        srh.SetNextHeader(kIpv6InIpv6);
        srh.SetSegments(std::vector<Ipv6Address>(carriers.rbegin(), carriers.rend()));
        srh.SetSegmentsLeft(static_cast<uint8_t>(carriers.size() - 1));
        packet->AddHeader(srh);
        outerProtocol = MrcSegmentRoutingHeader::kProtocolNumber;
    }
    // The outer source is the NIC port's global address.
    Ipv6Address source = innerSource;
    for (uint32_t a = 0; a < ipv6->GetNAddresses(interface); ++a)
    {
        const Ipv6Address addr = ipv6->GetAddress(interface, a).GetAddress();
        if (!addr.IsLinkLocal())
        {
            source = addr;
            break;
        }
    }
    Ptr<Ipv6Route> route = MakeRoute(interface, carriers.front());
    route->SetSource(source);
    SocketIpv6TclassTag tclass;
    tclass.SetTclass(static_cast<uint8_t>(dscp << 2));
    packet->ReplacePacketTag(tclass);
    ++m_encapsulated;
    DynamicCast<Ipv6L3Protocol>(ipv6)->Send(packet, source, carriers.front(), outerProtocol, route);
}

Ptr<Ipv6Route>
MrcIpv6Srv6HostRouting::RouteOutput(Ptr<Packet> p,
                                    const Ipv6Header& header,
                                    Ptr<NetDevice> oif,
                                    Socket::SocketErrno& sockerr)
{
    // Ordinary traffic is routed by the host's static routing.
    sockerr = Socket::ERROR_NOROUTETOHOST;
    return nullptr;
}

bool
MrcIpv6Srv6HostRouting::IsLocalSid(Ipv6Address destination) const
{
    return m_local.count(m_carrier.GetActive(destination)) != 0
           && m_carrier.IsEndOfCarrier(destination);
}

bool
MrcIpv6Srv6HostRouting::RouteInput(Ptr<const Packet> p,
                                   const Ipv6Header& header,
                                   Ptr<const NetDevice> idev,
                                   Ipv6RouteInputCbArg<UnicastForwardCallback> ucb,
                                   Ipv6RouteInputCbArg<MulticastForwardCallback> mcb,
                                   Ipv6RouteInputCbArg<LocalDeliverCallback> lcb,
                                   Ipv6RouteInputCbArg<ErrorCallback> ecb)
{
    const Ipv6Address dst = header.GetDestination();
    auto it = m_local.find(m_carrier.GetActive(dst));
    if (it == m_local.end() || !m_carrier.IsEndOfCarrier(dst))
    {
        return false; // not an SRv6 packet for this host (as IsLocalSid)
    }
    NS_LOG_FUNCTION(this << p << dst);
    // Copied only when a header is removed: a packet that ends here with its transport
    // directly behind the IPv6 header is delivered as it came.
    Ptr<Packet> packet;
    uint8_t next = header.GetNextHeader();
    if (next == MrcSegmentRoutingHeader::kProtocolNumber)
    {
        MrcSegmentRoutingHeader srh;
        p->PeekHeader(srh);
        if (!srh.IsValid())
        {
            NS_LOG_WARN("malformed SRH: " << srh.GetError());
            Drop(p, header, DropReason::MALFORMED_SRH);
            return true;
        }
        if (srh.GetSegmentsLeft() != 0)
        {
            Drop(p, header, DropReason::SEGMENTS_LEFT);
            return true;
        }
        packet = p->Copy();
        packet->RemoveHeader(srh);
        next = srh.GetNextHeader();
    }
    if (next != kIpv6InIpv6)
    {
        // Upper-layer header processing (RFC 8986, 4.1.1): the path ends here and carries a
        // transport directly (MRC's UDP/4791): deliver it as addressed to this SID.
        const Ptr<const Packet> out = packet ? Ptr<const Packet>(packet) : p;
        Ipv6Header outer = header;
        outer.SetNextHeader(next);
        outer.SetPayloadLength(out->GetSize());
        ++m_deliveredUpperLayer;
        lcb(out, outer, it->second);
        return true;
    }
    if (!packet)
    {
        packet = p->Copy();
    }
    Ipv6Header inner;
    if (packet->GetSize() < inner.GetSerializedSize())
    {
        Drop(p, header, DropReason::TRUNCATED_INNER);
        return true;
    }
    packet->RemoveHeader(inner);
    if (inner.GetPayloadLength() != packet->GetSize())
    {
        Drop(p, header, DropReason::TRUNCATED_INNER);
        return true;
    }
    ++m_decapsulated;
    m_decapTrace(packet, inner);
    lcb(packet, inner, it->second);
    return true;
}

void
MrcIpv6Srv6HostRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit unit) const
{
    std::ostream& os = *stream->GetStream();
    os << DescribeNode(unit) << ", MrcIpv6Srv6HostRouting, local uSIDs";
    for (const auto& [usid, interface] : m_local)
    {
        os << " " << std::hex << std::setw(4) << std::setfill('0') << usid << std::dec
           << std::setfill(' ') << "(if " << interface << ")";
    }
    os << "\n";
}

std::ostream&
operator<<(std::ostream& os, MrcIpv6Srv6HostRouting::DropReason reason)
{
    switch (reason)
    {
        case MrcIpv6Srv6HostRouting::DropReason::MALFORMED_SRH:
            return os << "MALFORMED_SRH";
        case MrcIpv6Srv6HostRouting::DropReason::SEGMENTS_LEFT:
            return os << "SEGMENTS_LEFT";
        case MrcIpv6Srv6HostRouting::DropReason::TRUNCATED_INNER:
            return os << "TRUNCATED_INNER";
    }
    return os << "UNKNOWN";
}

} // namespace ns3
