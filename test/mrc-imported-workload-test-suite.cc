/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * An imported training workload (SimAI / AICB format, MrcWorkloadFile) run by the flagship
 * scenario on a 16-host fabric: every communication the file asks for happens, once per group,
 * in SimAI's order (forward layers blocking, backward input gradients blocking, weight
 * gradients overlapping the layers before them and queued per communicator, each held by the
 * layer's update time), scale-up groups take their analytic time exactly, and every byte that
 * crosses the fabric arrives exactly once.
 */

#include "ns3/mrc-module.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <fstream>
#include <map>

using namespace ns3;

#if defined(MRC_SOURCE_DIR) || defined(NS_TEST_SOURCEDIR)

namespace
{

/// \return the shipped sample workload (standalone: absolute; in a source tree: from its root)
std::string
SampleWorkload()
{
#    ifdef MRC_SOURCE_DIR
    return MRC_SOURCE_DIR "/examples/workload-moe-sample.txt";
#    else
    return NS_TEST_SOURCEDIR "/../examples/workload-moe-sample.txt";
#    endif
}

/**
 * \param attributes MrcClusterScenario attributes, as text, set in order
 * \return a scenario with them
 */
Ptr<MrcClusterScenario>
Scenario(const std::vector<std::pair<std::string, std::string>>& attributes)
{
    Ptr<MrcClusterScenario> s = CreateObject<MrcClusterScenario>();
    for (const auto& [name, value] : attributes)
    {
        s->SetAttribute(name, StringValue(value));
    }
    return s;
}

/**
 * \param step a step's records
 * \param prefix a label prefix (e.g. "L5:attention_column/fwd ")
 * \return the records whose label starts with it
 */
std::vector<MrcTrainingJob::CommRecord>
Find(const MrcScenarioResult::Step& step, const std::string& prefix)
{
    std::vector<MrcTrainingJob::CommRecord> out;
    for (const auto& c : step.comms)
    {
        if (c.label.rfind(prefix, 0) == 0)
        {
            out.push_back(c);
        }
    }
    return out;
}

} // namespace

/**
 * \ingroup mrc-test
 * The sample workload (TP 2, EP 2, 16 ranks, GpusPerServer 2) on MRC with verified data.
 */
class MrcImportedWorkloadTestCase : public TestCase
{
  public:
    MrcImportedWorkloadTestCase()
        : TestCase("an imported workload runs every comm in SimAI's order, exactly once")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<MrcClusterScenario> s = Scenario({{"Planes", "2"},
                                              {"T0Count", "4"},
                                              {"HostsPerT0", "4"},
                                              {"T1Count", "4"},
                                              {"Iterations", "1"},
                                              {"VerifyData", "true"},
                                              {"ShowProgress", "false"},
                                              {"GpusPerServer", "2"},
                                              {"WorkloadFile", SampleWorkload()}});
        const MrcScenarioResult r = s->Run();
        NS_TEST_ASSERT_MSG_EQ((r.jobDone && !r.jobFailed), true, "the step ended");
        NS_TEST_ASSERT_MSG_EQ(r.steps.size(), 1u, "one step");
        NS_TEST_EXPECT_MSG_EQ(r.bytesDelivered, r.bytesPosted, "every byte arrived");
        NS_TEST_EXPECT_MSG_EQ(r.corruptTransfers, 0u, "byte for byte");
        const auto& step = r.steps[0];
        // Per step: forward 8 TP comms x 8 groups + 2 EP all-to-alls x 8 groups; input
        // gradient 4 TP x 8 + 2 EP x 8; weight gradient 2 x 2 DP groups + 2 x 4 DP_EP groups.
        NS_TEST_ASSERT_MSG_EQ(step.comms.size(), 140u, "every comm once per group");
        std::map<std::string, uint32_t> kinds;
        for (const auto& c : step.comms)
        {
            kinds[c.kind]++;
            NS_TEST_EXPECT_MSG_EQ((c.end >= c.start && c.start >= c.issued), true, c.label);
        }
        NS_TEST_EXPECT_MSG_EQ(kinds["analytic"], 96u, "TP groups sit in one server: scale-up");
        NS_TEST_EXPECT_MSG_EQ(kinds["all-to-all"], 32u, "EP groups span servers: the fabric");
        NS_TEST_EXPECT_MSG_EQ(kinds["all-gather"] + kinds["reduce-scatter"], 12u, "DP, DP_EP");

