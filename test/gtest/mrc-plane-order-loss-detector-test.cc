/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The per-plane order rule (MrcPlaneOrderLossDetector) against a send queue and a model
 * receiver, on two planes: plane 0 empty (every packet takes 2 us), plane 1 behind a deep queue
 * (20 us). A packet lost on plane 0 is found once a packet sent on plane 0 a reorder window
 * after it has arrived, though plane 1 holds the cumulative PSN back and the out-of-order count
 * stays below the UEC rule's threshold; plane 1's packets, overtaken by all of plane 0's, are
 * never declared by them; an acknowledged retransmission is no evidence (Karn); and the
 * detector forgets what is resolved.
 */

#include "mrc-model-receiver.h"

#include "ns3/mrc-plane-order-loss-detector.h"
#include "ns3/mrc-sack-loss-detector.h"
#include "ns3/mrc-send-queue.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <vector>

using namespace ns3;

namespace
{
constexpr uint32_t kMss = 1000;
constexpr uint32_t kFirst = 700;

/// The plane of an EV: EV % 2.
bool
PlaneOf(uint32_t ev, uint32_t& plane)
{
    plane = ev % 2;
    return true;
}

/**
 * Run the rule after a SACK: note what it acknowledged, then detect.
 * \param d the detector
 * \param sq the send queue
 * \return the PSNs found lost (a reorder window of 1 us on either plane)
 */
std::vector<uint32_t>
Sack(MrcPlaneOrderLossDetector& d, MrcSendQueue& sq)
{
    for (const MrcSendQueue::Acked& a : sq.GetJustAcked())
    {
        uint32_t plane = 0;
        PlaneOf(a.ev, plane);
        d.OnAcked(a, plane);
    }
    return d.Detect(sq, [](uint32_t) {
        return MicroSeconds(1);
    });
}

/// A packet every 100 ns alternating between the planes (EV = PSN % 8, plane = EV % 2); plane 0
/// delivers after 2 us, plane 1 after 20 us; a reorder window of 1 us on either plane.
struct Bed
{
    MrcSendQueue sq{1024, kMss, kFirst};
    MrcPlaneOrderLossDetector d;
    MrcModelReceiver receiver{kFirst};
    std::map<uint32_t, uint32_t> declaredAt; //!< PSN -> index of the arrival that declared it

    explicit Bed(uint32_t n)
    {
        sq.Post(uint64_t(n) * kMss, 0, 0, std::nullopt, nullptr);
        for (uint32_t i = 0; i < n; ++i)
        {
            MrcSendQueue::Record& r = sq.CutNew();
            Send(r, r.psn % 8, NanoSeconds(100 * (i + 1)));
        }
    }

    void Send(MrcSendQueue::Record& r, uint32_t ev, Time at)
    {
        r.ev = ev;
        r.sentAt = at;
        r.transmissions++;
        r.queued = false;
        sq.MarkSent(r);
        uint32_t plane = 0;
        PlaneOf(ev, plane);
        d.OnSent(r.psn, plane, at);
    }

    /// Arrival time of a PSN's first transmission.
    Time ArrivalOf(uint32_t psn)
    {
        const MrcSendQueue::Record* r = sq.Find(psn);
        return r->sentAt + (r->ev % 2 == 0 ? MicroSeconds(2) : MicroSeconds(20));
    }

    /// Receive PSNs in arrival order except the lost ones; run the rule after each SACK.
    void Run(uint32_t n, const std::vector<uint32_t>& lost)
    {
        std::vector<std::pair<Time, uint32_t>> arrivals;
        for (uint32_t psn = kFirst; psn < kFirst + n; ++psn)
        {
            if (std::find(lost.begin(), lost.end(), psn) == lost.end())
            {
                arrivals.emplace_back(ArrivalOf(psn), psn);
            }
        }
        std::sort(arrivals.begin(), arrivals.end());
        for (uint32_t i = 0; i < arrivals.size(); ++i)
        {
            receiver.Arrive(arrivals[i].second, sq);
            for (uint32_t psn : Sack(d, sq))
            {
                declaredAt.emplace(psn, i);
                sq.MarkLost(*sq.Find(psn));
                sq.Find(psn)->queued = true;
            }
            sq.Slide();
        }
    }
};
} // namespace

