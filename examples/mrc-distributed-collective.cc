/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * One collective (--collective: ring all-reduce by default) over every host of a k-ary
 * fat-tree of one of the compared fabrics (--fabric, MrcClusterFabricHelper), rank i on host i,
 * in one process or distributed over the ranks of ns-3's MPI engine:
 *
 *   mrc-distributed-collective --k=4                       # one process
 *   mpiexec -n 2 mrc-distributed-collective --k=4 --mpi    # two ranks
 *
 * --mpi needs an ns-3 configured with --enable-mpi and the module built in its contrib/ (see
 * "Distributed runs" in doc/mrc.rst). Every rank builds the whole fabric and the collective;
 * each posts its own hosts' transfers and expects those its hosts receive from the other ranks'
 * (MrcCollective), and the pattern advances on each rank from its own hosts' completions (a
 * ring step waits for the chunk from the predecessor). After the run
 * MrcDistributed::GatherCollective gives rank 0 the whole run, which it prints. Arrivals of one
 * time step are delivered by interface (MrcFabricChannel's OrderArrivals, on here), so that one
 * process and any number of ranks give the same run.
 *
 * --failures takes a failure schedule (JSON or CSV, as mrc-failure-injection and the flagship;
 * examples/failure-schedule-fat-tree-k4.json fails links that cross ranks on two): every rank
 * schedules every event, and each link's state matters on the ranks that simulate its ends.
 *
 * --steps=N runs the collective as an MrcTrainingJob of N steps, each --compute of computation
 * and then the collective (on several ranks, --compute must be at least the lookahead, the
 * least delay of a link between ranks: an MrcRankBarrier tells every rank when a step's
 * collective ended everywhere, that long after the fact); MrcDistributed::GatherJob gives rank
 * 0 every step's transfers. A "RESULT step" line per step gives its start, end, whether it
 * failed, its transfers and the slowest.
 *
 * Lines starting with "RESULT" are the simulation's outcome: the transfers delivered, whether
 * the run ended and failed, its duration against the line-rate ideal, the slowest and median
 * transfer, the transfers whose bytes arrived wrong (--verify), the bytes each rank received,
 * the packet-hops, drops and trims, the queue pairs' probes and retransmissions, and with
 * --failures the events applied and the packets they destroyed. The wall time goes to standard
 * error.
 */

#include "ns3/core-module.h"
#include "ns3/mrc-module.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint32_t k = 4;
    uint64_t size = 1000000;
    uint32_t seed = 1;
    bool mpi = false;
    bool verify = false;
    std::string collective = "ring";
    std::string fabricName = "mrc-srv6";
    std::string failureFile;
    uint32_t steps = 0;
    Time compute = MicroSeconds(5);
    // Same-time arrivals by interface, not by event creation: one process and any number of
    // ranks give the same results (--ns3::MrcFabricChannel::OrderArrivals=false: ns-3's order).
    Config::SetDefault("ns3::MrcFabricChannel::OrderArrivals", BooleanValue(true));
    CommandLine cmd(__FILE__);
    MrcStrictOptions strict; // numeric options parsed whole (CommandLine alone: 2.5 -> 2)
    strict.Add(cmd, "k", "fat-tree radix (even, 4..64)", k);
    strict.Add(cmd, "size", "the collective's message size S in bytes", size);
    strict.Add(cmd, "seed", "RNG seed", seed);
    strict.Add(cmd,
               "collective",
               "ring, allgather, reducescatter, alltoall, permutation or incast",
               collective);
    strict.Add(cmd, "verify", "carry real bytes and check them on delivery (VerifyData)", verify);
    cmd.AddValue("fabric",
                 "mrc-srv6 (MRC, trimming switches), mrc-ecmp, roce-ecmp (RoCEv2, lossy) or "
                 "roce-pfc (RoCEv2 with PFC and DCQCN)",
                 fabricName);
    cmd.AddValue("failures", "failure schedule file, JSON or CSV (empty: none)", failureFile);
    strict.Add(cmd,
               "steps",
               "0: one run of the collective; N: a training job of N steps (MrcTrainingJob)",
               steps);
    cmd.AddValue("compute", "a step's computation before its collective (--steps)", compute);
    cmd.AddValue("mpi",
                 "distribute over the ranks of ns-3's MPI engine (start with mpiexec; needs ns-3 "
                 "built with --enable-mpi)",
                 mpi);
    MrcValueParser::ParseCommandLine(cmd, argc, argv);

    try
    {
        const std::map<std::string, std::string> types{{"ring", "ns3::MrcRingAllReduce"},
                                                       {"allgather", "ns3::MrcAllGather"},
                                                       {"reducescatter", "ns3::MrcReduceScatter"},
                                                       {"alltoall", "ns3::MrcAllToAll"},
                                                       {"permutation", "ns3::MrcPermutation"},
                                                       {"incast", "ns3::MrcIncast"}};
        if (!types.count(collective))
        {
            throw std::invalid_argument("--collective (=" + collective
                                        + ") must be ring, allgather, reducescatter, alltoall, "
                                          "permutation or incast");
        }
        if (size == 0)
        {
            throw std::invalid_argument("--size (=0) must be >= 1");
        }
        MrcClusterFabricHelper fabric(MrcClusterFabricHelper::Parse(fabricName, "--fabric"));
        if (mpi)
        {
            MrcDistributed::Enable(&argc, &argv);
        }
        const uint32_t ranks = MrcDistributed::GetRanks();
        RngSeedManager::SetSeed(seed);

        fabric.GetTopologyHelper().SetRanks(ranks);
        Ptr<MrcFabricTopology> topo = fabric.Build(MrcClosSpec::FatTree(k));
        MrcHelper mrc(topo, fabric.GetDataPlane());
        fabric.ConfigureTransport(mrc, 1);
        mrc.Install();

        ObjectFactory factory(types.at(collective));
        factory.Set("MessageSize", UintegerValue(size));
        factory.Set("VerifyData", BooleanValue(verify));
        Ptr<MrcCollective> c = factory.Create<MrcCollective>();
        std::vector<uint32_t> hosts(topo->GetHostCount());
        for (uint32_t i = 0; i < hosts.size(); ++i)
        {
            hosts[i] = i;
        }
        c->Setup(topo, mrc, hosts);
        Ptr<MrcFailureHelper> failures;
        if (!failureFile.empty())
        {
            failures = CreateObject<MrcFailureHelper>(topo);
            failures->LoadSchedule(failureFile);
        }
        Ptr<MrcTrainingJob> job;
        if (steps > 0)
        {
            job = CreateObject<MrcTrainingJob>();
            job->SetAttribute("Iterations", UintegerValue(steps));
            job->SetAttribute("ComputeTime", TimeValue(compute));
            job->AddCollective(c);
            job->Start();
        }
        else
        {
            Simulator::Schedule(Time(0), &MrcCollective::Start, c);
        }
        Simulator::Stop(Seconds(1));
        const auto t0 = std::chrono::steady_clock::now();
        Simulator::Run();
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

        if (job)
        {
            MrcDistributed::GatherJob(job); // the collective then holds the last step's run
        }
        else
        {
            MrcDistributed::GatherCollective(c);
        }
        const NodeContainer all(topo->GetHosts(), topo->GetAllSwitches());
        const auto mine = MrcFabricQueueStats::Sum(MrcDistributed::Select(all, true));
        // Probes (restoration and reverse-path liveness) and retransmissions of this rank's
        // queue pairs: a group's sending and receiving ends live where their hosts do.
        MrcQpStats qp;
        for (const auto& [src, dst] : c->GetPairs())
        {
            Ptr<MrcQpGroup> g = c->GetGroup(src, dst);
            if (MrcDistributed::IsLocal(g->GetSender(0)->GetNode()))
            {
                qp += g->GetSenderStats();
            }
            if (MrcDistributed::IsLocal(g->GetReceiver(0)->GetNode()))
            {
                qp += g->GetReceiverStats();
            }
        }
        std::vector<uint64_t> sums{mine.sentPackets,
                                   mine.droppedPackets,
                                   mine.trimmedPackets,
                                   failures ? failures->GetLostPackets() : 0,
                                   qp.probesSent,
                                   qp.retransmissions,
                                   qp.restoreProbesSent};
        MrcDistributed::SumToRoot(sums);
        if (MrcDistributed::GetRank() == 0)
        {
            std::vector<Time> times = c->GetTransferTimes();
            std::sort(times.begin(), times.end());
            uint32_t delivered = times.size();
            std::cout << "mrc-distributed-collective: " << c->GetName() << " of " << size
                      << " B over " << hosts.size() << " hosts, " << fabricName << ", k=" << k
                      << ", seed " << seed << ", " << ranks << " rank(s)" << (mpi ? " (MPI)" : "")
                      << "\n"
                      << "RESULT transfers delivered " << delivered << " of "
                      << c->GetTransfers().size() << ", done " << c->IsDone() << ", failed "
                      << c->HasFailed() << "\n"
                      << "RESULT duration " << c->GetDuration().GetNanoSeconds() << " ns, ideal "
                      << c->GetIdealTime().GetNanoSeconds() << " ns\n";
            if (!times.empty())
            {
                std::cout << "RESULT slowest transfer " << times.back().GetNanoSeconds()
                          << " ns, median " << times[times.size() / 2].GetNanoSeconds() << " ns\n";
            }
            std::cout << "RESULT corrupt transfers " << c->GetCorruptTransfers() << "\n"
                      << "RESULT received bytes per rank:";
            for (uint32_t r = 0; r < hosts.size(); ++r)
            {
                std::cout << " " << c->GetReceivedBytes(r);
            }
            std::cout << "\nRESULT packet-hops " << sums[0] << ", drops " << sums[1] << ", trims "
                      << sums[2] << "\nRESULT probes " << sums[4] << " (restoration " << sums[6]
                      << "), retransmissions " << sums[5] << std::endl;
            for (uint32_t i = 0; job && i < job->GetSteps().size(); ++i)
            {
                const MrcTrainingJob::Step& step = job->GetSteps()[i];
                std::vector<Time> t = step.transferTimes;
                std::sort(t.begin(), t.end());
                std::cout << "RESULT step " << i << " start " << step.start.GetNanoSeconds()
                          << " ns, end " << step.end.GetNanoSeconds() << " ns, failed "
                          << step.failed << ", transfers " << t.size() << ", slowest "
                          << (t.empty() ? 0 : t.back().GetNanoSeconds()) << " ns" << std::endl;
            }
            if (failures)
            {
                std::cout << "RESULT failure events " << failures->GetLog().GetEntries().size()
                          << ", packets lost to them " << sums[3] << std::endl;
            }
            std::cerr << "wall s " << wall << " (rank 0)" << std::endl;
        }
        Simulator::Destroy();
        MrcDistributed::Disable();
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        MrcDistributed::Disable();
        return 1;
    }
    return 0;
}
