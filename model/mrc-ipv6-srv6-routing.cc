/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ipv6-srv6-routing.h"

#include "mrc-segment-routing-header.h"

#include "ns3/boolean.h"
#include "ns3/ipv6-route.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/packet.h"

#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcIpv6Srv6Routing");

NS_OBJECT_ENSURE_REGISTERED(MrcIpv6Srv6Routing);

TypeId
MrcIpv6Srv6Routing::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcIpv6Srv6Routing")
            .SetParent<MrcIpv6FabricRouting>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcIpv6Srv6Routing>()
            .AddAttribute("ForwardUnmatched",
                          "Forward packets whose destination is not a local uSID by the static "
                          "table (true) or drop them (false).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcIpv6Srv6Routing::m_forwardUnmatched),
                          MakeBooleanChecker())
            .AddTraceSource("Shift",
                            "uN: the destination's uSIDs were shifted (before, after).",
                            MakeTraceSourceAccessor(&MrcIpv6Srv6Routing::m_shiftTrace),
                            "ns3::MrcIpv6Srv6Routing::ShiftTracedCallback")
            .AddTraceSource("Forward",
                            "A packet is forwarded: packet, IPv6 header as sent, interface.",
                            MakeTraceSourceAccessor(&MrcIpv6Srv6Routing::m_forwardTrace),
                            "ns3::MrcIpv6Srv6Routing::ForwardTracedCallback")
            .AddTraceSource("Drop",
                            "A packet is dropped: packet, IPv6 header, reason.",
                            MakeTraceSourceAccessor(&MrcIpv6Srv6Routing::m_dropTrace),
                            "ns3::MrcIpv6Srv6Routing::DropTracedCallback");
    return tid;
}

MrcIpv6Srv6Routing::MrcIpv6Srv6Routing() = default;

MrcIpv6Srv6Routing::~MrcIpv6Srv6Routing() = default;

void
MrcIpv6Srv6Routing::SetCarrier(const MrcUsidCarrier& carrier)
{
    m_carrier = carrier;
}

const MrcUsidCarrier&
MrcIpv6Srv6Routing::GetCarrier() const
{
    return m_carrier;
}

void
MrcIpv6Srv6Routing::AddLocalUsid(uint16_t usid)
{
    m_local.insert(usid);
}

std::set<uint16_t>
MrcIpv6Srv6Routing::GetLocalUsids() const
{
    return std::set<uint16_t>(m_local.begin(), m_local.end());
}

void
MrcIpv6Srv6Routing::AddRoute(Ipv6Address network, uint8_t prefixLength, uint32_t interface)
{
    m_table.AddRoute(network, prefixLength, {interface});
}

void
MrcIpv6Srv6Routing::SetForwardUnmatched(bool forward)
{
    m_forwardUnmatched = forward;
}

const MrcEcmpRouteTable&
MrcIpv6Srv6Routing::GetTable() const
{
    return m_table;
}

uint64_t
MrcIpv6Srv6Routing::GetForwardedPackets() const
{
    return m_forwarded;
}

uint64_t
MrcIpv6Srv6Routing::GetShiftedPackets() const
{
    return m_shifted;
}

uint64_t
MrcIpv6Srv6Routing::GetSrhAdvancedPackets() const
{
    return m_srhAdvanced;
}

uint64_t
MrcIpv6Srv6Routing::GetDroppedPackets(DropReason reason) const
{
    auto it = m_dropped.find(reason);
    return it == m_dropped.end() ? 0 : it->second;
}

void
MrcIpv6Srv6Routing::Drop(Ptr<const Packet> p, const Ipv6Header& h, DropReason reason)
{
    NS_LOG_LOGIC("drop " << h.GetDestination() << ": " << reason);
    m_dropped[reason]++;
    m_dropTrace(p, h, reason);
}

Ptr<Ipv6Route>
MrcIpv6Srv6Routing::RouteOutput(Ptr<Packet> p,
                                const Ipv6Header& header,
                                Ptr<NetDevice> oif,
                                Socket::SocketErrno& sockerr)
{
    const std::optional<uint32_t> interface = m_table.LookupFirst(header.GetDestination());
    if (!interface || (oif && GetIpv6()->GetNetDevice(*interface) != oif))
    {
        sockerr = Socket::ERROR_NOROUTETOHOST;
        return nullptr;
    }
    sockerr = Socket::ERROR_NOTERROR;
    return MakeRoute(*interface, header.GetDestination());
}

