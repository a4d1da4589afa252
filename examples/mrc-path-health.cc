/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup mrc
 * Path health of MRC over static SRv6: how fast and how well the transport routes around bad
 * paths. Four experiments (--experiment), each runs in seconds and prints its key figures;
 * output is deterministic for a given --seed and --RngRun; a bad argument is named on stderr
 * with its range (exit status 1).
 *
 * gray (MRC paper Fig. 9c/9d): one queue pair, host 0 -> host 1, 8 planes of 100 Gb/s, 2 T0s
 * and 2 T1s per plane: 16 paths, all active (EvSetSize --evs = 16). From --at (100 us) the link
 * from the sender's T0 to T1 0 of plane 0 drops --loss (20 %) of the data-direction frames
 * (GrayLoss UP): one EV of 16 is gray. Prints goodput per --interval (10 us), when the gray EV
 * was retired (EvStateChange to ASSUMED_BAD, with its cause) after the onset, its returns to
 * GOOD, retirements of healthy EVs, and min/mean goodput after the onset as a fraction of the
 * line rate. Published: the bad path is bypassed within a few RTTs (tens of us), goodput stays
 * near line rate.
 *
 * links (Fig. 12/13): host i writes to host i + hostsPerT0 (one MRC QP each) on 2 planes of
 * 4 T0s x 4 hosts and 4 T1s, filling every uplink; every --step (200 us) one more uplink of
 * T0 0 goes down (planes in turn, then the next T1), up to --count (4). Prints per --interval
 * (50 us) goodput, capacity left (the flows' demand capped by the paths whose two T0-T1 links
 * are up; wire rate, so payload goodput reaches about 0.97 of it) and their ratio, and the
 * mean ratio per number of links down, leaving out the interval of a change and the next one
 * if the change was mid-interval. Published: bandwidth tracks the remaining capacity, no
 * steady-state loss.
 *
 * flap: the same load, the first --count (2) links of that order flapping from --at (down
 * --duty of every --period); one run without and one with flaps: goodput of both per interval,
 * the time-averaged capacity, and the ratios while flapping; then what the flaps cost against
 * the time-averaged capacity (every up phase usable) and against the capacity with the links
 * held down (no up phase usable). Published: flapping T0-T1 links have no measurable effect
 * beyond the capacity they take away.
 *
 * steer (Fig. 14): one plane, 2 T0s, 2 T1s. Flow A (host 0 -> 2) may use only its EV through
 * T1 0 (DenyEv on the rest), flow B (host 1 -> 3) that path and one through T1 1; the uplink
 * to T1 0 is a bottleneck for both. Prints each flow's goodput after --at as a fraction of the
 * line rate and the share of B's data packets on the shared EV (Tx trace). Published: ECN-driven
 * EV steering moves B off the congested path, so both flows approach line rate.
 *
 *   mrc-path-health --experiment=gray
 *   mrc-path-health --experiment=links --count=6 --step=150
 *   mrc-path-health --experiment=flap --period=50 --duty=0.2
 *   mrc-path-health --experiment=flap --period=4000 --stop=12100   (flaps every 4 ms)
 *   mrc-path-health --experiment=steer
 *   mrc-path-health --experiment=links --perFlow   (each flow's series and recovery counters)
 *   mrc-path-health --experiment=links --traceFlow=0 2>trace.txt   (flow 0, event by event)
 *   mrc-path-health --experiment=flap --traceQueues=100000 2>queues.txt   (hot spots)
 *
 * Sources: this file (gray, steer, the options), mrc-path-health-load.cc (links, flap) and
 * mrc-path-health.h (what they share).
 */

#include "mrc-path-health.h"

#include "ns3/core-module.h"
#include "ns3/mrc-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("MrcPathHealth");

namespace ns3
{
namespace mrcpathhealth
{

Fabric
Build(const Options& o, const MrcClosSpec& spec, std::function<void(Fabric&)> schedule)
{
    RngSeedManager::SetSeed(o.seed);
    Fabric f;
    MrcClosTopologyHelper topoHelper;
    topoHelper.SetLinkRate(MrcLinkTier::HOST_T0, DataRate(o.rate));
    topoHelper.SetLinkRate(MrcLinkTier::T0_T1, DataRate(o.rate));
    topoHelper.SetTrimmingQueues();
    f.topo = topoHelper.Build(spec);
    f.dp = std::make_unique<MrcDataPlaneHelper>();
    f.dp->SetDataPlane(MrcDataPlane::SRV6);
    f.dp->Install(f.topo);
    f.failures = CreateObject<MrcFailureHelper>(f.topo);
    schedule(f);
    int64_t stream = MrcClosTopologyHelper::AssignStreams(f.topo, 0);
    stream += f.failures->AssignStreams(stream);
    f.mrc = std::make_unique<MrcHelper>(f.topo, *f.dp);
    f.mrc->SetQueuePairAttribute("EvSetSize", UintegerValue(o.evs));
    f.mrc->SetStream(stream);
    f.mrc->Install();
    f.monitor = CreateObject<MrcTransferMonitor>();
    f.monitor->SetAttribute("Interval", TimeValue(Time::FromDouble(o.intervalUs, Time::US)));
    return f;
}

void
AddFlow(const Options& o,
        Fabric& f,
        uint32_t a,
        uint32_t b,
        std::function<void(Ptr<MrcQueuePair>)> deny)
{
    auto [qa, qb] = f.mrc->Connect(a, b);
    if (deny)
    {
        deny(qa);
    }
    f.monitor->AddFlow("h" + std::to_string(a) + "->h" + std::to_string(b), qa, qb);
    const double bytes = DataRate(o.rate).GetBitRate() / 8.0 * o.planes * o.stopUs * 2e-6;
    qa->PostWrite(static_cast<uint64_t>(std::min(bytes, 4e9)));
    f.qps.emplace_back(qa, qb);
}

std::vector<uint64_t>
Series(const Fabric& f, const Options& o)
{
    std::vector<uint64_t> s = f.monitor->GetTotalSeries();
    s.resize(static_cast<size_t>(std::llround(o.stopUs / o.intervalUs)), 0);
    return s;
}

double
Gbps(double bytes, const Options& o)
{
    return bytes * 8e-3 / o.intervalUs;
}

namespace
{

/// \param f fabric \param src sending host \param dst receiving host \param qp the sender
/// \return every EV of the queue pair (active, then backups) with the T1 its path crosses
std::vector<std::pair<uint32_t, Ptr<Node>>>
EvsAndT1s(Fabric& f, uint32_t src, uint32_t dst, Ptr<MrcQueuePair> qp)
{
    std::vector<std::pair<uint32_t, Ptr<Node>>> out;
    const MrcPathSet& set = qp->GetPathSet();
    for (uint32_t p = 0; p < set.GetPlaneCount(); ++p)
    {
        for (const auto* list : {&set.GetActive(p), &set.GetBackups(p)})
        {
            for (uint32_t ev : *list)
            {
                const MrcSrv6Path path = f.dp->GetSrv6Helper().GetPath(src, dst, ev);
                out.emplace_back(ev, path.switches.size() > 2 ? path.switches[1] : nullptr);
            }
        }
    }
    return out;
}

/// Counts of EV state changes at a sender.
struct EvLog
{
    std::set<uint32_t> gray;             //!< EVs on the gray link
    Time firstRetired{-1};               //!< first retirement of a gray EV
    std::string cause;                   //!< its cause
    uint32_t grayRetired{0};             //!< retirements of gray EVs
    uint32_t grayRestored{0};            //!< returns of gray EVs to GOOD
    uint32_t healthyRetired{0};          //!< retirements of other EVs
    std::map<std::string, uint32_t> rtx; //!< retransmissions by cause (Retransmit trace)
};

/// \param log the log \param ev EV \param from old state \param to new state \param cause why
void
OnEv(EvLog* log, uint32_t ev, MrcEvState from, MrcEvState to, std::string cause)
{
    const bool gray = log->gray.count(ev) > 0;
    if (to == MrcEvState::ASSUMED_BAD && !gray)
    {
        log->healthyRetired++;
    }
    else if (to == MrcEvState::ASSUMED_BAD && log->grayRetired++ == 0)
    {
        log->firstRetired = Simulator::Now();
        log->cause = cause;
    }
    log->grayRestored += (gray && to == MrcEvState::GOOD) ? 1 : 0;
}

/// \param log the log \param psn PSN \param ev EV of its last transmission \param cause why
void
OnRtx(EvLog* log, uint32_t psn, uint32_t ev, std::string cause)
{
    log->rtx[cause]++;
}

/**
 * gray: one EV of 16 turns lossy.
 * \param o options
 */
void
Gray(const Options& o)
{
    const MrcClosSpec spec = MrcClosSpec::TwoTier(o.planes, 2, 1, o.t1, o.t1);
    uint32_t link = 0;
    Fabric f = Build(o, spec, [&](Fabric& fab) {
        Ptr<Node> t0 = fab.topo->GetSwitch(MrcSwitchTier::T0, 0, fab.topo->GetHostT0(0));
        link = fab.topo->GetLinksBetween(t0, fab.topo->GetSwitch(MrcSwitchTier::T1, 0, 0)).at(0).id;
        fab.failures->GrayLoss(Time::FromDouble(o.atUs, Time::US),
                               link,
                               o.loss,
                               MrcLinkDirection::UP);
    });
    AddFlow(o, f, 0, 1);
    Ptr<MrcQueuePair> qa = f.qps[0].first;
    EvLog log;
    const auto evs = EvsAndT1s(f, 0, 1, qa);
    for (const auto& [ev, t1] : evs)
    {
        if ((ev >> 28) == 0 && t1 == f.topo->GetSwitch(MrcSwitchTier::T1, 0, 0))
        {
            log.gray.insert(ev);
        }
    }
    qa->TraceConnectWithoutContext("EvStateChange", MakeBoundCallback(&OnEv, &log));
    qa->TraceConnectWithoutContext("Retransmit", MakeBoundCallback(&OnRtx, &log));
    Simulator::Stop(Time::FromDouble(o.stopUs, Time::US));
    Simulator::Run();

    const std::vector<uint64_t> s = Series(f, o);
    const double line = DataRate(o.rate).GetBitRate() * 1e-9 * o.planes;
    std::cout << "# gray: " << spec.Describe() << "; 1 QP host 0 -> host 1, " << evs.size()
              << " EVs; " << f.failures->DescribeLink(link) << " loses " << o.loss * 100
              << " % (data direction) from " << o.atUs << " us; line rate " << line
              << " Gb/s\ntime_us,goodput_gbps,fraction_of_line_rate\n"
              << std::fixed;
    const size_t onset = static_cast<size_t>(std::ceil(o.atUs / o.intervalUs));
    double pre = 0;
    double post = 0;
    double postMin = INFINITY;
    for (size_t i = 0; i < s.size(); ++i)
    {
        const double x = Gbps(s[i], o) / line;
        std::cout << std::setprecision(1) << i * o.intervalUs << "," << Gbps(s[i], o) << ","
                  << std::setprecision(3) << x << "\n";
        pre += (i > 0 && i < onset) ? x / (onset - 1) : 0; // interval 0 is the start-up
        post += i >= onset ? x / (s.size() - onset) : 0;
        postMin = i >= onset ? std::min(postMin, x) : postMin;
    }
    const auto sum = f.monitor->GetSummary(0, Simulator::Now());
    std::cout << "gray EV(s):";
    for (uint32_t ev : log.gray)
    {
        std::cout << " 0x" << std::hex << ev << std::dec;
    }
    std::ostringstream first;
    first << std::fixed << std::setprecision(1) << log.firstRetired.GetSeconds() * 1e6 - o.atUs
          << " us (" << log.cause << ")";
    std::cout << std::setprecision(1) << "\ngray EV retired after onset: "
              << (log.firstRetired.IsNegative() ? std::string("never") : first.str())
              << "\ngray EV retirements: " << log.grayRetired
              << ", returns to GOOD: " << log.grayRestored
              << "\nhealthy EVs retired: " << log.healthyRetired;
    std::cout << "\nframes lost on the gray link: "
              << f.failures->GetLinkLostPackets(link, MrcFabricLossCause::RANDOM_LOSS)
              << "\nlosses on a live EV (not retired): " << qa->GetStats().lossesOnLiveEv
              << "\nretransmissions: " << sum.retransmissions << ", by cause:";
    for (const auto& [cause, n] : log.rtx)
    {
        std::cout << " " << cause << " " << n;
    }
    std::cout << std::setprecision(1) << "\nlongest stall: " << sum.longestStall.GetSeconds() * 1e6
              << " us from " << sum.stallStart.GetSeconds() * 1e6 << " us" << std::setprecision(3)
              << "\ngoodput before onset (mean, fraction of line rate): " << pre
              << "\ngoodput after onset: min " << postMin << ", mean " << post << "\n";
    Simulator::Destroy();
    Names::Clear();
}

/// \param counts per EV: packets sent from afterUs on \param afterUs us \param p packet
/// \param psn PSN \param ev EV \param rtx retransmission
void
OnTx(std::map<uint32_t, uint64_t>* counts,
     double afterUs,
     Ptr<const Packet> p,
     uint32_t psn,
     uint32_t ev,
     bool rtx)
{
    (*counts)[ev] += Simulator::Now().GetSeconds() * 1e6 >= afterUs ? 1 : 0;
}

/**
 * steer: flow B should leave the EV it shares with flow A.
 * \param o options
 */
void
Steer(const Options& o)
{
    const MrcClosSpec spec = MrcClosSpec::TwoTier(1, 2, 2, 2);
    Fabric f = Build(o, spec, [](Fabric&) {});
    Ptr<Node> shared = f.topo->GetSwitch(MrcSwitchTier::T1, 0, 0);
    std::map<bool, uint32_t> kept[2]; // per flow: EV kept through T1 0 (true) / another T1
    // A keeps its lowest EV through T1 0; B its lowest through T1 0 and through another T1.
    for (uint32_t k = 0; k < 2; ++k)
    {
        AddFlow(o, f, k, k + 2, [&](Ptr<MrcQueuePair> qp) {
            auto evs = EvsAndT1s(f, k, k + 2, qp);
            std::sort(evs.begin(), evs.end());
            for (const auto& [ev, t1] : evs)
            {
                const bool onShared = t1 == shared;
                (kept[k].count(onShared) || (k == 0 && !onShared)) ? qp->DenyEv(ev)
                                                                   : void(kept[k][onShared] = ev);
            }
        });
    }
    const uint32_t sharedEv = kept[1][true]; // B's EV on the shared path
    std::map<uint32_t, uint64_t> tx;
    f.qps[1].first->TraceConnectWithoutContext("Tx", MakeBoundCallback(&OnTx, &tx, o.atUs));
    Simulator::Stop(Time::FromDouble(o.stopUs, Time::US));
    Simulator::Run();
    const double line = DataRate(o.rate).GetBitRate() * 1e-9;
    const auto sums = f.monitor->GetSummaries(Simulator::Now());
    const size_t from = static_cast<size_t>(std::ceil(o.atUs / o.intervalUs));
    std::cout << std::hex << "# steer: " << spec.Describe() << "; A host 0 -> 2 on EV 0x"
              << kept[0][true] << " only (through p0-t1-0), B host 1 -> 3 on 0x" << sharedEv
              << " and 0x" << kept[1][false] << " (through p0-t1-1); measured from " << std::dec
              << from * o.intervalUs << " to " << o.stopUs
              << " us\nflow,goodput_gbps,fraction_of_line_rate\n"
              << std::fixed;
    for (uint32_t k = 0; k < 2; ++k)
    {
        const auto& s = f.monitor->GetSeries(k);
        const uint64_t bytes =
            std::accumulate(s.begin() + std::min(from, s.size()), s.end(), uint64_t(0));
        const double g = bytes * 8e-3 / (o.stopUs - from * o.intervalUs);
        std::cout << (k ? "B" : "A") << "," << std::setprecision(1) << g << ","
                  << std::setprecision(3) << g / line << "\n";
    }
    uint64_t all = 0;
    std::for_each(tx.begin(), tx.end(), [&all](const auto& kv) {
        all += kv.second;
    });
    std::cout << "share of B's data packets on the shared EV: " << std::setprecision(3)
              << (all ? double(tx[sharedEv]) / all : NAN) << " (" << tx[sharedEv] << " of " << all
              << ")\nEV changes: A " << sums[0].evStateChanges << ", B " << sums[1].evStateChanges
              << "; retransmissions: A " << sums[0].retransmissions << ", B "
              << sums[1].retransmissions << "\n";
    Simulator::Destroy();
    Names::Clear();
}

/// Fill in the experiment's defaults, check the options. \param o options \return an error
/// naming the argument and its range (empty: fine)
std::string
Validate(Options& o)
{
    const std::string& x = o.experiment;
    if (x != "gray" && x != "links" && x != "flap" && x != "steer")
    {
        return "--experiment (=" + x + ") must be gray, links, flap or steer";
    }
    o.planes = o.planes ? o.planes : (x == "gray" ? 8 : (x == "steer" ? 1 : 2));
    o.t0 = o.t0 ? o.t0 : 4;
    o.hostsPerT0 = o.hostsPerT0 ? o.hostsPerT0 : 4;
    o.t1 = o.t1 ? o.t1 : (x == "gray" ? 2 : 4);
    o.count = o.count ? o.count : (x == "flap" ? 2 : 4);
    o.atUs = o.atUs > 0 ? o.atUs : (x == "steer" ? 50 : 100);
    o.intervalUs = o.intervalUs > 0 ? o.intervalUs : (x == "gray" ? 10 : 50);
    const std::map<std::string, double> stop{{"gray", 400},
                                             {"links", (o.count + 1) * o.stepUs},
                                             {"flap", 1000},
                                             {"steer", 500}};
    o.stopUs = o.stopUs > 0 ? o.stopUs : stop.at(x);
    try
    {
        MrcValueParser::ParseDataRate("--rate", o.rate); // DataRateValue aborts on "1Gbps x"
        MrcValueParser::ToTime("--period", o.periodUs, Time::US);
    }
    catch (const std::invalid_argument& ex)
    {
        return ex.what();
    }
    std::ostringstream e;
    if (o.planes > MrcClosSpec::kMaxPlanes || (x == "steer" && o.planes != 1))
    {
        e << "--planes (=" << o.planes << ") must be in 1..16 (steer: 1)";
    }
    else if (o.t0 < 2 || o.t0 > 64 || o.hostsPerT0 > 64 || o.t1 > 64
             || (x != "gray" && o.hostsPerT0 % o.t1))
    {
        e << "--t0 (=" << o.t0 << ") must be in 2..64, --hostsPerT0 (=" << o.hostsPerT0
          << ") and --t1 (=" << o.t1 << ") in 1..64, t1 dividing hostsPerT0 (links, flap)";
    }
    else if (o.evs < 1 || o.evs > 4096 || !(o.loss > 0 && o.loss <= 1))
    {
        e << "--evs (=" << o.evs << ") must be in 1..4096 and --loss (=" << o.loss << ") in (0, 1]";
    }
    else if (!(o.intervalUs > 0) || !(o.stopUs > o.atUs) || !(o.stopUs <= 1e6) || !(o.stepUs > 0))
    {
        e << "--interval (=" << o.intervalUs << ") and --step (=" << o.stepUs
          << ") must be > 0, --at (=" << o.atUs << ") < --stop (=" << o.stopUs << ") <= 1000000 us";
    }
    else if (o.count > o.planes * o.t1 || !(o.periodUs > 0) || !(o.duty > 0 && o.duty < 1))
    {
        e << "--count (=" << o.count << ") must be in 1..planes x t1 (=" << o.planes * o.t1
          << "), --period (=" << o.periodUs << ") > 0 and --duty (=" << o.duty << ") in (0, 1)";
    }
    return e.str();
}

} // namespace

} // namespace mrcpathhealth
} // namespace ns3

int
main(int argc, char* argv[])
{
    mrcpathhealth::Options o;
    CommandLine cmd(__FILE__);
    MrcStrictOptions strict; // numeric options parsed whole (CommandLine alone: 2.5 -> 2)
    strict.Add(cmd, "experiment", "gray, links, flap or steer", o.experiment);
    strict.Add(cmd, "planes", "planes, 1..16 (0: gray 8, links/flap 2; steer: 1)", o.planes);
    strict.Add(cmd, "t0", "links/flap: T0s per plane, 2..64 (0: 4)", o.t0);
    strict.Add(cmd, "hostsPerT0", "links/flap: hosts per T0, 1..64 (0: 4)", o.hostsPerT0);
    strict.Add(cmd, "t1", "gray/links/flap: T1s per plane, 1..64 (0: gray 2, else 4)", o.t1);
    strict.Add(cmd, "rate", "rate of every link (ns-3 DataRate)", o.rate);
    strict.Add(cmd, "evs", "active EVs per queue pair (EvSetSize), 1..4096", o.evs);
    strict.Add(cmd, "loss", "gray: loss probability of the gray link, (0, 1]", o.loss);
    strict.Add(cmd, "at", "gray/flap: onset, us (0: 100); steer: measure from, us (0: 50)", o.atUs);
    strict.Add(cmd, "interval", "series interval, us (0: gray 10, else 50)", o.intervalUs);
    strict.Add(cmd,
               "stop",
               "end of the run, us (0: gray 400, links (count+1) x step, flap 1000, steer 500)",
               o.stopUs);
    strict.Add(cmd, "step", "links: time between failures, us", o.stepUs);
    strict.Add(cmd, "count", "links: links failed (0: 4); flap: links flapping (0: 2)", o.count);
    strict.Add(cmd, "period", "flap: period, us", o.periodUs);
    strict.Add(cmd, "duty", "flap: fraction of each period down, (0, 1)", o.duty);
    strict.Add(cmd, "seed", "RNG seed (EV order, gray loss); --RngRun replicates", o.seed);
    cmd.AddValue("perFlow",
                 "links/flap: print each flow's goodput per interval and recovery counters",
                 o.perFlow);
    strict.Add(cmd,
               "traceFlow",
               "links/flap: flow whose sender events (window, retransmissions, EV states, "
               "NACKs, RTT samples) go to stderr, one line each (-1: none)",
               o.traceFlow);
    strict.Add(cmd,
               "traceQueues",
               "links/flap: every 10 us, print each switch port whose queue holds more than "
               "this many bytes to stderr (0: none)",
               o.traceQueues);
    MrcValueParser::ParseCommandLine(cmd, argc, argv);
    const std::string error = mrcpathhealth::Validate(o);
    if (!error.empty())
    {
        std::cerr << "mrc-path-health: " << error << "\n";
        return 1;
    }
    try
    {
        o.experiment == "gray"    ? mrcpathhealth::Gray(o)
        : o.experiment == "steer" ? mrcpathhealth::Steer(o)
                                  : mrcpathhealth::Load(o);
    }
    catch (const std::exception& ex)
    {
        std::cerr << "mrc-path-health: " << ex.what() << "\n";
        Simulator::Destroy();
        return 1;
    }
    return 0;
}
