/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The per-EV order rule (MrcPathOrderLossDetector) against a send queue and a model receiver:
 * any reordering across EVs retransmits nothing, a lost packet is found exactly when the next
 * packet on its EV is acknowledged, a retransmission is judged by its own transmission only,
 * an acknowledged retransmission is no evidence (Karn), and the detector forgets what is
 * resolved. Then the SACK rule's reorder window: a packet still queued on a slower path is not
 * declared until a packet sent a reorder window after it has arrived.
 */

#include "mrc-model-receiver.h"

#include "ns3/mrc-path-order-loss-detector.h"
#include "ns3/mrc-sack-loss-detector.h"
#include "ns3/mrc-send-queue.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{
constexpr uint32_t kMss = 1000;
constexpr uint32_t kFirst = 500;
constexpr uint32_t kEvs = 8;

/// n packets sent one every 100 ns on EV = PSN % kEvs, the detector told of each; a receiver.
struct Bed
{
    MrcSendQueue sq{1024, kMss, kFirst};
    MrcPathOrderLossDetector d;
    MrcModelReceiver receiver{kFirst};
    Time now;

    explicit Bed(uint32_t n)
    {
        sq.Post(uint64_t(n) * kMss, 0, 0, std::nullopt, nullptr);
        for (uint32_t i = 0; i < n; ++i)
        {
            MrcSendQueue::Record& r = sq.CutNew();
            Send(r, r.psn % kEvs);
        }
    }

    void Send(MrcSendQueue::Record& r, uint32_t ev)
    {
        now += NanoSeconds(100);
        r.ev = ev;
        r.sentAt = now;
        r.transmissions++;
        r.queued = false;
        sq.MarkSent(r);
        d.OnSent(r.psn, ev, now);
    }

    /// Receive a PSN, SACK it as the receiver does, run the rule; lost PSNs are marked queued.
    std::vector<uint32_t> Arrive(uint32_t psn)
    {
        receiver.Arrive(psn, sq);
        std::vector<uint32_t> lost = d.OnSack(sq);
        for (uint32_t p : lost)
        {
            sq.MarkLost(*sq.Find(p));
            sq.Find(p)->queued = true;
        }
        sq.Slide();
        return lost;
    }
};
} // namespace

TEST(MrcPathOrderLossDetector, ReorderingAcrossEvsRetransmitsNothing)
{
    // Each EV's packets arrive in order, but EV e is e x 3 packets late: heavy cross-EV
    // reordering (far beyond any out-of-order threshold once shuffled by blocks).
    Bed b(400);
    std::vector<std::pair<uint32_t, uint32_t>> arrivals; // (arrival slot, PSN)
    for (uint32_t i = 0; i < 400; ++i)
    {
        const uint32_t psn = kFirst + i;
        arrivals.emplace_back(i + (psn % kEvs) * 37, psn);
    }
    std::sort(arrivals.begin(), arrivals.end());
    for (const auto& [slot, psn] : arrivals)
    {
        EXPECT_TRUE(b.Arrive(psn).empty()) << "PSN " << psn;
    }
    EXPECT_TRUE(b.sq.IsWindowEmpty());
    EXPECT_EQ(b.d.GetSize(), 0u) << "every entry resolved and forgotten";
}

TEST(MrcPathOrderLossDetector, LossFoundWhenTheNextPacketOnItsEvIsAcknowledged)
{
    Bed b(64);
    const uint32_t lostPsn = kFirst + 10; // EV 2; the next on EV 2 is kFirst + 18
    for (uint32_t psn = kFirst; psn < kFirst + 18; ++psn)
    {
        if (psn != lostPsn)
        {
            EXPECT_TRUE(b.Arrive(psn).empty()) << "nothing later on EV 2 yet (PSN " << psn << ")";
        }
    }
    EXPECT_EQ(b.Arrive(kFirst + 18), std::vector<uint32_t>{lostPsn});
    for (uint32_t psn = kFirst + 19; psn < kFirst + 64; ++psn)
    {
        EXPECT_TRUE(b.Arrive(psn).empty()) << "declared once (PSN " << psn << ")";
    }
}

TEST(MrcPathOrderLossDetector, LongRunsPerEvFindEachLossOnceAndForgetWhatIsResolved)
{
    // 100 packets in flight on each of the 8 EVs (the per-EV FIFOs compact their consumed
    // prefix as they go), four losses spread over the run and the EVs.
    Bed b(800);
    const std::vector<uint32_t> lostPsns{kFirst + 50, kFirst + 333, kFirst + 334, kFirst + 700};
    std::vector<uint32_t> declared;
    for (uint32_t psn = kFirst; psn < kFirst + 800; ++psn)
    {
        if (std::find(lostPsns.begin(), lostPsns.end(), psn) != lostPsns.end())
        {
            continue;
        }
        for (uint32_t lost : b.Arrive(psn))
        {
            EXPECT_EQ(psn, lost + kEvs) << "declared when the next packet on its EV arrives";
            declared.push_back(lost);
        }
    }
    EXPECT_EQ(declared, lostPsns);
    EXPECT_EQ(b.d.GetSize(), 0u) << "every transmission resolved, none remembered";
}

