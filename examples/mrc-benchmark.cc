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
 *   mrc-benchmark --ks=8 --transport=mrc     # MRC over SRv6 with trimming switches
 *   mrc-benchmark --ks=8,16 --transport=mrc,udp   # both per k, and MRC / UDP per delivered GB
 *   mrc-benchmark --ks=8,16 --transport=mrc --htsim=PATH/htsim_uec   # and the UEC reference
 *
 * --htsim=PATH runs an htsim binary (htsim_uec of github.com/ultraethernet/uet-htsim, which
 * the user builds; nothing of it is part of the module) on the same permutation, fat-tree,
 * link rate and delay, and prints its row and MRC's wall time and memory as multiples of its
 * own (see mrc-benchmark-htsim.h).
 *
 * With --transport=mrc the table is followed by each run's flow completion times against the
 * line-rate ideal of the longest path (MrcLineRateModel: every packet back to back at the host
 * link, then the last one's propagation and store-and-forward to the receiver).
 *
 * Columns "deliv MB" and "wall s/GB" put transports on the same footing: application bytes that
 * reached their receivers, and wall seconds per delivered GB (UDP over per-flow ECMP loses
 * packets where flows collide, so it moves fewer bytes than it sends).
 *
 * --mpi (ns-3 built with --enable-mpi, the module in its contrib/; start with mpiexec) runs the
 * MRC permutation of one k distributed over the ranks of ns-3's MPI engine (see "Distributed
 * runs" in doc/mrc.rst): each rank posts its own hosts' writes and records its own hosts'
 * completions; rank 0 prints the row, with the packet-hops and events summed over the ranks,
 * its own wall time and the largest peak RSS of a rank; with --htsim, rank 0 then runs htsim
 * on one process, and the ratios add the ranks' peak RSS added up (each rank holds the whole
 * fabric):
 *
 *   mpiexec -n 2 mrc-benchmark --k=16 --transport=mrc --mpi [--htsim=PATH/htsim_uec]
 *
 * --repeat=N runs each k N times, the transports (and htsim) in turn within each round, and
 * ends the k with a summary: the fastest and the median wall time of each, MRC's ratios to them
 * and, with --htsim, the ratio of each round's two runs (median, best, worst: the runs of a round
 * follow each other, so they meet the same phase of the machine), and a check that every round
 * gave the same results. Wall time on a shared or virtual machine
 * varies by up to 2 x between runs of the same program, so ratios of one run each mislead;
 * interleaved rounds let both sides meet the same slow and fast periods. Not with --mpi:
 * Simulator::Destroy ends ns-3's MPI engine (MpiInterface::Destroy), one distributed
 * simulation per process.
 *
 *   mrc-benchmark --k=16 --transport=mrc --htsim=PATH/htsim_uec --repeat=3
 *
 * For figures worth quoting, build with -DMRC_ASSERTS=OFF -DCMAKE_BUILD_TYPE=Release
 * (utils/mrc.sh benchmark does).
 */

#include "mrc-benchmark-htsim.h"
#include "mrc-benchmark-stock.h"

#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mrc-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
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
 * \return how the C library's allocator was set up for this process (and htsim, which
 * inherits the environment): wall times depend on it (transparent huge pages, see
 * doc/mrc-validation.rst)
 */
std::string
MallocSetting()
{
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    return tunables && *tunables ? std::string("GLIBC_TUNABLES=") + tunables
                                 : std::string("glibc's defaults (GLIBC_TUNABLES unset or empty)");
}

/**
 * MessageDelivered trace of an MRC receiver.
 * \param finish where to record the time
 * \param msn message
 * \param bytes size
 */
void
OnMrcDelivered(Time* finish, uint32_t msn, uint64_t bytes)
{
    *finish = Simulator::Now();
}

