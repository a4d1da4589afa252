/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * MrcDcqcn's clocks around DcqcnRateState: the limiter starts at the first CNP, its timers run
 * only while the rate is below line rate, and the alpha decays missed while idle are applied at
 * the next CNP as if the alpha timer had kept running. 100 Gb/s, paper defaults (g = 1/256,
 * K = T = 55 us).
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
};
} // namespace

TEST(MrcDcqcn, IdleAtLineRateUntilTheFirstCnp)
{
    Fixture f;
    EXPECT_EQ(f.cc->GetLineRate(), 100e9);
    EXPECT_FALSE(f.cc->IsLimited());
    EXPECT_FALSE(f.cc->GetPacingRate().has_value()) << "no pacing at line rate";
    EXPECT_EQ(f.cc->GetCnpInterval(), MicroSeconds(50));
    EXPECT_EQ(f.cc->GetCwnd(), MrcDcqcn::kNoWindow) << "no byte window by default";
    f.cc->OnDataSent(Seconds(0), 50'000'000); // the byte counter only counts while limited
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
    // One increase-timer stage (fast recovery) at 55 us, one alpha decay.
    Simulator::Stop(MicroSeconds(56));
    Simulator::Run();
    EXPECT_DOUBLE_EQ(f.cc->GetRate(), 75e9);
    EXPECT_DOUBLE_EQ(f.cc->GetAlpha(), 255.0 / 256);
    // A byte-counter stage too: 10 MB sent.
    f.cc->OnDataSent(Simulator::Now(), 10'000'000);
    EXPECT_DOUBLE_EQ(f.cc->GetRate(), 87.5e9);
}

TEST(MrcDcqcn, RecoversThenStopsItsTimers)
{
    Fixture f;
    f.cc->OnCongestionNotification(Seconds(0));
    Simulator::Run(); // ends by itself: the timers stop at line rate
    EXPECT_FALSE(f.cc->IsLimited());
    EXPECT_EQ(f.cc->GetRate(), 100e9);
    const Time idle = Simulator::Now();
    EXPECT_GT(idle, MicroSeconds(55 * 10));
    EXPECT_LT(idle, MilliSeconds(5));
    EXPECT_EQ(idle.GetNanoSeconds() % 55000, 0) << "on the 55 us grid";
}

TEST(MrcDcqcn, AlphaDecaysMissedWhileIdleApplyAtTheNextCnp)
{
    Fixture f;
    f.cc->OnCongestionNotification(Seconds(0));
    Simulator::Run();
    // A CNP 10.0001 ms after the first: the alpha timer, had it kept running from the first
    // CNP, would have ticked floor(10.0001 ms / 55 us) = 181 times without a CNP.
    const Time later = MicroSeconds(10000) + NanoSeconds(100);
    const double alpha = std::pow(255.0 / 256, 181);
    Simulator::Schedule(later - Simulator::Now(), [&f]() {
        f.cc->OnCongestionNotification(Simulator::Now());
    });
    Simulator::Stop(later - Simulator::Now());
    Simulator::Run();
    EXPECT_NEAR(f.cc->GetRate(), 100e9 * (1 - alpha / 2), 1.0);
    EXPECT_NEAR(f.cc->GetAlpha(), (1 - 1.0 / 256) * alpha + 1.0 / 256, 1e-12);
}
