/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The flagship comparison (the README's main job): one AI-training job and one failure
 * schedule on three fabrics.
 *
 *   MRC/SRv6            MRC queue pairs sprayed over static SRv6 paths, trimming switches
 *   RoCEv2/ECMP+BGP     RoCEv2-style queue pairs (one path, go-back-N, DCQCN) over per-flow
 *                       ECMP with the BGP reconvergence model, ECN switches that drop
 *   RoCEv2 xN QPs       the same with N queue pairs per peer (QP scaling)
 *   RoCEv2/PFC          (--fabrics=...,roce-pfc,roce-pfc-xN) the RoCEv2 queue pairs on a
 *                       lossless fabric: PFC on every switch and NIC port, ECN for DCQCN
 *
 * --roceSinglePlane gives the RoCEv2 fabrics one plane at Planes x the link rate (one 400G
 * plane against MRC's 4x100G, as the paper's comparison clusters), the same bandwidth.
 *
 * The cluster is a two-tier multi-plane Clos (default 4 planes, 16 T0 x 8 hosts, 8 T1 per
 * plane, 100 Gb/s links: 128 hosts with 400 Gb/s each; the scenario's own default is 8 T0s,
 * 64 hosts: --ns3::MrcClusterScenario::T0Count=8). Every step is a compute gap, then a
 * ring all-reduce over all hosts and all-to-alls within groups of 8, at once; the step ends
 * when the last transfer arrives (P100). The failures, mid-run: a T0-T1 link loses carrier
 * and is repaired later, another link flaps, and a T1 switch black-holes (carrier up) and is
 * then rebooted (down, up). The program prints, per fabric, the step times before, during and
 * after the failures (P50/P99/P100), the bytes retransmitted, the longest stall of any flow and
 * the queue pairs that failed, and writes a results directory (doc/mrc.rst, "Results
 * directory"): one sub-directory per fabric, comparison.csv and summary.json at the top.
 *
 *   mrc-ai-cluster                       # about 3 minutes on 2 cores
 *   mrc-ai-cluster --quick               # 16 hosts, seconds (the tests run it)
 *   mrc-ai-cluster --fabrics=mrc,roce --qps=8 --out=results
 *   mrc-ai-cluster --failures=my-schedule.json --ns3::MrcBgpReconvergenceModel::BfdEnabled=true
 *   mrc-ai-cluster --quick --tcp=1000000               # a TCP permutation beside the job
 *   mrc-ai-cluster --quick --workload=workload-moe-sample.txt \
 *                  --ns3::MrcClusterScenario::GpusPerServer=2     # an imported training step
 *
 * The fabrics run side by side, one per core (--jobs, default: the machine's cores, at most
 * the fabrics), each in a child process; the output and the results directory are the same
 * for any --jobs (--jobs=1: one after the other in this process).
 *
 * In an ns-3 configured with --enable-mpi one fabric can be distributed over MPI ranks, e.g.
 *   mpiexec -n 2 mrc-ai-cluster --quick --fabrics=mrc --mpi
 * (MrcClusterScenario on MPI ranks; rank 0 prints and writes the results directory).
 *
 * Any MrcClusterScenario attribute can be set with --ns3::MrcClusterScenario::<Name>=value.
 */

#include "mrc-ai-cluster-jobs.h"

#include "ns3/core-module.h"
#include "ns3/mrc-module.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

using namespace ns3;

namespace
{

/// Command-line options.
struct Options
{
    bool quick{false};                         //!< small cluster
    std::string fabrics{"mrc,roce,roce-xN"};   //!< which fabrics
    uint32_t qps{4};                           //!< QPs per peer for roce-xN
    std::string out{"mrc-ai-cluster-results"}; //!< results directory ("" = none)
    std::string failures;                      //!< schedule file (replaces the built-in one)
    bool noFailures{false};                    //!< healthy run
    double failAtUs{-1};                       //!< first failure (-1: preset)
    double spanUs{-1};                         //!< failure window (-1: preset)
    bool roceSinglePlane{false};               //!< RoCEv2 fabrics on one plane at N x rate
    std::string workload;                      //!< SimAI / AICB workload file ("": none)
    uint32_t jobs{0};                          //!< fabrics run at once (0: one per core)
    bool mpi{false};                           //!< one fabric over MPI ranks
    uint64_t tcpBytes{0};                      //!< TCP permutation beside the job (0: none)
};

/**
 * \param t a time
 * \return it in microseconds, no decimals
 */
std::string
Us(Time t)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(0) << t.GetSeconds() * 1e6;
    return os.str();
}

/**
 * The built-in failure schedule, inside [at, at + span]: the link p0-t0-0 - p0-t1-0 loses
 * carrier at `at` and is repaired at the end; a link of plane 1 flaps from 10 % to 60 % of the
 * window; the last T1 of the last plane black-holes from 20 % to 40 % and is then rebooted
 * (down from 40 % to 95 %).
 * \param spec the topology
 * \param at start
 * \param span length
 * \return the failures
 */
std::vector<MrcFailureSpec>
BuiltInSchedule(const MrcClosSpec& spec, Time at, Time span)
{
    auto name = [](uint32_t plane, const std::string& tier, uint32_t index) {
        return "p" + std::to_string(plane) + "-" + tier + "-" + std::to_string(index);
    };
    const uint32_t p1 = spec.planes > 1 ? 1 : 0;
    const uint32_t lastPlane = spec.planes - 1;
    const uint32_t lastT1 = spec.t1PerPod - 1;
    std::vector<MrcFailureSpec> out;
    MrcFailureSpec down;
    down.kind = MrcFailureKind::LINK_DOWN;
    down.at = at;
    down.nodeA = name(0, "t0", 0);
    down.nodeB = name(0, "t1", 0);
    down.duration = span;
    down.origin = "built-in: link down";
    out.push_back(down);
    MrcFailureSpec flap;
    flap.kind = MrcFailureKind::FLAP;
    flap.at = at + span / 10;
    flap.nodeA = name(p1, "t0", 1);
    flap.nodeB = name(p1, "t1", 1 % spec.t1PerPod);
    flap.period = span / 5;
    flap.duty = 0.5;
    flap.duration = span / 2;
    flap.origin = "built-in: flap";
    out.push_back(flap);
    MrcFailureSpec hole;
    hole.kind = MrcFailureKind::SWITCH_BLACKHOLE;
    hole.at = at + span / 5;
    hole.switchName = name(lastPlane, "t1", lastT1);
    hole.duration = span / 5;
    hole.origin = "built-in: T1 black hole";
    out.push_back(hole);
    MrcFailureSpec reboot;
    reboot.kind = MrcFailureKind::SWITCH_DOWN;
    reboot.at = at + span * 2 / 5;
    reboot.switchName = hole.switchName;
    reboot.duration = span * 11 / 20;
    reboot.origin = "built-in: T1 reboot";
    out.push_back(reboot);
    return out;
}

/**
 * \param st step durations
 * \return "P50 / P99 / P100" in us, or "-" without steps
 */
std::string
Triple(const MrcCompletionStats& st)
{
    if (st.GetCount() == 0)
    {
        return "-";
    }
    return Us(st.GetMedian()) + " / " + Us(st.GetPercentile(99)) + " / " + Us(st.GetMax()) + " ("
           + std::to_string(st.GetCount()) + ")";
}

/**
 * Print the comparison table.
 * \param runs the results
 */
void
PrintTable(const std::vector<MrcScenarioResult>& runs)
{
    std::cout << "\nstep time, us: P50 / P99 / P100 (steps)\n"
              << std::left << std::setw(38) << "fabric" << std::setw(26) << "before failures"
              << std::setw(28) << "during" << std::setw(26) << "after" << std::right
              << std::setw(10) << "rtx MB" << std::setw(12) << "stall us" << std::setw(10)
              << "QP fail"
              << "\n";
    // A column wider than its field (long steps) still ends with a space.
    auto cell = [](const std::string& text, size_t width) {
        return text.size() + 1 >= width ? text + " " : text;
    };
    for (const auto& r : runs)
    {
        std::cout << std::left << std::setw(38) << cell(r.name, 38) << std::setw(26)
                  << cell(Triple(r.GetStepStats(MrcScenarioPhase::BEFORE)), 26) << std::setw(28)
                  << cell(Triple(r.GetStepStats(MrcScenarioPhase::DURING)), 28) << std::setw(26)
                  << cell(Triple(r.GetStepStats(MrcScenarioPhase::AFTER)), 26) << std::right
                  << std::fixed << std::setprecision(2) << std::setw(10)
                  << r.bytesRetransmitted / 1e6 << std::setw(12) << Us(r.longestStall)
                  << std::setw(10) << r.failedFlows << "\n";
    }
}

/**
 * Print one run's details.
 * \param r the result
 */
void
PrintRun(const MrcScenarioResult& r)
{
    const MrcCompletionStats all = r.GetStepStats();
    std::cout << "== " << r.name << ": " << r.steps.size() << "/" << r.iterations << " steps"
              << (r.jobDone ? "" : " (NOT finished)") << (r.jobFailed ? " (FAILED)" : "")
              << ", job ended at " << Us(r.end) << " us; step P50 " << Us(all.GetMedian())
              << " us, P100 " << Us(all.GetMax()) << " us (ideal "
              << (r.steps.empty() ? std::string("-") : Us(r.steps.front().ideal)) << " us)\n"
              << "   delivered " << std::fixed << std::setprecision(1) << r.bytesDelivered / 1e6
              << " MB of " << r.bytesPosted / 1e6 << " MB; retransmitted " << r.retransmissions
              << " packets (" << r.rtxTrimmed << " after trims, " << r.rtxTimeout
              << " after timeouts, " << r.rewinds << " go-back-N rewinds); longest stall "
              << Us(r.longestStall) << " us ("
              << (r.longestStallFlow.empty() ? "-" : r.longestStallFlow) << ")\n"
              << "   switches: " << r.trims << " trimmed, " << r.queueDrops << " dropped; "
              << r.ecnMarks << " ECN-marked; " << r.faultDrops << " lost to failures, "
              << r.routingDrops << " without a route; EVs retired " << r.evRetirements
              << "; BGP last FIB change "
              << (!r.routingConverged.IsStrictlyPositive() ? std::string("none")
                                                           : Us(r.routingConverged) + " us")
              << "; corrupt transfers " << r.corruptTransfers << "\n"
              << "   T0->T1 uplink load: busiest / mean = " << std::setprecision(2)
              << r.uplinkBalance << "\n";
    for (const auto& j : r.jobs)
    {
        if (j.lateness.starts > 0)
        {
            std::cout << "   job " << j.name << " on MPI ranks: " << j.lateness.starts
                      << " collective runs started late (due when another ended, learnt one "
                      << "lookahead later), by " << j.lateness.total.GetNanoSeconds()
                      << " ns in all, at most " << j.lateness.longest.GetNanoSeconds() << " ns\n";
        }
    }
    if (!r.tcpFlows.empty())
    {
        const MrcCompletionStats tcp = r.GetTcpStats();
        std::cout << "   TCP permutation: " << tcp.GetCount() << "/" << r.tcpFlows.size()
                  << " flows complete; FCT P50 " << Us(tcp.GetMedian()) << " us, P100 "
                  << Us(tcp.GetMax()) << " us\n";
    }
}

/**
 * An imported workload's communications (WorkloadFile), summed over the steps: per pass,
 * group kind and collective (labels "L<i>:<layer>/<pass> <group><n>").
 * \param r a run
 */
void
PrintComms(const MrcScenarioResult& r)
{
    struct Sum
    {
        uint32_t count{0}; //!< comms
        Time total;        //!< sum of durations
        Time longest;      //!< longest
        Time ideal;        //!< sum of ideals
    };

    std::map<std::string, Sum> sums;
    for (const auto& step : r.steps)
    {
        for (const auto& c : step.comms)
        {
            const size_t slash = c.label.rfind('/');
            std::string key = slash == std::string::npos ? c.label : c.label.substr(slash + 1);
            while (!key.empty() && std::isdigit(static_cast<unsigned char>(key.back())))
            {
                key.pop_back();
            }
            Sum& s = sums[key + " " + c.kind];
            s.count++;
            s.total += c.end - c.start;
            s.longest = std::max(s.longest, c.end - c.start);
            s.ideal += c.ideal;
        }
    }
    std::cout << "   communications (" << r.steps.size()
              << " steps): pass group collective: count, mean / longest us (mean ideal)\n";
    for (const auto& [key, s] : sums)
    {
        std::cout << "     " << std::left << std::setw(34) << key << std::right << std::setw(6)
                  << s.count << ", " << Us(s.total / s.count) << " / " << Us(s.longest) << " ("
                  << Us(s.ideal / s.count) << ")\n";
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o;
    CommandLine cmd(__FILE__);
    MrcStrictOptions strict; // numeric options parsed whole (CommandLine alone: 2.5 -> 2)
    strict.Add(cmd, "quick", "a small cluster (16 hosts, 2 planes) that runs in seconds", o.quick);
    strict.Add(cmd,
               "fabrics",
               "comma-separated: mrc, mrc-ecmp, roce, roce-xN, roce-pfc, roce-pfc-xN",
               o.fabrics);
    strict.Add(cmd, "qps", "queue pairs per peer of roce-xN (QP scaling), 2..64", o.qps);
    strict.Add(cmd, "out", "results directory (none: write nothing)", o.out);
    strict.Add(cmd,
               "failures",
               "failure schedule file (JSON/CSV) instead of the built-in one",
               o.failures);
    strict.Add(cmd, "noFailures", "run without failures", o.noFailures);
    strict.Add(cmd, "failAt", "start of the built-in failure window, us (-1: preset)", o.failAtUs);
    strict.Add(cmd, "span", "length of the built-in failure window, us (-1: preset)", o.spanUs);
    strict.Add(cmd,
               "roceSinglePlane",
               "RoCEv2 fabrics on one plane at Planes x LinkRate (SinglePlane)",
               o.roceSinglePlane);
    strict.Add(cmd,
               "jobs",
               "fabrics run at once, each in a child process, 1..64 (0: one per core, at most the "
               "fabrics; the output is the same for any value)",
               o.jobs);
    strict.Add(cmd,
               "tcp",
               "bytes every host sends to another over TCP from time 0, beside the job (a "
               "permutation: AddTcpPermutation; 0: none)",
               o.tcpBytes);
    strict.Add(cmd,
               "mpi",
               "distribute one fabric (--fabrics) over the ranks of ns-3's MPI engine: start with "
               "mpiexec, needs an ns-3 configured with --enable-mpi; rank 0 prints and writes",
               o.mpi);
    strict.Add(cmd,
               "workload",
               "a SimAI/AICB workload file to run instead of the default job (WorkloadFile; "
               "see also GpusPerServer, CommScale, ComputeScale, WorkloadPlacement)",
               o.workload);
    // The cluster's size changes the scenario's defaults before the command line is applied,
    // so that an explicit --ns3::MrcClusterScenario::<Name>=value still wins: --quick is 16
    // hosts on 2 planes, the main job 128 hosts (16 T0s of 8 hosts, the scenario's 8 T1s and
    // 4 planes: 1:1, 400 Gb/s per host).
    bool quick = false;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        if (arg == "--quick" || arg == "--quick=1" || arg == "--quick=true")
        {
            quick = true;
        }
        else if (arg == "--quick=0" || arg == "--quick=false")
        {
            quick = false;
        }
    }
    const std::vector<std::pair<std::string, std::string>> preset =
        quick ? std::vector<std::pair<std::string, std::string>>{{"Planes", "2"},
                                                                 {"T0Count", "4"},
                                                                 {"HostsPerT0", "4"},
                                                                 {"T1Count", "4"},
                                                                 {"AllReduceSize", "1000000"},
                                                                 {"AllToAllSize", "128000"},
                                                                 {"AllToAllGroup", "4"},
                                                                 {"ComputeTime", "20us"},
                                                                 {"Iterations", "12"},
                                                                 {"ShowProgress", "false"}}
              : std::vector<std::pair<std::string, std::string>>{{"T0Count", "16"}};
    for (const auto& [name, value] : preset)
    {
        Config::SetDefault("ns3::MrcClusterScenario::" + name, StringValue(value));
    }
    MrcValueParser::ParseCommandLine(cmd, argc, argv);
    try
    {
        if (o.out == "none")
        {
            o.out.clear();
        }
        if (o.jobs > 64)
        {
            throw std::invalid_argument("--jobs (=" + std::to_string(o.jobs)
                                        + ") must be in [0, 64] (0: one per core)");
        }
        if (o.qps < 2 || o.qps > 64)
        {
            throw std::invalid_argument("--qps (=" + std::to_string(o.qps)
                                        + ") must be in [2, 64]");
        }
        // -1 is the preset; any other negative value (and a window of no length) is a typo.
        const auto text = [](double v) {
            std::ostringstream os;
            os << v;
            return os.str();
        };
        if (o.failAtUs < 0 && o.failAtUs != -1)
        {
            throw std::invalid_argument("--failAt (=" + text(o.failAtUs)
                                        + ") must be >= 0 us, or -1 for the preset");
        }
        if (o.spanUs <= 0 && o.spanUs != -1)
        {
            throw std::invalid_argument("--span (=" + text(o.spanUs)
                                        + ") must be > 0 us, or -1 for the preset");
        }
        // Beyond ns-3's time range MicroSeconds would wrap: refused.
        const Time failAt =
            MrcValueParser::ToTime("--failAt",
                                   o.failAtUs >= 0 ? o.failAtUs : (o.quick ? 600 : 5000),
                                   Time::US);
        const Time span = MrcValueParser::ToTime("--span",
                                                 o.spanUs > 0 ? o.spanUs : (o.quick ? 1200 : 8000),
                                                 Time::US);

        // Everything is checked before the first fabric runs: the fabric list, the schedule
        // file, every scenario's attributes and size, and that the results can be written.
        const std::vector<std::string> accepted =
            {"mrc", "mrc-ecmp", "roce", "roce-xN", "roce-pfc", "roce-pfc-xN"};
        const std::string acceptedText = "mrc, mrc-ecmp, roce, roce-xN, roce-pfc, roce-pfc-xN";
        std::vector<std::string> items;
        std::stringstream list(o.fabrics);
        for (std::string item; std::getline(list, item, ',');)
        {
            items.push_back(item);
        }
        if (!o.fabrics.empty() && o.fabrics.back() == ',')
        {
            items.emplace_back(); // getline drops a trailing empty item
        }
        for (size_t i = 0; i < items.size(); ++i)
        {
            if (std::find(accepted.begin(), accepted.end(), items[i]) == accepted.end())
            {
                throw std::invalid_argument("--fabrics (=\"" + o.fabrics + "\"): item "
                                            + std::to_string(i + 1) + " ('" + items[i]
                                            + "') is not one of " + acceptedText);
            }
        }
        if (items.empty())
        {
            throw std::invalid_argument("--fabrics is empty (one or more of " + acceptedText
                                        + ", comma-separated)");
        }
        if (o.mpi && items.size() != 1)
        {
            // ns-3's MPI interface frees its buffers when the simulator is destroyed, so a
            // process runs one distributed simulation.
            throw std::invalid_argument("--mpi runs one fabric per process: --fabrics (='"
                                        + o.fabrics + "') must name one of " + acceptedText);
        }
        const std::vector<MrcFailureSpec> fromFile =
            o.failures.empty() ? std::vector<MrcFailureSpec>{}
                               : MrcFailureScheduleParser::ParseFile(o.failures);
        std::vector<Ptr<MrcClusterScenario>> scenarios;
        for (const std::string& item : items)
        {
            Ptr<MrcClusterScenario> s = CreateObject<MrcClusterScenario>();
            if (item == "mrc" || item == "mrc-ecmp")
            {
                s->SetAttribute("Fabric", StringValue(item == "mrc" ? "mrc-srv6" : "mrc-ecmp"));
            }
            else
            {
                const bool pfc = item.rfind("roce-pfc", 0) == 0;
                const bool scaled = item.size() > 3 && item.substr(item.size() - 3) == "-xN";
                s->SetAttribute("Fabric", StringValue(pfc ? "roce-pfc" : "roce-ecmp"));
                s->SetAttribute("QpsPerPeer", UintegerValue(scaled ? o.qps : 1));
                s->SetAttribute("SinglePlane", BooleanValue(o.roceSinglePlane));
            }
            if (!o.workload.empty())
            {
                s->SetAttribute("WorkloadFile", StringValue(o.workload));
            }
            if (o.tcpBytes > 0)
            {
                s->AddTcpPermutation(o.tcpBytes, Time(0));
            }
            if (!o.failures.empty())
            {
                for (const MrcFailureSpec& f : fromFile)
                {
                    s->AddFailure(f);
                }
            }
            else if (!o.noFailures)
            {
                for (const MrcFailureSpec& f : BuiltInSchedule(s->GetSpec(), failAt, span))
                {
                    s->AddFailure(f);
                }
            }
            if (!o.out.empty())
            {
                // The run's key (MrcScenarioResult::key) names its directory.
                s->SetAttribute("OutputDirectory", StringValue(o.out + "/" + s->GetKey()));
            }
            s->GetSpec(); // checks the attributes and the fabric's size
            scenarios.push_back(s);
        }
        if (o.mpi)
        {
            MrcDistributed::Enable(&argc, &argv);
            o.jobs = 1;
            if (MrcDistributed::GetRank() != 0)
            {
                std::cout.rdbuf(nullptr); // rank 0 prints the whole run
            }
        }
        if (!o.out.empty() && MrcDistributed::GetRank() == 0)
        {
            // Last: it creates the directory.
            MrcResultsWriter::CheckDirectory(o.out, "--out");
        }

        uint32_t jobs = o.jobs;
        if (jobs == 0)
        {
            jobs =
                std::max(1U,
                         std::min<uint32_t>(std::thread::hardware_concurrency(), scenarios.size()));
        }
        std::cout << scenarios.front()->GetSpec().Describe() << "\n";
        for (const MrcFailureSpec& f : scenarios.front()->GetFailures())
        {
            std::cout << "  failure: " << f.kind << " " << f.DescribeTarget() << " at " << Us(f.at)
                      << " us"
                      << (f.duration.IsStrictlyPositive() ? " for " + Us(f.duration) + " us"
                                                          : std::string())
                      << "\n";
        }
        if (jobs > 1)
        {
            // Progress lines of runs side by side would overwrite each other.
            for (const Ptr<MrcClusterScenario>& s : scenarios)
            {
                s->SetAttribute("ShowProgress", BooleanValue(false));
            }
        }
        std::vector<MrcScenarioResult> runs;
        mrcaicluster::RunScenarios(scenarios, jobs, [&runs, &o](const MrcScenarioResult& r) {
            runs.push_back(r);
            PrintRun(r);
            if (!o.workload.empty())
            {
                PrintComms(r);
            }
        });
        PrintTable(runs);
        if (!o.out.empty() && MrcDistributed::GetRank() == 0)
        {
            MrcResultsWriter(o.out).WriteComparison(runs);
            std::cout << "results: " << o.out << "/ (comparison.csv, summary.json, one "
                      << "directory per fabric)\n";
        }
        MrcDistributed::Disable();
        for (const auto& r : runs)
        {
            if (r.corruptTransfers > 0)
            {
                std::cerr << "mrc-ai-cluster: " << r.name << " delivered corrupt data\n";
                return 1;
            }
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "mrc-ai-cluster: " << e.what() << "\n";
        MrcDistributed::Disable();
        return 2;
    }
    return 0;
}