/// What the benchmark needs to know of one run.
struct Options
{
    uint64_t bytes{2000000};                             //!< bytes per flow
    uint32_t packetSize{4096};                           //!< payload bytes per packet
    DataRate linkRate;                                   //!< every link's rate
    Time linkDelay;                                      //!< every link's delay
    uint32_t seed{1};                                    //!< RNG seed
    std::string scheduler{MrcSchedulerChoice::kDefault}; //!< event scheduler
    std::string htsim;                                   //!< htsim binary (empty: none)
    bool mpi{false};                                     //!< distributed over MPI ranks
    uint32_t repeat{1};                                  //!< rounds per k
};

/// What main needs of one run for its ratios.
struct RunFigures
{
    double totalWall{0};   //!< wall seconds of the whole run: setup, simulation, teardown
    double peakRss{0};     //!< the process's peak resident set size so far, MiB (--mpi: the
                           //!< largest of a rank's)
    double allRanksRss{0}; //!< --mpi: the ranks' peak resident set sizes added up, MiB
    double runWall{0};     //!< wall seconds of Simulator::Run
    uint32_t done{0};      //!< flows that received every byte
    uint64_t hops{0};      //!< packet-hops (every rank's)
    Time lastFinish;       //!< simulated time of the last completion
    double deliveredGb{0}; //!< application GB delivered

    /// \return wall seconds of Simulator::Run per delivered GB (0: nothing delivered)
    double WallPerGb() const
    {
        return deliveredGb > 0 ? runWall / deliveredGb : 0.0;
    }
};

/**
 * The benchmark's permutation: host i sends to the i-th entry (a derangement drawn from RNG
 * stream 0 of --seed and --RngRun, the same for MRC and htsim).
 * \param hosts host count \param seed RNG seed \return the destinations
 */
std::vector<uint32_t>
Permutation(uint32_t hosts, uint32_t seed)
{
    RngSeedManager::SetSeed(seed);
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(0);
    return MrcPermutationHelper::Derangement(hosts, rng);
}

/**
 * \param k fat-tree radix \param o options
 * \return k's permutation and fabric, as the other simulators (stock ns-3, htsim) take them
 */
mrcbenchmark::PermutationSetup
PermutationOf(uint32_t k, const Options& o)
{
    return mrcbenchmark::PermutationSetup{k,
                                          Permutation(k * k * k / 4, o.seed),
                                          o.bytes,
                                          o.packetSize,
                                          o.linkRate,
                                          o.linkDelay};
}

/// Column widths of the table, shared by the header and every row.
constexpr int kWidths[] = {4, 6, 7, 10, 12, 10, 14, 14, 14, 12, 12, 12};

/// One row of the table.
struct Row
{
    uint32_t k{0};                  //!< fat-tree radix
    std::string transport;          //!< udp, tcp, mrc or htsim
    uint32_t hosts{0};              //!< hosts (flows)
    uint32_t done{0};               //!< flows that received every byte
    double lastFinishMs{0};         //!< simulated time of the last completion
    double wall{0};                 //!< wall seconds
    std::optional<uint64_t> hops;   //!< packet-hops (none: not known, printed "-")
    std::optional<uint64_t> events; //!< events executed (none: not known)
    double peakRss{0};              //!< MiB
    double delivered{0};            //!< application bytes delivered
};

/// \param r a row: print it under the table's header
void
PrintRow(const Row& r)
{
    const int* w = kWidths;
    // A count, or its rate per wall second; "-" when the simulator does not report it.
    const auto column = [w](int c, const std::optional<uint64_t>& count, double per) {
        std::cout << std::setw(w[c]);
        if (count)
        {
            std::cout << *count / per;
        }
        else
        {
            std::cout << "-";
        }
    };
    std::ostringstream done;
    done << r.done << "/" << r.hosts;
    std::cout << std::left << std::setw(w[0]) << r.k << std::setw(w[1]) << r.transport << std::right
              << std::setw(w[2]) << r.hosts << std::setw(w[3]) << done.str() << std::fixed
              << std::setprecision(3) << std::setw(w[4]) << r.lastFinishMs << std::setw(w[5])
              << r.wall;
    std::cout << std::setprecision(0);
    column(6, r.hops, 1.0);
    column(7, r.hops, r.wall);
    column(8, r.events, r.wall);
    std::cout << std::setprecision(1) << std::setw(w[9]);
    if (r.peakRss > 0)
    {
        std::cout << r.peakRss;
    }
    else
    {
        std::cout << "-"; // not known (a program that ended before its memory was sampled)
    }
    std::cout << std::setw(w[10]) << r.delivered / 1e6 << std::setprecision(2) << std::setw(w[11])
              << (r.delivered > 0 ? r.wall / (r.delivered / 1e9) : 0.0) << std::endl;
}

