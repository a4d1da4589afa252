/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Collective workloads (MrcCollective and subclasses, MrcTrainingJob) on small fabrics: each
 * pattern completes with exactly the bytes it should deliver, close to its line-rate ideal on a
 * healthy fabric, under MRC (SRv6 and ECMP) and the RoCEv2 baseline; a training job records its
 * steps; a dead host makes the collective fail instead of hanging; workloads installed as
 * Applications begin when their last rank starts.
 */

#include "mrc-test-bench.h"

#include "ns3/application-container.h"
#include "ns3/boolean.h"
#include "ns3/mrc-workload-application-helper.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <numeric>
#include <sstream>

using namespace ns3;

using mrctest::Bench;
using mrctest::DropPackets;

namespace
{

/// Two planes, 2 T0 x 4 hosts, 2 T1: 8 hosts.
MrcClosSpec
SmallFabric()
{
    return MrcClosSpec::TwoTier(2, 2, 4, 2);
}

/// Ranks spread over both T0s so that every ring hop crosses the fabric.
const std::vector<uint32_t> kFourRanks{0, 4, 1, 5};

/**
 * Create a collective with its size and connect it.
 * \param b the bench
 * \param tid the subclass
 * \param hosts its ranks
 * \param size S
 * \param verify carry and check real bytes (VerifyData)
 * \return the collective
 */
Ptr<MrcCollective>
Make(Bench& b,
     const std::string& tid,
     const std::vector<uint32_t>& hosts,
     uint64_t size,
     bool verify = false)
{
    ObjectFactory f;
    f.SetTypeId(tid);
    f.Set("MessageSize", UintegerValue(size));
    f.Set("VerifyData", BooleanValue(verify));
    Ptr<MrcCollective> c = f.Create<MrcCollective>();
    c->Setup(b.topo, *b.mrc, hosts);
    return c;
}

/// Payload bytes the transport delivered (the receiving queue pairs' MessageDelivered).
struct ByteCounter
{
    uint64_t bytes{0}; //!< delivered so far

    /// \param group count what its receiving ends deliver
    void Follow(Ptr<MrcQpGroup> group)
    {
        for (uint32_t i = 0; i < group->GetSize(); ++i)
        {
            group->GetReceiver(i)->TraceConnectWithoutContext(
                "MessageDelivered",
                MakeCallback(&ByteCounter::OnDelivered, this));
        }
    }

    /// \param msn message \param b its bytes
    void OnDelivered(uint32_t msn, uint64_t b)
    {
        bytes += b;
    }
};

} // namespace

/**
 * \ingroup mrc-tests
 * Ring all-reduce on 4 ranks: 2 (n - 1) steps, each rank receives exactly its predecessor's
 * chunks, the run ends within a margin of its line-rate ideal on a healthy fabric.
 */
class MrcWorkloadRingTestCase : public TestCase
{
  public:
    /**
     * \param plane the data plane
     * \param roce RoCEv2 baseline (4 QPs per peer) instead of MRC
     * \param margin accepted duration / ideal
     */
    MrcWorkloadRingTestCase(MrcDataPlane plane, bool roce, double margin)
        : TestCase(std::string("ring all-reduce, ")
                   + ((plane == MrcDataPlane::SRV6) ? "SRv6" : "ECMP")
                   + (roce ? ", RoCEv2" : ", MRC"))
        , m_plane(plane)
        , m_roce(roce)
        , m_margin(margin)
    {
    }

