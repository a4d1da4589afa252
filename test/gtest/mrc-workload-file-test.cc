/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-workload-file.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>
#include <sstream>
#include <stdexcept>

using namespace ns3;

namespace
{
/// A valid header: TP 2, EP 2, 16 ranks.
const std::string kHeader = "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 2 "
                            "pp: 1 vpp: 2 ga: 1 all_gpus: 16 checkpoints: 0 "
                            "checkpoint_initiates: 0 pp_comm: 0\n";

/**
 * \param text a workload
 * \return it parsed
 */
MrcWorkloadFile
Parse(const std::string& text)
{
    std::istringstream in(text);
    return MrcWorkloadFile::Parse(in, "w.txt");
}

/**
 * \param text a malformed workload
 * \return the message of the error it raises ("" if none)
 */
std::string
ErrorOf(const std::string& text)
{
    try
    {
        Parse(text);
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}
} // namespace

TEST(MrcWorkloadFile, ReadsTheHeaderAndEveryFieldOfALayer)
{
    const MrcWorkloadFile w =
        Parse(kHeader
              + "2\n"
                "attention_row\t-1\t1750840\tREDUCESCATTER\t12582912\t875420\tALLGATHER\t"
                "1024\t875421\tNONE\t0\t100\n"
                "mlp  -1 1 ALLTOALL_EP 25165824 2 NONE 0 3 REDUCESCATTER_DP_EP 9437184 7\r\n");
    EXPECT_EQ(w.GetPolicy(), MrcWorkloadFile::Policy::TRANSFORMER_FWD_IN_BCKWD);
    EXPECT_EQ(w.GetTensorParallel(), 2u);
    EXPECT_EQ(w.GetExpertParallel(), 2u);
    EXPECT_EQ(w.GetRanks(), 16u);
    EXPECT_EQ(w.GetDataParallel(), 8u);
    ASSERT_EQ(w.GetLayers().size(), 2u);
    const auto& a = w.GetLayers()[0];
    EXPECT_EQ(a.name, "attention_row");
    EXPECT_EQ(a.line, 3u);
    EXPECT_EQ(a.fwdCompute, 1750840u);
    EXPECT_EQ(a.fwd.type, MrcWorkloadFile::CommType::REDUCE_SCATTER);
    EXPECT_EQ(a.fwd.bytes, 12582912u);
    EXPECT_EQ(a.igCompute, 875420u);
    EXPECT_EQ(a.ig.type, MrcWorkloadFile::CommType::ALL_GATHER);
    EXPECT_EQ(a.ig.bytes, 1024u);
    EXPECT_EQ(a.wgCompute, 875421u);
    EXPECT_FALSE(a.wg.IsActive());
    EXPECT_EQ(a.updateTime, 100u);
    const auto& m = w.GetLayers()[1];
    EXPECT_EQ(m.fwd.type, MrcWorkloadFile::CommType::ALL_TO_ALL);
    EXPECT_EQ(m.fwd.group, MrcWorkloadFile::Group::EP);
    EXPECT_EQ(m.wg.type, MrcWorkloadFile::CommType::REDUCE_SCATTER);
    EXPECT_EQ(m.wg.group, MrcWorkloadFile::Group::DP_EP);
    EXPECT_EQ(m.updateTime, 7u);
}

TEST(MrcWorkloadFile, CommGroupsFollowSimAi)
{
    using K = MrcWorkloadFile::GroupKind;
    using P = MrcWorkloadFile::Pass;
    const auto plain = MrcWorkloadFile::ParseCommType("ALLREDUCE");
    EXPECT_EQ(MrcWorkloadFile::GetGroupKind(plain, P::FORWARD), K::TP);
    EXPECT_EQ(MrcWorkloadFile::GetGroupKind(plain, P::INPUT_GRADIENT), K::TP);
    EXPECT_EQ(MrcWorkloadFile::GetGroupKind(plain, P::WEIGHT_GRADIENT), K::DP);
    const auto ep = MrcWorkloadFile::ParseCommType("ALLTOALL_EP");
    EXPECT_EQ(MrcWorkloadFile::GetGroupKind(ep, P::FORWARD), K::EP);
    EXPECT_EQ(MrcWorkloadFile::GetGroupKind(ep, P::WEIGHT_GRADIENT), K::EP);
    const auto dpep = MrcWorkloadFile::ParseCommType("ALLGATHER_DP_EP");
    EXPECT_EQ(MrcWorkloadFile::GetGroupKind(dpep, P::FORWARD), K::DP_EP);
    // BROADCAST is no communication in SimAI: so here, and counted.
    EXPECT_FALSE(MrcWorkloadFile::ParseCommType("BROADCAST").IsActive());
    const MrcWorkloadFile w = Parse(kHeader + "1\nnorm -1 0 BROADCAST 16384 1 NONE 0 1 NONE 0 1\n");
    EXPECT_EQ(w.GetBroadcastCount(), 1u);
}

TEST(MrcWorkloadFile, GroupsPartitionTheRanksAsMegatronAndSimAiDo)
{
    // TP 2, EP 2, 16 ranks: DP 8.
    const MrcWorkloadFile w = Parse(kHeader + "0\n");
    using K = MrcWorkloadFile::GroupKind;
    const auto tp = w.GetGroups(K::TP);
    ASSERT_EQ(tp.size(), 8u);
    EXPECT_EQ(tp[3], (std::vector<uint32_t>{6, 7})) << "consecutive ranks";
    const auto dp = w.GetGroups(K::DP);
    ASSERT_EQ(dp.size(), 2u);
    EXPECT_EQ(dp[1], (std::vector<uint32_t>{1, 3, 5, 7, 9, 11, 13, 15})) << "strided by TP";
    const auto ep = w.GetGroups(K::EP);
    ASSERT_EQ(ep.size(), 8u);
    EXPECT_EQ(ep[0], (std::vector<uint32_t>{0, 2})) << "same place of EP consecutive TP groups";
    EXPECT_EQ(ep[3], (std::vector<uint32_t>{5, 7}));
    const auto dpep = w.GetGroups(K::DP_EP);
    ASSERT_EQ(dpep.size(), 4u);
    EXPECT_EQ(dpep[0], (std::vector<uint32_t>{0, 4, 8, 12})) << "every EP-th TP group";
    EXPECT_EQ(dpep[3], (std::vector<uint32_t>{3, 7, 11, 15}));
    for (K kind : {K::TP, K::DP, K::EP, K::DP_EP})
    {
        std::multiset<uint32_t> all;
        for (const auto& g : w.GetGroups(kind))
        {
            all.insert(g.begin(), g.end());
        }
        EXPECT_EQ(all.size(), 16u) << MrcWorkloadFile::GetGroupName(kind);
        EXPECT_EQ(std::set<uint32_t>(all.begin(), all.end()).size(), 16u)
            << MrcWorkloadFile::GetGroupName(kind) << ": every rank exactly once";
    }
}

TEST(MrcWorkloadFile, MalformedFilesNameTheLineTheFieldAndWhatIsAccepted)
{
    const std::string layer = "x -1 1 NONE 0 1 NONE 0 1 NONE 0 100\n";

    struct Case
    {
        std::string text;     //!< the file
        std::string expected; //!< a part of the message
    };

    const std::vector<Case> cases{
        {"", "w.txt: empty workload file"},
        {"MICRO model_parallel_NPU_group: 1 all_gpus: 2\n0\n", "w.txt:1: policy (=\"MICRO\")"},
        {"DATA all_gpus: 4 foo: 3\n0\n", "w.txt:1: parameter (=\"foo:\"): unknown"},
        {"HYBRID_TRANSFORMER all_gpus: 8\n0\n", "model_parallel_NPU_group (=\"\"): missing"},
        {"HYBRID_TRANSFORMER model_parallel_NPU_group: 8\n0\n", "all_gpus (=\"\"): missing"},
        {"HYBRID_TRANSFORMER model_parallel_NPU_group: 3 all_gpus: 8\n0\n",
         "model_parallel_NPU_group (=\"3\"): must divide all_gpus (=8)"},
        {"HYBRID_TRANSFORMER model_parallel_NPU_group: 2 ep: 3 all_gpus: 8\n0\n",
         "ep (=\"3\"): must divide the data-parallel size"},
        {"HYBRID_TRANSFORMER model_parallel_NPU_group: 0 all_gpus: 8\n0\n",
         "model_parallel_NPU_group (=\"0\"): must be an integer in [1, "},
        {"HYBRID_TRANSFORMER model_parallel_NPU_group: 2 pp: 2 all_gpus: 8\n0\n",
         "w.txt:1: pp_comm (=\"0\"): must be > 0 with pp > 1"},
        {"HYBRID_TRANSFORMER model_parallel_NPU_group: 2 pp: 1 pp_comm: 8 all_gpus: 8\n0\n",
         "w.txt:1: pp_comm (=\"8\"): must be 0 with pp = 1"},
        {"HYBRID_TRANSFORMER model_parallel_NPU_group: 2 pp: 3 pp_comm: 8 all_gpus: 8\n0\n",
         "model_parallel_NPU_group (=\"2\"): times pp (=3) must divide all_gpus (=8)"},
        {"DATA pp: 2 pp_comm: 8 all_gpus: 8\n0\n", "pp (=\"2\"): must be 1 with the DATA"},
        {"HYBRID_TRANSFORMER model_parallel_NPU_group: 2 pp: 2 pp_comm: 8 ga: 2 all_gpus: 8\n"
         "2\nembedding_layer -1 1 NONE 0 1 NONE 0 1 NONE 0 0\n"
             + layer,
         "w.txt:1: ga (=\"2\"): with pp > 1 the file must hold its ga micro-batches as AICB "
         "writes them, each beginning with a layer named embedding_layer, all alike; the file "
         "has 1"},
        {"HYBRID_TRANSFORMER model_parallel_NPU_group: 2 pp: 2 pp_comm: 8 ga: 2 all_gpus: 8\n"
         "4\nembedding_layer -1 1 NONE 0 1 NONE 0 1 NONE 0 0\n"
             + layer
             + "embedding_layer -1 1 NONE 0 1 NONE 0 1 NONE 0 0\n"
               "y -1 1 NONE 0 1 NONE 0 1 NONE 0 0\n",
         "w.txt:6: layer (=\"y\"): with pp > 1 the file must hold its ga micro-batches"},
        {"HYBRID_TRANSFORMER model_parallel_NPU_group: 2 checkpoints: 1 all_gpus: 8\n0\n",
         "checkpoints (=\"1\"): must be 0"},
        {"HYBRID_TRANSFORMER model_parallel_NPU_group: 2 all_gpus:\n0\n",
         "all_gpus (=\"\"): missing value"},
        {kHeader, "w.txt: line 2 must give the number of layers"},
        {kHeader + "two\n", "w.txt:2: layer count (=\"two\")"},
        {kHeader + "2\n" + layer, "w.txt:2: layer count (=\"2\"): the file has 1 layer lines"},
        {kHeader + "1\nx -1 1 NONE 0 1 NONE 0 1 NONE 0\n", "w.txt:3: layer (=\"x -1 1 NONE"},
        {kHeader + "1\nx -1 1.5 NONE 0 1 NONE 0 1 NONE 0 100\n",
         "w.txt:3: forward compute (=\"1.5\"): must be an integer in [0, "},
        {kHeader + "1\nx -1 1 NONE 0 -4 NONE 0 1 NONE 0 100\n",
         "w.txt:3: input-gradient compute (=\"-4\")"},
        {kHeader + "1\nx -1 1 NONE 0 1 NONE 0 1 ALLREDUCEALLTOALL 8 100\n",
         "w.txt:3: weight-gradient comm type (=\"ALLREDUCEALLTOALL\"): must be NONE"},
        {kHeader + "1\nx -1 1 ALLGATHER 99999999999999999999 1 NONE 0 1 NONE 0 100\n",
         "w.txt:3: forward comm size (=\"99999999999999999999\")"},
        {kHeader + "1\nx -1 1 NONE 0 1 NONE 0 1 NONE 0 1\x01\n", "update time (=\"1?\")"},
    };
    for (const Case& c : cases)
    {
        const std::string error = ErrorOf(c.text);
        EXPECT_NE(error.find(c.expected), std::string::npos)
            << "file:\n"
            << c.text << "\nexpected: " << c.expected << "\ngot: " << error;
    }
}

TEST(MrcWorkloadFile, MissingOrDirectoryPathsAreRefused)
{
    EXPECT_THROW(MrcWorkloadFile::ParseFile("/nonexistent/workload.txt"), std::invalid_argument);
    EXPECT_THROW(MrcWorkloadFile::ParseFile("/tmp"), std::invalid_argument);
}

TEST(MrcWorkloadFile, PipelineStagesHoldTheirOwnGroupsAndMicroBatches)
{
    // 16 ranks, TP 2, pp 2: stages of 8 ranks, DP 4; ga 2 micro-batches of two layers between
    // a prologue and an epilogue of one layer each.
    const std::string layer = " -1 1 NONE 0 1 NONE 0 1 NONE 0 0\n";
    const MrcWorkloadFile w = Parse(
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 pp: 2 ga: 2 all_gpus: 16 "
        "pp_comm: 4096\n6\ngrad_norm"
        + layer + "embedding_layer" + layer + "attention" + layer + "embedding_layer" + layer
        + "attention" + layer + "optimizer" + layer);
    EXPECT_EQ(w.GetPipelineParallel(), 2u);
    EXPECT_EQ(w.GetRanksPerStage(), 8u);
    EXPECT_EQ(w.GetDataParallel(), 4u);
    EXPECT_EQ(w.GetPipelineBytes(), 4096u);
    EXPECT_EQ(w.GetMicroBatches().first, 1u);
    EXPECT_EQ(w.GetMicroBatches().length, 2u);
    EXPECT_EQ(w.GetMicroBatches().count, 2u);
    const auto dp = w.GetGroups(MrcWorkloadFile::GroupKind::DP);
    ASSERT_EQ(dp.size(), 4u);
    EXPECT_EQ(dp[0], (std::vector<uint32_t>{0, 2, 4, 6}));
    EXPECT_EQ(dp[3], (std::vector<uint32_t>{9, 11, 13, 15})) << "stage 1's second DP group";
    const auto tp = w.GetGroups(MrcWorkloadFile::GroupKind::TP);
    ASSERT_EQ(tp.size(), 8u);
    EXPECT_EQ(tp[4], (std::vector<uint32_t>{8, 9}));
    // pp = 1: no micro-batches looked for.
    EXPECT_EQ(Parse(kHeader + "0\n").GetMicroBatches().count, 0u);
}
