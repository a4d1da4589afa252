/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-completion-stats.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

TEST(MrcCompletionStats, NearestRankPercentiles)
{
    std::vector<Time> v;
    for (int i = 100; i >= 1; --i)
    {
        v.push_back(MicroSeconds(i));
    }
    MrcCompletionStats s(v);
    EXPECT_EQ(s.GetCount(), 100u);
    EXPECT_EQ(s.GetMin(), MicroSeconds(1));
    EXPECT_EQ(s.GetMedian(), MicroSeconds(50));
    EXPECT_EQ(s.GetPercentile(99), MicroSeconds(99));
    EXPECT_EQ(s.GetPercentile(99.5), MicroSeconds(100));
    EXPECT_EQ(s.GetPercentile(100), MicroSeconds(100));
    EXPECT_EQ(s.GetPercentile(0.1), MicroSeconds(1));
    EXPECT_EQ(s.GetMax(), MicroSeconds(100));
    EXPECT_EQ(s.GetMean(), NanoSeconds(50500));
}

TEST(MrcCompletionStats, SmallSets)
{
    MrcCompletionStats one({MicroSeconds(7)});
    EXPECT_EQ(one.GetPercentile(1), MicroSeconds(7));
    EXPECT_EQ(one.GetPercentile(100), MicroSeconds(7));
    MrcCompletionStats three({MicroSeconds(3), MicroSeconds(1), MicroSeconds(2)});
    EXPECT_EQ(three.GetMedian(), MicroSeconds(2));
    EXPECT_EQ(three.GetPercentile(99), MicroSeconds(3));
    MrcCompletionStats none({});
    EXPECT_EQ(none.GetCount(), 0u);
    EXPECT_EQ(none.GetMax(), Time(0));
    EXPECT_EQ(none.GetMedian(), Time(0));
}

TEST(MrcCompletionStats, RejectsBadPercentile)
{
    MrcCompletionStats s({MicroSeconds(1)});
    EXPECT_THROW(s.GetPercentile(0), std::invalid_argument);
    EXPECT_THROW(s.GetPercentile(100.1), std::invalid_argument);
    EXPECT_THROW(s.GetPercentile(-5), std::invalid_argument);
}