  private:
    void DoRun() override
    {
        Bench b(SmallFabric(), !m_roce, m_plane);
        if (m_roce)
        {
            b.mrc->SetRoceV2Baseline(4);
        }
        const uint64_t size = 1000003; // not a multiple of 4: chunks of 250001 and 250000
        Ptr<MrcCollective> c = Make(b, "ns3::MrcRingAllReduce", kFourRanks, size);
        Ptr<MrcRingCollective> ring = DynamicCast<MrcRingCollective>(c);
        std::vector<ByteCounter> counters(4);
        for (uint32_t r = 0; r < 4; ++r)
        {
            counters[(r + 1) % 4].Follow(c->GetGroup(r, (r + 1) % 4));
        }
        c->Start();
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(c->IsDone(), true, "the all-reduce did not end");
        NS_TEST_ASSERT_MSG_EQ(c->HasFailed(), false, "failed: " << c->GetFailure());
        NS_TEST_EXPECT_MSG_EQ(c->GetTransfers().size(), 4u * 6u, "2 (n - 1) writes per rank");
        uint64_t total = 0;
        for (uint32_t r = 0; r < 4; ++r)
        {
            NS_TEST_EXPECT_MSG_EQ(c->GetReceivedBytes(r),
                                  ring->GetExpectedReceivedBytes(r),
                                  "bytes received by rank " << r);
            NS_TEST_EXPECT_MSG_EQ(counters[r].bytes,
                                  ring->GetExpectedReceivedBytes(r),
                                  "bytes the transport delivered to rank " << r);
            total += c->GetReceivedBytes(r);
        }
        NS_TEST_EXPECT_MSG_EQ(total, 6 * size, "every step moves S bytes");
        const double ratio = c->GetDuration().GetSeconds() / c->GetIdealTime().GetSeconds();
        NS_TEST_EXPECT_MSG_GT_OR_EQ(ratio, 1.0, "faster than the ideal?");
        if (!m_roce && m_plane == MrcDataPlane::SRV6)
        {
            // Without waiting for its own acknowledgement a rank forwards a chunk as soon as it
            // has it: faster, still every byte, still no faster than the ideal.
            Simulator::Destroy();
            Names::Clear();
            Bench b2(SmallFabric(), true, m_plane);
            Ptr<MrcCollective> eager = Make(b2, "ns3::MrcRingAllReduce", kFourRanks, size);
            eager->SetAttribute("WaitForAck", BooleanValue(false));
            eager->Start();
            Simulator::Stop(MilliSeconds(100));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ((eager->IsDone() && !eager->HasFailed()), true, "eager ring");
            for (uint32_t r = 0; r < 4; ++r)
            {
                NS_TEST_EXPECT_MSG_EQ(eager->GetReceivedBytes(r),
                                      ring->GetExpectedReceivedBytes(r),
                                      "eager: bytes received by rank " << r);
            }
            NS_TEST_EXPECT_MSG_LT(eager->GetDuration(), c->GetDuration(), "eager is faster");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(eager->GetDuration(), eager->GetIdealTime(), "bound");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(eager->GetDuration().GetSeconds(),
                                        1.15 * eager->GetIdealTime().GetSeconds(),
                                        "eager: duration " << eager->GetDuration().As(Time::US)
                                                           << ", ideal "
                                                           << eager->GetIdealTime().As(Time::US));
        }
        NS_TEST_EXPECT_MSG_LT_OR_EQ(ratio,
                                    m_margin,
                                    "duration " << c->GetDuration().As(Time::US) << ", ideal "
                                                << c->GetIdealTime().As(Time::US));
    }

    MrcDataPlane m_plane; //!< data plane
    bool m_roce;          //!< RoCEv2 baseline
    double m_margin;      //!< duration / ideal bound
};

/**
 * \ingroup mrc-tests
 * NCCL's pipelined ring (MrcRingCollective SliceSize, ChunkSize) on the 4-rank ring: slices of
 * a step go on as they arrive, so the run is faster than with whole chunks and no faster than its
 * own (lower) ideal; every byte arrives once, checked byte for byte, healthy and with 1 % of the
 * packets into two hosts lost.
 */
class MrcWorkloadSlicedRingTestCase : public TestCase
{
  public:
    MrcWorkloadSlicedRingTestCase()
        : TestCase("ring all-reduce in slices (NCCL's pipelined ring)")
    {
    }

  private:
    /// One run's figures.
    struct Run
    {
        Time duration; //!< run time
        Time ideal;    //!< its line-rate ideal
        size_t writes; //!< WRITEs posted
    };

