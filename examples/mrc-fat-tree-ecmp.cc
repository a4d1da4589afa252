/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Per-flow ECMP on a fat-tree or two-tier multi-plane Clos: a random permutation, where every
 * host sends the same number of bytes to a distinct host, with ns-3 TCP and with line-rate UDP.
 * Prints per-flow completion times (min / median / P99 / max), the line-rate ideal, and how
 * many flows collided with another flow on some link: the conventional baseline MRC is compared
 * against.
 *
 *   mrc-fat-tree-ecmp --k=8 --bytes=2000000 --transport=both
 *   mrc-fat-tree-ecmp --topology=clos --planes=4 --t0=8 --hostsPerT0=8 --t1=8
 */

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mrc-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// Scenario parameters (command line).
struct Params
{
    std::string topology{"fattree"};   //!< fattree | clos
    uint32_t k{4};                     //!< fat-tree radix
    uint32_t planes{1};                //!< planes
    uint32_t t0{4};                    //!< Clos: T0 per plane
    uint32_t hostsPerT0{4};            //!< Clos: hosts per T0
    uint32_t t1{4};                    //!< Clos: T1 per plane
    uint32_t uplinks{0};               //!< Clos: uplinks per T0 (0 = full bisection)
    uint64_t bytes{2000000};           //!< bytes per flow
    uint32_t packetSize{4096};         //!< payload per packet / TCP segment
    std::string hostRate{"100Gbps"};   //!< host link rate
    std::string fabricRate{"100Gbps"}; //!< switch-to-switch link rate
    std::string delay{"1us"};          //!< per-link delay
    uint32_t seed{1};                  //!< RNG seed
    uint32_t run{1};                   //!< RNG run
    double stopTime{1.0};              //!< simulated seconds at most
    DataRate hostRateValue;            //!< hostRate, parsed
    DataRate fabricRateValue;          //!< fabricRate, parsed
    Time delayValue;                   //!< delay, parsed
};

/**
 * Build, run and report one transport.
 * \param p parameters
 * \param spec fabric shape
 * \param transport TCP or UDP
 */
void
RunOnce(const Params& p, const MrcClosSpec& spec, MrcPermutationTransport transport)
{
    RngSeedManager::SetSeed(p.seed);
    RngSeedManager::SetRun(p.run);

    MrcClosTopologyHelper topoHelper;
    topoHelper.SetLinkRate(MrcLinkTier::HOST_T0, p.hostRateValue);
    topoHelper.SetLinkRate(MrcLinkTier::T0_T1, p.fabricRateValue);
    topoHelper.SetLinkRate(MrcLinkTier::T1_T2, p.fabricRateValue);
    for (MrcLinkTier t : {MrcLinkTier::HOST_T0, MrcLinkTier::T0_T1, MrcLinkTier::T1_T2})
    {
        topoHelper.SetLinkDelay(t, p.delayValue);
    }
    Ptr<MrcFabricTopology> topo = topoHelper.Build(spec);
    MrcEcmpRoutingHelper ecmp;
    ecmp.SetBaseSeed(p.seed);
    ecmp.Install(*topo);

    MrcPermutationHelper perm(topo);
    perm.SetBytesPerFlow(p.bytes);
    perm.SetPacketSize(p.packetSize);
    perm.SetTransport(transport);
    perm.Install();

    Simulator::Stop(Seconds(p.stopTime));
    Simulator::Run();

    std::vector<Time> fct;
    std::vector<Time> ideal;
    uint32_t collided = 0;
    for (const auto& f : perm.GetFlows())
    {
        // A flow that lost data never completes: it ranks last, so P99/max say "never".
        fct.push_back(f.finish.IsNegative() ? Time::Max() : f.finish - f.start);
        ideal.push_back(perm.GetIdealTime(f, p.hostRateValue, p.fabricRateValue, p.delayValue));
        collided += f.collided ? 1 : 0;
    }
    const uint64_t qdiscDrops = MrcFabricQueueStats::Sum(topo->GetAllSwitches()).droppedPackets;
    MrcCompletionStats s(fct);
    MrcCompletionStats si(ideal);
    const uint32_t n = perm.GetFlows().size();
    const uint32_t complete = std::count_if(fct.begin(), fct.end(), [](Time t) {
        return t != Time::Max();
    });
    auto us = [](Time t) {
        std::ostringstream os;
        if (t == Time::Max())
        {
            os << "never";
        }
        else
        {
            os << t.GetMicroSeconds();
        }
        return os.str();
    };
    std::cout << std::defaultfloat
              << (transport == MrcPermutationTransport::TCP ? "TCP" : "UDP (line rate)") << ": "
              << complete << "/" << n << " flows complete by " << p.stopTime << " s\n"
              << "  FCT us   min " << us(s.GetMin()) << "  median " << us(s.GetMedian()) << "  P99 "
              << us(s.GetPercentile(99)) << "  max " << us(s.GetMax()) << "\n"
              << "  ideal us (line rate, per path) " << si.GetMin().GetMicroSeconds() << " .. "
              << si.GetMax().GetMicroSeconds();
    if (complete == n)
    {
        std::cout << "   max/ideal " << std::fixed << std::setprecision(2)
                  << s.GetMax().GetSeconds() / si.GetMax().GetSeconds();
    }
    std::cout << "\n  ECMP collisions: " << collided << "/" << n
              << " flows share a link with another flow; " << perm.GetCollidedLinks()
              << " links carry 2+ flows\n"
              << "  switch queue drops: " << qdiscDrops << " packets\n";

    Simulator::Destroy();
    Names::Clear();
}

} // namespace