/**
 * Run the permutation on ns-3's own fat-tree (mrcbenchmark::RunStock) and print its row.
 * \param k fat-tree radix \param o options \param start when the run began (wall clock)
 * \return its figures
 */
RunFigures
RunStockRow(uint32_t k, const Options& o, std::chrono::steady_clock::time_point start)
{
    const mrcbenchmark::StockResult s = mrcbenchmark::RunStock(PermutationOf(k, o));
    Row row;
    row.k = k;
    row.transport = "stock";
    row.hosts = s.hosts;
    row.done = s.done;
    row.lastFinishMs = s.lastFinish.GetSeconds() * 1e3;
    row.wall = s.wallS;
    row.hops = s.hops;
    row.events = s.events;
    row.peakRss = PeakRssMiB();
    row.delivered = static_cast<double>(s.delivered);
    PrintRow(row);
    Simulator::Destroy();
    Names::Clear();
    RunFigures r;
    r.totalWall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.peakRss = PeakRssMiB();
    r.runWall = s.wallS;
    r.done = s.done;
    r.hops = s.hops;
    r.lastFinish = s.lastFinish;
    r.deliveredGb = s.delivered / 1e9;
    return r;
}

/**
 * Run the permutation once and print its row (and, for MRC, its FCTs).
 * \param k fat-tree radix
 * \param transport udp, tcp or mrc
 * \param o options
 * \return its figures
 */
