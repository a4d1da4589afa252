/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What distributed collectives rely on, checked in one process: every built-in pattern posts on
 * each rank pair exactly the transfers GetPlannedTransfers announces, in that order (a receiving
 * rank expects them from it); a run's record merged back (MrcCollective::GetRunRecord,
 * MergeRunRecords, as MrcDistributed::GatherCollective does on rank 0) describes the same run;
 * and a queue-pair group refuses to expect a write whose sending host this process simulates.
 */

#include "mrc-test-bench.h"

#include "ns3/boolean.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <tuple>

using namespace ns3;

using mrctest::Bench;

/**
 * \ingroup mrc-tests
 * One pattern: its posts against its plan, and its run record merged back.
 */
class MrcCollectivePlanTestCase : public TestCase
{
  public:
    /**
     * \param tid the pattern's TypeId name
     * \param ranks its ranks' hosts
     * \param attributes extra attributes (name, value)
     */
    MrcCollectivePlanTestCase(std::string tid,
                              std::vector<uint32_t> ranks,
                              std::map<std::string, uint64_t> attributes = {})
        : TestCase(tid + Describe(attributes) + " posts what it plans, and its record merges back")
        , m_tid(std::move(tid))
        , m_ranks(std::move(ranks))
        , m_attributes(std::move(attributes))
    {
    }

  private:
    /// \param attributes extra attributes \return " (name=value, ...)", or "" for none
    static std::string Describe(const std::map<std::string, uint64_t>& attributes)
    {
        std::string text;
        for (const auto& [name, value] : attributes)
        {
            text += (text.empty() ? " (" : ", ") + name + "=" + std::to_string(value);
        }
        return text.empty() ? text : text + ")";
    }

