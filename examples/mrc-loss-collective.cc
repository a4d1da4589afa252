/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup mrc
 * Bus bandwidth of a collective under random loss (MRC paper, Fig. 16/17): MRC over SRv6
 * against the RoCEv2 baseline over ECMP, with the same aggregate NIC bandwidth.
 *
 * Experiment. --hosts ranks on a two-tier Clos of ceil(hosts / hostsPerT0) T0s (at least 2),
 * rank i under T0 i mod T0s, so ring neighbours talk across the T1s. The collective is a ring
 * all-reduce of --size bytes per rank (MrcRingAllReduce) or an all-to-all of --size bytes per
 * rank split over the ranks (MrcAllToAll), run --iterations times back to back. Random loss:
 * at t = 0 MrcFailureHelper::GrayLoss with probability --loss on every host link in the direction
 * towards the host (MrcLinkDirection::DOWN: frames from the T0 to the host), so any frame arriving
 * at any host NIC port (data at receivers, SACKs/ACKs/NACKs at senders) is dropped with that
 * probability.
 *
 * Fabrics (same NIC bandwidth, same link delay, same T1s per plane):
 *  - mrc: MRC queue pairs (spraying, SACK/NACK selective retransmission, NSCC) over static
 *    SRv6 on --planes planes of --rate each, trimming switches;
 *  - roce: RoCEv2 baseline (MrcHelper::SetRoceV2Baseline: one path per QP, go-back-N, DCQCN)
 *    over per-flow ECMP on one plane of planes x rate, switches marking ECN and dropping;
 *  - roce-pfc: the same on a lossless fabric (MrcPfcQueueDisc and MrcPfcPort with their defaults on
 *    every switch and NIC port; the random loss still drops frames, PFC does not prevent it).
 * --qps queue pairs per ordered rank pair (a message is striped over them).
 *
 * Output (stdout): a header and one CSV line
 *   collective,fabric,qps,hosts,size_bytes,loss,time_us,algbw_gbps,busbw_gbps,
 *   retransmitted_bytes,bytes_ok
 * time_us is the MEAN duration of the --iterations runs (NCCL-tests report the mean);
 * algbw = size / time; busbw = algbw x 2(n-1)/n (ring all-reduce) or x (n-1)/n (all-to-all),
 * the NCCL-tests convention. retransmitted_bytes: payload bytes the senders retransmitted.
 * bytes_ok = 1 iff every run completed without a queue pair error, every transfer was
 * delivered, the payload placed at the receivers for the first time adds up exactly to the
 * bytes posted (each byte placed once), and, with --verify (default), every transfer's bytes
 * in the receiver's memory are the ones sent (MrcCollective VerifyData). Exit status 1 if
 * not (or on a bad argument), 0 otherwise. To stderr: the minimum run time, then the loss
 * recovery story summed over every queue pair (retransmissions by cause, tail-loss and path
 * probes, duplicates and trims at the receivers, EVs retired, restored and skipped); with --links,
 * how evenly the T0-T1 links carried bytes (MrcLinkMonitor::GetBalance, up and down: the
 * largest direction's bytes over the mean of the tier's directions). With the defaults (16
 * ranks, 4 hosts and 4 T1s per T0) the ring's 16 flows all cross the T1s, four from each T0 to
 * the next T0, each flow (1 QP) carrying the same bytes: the balance is then the most flows
 * ECMP put on one T0-T1 link (up to the acknowledgements' small share), and a ring that waits
 * for its slowest flow moves at most at 1/balance of the line rate (PFC alone reaches it;
 * DCQCN's cuts keep it lower).
 *
 *   mrc-loss-collective --collective=ring --size=16000000 --loss=0.001
 *   mrc-loss-collective --collective=alltoall --fabric=roce --qps=16 --loss=0.01
 *
 * Published behaviour (MRC paper, Fig. 16/17; MRC brief "Published behaviour"): under random
 * loss MRC keeps near line-rate bus bandwidth at 0.1 % loss and degrades markedly at 1 %;
 * single-path go-back-N RoCEv2 collapses much earlier, and one MRC QP beats 16 RoCEv2 QPs.
 * Deterministic for a given --seed and --RngRun (fixed RNG streams; --RngRun also changes the
 * ECMP hash seed).
 */

#include "ns3/core-module.h"
#include "ns3/mrc-module.h"

#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("MrcLossCollective");

namespace
{

/// The command line.
struct Options
{
    std::string collective{"ring"}; //!< ring or alltoall
    uint32_t hosts{16};             //!< ranks
    uint32_t hostsPerT0{4};         //!< hosts per T0
    uint32_t t1{0};                 //!< T1s per plane (0: hostsPerT0, non-blocking)
    uint64_t size{16000000};        //!< bytes per rank
    double loss{0};                 //!< loss probability at host NIC ports
    std::string fabric{"mrc"};      //!< mrc, roce or roce-pfc
    uint32_t qps{1};                //!< queue pairs per peer
    uint32_t iterations{1};         //!< runs
    uint32_t planes{4};             //!< MRC planes
    std::string rate{"100Gbps"};    //!< MRC per-plane rate
    double delayUs{1};              //!< link delay
    double stopMs{20000};           //!< simulated time limit
    bool verify{true};              //!< VerifyData
    bool links{false};              //!< report the T0-T1 links' balance
    uint32_t seed{1};               //!< RNG seed
};

/// What the runs produced.
struct Outcome
{
    std::vector<Time> durations; //!< per completed run
    bool failed{false};          //!< a run ended on a QP error
    std::string failure;         //!< its reason
    bool allDelivered{true};     //!< every transfer of every run delivered
    uint32_t corrupt{0};         //!< transfers with wrong bytes
    uint64_t posted{0};          //!< bytes posted over all runs
    uint64_t placed{0};          //!< payload placed at receivers (first copies, Rx trace)
    MrcQpStats sender;           //!< sender counters summed over every queue pair
    MrcQpStats receiver;         //!< receiver counters summed over every queue pair
    uint64_t retired{0};         //!< EV transitions to ASSUMED_BAD
    uint64_t restored{0};        //!< EV transitions from ASSUMED_BAD to GOOD
    uint64_t skipped{0};         //!< EV transitions to SKIP
    double balanceUp{0};         //!< with --links: T0-T1 up, largest / mean bytes
    double balanceDown{0};       //!< with --links: T0-T1 down, largest / mean bytes
};

/**
 * Count the EV transitions of the loss-recovery story.
 * \param out the outcome
 * \param ev the EV
 * \param from old state
 * \param to new state
 * \param cause why
 */
void
OnEvState(Outcome* out, uint32_t ev, MrcEvState from, MrcEvState to, std::string cause)
{
    out->retired += to == MrcEvState::ASSUMED_BAD;
    out->restored += from == MrcEvState::ASSUMED_BAD && to == MrcEvState::GOOD;
    out->skipped += to == MrcEvState::SKIP;
}

/**
 * \param placed the counter
 * \param packet payload placed
 * \param psn its PSN
 * \param ev its EV
 */
void
OnRx(uint64_t* placed, Ptr<const Packet> packet, uint32_t psn, uint32_t ev)
{
    *placed += packet->GetSize();
}

/**
 * A run of the collective ended: record it, then start the next or stop.
 * \param o options
 * \param out outcome
 * \param c the collective
 */
void
OnDone(const Options* o, Outcome* out, Ptr<MrcCollective> c)
{
    if (c->HasFailed())
    {
        out->failed = true;
        out->failure = c->GetFailure();
        Simulator::Stop();
        return;
    }
    out->durations.push_back(c->GetDuration());
    out->corrupt += c->GetCorruptTransfers();
    for (const MrcCollective::Transfer& t : c->GetTransfers())
    {
        out->posted += t.bytes;
        out->allDelivered = out->allDelivered && t.isDelivered;
    }
    if (out->durations.size() < o->iterations)
    {
        // Not from inside the transport's callback: the next run starts on a fresh event.
        Simulator::ScheduleNow(&MrcCollective::Start, c);
    }
    else
    {
        Simulator::Stop();
    }
}

/**
 * Check the options.
 * \param o options
 * \return an error naming the argument and its range (empty: fine)
 */
std::string
Validate(const Options& o)
{
    std::ostringstream e;
    if (o.collective != "ring" && o.collective != "alltoall")
    {
        e << "--collective (=" << o.collective << ") must be ring or alltoall";
    }
    else if (o.fabric != "mrc" && o.fabric != "roce" && o.fabric != "roce-pfc")
    {
        e << "--fabric (=" << o.fabric << ") must be mrc, roce or roce-pfc";
    }
    else if (o.hosts < 2 || o.hosts > 256)
    {
        e << "--hosts (=" << o.hosts << ") must be in 2..256";
    }
    else if (o.hostsPerT0 < 1 || o.hostsPerT0 > 64)
    {
        e << "--hostsPerT0 (=" << o.hostsPerT0 << ") must be in 1..64";
    }
    else if (o.t1 > 64)
    {
        e << "--t1 (=" << o.t1 << ") must be in 0..64 (0: hostsPerT0)";
    }
    else if (o.size < o.hosts || o.size > (uint64_t(1) << 32))
    {
        e << "--size (=" << o.size << ") must be in " << o.hosts << " (hosts)..4294967296";
    }
    else if (!(o.loss >= 0 && o.loss < 1))
    {
        e << "--loss (=" << o.loss << ") must be in [0, 1)";
    }
    else if (o.qps < 1 || o.qps > 64)
    {
        e << "--qps (=" << o.qps << ") must be in 1..64";
    }
    else if (o.iterations < 1 || o.iterations > 1000)
    {
        e << "--iterations (=" << o.iterations << ") must be in 1..1000";
    }
    else if (o.planes < 1 || o.planes > MrcClosSpec::kMaxPlanes)
    {
        e << "--planes (=" << o.planes << ") must be in 1.." << MrcClosSpec::kMaxPlanes;
    }
    else if (!(o.delayUs >= 0 && o.delayUs <= 1000))
    {
        e << "--delay (=" << o.delayUs << ") must be in [0, 1000] us";
    }
    else if (!(o.stopMs > 0 && o.stopMs <= 100000))
    {
        e << "--stop (=" << o.stopMs << ") must be in (0, 100000] ms";
    }
    return e.str();
}

/**
 * Build the fabric, run the collective, and collect what happened.
 * \param o options (validated)
 * \param rate the per-plane rate of the MRC fabric
 * \return the outcome
 */
Outcome
Run(const Options& o, DataRate rate)
{
    const bool pfc = o.fabric == "roce-pfc";
    const bool roce = o.fabric == "roce" || pfc;
    const uint32_t t0s = std::max<uint32_t>(2, (o.hosts + o.hostsPerT0 - 1) / o.hostsPerT0);
    const uint32_t t1 = o.t1 ? o.t1 : o.hostsPerT0;
    // RoCEv2: one plane at the aggregate rate of MRC's planes (the paper's 1 x 400G vs 4 x 100G).
    const uint32_t planes = roce ? 1 : o.planes;
    const DataRate linkRate(rate.GetBitRate() * (roce ? o.planes : 1));
    const MrcClosSpec spec = MrcClosSpec::TwoTier(planes, t0s, o.hostsPerT0, t1);
    NS_LOG_INFO(spec.Describe() << ", " << linkRate << " per link");

    MrcClusterFabricHelper fabric(pfc    ? MrcClusterFabric::ROCE_PFC
                                  : roce ? MrcClusterFabric::ROCE_ECMP
                                         : MrcClusterFabric::MRC_SRV6);
    for (MrcLinkTier tier : {MrcLinkTier::HOST_T0, MrcLinkTier::T0_T1})
    {
        fabric.GetTopologyHelper().SetLinkRate(tier, linkRate);
        fabric.GetTopologyHelper().SetLinkDelay(tier, Time::FromDouble(o.delayUs, Time::US));
    }
    // --RngRun replicates with other ECMP hashes too.
    fabric.GetDataPlane().GetEcmpHelper().SetBaseSeed(o.seed
                                                      + 7919 * (RngSeedManager::GetRun() - 1));
    Ptr<MrcFabricTopology> topo = fabric.Build(spec);

    Ptr<MrcFailureHelper> failures = CreateObject<MrcFailureHelper>(topo);
    if (o.loss > 0)
    {
        for (const MrcFabricLink& l : topo->GetLinks())
        {
            if (l.tier == MrcLinkTier::HOST_T0)
            {
                // DOWN: frames from the upper node (the T0) to the lower one (the host).
                failures->GrayLoss(Time(0), l.id, o.loss, MrcLinkDirection::DOWN);
            }
        }
    }
    int64_t stream = MrcClosTopologyHelper::AssignStreams(topo, 0);
    stream += failures->AssignStreams(stream);

    MrcHelper mrc(topo, fabric.GetDataPlane());
    fabric.ConfigureTransport(mrc, o.qps);
    mrc.SetStream(stream);
    mrc.Install();

    std::vector<uint32_t> hosts;
    for (uint32_t i = 0; i < o.hosts; ++i)
    {
        hosts.push_back((i % t0s) * o.hostsPerT0 + i / t0s);
    }
    ObjectFactory f(o.collective == "ring" ? "ns3::MrcRingAllReduce" : "ns3::MrcAllToAll");
    f.Set("MessageSize", UintegerValue(o.size));
    f.Set("QpsPerPeer", UintegerValue(o.qps));
    f.Set("VerifyData", BooleanValue(o.verify));
    Ptr<MrcCollective> c = f.Create<MrcCollective>();
    c->Setup(topo, mrc, hosts);

    Outcome out;
    for (const auto& [src, dst] : c->GetPairs())
    {
        Ptr<MrcQpGroup> g = c->GetGroup(src, dst);
        for (uint32_t q = 0; q < g->GetSize(); ++q)
        {
            g->GetReceiver(q)->TraceConnectWithoutContext("Rx",
                                                          MakeBoundCallback(&OnRx, &out.placed));
            g->GetSender(q)->TraceConnectWithoutContext("EvStateChange",
                                                        MakeBoundCallback(&OnEvState, &out));
        }
    }
    c->SetDoneCallback(MakeBoundCallback(&OnDone, &o, &out));
    c->Start();
    const Time stop = Time::FromDouble(o.stopMs, Time::MS);
    Ptr<MrcLinkMonitor> links;
    if (o.links)
    {
        // One interval over the whole run, closed where the last run ends.
        links = CreateObject<MrcLinkMonitor>();
        links->SetInterval(stop);
        links->Install(topo, Time(0), stop);
    }
    Simulator::Stop(stop);
    Simulator::Run();
    if (links)
    {
        links->Finish();
        out.balanceUp = links->GetBalance(MrcLinkTier::T0_T1, MrcLinkDirection::UP);
        out.balanceDown = links->GetBalance(MrcLinkTier::T0_T1, MrcLinkDirection::DOWN);
    }

    for (const auto& [src, dst] : c->GetPairs())
    {
        out.sender += c->GetGroup(src, dst)->GetSenderStats();
        out.receiver += c->GetGroup(src, dst)->GetReceiverStats();
    }
    if (c->IsRunning())
    {
        out.allDelivered = false; // not finished by --stop
        for (const MrcCollective::Transfer& t : c->GetTransfers())
        {
            out.posted += t.bytes;
        }
    }
    Simulator::Destroy();
    Names::Clear();
    return out;
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o;
    CommandLine cmd(__FILE__);
    MrcStrictOptions strict; // numeric options parsed whole (CommandLine alone: 2.5 -> 2)
    strict.Add(cmd, "collective", "ring (ring all-reduce) or alltoall", o.collective);
    strict.Add(cmd, "hosts", "ranks, 2..256", o.hosts);
    strict.Add(cmd,
               "hostsPerT0",
               "hosts per T0 switch, 1..64 (T0s: ceil(hosts/this), >= 2)",
               o.hostsPerT0);
    strict.Add(cmd, "t1", "T1 switches per plane, 0..64 (0: hostsPerT0, non-blocking)", o.t1);
    strict.Add(cmd,
               "size",
               "bytes per rank (ring: all-reduce buffer; alltoall: split over the ranks)",
               o.size);
    strict.Add(cmd,
               "loss",
               "loss probability of every frame arriving at a host NIC port, [0, 1)",
               o.loss);
    strict.Add(cmd,
               "fabric",
               "mrc (MRC/SRv6 on --planes x --rate), roce (RoCEv2/ECMP on one plane of "
               "planes x rate) or roce-pfc (the same, lossless: PFC)",
               o.fabric);
    strict.Add(cmd, "qps", "queue pairs per ordered rank pair, 1..64", o.qps);
    strict.Add(cmd,
               "iterations",
               "back-to-back runs of the collective (time_us: their mean)",
               o.iterations);
    strict.Add(cmd, "planes", "MRC planes (NIC ports per host), 1..16", o.planes);
    strict.Add(cmd, "rate", "MRC per-plane link rate (RoCEv2: planes x rate on one plane)", o.rate);
    strict.Add(cmd, "delay", "propagation delay of every link, us", o.delayUs);
    strict.Add(cmd,
               "stop",
               "simulated time limit, ms (not finished by then: bytes_ok 0)",
               o.stopMs);
    strict.Add(cmd, "verify", "carry real bytes and check them on delivery (VerifyData)", o.verify);
    strict.Add(cmd, "seed", "RNG seed (EVs, gray loss, ECMP hash); --RngRun replicates", o.seed);
    strict.Add(cmd,
               "links",
               "also print the T0-T1 links' balance to stderr (largest / mean bytes per "
               "direction: the most flows ECMP put on one link, for a ring)",
               o.links);
    MrcValueParser::ParseCommandLine(cmd, argc, argv);

    std::string error = Validate(o);
    DataRate rate;
    try
    {
        rate = MrcValueParser::ParseDataRate("--rate", o.rate); // DataRateValue aborts on "1Gbps x"
    }
    catch (const std::invalid_argument& e)
    {
        error = error.empty() ? e.what() : error;
    }
    if (!error.empty())
    {
        std::cerr << "mrc-loss-collective: " << error << "\n";
        return 1;
    }
    RngSeedManager::SetSeed(o.seed);

    Outcome out;
    try
    {
        out = Run(o, rate);
    }
    catch (const std::exception& e)
    {
        std::cerr << "mrc-loss-collective: " << e.what() << "\n";
        Simulator::Destroy();
        return 1;
    }

    const bool complete = !out.failed && out.durations.size() == o.iterations;
    const bool ok = complete && out.allDelivered && out.corrupt == 0 && out.placed == out.posted;
    const double n = o.hosts;
    const double factor = o.collective == "ring" ? 2 * (n - 1) / n : (n - 1) / n;
    double timeUs = NAN;
    double minUs = NAN;
    if (complete)
    {
        double sum = 0;
        minUs = INFINITY;
        for (Time d : out.durations)
        {
            sum += d.GetSeconds() * 1e6;
            minUs = std::min(minUs, d.GetSeconds() * 1e6);
        }
        timeUs = sum / out.durations.size();
    }
    const double algbw = complete ? o.size * 8e-3 / timeUs : NAN; // bits / us / 1e3 = Gb/s
    std::cout << "collective,fabric,qps,hosts,size_bytes,loss,time_us,algbw_gbps,busbw_gbps,"
                 "retransmitted_bytes,bytes_ok\n"
              << o.collective << "," << o.fabric << "," << o.qps << "," << o.hosts << "," << o.size
              << "," << o.loss << "," << std::fixed << std::setprecision(3) << timeUs << ","
              << algbw << "," << algbw * factor << "," << out.sender.bytesRetransmitted << ","
              << (ok ? 1 : 0) << "\n";
    if (!ok)
    {
        std::cerr << "mrc-loss-collective: ";
        if (out.failed)
        {
            std::cerr << "queue pair failed: " << out.failure;
        }
        else if (!complete)
        {
            std::cerr << "not finished by --stop (" << out.durations.size() << "/" << o.iterations
                      << " runs)";
        }
        else
        {
            std::cerr << "data check failed: " << out.corrupt << " corrupt transfer(s), "
                      << out.placed << " bytes placed for " << out.posted << " posted"
                      << (out.allDelivered ? "" : ", transfers undelivered");
        }
        std::cerr << "\n";
        return 1;
    }
    std::cerr << std::fixed << std::setprecision(3) << "mrc-loss-collective: " << o.iterations
              << " run(s), mean " << timeUs << " us, min " << minUs << " us\n";
    const MrcQpStats& tx = out.sender;
    std::cerr << "mrc-loss-collective: retransmissions " << tx.retransmissions << " (path-order "
              << tx.rtxPathOrder << ", plane-order " << tx.rtxPlaneOrder << ", sack " << tx.rtxSack
              << ", tail-reorder " << tx.rtxTailReorder << ", tail-probe " << tx.rtxTailProbe
              << ", timer " << tx.rtxTimeout << ", retired-ev " << tx.rtxRetiredEv << ", trimmed "
              << tx.rtxTrimmed + tx.rtxTrimmedLastHop << "; go-back-N rewinds " << tx.rewindsNack
              << " NAK + " << tx.rewindsTimeout << " timeout), tail probes " << tx.tailProbesSent
              << ", path probes " << tx.probesSent
              << "; receivers: " << out.receiver.dataPacketsReceived << " placed, "
              << out.receiver.duplicatesReceived << " duplicates, " << out.receiver.trimmedReceived
              << " trimmed; EVs: " << out.retired << " retired, " << out.restored << " restored, "
              << out.skipped << " skipped\n";
    if (o.links)
    {
        std::cerr << std::setprecision(2) << "mrc-loss-collective: T0-T1 link balance (largest / "
                  << "mean bytes of a direction): up " << out.balanceUp << ", down "
                  << out.balanceDown << "\n";
    }
    return 0;
}