int
main(int argc, char* argv[])
{
    Params p;
    std::string transport = "both";
    CommandLine cmd(__FILE__);
    MrcStrictOptions strict; // numeric options parsed whole (CommandLine alone: 2.5 -> 2)
    strict.Add(cmd, "topology", "fattree (three tiers) or clos (two tiers)", p.topology);
    strict.Add(cmd, "k", "fat-tree radix (even)", p.k);
    strict.Add(cmd, "planes", "number of planes (NIC ports per host)", p.planes);
    strict.Add(cmd, "t0", "Clos: T0 switches per plane", p.t0);
    strict.Add(cmd, "hostsPerT0", "Clos: hosts per T0", p.hostsPerT0);
    strict.Add(cmd, "t1", "Clos: T1 switches per plane", p.t1);
    strict.Add(cmd, "uplinks", "Clos: uplinks per T0 (0 = hostsPerT0, full bisection)", p.uplinks);
    strict.Add(cmd, "bytes", "bytes per flow", p.bytes);
    strict.Add(cmd,
               "packetSize",
               "payload bytes per packet (UDP) / TCP segment size",
               p.packetSize);
    strict.Add(cmd, "hostRate", "host link rate", p.hostRate);
    strict.Add(cmd, "fabricRate", "switch-to-switch link rate", p.fabricRate);
    strict.Add(cmd, "delay", "per-link propagation delay", p.delay);
    strict.Add(cmd, "transport", "tcp, udp or both", transport);
    strict.Add(cmd, "seed", "RNG seed (permutation, planes, ECMP hash seeds)", p.seed);
    strict.Add(cmd, "run", "RNG run number", p.run);
    strict.Add(cmd, "stopTime", "simulated seconds at most", p.stopTime);
    MrcValueParser::ParseCommandLine(cmd, argc, argv);

    try
    {
        if (transport != "tcp" && transport != "udp" && transport != "both")
        {
            throw std::invalid_argument("--transport (=" + transport
                                        + ") must be tcp, udp or both");
        }
        MrcClosSpec spec;
        if (p.topology == "fattree")
        {
            spec = MrcClosSpec::FatTree(p.k, p.planes);
        }
        else if (p.topology == "clos")
        {
            spec = MrcClosSpec::TwoTier(p.planes, p.t0, p.hostsPerT0, p.t1, p.uplinks);
        }
        else
        {
            throw std::invalid_argument("--topology (=" + p.topology + ") must be fattree or clos");
        }
        spec.Validate();
        p.hostRateValue = MrcValueParser::ParseDataRate("--hostRate", p.hostRate);
        p.fabricRateValue = MrcValueParser::ParseDataRate("--fabricRate", p.fabricRate);
        p.delayValue = MrcValueParser::ParseTime("--delay", p.delay);
        // ns-3 TCP tuned for a data centre: 4 KiB segments, buffers above the BDP, short RTO.
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(p.packetSize));
        Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4 << 20));
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(4 << 20));
        Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(1)));
        Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(MicroSeconds(1)));

        std::cout << spec.Describe() << "\n"
                  << "permutation, " << p.bytes << " bytes per flow, host links " << p.hostRate
                  << ", fabric " << p.fabricRate << ", delay " << p.delay << ", seed " << p.seed
                  << "\n";
        if (transport != "udp")
        {
            RunOnce(p, spec, MrcPermutationTransport::TCP);
        }
        if (transport != "tcp")
        {
            RunOnce(p, spec, MrcPermutationTransport::UDP);
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