    /**
     * \param slice SliceSize \param chunk ChunkSize \param loss packet loss into hosts 1 and 5
     * \return the run's figures (after checking its bytes)
     */
    Run RunRing(uint64_t slice, uint64_t chunk, double loss)
    {
        Bench b(SmallFabric(), true);
        const uint64_t size = 1000003; // chunks of 250001 and 250000
        Ptr<MrcCollective> c = Make(b, "ns3::MrcRingAllReduce", kFourRanks, size, true);
        c->SetAttribute("SliceSize", UintegerValue(slice));
        c->SetAttribute("ChunkSize", UintegerValue(chunk));
        Ptr<MrcRingCollective> ring = DynamicCast<MrcRingCollective>(c);
        for (uint32_t p = 0; loss > 0 && p < SmallFabric().planes; ++p)
        {
            DropPackets(b.topo->GetHostDevice(1, p), loss);
            DropPackets(b.topo->GetHostDevice(5, p), loss);
        }
        c->Start();
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();
        Run run{c->GetDuration(), c->GetIdealTime(), c->GetTransfers().size()};
        NS_TEST_EXPECT_MSG_EQ((c->IsDone() && !c->HasFailed()), true, "ended: " << c->GetFailure());
        NS_TEST_EXPECT_MSG_EQ(c->GetCorruptTransfers(), 0u, "byte for byte");
        uint64_t total = 0;
        for (uint32_t r = 0; r < 4; ++r)
        {
            NS_TEST_EXPECT_MSG_EQ(c->GetReceivedBytes(r),
                                  ring->GetExpectedReceivedBytes(r),
                                  "bytes received by rank " << r);
            total += c->GetReceivedBytes(r);
        }
        NS_TEST_EXPECT_MSG_EQ(total, 6 * size, "every step moves S bytes");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(run.duration, run.ideal, "faster than the ideal?");
        Simulator::Destroy();
        Names::Clear();
        return run;
    }

    void DoRun() override
    {
        const Run whole = RunRing(0, 0, 0);
        const Run sliced = RunRing(65536, 0, 0); // 4 slices of about 62.5 kB per chunk
        NS_TEST_EXPECT_MSG_EQ(whole.writes, 4u * 6u, "one WRITE per step");
        NS_TEST_EXPECT_MSG_EQ(sliced.writes, 4u * 6u * 4u, "four per step");
        NS_TEST_EXPECT_MSG_LT(sliced.ideal, whole.ideal, "pipelining lowers the ideal");
        NS_TEST_EXPECT_MSG_LT(sliced.duration.GetSeconds(),
                              0.9 * whole.duration.GetSeconds(),
                              "sliced " << sliced.duration.As(Time::US) << ", whole "
                                        << whole.duration.As(Time::US));
        NS_TEST_EXPECT_MSG_LT_OR_EQ(sliced.duration.GetSeconds(),
                                    1.3 * sliced.ideal.GetSeconds(),
                                    "sliced " << sliced.duration.As(Time::US) << ", ideal "
                                              << sliced.ideal.As(Time::US));
        // Two passes of chunks of at most 131072 B, in slices: 2 x 6 steps x 3 slices.
        const Run passes = RunRing(50000, 131072, 0);
        NS_TEST_EXPECT_MSG_EQ(passes.writes, 4u * 2u * 6u * 3u, "passes x steps x slices");
        const Run lossy = RunRing(65536, 0, 0.01);
        NS_TEST_EXPECT_MSG_EQ(lossy.writes, sliced.writes, "lossy: the same WRITEs");
        NS_TEST_EXPECT_MSG_GT(lossy.duration, sliced.duration, "loss costs time");
    }
};

/**
 * \ingroup mrc-tests
 * All-to-all (with and without a concurrency limit) and permutation deliver exactly their bytes.
 */
class MrcWorkloadAllToAllTestCase : public TestCase
{
  public:
    /// \param concurrency writes outstanding per rank (0: all)
    explicit MrcWorkloadAllToAllTestCase(uint32_t concurrency)
        : TestCase("all-to-all, concurrency " + std::to_string(concurrency))
        , m_concurrency(concurrency)
    {
    }

