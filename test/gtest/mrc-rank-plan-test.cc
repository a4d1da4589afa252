/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-rank-plan.h"

#include <gtest/gtest.h>
#include <set>
#include <stdexcept>

using namespace ns3;

TEST(MrcRankPlan, OneRankPutsEveryNodeOnSystemZero)
{
    const MrcClosSpec spec = MrcClosSpec::FatTree(4);
    const MrcRankPlan plan(spec, 1);
    for (uint32_t h = 0; h < spec.GetHostCount(); ++h)
    {
        EXPECT_EQ(plan.OfHost(h), 0u);
    }
    for (uint32_t i = 0; i < spec.t2Count; ++i)
    {
        EXPECT_EQ(plan.OfSwitch(MrcSwitchTier::T2, i), 0u);
    }
}

TEST(MrcRankPlan, FatTreeKeepsWholePodsAndHostsWithTheirT0)
{
    // k = 4: 4 pods of 2 T0s and 2 T1s, 2 hosts per T0, 4 T2s.
    const MrcClosSpec spec = MrcClosSpec::FatTree(4);
    const MrcRankPlan plan(spec, 2);
    for (uint32_t t = 0; t < spec.GetT0Count(); ++t)
    {
        EXPECT_EQ(plan.OfSwitch(MrcSwitchTier::T0, t), t < 4 ? 0u : 1u) << "T0 " << t;
    }
    for (uint32_t h = 0; h < spec.GetHostCount(); ++h)
    {
        EXPECT_EQ(plan.OfHost(h), plan.OfSwitch(MrcSwitchTier::T0, h / spec.hostsPerT0));
    }
    for (uint32_t i = 0; i < spec.GetT1Count(); ++i)
    {
        // T1 i is in pod i / 2, with that pod's T0s.
        EXPECT_EQ(plan.OfSwitch(MrcSwitchTier::T1, i), i < 4 ? 0u : 1u) << "T1 " << i;
    }
    EXPECT_EQ(plan.OfSwitch(MrcSwitchTier::T2, 0), 0u);
    EXPECT_EQ(plan.OfSwitch(MrcSwitchTier::T2, 1), 1u);
    EXPECT_EQ(plan.OfSwitch(MrcSwitchTier::T2, 3), 1u);
}

TEST(MrcRankPlan, TwoTierSpreadsTheSpinesOverTheRanks)
{
    // 4 T0 x 4 hosts, 4 T1s, on 2 and on 4 ranks.
    const MrcClosSpec spec = MrcClosSpec::TwoTier(1, 4, 4, 4);
    const MrcRankPlan two(spec, 2);
    EXPECT_EQ(two.OfSwitch(MrcSwitchTier::T1, 0), 0u);
    EXPECT_EQ(two.OfSwitch(MrcSwitchTier::T1, 1), 0u);
    EXPECT_EQ(two.OfSwitch(MrcSwitchTier::T1, 2), 1u);
    EXPECT_EQ(two.OfSwitch(MrcSwitchTier::T1, 3), 1u);
    const MrcRankPlan four(spec, 4);
    std::set<uint32_t> spineRanks;
    for (uint32_t i = 0; i < 4; ++i)
    {
        spineRanks.insert(four.OfSwitch(MrcSwitchTier::T1, i));
        EXPECT_EQ(four.OfHost(4 * i + 3), i);
    }
    EXPECT_EQ(spineRanks.size(), 4u);
}

TEST(MrcRankPlan, UnevenSplitsUseEveryRank)
{
    // 8 T0s on 3 ranks: blocks of 3, 3 and 2.
    const MrcClosSpec spec = MrcClosSpec::FatTree(4);
    const MrcRankPlan plan(spec, 3);
    std::multiset<uint32_t> t0s;
    for (uint32_t t = 0; t < spec.GetT0Count(); ++t)
    {
        t0s.insert(plan.OfSwitch(MrcSwitchTier::T0, t));
        if (t > 0)
        {
            EXPECT_GE(plan.OfSwitch(MrcSwitchTier::T0, t), plan.OfSwitch(MrcSwitchTier::T0, t - 1));
        }
    }
    EXPECT_EQ(t0s.count(0), 3u);
    EXPECT_EQ(t0s.count(1), 3u);
    EXPECT_EQ(t0s.count(2), 2u);
}

TEST(MrcRankPlan, RanksOutsideOneToTheT0CountAreRefusedByName)
{
    const MrcClosSpec spec = MrcClosSpec::FatTree(4);
    EXPECT_THROW(MrcRankPlan(spec, 0), std::invalid_argument);
    try
    {
        MrcRankPlan(spec, 9);
        FAIL() << "9 ranks for 8 T0s accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("ranks (=9) must be in 1..8"), std::string::npos)
            << e.what();
    }
    EXPECT_NO_THROW(MrcRankPlan(spec, 8));
}