RunFigures
RunOne(uint32_t k, const std::string& transport, const Options& o)
{
    const auto start = std::chrono::steady_clock::now();
    MrcSchedulerChoice::Apply("--scheduler", o.scheduler); // again after each Destroy
    if (transport == "stock")
    {
        return RunStockRow(k, o, start); // draws the permutation, which seeds as below
    }
    RngSeedManager::SetSeed(o.seed); // the run number stays --RngRun's
    MrcClosTopologyHelper topoHelper;
    topoHelper.SetRanks(MrcDistributed::GetRanks()); // 1 without --mpi
    for (MrcLinkTier t : {MrcLinkTier::HOST_T0, MrcLinkTier::T0_T1, MrcLinkTier::T1_T2})
    {
        topoHelper.SetLinkRate(t, o.linkRate);
        topoHelper.SetLinkDelay(t, o.linkDelay);
    }
    const bool mrc = transport == "mrc";
    if (mrc)
    {
        topoHelper.SetTrimmingQueues();
    }
    Ptr<MrcFabricTopology> topo = topoHelper.Build(MrcClosSpec::FatTree(k));
    // Fixed streams for what the fabric installed (the permutation draws from stream 0, the
    // queue pairs from 1, 2, ...), so that a row does not depend on the runs before it in the
    // process (--ks=4,8 and --ks=8 give the same k=8 row).
    MrcClosTopologyHelper::AssignStreams(topo, int64_t(1) << 32);
    MrcDataPlaneHelper dataPlane;
    dataPlane.SetDataPlane(mrc ? MrcDataPlane::SRV6 : MrcDataPlane::ECMP);
    dataPlane.GetEcmpHelper().SetBaseSeed(o.seed);
    dataPlane.Install(topo);
    MrcPermutationHelper perm(topo);
    std::unique_ptr<MrcHelper> mrcHelper;
    std::vector<Time> finish;
    std::vector<uint32_t> dst; // MRC: host i writes to dst[i]
    if (mrc)
    {
        mrcHelper = std::make_unique<MrcHelper>(topo, dataPlane);
        mrcHelper->Install();
        dst = Permutation(topo->GetHostCount(), o.seed);
        finish.assign(dst.size(), Time(-1));
        for (uint32_t i = 0; i < dst.size(); ++i)
        {
            // Every rank connects every pair (the same objects everywhere); each posts and
            // watches only what its own hosts do.
            auto [a, b] = mrcHelper->Connect(i, dst[i]);
            if (MrcDistributed::IsLocal(a->GetNode()))
            {
                a->PostWrite(o.bytes);
            }
            if (MrcDistributed::IsLocal(b->GetNode()))
            {
                b->TraceConnectWithoutContext("MessageDelivered",
                                              MakeBoundCallback(&OnMrcDelivered, &finish[i]));
            }
        }
    }
    else
    {
        perm.SetBytesPerFlow(o.bytes);
        perm.SetPacketSize(o.packetSize);
        perm.SetTransport(transport == "tcp" ? MrcPermutationTransport::TCP
                                             : MrcPermutationTransport::UDP);
        perm.SetTrackCollisions(false);
        perm.Install();
    }
    Simulator::Stop(Seconds(1));

    const uint64_t events0 = Simulator::GetEventCount();
    double mpiPeakRss = 0; // --mpi: the largest peak RSS of a rank, MiB
    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    NodeContainer all = topo->GetAllSwitches();
    all.Add(topo->GetHosts());
    // This rank's nodes (every node without MPI), summed over the ranks at rank 0.
    std::vector<uint64_t> counts{Simulator::GetEventCount() - events0,
                                 MrcFabricQueueStats::Sum(MrcDistributed::Select(all)).sentPackets,
                                 static_cast<uint64_t>(PeakRssMiB() * 1024)};
    MrcDistributed::SumToRoot(counts);
    const uint64_t events = counts[0];
    const uint64_t hops = counts[1];
    const double allRanksRss = counts[2] / 1024.0; // MiB; without MPI this process's
    if (MrcDistributed::IsEnabled())
    {
        // Completion times plus one (0: not here), and the peak RSS in KiB: maxima at rank 0.
        std::vector<int64_t> maxima;
        for (const Time& f : finish)
        {
            maxima.push_back(f.IsNegative() ? 0 : f.GetTimeStep() + 1);
        }
        maxima.push_back(static_cast<int64_t>(PeakRssMiB() * 1024));
        MrcDistributed::MaxToRoot(maxima);
        for (size_t i = 0; i < finish.size(); ++i)
        {
            finish[i] = maxima[i] > 0 ? TimeStep(maxima[i] - 1) : Time(-1);
        }
        mpiPeakRss = maxima.back() / 1024.0;
    }
    Time last(0);
    uint32_t done = 0;
    uint64_t delivered = 0; // application bytes that reached their receiver
    if (!mrc)
    {
        for (const auto& f : perm.GetFlows())
        {
            finish.push_back(f.finish);
            delivered += f.received;
        }
    }
    std::vector<Time> fct;
    for (const Time& f : finish)
    {
        fct.push_back(f.IsNegative() ? Time::Max() : f);
        if (!f.IsNegative())
        {
            ++done;
            last = Max(last, f);
        }
    }
    if (mrc)
    {
        delivered = uint64_t(done) * o.bytes; // MRC reports whole messages only
    }
    Row row;
    row.k = k;
    row.transport = transport;
    row.hosts = topo->GetHostCount();
    row.done = done;
    row.lastFinishMs = last.GetSeconds() * 1e3;
    row.wall = wall;
    row.hops = hops;
    row.events = events;
    row.peakRss = MrcDistributed::IsEnabled() ? mpiPeakRss : PeakRssMiB();
    row.delivered = delivered;
    if (MrcDistributed::GetRank() == 0)
    {
        PrintRow(row);
    }
    if (mrc && done == finish.size() && MrcDistributed::GetRank() == 0)
    {
        // Line rate (MrcLineRateModel, as the collectives' ideals): every packet back to back
        // at the host link, then the last one's propagation and store-and-forward over its
        // path, one way (a completion is the last byte placed at the receiver); the longest
        // path of the permutation.
        const MrcLineRateModel line(static_cast<double>(o.linkRate.GetBitRate()),
                                    1,
                                    o.linkDelay,
                                    o.packetSize,
                                    MrcDataWireBytes(0));
        Time ideal(0);
        for (uint32_t i = 0; i < dst.size(); ++i)
        {
            ideal = Max(ideal, line.Transfer(o.bytes, topo->GetSwitchHops(i, dst[i]) + 1));
        }
        MrcCompletionStats s(fct);
        std::cout << "     FCT us: max " << s.GetMax().GetMicroSeconds() << ", P99 "
                  << s.GetPercentile(99).GetMicroSeconds() << ", median "
                  << s.GetMedian().GetMicroSeconds() << "; line-rate ideal (longest path) "
                  << ideal.GetMicroSeconds() << "; max/ideal " << std::setprecision(3)
                  << s.GetMax().GetSeconds() / ideal.GetSeconds() << std::endl;
    }
    Simulator::Destroy();
    Names::Clear();
    RunFigures r;
    r.totalWall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.peakRss = MrcDistributed::IsEnabled() ? mpiPeakRss : PeakRssMiB();
    r.allRanksRss = allRanksRss;
    r.runWall = wall;
    r.done = done;
    r.hops = hops;
    r.lastFinish = last;
    r.deliveredGb = delivered / 1e9;
    return r;
}