    void DoRun() override
    {
        Bench b(MrcClosSpec::TwoTier(2, 2, 4, 2), true);
        ObjectFactory f(m_tid);
        f.Set("MessageSize", UintegerValue(300001));
        f.Set("VerifyData", BooleanValue(true));
        for (const auto& [name, value] : m_attributes)
        {
            f.Set(name, UintegerValue(value));
        }
        Ptr<MrcCollective> c = f.Create<MrcCollective>();
        c->Setup(b.topo, *b.mrc, m_ranks);
        c->Start();
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ((c->IsDone() && !c->HasFailed()), true, m_tid << " ended");

        // Posts per pair, in post order, against the plan.
        std::map<std::pair<uint32_t, uint32_t>, std::vector<MrcCollective::Transfer>> posted;
        for (const auto& t : c->GetTransfers())
        {
            posted[{t.src, t.dst}].push_back(t);
        }
        size_t planned = 0;
        for (auto [src, dst] : c->GetPairs())
        {
            const auto plan = c->GetPlannedTransfers(src, dst);
            const auto& got = posted[{src, dst}];
            planned += plan.size();
            NS_TEST_ASSERT_MSG_EQ(got.size(), plan.size(), "transfers " << src << " -> " << dst);
            for (uint32_t i = 0; i < plan.size(); ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(got[i].bytes, plan[i].bytes, "bytes of #" << i);
                NS_TEST_EXPECT_MSG_EQ(got[i].tag, plan[i].tag, "tag of #" << i);
                NS_TEST_EXPECT_MSG_EQ(got[i].seq, i, "number of #" << i);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(planned, c->GetTransfers().size(), "the plan covers the run");

        // The record merged back: the same transfers, times and end.
        auto before = c->GetTransfers();
        const Time duration = c->GetDuration();
        const std::vector<int64_t> record = c->GetRunRecord();
        NS_TEST_EXPECT_MSG_EQ(record.size(), 4 * planned + 2, "4 numbers per transfer, 2 more");
        c->MergeRunRecords(record);
        auto after = c->GetTransfers();
        NS_TEST_ASSERT_MSG_EQ(after.size(), before.size(), "transfers after the merge");
        const auto key = [](const MrcCollective::Transfer& t) {
            return std::make_tuple(t.src, t.dst, t.seq);
        };
        const auto byKey = [&key](const MrcCollective::Transfer& a,
                                  const MrcCollective::Transfer& b) {
            return key(a) < key(b);
        };
        std::sort(before.begin(), before.end(), byKey);
        std::sort(after.begin(), after.end(), byKey);
        for (size_t i = 0; i < before.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ((key(after[i]) == key(before[i])), true, "transfer " << i);
            NS_TEST_EXPECT_MSG_EQ(after[i].posted, before[i].posted, "posted " << i);
            NS_TEST_EXPECT_MSG_EQ(after[i].acked, before[i].acked, "acked " << i);
            NS_TEST_EXPECT_MSG_EQ(after[i].delivered, before[i].delivered, "delivered " << i);
            NS_TEST_EXPECT_MSG_EQ(after[i].offset, before[i].offset, "offset " << i);
            NS_TEST_EXPECT_MSG_EQ(after[i].ideal, before[i].ideal, "ideal " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(c->GetDuration(), duration, "the run's duration");
        NS_TEST_EXPECT_MSG_EQ((c->IsDone() && !c->HasFailed()), true, "done, not failed");
        NS_TEST_EXPECT_MSG_EQ(c->GetCorruptTransfers(), 0u, "byte for byte");
        // A record cut at an instant (a distributed step's end) leaves out what came later.
        std::vector<Time> deliveries;
        for (const auto& t : before)
        {
            deliveries.push_back(t.delivered);
        }
        std::sort(deliveries.begin(), deliveries.end());
        const Time cut = deliveries.back() - NanoSeconds(1); // just before the last delivery
        const auto by = [cut](bool seen, Time at) {
            return seen && at <= cut;
        };
        const size_t deliveredBy = std::count_if(before.begin(), before.end(), [&](const auto& t) {
            return by(t.isDelivered, t.delivered);
        });
        const size_t postedBy = std::count_if(before.begin(), before.end(), [&](const auto& t) {
            return by(t.isPosted, t.posted);
        });
        NS_TEST_ASSERT_MSG_LT(deliveredBy, before.size(), "the cut leaves some out");
        c->MergeRunRecords(c->GetRunRecord(cut));
        NS_TEST_EXPECT_MSG_EQ(c->GetTransferTimes().size(), deliveredBy, "deliveries by the cut");
        const auto cutTransfers = c->GetTransfers();
        const size_t postedAfterMerge =
            std::count_if(cutTransfers.begin(), cutTransfers.end(), [](const auto& t) {
                return t.isPosted;
            });
        NS_TEST_EXPECT_MSG_EQ(postedAfterMerge, postedBy, "posts by the cut");
        NS_TEST_EXPECT_MSG_EQ(c->IsDone(), false, "not done by the cut");
        c->MergeRunRecords(record);
        std::vector<int64_t> wrong = record;
        wrong.pop_back();
        bool refused = false;
        try
        {
            c->MergeRunRecords(wrong);
        }
        catch (const std::invalid_argument&)
        {
            refused = true;
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "a record of another size is refused");
        // A failure merged in: the run failed, at the earliest failing time.
        std::vector<int64_t> failed = record;
        failed[failed.size() - 2] = 1;
        failed.back() = std::numeric_limits<int64_t>::max() - 12345;
        c->MergeRunRecords(failed);
        NS_TEST_EXPECT_MSG_EQ(c->HasFailed(), true, "failed when a rank failed");
        NS_TEST_EXPECT_MSG_EQ(c->GetEndTime(), TimeStep(12345), "at that rank's failure");

        // Expecting a write needs the sending host on another rank.
        bool expectRefused = false;
        try
        {
            c->GetGroup(c->GetPairs()[0].first, c->GetPairs()[0].second)->ExpectWrite(1000);
        }
        catch (const std::logic_error&)
        {
            expectRefused = true;
        }
        NS_TEST_EXPECT_MSG_EQ(expectRefused, true, "ExpectWrite with the sender here");
        Simulator::Destroy();
    }

    std::string m_tid;                            //!< the pattern
    std::vector<uint32_t> m_ranks;                //!< its hosts
    std::map<std::string, uint64_t> m_attributes; //!< extra attributes
};

/**
 * \ingroup mrc-tests
 * Plans and run records of the built-in collectives.
 */
class MrcCollectivePlanTestSuite : public TestSuite
{
  public:
    MrcCollectivePlanTestSuite()
        : TestSuite("mrc-collective-plan", Type::UNIT)
    {
        const std::vector<uint32_t> four{0, 4, 1, 5};
        AddTestCase(new MrcCollectivePlanTestCase("ns3::MrcRingAllReduce", four));
        AddTestCase(new MrcCollectivePlanTestCase("ns3::MrcAllGather", four));
        AddTestCase(new MrcCollectivePlanTestCase("ns3::MrcReduceScatter", four));
        // NCCL's pipelined ring: 2 passes (chunks of at most 40000 B), 3 slices per chunk.
        AddTestCase(new MrcCollectivePlanTestCase("ns3::MrcRingAllReduce",
                                                  four,
                                                  {{"ChunkSize", 40000}, {"SliceSize", 16384}}));
        AddTestCase(new MrcCollectivePlanTestCase("ns3::MrcAllToAll", {0, 1, 4, 5, 6}));
        AddTestCase(
            new MrcCollectivePlanTestCase("ns3::MrcAllToAll", {0, 1, 4, 5}, {{"Concurrency", 1}}));
        AddTestCase(new MrcCollectivePlanTestCase("ns3::MrcPermutation", {0, 1, 2, 4, 5, 6}));
        AddTestCase(new MrcCollectivePlanTestCase("ns3::MrcIncast",
                                                  {0, 4, 5, 6, 1, 2},
                                                  {{"VictimSize", 200000}}));
        AddTestCase(new MrcCollectivePlanTestCase("ns3::MrcSendRecv", {0, 1, 4, 5}));
        AddTestCase(
            new MrcCollectivePlanTestCase("ns3::MrcBulkTransfer", {0, 4}, {{"Messages", 3}}));
    }
};

/// The suite's single instance.
static MrcCollectivePlanTestSuite g_mrcCollectivePlanTestSuite;
