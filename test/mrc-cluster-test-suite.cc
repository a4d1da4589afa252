/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The flagship scenario (MrcClusterScenario) at test size: 16 hosts on a two-plane, two-tier
 * Clos, a training job of ring all-reduce and all-to-all steps. On a healthy fabric MRC's steps
 * stay within a stated margin of the line-rate ideal and every byte arrives exactly once; under
 * a T0-T1 link failure MRC's longest stall stays near its loss timer while RoCEv2-style queue
 * pairs over ECMP stall for the whole outage the BGP model predicts (carrier detection takes
 * longer than the outage, so routing never moves the flows); the results directory is
 * byte-identical for the same seed; bad attributes are rejected by name.
 */

#include "ns3/config.h"
#include "ns3/mrc-module.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <fstream>
#include <sstream>

using namespace ns3;

namespace
{

/**
 * \param fabric Fabric attribute
 * \param qps QpsPerPeer
 * \param iterations steps
 * \return a 16-host scenario (2 planes, 4 T0 x 4 hosts, 4 T1), data verified, no progress
 */
Ptr<MrcClusterScenario>
Small(const std::string& fabric, uint32_t qps, uint32_t iterations)
{
    Ptr<MrcClusterScenario> s = CreateObject<MrcClusterScenario>();
    s->SetAttribute("Fabric", StringValue(fabric));
    s->SetAttribute("QpsPerPeer", UintegerValue(qps));
    s->SetAttribute("Planes", UintegerValue(2));
    s->SetAttribute("T0Count", UintegerValue(4));
    s->SetAttribute("HostsPerT0", UintegerValue(4));
    s->SetAttribute("T1Count", UintegerValue(4));
    s->SetAttribute("AllReduceSize", UintegerValue(1000000));
    s->SetAttribute("AllToAllSize", UintegerValue(128000));
    s->SetAttribute("AllToAllGroup", UintegerValue(4));
    s->SetAttribute("ComputeTime", TimeValue(MicroSeconds(20)));
    s->SetAttribute("Iterations", UintegerValue(iterations));
    s->SetAttribute("VerifyData", BooleanValue(true));
    s->SetAttribute("ShowProgress", BooleanValue(false));
    return s;
}

/**
 * \param at when
 * \param duration how long
 * \return p0-t0-0 - p0-t1-0 loses carrier
 */
FailureSpec
LinkDown(Time at, Time duration)
{
    FailureSpec f;
    f.kind = FailureKind::LINK_DOWN;
    f.at = at;
    f.nodeA = "p0-t0-0";
    f.nodeB = "p0-t1-0";
    f.duration = duration;
    f.origin = "test";
    return f;
}

/**
 * \param path a file
 * \return its contents
 */
std::string
Slurp(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

} // namespace

/**
 * \ingroup mrc-test
 * Healthy fabric: MRC within 1.9x of the ideal (measured 1.68x: the ring waits for each
 * chunk's acknowledgement, one round trip per ring step, which the line-rate ideal leaves
 * out), every byte exactly once, for MRC and the RoCEv2 baseline.
 */
class MrcClusterHealthyTestCase : public TestCase
{
  public:
    MrcClusterHealthyTestCase()
        : TestCase("healthy cluster: MRC steps within 1.9x of the ideal, all bytes exactly once")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string fabric : {"mrc-srv6", "roce-ecmp"})
        {
            const MrcScenarioResult r = Small(fabric, 1, 3)->Run();
            NS_TEST_ASSERT_MSG_EQ(r.jobDone, true, fabric + ": every step completed");
            NS_TEST_ASSERT_MSG_EQ(r.jobFailed, false, fabric + ": no QP failed");
            NS_TEST_ASSERT_MSG_EQ(r.steps.size(), 3u, fabric + ": three steps");
            NS_TEST_ASSERT_MSG_EQ(r.corruptTransfers, 0u, fabric + ": byte for byte");
            NS_TEST_ASSERT_MSG_EQ(r.bytesDelivered, r.bytesPosted, fabric + ": exactly once");
            // 16 ranks: ring 2 x 15 chunks of 62.5 kB per rank, all-to-all 3 x 128 kB / 4 per rank.
            NS_TEST_ASSERT_MSG_EQ(r.bytesPosted,
                                  3u * 16u * (30u * 62500u + 3u * 32000u),
                                  fabric + ": the job's bytes");
            NS_TEST_ASSERT_MSG_EQ(r.retransmissions, 0u, fabric + ": nothing lost");
            NS_TEST_ASSERT_MSG_EQ(r.failureStart.IsStrictlyNegative(), true, "no failure");
            for (const auto& s : r.steps)
            {
                NS_TEST_ASSERT_MSG_EQ((s.phase == ScenarioPhase::BEFORE), true, "no failure");
                NS_TEST_ASSERT_MSG_GT(s.GetDuration(), s.ideal, "the ideal is a lower bound");
                if (fabric == "mrc-srv6")
                {
                    NS_TEST_ASSERT_MSG_LT(s.GetDuration().GetSeconds(),
                                          1.9 * s.ideal.GetSeconds(),
                                          "MRC within 1.9x of the ideal");
                }
            }
        }
    }
};

