/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup mrc
 * mrc-path-health, its links and flap experiments (the load with failing or flapping uplinks;
 * see mrc-path-health.cc) and the --traceFlow and --traceQueues traces they offer.
 */

#include "mrc-path-health.h"

#include "ns3/network-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

namespace ns3
{
namespace mrcpathhealth
{
namespace
{

/// Payload over wire bytes of a full MRC data packet (4096 B of payload behind the outer IPv6,
/// UDP, inner IPv6, BTH, METH, TSETH and RETH headers, the ICRC and PPP): about 0.97.
constexpr double kPayloadShare = 0.97;

/// \param topo fabric \param o options \return the first --count uplinks of T0 0 in failure
/// order: planes in turn, then the next T1
std::vector<uint32_t>
FailureOrder(Ptr<MrcFabricTopology> topo, const Options& o)
{
    std::vector<uint32_t> order;
    for (uint32_t u = 0; u < o.t1; ++u)
    {
        for (uint32_t p = 0; p < o.planes; ++p)
        {
            for (const MrcFabricLink& l :
                 topo->GetLinksBetween(topo->GetSwitch(MrcSwitchTier::T0, p, 0),
                                       topo->GetSwitch(MrcSwitchTier::T1, p, u)))
            {
                order.push_back(l.id);
            }
        }
    }
    order.resize(std::min<size_t>(order.size(), o.count));
    return order;
}

/// Fluid bound of the load's goodput: per plane and (source T0, next T0), the flows' demand
/// capped by the paths through a T1 whose links on both sides (same parallel index, as SRv6
/// paths go) are up; and the same bound when every plane carries what the most reduced one can
/// (a sender that keeps its planes equally loaded, as MRC's backups from the same plane do).
/// \param topo fabric \param o options \param down links down
/// \return Gb/s: (per plane, planes loaded equally)
std::pair<double, double>
Capacity(Ptr<MrcFabricTopology> topo, const Options& o, const std::set<uint32_t>& down)
{
    double cap = 0;
    double equal = 0;
    for (uint32_t a = 0; a < o.t0; ++a)
    {
        double sum = 0;
        double least = -1; // the most reduced plane's share
        for (uint32_t p = 0; p < o.planes; ++p)
        {
            uint32_t paths = 0;
            for (uint32_t u = 0; u < o.t1; ++u)
            {
                Ptr<Node> t1 = topo->GetSwitch(MrcSwitchTier::T1, p, u);
                const auto la = topo->GetLinksBetween(topo->GetSwitch(MrcSwitchTier::T0, p, a), t1);
                const auto lb =
                    topo->GetLinksBetween(topo->GetSwitch(MrcSwitchTier::T0, p, (a + 1) % o.t0),
                                          t1);
                for (size_t j = 0; j < std::min(la.size(), lb.size()); ++j)
                {
                    paths += (!down.count(la[j].id) && !down.count(lb[j].id)) ? 1 : 0;
                }
            }
            const double share =
                std::min(o.hostsPerT0, paths) * DataRate(o.rate).GetBitRate() * 1e-9;
            sum += share;
            least = least < 0 ? share : std::min(least, share);
        }
        cap += sum;
        equal += least * o.planes;
    }
    return {cap, equal};
}

/// \param o options \param n failing links \param t a time, us \return how many are down at t
size_t
DownCount(const Options& o, size_t n, double t)
{
    if (o.experiment == "flap")
    {
        return (t >= o.atUs && std::fmod(t - o.atUs, o.periodUs) < o.duty * o.periodUs) ? n : 0;
    }
    return std::min<size_t>(n, static_cast<size_t>(std::max(0.0, std::floor(t / o.stepUs))));
}

/// \param flow flow index \return stderr after a line prefix (time in us, flow) for --traceFlow
std::ostream&
TraceLine(uint32_t flow)
{
    return std::cerr << std::fixed << std::setprecision(3) << Simulator::Now().GetSeconds() * 1e6
                     << " flow " << flow << " ";
}

/// --traceFlow: print one sender's window, retransmissions, EV states, NACKs and RTT samples.
/// \param qp the sender \param flow its index
void
TraceFlow(Ptr<MrcQueuePair> qp, uint32_t flow)
{
    qp->TraceConnectWithoutContext(
        "CwndChange",
        Callback<void, uint64_t, uint64_t>([flow](uint64_t, uint64_t cwnd) {
            TraceLine(flow) << "cwnd " << cwnd << "\n";
        }));
    qp->TraceConnectWithoutContext("Retransmit",
                                   Callback<void, uint32_t, uint32_t, std::string>(
                                       [flow](uint32_t psn, uint32_t ev, std::string cause) {
                                           TraceLine(flow)
                                               << "rtx psn " << psn << " ev 0x" << std::hex << ev
                                               << std::dec << " " << cause << "\n";
                                       }));
    qp->TraceConnectWithoutContext(
        "EvStateChange",
        Callback<void, uint32_t, MrcEvState, MrcEvState, std::string>(
            [flow](uint32_t ev, MrcEvState from, MrcEvState to, std::string cause) {
                TraceLine(flow) << "ev 0x" << std::hex << ev << std::dec << " " << from << " -> "
                                << to << " " << cause << "\n";
            }));
    qp->TraceConnectWithoutContext(
        "NackReceived",
        Callback<void, uint32_t, MrcNackCode>([flow](uint32_t psn, MrcNackCode code) {
            TraceLine(flow) << "nack psn " << psn << " code " << static_cast<int>(code) << "\n";
        }));
    qp->TraceConnectWithoutContext("RttSample", Callback<void, Time>([flow](Time rtt) {
                                       TraceLine(flow) << "rtt " << rtt.GetNanoSeconds() << "\n";
                                   }));
}

/// --traceQueues: every 10 us, each switch port whose queue disc holds more than a threshold.
/// \param topo fabric \param threshold bytes
void
TraceQueues(Ptr<MrcFabricTopology> topo, uint32_t threshold)
{
    const NodeContainer switches = topo->GetAllSwitches();
    for (uint32_t i = 0; i < switches.GetN(); ++i)
    {
        Ptr<Node> sw = switches.Get(i);
        Ptr<TrafficControlLayer> tc = sw->GetObject<TrafficControlLayer>();
        for (uint32_t d = 0; tc && d < sw->GetNDevices(); ++d)
        {
            Ptr<NetDevice> dev = sw->GetDevice(d);
            Ptr<QueueDisc> q = tc->GetRootQueueDiscOnDevice(dev);
            Ptr<Channel> ch = dev->GetChannel();
            if (!q || !ch || q->GetNBytes() <= threshold || ch->GetNDevices() != 2)
            {
                continue;
            }
            Ptr<Node> peer = ch->GetDevice(ch->GetDevice(0) == dev ? 1 : 0)->GetNode();
            std::cerr << std::fixed << std::setprecision(3) << Simulator::Now().GetSeconds() * 1e6
                      << " queue " << Names::FindName(sw) << " -> " << Names::FindName(peer)
                      << " (device " << d << ") " << q->GetNBytes() << " B\n";
        }
    }
    Simulator::Schedule(MicroSeconds(10), &TraceQueues, topo, threshold);
}

} // namespace

void
Load(const Options& o)
{
    const bool flap = o.experiment == "flap";
    const MrcClosSpec spec = MrcClosSpec::TwoTier(o.planes, o.t0, o.hostsPerT0, o.t1);
    std::vector<std::vector<uint64_t>> series; // flap: without, then with flaps
    std::vector<double> cap;                   // per interval: mean capacity, Gb/s
    std::vector<double> down;                  // per interval: mean links down
    std::vector<double> capBy;                 // links down (first of order) -> capacity
    std::vector<double> capEqualBy;            // links down -> capacity, planes loaded equally
    double full = 0;
    std::ostringstream head;
    std::ostringstream totals;
    std::ostringstream perFlow; // --perFlow: the run with failures, flow by flow
    for (bool failing : flap ? std::vector<bool>{false, true} : std::vector<bool>{true})
    {
        std::vector<uint32_t> order;
        Fabric f = Build(o, spec, [&](Fabric& fab) {
            order = FailureOrder(fab.topo, o);
            for (size_t k = 0; k < order.size() && failing; ++k)
            {
                const Time at = Time::FromDouble(flap ? o.atUs : o.stepUs * (k + 1), Time::US);
                flap ? fab.failures->Flap(at,
                                          order[k],
                                          Time::FromDouble(o.periodUs, Time::US),
                                          o.duty,
                                          Time::FromDouble(o.stopUs - o.atUs, Time::US))
                     : fab.failures->LinkDown(at, order[k]);
            }
        });
        for (uint32_t a = 0; a < f.topo->GetHostCount(); ++a) // the next T0's host
        {
            AddFlow(o, f, a, (a + o.hostsPerT0) % f.topo->GetHostCount());
        }
        if (failing && o.traceFlow >= 0 && uint32_t(o.traceFlow) < f.qps.size())
        {
            TraceFlow(f.qps[o.traceFlow].first, o.traceFlow);
        }
        if (failing && o.traceQueues > 0)
        {
            Simulator::ScheduleNow(&TraceQueues, f.topo, o.traceQueues);
        }
        Simulator::Stop(Time::FromDouble(o.stopUs, Time::US));
        Simulator::Run();
        series.push_back(Series(f, o));
        MrcTransferMonitor::FlowSummary all;
        for (const auto& s : f.monitor->GetSummaries(Simulator::Now()))
        {
            all.evRetirements += s.evRetirements;
            all.bytesRetransmitted += s.bytesRetransmitted;
            all.longestStall = std::max(all.longestStall, s.longestStall);
        }
        const std::vector<MrcTransferMonitor::FlowSummary> summaries =
            f.monitor->GetSummaries(Simulator::Now());
        for (uint32_t i = 0; o.perFlow && failing && i < summaries.size(); ++i)
        {
            const MrcQpStats& st = f.qps[i].first->GetStats();
            perFlow << "flow " << i << " (host " << i << " -> "
                    << (i + o.hostsPerT0) % f.topo->GetHostCount() << "): Gb/s";
            for (uint64_t bytes : f.monitor->GetSeries(i))
            {
                perFlow << " " << std::llround(Gbps(bytes, o));
            }
            perFlow << "; retransmissions " << st.retransmissions << " (path-order "
                    << st.rtxPathOrder << ", plane-order " << st.rtxPlaneOrder << ", sack "
                    << st.rtxSack << ", tail " << st.rtxTailReorder + st.rtxTailProbe << ", timer "
                    << st.rtxTimeout << ", retired-ev " << st.rtxRetiredEv << ", trimmed "
                    << st.rtxTrimmed + st.rtxTrimmedLastHop << "), duplicates at the receiver "
                    << f.qps[i].second->GetStats().duplicatesReceived
                    << ", inferred losses on delivering EVs " << st.lossesOnDeliveringEv
                    << ", EV retirements " << summaries[i].evRetirements << ", longest stall "
                    << summaries[i].longestStall.GetMicroSeconds() << " us\n";
        }
        totals << (flap ? (failing ? "with flaps: " : "without flaps: ") : "") << "EV retirements "
               << all.evRetirements << ", bytes retransmitted " << all.bytesRetransmitted
               << ", longest stall of a flow " << all.longestStall.GetMicroSeconds()
               << " us, packets lost to failures " << f.failures->GetLostPackets() << "\n";
        if (failing)
        {
            head << "# " << o.experiment << ": " << spec.Describe() << "; host i -> host i + "
                 << o.hostsPerT0 << ", 1 MRC QP each; ";
            flap ? head << "from " << o.atUs << " us flapping (period " << o.periodUs
                        << " us, down " << o.duty * 100 << " %):"
                 : head << "one more link down every " << o.stepUs << " us:";
            for (uint32_t l : order)
            {
                head << " [" << f.failures->DescribeLink(l) << "]";
            }
            // Per interval, averaged over 100 ns steps (failures need not align with intervals).
            capBy.clear();
            capEqualBy.clear();
            for (size_t k = 0; k <= order.size(); ++k)
            {
                const auto [perPlane, equal] =
                    Capacity(f.topo, o, {order.begin(), order.begin() + k});
                capBy.push_back(perPlane);
                capEqualBy.push_back(equal);
            }
            full = capBy[0];
            const int steps = std::max(1, int(o.intervalUs * 10));
            for (size_t i = 0; i < series[0].size(); ++i)
            {
                cap.push_back(0);
                down.push_back(0);
                for (int k = 0; k < steps; ++k)
                {
                    const size_t n =
                        DownCount(o, order.size(), (i + (k + 0.5) / steps) * o.intervalUs);
                    cap.back() += capBy[n] / steps;
                    down.back() += n; // divided below: exact integers stay exact
                }
                down.back() /= steps;
            }
        }
        Simulator::Destroy();
        Names::Clear();
    }
    std::cout << head.str() << "\ntime_us,links_down,goodput_gbps,capacity_gbps,demand_gbps,ratio"
              << (flap ? ",goodput_noflap_gbps,ratio_to_noflap\n" : "\n") << std::fixed;
    const std::vector<uint64_t>& g = series.back();

    struct Phase
    {
        double ratios{0};      //!< sum of goodput / capacity
        double ratiosEqual{0}; //!< sum of goodput / capacity with planes loaded equally
        uint32_t n{0};         //!< intervals
    };

    std::map<double, Phase> phases; // links down -> its steady intervals
    // The worst steady interval: goodput / capacity, and / capacity with planes loaded equally.
    std::pair<double, double> worst{-1, -1};
    std::pair<double, double> worstEqual{-1, -1}; // (ratio, interval start in us)
    // While flapping (the intervals from --at): goodput with flaps, without, capacity ratio.
    double sums[3] = {0, 0, 0};
    uint32_t flapIntervals = 0;
    for (size_t i = 0; i < g.size(); ++i)
    {
        const double t = i * o.intervalUs;
        std::cout << std::setprecision(1) << t << "," << std::setprecision(2) << down[i] << ","
                  << std::setprecision(1) << Gbps(g[i], o) << "," << cap[i] << "," << full << ","
                  << std::setprecision(3) << Gbps(g[i], o) / cap[i];
        if (flap)
        {
            std::cout << "," << std::setprecision(1) << Gbps(series[0][i], o) << ","
                      << std::setprecision(3) << double(g[i]) / series[0][i];
            if (t >= o.atUs)
            {
                sums[0] += g[i];
                sums[1] += series[0][i];
                sums[2] += cap[i] / full;
                flapIntervals++;
            }
        }
        std::cout << "\n";
        // Steady: not the start-up, not an interval with (or right after) a change of state.
        if (!flap && i > 0 && down[i - 1] == down[i] && down[i] == std::floor(down[i]))
        {
            const double r = Gbps(g[i], o) / cap[i];
            const double re = Gbps(g[i], o) / capEqualBy[size_t(down[i])];
            Phase& ph = phases[down[i]];
            ph.ratios += r;
            ph.ratiosEqual += re;
            ph.n++;
            for (auto [ratio, w] : {std::make_pair(r, &worst), std::make_pair(re, &worstEqual)})
            {
                *w = (w->first < 0 || ratio < w->first) ? std::make_pair(ratio, t) : *w;
            }
        }
    }
    if (flap)
    {
        const double goodput = sums[0] / sums[1];
        const double capacity = sums[2] / std::max(flapIntervals, 1u);
        const double held = capBy.back() / full;
        std::cout << "while flapping: goodput with flaps / without " << std::setprecision(3)
                  << goodput << "; capacity with flaps / without " << capacity
                  << "; with the flapping links held down / without " << held << "\n";
        // What the flaps cost beyond the capacity they take away, against the time-averaged
        // capacity (every up phase usable) and against the links held down (none usable).
        std::cout << "cost of the flaps: " << std::setprecision(1) << (1 - goodput / capacity) * 100
                  << " % of the time-averaged capacity, " << (1 - goodput / held) * 100
                  << " % of the capacity with the links held down\n";
    }
    else
    {
        // Per links down, the mean of one of a phase's sums over its intervals.
        const auto means = [&phases](double Phase::*sum) {
            for (const auto& [k, ph] : phases)
            {
                std::cout << " " << std::setprecision(0) << k << ": " << std::setprecision(3)
                          << ph.*sum / ph.n;
            }
        };
        std::cout << "steady goodput / capacity by links down:";
        means(&Phase::ratios);
        std::cout << " (payload over wire rate: about " << std::setprecision(2) << kPayloadShare
                  << " at most)\n"
                  << "steady goodput / capacity with planes loaded equally by links down:";
        means(&Phase::ratiosEqual);
        // MRC keeps its planes equally loaded (a retired EV's backup is of its plane): where
        // one plane has lost more than the other, only ECN steering (SKIPs on the more loaded
        // plane's EVs) can use more of the capacity left than this.
        std::cout << "\nplanes loaded exactly equally would give at most, by links down:";
        for (const auto& [k, ph] : phases)
        {
            const size_t n = static_cast<size_t>(k);
            if (n < capBy.size() && n < capEqualBy.size())
            {
                std::cout << " " << n << ": " << std::setprecision(3)
                          << kPayloadShare * capEqualBy[n] / capBy[n];
            }
        }
        std::cout << "\n";
        if (worst.first >= 0)
        {
            std::cout << "worst steady interval: " << std::setprecision(3) << worst.first
                      << " of the capacity (at " << std::setprecision(0) << worst.second << " us), "
                      << std::setprecision(3) << worstEqual.first
                      << " with planes loaded equally (at " << std::setprecision(0)
                      << worstEqual.second << " us)\n";
        }
    }
    std::cout << totals.str() << perFlow.str();
}

} // namespace mrcpathhealth
} // namespace ns3
