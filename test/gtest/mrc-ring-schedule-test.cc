/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-line-rate-model.h"
#include "ns3/mrc-ring-collective.h"
#include "ns3/mrc-ring-schedule.h"

#include <gtest/gtest.h>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>

using namespace ns3;

TEST(MrcRingSchedule, EveryStepMovesEveryChunkOnce)
{
    for (uint32_t n = 2; n <= 9; ++n)
    {
        for (uint32_t k = 0; k < 2 * (n - 1); ++k)
        {
            std::set<uint32_t> chunks;
            for (uint32_t r = 0; r < n; ++r)
            {
                chunks.insert(MrcRingCollective::ChunkIndex(r, k, n));
            }
            EXPECT_EQ(chunks.size(), n) << "n " << n << " step " << k;
        }
    }
}

TEST(MrcRingSchedule, ARankForwardsTheChunkItJustReceived)
{
    for (uint32_t n = 2; n <= 9; ++n)
    {
        for (uint32_t k = 0; k + 1 < 2 * (n - 1); ++k)
        {
            for (uint32_t r = 0; r < n; ++r)
            {
                const uint32_t pred = (r + n - 1) % n;
                EXPECT_EQ(MrcRingCollective::ChunkIndex(r, k + 1, n),
                          MrcRingCollective::ChunkIndex(pred, k, n))
                    << "n " << n << " rank " << r << " step " << k;
            }
        }
    }
}

TEST(MrcRingSchedule, ReduceScatterLeavesEachRankOneReducedChunk)
{
    // After n - 1 steps rank r has received every contribution to chunk (r + 1) mod n: the
    // chunk it writes first in the all-gather phase (step n - 1), and each rank a distinct one.
    for (uint32_t n = 2; n <= 9; ++n)
    {
        std::set<uint32_t> owned;
        for (uint32_t r = 0; r < n; ++r)
        {
            EXPECT_EQ(MrcRingCollective::ChunkIndex(r, n - 1, n), (r + 1) % n);
            // The chunk rank r receives at step k, for every k < n - 1, is (r - 1 - k) mod n;
            // the last one received (k = n - 2) is (r + 1) mod n.
            const uint32_t pred = (r + n - 1) % n;
            EXPECT_EQ(MrcRingCollective::ChunkIndex(pred, n - 2, n), (r + 1) % n);
            owned.insert((r + 1) % n);
        }
        EXPECT_EQ(owned.size(), n);
    }
}

namespace
{

/// \return the bytes a rank writes over its whole schedule
uint64_t
RankBytes(const MrcRingSchedule& s, uint32_t rank)
{
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < s.GetWriteCount(); ++i)
    {
        bytes += s.GetBytes(rank, i);
    }
    return bytes;
}

} // namespace

TEST(MrcRingSchedule, WholeChunksInOnePassAreTheRingSteps)
{
    const uint32_t n = 6;
    const uint64_t size = 1000003;
    const MrcRingSchedule s(n, 2 * (n - 1), size, 0, 0);
    const auto chunks = MrcLineRateModel::Chunks(size, n);
    ASSERT_EQ(s.GetLoopCount(), 1u);
    ASSERT_EQ(s.GetWriteCount(), 2 * (n - 1));
    for (uint32_t k = 0; k < s.GetWriteCount(); ++k)
    {
        EXPECT_EQ(s.GetPosition(k).step, k);
        EXPECT_EQ(s.GetDependency(k), k == 0 ? MrcRingSchedule::kNoDependency : k - 1);
        for (uint32_t r = 0; r < n; ++r)
        {
            EXPECT_EQ(s.GetBytes(r, k), chunks[MrcRingSchedule::ChunkIndex(r, k, n)]);
        }
    }
}

TEST(MrcRingSchedule, SlicesFollowTheSameSliceOfTheStepBefore)
{
    // 8 MiB over 8 ranks: chunks of 1 MiB in slices of 256 KiB, 4 per chunk.
    const uint32_t n = 8;
    const uint32_t steps = 2 * (n - 1);
    const MrcRingSchedule s(n, steps, 8 << 20, 0, 256 << 10);
    ASSERT_EQ(s.GetSliceCount(0), 4u);
    ASSERT_EQ(s.GetWriteCount(), steps * 4);
    for (uint32_t i = 0; i < s.GetWriteCount(); ++i)
    {
        const auto p = s.GetPosition(i);
        EXPECT_EQ(p.step, i / 4);
        EXPECT_EQ(p.slice, i % 4);
        EXPECT_EQ(s.GetBytes(3, i), 256u << 10);
        EXPECT_EQ(s.GetDependency(i), p.step == 0 ? MrcRingSchedule::kNoDependency : i - 4);
    }
}

