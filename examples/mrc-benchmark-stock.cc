/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-benchmark-stock.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mrc-fabric-queue-stats.h"
#include "ns3/mrc-scoped-attribute-default.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

namespace ns3
{
namespace mrcbenchmark
{

namespace
{

/// A sink's progress towards its flow's bytes.
struct SinkProgress
{
    uint64_t expected{0}; //!< bytes of the flow
    uint64_t received{0}; //!< bytes so far
    Time finish{-1};      //!< when the last byte arrived (negative: not yet)
};

/**
 * PacketSink's Rx trace: count the bytes and note the completion.
 * \param p the progress \param packet what arrived \param from its source
 */
void
OnSinkRx(SinkProgress* p, Ptr<const Packet> packet, const Address& from)
{
    p->received += packet->GetSize();
    if (p->finish.IsNegative() && p->received >= p->expected)
    {
        p->finish = Simulator::Now();
    }
}

} // namespace

StockResult
RunStock(const PermutationSetup& setup)
{
    const uint32_t k = setup.k;
    if (k < 2 || k % 2 != 0)
    {
        throw std::invalid_argument("stock fat-tree: k (=" + std::to_string(k)
                                    + ") must be even and at least 2");
    }
    const uint32_t half = k / 2;
    const uint32_t hostCount = k * k * k / 4;
    if (setup.dst.size() != hostCount)
    {
        throw std::invalid_argument("stock fat-tree: " + std::to_string(setup.dst.size())
                                    + " destinations for " + std::to_string(hostCount) + " hosts");
    }
    // ns-3's equal-cost multipath for IPv4 global routing: a random next hop per packet among
    // the equal-cost routes (its only ECMP in ns-3.37).
    MrcScopedAttributeDefault ecmp("ns3::Ipv4GlobalRouting",
                                   "RandomEcmpRouting",
                                   BooleanValue(true));

    NodeContainer hosts;
    NodeContainer edge;
    NodeContainer agg;
    NodeContainer core;
    hosts.Create(hostCount);
    edge.Create(k * half);
    agg.Create(k * half);
    core.Create(half * half);
    InternetStackHelper internet;
    internet.Install(hosts);
    internet.Install(edge);
    internet.Install(agg);
    internet.Install(core);

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(setup.rate));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(9000)); // 4096-byte payloads, unfragmented
    p2p.SetChannelAttribute("Delay", TimeValue(setup.delay));
    Ipv4AddressHelper address("10.0.0.0", "255.255.255.252");
    std::vector<Ipv4Address> hostAddress(hostCount);
    // Each link its own /30; Assign also installs ns-3's default queue disc (pfifo_fast).
    const auto link = [&](Ptr<Node> a, Ptr<Node> b) {
        NetDeviceContainer devices = p2p.Install(a, b);
        Ipv4InterfaceContainer interfaces = address.Assign(devices);
        address.NewNetwork();
        return interfaces.GetAddress(0);
    };
    for (uint32_t pod = 0; pod < k; ++pod)
    {
        for (uint32_t e = 0; e < half; ++e)
        {
            const uint32_t edgeIndex = pod * half + e;
            for (uint32_t h = 0; h < half; ++h)
            {
                const uint32_t host = edgeIndex * half + h;
                hostAddress[host] = link(hosts.Get(host), edge.Get(edgeIndex));
            }
            for (uint32_t a = 0; a < half; ++a)
            {
                link(edge.Get(edgeIndex), agg.Get(pod * half + a));
            }
        }
        for (uint32_t a = 0; a < half; ++a)
        {
            for (uint32_t c = 0; c < half; ++c)
            {
                link(agg.Get(pod * half + a), core.Get(a * half + c));
            }
        }
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    const uint16_t port = 9;
    std::vector<SinkProgress> progress(hostCount);
    PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), port));
    for (uint32_t i = 0; i < hostCount; ++i)
    {
        const uint32_t d = setup.dst[i];
        progress[d].expected = setup.bytes;
        ApplicationContainer sink = sinkHelper.Install(hosts.Get(d));
        sink.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnSinkRx, &progress[d]));
        OnOffHelper source("ns3::UdpSocketFactory", InetSocketAddress(hostAddress[d], port));
        source.SetConstantRate(setup.rate, setup.packetSize);
        source.SetAttribute("MaxBytes", UintegerValue(setup.bytes));
        source.Install(hosts.Get(i));
    }
    Simulator::Stop(Seconds(1));

    StockResult r;
    r.hosts = hostCount;
    const uint64_t events0 = Simulator::GetEventCount();
    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    r.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.events = Simulator::GetEventCount() - events0;
    // Counted as for the module's rows (root queue discs only: a measurement, not part of the
    // stock fabric).
    r.hops = MrcFabricQueueStats::Sum(NodeContainer::GetGlobal()).sentPackets;
    r.lastFinish = Time(0);
    for (const SinkProgress& p : progress)
    {
        // OnOff sends whole packets, so the last one may carry bytes past the flow's end: count
        // the flow's bytes, as the other transports do.
        r.delivered += std::min(p.received, p.expected);
        if (!p.finish.IsNegative())
        {
            ++r.done;
            r.lastFinish = Max(r.lastFinish, p.finish);
        }
    }
    return r;
}

} // namespace mrcbenchmark
} // namespace ns3
