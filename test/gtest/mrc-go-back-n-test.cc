/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Go-back-N's bookkeeping against a send queue of 8 packets in flight (PSNs 100..107), and the
 * send queue's SACK processing it relies on.
 */

#include "ns3/mrc-fixed-window.h"
#include "ns3/mrc-go-back-n.h"
#include "ns3/mrc-nack-header.h"
#include "ns3/mrc-send-queue.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
/// A go-back-N policy over a send queue with 8 packets sent.
struct Fixture
{
    MrcSendQueue sq{128, 1000, 100};
    MrcQpStats stats;
    Ptr<MrcFixedWindow> cc = CreateObject<MrcFixedWindow>();
    Ptr<MrcGoBackN> gbn = CreateObject<MrcGoBackN>();
    std::vector<uint32_t> requeued; //!< Retransmit hook calls
    std::string failure;
    int kicks{0};

    Fixture()
    {
        cc->Init(1000, 1100, DataRate("100Gbps"), MicroSeconds(10));
        sq.Post(8000, 0, 0, std::nullopt, nullptr);
        MrcLossRecovery::Context c;
        c.sendQueue = &sq;
        c.cc = PeekPointer(cc);
        c.stats = &stats;
        c.lossTimeout = MicroSeconds(80);
        c.qpTimeout = MilliSeconds(16);
        c.kick = [this]() {
            ++kicks;
        };
        c.retransmit = [this](uint32_t psn, uint32_t, const std::string&) {
            requeued.push_back(psn);
        };
        c.fail = [this](const std::string& reason) {
            failure = reason;
        };
        gbn->SetAttribute("RetransmitTimeout", TimeValue(MicroSeconds(80)));
        gbn->Start(c);
        for (int i = 0; i < 8; ++i)
        {
            MrcSendQueue::Record& r = sq.CutNew();
            sq.MarkSent(r);
            gbn->OnSent(r, false);
        }
    }

    ~Fixture()
    {
        gbn->Dispose();
        Simulator::Destroy();
    }

    /// Drain the retransmissions: the PSNs in the order they would go.
    std::vector<uint32_t> Drain()
    {
        std::vector<uint32_t> out;
        while (MrcSendQueue::Record* r = gbn->PeekRetransmission())
        {
            out.push_back(r->psn);
            gbn->PopRetransmission();
            sq.MarkSent(*r);
        }
        return out;
    }

    /// \param code NACK code \param psn its PSN \return the NACK
    static MrcNackHeader Nack(MrcNackCode code, uint32_t psn)
    {
        MrcNackHeader n;
        n.SetCode(code);
        n.SetPsn(psn);
        return n;
    }
};
} // namespace

TEST(MrcGoBackN, ReceiverTakesPacketsInOrderOnly)
{
    EXPECT_EQ(CreateObject<MrcGoBackN>()->GetReceiveOrder(), MrcReceiveOrder::IN_ORDER);
}

TEST(MrcGoBackN, SequenceNackRewindsToTheFirstUnacknowledgedPsn)
{
    Fixture f;
    EXPECT_EQ(f.gbn->PeekRetransmission(), nullptr);
    // The NACK's PSN acknowledges what precedes it (the queue pair does that), then rewinds.
    EXPECT_EQ(f.sq.AckBefore(103), 3000u);
    f.sq.Slide();
    f.gbn->OnAcknowledged(MrcAckFeedback{});
    f.gbn->OnNack(Fixture::Nack(MrcNackCode::SEQUENCE_ERROR, 103));
    EXPECT_EQ(f.requeued, (std::vector<uint32_t>{103, 104, 105, 106, 107}));
    EXPECT_EQ(f.sq.GetInFlight(), 0u);
    EXPECT_EQ(f.stats.rewindsNack, 1u);
    EXPECT_EQ(f.kicks, 1);
    EXPECT_EQ(f.Drain(), (std::vector<uint32_t>{103, 104, 105, 106, 107}));
    EXPECT_EQ(f.sq.GetInFlight(), 5000u);
}

TEST(MrcGoBackN, AcknowledgementsDuringARewindAreSkipped)
{
    Fixture f;
    f.gbn->OnNack(Fixture::Nack(MrcNackCode::TRIMMED, 100));
    ASSERT_EQ(f.gbn->PeekRetransmission()->psn, 100u);
    f.gbn->PopRetransmission();
    // 100..102 acknowledged cumulatively, 104 selectively: 103, 105, 106, 107 remain.
    f.sq.AckSack(103, 104, 0x1);
    f.sq.Slide();
    f.gbn->OnAcknowledged(MrcAckFeedback{});
    EXPECT_EQ(f.Drain(), (std::vector<uint32_t>{103, 105, 106, 107}));
}

TEST(MrcGoBackN, ASecondRewindResendsOnlyWhatWasResentOrInFlight)
{
    Fixture f;
    f.gbn->OnNack(Fixture::Nack(MrcNackCode::SEQUENCE_ERROR, 100));
    EXPECT_EQ(f.requeued.size(), 8u);
    // Two resent, then the timeout: every packet from 100 on goes again, in order, but only
    // the two resent ones were back in flight to be requeued.
    f.gbn->PeekRetransmission();
    f.gbn->PopRetransmission();
    f.sq.MarkSent(*f.sq.Find(100));
    f.gbn->PeekRetransmission();
    f.gbn->PopRetransmission();
    f.sq.MarkSent(*f.sq.Find(101));
    Simulator::Stop(MicroSeconds(81));
    Simulator::Run(); // the retransmission timeout (the loss timeout, 80 us) expires
    EXPECT_EQ(f.stats.rewindsTimeout, 1u);
    EXPECT_EQ(f.requeued.size(), 10u);
    EXPECT_EQ(f.Drain(), (std::vector<uint32_t>{100, 101, 102, 103, 104, 105, 106, 107}));
    EXPECT_EQ(f.gbn->GetRetransmitTimeout(), MicroSeconds(80));
}

TEST(MrcGoBackN, UnexpectedEventFailsTheQueuePair)
{
    Fixture f;
    f.gbn->OnNack(Fixture::Nack(MrcNackCode::UNEXP_EVENT, 100));
    EXPECT_NE(f.failure.find("UNEXP_EVENT"), std::string::npos);
}

TEST(MrcSendQueue, AckSackTakesTheCumulativePsnAndTheBitmap)
{
    MrcSendQueue sq(128, 1000, 0xfffffe); // across the 24-bit wrap
    sq.Post(6000, 0, 0, std::nullopt, nullptr);
    for (int i = 0; i < 6; ++i)
    {
        sq.MarkSent(sq.CutNew());
    }
    // Cumulative 0xffffff (one packet), bitmap from PSN 1: bits 0 and 2 (PSNs 1 and 3).
    EXPECT_EQ(sq.AckSack(0xffffff, 1, 0x5), 3000u);
    EXPECT_EQ(sq.AckSack(0xffffff, 1, 0x5), 0u) << "nothing new";
    EXPECT_EQ(sq.GetBasePsn(), 0xffffffu);
    EXPECT_TRUE(sq.Slide().empty());
    EXPECT_EQ(sq.GetInFlight(), 3000u); // 0xffffff, 0 and 2
    EXPECT_EQ(sq.AckSack(4, 0, 0), 3000u);
    EXPECT_EQ(sq.Slide().size(), 1u); // the message is complete
}
