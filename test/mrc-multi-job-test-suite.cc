/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Several jobs in one scenario (MrcClusterScenario::AddCollective with a job name, SetJob):
 * each job runs its own steps on its own clock and reports its own P100, the jobs share the
 * fabric (a tenant's incast into one of the main job's hosts slows the main job's steps), and
 * the results carry the job of every step.
 */

#include "mrc-test-bench.h"

#include "ns3/mrc-module.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <fstream>
#include <sstream>

using namespace ns3;

namespace
{

/**
 * \param fabric Fabric attribute
 * \param tenant add the tenant's incast job
 * \return a 16-host scenario whose main job is a ring all-reduce over hosts 1, 5, 9, 13
 */
Ptr<MrcClusterScenario>
TwoJobs(const std::string& fabric, bool tenant)
{
    Ptr<MrcClusterScenario> s = CreateObject<MrcClusterScenario>();
    for (const auto& [name, value] :
         std::vector<std::pair<std::string, std::string>>{{"Fabric", fabric},
                                                          {"Planes", "2"},
                                                          {"T0Count", "4"},
                                                          {"HostsPerT0", "4"},
                                                          {"T1Count", "4"},
                                                          {"Iterations", "3"},
                                                          {"ComputeTime", "10us"},
                                                          {"VerifyData", "true"},
                                                          {"ShowProgress", "false"}})
    {
        s->SetAttribute(name, StringValue(value));
    }
    s->AddCollective("ns3::MrcRingAllReduce", {1, 5, 9, 13}, {{"MessageSize", "2000000"}});
    if (tenant)
    {
        // Host 4 receives 1 MB from each of six hosts under other T0s: its T0's downlinks, and
        // host 5's (the main job's rank 1, under the same T0), carry the burst.
        s->AddCollective("ns3::MrcIncast",
                         {4, 0, 2, 8, 10, 12, 14},
                         {{"MessageSize", "1000000"}},
                         "tenant");
        s->SetJob("tenant", 4, MicroSeconds(5), MicroSeconds(30));
    }
    return s;
}

} // namespace

/**
 * \ingroup mrc-test
 * Two jobs: per-job steps, start times, results, and the main job slowed by the tenant.
 */
class MrcMultiJobTestCase : public TestCase
{
  public:
    MrcMultiJobTestCase()
        : TestCase("two jobs share the fabric, each with its own steps and P100")
    {
    }

  private:
    void DoRun() override
    {
        const MrcScenarioResult alone = TwoJobs("mrc-srv6", false)->Run();
        Ptr<MrcClusterScenario> both = TwoJobs("mrc-srv6", true);
        const std::string dir = CreateTempDirFilename("mrc-multi-job");
        both->SetAttribute("OutputDirectory", StringValue(dir));
        const MrcScenarioResult r = both->Run();
        NS_TEST_ASSERT_MSG_EQ(r.jobs.size(), 2u, "main and tenant");
        NS_TEST_EXPECT_MSG_EQ(r.jobs[0].name, "main", "main first");
        NS_TEST_EXPECT_MSG_EQ(r.jobs[1].name, "tenant", "then the tenant");
        NS_TEST_EXPECT_MSG_EQ(r.jobs[1].iterations, 4u, "SetJob's iterations");
        NS_TEST_EXPECT_MSG_EQ((r.jobDone && r.jobs[0].done && r.jobs[1].done), true, "all ended");
        NS_TEST_EXPECT_MSG_EQ(r.bytesDelivered, r.bytesPosted, "every byte of both jobs");
        NS_TEST_EXPECT_MSG_EQ(r.corruptTransfers, 0u, "byte for byte");
        NS_TEST_EXPECT_MSG_EQ(r.GetJobStepStats("main").GetCount(), 3u, "main steps");
        NS_TEST_EXPECT_MSG_EQ(r.GetJobStepStats("tenant").GetCount(), 4u, "tenant steps");
        NS_TEST_EXPECT_MSG_EQ(r.GetStepStats().GetCount(), 3u, "GetStepStats: the main job");
        for (const auto& s : r.steps)
        {
            if (s.job == "tenant" && s.index == 0)
            {
                NS_TEST_EXPECT_MSG_EQ(s.start, MicroSeconds(30), "the tenant's own start");
            }
        }
        // The tenant's incast shares host 5's T0 downlinks: the main job's P100 grows.
        const Time mainAlone = alone.GetStepStats().GetMax();
        const Time mainShared = r.GetStepStats().GetMax();
        NS_TEST_EXPECT_MSG_GT(mainShared, mainAlone, "the main job suffers the tenant's incast");
        // Results: steps.csv has the job of every row; summary.json the jobs.
        std::ifstream steps(dir + "/steps.csv");
        std::string header;
        std::getline(steps, header);
        NS_TEST_EXPECT_MSG_EQ(header.substr(header.rfind(',') + 1), "job", "job column");
        uint32_t tenantRows = 0;
        for (std::string line; std::getline(steps, line);)
        {
            tenantRows += line.substr(line.rfind(',') + 1) == "tenant" ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(tenantRows, 4u, "the tenant's steps in steps.csv");
        std::ifstream summary(dir + "/summary.json");
        std::stringstream text;
        text << summary.rdbuf();
        NS_TEST_EXPECT_MSG_NE(text.str().find("\"tenant\""), std::string::npos, "per-job summary");
    }
};

/**
 * \ingroup mrc-test
 * Malformed jobs are refused by name.
 */
class MrcMultiJobErrorsTestCase : public TestCase
{
  public:
    MrcMultiJobErrorsTestCase()
        : TestCase("a malformed job name, the main job in SetJob, a job without collectives")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<MrcClusterScenario> s = CreateObject<MrcClusterScenario>();
        const std::string name = mrctest::InvalidArgumentOf([s]() {
            s->AddCollective("ns3::MrcIncast", {0, 1}, {}, "bad name");
        });
        NS_TEST_EXPECT_MSG_NE(name.find("job name (=\"bad name\")"), std::string::npos, name);
        const std::string main = mrctest::InvalidArgumentOf([s]() {
            s->SetJob("main", 2, Time(0), Time(0));
        });
        NS_TEST_EXPECT_MSG_NE(main.find("main job"), std::string::npos, main);
        const std::string zero = mrctest::InvalidArgumentOf([s]() {
            s->SetJob("b", 0, Time(0), Time(0));
        });
        NS_TEST_EXPECT_MSG_NE(zero.find("iterations (=0)"), std::string::npos, zero);
        s->SetJob("b", 2, Time(0), Time(0)); // a job with no collectives: refused by Run
        s->SetAttribute("ShowProgress", StringValue("false"));
        s->SetAttribute("Planes", StringValue("1"));
        s->SetAttribute("T0Count", StringValue("2"));
        s->SetAttribute("HostsPerT0", StringValue("2"));
        s->SetAttribute("T1Count", StringValue("2"));
        s->SetAttribute("AllToAllGroup", StringValue("2"));
        const std::string empty = mrctest::InvalidArgumentOf([s]() {
            s->Run();
        });
        NS_TEST_EXPECT_MSG_NE(empty.find("job b has no collectives"), std::string::npos, empty);
    }
};

/**
 * \ingroup mrc-test
 * Several jobs in one scenario.
 */
class MrcMultiJobTestSuite : public TestSuite
{
  public:
    MrcMultiJobTestSuite()
        : TestSuite("mrc-multi-job", Type::SYSTEM)
    {
        AddTestCase(new MrcMultiJobTestCase);
        AddTestCase(new MrcMultiJobErrorsTestCase);
    }
};

/// The suite's single instance.
static MrcMultiJobTestSuite g_mrcMultiJobTestSuite;
