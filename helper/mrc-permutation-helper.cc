/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-permutation-helper.h"

#include "mrc-ecmp-routing-helper.h"

#include "ns3/bulk-send-helper.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv6-header.h"
#include "ns3/log.h"
#include "ns3/on-off-helper.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcPermutationHelper");

namespace
{
constexpr uint32_t kIpv6Header = 40; //!< bytes
constexpr uint32_t kUdpHeader = 8;   //!< bytes
constexpr uint32_t kTcpHeader = 32;  //!< bytes, with the timestamp option ns-3 TCP sends
constexpr uint32_t kPppHeader = 2;   //!< bytes, PointToPointNetDevice framing
} // namespace

MrcPermutationHelper::MrcPermutationHelper(Ptr<MrcFabricTopology> topo)
    : m_topo(topo)
{
}

void
MrcPermutationHelper::SetBytesPerFlow(uint64_t bytes)
{
    if (bytes == 0)
    {
        throw std::invalid_argument("MrcPermutationHelper: bytes per flow must be > 0");
    }
    m_bytes = bytes;
}

void
MrcPermutationHelper::SetTransport(MrcPermutationTransport transport)
{
    m_transport = transport;
}

void
MrcPermutationHelper::SetPacketSize(uint32_t size)
{
    if (size < 1 || size > 65507)
    {
        throw std::invalid_argument("MrcPermutationHelper: packet size (=" + std::to_string(size)
                                    + ") must be in 1..65507");
    }
    m_packetSize = size;
}

void
MrcPermutationHelper::SetStartTime(Time start)
{
    m_start = start;
}

void
MrcPermutationHelper::SetStream(int64_t stream)
{
    m_stream = stream;
}

void
MrcPermutationHelper::SetTrackCollisions(bool track)
{
    m_trackCollisions = track;
}

std::vector<uint32_t>
MrcPermutationHelper::Derangement(uint32_t n, Ptr<UniformRandomVariable> rng)
{
    if (n < 2)
    {
        throw std::invalid_argument("MrcPermutationHelper: a permutation needs at least 2 hosts");
    }
    std::vector<uint32_t> dst(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        dst[i] = i;
    }
    for (uint32_t i = n - 1; i > 0; --i)
    {
        std::swap(dst[i], dst[rng->GetInteger(0, i)]);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        if (dst[i] == i)
        {
            std::swap(dst[i], dst[(i + 1) % n]);
        }
    }
    return dst;
}

ApplicationContainer
MrcPermutationHelper::Install()
{
    const uint32_t n = m_topo->GetHostCount();
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(m_stream);
    const std::vector<uint32_t> dst = Derangement(n, rng);

    const uint32_t planes = m_topo->GetSpec().planes;
    ApplicationContainer senders;
    m_flows.assign(n, Flow{});
    for (uint32_t i = 0; i < n; ++i)
    {
        Flow& f = m_flows[i];
        f.src = i;
        f.dst = dst[i];
        f.plane = rng->GetInteger(0, planes - 1);
        // OnOffApplication sends whole packets only: a UDP flow is rounded up to whole packets,
        // and the flow records what is really sent.
        f.bytes = m_transport == MrcPermutationTransport::UDP
                      ? (m_bytes + m_packetSize - 1) / m_packetSize * m_packetSize
                      : m_bytes;
        f.start = m_start;
        f.switchHops = m_topo->GetSwitchHops(f.src, f.dst);
        const Ipv6Address to = m_topo->GetHostAddress(f.dst, f.plane);
        m_flowByDst[to] = i;
        const Address remote = Inet6SocketAddress(to, m_port);
        const std::string factory = m_transport == MrcPermutationTransport::TCP
                                        ? "ns3::TcpSocketFactory"
                                        : "ns3::UdpSocketFactory";

        PacketSinkHelper sink(factory, Inet6SocketAddress(Ipv6Address::GetAny(), m_port));
        ApplicationContainer s = sink.Install(m_topo->GetHost(f.dst));
        s.Start(Seconds(0));
        s.Get(0)->TraceConnectWithoutContext(
            "Rx",
            MakeCallback(&MrcPermutationHelper::OnRx, this).Bind(i));

        ApplicationContainer app;
        if (m_transport == MrcPermutationTransport::TCP)
        {
            BulkSendHelper bulk(factory, remote);
            bulk.SetAttribute("MaxBytes", UintegerValue(m_bytes));
            bulk.SetAttribute("SendSize", UintegerValue(m_packetSize));
            app = bulk.Install(m_topo->GetHost(f.src));
        }
        else
        {
            Ptr<PointToPointNetDevice> dev =
                DynamicCast<PointToPointNetDevice>(m_topo->GetHostDevice(f.src, f.plane));
            DataRateValue rate;
            dev->GetAttribute("DataRate", rate);
            // Pace at line rate counting the headers, so the NIC never builds a queue.
            const double wireFraction = double(m_packetSize) / GetWirePacketSize();
            OnOffHelper onoff(factory, remote);
            onoff.SetConstantRate(DataRate(uint64_t(rate.Get().GetBitRate() * wireFraction)),
                                  m_packetSize);
            onoff.SetAttribute("MaxBytes", UintegerValue(f.bytes));
            app = onoff.Install(m_topo->GetHost(f.src));
        }
        app.Start(m_start);
        senders.Add(app);
    }

    if (m_trackCollisions)
    {
        NodeContainer switches = m_topo->GetAllSwitches();
        for (auto it = switches.Begin(); it != switches.End(); ++it)
        {
            Ptr<MrcIpv6EcmpRouting> routing = MrcEcmpRoutingHelper::GetRouting(*it);
            if (routing)
            {
                routing->TraceConnect("Forward",
                                      std::to_string((*it)->GetId()),
                                      MakeCallback(&MrcPermutationHelper::OnForward, this));
            }
        }
    }
    return senders;
}