  private:
    void DoRun() override
    {
        Bench b(SmallFabric(), true);
        const uint64_t size = 400010;
        ObjectFactory f("ns3::MrcAllToAll");
        f.Set("MessageSize", UintegerValue(size));
        f.Set("Concurrency", UintegerValue(m_concurrency));
        f.Set("VerifyData", BooleanValue(true));
        Ptr<MrcCollective> a2a = f.Create<MrcCollective>();
        a2a->Setup(b.topo, *b.mrc, {0, 1, 2, 4, 5, 6});
        Ptr<MrcCollective> perm = Make(b, "ns3::MrcPermutation", {3, 7}, 300000);
        std::vector<ByteCounter> counters(6);
        for (uint32_t s = 0; s < 6; ++s)
        {
            for (uint32_t r = 0; r < 6; ++r)
            {
                if (s != r)
                {
                    counters[r].Follow(a2a->GetGroup(s, r));
                }
            }
        }
        a2a->Start();
        perm->Start();
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ((a2a->IsDone() && !a2a->HasFailed()), true, "all-to-all ended");
        NS_TEST_EXPECT_MSG_EQ(a2a->GetTransfers().size(), 30u, "n (n - 1) writes");
        NS_TEST_EXPECT_MSG_EQ(a2a->GetCorruptTransfers(), 0u, "byte for byte");
        const auto chunks = MrcLineRateModel::Chunks(size, 6);
        for (uint32_t r = 0; r < 6; ++r)
        {
            NS_TEST_EXPECT_MSG_EQ(a2a->GetReceivedBytes(r), 5 * chunks[r], "rank " << r);
            NS_TEST_EXPECT_MSG_EQ(counters[r].bytes, 5 * chunks[r], "transport bytes into " << r);
        }
        NS_TEST_EXPECT_MSG_GT_OR_EQ(a2a->GetDuration(), a2a->GetIdealTime(), "ideal is a bound");
        NS_TEST_ASSERT_MSG_EQ((perm->IsDone() && !perm->HasFailed()), true, "permutation ended");
        NS_TEST_EXPECT_MSG_EQ(perm->GetReceivedBytes(0), 300000u, "rank 0");
        NS_TEST_EXPECT_MSG_EQ(perm->GetReceivedBytes(1), 300000u, "rank 1");
    }

    uint32_t m_concurrency; //!< Concurrency attribute
};

/**
 * \ingroup mrc-tests
 * 4-to-1 incast with a victim pair sharing the fabric: every byte arrives, the victim too.
 */
class MrcWorkloadIncastTestCase : public TestCase
{
  public:
    MrcWorkloadIncastTestCase()
        : TestCase("incast with victim")
    {
    }

  private:
    void DoRun() override
    {
        Bench b(SmallFabric(), true);
        ObjectFactory f("ns3::MrcIncast");
        f.Set("MessageSize", UintegerValue(200000));
        f.Set("VictimSize", UintegerValue(500000));
        f.Set("VerifyData", BooleanValue(true));
        Ptr<MrcIncast> incast = f.Create<MrcIncast>();
        // Receiver 4, senders 0..3 on the other T0; the victim 6 -> 5 shares the receiver's T0
        // but not its last hop.
        incast->Setup(b.topo, *b.mrc, {4, 0, 1, 2, 3, 6, 5});
        ByteCounter counter;
        for (uint32_t s = 1; s <= 4; ++s)
        {
            counter.Follow(incast->GetGroup(s, 0));
        }
        incast->Start();
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ((incast->IsDone() && !incast->HasFailed()), true, "incast ended");
        NS_TEST_EXPECT_MSG_EQ(incast->GetSenderCount(), 4u, "senders");
        NS_TEST_EXPECT_MSG_EQ(incast->GetCorruptTransfers(), 0u, "byte for byte");
        NS_TEST_EXPECT_MSG_EQ(incast->GetReceivedBytes(0), 800000u, "incast receiver");
        NS_TEST_EXPECT_MSG_EQ(incast->GetReceivedBytes(6), 500000u, "victim receiver");
        NS_TEST_EXPECT_MSG_EQ(counter.bytes, 800000u, "transport bytes into the receiver");
        NS_TEST_EXPECT_MSG_EQ(incast->GetIncastTimes().size(), 4u, "incast transfers");
        NS_TEST_EXPECT_MSG_GT(incast->GetVictimTime(), Time(0), "victim delivered");
        // The victim does not cross the incast receiver's last hop: MRC leaves it (almost)
        // untouched.
        const Time victimIdeal = incast->GetTransfers().back().ideal;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(incast->GetVictimTime(), victimIdeal, "victim bound");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(incast->GetVictimTime().GetSeconds(),
                                    1.2 * victimIdeal.GetSeconds(),
                                    "victim " << incast->GetVictimTime().As(Time::US) << ", alone "
                                              << victimIdeal.As(Time::US));
        NS_TEST_EXPECT_MSG_GT_OR_EQ(incast->GetDuration(), incast->GetIdealTime(), "bound");
    }
};

