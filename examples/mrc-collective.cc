/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A training job on a multi-plane two-tier Clos: --iterations steps of (--compute gap, one
 * collective over --hosts ranks). Prints per step the duration against the line-rate ideal
 * (MrcLineRateModel) and the distribution of transfer completion times (min, P50, P99, P100):
 *
 *   mrc-collective --collective=ring --hosts=8 --size=8000000 --iterations=3
 *   mrc-collective --collective=incast --hosts=8 --victim=1000000
 *   mrc-collective --collective=incast --hosts=8 --pcap=incast   (rank 0's ports: trims, NACKs;
 *     tshark -X lua_script:utils/wireshark/mrc.lua -r incast-0-1.pcap)
 *   mrc-collective --collective=ring --transport=roce --qps=4 --dataPlane=ecmp
 *   mrc-collective --collective=ring --ns3::MrcRingCollective::WaitForAck=false --verify
 *   mrc-collective --collective=ring --ns3::MrcRingCollective::SliceSize=262144
 *     (NCCL's pipelined ring: each chunk in slices forwarded as they arrive; ChunkSize: passes)
 *   mrc-collective --collective=incast --hosts=8 --victim=4000000 --t0s=4 --planes=1 \
 *                  --rate=400Gbps --transport=roce-pfc [--dcqcn=false]
 *     (--hostsPerT0=16: racks of 16 hosts and 16 T1s per plane, a wider fabric)
 *
 * Collectives: ring (ring all-reduce, S per rank), allgather, reducescatter, alltoall,
 * permutation, incast (rank 0 receives S from every other rank; --victim adds an unrelated
 * pair), bulk (two ranks).
 * Ranks alternate over the T0s so that neighbours in the ring talk across the fabric.
 * --transport=roce is the RoCEv2 baseline (one EV per queue pair, go-back-N, DCQCN) over
 * switches that mark ECN on every port and drop instead of trimming; --transport=roce-pfc the
 * same queue pairs on a lossless fabric (MrcPfcQueueDisc and MrcPfcPort on every switch and NIC
 * port), and --dcqcn=false takes DCQCN away (PFC alone: the senders run at line rate).
 *
 * With --victim the victim pair is placed as in the paper's collateral-damage experiment: its
 * receiver is a free host in the incast target's rack (T0) and its sender a free host in
 * another rack, so that the victim shares the T1-T0 downlinks into the target's rack, the ones
 * PFC pauses, but not the target's port.
 */

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mrc-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <iomanip>
#include <iostream>
#include <map>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("MrcCollectiveExample");

namespace
{

/**
 * \param t a time
 * \return it in microseconds, 1 decimal
 */
std::string
Us(Time t)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(1) << t.GetSeconds() * 1e6;
    return os.str();
}

/**
 * Print a step as it ends.
 * \param job the job (a plain pointer: a Ptr bound into the job's own trace source would keep
 *        the job alive forever, a reference cycle LeakSanitizer reports)
 * \param step index
 * \param duration its duration
 * \param ideal its ideal
 */
void
OnStep(MrcTrainingJob* job, uint32_t step, Time duration, Time ideal)
{
    const auto& s = job->GetSteps().at(step);
    const MrcCompletionStats st = s.GetTransferStats();
    std::cout << "  step " << step << ": " << Us(duration) << " us (ideal " << Us(ideal) << " us, x"
              << std::fixed << std::setprecision(2) << duration.GetSeconds() / ideal.GetSeconds()
              << ")" << (s.failed ? " FAILED" : "") << "; transfers " << st.GetCount() << ": min "
              << Us(st.GetMin()) << ", P50 " << Us(st.GetMedian()) << ", P99 "
              << Us(st.GetPercentile(99)) << ", P100 " << Us(st.GetMax()) << " us\n";
}

/**
 * Count an EV retirement by its cause.
 * \param causes the counts
 * \param ev the EV
 * \param from old state
 * \param to new state
 * \param cause why
 */
void
OnEvState(std::map<std::string, uint64_t>* causes,
          uint32_t ev,
          MrcEvState from,
          MrcEvState to,
          std::string cause)
{
    if (to == MrcEvState::ASSUMED_BAD)
    {
        (*causes)[cause]++;
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string collective = "ring";
    uint32_t hosts = 8;
    uint64_t size = 4000000;
    std::string transport = "mrc";
    std::string dataPlane = "srv6";
    uint32_t qps = 1;
    uint32_t iterations = 2;
    double computeUs = 20;
    uint32_t planes = 2;
    uint32_t t0s = 0;
    uint32_t hostsPerT0 = 4;
    std::string rate = "100Gbps";
    bool dcqcn = true;
    uint64_t victim = 0;
    uint32_t seed = 1;
    bool verify = false;
    std::string pcap;

    CommandLine cmd(__FILE__);
    MrcStrictOptions strict; // numeric options parsed whole (CommandLine alone: 2.5 -> 2)
    strict.Add(cmd,
               "collective",
               "ring, allgather, reducescatter, alltoall, permutation, incast or bulk",
               collective);
    strict.Add(cmd, "hosts", "ranks (2..32; bulk: 2)", hosts);
    strict.Add(cmd, "size", "message size S in bytes", size);
    strict.Add(cmd,
               "transport",
               "mrc, roce (RoCEv2 baseline, lossy) or roce-pfc (RoCEv2 on a lossless fabric)",
               transport);
    strict.Add(cmd, "dcqcn", "roce, roce-pfc: DCQCN on (false: no congestion control)", dcqcn);
    strict.Add(cmd, "dataPlane", "srv6 or ecmp", dataPlane);
    strict.Add(cmd, "qps", "queue pairs per peer", qps);
    strict.Add(cmd, "iterations", "training steps", iterations);
    strict.Add(cmd, "compute", "compute gap before each step's collective, us", computeUs);
    strict.Add(cmd, "planes", "planes (NIC ports per host), 1..16", planes);
    strict.Add(cmd,
               "t0s",
               "T0 switches (racks) of --hostsPerT0 hosts per plane (0: as few as fit)",
               t0s);
    strict.Add(cmd,
               "hostsPerT0",
               "hosts per T0, 2..64; as many T1s per plane, each T0 with one link to each "
               "(full bisection)",
               hostsPerT0);
    strict.Add(cmd, "rate", "rate of every link (per plane)", rate);
    strict.Add(cmd, "victim", "incast only: bytes of an unrelated victim flow (0: none)", victim);
    strict.Add(cmd, "seed", "RNG seed", seed);
    strict.Add(cmd, "verify", "carry real bytes and check them on delivery (VerifyData)", verify);
    strict.Add(cmd,
               "pcap",
               "pcap file prefix: rank 0's NIC ports (empty: none; tshark decodes MRC with "
               "utils/wireshark/mrc.lua)",
               pcap);
    MrcValueParser::ParseCommandLine(cmd, argc, argv);
    try
    {
        const std::map<std::string, std::string> types{{"ring", "ns3::MrcRingAllReduce"},
                                                       {"allgather", "ns3::MrcAllGather"},
                                                       {"reducescatter", "ns3::MrcReduceScatter"},
                                                       {"alltoall", "ns3::MrcAllToAll"},
                                                       {"permutation", "ns3::MrcPermutation"},
                                                       {"incast", "ns3::MrcIncast"},
                                                       {"bulk", "ns3::MrcBulkTransfer"}};
        if (!types.count(collective))
        {
            throw std::invalid_argument("--collective (=" + collective
                                        + ") must be ring, allgather, reducescatter, alltoall, "
                                          "permutation, "
                                          "incast or bulk");
        }
        if (hosts < 2 || hosts > 32)
        {
            throw std::invalid_argument("--hosts (=" + std::to_string(hosts)
                                        + ") must be in 2..32");
        }
        if (transport != "mrc" && transport != "roce" && transport != "roce-pfc")
        {
            throw std::invalid_argument("--transport (=" + transport
                                        + ") must be mrc, roce or roce-pfc");
        }
        const DataRate linkRate = MrcValueParser::ParseDataRate("--rate", rate);
        if (qps == 0 || iterations == 0 || computeUs < 0)
        {
            throw std::invalid_argument("--qps and --iterations must be >= 1, --compute >= 0");
        }
        const Time compute = MrcValueParser::ToTime("--compute", computeUs, Time::US);
        const bool pfc = transport == "roce-pfc";
        const bool roce = transport == "roce" || pfc;
        RngSeedManager::SetSeed(seed);

        if (hostsPerT0 < 2 || hostsPerT0 > 64)
        {
            throw std::invalid_argument("--hostsPerT0 (=" + std::to_string(hostsPerT0)
                                        + ") must be in 2..64");
        }
        // Enough T0s of hostsPerT0 hosts for the ranks (and the victim pair), at least two.
        const bool withVictim = collective == "incast" && victim > 0;
        const uint32_t needed = hosts + (withVictim ? 2 : 0);
        const uint32_t fit = std::max<uint32_t>(2, (needed + hostsPerT0 - 1) / hostsPerT0);
        if (t0s == 0)
        {
            t0s = fit;
        }
        // The victim needs a free host beside the incast target (rank 0, on T0 0).
        if (t0s < fit || t0s > 64 || (withVictim && (hosts + t0s - 1) / t0s >= hostsPerT0))
        {
            throw std::invalid_argument(
                "--t0s (=" + std::to_string(t0s) + ") must be 0 or in [" + std::to_string(fit)
                + ", 64]" + (withVictim ? " with a free host in rack 0 for the victim" : ""));
        }
        MrcClosTopologyHelper topoHelper;
        for (MrcLinkTier tier : {MrcLinkTier::HOST_T0, MrcLinkTier::T0_T1})
        {
            topoHelper.SetLinkRate(tier, linkRate);
        }
        topoHelper.SetTrimmingQueues();
        if (pfc)
        {
            // A lossless RoCEv2 fabric: 8 strict priorities with ECN on every port, PFC on
            // every switch and NIC port (data and retransmissions, DSCP 26 and 30, are
            // priority 3, MrcPfcPort's default lossless priority).
            topoHelper.SetPfcQueues();
        }
        else if (roce)
        {
            // A RoCEv2 fabric: RED/ECN marking on every switch port (DCQCN's signal), the last
            // hop included; drop-tail, no trimming, no PFC.
            topoHelper.SetEcnQueues();
        }
        const MrcClosSpec spec = MrcClosSpec::TwoTier(planes, t0s, hostsPerT0, hostsPerT0);
        Ptr<MrcFabricTopology> topo = topoHelper.Build(spec);
        if (pfc)
        {
            MrcPfcHelper().Install(*topo);
        }
        MrcDataPlaneHelper dp;
        dp.SetDataPlane(MrcDataPlaneHelper::Parse("--dataPlane", dataPlane));
        dp.Install(topo);
        MrcHelper mrc(topo, dp);
        mrc.Install();
        if (roce)
        {
            mrc.SetRoceV2Baseline(qps);
            if (!dcqcn)
            {
                // No congestion control: the window never binds (go-back-N's MaxOutstandingPsns
                // still does), the NIC sends at line rate and only PFC or drops hold it back.
                mrc.SetQueuePairAttribute("CongestionControl",
                                          TypeIdValue(MrcFixedWindow::GetTypeId()));
                Config::SetDefault("ns3::MrcFixedWindow::Window", UintegerValue(1ULL << 40));
            }
        }

        // Rank i on T0 i mod t0s: consecutive ranks on different T0s.
        std::vector<uint32_t> ranks;
        for (uint32_t i = 0; i < hosts; ++i)
        {
            ranks.push_back((i % t0s) * hostsPerT0 + i / t0s);
        }
        if (withVictim)
        {
            // Sender: the next free host of rack 1; receiver: the next free host of rack 0.
            ranks.push_back(1 * hostsPerT0 + (hosts + t0s - 2) / t0s);
            ranks.push_back(0 * hostsPerT0 + (hosts + t0s - 1) / t0s);
        }
        ObjectFactory f(types.at(collective));
        f.Set("MessageSize", UintegerValue(size));
        f.Set("QpsPerPeer", UintegerValue(qps));
        f.Set("VerifyData", BooleanValue(verify));
        if (collective == "incast")
        {
            f.Set("VictimSize", UintegerValue(victim));
        }
        Ptr<MrcCollective> c = f.Create<MrcCollective>();
        c->Setup(topo, mrc, ranks);
        if (!pcap.empty())
        {
            PointToPointHelper p2p;
            for (uint32_t p = 0; p < planes; ++p)
            {
                p2p.EnablePcap(pcap, topo->GetHostDevice(ranks[0], p), false, false);
            }
        }
        Ptr<MrcTrainingJob> job = CreateObject<MrcTrainingJob>();
        job->SetAttribute("Iterations", UintegerValue(iterations));
        job->SetAttribute("ComputeTime", TimeValue(compute));
        job->AddCollective(c);
        job->TraceConnectWithoutContext("StepComplete",
                                        MakeBoundCallback(&OnStep, PeekPointer(job)));

        std::cout << spec.Describe() << ", " << rate << " links, " << dataPlane << ", "
                  << (pfc    ? "RoCEv2 baseline on PFC"
                      : roce ? "RoCEv2 baseline"
                             : "MRC")
                  << (roce && !dcqcn ? " without DCQCN" : "") << ", " << qps << " QP(s) per peer\n"
                  << c->GetName() << " over " << c->GetRankCount() << " ranks, S = " << size
                  << " B, " << iterations << " step(s) with " << computeUs
                  << " us compute; collective ideal " << Us(c->GetIdealTime()) << " us\n";
        std::map<std::string, uint64_t> retired; // EV retirements by cause, all steps
        for (const auto& [src, dst] : c->GetPairs())
        {
            Ptr<MrcQpGroup> g = c->GetGroup(src, dst);
            for (uint32_t q = 0; q < g->GetSize(); ++q)
            {
                g->GetSender(q)->TraceConnectWithoutContext(
                    "EvStateChange",
                    MakeBoundCallback(&OnEvState, &retired));
            }
        }
        job->Start();
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        if (!job->IsDone())
        {
            std::cout << "  job NOT finished by 10 s (" << job->GetSteps().size() << " step(s))\n";
        }
        else if (job->HasFailed())
        {
            std::cout << "  job FAILED: " << c->GetFailure() << "\n";
        }
        if (verify)
        {
            std::cout << "  corrupt transfers (last step): " << c->GetCorruptTransfers() << "\n";
        }
        if (collective == "incast" && victim > 0)
        {
            Ptr<MrcIncast> incast = DynamicCast<MrcIncast>(c);
            std::cout << "  victim flow (last step): " << Us(incast->GetVictimTime())
                      << " us (alone at line rate "
                      << Us(c->GetLineRate().Transfer(victim, c->GetMaxLinks())) << " us)\n";
        }
        MrcQpStats tx;
        MrcQpStats rx;
        for (const auto& [src, dst] : c->GetPairs())
        {
            tx += c->GetGroup(src, dst)->GetSenderStats();
            rx += c->GetGroup(src, dst)->GetReceiverStats();
        }
        std::cout << "  recovery (all steps): " << tx.retransmissions
                  << " retransmissions (trimmed " << tx.rtxTrimmed << ", trimmed at the last hop "
                  << tx.rtxTrimmedLastHop << ", sack " << tx.rtxSack << ", path-order "
                  << tx.rtxPathOrder << ", plane-order " << tx.rtxPlaneOrder << ", tail-reorder "
                  << tx.rtxTailReorder << ", tail-probe " << tx.rtxTailProbe << ", timer "
                  << tx.rtxTimeout << ", retired-ev " << tx.rtxRetiredEv << "; go-back-N rewinds "
                  << tx.rewindsNack + tx.rewindsTimeout << "); receivers " << rx.duplicatesReceived
                  << " duplicates, " << rx.trimmedReceived << " trimmed; EVs retired:";
        for (const auto& [cause, n] : retired)
        {
            std::cout << " " << n << " (" << cause << ")";
        }
        std::cout << (retired.empty() ? " none\n" : "\n");
        if (pfc)
        {
            const MrcPfcPortStats::Totals t = MrcPfcPortStats::Sum(MrcPfcPortStats::Collect(*topo));
            std::cout << "  PFC: " << t.pausesSent << " PAUSE and " << t.xonsSent
                      << " XON frames sent by " << t.ports << " ports, paused " << Us(t.pausedTime)
                      << " us in total, longest " << Us(t.maxPausedTime) << " us ("
                      << t.maxPausedPort << "), headroom overflows " << t.overflows << "\n";
        }
        const NodeContainer nodes(topo->GetHosts(), topo->GetAllSwitches());
        std::cout << "  queue drops " << MrcFabricQueueStats::Sum(nodes).droppedPackets << "\n";
        Simulator::Destroy();
        return (job->IsDone() && !job->HasFailed() && c->GetCorruptTransfers() == 0) ? 0 : 1;
    }
    catch (const std::exception& e)
    {
        std::cerr << "mrc-collective: " << e.what() << "\n";
        Simulator::Destroy();
        return 2;
    }
}
