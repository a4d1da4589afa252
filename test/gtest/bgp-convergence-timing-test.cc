/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * BGP reconvergence timing against hand-computed values: which detector sees which failure,
 * detection and restore delays, per-hop cost, FIB batches, the closed form, every range check.
 */

#include "ns3/bgp-convergence-timing.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{
/**
 * \param t a timing
 * \return the message Validate() throws, or "" if it accepts
 */
std::string
Error(const BgpConvergenceTiming& t)
{
    try
    {
        t.Validate();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}
} // namespace

TEST(BgpConvergenceTiming, DefaultsAndTheirSources)
{
    const BgpConvergenceTiming t;
    EXPECT_NO_THROW(t.Validate());
    EXPECT_EQ(t.carrierDetectionDelay, MilliSeconds(2));
    EXPECT_FALSE(t.bfdEnabled);
    EXPECT_EQ(t.GetBfdDetectionTime(), MilliSeconds(900)); // FRR bfdd: 300 ms x 3
    EXPECT_FALSE(t.holdTimerDetection);
    EXPECT_EQ(t.holdTime, Seconds(9));
    EXPECT_EQ(t.GetHopDelay(), MilliSeconds(1)); // MRAI 0 in data centres
    // The public switch test: 0.65 s for 500 routes, 6.5 s for 5000.
    EXPECT_EQ(t.GetFibProgrammingTime(500), MilliSeconds(650));
    EXPECT_EQ(t.GetFibProgrammingTime(5000), MilliSeconds(6500));
    EXPECT_EQ(t.GetFibProgrammingTime(0), Time(0));
}

TEST(BgpConvergenceTiming, CarrierLossIsSeenByTheCarrier)
{
    BgpConvergenceTiming t;
    EXPECT_EQ(t.GetDetector(LinkFailureKind::CARRIER_LOSS), FailureDetector::CARRIER);
    EXPECT_EQ(t.GetDetectionDelay(FailureDetector::CARRIER), MilliSeconds(2));
    // BFD enabled but slower than the carrier: the carrier still wins.
    t.bfdEnabled = true;
    EXPECT_EQ(t.GetDetector(LinkFailureKind::CARRIER_LOSS), FailureDetector::CARRIER);
    // A debounced carrier slower than BFD: BFD wins.
    t.carrierDetectionDelay = Seconds(2);
    EXPECT_EQ(t.GetDetector(LinkFailureKind::CARRIER_LOSS), FailureDetector::BFD);
}

TEST(BgpConvergenceTiming, BlackholeNeedsBfdOrTheHoldTimer)
{
    BgpConvergenceTiming t;
    EXPECT_EQ(t.GetDetector(LinkFailureKind::BLACKHOLE), FailureDetector::NONE);
    EXPECT_THROW(t.GetDetectionDelay(FailureDetector::NONE), std::invalid_argument);
    t.holdTimerDetection = true;
    EXPECT_EQ(t.GetDetector(LinkFailureKind::BLACKHOLE), FailureDetector::HOLD_TIMER);
    EXPECT_EQ(t.GetDetectionDelay(FailureDetector::HOLD_TIMER), Seconds(9));
    t.holdTime = Seconds(0); // no hold timer negotiated: it never fires
    EXPECT_EQ(t.GetDetector(LinkFailureKind::BLACKHOLE), FailureDetector::NONE);
    t.holdTime = Seconds(90);
    t.bfdEnabled = true;
    t.bfdInterval = MilliSeconds(50);
    EXPECT_EQ(t.GetDetector(LinkFailureKind::BLACKHOLE), FailureDetector::BFD);
    EXPECT_EQ(t.GetDetectionDelay(FailureDetector::BFD), MilliSeconds(150));
    t.bfdDetectMultiplier = 5;
    EXPECT_EQ(t.GetDetectionDelay(FailureDetector::BFD), MilliSeconds(250));
}