/**
 * \ingroup mrc-tests
 * An incast whose senders are at different distances: one in the receiver's rack (2 links), two
 * beyond it (4 links). Its ideal counts the receiver's links from the nearest sender's latency on
 * (the longest path's latency for every byte would overstate it) and is still a bound.
 */
class MrcWorkloadNearIncastTestCase : public TestCase
{
  public:
    MrcWorkloadNearIncastTestCase()
        : TestCase("incast with a sender in the receiver's rack: the ideal is a strict bound")
    {
    }

  private:
    void DoRun() override
    {
        Bench b(SmallFabric(), true);
        // Receiver 4; sender 5 under the same T0, senders 0 and 1 under the other.
        Ptr<MrcIncast> incast =
            DynamicCast<MrcIncast>(Make(b, "ns3::MrcIncast", {4, 5, 0, 1}, 200000, true));
        NS_TEST_ASSERT_MSG_NE(incast, nullptr, "an MrcIncast");
        NS_TEST_ASSERT_MSG_EQ(incast->GetLinks(1, 0), 2u, "host 5 -> host 4: two links");
        NS_TEST_ASSERT_MSG_EQ(incast->GetLinks(2, 0), 4u, "host 0 -> host 4: four links");
        const MrcLineRateModel& line = incast->GetLineRate();
        NS_TEST_EXPECT_MSG_EQ(incast->GetIdealTime(),
                              line.Incast(3, 200000, 2, 4),
                              "nearest and farthest sender");
        NS_TEST_EXPECT_MSG_LT(incast->GetIdealTime(),
                              line.Incast(3, 200000, 4),
                              "below the longest-path formula");
        incast->Start();
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ((incast->IsDone() && !incast->HasFailed()), true, "incast ended");
        NS_TEST_EXPECT_MSG_EQ(incast->GetCorruptTransfers(), 0u, "byte for byte");
        NS_TEST_EXPECT_MSG_EQ(incast->GetReceivedBytes(0), 600000u, "incast receiver");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(incast->GetDuration(),
                                    incast->GetIdealTime(),
                                    "bound: " << incast->GetDuration().As(Time::US) << " against "
                                              << incast->GetIdealTime().As(Time::US));
    }
};

/**
 * \ingroup mrc-tests
 * A training job of 3 iterations runs two collectives per step on overlapping hosts and records
 * 3 steps no shorter than compute gap + collective ideal; a bulk transfer runs as a second job.
 */
class MrcWorkloadTrainingJobTestCase : public TestCase
{
  public:
    MrcWorkloadTrainingJobTestCase()
        : TestCase("training job")
    {
    }