        // Scale-up: a 262144-byte all-reduce of 2 ranks at 3600 Gb/s, 2 (n - 1) / n S.
        const auto emb = Find(step, "L4:embedding_layer/fwd ");
        NS_TEST_ASSERT_MSG_EQ(emb.size(), 8u, "one per TP group");
        NS_TEST_EXPECT_MSG_EQ(emb[0].end - emb[0].start, NanoSeconds(583), "bus bytes at rate");
        // Blocking forward: the next layer computes (30 us) after the comm and its update
        // time (100 ns).
        const auto col = Find(step, "L5:attention_column/fwd ");
        NS_TEST_ASSERT_MSG_EQ(col.size(), 8u, "one per TP group");
        NS_TEST_EXPECT_MSG_EQ(col[0].issued,
                              emb[0].end + NanoSeconds(100) + MicroSeconds(30),
                              "forward waits for the previous layer's comm");
        // The EP all-to-all runs over the fabric with the file's size.
        const auto moe = Find(step, "L7:mlp_moelayer/fwd ep0");
        NS_TEST_ASSERT_MSG_EQ(moe.size(), 1u, "EP group 0");
        NS_TEST_EXPECT_MSG_EQ(moe[0].bytes, 524288u, "size as written");
        NS_TEST_EXPECT_MSG_EQ(moe[0].ranks, 2u, "EP 2");
        // Weight gradients: issued in reverse layer order without waiting; one DP group's
        // comms run one after another, each held 100 ns.
        const auto rs = Find(step, "L1:grad_param_comm/wg dp0");
        const auto ag = Find(step, "L0:grad_gather/wg dp0");
        NS_TEST_ASSERT_MSG_EQ(rs.size() + ag.size(), 2u, "both DP comms of group 0");
        NS_TEST_EXPECT_MSG_EQ(rs[0].bytes, 4194304u, "reduce-scatter size");
        NS_TEST_EXPECT_MSG_EQ(rs[0].ranks, 8u, "DP 8");
        NS_TEST_EXPECT_MSG_EQ((ag[0].issued < rs[0].end), true, "issued while the other ran");
        NS_TEST_EXPECT_MSG_EQ(ag[0].start, rs[0].end + NanoSeconds(100), "queued on dp0");
        // Which DP group finishes last depends on the fabric's details (it differs between
        // ns-3.37 and ns-3-dev): the step ends 100 ns after the latest comm, whichever it is.
        Time last(0);
        for (const auto& c : step.comms)
        {
            last = std::max(last, c.end);
        }
        NS_TEST_EXPECT_MSG_EQ(step.end, last + NanoSeconds(100), "the last comm ends it");
        // Against the same program at line rate: no faster, and (healthy fabric) not far off.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(step.GetDuration(), step.ideal, "at most line rate");
        NS_TEST_EXPECT_MSG_LT(step.GetDuration().GetSeconds(),
                              1.3 * step.ideal.GetSeconds(),
                              "MRC near the ideal on a healthy fabric");
    }
};

/**
 * \ingroup mrc-test
 * A DATA file in SimAI's order: per layer in reverse, weight-gradient compute, its comm issued
 * without waiting, then the input-gradient compute.
 */
class MrcImportedDataWorkloadTestCase : public TestCase
{
  public:
    MrcImportedDataWorkloadTestCase()
        : TestCase("a DATA workload: weight-gradient comms overlap the input-gradient compute")
    {
    }

