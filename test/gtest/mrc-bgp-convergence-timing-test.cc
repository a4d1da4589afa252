/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * BGP reconvergence timing against hand-computed values: which detector sees which failure,
 * detection and restore delays, per-hop cost, FIB batches, the closed form, every range check.
 */

#include "ns3/mrc-bgp-convergence-timing.h"

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
Error(const MrcBgpConvergenceTiming& t)
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

TEST(MrcBgpConvergenceTiming, DefaultsAndTheirSources)
{
    const MrcBgpConvergenceTiming t;
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

TEST(MrcBgpConvergenceTiming, CarrierLossIsSeenByTheCarrier)
{
    MrcBgpConvergenceTiming t;
    EXPECT_EQ(t.GetDetector(MrcLinkFailureKind::CARRIER_LOSS), MrcFailureDetector::CARRIER);
    EXPECT_EQ(t.GetDetectionDelay(MrcFailureDetector::CARRIER), MilliSeconds(2));
    // BFD enabled but slower than the carrier: the carrier still wins.
    t.bfdEnabled = true;
    EXPECT_EQ(t.GetDetector(MrcLinkFailureKind::CARRIER_LOSS), MrcFailureDetector::CARRIER);
    // A debounced carrier slower than BFD: BFD wins.
    t.carrierDetectionDelay = Seconds(2);
    EXPECT_EQ(t.GetDetector(MrcLinkFailureKind::CARRIER_LOSS), MrcFailureDetector::BFD);
}

TEST(MrcBgpConvergenceTiming, BlackholeNeedsBfdOrTheHoldTimer)
{
    MrcBgpConvergenceTiming t;
    EXPECT_EQ(t.GetDetector(MrcLinkFailureKind::BLACKHOLE), MrcFailureDetector::NONE);
    EXPECT_THROW(t.GetDetectionDelay(MrcFailureDetector::NONE), std::invalid_argument);
    t.holdTimerDetection = true;
    EXPECT_EQ(t.GetDetector(MrcLinkFailureKind::BLACKHOLE), MrcFailureDetector::HOLD_TIMER);
    EXPECT_EQ(t.GetDetectionDelay(MrcFailureDetector::HOLD_TIMER), Seconds(9));
    t.holdTime = Seconds(0); // no hold timer negotiated: it never fires
    EXPECT_EQ(t.GetDetector(MrcLinkFailureKind::BLACKHOLE), MrcFailureDetector::NONE);
    t.holdTime = Seconds(90);
    t.bfdEnabled = true;
    t.bfdInterval = MilliSeconds(50);
    EXPECT_EQ(t.GetDetector(MrcLinkFailureKind::BLACKHOLE), MrcFailureDetector::BFD);
    EXPECT_EQ(t.GetDetectionDelay(MrcFailureDetector::BFD), MilliSeconds(150));
    t.bfdDetectMultiplier = 5;
    EXPECT_EQ(t.GetDetectionDelay(MrcFailureDetector::BFD), MilliSeconds(250));
}

TEST(MrcBgpConvergenceTiming, RestoreDelays)
{
    MrcBgpConvergenceTiming t;
    t.sessionEstablishDelay = MilliSeconds(7);
    t.bfdInterval = MilliSeconds(50);
    EXPECT_EQ(t.GetRestoreDelay(MrcFailureDetector::CARRIER), MilliSeconds(9));
    EXPECT_EQ(t.GetRestoreDelay(MrcFailureDetector::BFD), MilliSeconds(157));
    EXPECT_EQ(t.GetRestoreDelay(MrcFailureDetector::HOLD_TIMER), MilliSeconds(7));
    EXPECT_THROW(t.GetRestoreDelay(MrcFailureDetector::NONE), std::invalid_argument);
}

TEST(MrcBgpConvergenceTiming, HopsAndFibBatches)
{
    MrcBgpConvergenceTiming t;
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
    EXPECT_EQ(t.GetSwitchConvergenceTime(MrcFailureDetector::CARRIER, 3, 2), MicroSeconds(29600));
    t.bfdEnabled = true;
    EXPECT_EQ(t.GetSwitchConvergenceTime(MrcFailureDetector::BFD, 0, 7), MicroSeconds(919100));
}

TEST(MrcBgpConvergenceTiming, EveryRangeIsChecked)
{
    MrcBgpConvergenceTiming t;
    t.perHopDelay = MilliSeconds(-1);
    EXPECT_NE(Error(t).find("MrcBgpReconvergenceModel: PerHopDelay (=-1"), std::string::npos)
        << Error(t);
    EXPECT_NE(Error(t).find("must be >= 0"), std::string::npos);
    t = MrcBgpConvergenceTiming();
    t.carrierDetectionDelay = NanoSeconds(-1);
    EXPECT_NE(Error(t).find("CarrierDetectionDelay"), std::string::npos);
    t = MrcBgpConvergenceTiming();
    t.bfdInterval = Seconds(0);
    EXPECT_NE(Error(t).find("BfdInterval (=+0ms) must be > 0"), std::string::npos) << Error(t);
    t = MrcBgpConvergenceTiming();
    t.bfdDetectMultiplier = 0;
    EXPECT_NE(Error(t).find("BfdDetectMultiplier (=0) must be in 1..255"), std::string::npos);
    t.bfdDetectMultiplier = 256;
    EXPECT_NE(Error(t).find("BfdDetectMultiplier (=256)"), std::string::npos);
    t = MrcBgpConvergenceTiming();
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
    for (auto field : {&MrcBgpConvergenceTiming::sessionEstablishDelay,
                       &MrcBgpConvergenceTiming::mrai,
                       &MrcBgpConvergenceTiming::fibBaseTime,
                       &MrcBgpConvergenceTiming::fibPerRouteTime})
    {
        t = MrcBgpConvergenceTiming();
        t.*field = MicroSeconds(-5);
        EXPECT_NE(Error(t).find("must be >= 0"), std::string::npos);
    }
    t = MrcBgpConvergenceTiming();
    t.mrai = Seconds(-1);
    EXPECT_NE(Error(t).find("Mrai"), std::string::npos);
    t = MrcBgpConvergenceTiming();
    t.fibPerRouteTime = Seconds(-1);
    EXPECT_NE(Error(t).find("FibPerRouteTime"), std::string::npos);
}