/**
 * Run htsim on k's permutation, print its row and MRC's ratios to it.
 * \param k fat-tree radix \param o options \param mrc the module's MRC run of k, if any
 * \return htsim's wall seconds (whole process)
 */
double
RunHtsimRow(uint32_t k, const Options& o, const RunFigures* mrc)
{
    const mrcbenchmark::HtsimResult h =
        mrcbenchmark::RunHtsim(mrcbenchmark::HtsimSetup{PermutationOf(k, o), o.htsim, o.seed});
    Row row;
    row.k = k;
    row.transport = "htsim";
    row.hosts = h.flows;
    row.done = h.done;
    row.lastFinishMs = h.lastFinishUs * 1e-3;
    row.wall = h.wallS;
    row.peakRss = h.peakRssMiB;
    row.delivered = double(h.done) * h.bytes;
    PrintRow(row);
    std::cout << "     htsim: " << h.commandLine << " (" << h.newPackets << " new and "
              << h.rtxPackets << " retransmitted data packets; wall of the whole process)"
              << std::endl;
    if (mrc && h.wallS > 0)
    {
        // Every round's wall ratio, which the summary's round-by-round figures are made of;
        // the memory ratio only if htsim lived long enough for its memory to be sampled.
        std::cout << "     k=" << k << ": MRC / htsim wall (whole run, setup included) "
                  << std::setprecision(2) << mrc->totalWall / h.wallS;
        if (h.peakRssMiB <= 0)
        {
            std::cout << ", peak RSS not compared (htsim ended before its memory was sampled)";
        }
        else
        {
            std::cout << ", peak RSS " << mrc->peakRss / h.peakRssMiB;
            if (MrcDistributed::IsEnabled())
            {
                std::cout << " (the largest rank's; all " << MrcDistributed::GetRanks()
                          << " ranks' added up " << mrc->allRanksRss / h.peakRssMiB << "; MRC on "
                          << MrcDistributed::GetRanks() << " MPI ranks, htsim on one process)";
            }
        }
        std::cout << std::endl;
    }
    return h.wallS;
}

