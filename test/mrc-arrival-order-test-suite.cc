/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * MrcFabricChannel's OrderArrivals (MrcArrivalOrder): frames reaching a node in one time step
 * are delivered by receiving interface, so the outcome no longer depends on the order events
 * were created in. On one process that order is set by the order the writes are posted; on MPI
 * ranks by when messages are read (the mrc-mpi suite compares one process with two ranks).
 */

#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/mrc-module.h"
#include "ns3/test.h"

#include <cstdint>
#include <vector>

using namespace ns3;

namespace
{

/// What a permutation run gives.
struct Outcome
{
    std::vector<int64_t> fct; //!< per flow, completion time in ns (-1: not done)
    uint64_t hops{0};         //!< packet-hops
    uint64_t staged{0};       //!< frames staged by the nodes' MrcArrivalOrder
    uint64_t pauses{0};       //!< PAUSE frames the links carried
};

/**
 * MessageDelivered trace of a receiver.
 * \param fct where to record the time, in ns
 * \param msn message
 * \param bytes size
 */
void
OnDelivered(int64_t* fct, uint32_t msn, uint64_t bytes)
{
    *fct = Simulator::Now().GetNanoSeconds();
}

/**
 * A k = 4 fat-tree (16 hosts): every host writes to another (a derangement), the writes posted
 * in host order or in reverse.
 * \param order MrcFabricChannel's OrderArrivals
 * \param reverse post the writes from the last host to the first
 * \param kind the fabric: MRC over SRv6 with trimming switches, or RoCEv2 over PFC
 * \param bytes each host's write
 * \return completion times and counters
 */
Outcome
RunPermutation(bool order,
               bool reverse,
               MrcClusterFabric kind = MrcClusterFabric::MRC_SRV6,
               uint64_t bytes = 100000)
{
    MrcScopedAttributeDefault scoped("ns3::MrcFabricChannel", "OrderArrivals", BooleanValue(order));
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    MrcClusterFabricHelper fabric(kind);
    Ptr<MrcFabricTopology> topo = fabric.Build(MrcClosSpec::FatTree(4));
    // Fixed streams: the runs share one process, whose automatic stream numbers move on.
    const int64_t stream = MrcClosTopologyHelper::AssignStreams(topo, 0);
    MrcHelper mrc(topo, fabric.GetDataPlane());
    fabric.ConfigureTransport(mrc, 1);
    mrc.SetStream(stream);
    mrc.Install();
    const uint32_t hosts = topo->GetHostCount();
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(0);
    const std::vector<uint32_t> dst = MrcPermutationHelper::Derangement(hosts, rng);
    std::vector<Ptr<MrcQueuePair>> senders;
    Outcome o;
    o.fct.assign(hosts, -1);
    for (uint32_t i = 0; i < hosts; ++i)
    {
        auto [a, b] = mrc.Connect(i, dst[i]);
        senders.push_back(a);
        b->TraceConnectWithoutContext("MessageDelivered",
                                      MakeBoundCallback(&OnDelivered, &o.fct[i]));
    }
    for (uint32_t n = 0; n < hosts; ++n)
    {
        senders[reverse ? hosts - 1 - n : n]->PostWrite(bytes);
    }
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    const NodeContainer all(topo->GetHosts(), topo->GetAllSwitches());
    o.hops = MrcFabricQueueStats::Sum(all).sentPackets;
    for (uint32_t n = 0; n < all.GetN(); ++n)
    {
        if (Ptr<MrcArrivalOrder> a = all.Get(n)->GetObject<MrcArrivalOrder>())
        {
            o.staged += a->GetStagedFrames();
        }
    }
    for (const MrcFabricLink& link : topo->GetLinks()) // one channel each
    {
        if (auto c = DynamicCast<MrcFabricChannel>(link.lowerDevice->GetChannel()))
        {
            o.pauses += c->GetPauseFrames();
        }
    }
    Simulator::Destroy();
    Names::Clear();
    return o;
}

} // namespace