TEST(MrcRingSchedule, EveryByteGoesOnceWhateverTheCut)
{
    // Passes and slices cut each rank's S, whatever the sizes: a step moves every chunk of its
    // pass once, and over a run each rank writes steps x (its share of S).
    struct Case
    {
        uint32_t n;
        uint64_t size;
        uint64_t chunk;
        uint64_t slice;
    };

    for (const Case& c : {Case{4, 1000003, 0, 65536},
                          Case{4, 1000003, 131072, 50000},
                          Case{5, 7, 0, 1},
                          Case{8, 3, 0, 1},
                          Case{8, 100, 1, 0},
                          Case{3, 1 << 20, 100000, 3000},
                          Case{16, 64 << 20, 2 << 20, 1 << 20}})
    {
        const uint32_t steps = 2 * (c.n - 1);
        const MrcRingSchedule s(c.n, steps, c.size, c.chunk, c.slice);
        uint64_t all = 0;
        for (uint32_t r = 0; r < c.n; ++r)
        {
            all += RankBytes(s, r);
        }
        EXPECT_EQ(all, steps * c.size) << "n " << c.n << " S " << c.size;
        for (uint32_t i = 0; i < s.GetWriteCount(); ++i)
        {
            const uint32_t dep = s.GetDependency(i);
            if (dep != MrcRingSchedule::kNoDependency)
            {
                // What rank r writes now is what its predecessor wrote one step before.
                for (uint32_t r = 0; r < c.n; ++r)
                {
                    EXPECT_EQ(s.GetBytes(r, i), s.GetBytes((r + c.n - 1) % c.n, dep));
                }
            }
            if (c.size >= c.n && c.slice > 0)
            {
                EXPECT_GT(s.GetBytes(0, i), 0u) << "no empty slice, write " << i;
                EXPECT_LE(s.GetBytes(0, i), c.slice + 1) << "write " << i;
            }
        }
    }
    // 1,000,003 B in passes of 4 x 131072 B: two passes, the second of 475,715 B.
    const MrcRingSchedule passes(4, 6, 1000003, 131072, 50000);
    EXPECT_EQ(passes.GetLoopCount(), 2u);
    EXPECT_EQ(passes.GetSliceCount(0), 3u);
    EXPECT_EQ(passes.GetSliceCount(1), 3u);
    EXPECT_EQ(passes.GetPosition(18).loop, 1u);
    EXPECT_EQ(passes.GetDependency(18), MrcRingSchedule::kNoDependency);
}

TEST(MrcRingSchedule, IdealPipelinesSlices)
{
    // 100 Gb/s, one plane, 1 us links, MSS 1000 B, no header bytes: 1000 B take 80 ns.
    const MrcLineRateModel rate(100e9, 1, MicroSeconds(1), 1000, 0);
    // Whole chunks: steps x Transfer(largest chunk), as MrcLineRateModel has it.
    for (uint32_t n : {2, 3, 7})
    {
        const MrcRingSchedule whole(n, 2 * (n - 1), 1000003, 0, 0);
        EXPECT_EQ(whole.GetIdealTime(rate, 3), rate.RingAllReduce(n, 1000003, 3));
        const MrcRingSchedule gather(n, n - 1, 1000003, 0, 0);
        EXPECT_EQ(gather.GetIdealTime(rate, 3), rate.AllGather(n, 1000003, 3));
    }
    // Two ranks, two steps, chunks of 2000 B in two slices of 1000 B, one link: slice 0 of
    // step 1 waits for slice 0 of step 0 to arrive (80 + 1000 ns), slice 1 goes right after it.
    const MrcRingSchedule sliced(2, 2, 4000, 0, 1000);
    EXPECT_EQ(sliced.GetIdealTime(rate, 1), NanoSeconds(1080 + 80 + 80 + 1000));
    EXPECT_EQ(MrcRingSchedule(2, 2, 4000, 0, 0).GetIdealTime(rate, 1),
              NanoSeconds(2 * (160 + 1000)));
    EXPECT_EQ(MrcRingSchedule(1, 0, 4000, 0, 1000).GetIdealTime(rate, 1), Time(0));
}

TEST(MrcRingSchedule, CutsTooFineAreRefused)
{
    const auto message = [](uint64_t size, uint64_t chunk, uint64_t slice) {
        try
        {
            MrcRingSchedule(64, 126, size, chunk, slice);
        }
        catch (const std::invalid_argument& e)
        {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(message(64 << 20, 0, 1).find("SliceSize (=1 B)"), std::string::npos);
    EXPECT_NE(message(uint64_t(1) << 40, 1, 0).find("ChunkSize (=1 B)"), std::string::npos);
    EXPECT_EQ(message(64 << 20, 2 << 20, 1 << 20), "");
    EXPECT_THROW(MrcRingSchedule(0, 0, 1, 0, 0), std::invalid_argument);
    // A ring of one rank writes nothing, however fine the cut; products beyond 64 bits are
    // refused, not wrapped.
    EXPECT_EQ(MrcRingSchedule(1, 0, uint64_t(1) << 40, 1, 1).GetWriteCount(), 0u);
    try
    {
        MrcRingSchedule(2, 2, ~uint64_t(0), 1, 0); // 2^63 passes of 2 steps
        ADD_FAILURE() << "2^64 - 1 B in passes of 2 B accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("into 18446744073709551615 or more WRITEs"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(MrcRingSchedule(2, 2, 10, 0, 0).GetPosition(2), std::out_of_range);
}