  private:
    void DoRun() override
    {
        const std::string path = CreateTempDirFilename("data-workload.txt");
        {
            std::ofstream f(path);
            f << "DATA all_gpus: 8\n2\n"
                 "a -1 10000 NONE 0 20000 NONE 0 30000 ALLREDUCE 400000 0\n"
                 "b -1 10000 NONE 0 40000 NONE 0 50000 ALLREDUCE 800000 0\n";
        }
        Ptr<MrcClusterScenario> s = Scenario({{"Planes", "2"},
                                              {"T0Count", "4"},
                                              {"HostsPerT0", "2"},
                                              {"T1Count", "2"},
                                              {"Iterations", "1"},
                                              {"ShowProgress", "false"},
                                              {"WorkloadFile", path}});
        const MrcScenarioResult r = s->Run();
        NS_TEST_ASSERT_MSG_EQ(r.jobDone, true, "the step ended");
        const auto& step = r.steps.at(0);
        NS_TEST_ASSERT_MSG_EQ(step.comms.size(), 2u, "one DP all-reduce per layer (TP 1)");
        // Forward 10 + 10 us; layer b: weight gradient 50 us, comm issued at 70 us; its input
        // gradient 40 us; layer a: weight gradient 30 us, comm issued at 140 us.
        NS_TEST_EXPECT_MSG_EQ(step.comms[0].label, "L1:b/wg dp0", "the last layer first");
        NS_TEST_EXPECT_MSG_EQ(step.comms[0].issued, MicroSeconds(70), "after its wg compute");
        NS_TEST_EXPECT_MSG_EQ(step.comms[0].ranks, 8u, "DP is every rank");
        NS_TEST_EXPECT_MSG_EQ(step.comms[1].issued, MicroSeconds(140), "not waiting for b's comm");
    }
};

/**
 * \ingroup mrc-test
 * Pipeline parallelism: 8 ranks, TP 2, pp 2 (stages of ranks 0-3 and 4-7), ga 2 micro-batches
 * of two layers. Stage 1 computes a micro-batch only once stage 0's activations arrived, stage
 * 0 its backward only once stage 1's gradients arrived, in the order of the schedule; groups
 * stay inside a stage; every byte arrives.
 */
class MrcPipelineWorkloadTestCase : public TestCase
{
  public:
    MrcPipelineWorkloadTestCase()
        : TestCase("pipeline stages exchange activations and gradients per micro-batch")
    {
    }

  private:
    /**
     * \param schedule PipelineSchedule
     * \param gpusPerServer GpusPerServer
     * \return the run's result
     */
    MrcScenarioResult Run(const std::string& schedule, const std::string& gpusPerServer = "1")
    {
        const std::string path = CreateTempDirFilename("pp-workload.txt");
        {
            std::ofstream f(path);
            f << "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 1 pp: 2 "
                 "vpp: 2 ga: 2 all_gpus: 8 checkpoints: 0 checkpoint_initiates: 0 "
                 "pp_comm: 65536\n6\n"
                 "grad_norm -1 1000 NONE 0 1000 NONE 0 1000 REDUCESCATTER 262144 0\n"
                 "embedding_layer -1 10000 NONE 0 10000 NONE 0 1000 NONE 0 0\n"
                 "attention -1 20000 ALLREDUCE 131072 20000 ALLREDUCE 131072 1000 NONE 0 0\n"
                 "embedding_layer -1 10000 NONE 0 10000 NONE 0 1000 NONE 0 0\n"
                 "attention -1 20000 ALLREDUCE 131072 20000 ALLREDUCE 131072 1000 NONE 0 0\n"
                 "optimizer -1 0 ALLREDUCE 4 0 NONE 0 0 NONE 0 0\n";
        }
        Ptr<MrcClusterScenario> s = Scenario({{"Planes", "2"},
                                              {"T0Count", "4"},
                                              {"HostsPerT0", "2"},
                                              {"T1Count", "2"},
                                              {"Iterations", "1"},
                                              {"VerifyData", "true"},
                                              {"ShowProgress", "false"},
                                              {"PipelineSchedule", schedule},
                                              {"GpusPerServer", gpusPerServer},
                                              {"WorkloadFile", path}});
        return s->Run();
    }

