/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Simulator performance benchmark: a random permutation (every host sends --bytes to a distinct
 * host) over per-flow ECMP on k-ary fat-trees, by default k = 4, 8, 16 with 100 Gb/s, 1 us
 * links, 2 MB per flow and 4 KiB payloads. Prints, per k: wall seconds of Simulator::Run,
 * simulated packet-hops (link traversals) per wall second, events per wall second, and the
 * process's peak resident set size so far (sizes run in increasing order, so the figure is that
 * of the largest so far).
 *
 *   mrc-benchmark --ks=4,8,16 --bytes=2000000 --transport=udp
 *
 * For figures worth quoting, build with -DMRC_ASSERTS=OFF -DCMAKE_BUILD_TYPE=Release
 * (utils/benchmark.sh does).
 */

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mrc-module.h"
#include "ns3/traffic-control-module.h"

#include <chrono>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <sys/resource.h>

using namespace ns3;

namespace
{

/// \return the process's peak resident set size in MiB
double
PeakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024.0; // ru_maxrss is in KiB on Linux
}

/**
 * \param topo a fabric
 * \return packets handed to NetDevices by every root queue disc (= link traversals)
 */
uint64_t
CountLinkTraversals(const FabricTopology& topo)
{
    uint64_t sent = 0;
    NodeContainer nodes = topo.GetAllSwitches();
    nodes.Add(topo.GetHosts());
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<TrafficControlLayer> tc = (*it)->GetObject<TrafficControlLayer>();
        for (uint32_t d = 0; d < (*it)->GetNDevices(); ++d)
        {
            Ptr<QueueDisc> q = tc->GetRootQueueDiscOnDevice((*it)->GetDevice(d));
            if (q)
            {
                sent += q->GetStats().nTotalSentPackets;
            }
        }
    }
    return sent;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string ks = "4,8,16";
    uint64_t bytes = 2000000;
    uint32_t packetSize = 4096;
    std::string rate = "100Gbps";
    std::string delay = "1us";
    std::string transport = "udp";
    uint32_t seed = 1;
    CommandLine cmd(__FILE__);
    cmd.AddValue("ks", "comma-separated fat-tree radices", ks);
    cmd.AddValue("k", "a single fat-tree radix (overrides --ks)", ks);
    cmd.AddValue("bytes", "bytes per flow", bytes);
    cmd.AddValue("packetSize", "payload bytes per packet", packetSize);
    cmd.AddValue("rate", "every link's rate", rate);
    cmd.AddValue("delay", "every link's delay", delay);
    cmd.AddValue("transport", "udp or tcp", transport);
    cmd.AddValue("seed", "RNG seed", seed);
    cmd.Parse(argc, argv);

    try
    {
        if (transport != "udp" && transport != "tcp")
        {
            throw std::invalid_argument("--transport (=" + transport + ") must be udp or tcp");
        }
        const DataRate linkRate = ValueParser::ParseDataRate("--rate", rate);
        const Time linkDelay = ValueParser::ParseTime("--delay", delay);
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(packetSize));
        Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4 << 20));
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(4 << 20));
        Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(1)));
        Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(MicroSeconds(1)));

        std::cout << "mrc-benchmark: permutation over per-flow ECMP, " << transport << ", " << bytes
                  << " B per flow, " << packetSize << " B payloads, links " << rate << " / "
                  << delay << "\n";
        std::cout << std::left << std::setw(4) << "k" << std::right << std::setw(7) << "hosts"
                  << std::setw(10) << "done" << std::setw(12) << "sim ms" << std::setw(10)
                  << "wall s" << std::setw(14) << "pkt-hops" << std::setw(14) << "hops/s"
                  << std::setw(14) << "events/s" << std::setw(12) << "peakRSS MiB"
                  << "\n";
        std::stringstream list(ks);
        std::string item;
        while (std::getline(list, item, ','))
        {
            const uint32_t k = std::stoul(item);
            RngSeedManager::SetSeed(seed);
            RngSeedManager::SetRun(1);
            ClosTopologyHelper topoHelper;
            for (LinkTier t : {LinkTier::HOST_T0, LinkTier::T0_T1, LinkTier::T1_T2})
            {
                topoHelper.SetLinkRate(t, linkRate);
                topoHelper.SetLinkDelay(t, linkDelay);
            }
            Ptr<FabricTopology> topo = topoHelper.Build(ClosSpec::FatTree(k));
            EcmpRoutingHelper ecmp;
            ecmp.SetBaseSeed(seed);
            ecmp.Install(*topo);
            PermutationHelper perm(topo);
            perm.SetBytesPerFlow(bytes);
            perm.SetPacketSize(packetSize);
            perm.SetTransport(transport == "tcp" ? PermutationTransport::TCP
                                                 : PermutationTransport::UDP);
            perm.SetTrackCollisions(false);
            perm.Install();
            Simulator::Stop(Seconds(1));

            const uint64_t events0 = Simulator::GetEventCount();
            const auto t0 = std::chrono::steady_clock::now();
            Simulator::Run();
            const double wall =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            const uint64_t events = Simulator::GetEventCount() - events0;
            const uint64_t hops = CountLinkTraversals(*topo);
            Time last(0);
            uint32_t done = 0;
            for (const auto& f : perm.GetFlows())
            {
                if (!f.finish.IsNegative())
                {
                    ++done;
                    last = Max(last, f.finish);
                }
            }
            std::ostringstream doneStr;
            doneStr << done << "/" << perm.GetFlows().size();
            std::cout << std::left << std::setw(4) << k << std::right << std::setw(7)
                      << topo->GetHostCount() << std::setw(10) << doneStr.str() << std::fixed
                      << std::setprecision(3) << std::setw(12) << last.GetSeconds() * 1e3
                      << std::setw(10) << wall << std::setw(14) << hops << std::setprecision(0)
                      << std::setw(14) << hops / wall << std::setw(14) << events / wall
                      << std::setprecision(1) << std::setw(12) << PeakRssMiB() << std::endl;
            Simulator::Destroy();
            Names::Clear();
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
