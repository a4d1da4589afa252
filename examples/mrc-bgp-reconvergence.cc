/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The BGP baseline after a failure: a fat-tree with per-flow ECMP switches running the BGP
 * reconvergence model; a T0-T1 link (or a T1 switch) fails and is repaired later. Prints when
 * each switch's FIB changed and how much constant-rate UDP traffic was black-holed meanwhile.
 *
 *   mrc-bgp-reconvergence --k=4
 *   mrc-bgp-reconvergence --kind=blackhole --ns3::MrcBgpReconvergenceModel::BfdEnabled=true
 *   mrc-bgp-reconvergence --fail=switch --ns3::MrcBgpReconvergenceModel::Mrai=30ms
 *
 * The failure is injected with MrcFailureHelper on the FabricNetDevices (carrier lost, or frames
 * vanishing while carrier stays up); the model follows the devices. Every timing is an attribute of
 * ns3::MrcBgpReconvergenceModel (see doc/mrc.rst, "BGP reconvergence model").
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/error-model.h"
#include "ns3/internet-module.h"
#include "ns3/mrc-module.h"

#include <iomanip>
#include <iostream>
#include <map>

using namespace ns3;

namespace
{

/// What one switch did, in order.
struct SwitchLog
{
    std::vector<Time> starts;                   //!< ConvergenceStart
    std::vector<std::pair<Time, uint32_t>> fib; //!< RoutesChanged
};

/// node id -> log
using SwitchLogs = std::map<uint32_t, SwitchLog>;

/// \param logs logs \param node node id
void
OnStart(SwitchLogs* logs, uint32_t node)
{
    (*logs)[node].starts.push_back(Simulator::Now());
}

/// \param logs logs \param node node id \param routes routes changed
void
OnRoutes(SwitchLogs* logs, uint32_t node, uint32_t routes)
{
    (*logs)[node].fib.emplace_back(Simulator::Now(), routes);
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t k = 4;
    std::string fail = "link";
    std::string kindText = "carrier";
    double failMs = 20;
    double repairMs = 120;
    double stopMs = 250;
    uint32_t intervalUs = 1000;
    uint32_t seed = 1;
    CommandLine cmd(__FILE__);
    MrcStrictOptions strict; // numeric options parsed whole (CommandLine alone: 2.5 -> 2)
    strict.Add(cmd, "k", "fat-tree radix (even)", k);
    strict.Add(cmd, "fail", "what fails: link (T0 0 - T1 0 of plane 0) or switch (T1 0)", fail);
    strict.Add(cmd, "kind", "carrier (loss of carrier) or blackhole (carrier stays up)", kindText);
    strict.Add(cmd, "failAt", "failure time, ms", failMs);
    strict.Add(cmd, "repairAt", "repair time, ms (0: never)", repairMs);
    strict.Add(cmd, "stop", "end of the traffic, ms", stopMs);
    strict.Add(cmd, "interval", "UDP packet interval per flow, us", intervalUs);
    strict.Add(cmd, "seed", "RNG seed", seed);
    MrcValueParser::ParseCommandLine(cmd, argc, argv);
    if (fail != "link" && fail != "switch")
    {
        std::cerr << "--fail (=" << fail << ") must be link or switch\n";
        return 1;
    }
    if (kindText != "carrier" && kindText != "blackhole")
    {
        std::cerr << "--kind (=" << kindText << ") must be carrier or blackhole\n";
        return 1;
    }
    try
    {
        for (const auto& [name, ms] : {std::pair<const char*, double>{"--failAt", failMs},
                                       {"--repairAt", repairMs},
                                       {"--stop", stopMs}})
        {
            MrcValueParser::ToTime(name, ms, Time::MS); // negative or beyond ns-3's range: refused
        }
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << e.what() << "\n";
        return 1;
    }
    RngSeedManager::SetSeed(seed);
    const MrcLinkFailureKind kind =
        kindText == "carrier" ? MrcLinkFailureKind::CARRIER_LOSS : MrcLinkFailureKind::BLACKHOLE;

    Ptr<MrcFabricTopology> topo = MrcClosTopologyHelper().Build(MrcClosSpec::FatTree(k));
    MrcEcmpRoutingHelper().Install(*topo);
    Ptr<MrcBgpReconvergenceModel> bgp = MrcBgpReconvergenceHelper().Install(topo);
    SwitchLogs logs;
    bgp->TraceConnectWithoutContext("ConvergenceStart", MakeBoundCallback(&OnStart, &logs));
    bgp->TraceConnectWithoutContext("RoutesChanged", MakeBoundCallback(&OnRoutes, &logs));

    // Every host sends to up to 15 others, spread over the fabric, one flow per pair.
    const uint32_t n = topo->GetHostCount();
    const uint32_t peers = std::min<uint32_t>(n - 1, 15);
    const Time start = MilliSeconds(1);
    const Time stop = Time::FromDouble(stopMs, Time::MS);
    const auto packets = static_cast<uint32_t>((stop - start).GetMicroSeconds() / intervalUs);
    std::vector<Ptr<UdpServer>> servers;
    for (uint32_t s = 0; s < n; ++s)
    {
        for (uint32_t j = 0; j < peers; ++j)
        {
            const uint32_t d = (s + 1 + j * std::max<uint32_t>(1, n / peers)) % n; // never s
            const uint16_t port = 1000 + servers.size();
            UdpServerHelper server(port);
            ApplicationContainer sa = server.Install(topo->GetHost(d));
            servers.push_back(DynamicCast<UdpServer>(sa.Get(0)));
            UdpClientHelper client(topo->GetHostAddress(d, 0), port);
            client.SetAttribute("MaxPackets", UintegerValue(packets));
            client.SetAttribute("Interval", TimeValue(MicroSeconds(intervalUs)));
            client.SetAttribute("PacketSize", UintegerValue(64));
            ApplicationContainer ca = client.Install(topo->GetHost(s));
            ca.Start(start + NanoSeconds(997 * servers.size()));
        }
    }

    Ptr<Node> t0 = topo->GetSwitch(MrcSwitchTier::T0, 0, 0);
    Ptr<Node> t1 = topo->GetSwitch(MrcSwitchTier::T1, 0, 0);
    // The failure goes through the FabricNetDevices; the model follows their carrier and,
    // with BFD enabled, their black holes.
    Ptr<MrcFailureHelper> failures = CreateObject<MrcFailureHelper>(topo);
    const Time failAt = Time::FromDouble(failMs, Time::MS);
    const Time duration = repairMs > 0 ? Time::FromDouble(repairMs, Time::MS) - failAt : Time(0);
    const bool carrier = kind == MrcLinkFailureKind::CARRIER_LOSS;
    if (fail == "switch")
    {
        carrier ? failures->SwitchDown(failAt, t1, duration)
                : failures->SwitchBlackhole(failAt, t1, duration);
    }
    else
    {
        const uint32_t link = topo->GetLinksBetween(t0, t1).at(0).id;
        carrier ? failures->LinkDown(failAt, link, duration)
                : failures->Blackhole(failAt, link, MrcLinkDirection::BOTH, duration);
    }
    Simulator::Stop(stop + MilliSeconds(50));
    Simulator::Run();

    const MrcBgpConvergenceTiming timing = bgp->GetTiming();
    const MrcFailureDetector detector = timing.GetDetector(kind);
    std::cout << "fat-tree k=" << k << " (" << n << " hosts): "
              << (fail == "switch" ? Names::FindName(t1)
                                   : Names::FindName(t0) + " - " + Names::FindName(t1))
              << " fails (" << kindText << ") at " << failMs << " ms"
              << (repairMs > 0 ? ", repaired at " + std::to_string(int(repairMs)) + " ms" : "")
              << "\ndetector " << detector;
    if (detector != MrcFailureDetector::NONE)
    {
        std::cout << " (" << timing.GetDetectionDelay(detector).GetSeconds() * 1e3 << " ms)";
    }
    std::cout << "; per hop " << timing.GetHopDelay().GetSeconds() * 1e3 << " ms; FIB "
              << timing.fibBaseTime.GetSeconds() * 1e3 << " ms + "
              << timing.fibPerRouteTime.GetSeconds() * 1e3 << " ms per route\n\n";
    // Per switch and phase (failure, repair): first change heard, routes, last FIB batch done.
    const Time repairAt = repairMs > 0 ? Time::FromDouble(repairMs, Time::MS) : Time::Max();
    std::cout << std::left << std::setw(12) << "switch" << std::right << std::setw(27)
              << "after the failure (ms)" << std::setw(27) << "after the repair (ms)\n"
              << std::setw(12) << "";
    for (uint32_t phase = 0; phase < 2; ++phase)
    {
        std::cout << std::setw(9) << "heard" << std::setw(8) << "routes" << std::setw(10)
                  << "FIB done";
    }
    std::cout << "\n";
    const NodeContainer sw = topo->GetAllSwitches();
    for (auto it = sw.Begin(); it != sw.End(); ++it)
    {
        auto log = logs.find((*it)->GetId());
        if (log == logs.end())
        {
            continue;
        }
        std::cout << std::left << std::setw(12) << Names::FindName(*it) << std::right << std::fixed
                  << std::setprecision(3);
        for (uint32_t phase = 0; phase < 2; ++phase)
        {
            const Time ref = phase == 0 ? failAt : repairAt;
            const Time end = phase == 0 ? repairAt : Time::Max();
            Time heard = Time::Max();
            Time done;
            uint32_t routes = 0;
            for (const Time& t : log->second.starts)
            {
                heard = t >= ref && t < end ? std::min(heard, t) : heard;
            }
            for (const auto& [t, r] : log->second.fib)
            {
                if (t >= ref && t < end)
                {
                    routes += r;
                    done = t;
                }
            }
            if (routes > 0)
            {
                std::cout << std::setw(9) << (heard - ref).GetSeconds() * 1e3 << std::setw(8)
                          << routes << std::setw(10) << (done - ref).GetSeconds() * 1e3;
            }
        }
        std::cout << "\n";
    }
    uint64_t lost = 0;
    uint32_t hit = 0;
    uint64_t worst = 0;
    for (const auto& s : servers)
    {
        const uint64_t l = packets - s->GetReceived();
        lost += l;
        hit += l > 0;
        worst = std::max(worst, l);
    }
    uint64_t noRoute = 0;
    for (auto it = sw.Begin(); it != sw.End(); ++it)
    {
        noRoute += MrcEcmpRoutingHelper::GetRouting(*it)->GetDroppedPackets();
    }
    std::cout << "\ntraffic: " << servers.size() << " flows of " << packets << " packets, " << hit
              << " hit, " << lost << " packets lost (" << bgp->GetBlackholedPackets()
              << " sent onto a dead link, " << noRoute << " without a route)\n"
              << "longest outage of a flow: " << std::fixed << std::setprecision(1)
              << worst * intervalUs / 1000.0 << " ms; last FIB change at "
              << bgp->GetLastConvergenceTime().GetSeconds() * 1e3 << " ms\n";
    Simulator::Destroy();
    return 0;
}