TEST(MrcPlaneOrderLossDetector, ALossOnAnEmptyPlaneIsFoundBehindADeepOne)
{
    // PSN +10 (plane 0, sent at 1.1 us) is lost. Plane 0's packet sent 1.2 us later (+22, at
    // 2.3 us) arrives at 4.3 us: the loss is declared then, while the cumulative PSN still
    // waits for plane 1's +1 (arriving at 20.2 us).
    Bed b(200);
    b.Run(200, {kFirst + 10});
    ASSERT_EQ(b.declaredAt.size(), 1u) << "only the lost packet; plane 1's late ones never";
    ASSERT_EQ(b.declaredAt.count(kFirst + 10), 1u);
    // Plane 0's packets arrive 2 us after their send, in order: +0, +2, ..., +20 (sent at
    // 2.1 us, exactly the window after +10: not yet overdue), then +22 (arrival index 10).
    EXPECT_EQ(b.declaredAt.at(kFirst + 10), 10u);
    // The UEC reference's SACK rule at that moment: 10 packets beyond the cumulative PSN (+0 is
    // here, +1 waits on plane 1), below its threshold of 1.5 windows of 20 packets.
    MrcSackLossDetector uec;
    EXPECT_GT(uec.GetThreshold(20 * kMss, 40 * kMss, kMss), 10u);
}

TEST(MrcPlaneOrderLossDetector, AnAcknowledgedRetransmissionIsNoEvidence)
{
    // +0 (plane 0) is resent on plane 1 at once and the resent copy is acknowledged: its send
    // time (the latest) must not make plane 0's or plane 1's earlier packets overdue.
    MrcSendQueue sq{64, kMss, kFirst};
    MrcPlaneOrderLossDetector d;
    MrcModelReceiver receiver{kFirst};
    sq.Post(4 * kMss, 0, 0, std::nullopt, nullptr);
    for (uint32_t i = 0; i < 4; ++i)
    {
        MrcSendQueue::Record& r = sq.CutNew();
        r.ev = i;
        r.sentAt = NanoSeconds(100 * (i + 1));
        r.transmissions = 1;
        sq.MarkSent(r);
        d.OnSent(r.psn, i % 2, r.sentAt);
    }
    MrcSendQueue::Record& first = *sq.Find(kFirst);
    first.ev = 1;
    first.sentAt = MicroSeconds(50);
    first.transmissions = 2;
    d.OnSent(first.psn, 1, first.sentAt);
    receiver.Arrive(kFirst, sq);
    const auto window = [](uint32_t) {
        return MicroSeconds(1);
    };
    EXPECT_TRUE(Sack(d, sq).empty());
    EXPECT_TRUE(d.GetLatestDelivered(0).IsStrictlyNegative());
    EXPECT_TRUE(d.GetLatestDelivered(1).IsStrictlyNegative());
    // +3 (plane 1, sent at 0.4 us, once) arrives: plane 1's +1 (0.2 us) is not overdue by a
    // 1 us window; plane 0's +2 is not judged by plane 1.
    receiver.Arrive(kFirst + 3, sq);
    EXPECT_TRUE(Sack(d, sq).empty());
    EXPECT_EQ(d.GetLatestDelivered(1), NanoSeconds(400));
}

TEST(MrcPlaneOrderLossDetector, ForgetsWhatIsResolved)
{
    Bed b(300);
    b.Run(300, {kFirst + 50, kFirst + 51});
    EXPECT_EQ(b.declaredAt.size(), 2u) << "both found, each on its own plane";
    EXPECT_EQ(b.declaredAt.count(kFirst + 50), 1u);
    EXPECT_EQ(b.declaredAt.count(kFirst + 51), 1u);
    // Everything was acknowledged or declared: nothing is remembered.
    EXPECT_EQ(b.d.GetSize(), 0u);
}