/**
 * \ingroup mrc-test
 * The order writes are posted in changes nothing once arrivals are ordered.
 */
class MrcArrivalOrderTestCase : public TestCase
{
  public:
    MrcArrivalOrderTestCase()
        : TestCase("OrderArrivals: a permutation posted in reverse gives the same completion "
                   "times and packet-hops; without it, same-time ties move them")
    {
    }

  private:
    void DoRun() override
    {
        const Outcome forward = RunPermutation(true, false);
        const Outcome backward = RunPermutation(true, true);
        NS_TEST_ASSERT_MSG_EQ(forward.fct.size(), 16u, "16 flows");
        for (size_t i = 0; i < forward.fct.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_GT(forward.fct[i], 0, "flow " << i << " completes");
            NS_TEST_EXPECT_MSG_EQ(backward.fct[i], forward.fct[i], "flow " << i << ", reversed");
        }
        NS_TEST_EXPECT_MSG_EQ(backward.hops, forward.hops, "packet-hops, reversed");
        NS_TEST_EXPECT_MSG_EQ(forward.staged, forward.hops, "every frame was staged");

        // Without ordering the posting order shows through (the test's power to fail).
        const Outcome plain = RunPermutation(false, false);
        const Outcome plainBackward = RunPermutation(false, true);
        NS_TEST_EXPECT_MSG_EQ(plain.staged, 0u, "nothing staged when off");
        const bool moved = plain.fct != plainBackward.fct || plain.hops != plainBackward.hops;
        NS_TEST_EXPECT_MSG_EQ(moved,
                              true,
                              "unordered, the reversed posting changes some completion");
        // Ordering moves ties, not timing: the completions stay within 5 % of the unordered run.
        for (size_t i = 0; i < plain.fct.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(double(forward.fct[i]),
                                      double(plain.fct[i]),
                                      0.05 * plain.fct[i],
                                      "flow " << i << ", ordered against unordered");
        }
    }
};

/**
 * \ingroup mrc-test
 * PAUSE frames are ordered with the frames of their step.
 */
class MrcArrivalOrderPfcTestCase : public TestCase
{
  public:
    MrcArrivalOrderPfcTestCase()
        : TestCase("OrderArrivals with PFC: RoCEv2 over PFC, ECMP collisions pausing ports, posted "
                   "in reverse gives the same completion times, packet-hops and PAUSE frames")
    {
    }

  private:
    void DoRun() override
    {
        const Outcome forward = RunPermutation(true, false, MrcClusterFabric::ROCE_PFC, 1000000);
        const Outcome backward = RunPermutation(true, true, MrcClusterFabric::ROCE_PFC, 1000000);
        NS_TEST_ASSERT_MSG_GT(forward.pauses, 50u, "collisions pause ports");
        for (size_t i = 0; i < forward.fct.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_GT(forward.fct[i], 0, "flow " << i << " completes");
            NS_TEST_EXPECT_MSG_EQ(backward.fct[i], forward.fct[i], "flow " << i << ", reversed");
        }
        NS_TEST_EXPECT_MSG_EQ(backward.hops, forward.hops, "packet-hops, reversed");
        NS_TEST_EXPECT_MSG_EQ(backward.pauses, forward.pauses, "PAUSE frames, reversed");
        NS_TEST_EXPECT_MSG_EQ(forward.staged, forward.hops + forward.pauses, "all staged");
    }
};

/**
 * \ingroup mrc-test
 * MrcArrivalOrder's test suite.
 */
class MrcArrivalOrderTestSuite : public TestSuite
{
  public:
    MrcArrivalOrderTestSuite()
        : TestSuite("mrc-arrival-order", Type::SYSTEM)
    {
        AddTestCase(new MrcArrivalOrderTestCase);
        AddTestCase(new MrcArrivalOrderPfcTestCase);
    }
};

/// The suite's instance.
static MrcArrivalOrderTestSuite g_mrcArrivalOrderTestSuite;
