/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * DCQCN's reaction point against hand-computed values, 100 Gb/s line rate: the ConnectX
 * parameters (the defaults: g = 5/1024, no byte counter, F = 1, R_AI = 5 Mb/s, R_HAI = 50
 * Mb/s, min rate 1 Mb/s, the target clamped only after a timer stage) and the DCQCN paper's
 * (g = 1/256, B = 10 MB, F = 5, R_AI = 40 Mb/s, R_HAI = 400 Mb/s, min rate 100 Mb/s, the target
 * clamped at every cut).
 */

#include "ns3/mrc-dcqcn-rate-state.h"

#include <cmath>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace ns3;

TEST(MrcDcqcnRateState, StartsAtLineRateWithAlphaOne)
{
    MrcDcqcnRateState s{MrcDcqcnRateState::Params{}};
    EXPECT_DOUBLE_EQ(s.GetRate(), 100e9);
    EXPECT_DOUBLE_EQ(s.GetTargetRate(), 100e9);
    EXPECT_DOUBLE_EQ(s.GetAlpha(), 1.0);
    EXPECT_TRUE(s.IsAtLineRate());
}

TEST(MrcDcqcnRateState, PaperCutClampsTheTargetEveryTime)
{
    MrcDcqcnRateState s{MrcDcqcnRateState::Params::Paper(100e9)};
    s.Cut(); // alpha 1: Rc halves, Rt = the rate before the cut
    s.UpdateAlpha(true);
    EXPECT_DOUBLE_EQ(s.GetRate(), 50e9);
    EXPECT_DOUBLE_EQ(s.GetTargetRate(), 100e9);
    EXPECT_DOUBLE_EQ(s.GetAlpha(), 1.0); // (1 - g) + g
    s.UpdateAlpha(false);                // alpha = 255/256
    EXPECT_DOUBLE_EQ(s.GetAlpha(), 255.0 / 256);
    s.Cut(); // Rt = 50e9, Rc = 50e9 (1 - 255/512)
    EXPECT_DOUBLE_EQ(s.GetTargetRate(), 50e9);
    EXPECT_DOUBLE_EQ(s.GetRate(), 50e9 * (1 - 255.0 / 512));
    s.DecayAlpha(3);
    EXPECT_DOUBLE_EQ(s.GetAlpha(), std::pow(255.0 / 256, 4));
    EXPECT_FALSE(s.IsAtLineRate());
}

TEST(MrcDcqcnRateState, ConnectXKeepsTheTargetAcrossBackToBackCuts)
{
    MrcDcqcnRateState s{MrcDcqcnRateState::Params{}};
    s.Cut();
    s.Cut();
    s.Cut(); // alpha stays 1: 100 -> 50 -> 25 -> 12.5 Gb/s, the target still line rate
    EXPECT_DOUBLE_EQ(s.GetRate(), 12.5e9);
    EXPECT_DOUBLE_EQ(s.GetTargetRate(), 100e9);
    s.OnIncreaseTimer(); // stage 0 < F = 1: fast recovery towards 100 Gb/s
    EXPECT_DOUBLE_EQ(s.GetRate(), 56.25e9);
    s.Cut(); // after a timer stage: the target follows the current rate
    EXPECT_DOUBLE_EQ(s.GetTargetRate(), 56.25e9);
    EXPECT_DOUBLE_EQ(s.GetRate(), 28.125e9);
}

