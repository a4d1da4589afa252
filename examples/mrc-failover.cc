/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A link fails under long transfers: MRC over static SRv6 against the conventional fabric,
 * RoCEv2-style queue pairs over per-flow ECMP with the BGP reconvergence model.
 *
 * A two-tier Clos; every host sends one long RDMA write to the host with the same position
 * under another T0 (all traffic crosses the T1s). The uplink T0 0 - T1 0 of plane 0 fails at
 * --failAt (carrier lost, or a black hole that keeps carrier) and works again at --repairAt.
 * For each fabric the program prints the goodput time series around the failure (all flows and
 * the slowest one), the bytes retransmitted, the longest stall of any flow, and whether a queue
 * pair failed; then a comparison table.
 *
 *   mrc-failover
 *   mrc-failover --kind=blackhole --ns3::MrcBgpReconvergenceModel::BfdEnabled=true
 *   mrc-failover --fabric=roce --qps=8 --csv=failover
 *
 * The same failure reaches both fabrics through MrcFailureHelper (MrcFabricNetDevice carrier and
 * receive-side faults); the BGP model follows the devices. See doc/mrc.rst, "Failover example".
 */

#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/mrc-module.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

using namespace ns3;

namespace
{

/// The command line.
struct Options
{
    uint32_t planes{1};          //!< planes
    uint32_t t0{2};              //!< T0 switches per plane
    uint32_t hostsPerT0{4};      //!< hosts per T0
    uint32_t t1{4};              //!< T1 switches per plane
    uint64_t bytes{0};           //!< bytes per flow (0: more than the run can carry)
    double failAtUs{1000};       //!< failure
    double repairAtUs{6000};     //!< repair (0: never)
    double stopUs{8000};         //!< end of the run
    double intervalUs{250};      //!< series interval
    std::string kind{"carrier"}; //!< carrier or blackhole
    std::string fabric{"both"};  //!< mrc, roce or both
    uint32_t qps{1};             //!< RoCEv2 QPs per host pair
    std::string csv;             //!< CSV file prefix (empty: none)
    uint32_t seed{1};            //!< RNG seed
};

/// What one fabric's run produced.
struct Result
{
    std::string name;                                   //!< fabric
    std::vector<MrcTransferMonitor::FlowSummary> flows; //!< per flow
    std::vector<uint64_t> total;                        //!< goodput per interval, all flows
    std::vector<uint64_t> slowest;                      //!< the slowest flow's, per interval
    uint64_t faultDrops{0};                             //!< packets lost to the failure
    uint64_t bgpBlackholed{0};                          //!< sent onto the dead link by routing
    Time bgpConverged{-1};                              //!< last BGP FIB change (negative: none)
};

/**
 * Run one fabric.
 * \param o options
 * \param roce RoCEv2-style queue pairs over ECMP + BGP (else MRC over SRv6)
 * \return the measurements
 */
Result
RunFabric(const Options& o, bool roce)
{
    RngSeedManager::SetSeed(o.seed); // the run number stays --RngRun's (replications)
    const MrcClosSpec spec = MrcClosSpec::TwoTier(o.planes, o.t0, o.hostsPerT0, o.t1);
    MrcClusterFabricHelper fabric(roce ? MrcClusterFabric::ROCE_ECMP : MrcClusterFabric::MRC_SRV6);
    fabric.GetDataPlane().GetEcmpHelper().SetBaseSeed(o.seed);
    Ptr<MrcFabricTopology> topo = fabric.Build(spec);
    Ptr<MrcBgpReconvergenceModel> bgp;
    if (roce)
    {
        bgp = MrcBgpReconvergenceHelper().Install(topo);
    }

    Ptr<MrcFailureHelper> failures = CreateObject<MrcFailureHelper>(topo);
    const MrcFabricLink link = topo->GetLinksBetween(topo->GetSwitch(MrcSwitchTier::T0, 0, 0),
                                                     topo->GetSwitch(MrcSwitchTier::T1, 0, 0))
                                   .at(0);
    const Time failAt = Time::FromDouble(o.failAtUs, Time::US);
    const Time duration =
        o.repairAtUs > 0 ? Time::FromDouble(o.repairAtUs, Time::US) - failAt : Time(0);
    if (o.kind == "carrier")
    {
        failures->LinkDown(failAt, link.id, duration);
    }
    else
    {
        failures->Blackhole(failAt, link.id, MrcLinkDirection::BOTH, duration);
    }

    // Fixed streams for the fabric and the failures (the queue pairs draw from --seed on, see
    // SetStream below), so that each fabric's run does not depend on the one before it in this
    // process.
    int64_t stream = int64_t(1) << 32;
    stream += MrcClosTopologyHelper::AssignStreams(topo, stream);
    failures->AssignStreams(stream);

    MrcHelper mrc(topo, fabric.GetDataPlane());
    const uint32_t qps = roce ? o.qps : 1;
    // RoCEv2 RC: one UDP source port per QP (ECMP pins it), go-back-N, DCQCN.
    fabric.ConfigureTransport(mrc, qps);
    mrc.SetStream(o.seed);
    mrc.Install();
    Ptr<MrcTransferMonitor> monitor = CreateObject<MrcTransferMonitor>();
    monitor->SetAttribute("Interval", TimeValue(Time::FromDouble(o.intervalUs, Time::US)));
    const uint32_t hosts = topo->GetHostCount();
    const Time stop = Time::FromDouble(o.stopUs, Time::US);
    DataRateValue rate;
    topo->GetHostDevice(0, 0)->GetAttribute("DataRate", rate);
    const uint64_t bytes =
        o.bytes ? o.bytes : rate.Get().GetBitRate() / 8 * spec.planes * stop.GetSeconds() * 2;
    std::vector<Ptr<MrcQpGroup>> groups;
    for (uint32_t a = 0; a < hosts; ++a)
    {
        const uint32_t b = (a + o.hostsPerT0) % hosts;
        const std::string label = "h" + std::to_string(a) + "->h" + std::to_string(b);
        if (roce)
        {
            // QP scaling: the message is striped over the group's queue pairs.
            Ptr<MrcQpGroup> group = mrc.ConnectGroup(a, b);
            std::vector<MrcTransferMonitor::QpPair> members;
            for (uint32_t q = 0; q < group->GetSize(); ++q)
            {
                members.emplace_back(group->GetSender(q), group->GetReceiver(q));
            }
            monitor->AddFlow(label, members);
            group->PostWrite(bytes);
            groups.push_back(group);
        }
        else
        {
            auto [qa, qb] = mrc.Connect(a, b);
            monitor->AddFlow(label, qa, qb);
            qa->PostWrite(bytes);
        }
    }
    Simulator::Stop(stop);
    Simulator::Run();

    Result r;
    r.name = roce ? "RoCEv2/ECMP+BGP" + (qps > 1 ? " x" + std::to_string(qps) + " QPs" : "")
                  : "MRC/SRv6";
    r.flows = monitor->GetSummaries(stop);
    r.total = monitor->GetTotalSeries();
    const size_t slots =
        stop.GetTimeStep() / Time::FromDouble(o.intervalUs, Time::US).GetTimeStep();
    r.total.resize(slots, 0);
    r.slowest.assign(slots, UINT64_MAX);
    for (uint32_t f = 0; f < monitor->GetFlowCount(); ++f)
    {
        const auto& s = monitor->GetSeries(f);
        for (size_t i = 0; i < slots; ++i)
        {
            r.slowest[i] = std::min(r.slowest[i], i < s.size() ? s[i] : 0);
        }
    }
    r.faultDrops = failures->GetLostPackets();
    if (bgp)
    {
        r.bgpBlackholed = bgp->GetBlackholedPackets();
        r.bgpConverged = bgp->GetLastConvergenceTime();
    }
    if (!o.csv.empty())
    {
        const std::string tag = roce ? "roce" : "mrc";
        std::ofstream series(o.csv + "-" + tag + "-series.csv");
        monitor->WriteSeriesCsv(series);
        std::ofstream summary(o.csv + "-" + tag + "-flows.csv");
        monitor->WriteSummaryCsv(summary, stop);
    }
    Simulator::Destroy();
    Names::Clear();
    return r;
}

/**
 * \param bytes bytes in one interval
 * \param interval the interval
 * \return Gb/s
 */
double
Gbps(uint64_t bytes, Time interval)
{
    return bytes * 8e-9 / interval.GetSeconds();
}

/**
 * Print one fabric's time series and totals.
 * \param o options
 * \param r its result
 */
void
PrintRun(const Options& o, const Result& r)
{
    const Time interval = Time::FromDouble(o.intervalUs, Time::US);
    std::cout << "\n== " << r.name << "\n"
              << "  interval start (us)   all flows (Gb/s)   slowest flow (Gb/s)\n";
    for (size_t i = 0; i < r.total.size(); ++i)
    {
        const double start = o.intervalUs * i;
        const char* mark = "";
        if (start <= o.failAtUs && o.failAtUs < start + o.intervalUs)
        {
            mark = "  <- failure";
        }
        else if (o.repairAtUs > 0 && start <= o.repairAtUs && o.repairAtUs < start + o.intervalUs)
        {
            mark = "  <- repair";
        }
        std::cout << "  " << std::setw(19) << std::fixed << std::setprecision(0) << start
                  << std::setw(19) << std::setprecision(1) << Gbps(r.total[i], interval)
                  << std::setw(22) << Gbps(r.slowest[i], interval) << mark << "\n";
    }
    std::cout << "  packets lost to the failure: " << r.faultDrops;
    if (r.name.rfind("RoCE", 0) == 0)
    {
        std::cout << "; sent onto the dead link by routing: " << r.bgpBlackholed
                  << "; BGP's last FIB change: "
                  << (r.bgpConverged.IsNegative()
                          ? std::string("none")
                          : std::to_string(r.bgpConverged.GetMicroSeconds()) + " us");
    }
    std::cout << "\n";
}

/**
 * \param r a result
 * \return (bytes delivered, bytes retransmitted, longest stall, its flow, failed QPs)
 */
std::tuple<uint64_t, uint64_t, Time, std::string, uint32_t>
Totals(const Result& r)
{
    uint64_t delivered = 0;
    uint64_t retransmitted = 0;
    Time stall(0);
    std::string who = "-";
    uint32_t failed = 0;
    for (const auto& f : r.flows)
    {
        delivered += f.bytesDelivered;
        retransmitted += f.bytesRetransmitted;
        failed += f.failed ? 1 : 0;
        if (f.longestStall > stall)
        {
            stall = f.longestStall;
            who = f.label;
        }
    }
    return {delivered, retransmitted, stall, who, failed};
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o;
    CommandLine cmd(__FILE__);
    MrcStrictOptions strict; // numeric options parsed whole (CommandLine alone: 2.5 -> 2)
    strict.Add(cmd, "planes", "planes (NIC ports per host)", o.planes);
    strict.Add(cmd, "t0", "T0 switches per plane (>= 2)", o.t0);
    strict.Add(cmd, "hostsPerT0", "hosts per T0", o.hostsPerT0);
    strict.Add(cmd, "t1", "T1 switches per plane", o.t1);
    strict.Add(cmd, "bytes", "bytes per host pair (0: more than the run can carry)", o.bytes);
    strict.Add(cmd, "failAt", "failure time, us", o.failAtUs);
    strict.Add(cmd, "repairAt", "repair time, us (0: never)", o.repairAtUs);
    strict.Add(cmd, "stop", "end of the run, us", o.stopUs);
    strict.Add(cmd, "interval", "time series interval, us", o.intervalUs);
    strict.Add(cmd, "kind", "carrier (link down) or blackhole (carrier stays up)", o.kind);
    strict.Add(cmd, "fabric", "mrc, roce or both", o.fabric);
    strict.Add(cmd, "qps", "RoCEv2 queue pairs per host pair (QP scaling)", o.qps);
    strict.Add(cmd, "csv", "write <prefix>-<fabric>-series.csv and -flows.csv", o.csv);
    strict.Add(cmd, "seed", "RNG seed (EVs, ECMP hash)", o.seed);
    MrcValueParser::ParseCommandLine(cmd, argc, argv);
    try
    {
        if (o.kind != "carrier" && o.kind != "blackhole")
        {
            throw std::invalid_argument("--kind (=" + o.kind + ") must be carrier or blackhole");
        }
        if (o.fabric != "mrc" && o.fabric != "roce" && o.fabric != "both")
        {
            throw std::invalid_argument("--fabric (=" + o.fabric + ") must be mrc, roce or both");
        }
        if (o.t0 < 2)
        {
            throw std::invalid_argument("--t0 (=" + std::to_string(o.t0)
                                        + ") must be >= 2: the flows cross the T1s");
        }
        if (o.qps < 1 || o.qps > 64)
        {
            throw std::invalid_argument("--qps (=" + std::to_string(o.qps)
                                        + ") must be in [1, 64]");
        }
        if (!(o.intervalUs > 0) || !(o.failAtUs >= 0) || !(o.stopUs > o.failAtUs)
            || (o.repairAtUs != 0 && !(o.repairAtUs > o.failAtUs)))
        {
            throw std::invalid_argument("times must satisfy interval > 0, 0 <= failAt < stop, "
                                        "and repairAt = 0 or > failAt");
        }
        for (const auto& [name, us] : {std::pair<const char*, double>{"--failAt", o.failAtUs},
                                       {"--repairAt", o.repairAtUs},
                                       {"--stop", o.stopUs},
                                       {"--interval", o.intervalUs}})
        {
            MrcValueParser::ToTime(name, us, Time::US); // beyond ns-3's time range: refused
        }
        std::vector<Result> results;
        if (o.fabric != "roce")
        {
            results.push_back(RunFabric(o, false));
        }
        if (o.fabric != "mrc")
        {
            results.push_back(RunFabric(o, true));
        }
        const MrcClosSpec spec = MrcClosSpec::TwoTier(o.planes, o.t0, o.hostsPerT0, o.t1);
        std::cout << spec.Describe() << "\n"
                  << "one write per host pair, host i -> host i + " << o.hostsPerT0
                  << "; T0 0 - T1 0 (plane 0) "
                  << (o.kind == "carrier" ? "link down" : "black hole") << " at " << o.failAtUs
                  << " us, repaired "
                  << (o.repairAtUs > 0 ? "at " + std::to_string(int64_t(o.repairAtUs)) + " us"
                                       : std::string("never"))
                  << "; seed " << o.seed << ", run " << RngSeedManager::GetRun() << "\n";
        for (const Result& r : results)
        {
            PrintRun(o, r);
        }
        std::cout << "\n"
                  << std::left << std::setw(26) << "fabric" << std::right << std::setw(14)
                  << "delivered MB" << std::setw(18) << "retransmitted MB" << std::setw(20)
                  << "longest stall (us)" << std::setw(14) << "failed flows"
                  << "\n";
        for (const Result& r : results)
        {
            const auto [delivered, rtx, stall, who, failed] = Totals(r);
            std::cout << std::left << std::setw(26) << r.name << std::right << std::fixed
                      << std::setprecision(2) << std::setw(14) << delivered / 1e6 << std::setw(18)
                      << rtx / 1e6 << std::setw(20) << std::setprecision(1)
                      << stall.GetSeconds() * 1e6 << std::setw(14) << failed << "   (" << who
                      << ")\n";
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