void
MrcPermutationHelper::OnRx(uint32_t flow, Ptr<const Packet> packet, const Address& from)
{
    Flow& f = m_flows[flow];
    f.received += packet->GetSize();
    if (f.received >= f.bytes && f.finish.IsStrictlyNegative())
    {
        f.finish = Simulator::Now();
        NS_LOG_INFO("flow " << f.src << "->" << f.dst << " complete at " << f.finish.As(Time::US));
    }
}

void
MrcPermutationHelper::OnForward(std::string context,
                                Ptr<const Packet> packet,
                                const Ipv6Header& header,
                                uint32_t interface,
                                uint32_t hash)
{
    auto it = m_flowByDst.find(header.GetDestination());
    if (it == m_flowByDst.end()
        || MrcEcmpFlowKey::FromPacket(header, packet).GetDestinationPort() != m_port)
    {
        return; // not data of a permutation flow (e.g. TCP ACKs)
    }
    std::set<uint32_t>& flows = m_linkFlows[{std::stoul(context), interface}];
    if (!flows.insert(it->second).second)
    {
        return;
    }
    if (flows.size() == 2)
    {
        ++m_collidedLinks;
    }
    if (flows.size() >= 2)
    {
        for (uint32_t f : flows)
        {
            m_flows[f].collided = true;
        }
    }
}

const std::vector<MrcPermutationHelper::Flow>&
MrcPermutationHelper::GetFlows() const
{
    return m_flows;
}

uint32_t
MrcPermutationHelper::GetCollidedLinks() const
{
    return m_collidedLinks;
}

uint32_t
MrcPermutationHelper::GetWirePacketSize() const
{
    const uint32_t l4 = m_transport == MrcPermutationTransport::TCP ? kTcpHeader : kUdpHeader;
    return m_packetSize + l4 + kIpv6Header + kPppHeader;
}

Time
MrcPermutationHelper::GetIdealTime(const Flow& flow,
                                   DataRate hostRate,
                                   DataRate fabricRate,
                                   Time delay) const
{
    const uint64_t packets = (flow.bytes + m_packetSize - 1) / m_packetSize;
    const uint32_t lastPayload = flow.bytes - (packets - 1) * m_packetSize;
    const uint32_t wire = GetWirePacketSize();
    const uint32_t lastWire = wire - m_packetSize + lastPayload;
    // Serialisation of everything at the host link, then the last packet crosses the remaining
    // links store-and-forward: two host links and (switchHops - 1) fabric links.
    Time t = hostRate.CalculateBytesTxTime(wire * (packets - 1) + lastWire);
    t += hostRate.CalculateBytesTxTime(lastWire);
    if (flow.switchHops > 1)
    {
        t += fabricRate.CalculateBytesTxTime(lastWire) * int64_t(flow.switchHops - 1);
    }
    t += delay * int64_t(flow.switchHops + 1);
    return t;
}

} // namespace ns3
