/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A permutation of RDMA writes (every host writes --bytes to a distinct host) on a k-ary
 * fat-tree of one of the compared fabrics (--fabric, MrcClusterFabricHelper: by default MRC over
 * SRv6 with trimming switches; roce-pfc: RoCEv2 with PFC and DCQCN), in one process or
 * distributed over the ranks of ns-3's MPI engine:
 *
 *   mrc-distributed-permutation --k=4                       # one process
 *   mpiexec -n 2 mrc-distributed-permutation --k=4 --mpi    # two ranks
 *
 * --mpi needs an ns-3 configured with --enable-mpi and the module built in its contrib/
 * (Debian's libns3 has no MPI; see "Distributed runs" in doc/mrc.rst). The fabric is spread
 * over the ranks by MrcRankPlan (hosts with their T0, whole pods where the ranks divide them);
 * every rank builds the whole fabric and every queue pair, starts only its own hosts' writes,
 * and sends its results to rank 0, which prints them. Arrivals of one time step are delivered
 * by interface (MrcFabricChannel's OrderArrivals, on here), so one process and two ranks print
 * the same RESULT lines.
 *
 * Lines starting with "RESULT" are the simulation's outcome: one per flow (source,
 * destination, completion time in ns, or "not done"), the flows done, the packet-hops (link
 * traversals), drops and trims, PAUSE frames delivered, and the frames that copies of nodes a rank
 * does not simulate handed to links into the nodes it simulates (MrcFabricChannel drops them: 0
 * unless a model starts traffic on every copy of a node and that traffic crosses a switch). The
 * wall time of Simulator::Run (rank 0's), the events of all ranks and the packet-hops per wall
 * second go to standard error: they vary between runs and with the number of ranks.
 */

#include "ns3/core-module.h"
#include "ns3/mrc-module.h"

#include <chrono>
#include <iostream>

using namespace ns3;

namespace
{

/**
 * MessageDelivered trace of a receiver.
 * \param finish where to record the time
 * \param msn message
 * \param bytes size
 */
void
OnDelivered(Time* finish, uint32_t msn, uint64_t bytes)
{
    *finish = Simulator::Now();
}

/**
 * \param topo the fabric
 * \param pause true: PAUSE frames its links delivered on this rank; false: frames they dropped
 *        at the rank border on this rank (MrcFabricChannel)
 * \return that count
 */
uint64_t
ChannelFrames(Ptr<MrcFabricTopology> topo, bool pause)
{
    uint64_t frames = 0;
    for (const MrcFabricLink& link : topo->GetLinks()) // one channel each
    {
        if (auto c = DynamicCast<MrcFabricChannel>(link.lowerDevice->GetChannel()))
        {
            frames += pause ? c->GetPauseFrames() : c->GetForeignFrames();
        }
    }
    return frames;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t k = 4;
    uint64_t bytes = 200000;
    uint32_t seed = 1;
    bool mpi = false;
    std::string fabricName = "mrc-srv6";
    // Same-time arrivals by interface, not by event creation: one process and any number of
    // ranks give the same results (--ns3::MrcFabricChannel::OrderArrivals=false: ns-3's order).
    Config::SetDefault("ns3::MrcFabricChannel::OrderArrivals", BooleanValue(true));
    CommandLine cmd(__FILE__);
    MrcStrictOptions strict; // numeric options parsed whole (CommandLine alone: 2.5 -> 2)
    strict.Add(cmd, "k", "fat-tree radix (even, 4..64)", k);
    strict.Add(cmd, "bytes", "bytes each host writes", bytes);
    strict.Add(cmd, "seed", "RNG seed (the permutation and every random choice)", seed);
    cmd.AddValue("fabric",
                 "mrc-srv6 (MRC, trimming switches), mrc-ecmp, roce-ecmp (RoCEv2, lossy) or "
                 "roce-pfc (RoCEv2 with PFC and DCQCN)",
                 fabricName);
    cmd.AddValue("mpi",
                 "distribute over the ranks of ns-3's MPI engine (start with mpiexec; needs ns-3 "
                 "built with --enable-mpi)",
                 mpi);
    MrcValueParser::ParseCommandLine(cmd, argc, argv);

    try
    {
        if (bytes == 0)
        {
            throw std::invalid_argument("--bytes (=0) must be >= 1");
        }
        MrcClusterFabricHelper fabric(MrcClusterFabricHelper::Parse(fabricName, "--fabric"));
        if (mpi)
        {
            MrcDistributed::Enable(&argc, &argv);
        }
        const uint32_t rank = MrcDistributed::GetRank();
        const uint32_t ranks = MrcDistributed::GetRanks();
        RngSeedManager::SetSeed(seed);

        fabric.GetTopologyHelper().SetRanks(ranks);
        Ptr<MrcFabricTopology> topo = fabric.Build(MrcClosSpec::FatTree(k));
        MrcHelper mrc(topo, fabric.GetDataPlane());
        fabric.ConfigureTransport(mrc, 1);
        mrc.Install();

        const uint32_t hosts = topo->GetHostCount();
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(0);
        const std::vector<uint32_t> dst = MrcPermutationHelper::Derangement(hosts, rng);
        std::vector<Time> finish(hosts, Time(-1));
        for (uint32_t i = 0; i < hosts; ++i)
        {
            auto [a, b] = mrc.Connect(i, dst[i]);
            if (MrcDistributed::IsLocal(topo->GetHost(i)))
            {
                a->PostWrite(bytes); // the other ranks only hold a copy of this host
            }
            b->TraceConnectWithoutContext("MessageDelivered",
                                          MakeBoundCallback(&OnDelivered, &finish[i]));
        }
        Simulator::Stop(Seconds(1));
        const uint64_t events0 = Simulator::GetEventCount();
        const auto t0 = std::chrono::steady_clock::now();
        Simulator::Run();
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

        // A flow's completion is known at its receiver's rank only: the maximum over ranks.
        std::vector<int64_t> fct(hosts);
        for (uint32_t i = 0; i < hosts; ++i)
        {
            fct[i] = finish[i].IsNegative() ? -1 : finish[i].GetNanoSeconds();
        }
        MrcDistributed::MaxToRoot(fct);
        const NodeContainer all(topo->GetHosts(), topo->GetAllSwitches());
        const auto mine = MrcFabricQueueStats::Sum(MrcDistributed::Select(all, true));
        std::vector<uint64_t> sums{
            mine.sentPackets,
            mine.droppedPackets,
            mine.trimmedPackets,
            MrcFabricQueueStats::Sum(MrcDistributed::Select(all, false)).sentPackets,
            Simulator::GetEventCount() - events0,
            ChannelFrames(topo, false),
            ChannelFrames(topo, true)};
        MrcDistributed::SumToRoot(sums);
        if (rank == 0)
        {
            std::cout << "mrc-distributed-permutation: " << fabricName << ", k=" << k << ", "
                      << hosts << " hosts, " << bytes << " B each, seed " << seed << ", " << ranks
                      << " rank(s)" << (mpi ? " (MPI)" : "") << "\n";
            uint32_t done = 0;
            for (uint32_t i = 0; i < hosts; ++i)
            {
                std::cout << "RESULT flow " << i << " -> " << dst[i] << ": ";
                if (fct[i] < 0)
                {
                    std::cout << "not done\n";
                    continue;
                }
                ++done;
                std::cout << fct[i] << " ns\n";
            }
            std::cout << "RESULT done " << done << "/" << hosts << "\n"
                      << "RESULT packet-hops " << sums[0] << ", drops " << sums[1] << ", trims "
                      << sums[2] << "\n"
                      << "RESULT PAUSE frames " << sums[6] << "\n"
                      << "RESULT frames from copies of other ranks' nodes stopped at rank borders "
                      << sums[5] << std::endl;
            // Standard error: the wall time varies from run to run, the output must not.
            std::cerr << "packets sent by the copies of other ranks' nodes (ns-3's IPv6 router "
                         "solicitations, which go no further than their T0) "
                      << sums[3] << "\n"
                      << "wall s " << wall << " (rank 0), events " << sums[4]
                      << " (all ranks), packet-hops per wall second " << sums[0] / wall
                      << std::endl;
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
