/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * N-to-1 incast of line-rate UDP data on a two-tier Clos whose switch ports run
 * MrcTrimmingQueueDisc (host-facing ports mark trims TRIMMED_LASTHOP and do not ECN-mark). Prints
 * what the receiver got: whole packets, trimmed headers by codepoint, and what was lost, with
 * trimming on and off.
 *
 *   mrc-incast-trimming --senders=32 --packets=100
 *   mrc-incast-trimming --senders=32 --trimming=false
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mrc-module.h"
#include "ns3/traffic-control-module.h"

#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// What the receiver saw.
struct Received
{
    uint32_t whole{0};          //!< whole packets
    uint32_t trimmedLastHop{0}; //!< trimmed at the host-facing port
    uint32_t trimmedFabric{0};  //!< trimmed at a fabric port
    Time last;                  //!< last arrival
};

/**
 * IPv6 Rx trace at the receiver.
 * \param r counters
 * \param payload UDP payload size of a whole packet
 * \param p packet with its IPv6 header
 * \param ipv6 stack
 * \param interface interface
 */
void
OnIpRx(Received* r, uint32_t payload, Ptr<const Packet> p, Ptr<Ipv6> ipv6, uint32_t interface)
{
    Ipv6Header h;
    p->PeekHeader(h);
    if (h.GetNextHeader() != 17)
    {
        return;
    }
    r->last = Simulator::Now();
    if (h.GetDscp() == MrcDscp::kTrimmedLastHop)
    {
        r->trimmedLastHop++;
    }
    else if (h.GetDscp() == MrcDscp::kTrimmed)
    {
        r->trimmedFabric++;
    }
    else if (h.GetPayloadLength() == payload + 8)
    {
        r->whole++;
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t senders = 16;
    uint32_t packets = 100;
    uint32_t payload = 4096;
    bool trimming = true;
    uint32_t trimSize = 256;
    double victim = 0.0;
    std::string rate = "100Gbps";
    uint32_t seed = 1;
    CommandLine cmd(__FILE__);
    MrcStrictOptions strict; // numeric options parsed whole (CommandLine alone: 2.5 -> 2)
    strict.Add(cmd, "senders", "N senders (hosts 1..N send to host 0)", senders);
    strict.Add(cmd, "packets", "packets per sender", packets);
    strict.Add(cmd, "payload", "UDP payload bytes per packet", payload);
    strict.Add(cmd, "trimming", "trim on overflow (false: drop)", trimming);
    strict.Add(cmd, "trimSize", "MrcTrimmingQueueDisc::TrimSize", trimSize);
    strict.Add(cmd, "victimProbability", "MrcTrimmingQueueDisc::VictimTrimProbability", victim);
    strict.Add(cmd, "rate", "link rate", rate);
    strict.Add(cmd, "seed", "RNG seed", seed);
    MrcValueParser::ParseCommandLine(cmd, argc, argv);
    try
    {
        RngSeedManager::SetSeed(seed);
        const DataRate linkRate = MrcValueParser::ParseDataRate("--rate", rate);
        if (senders < 1 || senders > 1023)
        {
            throw std::invalid_argument("--senders (=" + std::to_string(senders)
                                        + ") must be in 1..1023");
        }
        MrcClosTopologyHelper topoHelper;
        for (MrcLinkTier t : {MrcLinkTier::HOST_T0, MrcLinkTier::T0_T1})
        {
            topoHelper.SetLinkRate(t, linkRate);
        }
        Config::SetDefault("ns3::MrcTrimmingQueueDisc::TrimSize", UintegerValue(trimSize));
        Config::SetDefault("ns3::MrcTrimmingQueueDisc::VictimTrimProbability", DoubleValue(victim));
        // The UDP data leaves at DSCP 0, which MrcTrimmingQueueDisc does not trim by default (it
        // trims MRC's data classes only): configure the switches to trim every class.
        Config::SetDefault("ns3::MrcTrimmingQueueDisc::TrimmableDscps", StringValue("*"));
        topoHelper.SetTrimmingQueues(trimming);
        const uint32_t t0 = std::max(2u, (senders + 1 + 7) / 8);
        Ptr<MrcFabricTopology> topo = topoHelper.Build(MrcClosSpec::TwoTier(1, t0, 8, 4));
        MrcEcmpRoutingHelper ecmp;
        ecmp.SetBaseSeed(seed);
        ecmp.Install(*topo);

        Received r;
        PacketSinkHelper sink("ns3::UdpSocketFactory",
                              Inet6SocketAddress(Ipv6Address::GetAny(), 9000));
        sink.Install(topo->GetHost(0));
        topo->GetHost(0)->GetObject<Ipv6L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            MakeBoundCallback(&OnIpRx, &r, payload));
        // Pace each sender at line rate counting UDP, IPv6 and PPP headers.
        const double wire = payload + 8 + 40 + 2;
        for (uint32_t s = 1; s <= senders; ++s)
        {
            OnOffHelper onoff("ns3::UdpSocketFactory",
                              Inet6SocketAddress(topo->GetHostAddress(0, 0), 9000));
            onoff.SetConstantRate(DataRate(uint64_t(linkRate.GetBitRate() * payload / wire)),
                                  payload);
            onoff.SetAttribute("MaxBytes", UintegerValue(uint64_t(packets) * payload));
            onoff.Install(topo->GetHost(s)).Start(NanoSeconds(100 * (s % 10)));
        }
        Simulator::Run();

        const MrcFabricQueueStats::Totals q = MrcFabricQueueStats::Sum(topo->GetAllSwitches());
        const uint64_t drops = q.droppedPackets;
        const uint64_t trims = q.trimmedPackets;
        const uint32_t sent = senders * packets;
        const uint32_t arrived = r.whole + r.trimmedLastHop + r.trimmedFabric;
        const Time ideal = linkRate.CalculateBytesTxTime(uint64_t(sent) * uint64_t(wire));
        std::cout << senders << "-to-1 incast, " << packets << " x " << payload
                  << " B per sender, links " << rate << ", trimming " << (trimming ? "on" : "off")
                  << "\n"
                  << "  sent " << sent << ", arrived whole " << r.whole << ", arrived trimmed "
                  << r.trimmedLastHop << " (last hop) + " << r.trimmedFabric << " (fabric)"
                  << ", lost " << sent - arrived << "\n"
                  << "  switch trims " << trims << ", switch drops " << drops << "\n"
                  << "  last arrival " << r.last.As(Time::US) << ", line-rate time for all bytes "
                  << ideal.As(Time::US) << "\n";
        Simulator::Destroy();
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