bool
MrcIpv6Srv6Routing::RouteInput(Ptr<const Packet> p,
                               const Ipv6Header& header,
                               Ptr<const NetDevice> idev,
                               Ipv6RouteInputCbArg<UnicastForwardCallback> ucb,
                               Ipv6RouteInputCbArg<MulticastForwardCallback> mcb,
                               Ipv6RouteInputCbArg<LocalDeliverCallback> lcb,
                               Ipv6RouteInputCbArg<ErrorCallback> ecb)
{
    NS_LOG_FUNCTION(this << p << header.GetDestination());
    if (header.GetDestination().IsMulticast())
    {
        Drop(p, header, DropReason::MULTICAST);
        return true;
    }
    Ipv6Header h = header;
    Ptr<const Packet> out = p;
    bool local = m_local.count(m_carrier.GetActive(h.GetDestination())) > 0;
    if (!local && !m_forwardUnmatched)
    {
        Drop(p, header, DropReason::UNMATCHED);
        return true;
    }
    // A carrier may name this switch more than once in a row; process until it does not.
    while (local)
    {
        const Ipv6Address before = h.GetDestination();
        if (!m_carrier.IsEndOfCarrier(before))
        {
            h.SetDestination(m_carrier.Shift(before));
            ++m_shifted;
            m_shiftTrace(before, h.GetDestination());
        }
        else if (h.GetNextHeader() == MrcSegmentRoutingHeader::kProtocolNumber)
        {
            MrcSegmentRoutingHeader srh;
            out->PeekHeader(srh);
            if (!srh.IsValid())
            {
                NS_LOG_WARN("malformed SRH: " << srh.GetError());
                Drop(p, header, DropReason::MALFORMED_SRH);
                return true;
            }
            if (srh.GetSegmentsLeft() == 0)
            {
                Drop(p, header, DropReason::PATH_ENDS_HERE);
                return true;
            }
            // End: next carrier from the SRH.
            Ptr<Packet> copy = out->Copy();
            copy->RemoveHeader(srh);
            srh.SetSegmentsLeft(srh.GetSegmentsLeft() - 1);
            h.SetDestination(srh.GetActiveSegment());
            copy->AddHeader(srh);
            out = copy;
            ++m_srhAdvanced;
        }
        else
        {
            Drop(p, header, DropReason::PATH_ENDS_HERE);
            return true;
        }
        local = m_local.count(m_carrier.GetActive(h.GetDestination())) > 0;
    }
    const std::optional<uint32_t> next = m_table.LookupFirst(h.GetDestination());
    if (!next)
    {
        Drop(out, h, DropReason::NO_ROUTE);
        return true;
    }
    const uint32_t interface = *next;
    ++m_forwarded;
    m_forwardTrace(out, h, interface);
    ucb(idev, GetRouteVia(interface), out, h);
    return true;
}

void
MrcIpv6Srv6Routing::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit unit) const
{
    std::ostream& os = *stream->GetStream();
    os << DescribeNode(unit) << ", MrcIpv6Srv6Routing, local uSIDs";
    for (uint16_t u : m_local)
    {
        os << " " << std::hex << std::setw(4) << std::setfill('0') << u << std::dec
           << std::setfill(' ');
    }
    os << "\n";
    for (const auto& route : m_table.GetRoutes())
    {
        std::ostringstream prefix;
        prefix << route.network << "/" << unsigned(route.prefixLength);
        os << std::left << std::setw(28) << prefix.str() << " via interface "
           << route.members.front() << "\n";
    }
}

std::ostream&
operator<<(std::ostream& os, MrcIpv6Srv6Routing::DropReason reason)
{
    switch (reason)
    {
        case MrcIpv6Srv6Routing::DropReason::NO_ROUTE:
            return os << "NO_ROUTE";
        case MrcIpv6Srv6Routing::DropReason::UNMATCHED:
            return os << "UNMATCHED";
        case MrcIpv6Srv6Routing::DropReason::PATH_ENDS_HERE:
            return os << "PATH_ENDS_HERE";
        case MrcIpv6Srv6Routing::DropReason::MALFORMED_SRH:
            return os << "MALFORMED_SRH";
        case MrcIpv6Srv6Routing::DropReason::MULTICAST:
            return os << "MULTICAST";
    }
    return os << "UNKNOWN";
}

} // namespace ns3