/**
 * \ingroup mrc-test
 * A T0-T1 link loses carrier for 1200 us during the job. MRC: the dead path's EVs are retired
 * by the loss timer, no stall much longer than it, the step under failure bounded; RoCEv2 over
 * ECMP: BGP's carrier detection (2 ms) outlasts the outage, so the flows hashed onto the link
 * wait the whole 1200 us and the step under failure is longer than MRC's. Both deliver every
 * byte exactly once.
 */
class MrcClusterFailureTestCase : public TestCase
{
  public:
    MrcClusterFailureTestCase()
        : TestCase("link failure: MRC step bounded, RoCEv2/ECMP+BGP stalls for the outage")
    {
    }

  private:
    void DoRun() override
    {
        const Time outage = MicroSeconds(1200);
        MrcScenarioResult runs[2];
        const char* fabrics[2] = {"mrc-srv6", "roce-ecmp"};
        for (int i = 0; i < 2; ++i)
        {
            Ptr<MrcClusterScenario> s = Small(fabrics[i], 1, 5);
            s->AddFailure(LinkDown(MicroSeconds(400), outage));
            runs[i] = s->Run();
            const MrcScenarioResult& r = runs[i];
            NS_TEST_ASSERT_MSG_EQ(r.jobDone, true, r.name + ": every step completed");
            NS_TEST_ASSERT_MSG_EQ(r.failedFlows, 0u, r.name + ": no QP failed");
            NS_TEST_ASSERT_MSG_EQ(r.corruptTransfers, 0u, r.name + ": byte for byte");
            NS_TEST_ASSERT_MSG_EQ(r.bytesDelivered, r.bytesPosted, r.name + ": exactly once");
            NS_TEST_ASSERT_MSG_GT(r.faultDrops, 0u, r.name + ": the failure cost packets");
            NS_TEST_ASSERT_MSG_EQ(r.failureStart, MicroSeconds(400), "failure window start");
            NS_TEST_ASSERT_MSG_EQ(r.failureEnd, MicroSeconds(1600), "failure window end");
            NS_TEST_ASSERT_MSG_GT(r.GetStepStats(ScenarioPhase::DURING).GetCount(),
                                  0u,
                                  r.name + ": steps under failure");
        }
        const MrcScenarioResult& mrc = runs[0];
        const MrcScenarioResult& roce = runs[1];
        NS_TEST_ASSERT_MSG_GT(mrc.evRetirements, 0u, "MRC retired the dead path's EVs");
        NS_TEST_ASSERT_MSG_LT(mrc.longestStall, MicroSeconds(200), "MRC: about a loss timer");
        NS_TEST_ASSERT_MSG_EQ(roce.routingConverged.IsStrictlyPositive(),
                              false,
                              "BGP did not reroute: detection (2 ms) outlasts the outage");
        NS_TEST_ASSERT_MSG_GT(roce.longestStall,
                              outage - MicroSeconds(100),
                              "RoCEv2/ECMP: a flow waits for the repair");
        NS_TEST_ASSERT_MSG_GT(roce.GetStepStats(ScenarioPhase::DURING).GetMax(),
                              mrc.GetStepStats(ScenarioPhase::DURING).GetMax(),
                              "the step under failure is longer over ECMP+BGP");
        // MRC's step under failure stays within 3x of its healthy step.
        const Time healthy = mrc.GetStepStats(ScenarioPhase::AFTER).GetMedian();
        NS_TEST_ASSERT_MSG_LT(mrc.GetStepStats(ScenarioPhase::DURING).GetMax(),
                              healthy * 3,
                              "MRC's step under failure is bounded");
    }
};