TEST(MrcPathOrderLossDetector, RetransmissionJudgedByItsOwnTransmission)
{
    Bed b(32);
    const uint32_t lostPsn = kFirst + 3; // EV 3
    for (uint32_t psn = kFirst; psn < kFirst + 12; ++psn)
    {
        if (psn != lostPsn)
        {
            const std::vector<uint32_t> lost = b.Arrive(psn);
            EXPECT_EQ(lost.size(), psn == kFirst + 11 ? 1u : 0u) << "PSN " << psn;
        }
    }
    // Resent on EV 5, whose earlier packets (kFirst + 13, 21, 29) are acknowledged only later:
    // acknowledgements of packets sent before the retransmission say nothing about it.
    b.Send(*b.sq.Find(lostPsn), 5);
    for (uint32_t psn = kFirst + 12; psn < kFirst + 32; ++psn)
    {
        EXPECT_TRUE(b.Arrive(psn).empty()) << "PSN " << psn;
    }
    EXPECT_FALSE(b.sq.Find(lostPsn)->acked);
    EXPECT_FALSE(b.sq.Find(lostPsn)->queued) << "the retransmission is still on its way";
    // A new packet on EV 5 sent after the retransmission arrives first: the retransmission
    // was lost too.
    b.sq.Post(kMss, 0, 0, std::nullopt, nullptr);
    MrcSendQueue::Record& r = b.sq.CutNew();
    b.Send(r, 5);
    EXPECT_EQ(b.Arrive(r.psn), std::vector<uint32_t>{lostPsn});
}

TEST(MrcPathOrderLossDetector, AcknowledgedRetransmissionIsNoEvidence)
{
    Bed b(16);
    // PSN kFirst + 1 (EV 1) is resent on EV 4 while its first copy is still on its way; its
    // acknowledgement may be for either copy, so EV 4's earlier packet is not judged by it.
    b.Send(*b.sq.Find(kFirst + 1), 4);
    EXPECT_TRUE(b.Arrive(kFirst + 1).empty()) << "PSN " << kFirst + 4 << " not declared (Karn)";
    EXPECT_FALSE(b.sq.Find(kFirst + 4)->queued);
}

namespace
{
/**
 * 60 packets, PSN kFirst + 30 (sent at 3.1 us) never arrives, the others arrive in order; the
 * SACK rule with a threshold of 8 packets (window 5 packets) and the given reorder window.
 * \return the PSN whose arrival made the rule declare the missing one (0: never)
 */
uint32_t
DeclaredOnArrivalOf(Time reorderWindow)
{
    Bed b(60);
    MrcSackLossDetector::Params p;
    p.reorderWindow = reorderWindow;
    MrcSackLossDetector sack(p);
    const uint32_t missing = kFirst + 30;
    uint32_t when = 0;
    for (uint32_t psn = kFirst; psn < kFirst + 60; ++psn)
    {
        if (psn == missing)
        {
            continue;
        }
        const uint32_t ooo = b.receiver.Arrive(psn, b.sq);
        for (uint32_t lost : sack.OnSack(b.sq, ooo, 5 * kMss, 40 * kMss, kMss))
        {
            EXPECT_EQ(lost, missing);
            EXPECT_EQ(when, 0u) << "declared once";
            b.sq.Find(lost)->queued = true;
            when = psn;
        }
    }
    return when;
}
} // namespace

TEST(MrcSackLossDetector, ReorderWindowSparesPacketsQueuedOnSlowerPaths)
{
    // No reorder window: declared when 8 later packets have arrived (PSN kFirst + 38).
    EXPECT_EQ(DeclaredOnArrivalOf(Time(0)), kFirst + 38);
    // 1 us: the episode has begun, but the PSN is judged again by each later SACK and declared
    // only when a packet sent more than 1 us after it (at 4.2 us: PSN kFirst + 41) arrived.
    EXPECT_EQ(DeclaredOnArrivalOf(MicroSeconds(1)), kFirst + 41);
    // Longer than the whole burst: a packet queued that long is left to the other rules.
    EXPECT_EQ(DeclaredOnArrivalOf(MicroSeconds(5)), 0u);
}
