/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * NSCC against hand-computed values: MSS 4096, MTU 4224, 100 Gb/s, base RTT 12 us, hence
 * BDP = 150000 B, a = 1, target = 9 us, b = 0.75, alpha = 4 * 4096 * 0.75 / 9 us
 * = 1.36533e9 B/s, fi = 20480 B, eta = 614.4 B, max window = 225000 B.
 */

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/mrc-congestion-ops.h"
#include "ns3/mrc-fixed-window.h"
#include "ns3/mrc-nscc.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{
/// \return an NSCC initialised as in the file comment, with a given initial window
Ptr<MrcNscc>
Make(uint64_t initial, double delayAlpha = 0.0125, bool quickAdapt = true)
{
    Ptr<MrcNscc> cc = CreateObject<MrcNscc>();
    cc->SetAttribute("InitialWindow", UintegerValue(initial));
    cc->SetAttribute("DelayAlpha", DoubleValue(delayAlpha));
    cc->SetAttribute("QuickAdapt", BooleanValue(quickAdapt));
    cc->Init(4096, 4224, DataRate("100Gbps"), MicroSeconds(12));
    return cc;
}
} // namespace

TEST(MrcNscc, DerivedParameters)
{
    Ptr<MrcNscc> cc = Make(0);
    EXPECT_EQ(cc->GetTarget(), MicroSeconds(9));
    EXPECT_NEAR(cc->GetAlpha(), 4 * 4096 * 0.75 / 9e-6, 1);
    EXPECT_DOUBLE_EQ(cc->GetFairIncrease(), 20480);
    EXPECT_NEAR(cc->GetEta(), 614.4, 1e-9);
    EXPECT_NEAR(cc->GetMaxWindow(), 225000, 1e-6);
    EXPECT_EQ(cc->GetCwnd(), 225000u) << "initial window = max window";
}

TEST(MrcNscc, FairIncreaseAboveTarget)
{
    Ptr<MrcNscc> cc = Make(100000);
    // 9 acks of 4096 B with 10 us of queueing (above the 9 us target), 1 us apart: the 9th
    // crosses 8 MTU (33792 B) and applies inc / cwnd = 9 * 20480 * 4096 / 100000.
    for (int i = 1; i <= 8; ++i)
    {
        cc->OnAck(MicroSeconds(i), 4096, MicroSeconds(22), false);
        EXPECT_EQ(cc->GetCwnd(), 100000u) << "ack " << i;
    }
    cc->OnAck(MicroSeconds(9), 4096, MicroSeconds(22), false);
    EXPECT_EQ(cc->GetCwnd(), uint64_t(std::llround(100000 + 9.0 * 20480 * 4096 / 100000)));
}

TEST(MrcNscc, ProportionalIncreaseBelowTarget)
{
    Ptr<MrcNscc> cc = Make(100000);
    // 3 us of queueing: alpha * 4096 * 6 us = 33554432 per ack.
    for (int i = 1; i <= 9; ++i)
    {
        cc->OnAck(MicroSeconds(i), 4096, MicroSeconds(15), false);
    }
    const double alpha = 4 * 4096 * 0.75 / 9e-6;
    EXPECT_EQ(cc->GetCwnd(), uint64_t(std::llround(100000 + 9 * alpha * 4096 * 6e-6 / 100000)));
}

TEST(MrcNscc, MultiplicativeDecreaseOncePerBaseRtt)
{
    Ptr<MrcNscc> cc = Make(100000, 1.0, false); // average = last sample, no quick adapt
    cc->SetAttribute("DecreaseOncePerRtt", BooleanValue(false)); // the UEC reference's gate
    // ECN, 18 us of queueing: cwnd *= max(1 - 0.8 * (18 - 9) / 18, 0.5) = 0.6.
    cc->OnAck(MicroSeconds(1), 100, MicroSeconds(30), true);
    EXPECT_EQ(cc->GetCwnd(), 60000u);
    cc->OnAck(MicroSeconds(5), 100, MicroSeconds(30), true);
    EXPECT_EQ(cc->GetCwnd(), 60000u) << "not twice within a base RTT";
    // 13 us later: decrease again, then the once-per-base-RTT adjustment adds eta.
    cc->OnAck(MicroSeconds(14), 100, MicroSeconds(30), true);
    EXPECT_EQ(cc->GetCwnd(), uint64_t(std::llround(60000 * 0.6 + 614.4)));
    // 40 us of queueing: the factor is floored at 0.5.
    cc->OnAck(MicroSeconds(27), 100, MicroSeconds(52), true);
    EXPECT_EQ(cc->GetCwnd(), uint64_t(std::llround((60000 * 0.6 + 614.4) * 0.5 + 614.4)));
}