/// \param v values (not empty) \return the smallest and the median (the mean of the middle two)
std::pair<double, double>
MinAndMedian(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return {v.front(), n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2};
}

/**
 * --repeat: after k's rounds, check that every round of a transport gave the same results and
 * print the fastest and median wall times, and MRC's ratios to UDP's or stock ns-3's (wall of
 * Simulator::Run per delivered GB) and to htsim's (whole runs).
 * \param k fat-tree radix
 * \param rounds per transport, its figures in each round
 * \param htsimWalls htsim's wall seconds in each round (empty: not run)
 * \throws std::runtime_error if two rounds of a transport differ in their results
 */
void
PrintRounds(uint32_t k,
            const std::map<std::string, std::vector<RunFigures>>& rounds,
            const std::vector<double>& htsimWalls)
{
    std::map<std::string, std::pair<double, double>> run;   // Simulator::Run
    std::map<std::string, std::pair<double, double>> whole; // set-up included
    for (const auto& [t, figures] : rounds)
    {
        std::vector<double> runWalls;
        std::vector<double> totalWalls;
        for (const RunFigures& f : figures)
        {
            const RunFigures& first = figures.front();
            if (f.done != first.done || f.hops != first.hops || f.lastFinish != first.lastFinish)
            {
                std::ostringstream e;
                e << "--repeat: k=" << k << " " << t << " round " << runWalls.size() + 1
                  << " differs from round 1 (" << f.done << " flows done, " << f.hops
                  << " packet-hops, last completion " << f.lastFinish.GetNanoSeconds()
                  << " ns; round 1: " << first.done << ", " << first.hops << ", "
                  << first.lastFinish.GetNanoSeconds() << " ns)";
                throw std::runtime_error(e.str());
            }
            runWalls.push_back(f.runWall);
            totalWalls.push_back(f.totalWall);
        }
        run[t] = MinAndMedian(runWalls);
        whole[t] = MinAndMedian(totalWalls);
        std::cout << "     k=" << k << " " << t << " over " << figures.size()
                  << " rounds (identical results): Simulator::Run wall s min " << std::fixed
                  << std::setprecision(3) << run[t].first << ", median " << run[t].second
                  << "; whole run min " << whole[t].first << ", median " << whole[t].second
                  << std::endl;
    }
    if (!htsimWalls.empty())
    {
        const auto h = MinAndMedian(htsimWalls);
        std::cout << "     k=" << k << " htsim over " << htsimWalls.size() << " rounds: wall s min "
                  << std::setprecision(3) << h.first << ", median " << h.second << std::endl;
        if (whole.count("mrc") && h.first > 0)
        {
            // Each round's MRC run against the htsim run right after it: the pair meets the
            // same phase of the machine, which the minima and medians of the two sides need not.
            std::vector<double> paired;
            const std::vector<RunFigures>& mrc = rounds.at("mrc");
            for (size_t i = 0; i < mrc.size() && i < htsimWalls.size(); ++i)
            {
                paired.push_back(mrc[i].totalWall / htsimWalls[i]);
            }
            const auto r = MinAndMedian(paired);
            std::cout << "     k=" << k << ": MRC / htsim wall (whole runs), of the minima "
                      << std::setprecision(2) << whole["mrc"].first / h.first << ", of the medians "
                      << whole["mrc"].second / h.second << "; round by round: median " << r.second
                      << ", best " << r.first << ", worst "
                      << *std::max_element(paired.begin(), paired.end()) << std::endl;
        }
    }
    for (const char* t : {"udp", "stock"})
    {
        const double mrcGb = run.count("mrc") ? rounds.at("mrc").front().deliveredGb : 0;
        const double tGb = run.count(t) ? rounds.at(t).front().deliveredGb : 0;
        if (mrcGb > 0 && tGb > 0 && run[t].first > 0)
        {
            // Every round delivers the same bytes (checked above).
            std::cout << "     k=" << k << ": MRC / " << t
                      << " wall per delivered GB, of the minima " << std::setprecision(2)
                      << (run["mrc"].first / mrcGb) / (run[t].first / tGb) << ", of the medians "
                      << (run["mrc"].second / mrcGb) / (run[t].second / tGb) << std::endl;
        }
    }
    std::cout << std::defaultfloat;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string ks = "4,8,16";
    Options o; // rates and delays parsed from text below
    std::string rate = "100Gbps";
    std::string delay = "1us";
    std::string transport = "udp";
    CommandLine cmd(__FILE__);
    MrcStrictOptions strict; // numeric options parsed whole (CommandLine alone: 2.5 -> 2)
    strict.Add(cmd, "ks", "comma-separated fat-tree radices", ks);
    strict.Add(cmd, "k", "a single fat-tree radix (overrides --ks)", ks);
    strict.Add(cmd, "bytes", "bytes per flow", o.bytes);
    strict.Add(cmd, "packetSize", "payload bytes per packet", o.packetSize);
    strict.Add(cmd, "rate", "every link's rate", rate);
    strict.Add(cmd, "delay", "every link's delay", delay);
    strict.Add(cmd,
               "transport",
               "udp, tcp (ns-3's, over the module's per-flow ECMP), mrc (over SRv6), or stock "
               "(ns-3's UDP on a fat-tree of ns-3's helpers alone: IPv4, Ipv4GlobalRouting with "
               "per-packet ECMP), or a comma-separated list (each k runs each, in order; with "
               "mrc and udp or stock the ratio per delivered GB)",
               transport);
    strict.Add(cmd, "seed", "RNG seed", o.seed);
    cmd.AddValue("scheduler",
                 "the simulator's event scheduler (a TypeId name; empty: --SchedulerType's; "
                 "results do not depend on it)",
                 o.scheduler);
    cmd.AddValue("htsim",
                 "path of an htsim_uec binary (uet-htsim) to run on the same permutation after "
                 "each k, with MRC's wall time and memory as multiples of its (empty: none)",
                 o.htsim);
    strict.Add(cmd,
               "repeat",
               "rounds per k, 1..100: each transport (and htsim) runs this many times in turn, "
               "then the fastest and median wall times and MRC's ratios from them (1 with --mpi)",
               o.repeat);
    cmd.AddValue("mpi",
                 "distribute the MRC permutation of one k over the ranks of ns-3's MPI engine "
                 "(start with mpiexec; needs ns-3 built with --enable-mpi)",
                 o.mpi);
    MrcValueParser::ParseCommandLine(cmd, argc, argv);

    try
    {
        std::vector<std::string> transports;
        std::stringstream names(transport);
        for (std::string t; std::getline(names, t, ',');)
        {
            if (t != "udp" && t != "tcp" && t != "mrc" && t != "stock")
            {
                throw std::invalid_argument("--transport (=" + transport
                                            + ") must be udp, tcp, mrc or stock, or a "
                                              "comma-separated list of them");
            }
            transports.push_back(t);
        }
        if (transports.empty())
        {
            throw std::invalid_argument("--transport is empty: give udp, tcp, mrc or stock");
        }
        MrcSchedulerChoice::Check("--scheduler", o.scheduler);
        if (o.repeat < 1 || o.repeat > 100)
        {
            throw std::invalid_argument("--repeat (=" + std::to_string(o.repeat)
                                        + ") must be in 1..100");
        }
        o.linkRate = MrcValueParser::ParseDataRate("--rate", rate);
        o.linkDelay = MrcValueParser::ParseTime("--delay", delay);
        if (!o.htsim.empty())
        {
            mrcbenchmark::CheckHtsim(o.htsim, o.linkRate, o.linkDelay);
        }
        if (o.mpi)
        {
            if (transports != std::vector<std::string>{"mrc"} || ks.find(',') != std::string::npos)
            {
                throw std::invalid_argument("--mpi runs one k (--k=N) of --transport=mrc (UDP and "
                                            "TCP applications would start on every rank's copy of "
                                            "a host)");
            }
            if (o.repeat > 1)
            {
                // Simulator::Destroy ends ns-3's MPI engine (DistributedSimulatorImpl::Destroy
                // calls MpiInterface::Destroy; a second round failed inside OpenMPI).
                throw std::invalid_argument("--repeat (=" + std::to_string(o.repeat)
                                            + ") must be 1 with --mpi: ns-3's MPI engine runs "
                                              "one simulation per process (start mpiexec again "
                                              "for another round)");
            }
            MrcDistributed::Enable(&argc, &argv);
        }
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(o.packetSize));
        Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4 << 20));
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(4 << 20));
        Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(1)));
        Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(MicroSeconds(1)));

        // Rank 0 prints (--mpi); the other ranks' standard output stays empty.
        std::ostringstream header;
        header << "mrc-benchmark: permutation (mrc: over SRv6 with trimming; udp, tcp: over "
                  "per-flow ECMP; stock: ns-3 alone, IPv4 per-packet ECMP), "
               << o.bytes << " B per flow, " << o.packetSize << " B payloads, links " << rate
               << " / " << delay << ", seed " << o.seed << ", run " << RngSeedManager::GetRun()
               << ", scheduler " << (o.scheduler.empty() ? "--SchedulerType's" : o.scheduler)
               << (o.mpi ? ", " + std::to_string(MrcDistributed::GetRanks()) + " MPI ranks" : "")
               << ", malloc " << MallocSetting() << "\n";
        const int* w = kWidths;
        header << std::left << std::setw(w[0]) << "k" << std::setw(w[1]) << "tp" << std::right
               << std::setw(w[2]) << "hosts" << std::setw(w[3]) << "done" << std::setw(w[4])
               << "sim ms" << std::setw(w[5]) << "wall s" << std::setw(w[6]) << "pkt-hops"
               << std::setw(w[7]) << "hops/s" << std::setw(w[8]) << "events/s" << std::setw(w[9])
               << "peakRSS MiB" << std::setw(w[10]) << "deliv MB" << std::setw(w[11]) << "wall s/GB"
               << "\n";
        if (MrcDistributed::GetRank() == 0)
        {
            std::cout << header.str();
        }
        std::map<std::string, RunFigures> runs; // transport -> its figures
        std::stringstream list(ks);
        std::string item;
        while (std::getline(list, item, ','))
        {
            const uint32_t k = std::stoul(item);
            std::map<std::string, std::vector<RunFigures>> rounds; // transport -> each round's
            std::vector<double> htsimWalls;
            for (uint32_t round = 0; round < o.repeat; ++round)
            {
                runs.clear();
                for (const std::string& t : transports)
                {
                    runs[t] = RunOne(k, t, o);
                    rounds[t].push_back(runs[t]);
                }
                for (const auto& [t, name] :
                     std::vector<std::pair<std::string, std::string>>{{"udp", "UDP"},
                                                                      {"stock", "stock ns-3 UDP"}})
                {
                    if (runs.count("mrc") && runs.count(t) && runs[t].WallPerGb() > 0)
                    {
                        std::cout << "     k=" << k << ": MRC / " << name
                                  << " wall per delivered GB " << std::setprecision(2)
                                  << runs["mrc"].WallPerGb() / runs[t].WallPerGb() << std::endl;
                    }
                }
                if (!o.htsim.empty() && MrcDistributed::GetRank() == 0)
                {
                    // --mpi: rank 0 runs htsim once the ranks are done; the others wait.
                    htsimWalls.push_back(
                        RunHtsimRow(k, o, runs.count("mrc") ? &runs["mrc"] : nullptr));
                }
            }
            if (o.repeat > 1 && MrcDistributed::GetRank() == 0)
            {
                PrintRounds(k, rounds, htsimWalls);
            }
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        MrcDistributed::Disable();
        return 1;
    }
    MrcDistributed::Disable();
    return 0;
}