TEST(MrcDcqcnRateState, ConnectXTimerStagesFastThenAdditiveThenHyper)
{
    MrcDcqcnRateState s{MrcDcqcnRateState::Params{}};
    s.Cut();             // Rc 50e9, Rt 100e9
    s.OnIncreaseTimer(); // stage 0: fast recovery
    EXPECT_DOUBLE_EQ(s.GetRate(), 75e9);
    s.Cut(); // Rt = 75e9 (a timer stage passed), Rc = 37.5e9
    double rt = 75e9;
    double rc = 37.5e9;
    s.OnIncreaseTimer(); // stage 0: fast recovery
    rc = (rt + rc) / 2;
    EXPECT_DOUBLE_EQ(s.GetRate(), rc);
    s.OnIncreaseTimer(); // stage 1 = F: additive
    rt += 5e6;
    rc = (rt + rc) / 2;
    EXPECT_DOUBLE_EQ(s.GetTargetRate(), rt);
    EXPECT_DOUBLE_EQ(s.GetRate(), rc);
    for (int i = 0; i < 3; ++i) // stages 2..4 > F: hyper, a constant R_HAI each
    {
        s.OnIncreaseTimer();
        rt += 50e6;
        rc = (rt + rc) / 2;
        EXPECT_DOUBLE_EQ(s.GetTargetRate(), rt) << "stage " << i + 2;
        EXPECT_DOUBLE_EQ(s.GetRate(), rc);
    }
    s.OnBytesSent(1'000'000'000); // no byte counter: nothing
    EXPECT_DOUBLE_EQ(s.GetRate(), rc);
    EXPECT_EQ(s.GetByteStage(), 0u);
}

TEST(MrcDcqcnRateState, PaperFastRecoveryThenAdditiveThenHyperIncrease)
{
    MrcDcqcnRateState s{MrcDcqcnRateState::Params::Paper(100e9)};
    s.Cut();             // Rc 50e9, Rt 100e9
    s.OnIncreaseTimer(); // T = 1 < F: fast recovery, Rc = (100 + 50) / 2
    EXPECT_DOUBLE_EQ(s.GetRate(), 75e9);
    EXPECT_DOUBLE_EQ(s.GetTargetRate(), 100e9);
    // A second cut from 75 Gb/s: Rt = 75e9, Rc = 37.5e9 (alpha is still 1).
    s.Cut();
    ASSERT_DOUBLE_EQ(s.GetRate(), 37.5e9);
    double rc = 37.5e9;
    double rt = 75e9;
    for (uint32_t t = 1; t <= 4; ++t) // fast recovery stages 1..4
    {
        s.OnIncreaseTimer();
        rc = (rt + rc) / 2;
        EXPECT_DOUBLE_EQ(s.GetRate(), rc) << "stage " << t;
        EXPECT_DOUBLE_EQ(s.GetTargetRate(), rt);
    }
    s.OnIncreaseTimer(); // T = 5, BC = 0: additive increase
    rt += 40e6;
    rc = (rt + rc) / 2;
    EXPECT_EQ(s.GetTimerStage(), 5u);
    EXPECT_DOUBLE_EQ(s.GetTargetRate(), rt);
    EXPECT_DOUBLE_EQ(s.GetRate(), rc);
    s.OnIncreaseTimer(); // T = 6, BC = 0: still additive (min stage not above F)
    rt += 40e6;
    rc = (rt + rc) / 2;
    EXPECT_DOUBLE_EQ(s.GetTargetRate(), rt);
    // Six byte-counter stages: the first five are additive (BC <= F), the sixth hyper.
    for (uint32_t bc = 1; bc <= 5; ++bc)
    {
        s.OnBytesSent(10'000'000);
        rt += 40e6;
        rc = (rt + rc) / 2;
        EXPECT_EQ(s.GetByteStage(), bc);
        EXPECT_DOUBLE_EQ(s.GetTargetRate(), rt) << "byte stage " << bc;
    }
    s.OnBytesSent(9'999'999); // not a full stage
    EXPECT_EQ(s.GetByteStage(), 5u);
    s.OnBytesSent(1); // BC = 6, T = 6: hyper increase by (6 - 5) x R_HAI
    rt += 400e6;
    rc = (rt + rc) / 2;
    EXPECT_DOUBLE_EQ(s.GetTargetRate(), rt);
    EXPECT_DOUBLE_EQ(s.GetRate(), rc);
}

TEST(MrcDcqcnRateState, RatesStayWithinMinAndLineRate)
{
    for (const auto& p : {MrcDcqcnRateState::Params{}, MrcDcqcnRateState::Params::Paper(100e9)})
    {
        MrcDcqcnRateState s{p};
        for (int i = 0; i < 100; ++i)
        {
            s.Cut();
        }
        EXPECT_DOUBLE_EQ(s.GetRate(), p.minRate);
        for (int i = 0; i < 4000; ++i)
        {
            s.OnIncreaseTimer();
            s.OnBytesSent(10'000'000);
        }
        EXPECT_DOUBLE_EQ(s.GetRate(), 100e9);
        EXPECT_DOUBLE_EQ(s.GetTargetRate(), 100e9);
        EXPECT_TRUE(s.IsAtLineRate());
    }
}

TEST(MrcDcqcnRateState, InvalidParametersNameTheField)
{
    auto expectError = [](MrcDcqcnRateState::Params p, const std::string& field) {
        try
        {
            MrcDcqcnRateState s(p);
            FAIL() << "accepted an invalid " << field;
        }
        catch (const std::invalid_argument& e)
        {
            EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
        }
    };
    MrcDcqcnRateState::Params p;
    p.g = 0;
    expectError(p, "G");
    p = {};
    p.minRate = 200e9;
    expectError(p, "MinRate");
    p = {};
    p.additiveIncrease = -1;
    expectError(p, "RateAi");
}
