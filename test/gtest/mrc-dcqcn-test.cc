/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * MrcDcqcn's clocks around MrcDcqcnRateState, 100 Gb/s, ConnectX defaults (g = 5/1024, alpha
 * period 1 us, at most one cut per 4 us, rate-increase timer 300 us, F = 1): the limiter starts
 * at the first CNP; the CNPs of a decrease interval make one cut; alpha is exact on its 1 us
 * grid without an event per period; the increase timer runs only while the rate is below line
 * rate.
 */

#include "ns3/mrc-dcqcn.h"
#include "ns3/simulator.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{
/// A DCQCN at 100 Gb/s; the simulator is destroyed afterwards.
struct Fixture
{
    Ptr<MrcDcqcn> cc = CreateObject<MrcDcqcn>();

    Fixture()
    {
        cc->Init(4096, 4234, DataRate("100Gbps"), MicroSeconds(10));
    }

    ~Fixture()
    {
        cc->Dispose();
        Simulator::Destroy();
    }

    /**
     * A CNP at an absolute time.
     * \param at when
     */
    void CnpAt(Time at)
    {
        Simulator::Schedule(at - Simulator::Now(), [this]() {
            cc->OnCongestionNotification(Simulator::Now());
        });
    }

    /**
     * Run until an absolute time.
     * \param at when
     */
    void RunUntil(Time at)
    {
        Simulator::Stop(at - Simulator::Now());
        Simulator::Run();
    }
};

constexpr double kG = 5.0 / 1024; //!< ConnectX's g
} // namespace

TEST(MrcDcqcn, IdleAtLineRateUntilTheFirstCnp)
{
    Fixture f;
    EXPECT_EQ(f.cc->GetLineRate(), 100e9);
    EXPECT_FALSE(f.cc->IsLimited());
    EXPECT_FALSE(f.cc->GetPacingRate().has_value()) << "no pacing at line rate";
    EXPECT_EQ(f.cc->GetCnpInterval(), MicroSeconds(4));
    EXPECT_EQ(f.cc->GetCwnd(), MrcDcqcn::kNoWindow) << "no byte window by default";
    f.cc->OnDataSent(Seconds(0), 50'000'000);
    EXPECT_EQ(f.cc->GetRate(), 100e9);
}

TEST(MrcDcqcn, FirstCnpHalvesAndPaces)
{
    Fixture f;
    f.cc->OnCongestionNotification(Seconds(0));
    EXPECT_DOUBLE_EQ(f.cc->GetRate(), 50e9);
    EXPECT_DOUBLE_EQ(f.cc->GetTargetRate(), 100e9);
    EXPECT_DOUBLE_EQ(f.cc->GetAlpha(), 1.0);
    ASSERT_TRUE(f.cc->GetPacingRate().has_value());
    EXPECT_EQ(f.cc->GetPacingRate()->GetBitRate(), 50'000'000'000u);
    // One increase-timer stage (fast recovery) at 300 us; alpha: the first 1 us period saw the
    // CNP (alpha stays 1), the 299 after it decayed.
    f.RunUntil(MicroSeconds(301));
    EXPECT_DOUBLE_EQ(f.cc->GetRate(), 75e9);
    EXPECT_NEAR(f.cc->GetAlpha(), std::pow(1 - kG, 300), 1e-12);
    f.cc->OnDataSent(Simulator::Now(), 10'000'000); // no byte counter by default
    EXPECT_DOUBLE_EQ(f.cc->GetRate(), 75e9);
}

TEST(MrcDcqcn, CnpsOfADecreaseIntervalMakeOneCut)
{
    Fixture f;
    for (uint32_t us : {0, 1, 2, 3})
    {
        f.CnpAt(MicroSeconds(us));
    }
    f.RunUntil(MicroSeconds(3) + NanoSeconds(500));
    EXPECT_DOUBLE_EQ(f.cc->GetRate(), 50e9) << "one cut at the first CNP, the next ones wait";
    f.RunUntil(MicroSeconds(4) + NanoSeconds(1));
    // At 4 us the three CNPs make one cut; every 1 us period had a CNP: alpha still 1.
    EXPECT_DOUBLE_EQ(f.cc->GetRate(), 25e9);
    EXPECT_DOUBLE_EQ(f.cc->GetTargetRate(), 100e9) << "no timer stage: the target stays";
    f.RunUntil(MicroSeconds(20));
    EXPECT_DOUBLE_EQ(f.cc->GetRate(), 25e9) << "no CNP since: no cut";
}

TEST(MrcDcqcn, AlphaIsExactOnItsGrid)
{
    Fixture f;
    f.CnpAt(Time(0));
    f.CnpAt(MicroSeconds(40) + NanoSeconds(500));
    f.RunUntil(MicroSeconds(40) + NanoSeconds(900));
    // 40 periods ended before the second CNP: the first with a CNP (alpha 1), 39 without.
    const double alpha = std::pow(1 - kG, 39);
    EXPECT_NEAR(f.cc->GetAlpha(), alpha, 1e-12);
    EXPECT_NEAR(f.cc->GetRate(), 50e9 * (1 - alpha / 2), 1.0);
    // The period of the second CNP ends at 41 us: alpha goes up by g, then decays.
    f.RunUntil(MicroSeconds(43) + NanoSeconds(500));
    EXPECT_NEAR(f.cc->GetAlpha(), ((1 - kG) * alpha + kG) * std::pow(1 - kG, 2), 1e-12);
}

TEST(MrcDcqcn, RecoversThenStopsItsTimers)
{
    Fixture f;
    f.cc->OnCongestionNotification(Seconds(0));
    Simulator::Run(); // ends by itself: the increase timer stops at line rate
    EXPECT_FALSE(f.cc->IsLimited());
    EXPECT_EQ(f.cc->GetRate(), 100e9);
    const Time idle = Simulator::Now();
    EXPECT_GT(idle, MicroSeconds(300 * 10));
    EXPECT_LT(idle, MilliSeconds(20));
    EXPECT_EQ(idle.GetNanoSeconds() % 300000, 0) << "on the 300 us grid";
}