    void DoRun() override
    {
        const MrcScenarioResult r = Run("1f1b");
        NS_TEST_ASSERT_MSG_EQ((r.jobDone && !r.jobFailed), true, "the step ended");
        NS_TEST_EXPECT_MSG_EQ(r.bytesDelivered, r.bytesPosted, "every byte arrived");
        NS_TEST_EXPECT_MSG_EQ(r.corruptTransfers, 0u, "byte for byte");
        const auto& step = r.steps.at(0);
        // Per stage: attention forward and input gradient, 2 micro-batches x 2 TP groups each;
        // optimizer 2 TP groups; grad_norm's reduce-scatter 2 DP groups: 12. Sends: stage 0's
        // activations and stage 1's gradients per micro-batch: 4.
        NS_TEST_ASSERT_MSG_EQ(step.comms.size(), 28u, "every comm once per group and stage");
        std::map<std::string, uint32_t> kinds;
        for (const auto& c : step.comms)
        {
            kinds[c.kind]++;
        }
        NS_TEST_EXPECT_MSG_EQ(kinds["send-recv"], 4u, "2 micro-batches, both directions");
        const auto act = Find(step, "s0/mb0/act pp0");
        const auto grad = Find(step, "s1/mb0/grad pp0");
        NS_TEST_ASSERT_MSG_EQ(act.size() + grad.size(), 2u, "one send each way");
        NS_TEST_EXPECT_MSG_EQ(act[0].bytes, 65536u, "pp_comm per rank");
        NS_TEST_EXPECT_MSG_EQ(act[0].ranks, 8u, "4 senders, 4 receivers");
        // Stage 1's first comm of micro-batch 0 (layer 2's TP all-reduce) is issued 10 + 20 us
        // of compute after the activations arrived.
        const auto s1fwd = Find(step, "s1/L2:attention/fwd tp2");
        NS_TEST_ASSERT_MSG_EQ(s1fwd.size(), 1u, "stage 1's first TP group is tp2");
        NS_TEST_EXPECT_MSG_EQ(s1fwd[0].issued, act[0].end + MicroSeconds(30), "waits for act");
        NS_TEST_EXPECT_MSG_EQ(Find(step, "s0/L2:attention/fwd tp2").size(), 0u, "no tp2 at s0");
        NS_TEST_EXPECT_MSG_EQ(Find(step, "s1/L0:grad_norm/wg dp2")[0].ranks,
                              2u,
                              "DP = 8 / (2 x 2), inside a stage");
        // Stage 0's backward of micro-batch 0 starts (20 us input-gradient compute) when the
        // gradients arrived.
        const auto s0ig = Find(step, "s0/L2:attention/ig tp0");
        NS_TEST_ASSERT_MSG_EQ(s0ig.size(), 1u, "one");
        NS_TEST_EXPECT_MSG_EQ(s0ig[0].issued, grad[0].end + MicroSeconds(20), "waits for grad");
        // 1F1B at the last stage: backward of micro-batch 0 before forward of micro-batch 1.
        NS_TEST_EXPECT_MSG_LT(Find(step, "s1/L2:attention/ig")[0].issued,
                              Find(step, "s1/L4:attention/fwd")[0].issued,
                              "1F1B: B0 before F1");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(step.GetDuration(), step.ideal, "at most line rate");
        NS_TEST_EXPECT_MSG_LT(step.GetDuration().GetSeconds(),
                              1.3 * step.ideal.GetSeconds(),
                              "MRC near the ideal on a healthy fabric");

        const MrcScenarioResult g = Run("gpipe");
        NS_TEST_ASSERT_MSG_EQ(g.jobDone, true, "the GPipe step ended");
        const auto& gs = g.steps.at(0);
        NS_TEST_EXPECT_MSG_LT(Find(gs, "s1/L4:attention/fwd")[0].issued,
                              Find(gs, "s1/L2:attention/ig")[0].issued,
                              "GPipe: F1 before B0");
        NS_TEST_EXPECT_MSG_LT(Find(gs, "s1/L4:attention/ig")[0].issued,
                              Find(gs, "s1/L2:attention/ig")[0].issued,
                              "GPipe: B1 before B0");

        // Both stages in one 8-GPU server: the sends go over the scale-up network, 65536 bytes
        // at 3600 Gb/s.
        const MrcScenarioResult u = Run("1f1b", "8");
        NS_TEST_ASSERT_MSG_EQ(u.jobDone, true, "the scale-up step ended");
        const auto up = Find(u.steps.at(0), "s0/mb1/act pp0");
        NS_TEST_ASSERT_MSG_EQ(up.size(), 1u, "one analytic send");
        NS_TEST_EXPECT_MSG_EQ(up[0].kind, "analytic", "inside the server");
        NS_TEST_EXPECT_MSG_EQ(up[0].end - up[0].start, NanoSeconds(146), "bytes at ScaleUpRate");
    }
};

