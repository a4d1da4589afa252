/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-rank-barrier-header.h"
#include "ns3/mrc-rank-barrier.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{
/// An outcome as a rank saw it: key, end, failed, and when it was learnt (all in ns).
using Seen = std::tuple<uint64_t, int64_t, bool, int64_t>;

/// Barriers of several "ranks" in one process, posts carried with the barrier's delay.
class Ranks
{
  public:
    /// \param n ranks \param delay post delay
    Ranks(uint32_t n, Time delay)
        : m_seen(n)
    {
        for (uint32_t r = 0; r < n; ++r)
        {
            m_barriers.push_back(CreateObject<MrcRankBarrier>());
        }
        for (uint32_t r = 0; r < n; ++r)
        {
            m_barriers[r]->SetRanks(n, r, delay, MakeCallback(&Ranks::Send, this));
            m_barriers[r]->SetOutcomeCallback(MakeBoundCallback(&Ranks::Outcome, this, r));
        }
        m_delay = delay;
    }

    ~Ranks()
    {
        Simulator::Destroy();
    }

    /// \param at when \param rank which rank posts \param key activity \param failed kind
    void PostAt(Time at, uint32_t rank, uint64_t key, bool failed)
    {
        Simulator::Schedule(at, &MrcRankBarrier::Post, m_barriers[rank], key, failed);
    }

    /// \param rank a rank \return what it saw
    const std::vector<Seen>& SeenBy(uint32_t rank) const
    {
        return m_seen[rank];
    }

    /// \param expected what every rank must have seen, in order
    void ExpectEveryRankSaw(const std::vector<Seen>& expected) const
    {
        for (uint32_t r = 0; r < m_seen.size(); ++r)
        {
            EXPECT_EQ(m_seen[r], expected) << "rank " << r;
        }
    }

    /// \param rank a rank \return its barrier
    Ptr<MrcRankBarrier> Get(uint32_t rank) const
    {
        return m_barriers[rank];
    }

  private:
    /// \param rank destination \param p the post
    void Send(uint32_t rank, Ptr<Packet> p)
    {
        Simulator::Schedule(m_delay, &MrcRankBarrier::Receive, m_barriers[rank], p);
    }

    /// \param self the ranks \param rank who saw it \param key \param end \param failed
    static void Outcome(Ranks* self, uint32_t rank, uint64_t key, Time end, bool failed)
    {
        self->m_seen[rank].emplace_back(key,
                                        end.GetNanoSeconds(),
                                        failed,
                                        Simulator::Now().GetNanoSeconds());
    }

    std::vector<Ptr<MrcRankBarrier>> m_barriers; //!< per rank
    std::vector<std::vector<Seen>> m_seen;       //!< per rank, outcomes
    Time m_delay;                                //!< post delay
};
} // namespace

TEST(MrcRankBarrier, EveryRankLearnsTheLatestEndOneDelayLater)
{
    Ranks ranks(3, MicroSeconds(1));
    ranks.PostAt(MicroSeconds(5), 0, 7, false);
    ranks.PostAt(MicroSeconds(7), 1, 7, false);
    ranks.PostAt(MicroSeconds(6), 2, 7, false);
    Simulator::Run();
    ranks.ExpectEveryRankSaw({{7, 7000, false, 8000}});
}

TEST(MrcRankBarrier, AFailureBeforeTheLastEndDecidesWithoutWaitingForIt)
{
    // Rank 2 never ends (its hosts wait on the failed queue pair): the failure decides.
    Ranks ranks(3, MicroSeconds(1));
    ranks.PostAt(MicroSeconds(3), 0, 1, false);
    ranks.PostAt(MicroSeconds(4), 1, 1, true);
    ranks.PostAt(MicroSeconds(9), 1, 1, true); // a later failure changes nothing
    Simulator::Run();
    ranks.ExpectEveryRankSaw({{1, 4000, true, 5000}});
}

TEST(MrcRankBarrier, AFailureAfterTheLastEndIsTooLate)
{
    // Rank 2 ended at 4 us and failed at 6 us: the activity had ended everywhere at 5 us.
    Ranks ranks(3, MicroSeconds(1));
    ranks.PostAt(MicroSeconds(3), 0, 1, false);
    ranks.PostAt(MicroSeconds(5), 1, 1, false);
    ranks.PostAt(MicroSeconds(4), 2, 1, false);
    ranks.PostAt(MicroSeconds(6), 2, 1, true);
    Simulator::Run();
    ranks.ExpectEveryRankSaw({{1, 5000, false, 6000}});
}

TEST(MrcRankBarrier, AFailureAfterARanksOwnEndStillCounts)
{
    // Rank 1's hosts had all their data at 2 us, then its queue pair failed at 4.5 us, before
    // rank 0's end (5 us): one process would have failed the run at 4.5 us.
    Ranks ranks(2, MicroSeconds(1));
    ranks.PostAt(MicroSeconds(5), 0, 3, false);
    ranks.PostAt(MicroSeconds(2), 1, 3, false);
    ranks.PostAt(NanoSeconds(4500), 1, 3, true);
    Simulator::Run();
    ranks.ExpectEveryRankSaw({{3, 4500, true, 5500}});
}