TEST(MrcNscc, MultiplicativeDecreaseOncePerRttOfTheMarkedPacket)
{
    Ptr<MrcNscc> cc = Make(100000, 1.0, false); // default gate: the marked packet's RTT
    // ECN, 18 us of queueing (RTT 30 us): cwnd *= 0.6.
    cc->OnAck(MicroSeconds(1), 100, MicroSeconds(30), true);
    EXPECT_EQ(cc->GetCwnd(), 60000u);
    // 13 us later, more than a base RTT but less than the 30 us RTT: no second decrease (the
    // once-per-base-RTT adjustment adds eta).
    cc->OnAck(MicroSeconds(14), 100, MicroSeconds(30), true);
    EXPECT_EQ(cc->GetCwnd(), uint64_t(std::llround(60000 + 614.4)))
        << "the first decrease cannot have shown yet";
    // 31 us after the first: decrease again.
    cc->OnAck(MicroSeconds(32), 100, MicroSeconds(30), true);
    EXPECT_EQ(cc->GetCwnd(), uint64_t(std::llround((60000 + 614.4) * 0.6 + 614.4)));
    // The gate is the RTT of the packet now marked: 22 us (10 us of queueing, factor
    // max(1 - 0.8 x 1 / 10, 0.5) = 0.92). 14 us after the last decrease: hold (plus eta); 23 us
    // after it: decrease.
    const double before = (60000 + 614.4) * 0.6 + 614.4;
    cc->OnAck(MicroSeconds(46), 100, MicroSeconds(22), true);
    EXPECT_EQ(cc->GetCwnd(), uint64_t(std::llround(before + 614.4)));
    cc->OnAck(MicroSeconds(55), 100, MicroSeconds(22), true);
    EXPECT_EQ(cc->GetCwnd(), uint64_t(std::llround((before + 614.4) * 0.92)));
}

TEST(MrcNscc, QuickAdaptWhenTheAverageDelayExplodes)
{
    Ptr<MrcNscc> cc = Make(100000, 1.0);
    cc->OnAck(MicroSeconds(1), 4096, MicroSeconds(13), false); // period ends at 22 us
    cc->OnAck(MicroSeconds(10), 4096, MicroSeconds(13), false);
    // 40 us of queueing > 4 x 9 us: the window becomes what was acked in the period (the
    // acks at 10 us and 23 us; the one that opened the period counted in the previous one).
    cc->OnAck(MicroSeconds(23), 4096, MicroSeconds(52), true);
    EXPECT_EQ(cc->GetCwnd(), 2u * 4096);
}

TEST(MrcNscc, HoldWhenMarkedBelowTarget)
{
    Ptr<MrcNscc> cc = Make(100000, 1.0);
    for (int i = 1; i <= 20; ++i)
    {
        cc->OnAck(MicroSeconds(i), 4096, MicroSeconds(14), true);
    }
    // No increase was accumulated; only eta is added once a base RTT has passed.
    EXPECT_EQ(cc->GetCwnd(), uint64_t(100000 + 614.4));
}

TEST(MrcNscc, QuickAdaptOnNackAndPlainDecreaseWithoutIt)
{
    // Max window 225000 B: quick adapt needs under 225000 / 8 = 28125 B acked in a period.
    Ptr<MrcNscc> cc = Make(200000);
    cc->OnAck(MicroSeconds(1), 4096, MicroSeconds(13), false); // opens a period ending at 22 us
    for (int i = 2; i <= 20; ++i)
    {
        cc->OnAck(MicroSeconds(i), 4096, MicroSeconds(22), false);
    }
    const uint64_t healthy = cc->GetCwnd();
    cc->OnNack(MicroSeconds(23), 4096, false);
    EXPECT_EQ(cc->GetCwnd(), healthy - 4096) << "19 x 4096 B acked: above the gate, no reset";

    // The NACK opened a period ending at 23 + 12 + 9 = 44 us; 5 packets acknowledged in it,
    // far below the window.
    for (int i = 24; i <= 28; ++i)
    {
        cc->OnAck(MicroSeconds(i), 4096, MicroSeconds(22), false);
    }
    const uint64_t inFlight = 10 * 4096;
    cc->SetBytesInFlight(inFlight);
    cc->OnNack(MicroSeconds(45), 4096, false);
    EXPECT_EQ(cc->GetCwnd(), 5u * 4096) << "window = bytes acknowledged in the last period";
    // Marked feedback on what was in flight at the quick adapt is stale (the reference's
    // bytes_to_ignore = in_flight): it changes nothing, however marked and delayed.
    for (uint64_t b = 4096; b < inFlight; b += 4096)
    {
        cc->OnAck(MicroSeconds(46), 4096, MicroSeconds(40), true);
    }
    EXPECT_EQ(cc->GetCwnd(), 5u * 4096) << "stale marked feedback ignored";
    // A presumed loss is a path failure, not congestion: its bytes come off, no quick adapt.
    cc->OnLoss(MicroSeconds(47), 4096);
    EXPECT_EQ(cc->GetCwnd(), 4u * 4096) << "a loss takes its bytes off";

    Ptr<MrcNscc> plain = Make(200000, 0.0125, false);
    plain->OnNack(MicroSeconds(23), 4096, false);
    EXPECT_EQ(plain->GetCwnd(), 200000u - 4096);
    plain->OnLoss(MicroSeconds(24), 4096);
    EXPECT_EQ(plain->GetCwnd(), 200000u - 2 * 4096);
}