/**
 * \ingroup mrc-test
 * A workload that does not fit, or is combined with another job, is refused by name.
 */
class MrcImportedWorkloadErrorsTestCase : public TestCase
{
  public:
    MrcImportedWorkloadErrorsTestCase()
        : TestCase("a workload with more ranks than hosts, or a bad placement, is refused")
    {
    }

  private:
    void DoRun() override
    {
        auto message = [](const std::vector<std::pair<std::string, std::string>>& attrs) {
            std::vector<std::pair<std::string, std::string>> all{{"WorkloadFile", SampleWorkload()},
                                                                 {"ShowProgress", "false"}};
            all.insert(all.end(), attrs.begin(), attrs.end());
            Ptr<MrcClusterScenario> s = Scenario(all);
            try
            {
                s->Run();
            }
            catch (const std::invalid_argument& e)
            {
                return std::string(e.what());
            }
            return std::string();
        };
        const std::string small =
            message({{"Planes", "1"}, {"T0Count", "2"}, {"HostsPerT0", "4"}, {"T1Count", "2"}});
        NS_TEST_EXPECT_MSG_NE(small.find("(all_gpus = 16) exceed the fabric's hosts (8)"),
                              std::string::npos,
                              small);
        const std::string placement = message({{"WorkloadPlacement", "random"}});
        NS_TEST_EXPECT_MSG_NE(placement.find("must be packed"), std::string::npos, placement);
        const std::string scale = message({{"CommScale", "0"}});
        NS_TEST_EXPECT_MSG_NE(scale.find("CommScale"), std::string::npos, scale);
        const std::string schedule = message({{"PipelineSchedule", "zigzag"}});
        NS_TEST_EXPECT_MSG_NE(schedule.find("must be 1f1b"), std::string::npos, schedule);
    }
};

#endif

/**
 * \ingroup mrc-test
 * Imported workloads.
 */
class MrcImportedWorkloadTestSuite : public TestSuite
{
  public:
    MrcImportedWorkloadTestSuite()
        : TestSuite("mrc-imported-workload", Type::SYSTEM)
    {
#if defined(MRC_SOURCE_DIR) || defined(NS_TEST_SOURCEDIR)
        AddTestCase(new MrcImportedWorkloadTestCase);
        AddTestCase(new MrcImportedDataWorkloadTestCase);
        AddTestCase(new MrcPipelineWorkloadTestCase);
        AddTestCase(new MrcImportedWorkloadErrorsTestCase);
#endif
    }
};

/// The suite's single instance.
static MrcImportedWorkloadTestSuite g_mrcImportedWorkloadTestSuite;