/**
 * \ingroup mrc-test
 * The results directory: the documented files, the same bytes for the same seed, and an
 * attribute out of range rejected with its name.
 */
class MrcClusterOutputTestCase : public TestCase
{
  public:
    MrcClusterOutputTestCase()
        : TestCase("results directory: byte-identical for one seed; bad attributes named; a "
                   "custom job")
    {
    }

  private:
    void DoRun() override
    {
        const std::string base = CreateTempDirFilename("mrc-cluster-");
        std::string contents[2];
        for (int i = 0; i < 2; ++i)
        {
            Ptr<MrcClusterScenario> s = Small("mrc-srv6", 1, 2);
            s->AddFailure(LinkDown(MicroSeconds(100), MicroSeconds(200)));
            const std::string dir = base + std::to_string(i);
            s->SetAttribute("OutputDirectory", StringValue(dir));
            s->Run();
            for (const char* f :
                 {"steps.csv", "flows.csv", "goodput.csv", "failures.csv", "summary.json"})
            {
                const std::string text = Slurp(dir + "/" + f);
                NS_TEST_ASSERT_MSG_GT(text.size(), 10u, std::string(f) + " written");
                contents[i] += text;
            }
        }
        NS_TEST_ASSERT_MSG_EQ((contents[0] == contents[1]), true, "same seed, same bytes");

        Ptr<MrcClusterScenario> bad = CreateObject<MrcClusterScenario>();
        bool named = false;
        try
        {
            bad->SetAttribute("Fabric", StringValue("infiniband"));
        }
        catch (const std::invalid_argument& e)
        {
            named = std::string(e.what()).find("Fabric (=infiniband)") != std::string::npos;
        }
        NS_TEST_ASSERT_MSG_EQ(named, true, "an unknown fabric is named");
        bad->SetAttribute("AllToAllGroup", UintegerValue(7));
        named = false;
        try
        {
            bad->Run();
        }
        catch (const std::invalid_argument& e)
        {
            named = std::string(e.what()).find("AllToAllGroup (=7)") != std::string::npos;
        }
        NS_TEST_ASSERT_MSG_EQ(named, true, "a group that does not divide the hosts is named");

        // A custom job: an incast of 4 senders into host 0 plus a victim pair replaces the
        // default job.
        Ptr<MrcClusterScenario> custom = Small("mrc-srv6", 1, 1);
        custom->AddCollective("ns3::MrcIncast",
                              {0, 4, 8, 12, 1, 5, 9},
                              {{"MessageSize", "200000"}, {"VictimSize", "400000"}});
        const MrcScenarioResult r = custom->Run();
        NS_TEST_ASSERT_MSG_EQ(r.jobDone, true, "the custom job ran");
        NS_TEST_ASSERT_MSG_EQ(r.bytesPosted, 4u * 200000u + 400000u, "incast + victim bytes");
        NS_TEST_ASSERT_MSG_EQ(r.bytesDelivered, r.bytesPosted, "delivered once");
        NS_TEST_ASSERT_MSG_EQ(r.corruptTransfers, 0u, "byte for byte");
        named = false;
        try
        {
            Small("mrc-srv6", 1, 1)->AddCollective("ns3::MrcIncast", {}, {{"Size", "5"}});
        }
        catch (const std::invalid_argument& e)
        {
            named = std::string(e.what()).find("no attribute Size") != std::string::npos;
        }
        NS_TEST_ASSERT_MSG_EQ(named, true, "an unknown collective attribute is named");
    }
};

/**
 * \ingroup mrc-test
 * The flagship scenario's test suite.
 */
class MrcClusterTestSuite : public TestSuite
{
  public:
    MrcClusterTestSuite()
        : TestSuite("mrc-cluster", Type::SYSTEM)
    {
        AddTestCase(new MrcClusterHealthyTestCase);
        AddTestCase(new MrcClusterFailureTestCase);
        AddTestCase(new MrcClusterOutputTestCase);
    }
};

/// The suite's single instance.
static MrcClusterTestSuite g_mrcClusterTestSuite;