TEST(BgpConvergenceTiming, RestoreDelays)
{
    BgpConvergenceTiming t;
    t.sessionEstablishDelay = MilliSeconds(7);
    t.bfdInterval = MilliSeconds(50);
    EXPECT_EQ(t.GetRestoreDelay(FailureDetector::CARRIER), MilliSeconds(9));
    EXPECT_EQ(t.GetRestoreDelay(FailureDetector::BFD), MilliSeconds(157));
    EXPECT_EQ(t.GetRestoreDelay(FailureDetector::HOLD_TIMER), MilliSeconds(7));
    EXPECT_THROW(t.GetRestoreDelay(FailureDetector::NONE), std::invalid_argument);
}

TEST(BgpConvergenceTiming, HopsAndFibBatches)
{
    BgpConvergenceTiming t;
    t.perHopDelay = MilliSeconds(5);
    t.mrai = Seconds(30);
    t.fibBaseTime = MilliSeconds(10);
    EXPECT_EQ(t.GetHopDelay(), MilliSeconds(30005));
    EXPECT_EQ(t.GetFibProgrammingTime(7), MicroSeconds(19100));
    // Idle switch: starts at once. Busy switch: after its previous batch.
    EXPECT_EQ(t.GetFibBatchEnd(MilliSeconds(100), MilliSeconds(50), 1), MicroSeconds(111300));
    EXPECT_EQ(t.GetFibBatchEnd(MilliSeconds(100), MilliSeconds(120), 2), MicroSeconds(132600));
    // Closed form: 2 ms + 3 x (5 ms + 30 s) + 10 ms + 2 x 1.3 ms.
    t.mrai = Seconds(0);
    EXPECT_EQ(t.GetSwitchConvergenceTime(FailureDetector::CARRIER, 3, 2), MicroSeconds(29600));
    t.bfdEnabled = true;
    EXPECT_EQ(t.GetSwitchConvergenceTime(FailureDetector::BFD, 0, 7), MicroSeconds(919100));
}

TEST(BgpConvergenceTiming, EveryRangeIsChecked)
{
    BgpConvergenceTiming t;
    t.perHopDelay = MilliSeconds(-1);
    EXPECT_NE(Error(t).find("BgpReconvergenceModel: PerHopDelay (=-1"), std::string::npos)
        << Error(t);
    EXPECT_NE(Error(t).find("must be >= 0"), std::string::npos);
    t = BgpConvergenceTiming();
    t.carrierDetectionDelay = NanoSeconds(-1);
    EXPECT_NE(Error(t).find("CarrierDetectionDelay"), std::string::npos);
    t = BgpConvergenceTiming();
    t.bfdInterval = Seconds(0);
    EXPECT_NE(Error(t).find("BfdInterval (=+0ms) must be > 0"), std::string::npos) << Error(t);
    t = BgpConvergenceTiming();
    t.bfdDetectMultiplier = 0;
    EXPECT_NE(Error(t).find("BfdDetectMultiplier (=0) must be in 1..255"), std::string::npos);
    t.bfdDetectMultiplier = 256;
    EXPECT_NE(Error(t).find("BfdDetectMultiplier (=256)"), std::string::npos);
    t = BgpConvergenceTiming();
    t.holdTime = Seconds(2);
    EXPECT_NE(Error(t).find("HoldTime (=+2000ms) must be 0 (no hold timer) or in 3..65535 s"),
              std::string::npos)
        << Error(t);
    t.holdTime = Seconds(65536);
    EXPECT_NE(Error(t).find("HoldTime"), std::string::npos);
    t.holdTime = Seconds(0);
    EXPECT_EQ(Error(t), "");
    t.holdTime = Seconds(3);
    EXPECT_EQ(Error(t), "");
    for (auto field : {&BgpConvergenceTiming::sessionEstablishDelay,
                       &BgpConvergenceTiming::mrai,
                       &BgpConvergenceTiming::fibBaseTime,
                       &BgpConvergenceTiming::fibPerRouteTime})
    {
        t = BgpConvergenceTiming();
        t.*field = MicroSeconds(-5);
        EXPECT_NE(Error(t).find("must be >= 0"), std::string::npos);
    }
    t = BgpConvergenceTiming();
    t.mrai = Seconds(-1);
    EXPECT_NE(Error(t).find("Mrai"), std::string::npos);
    t = BgpConvergenceTiming();
    t.fibPerRouteTime = Seconds(-1);
    EXPECT_NE(Error(t).find("FibPerRouteTime"), std::string::npos);
}