  private:
    void DoRun() override
    {
        Bench b(SmallFabric(), true);
        Ptr<MrcCollective> ring = Make(b, "ns3::MrcRingAllReduce", kFourRanks, 400000, true);
        Ptr<MrcCollective> gather = Make(b, "ns3::MrcAllGather", {0, 2, 6}, 300000);
        Ptr<MrcTrainingJob> job = CreateObject<MrcTrainingJob>();
        job->SetAttribute("Iterations", UintegerValue(3));
        job->SetAttribute("ComputeTime", TimeValue(MicroSeconds(50)));
        job->AddCollective(ring);
        job->AddCollective(gather);
        std::vector<uint32_t> traced;
        job->TraceConnectWithoutContext(
            "StepComplete",
            MakeCallback(&MrcWorkloadTrainingJobTestCase::OnStep, this).Bind(&traced));
        Ptr<MrcCollective> bulk = Make(b, "ns3::MrcBulkTransfer", {3, 7}, 1000000);
        Ptr<MrcTrainingJob> other = CreateObject<MrcTrainingJob>();
        other->SetAttribute("StartTime", TimeValue(MicroSeconds(20)));
        other->AddCollective(bulk);
        job->Start();
        other->Start();
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(job->IsDone(), true, "job ended");
        NS_TEST_ASSERT_MSG_EQ(job->HasFailed(), false, "job failed");
        NS_TEST_ASSERT_MSG_EQ(job->GetSteps().size(), 3u, "steps");
        NS_TEST_EXPECT_MSG_EQ(traced.size(), 3u, "StepComplete fired per step");
        const Time ideal =
            MicroSeconds(50) + std::max(ring->GetIdealTime(), gather->GetIdealTime());
        for (uint32_t i = 0; i < 3; ++i)
        {
            const auto& s = job->GetSteps()[i];
            NS_TEST_EXPECT_MSG_EQ(s.ideal, ideal, "step ideal");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(s.GetDuration(), ideal, "step " << i);
            NS_TEST_EXPECT_MSG_EQ(s.transferTimes.size(), 4u * 6u + 3u * 2u, "transfers");
            NS_TEST_EXPECT_MSG_EQ(s.GetTransferStats().GetMax(),
                                  *std::max_element(s.transferTimes.begin(), s.transferTimes.end()),
                                  "P100");
            if (i > 0)
            {
                NS_TEST_EXPECT_MSG_EQ(s.start, job->GetSteps()[i - 1].end, "back to back");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(ring->GetCorruptTransfers(), 0u, "last step byte for byte");
        for (const auto& t : ring->GetTransfers())
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(t.delivered - t.posted, t.ideal, "transfer ideal");
        }
        NS_TEST_ASSERT_MSG_EQ(other->IsDone(), true, "second job ended");
        NS_TEST_EXPECT_MSG_EQ(bulk->GetReceivedBytes(1), 1000000u, "bulk bytes");
        NS_TEST_EXPECT_MSG_EQ(bulk->GetStartTime(), MicroSeconds(20), "bulk start time");
    }

    /**
     * \param log steps seen
     * \param step index
     * \param duration its duration
     * \param ideal its ideal
     */
    void OnStep(std::vector<uint32_t>* log, uint32_t step, Time duration, Time ideal)
    {
        log->push_back(step);
    }
};

/**
 * \ingroup mrc-tests
 * A rank's host goes dark (every packet into it dropped): its queue pairs fail, the collective
 * and the job end as failed instead of hanging.
 */
class MrcWorkloadFailureTestCase : public TestCase
{
  public:
    MrcWorkloadFailureTestCase()
        : TestCase("failed queue pair ends the collective")
    {
    }

  private:
    void DoRun() override
    {
        Bench b(SmallFabric(), true);
        b.mrc->SetQueuePairAttribute("AckTimeoutExponent", UintegerValue(4));
        b.mrc->SetQueuePairAttribute("RetryCount", UintegerValue(1));
        Ptr<MrcCollective> ring = Make(b, "ns3::MrcRingAllReduce", kFourRanks, 400000);
        Ptr<MrcTrainingJob> job = CreateObject<MrcTrainingJob>();
        job->SetAttribute("Iterations", UintegerValue(5));
        job->AddCollective(ring);
        for (uint32_t p = 0; p < 2; ++p)
        {
            DropPackets(b.topo->GetHostDevice(5, p), 1.0);
        }
        job->Start();
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(ring->IsDone(), true, "the collective must end");
        NS_TEST_EXPECT_MSG_EQ(ring->HasFailed(), true, "... as failed");
        NS_TEST_EXPECT_MSG_NE(ring->GetFailure(), "", "with a reason");
        NS_TEST_EXPECT_MSG_EQ(job->IsDone(), true, "the job ends");
        NS_TEST_EXPECT_MSG_EQ(job->HasFailed(), true, "failed");
        NS_TEST_EXPECT_MSG_EQ(job->GetSteps().size(), 1u, "no step after the failure");
        // QP timeout 1.024 us x 2^4, twice, plus probing: well under a millisecond, not a hang
        // until the simulation's stop.
        NS_TEST_EXPECT_MSG_LT(ring->GetEndTime(), MilliSeconds(10), "reported promptly");
    }
};

/**
 * \ingroup mrc-tests
 * Bad input names the field.
 */
class MrcWorkloadInputTestCase : public TestCase
{
  public:
    MrcWorkloadInputTestCase()
        : TestCase("collective input checks")
    {
    }