TEST(MrcRankBarrier, AnEndAndAFailureOfTheSameInstantEnd)
{
    // The last end and a failure both at 5 us arrive together (one from this rank, one from
    // the other): decided once, after both, as ended.
    Ranks ranks(2, MicroSeconds(1));
    ranks.PostAt(MicroSeconds(5), 0, 3, false);
    ranks.PostAt(MicroSeconds(2), 1, 3, false);
    ranks.PostAt(MicroSeconds(5), 1, 3, true);
    Simulator::Run();
    ranks.ExpectEveryRankSaw({{3, 5000, false, 6000}});
}

TEST(MrcRankBarrier, ActivitiesAreKeptApart)
{
    Ranks ranks(2, NanoSeconds(500));
    ranks.PostAt(MicroSeconds(1), 0, 1, false);
    ranks.PostAt(MicroSeconds(2), 0, 2, false);
    ranks.PostAt(MicroSeconds(3), 1, 2, false);
    ranks.PostAt(MicroSeconds(4), 1, 1, false);
    Simulator::Run();
    const std::vector<Seen> expected{{2, 3000, false, 3500}, {1, 4000, false, 4500}};
    ranks.ExpectEveryRankSaw(expected);
}

TEST(MrcRankBarrier, OneRankLearnsAtOnce)
{
    Ptr<MrcRankBarrier> b = CreateObject<MrcRankBarrier>();
    b->Setup(); // no MPI: one rank, no delay
    EXPECT_EQ(b->GetRanks(), 1u);
    EXPECT_EQ(b->GetDelay(), Time(0));
    std::optional<int64_t> learnt;

    struct Sink
    {
        std::optional<int64_t>* learnt;

        void Outcome(uint64_t, Time end, bool failed)
        {
            *learnt = Simulator::Now().GetNanoSeconds();
            EXPECT_EQ(end, MicroSeconds(2));
            EXPECT_FALSE(failed);
        }
    } sink{&learnt};

    b->SetOutcomeCallback(MakeCallback(&Sink::Outcome, &sink));
    Simulator::Schedule(MicroSeconds(2), &MrcRankBarrier::Post, b, 9, false);
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_EQ(learnt, std::optional<int64_t>(2000));
}

TEST(MrcRankBarrier, MalformedPostsAreDroppedAndCounted)
{
    Ranks ranks(2, MicroSeconds(1));
    Ptr<MrcRankBarrier> b = ranks.Get(0);
    b->Receive(Create<Packet>(10)); // truncated
    MrcRankBarrierHeader h;
    h.SetRank(5); // not a rank of the run
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    b->Receive(p);
    h.SetRank(0); // its own rank: never sent to itself
    p = Create<Packet>();
    p->AddHeader(h);
    b->Receive(p);
    EXPECT_EQ(b->GetMalformed(), 3u);
    Simulator::Run();
    EXPECT_TRUE(ranks.SeenBy(0).empty()) << "nothing decided from malformed posts";
}

TEST(MrcRankBarrier, RanksAreChecked)
{
    Ptr<MrcRankBarrier> b = CreateObject<MrcRankBarrier>();
    const auto none = MakeNullCallback<void, uint32_t, Ptr<Packet>>();
    EXPECT_THROW(b->SetRanks(0, 0, Time(0), none), std::invalid_argument);
    EXPECT_THROW(b->SetRanks(2, 2, Time(0), none), std::invalid_argument);
    EXPECT_NO_THROW(b->SetRanks(2, 1, Time(0), none));
}

TEST(MrcRankBarrierHeader, RoundTripsAndRefusesTruncation)
{
    MrcRankBarrierHeader h;
    h.SetKey((uint64_t(3) << 32) | 2);
    h.SetWhen(NanoSeconds(123456789));
    h.SetRank(7);
    h.SetFailed(true);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    EXPECT_EQ(p->GetSize(), MrcRankBarrierHeader::kSize);
    MrcRankBarrierHeader back;
    p->RemoveHeader(back);
    EXPECT_TRUE(back.IsValid());
    EXPECT_EQ(back.GetKey(), (uint64_t(3) << 32) | 2);
    EXPECT_EQ(back.GetWhen(), NanoSeconds(123456789));
    EXPECT_EQ(back.GetRank(), 7u);
    EXPECT_TRUE(back.IsFailed());
    Ptr<Packet> shortOne = Create<Packet>(MrcRankBarrierHeader::kSize - 1);
    MrcRankBarrierHeader bad;
    EXPECT_EQ(shortOne->RemoveHeader(bad), 0u);
    EXPECT_FALSE(bad.IsValid());
    EXPECT_NE(bad.GetError().find("23 bytes present, 24 needed"), std::string::npos)
        << bad.GetError();
}