TEST(MrcNscc, StaleQuickAdaptTriggerIsDroppedAfterIdle)
{
    Ptr<MrcNscc> cc = Make(200000);
    cc->OnAck(MicroSeconds(1), 4096, MicroSeconds(13), false); // opens a period ending at 22 us
    cc->OnNack(MicroSeconds(5), 4096, false);                  // arms the trigger in the period
    const uint64_t armed = cc->GetCwnd();
    // Idle for a millisecond: the next feedback must not quick-adapt to the ~0 B achieved.
    cc->OnAck(MicroSeconds(1000), 4096, MicroSeconds(13), false);
    EXPECT_GE(cc->GetCwnd(), armed) << "no quick adapt on a trigger from before an idle gap";
}

TEST(MrcNscc, FastIncreaseAfterAWindowOfUnqueuedAcks)
{
    Ptr<MrcNscc> cc = Make(20000); // window well below the max: room to grow
    const uint64_t start = cc->GetCwnd();
    // Acknowledgements with no queueing (RTT = base RTT: delay 0 < 1 us), a window's worth:
    // nothing fast yet; beyond it, each adds 0.25 a x acked bytes at once.
    uint64_t acked = 0;
    Time t = MicroSeconds(1);
    while (acked <= start)
    {
        cc->OnAck(t, 4096, MicroSeconds(12), false);
        acked += 4096;
        t += NanoSeconds(300);
    }
    const uint64_t before = cc->GetCwnd();
    cc->OnAck(t, 4096, MicroSeconds(12), false);
    EXPECT_GT(cc->GetCwnd(), before + 4096 * 0.25 * 0.5) << "fast increase after a window";
}

TEST(MrcNscc, BaseRttFollowsTheSmallestSample)
{
    Ptr<MrcNscc> cc = Make(0);
    const double maxBefore = cc->GetMaxWindow();
    cc->OnAck(MicroSeconds(1), 4096, MicroSeconds(6), false); // a shorter path than configured
    EXPECT_EQ(cc->GetBaseRtt(), MicroSeconds(6));
    EXPECT_NEAR(cc->GetMaxWindow(), maxBefore / 2, 1.0) << "max window = 1.5 x the new BDP";
}

TEST(MrcNscc, WindowBoundsAndReceiverPenalty)
{
    Ptr<MrcNscc> cc = Make(0, 0.0125, false);
    for (int i = 0; i < 1000; ++i)
    {
        cc->OnNack(MicroSeconds(i), 4096, false);
    }
    EXPECT_EQ(cc->GetCwnd(), 4224u) << "never below one MTU";
    Ptr<MrcNscc> big = Make(0);
    big->SetReceiverPenalty(64);
    EXPECT_EQ(big->GetWindow(), 225000u / 2);
    big->SetReceiverPenalty(200);
    EXPECT_EQ(big->GetWindow(), 225000u / 128);
}

TEST(MrcFixedWindow, ConstantWindow)
{
    Ptr<MrcFixedWindow> cc = CreateObject<MrcFixedWindow>();
    cc->Init(4096, 4224, DataRate("100Gbps"), MicroSeconds(12));
    EXPECT_EQ(cc->GetCwnd(), 225000u);
    cc->OnNack(MicroSeconds(1), 4096, false);
    cc->OnAck(MicroSeconds(2), 4096, MicroSeconds(100), true);
    EXPECT_EQ(cc->GetCwnd(), 225000u);
}