  private:
    void DoRun() override
    {
        Bench b(SmallFabric(), true);
        auto fails = [&](const std::string& tid, std::vector<uint32_t> hosts) {
            try
            {
                Make(b, tid, hosts, 1000);
            }
            catch (const std::invalid_argument& e)
            {
                return std::string(e.what()).find("host") != std::string::npos;
            }
            return false;
        };
        NS_TEST_EXPECT_MSG_EQ(fails("ns3::MrcRingAllReduce", {0}), true, "one rank");
        NS_TEST_EXPECT_MSG_EQ(fails("ns3::MrcRingAllReduce", {0, 0}), true, "repeated host");
        NS_TEST_EXPECT_MSG_EQ(fails("ns3::MrcRingAllReduce", {0, 99}), true, "host range");
        NS_TEST_EXPECT_MSG_EQ(fails("ns3::MrcBulkTransfer", {0, 1, 2}), true, "bulk: 2 ranks");
        // A SliceSize that cuts S into more WRITEs than a rank may make is refused at Setup.
        ObjectFactory f("ns3::MrcRingAllReduce");
        f.Set("MessageSize", UintegerValue(100000000));
        f.Set("SliceSize", UintegerValue(1));
        std::string error;
        try
        {
            f.Create<MrcCollective>()->Setup(b.topo, *b.mrc, {0, 4});
        }
        catch (const std::invalid_argument& e)
        {
            error = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(error.find("SliceSize (=1 B)"), std::string::npos, error);
        Ptr<MrcPermutation> p = CreateObject<MrcPermutation>();
        bool thrown = false;
        try
        {
            p->SetDestinations({1, 1, 0});
        }
        catch (const std::invalid_argument&)
        {
            thrown = true;
        }
        NS_TEST_EXPECT_MSG_EQ(thrown, true, "not a permutation");
    }
};

/**
 * \ingroup mrc-tests
 * Workloads installed as ns-3 Applications (MrcWorkloadApplicationHelper): a collective begins
 * when the last of its ranks' applications starts, at that application's start time, and
 * delivers its bytes; a rank stopped before then holds it back; a training job's applications
 * are its collectives' hosts.
 */
class MrcWorkloadApplicationTestCase : public TestCase
{
  public:
    MrcWorkloadApplicationTestCase()
        : TestCase("workloads installed as applications")
    {
    }

