/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-ring-collective.h"

#include <gtest/gtest.h>
#include <set>

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