  private:
    void DoRun() override
    {
        MrcWorkloadApplicationHelper helper;
        {
            Bench b(SmallFabric(), true);
            Ptr<MrcCollective> ring = Make(b, "ns3::MrcRingAllReduce", kFourRanks, 400000);
            ApplicationContainer apps = helper.Install(ring, b.topo);
            NS_TEST_ASSERT_MSG_EQ(apps.GetN(), 4u, "one application per rank");
            const uint32_t startUs[] = {10, 30, 20, 25};
            std::vector<std::pair<uint32_t, bool>> started;
            for (uint32_t r = 0; r < 4; ++r)
            {
                NS_TEST_EXPECT_MSG_EQ(apps.Get(r)->GetNode(),
                                      b.topo->GetHost(kFourRanks[r]),
                                      "rank " << r << " on its host");
                apps.Get(r)->SetStartTime(MicroSeconds(startUs[r]));
                apps.Get(r)->TraceConnectWithoutContext(
                    "RankStarted",
                    MakeCallback(&MrcWorkloadApplicationTestCase::OnStarted, this).Bind(&started));
            }
            Simulator::Stop(MilliSeconds(10));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(ring->IsDone(), true, "the ring ran");
            NS_TEST_EXPECT_MSG_EQ(ring->GetStartTime(), MicroSeconds(30), "the last rank's start");
            for (uint32_t r = 0; r < 4; ++r)
            {
                NS_TEST_EXPECT_MSG_EQ(ring->GetReceivedBytes(r), 600000u, "2 (n-1)/n S");
            }
            const std::vector<std::pair<uint32_t, bool>> expected{{0, false},
                                                                  {2, false},
                                                                  {3, false},
                                                                  {1, true}};
            NS_TEST_EXPECT_MSG_EQ((started == expected), true, "RankStarted in start order");
        }
        {
            Bench b(SmallFabric(), true);
            Ptr<MrcCollective> ring = Make(b, "ns3::MrcRingAllReduce", kFourRanks, 400000);
            ApplicationContainer apps = helper.Install(ring, b.topo);
            apps.Start(MicroSeconds(10));
            apps.Get(3)->SetStartTime(MicroSeconds(5));
            apps.Get(3)->SetStopTime(MicroSeconds(8)); // gone before the others arrive
            Simulator::Stop(MilliSeconds(1));
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(ring->IsRunning() || ring->IsDone(), false, "rank 3 missing");
            NS_TEST_EXPECT_MSG_EQ(ring->GetReceivedBytes(0), 0u, "nothing moved");
        }
        {
            Bench b(SmallFabric(), true);
            Ptr<MrcCollective> ring = Make(b, "ns3::MrcRingAllReduce", kFourRanks, 400000);
            Ptr<MrcCollective> gather = Make(b, "ns3::MrcAllGather", {0, 2, 6}, 300000);
            Ptr<MrcTrainingJob> job = CreateObject<MrcTrainingJob>();
            job->SetAttribute("Iterations", UintegerValue(2));
            job->AddCollective(ring);
            job->AddCollective(gather);
            ApplicationContainer apps = helper.Install(job, b.topo);
            NS_TEST_ASSERT_MSG_EQ(apps.GetN(), 6u, "hosts 0, 1, 2, 4, 5, 6");
            apps.Start(Time(0));
            apps.Get(5)->SetStartTime(MicroSeconds(40)); // host 6
            Simulator::Stop(MilliSeconds(10));
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(apps.Get(5)->GetNode(), b.topo->GetHost(6), "host order");
            NS_TEST_ASSERT_MSG_EQ(job->IsDone(), true, "the job ran");
            NS_TEST_EXPECT_MSG_EQ(job->GetSteps().size(), 2u, "steps");
            NS_TEST_EXPECT_MSG_EQ(job->GetSteps()[0].start, MicroSeconds(40), "first step");
        }
        bool refused = false;
        try
        {
            Bench b(SmallFabric(), true);
            helper.Install(CreateObject<MrcTrainingJob>(), b.topo);
        }
        catch (const std::invalid_argument& e)
        {
            refused = std::string(e.what()).find("no ranks") != std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "a job without collectives");
    }

    /**
     * \param log (rank, begun) per RankStarted
     * \param rank the rank
     * \param begun the workload began
     */
    void OnStarted(std::vector<std::pair<uint32_t, bool>>* log, uint32_t rank, bool begun)
    {
        log->emplace_back(rank, begun);
    }
};

/**
 * \ingroup mrc-tests
 * The workload test suite.
 */
class MrcWorkloadTestSuite : public TestSuite
{
  public:
    MrcWorkloadTestSuite()
        : TestSuite("mrc-workload", Type::UNIT)
    {
        AddTestCase(new MrcWorkloadRingTestCase(MrcDataPlane::SRV6, false, 1.4));
        AddTestCase(new MrcWorkloadRingTestCase(MrcDataPlane::ECMP, false, 1.5));
        AddTestCase(new MrcWorkloadRingTestCase(MrcDataPlane::ECMP, true, 4.0));
        AddTestCase(new MrcWorkloadSlicedRingTestCase);
        AddTestCase(new MrcWorkloadAllToAllTestCase(0));
        AddTestCase(new MrcWorkloadAllToAllTestCase(2));
        AddTestCase(new MrcWorkloadIncastTestCase);
        AddTestCase(new MrcWorkloadNearIncastTestCase);
        AddTestCase(new MrcWorkloadTrainingJobTestCase);
        AddTestCase(new MrcWorkloadFailureTestCase);
        AddTestCase(new MrcWorkloadInputTestCase);
        AddTestCase(new MrcWorkloadApplicationTestCase);
    }
};

/// Static instance.
static MrcWorkloadTestSuite g_mrcWorkloadTestSuite;
