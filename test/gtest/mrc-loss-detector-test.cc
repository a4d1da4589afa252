/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The SACK scoreboard's loss rules against a send queue and a model receiver: reordering inside
 * the threshold retransmits nothing, a hole in the middle is found after about 1.5 windows of
 * later arrivals, spurious retransmissions under heavy reordering are bounded by the packets
 * reordered beyond the threshold, and RACK's time rule; then MrcSelectiveRecovery's tail-loss
 * probe repairs a lost last packet in under 3 RTTs, and a loss inferred for the whole queue pair
 * retires its EV only if that EV's path has gone silent.
 */

#include "mrc-model-receiver.h"

#include "ns3/boolean.h"
#include "ns3/mrc-fixed-window.h"
#include "ns3/mrc-rack-loss-detector.h"
#include "ns3/mrc-sack-loss-detector.h"
#include "ns3/mrc-selective-recovery.h"
#include "ns3/mrc-send-queue.h"
#include "ns3/mrc-single-path-selection.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{
constexpr uint32_t kMss = 1000;
constexpr uint32_t kFirst = 100;
constexpr uint64_t kCwnd = 20 * kMss; // a window of 20 packets: threshold 30

/// A send queue with n packets sent (one every 100 ns, EV = PSN % 16) and a model receiver.
struct Scoreboard
{
    MrcSendQueue sq{1024, kMss, kFirst};
    MrcModelReceiver receiver{kFirst}; //!< the receiving end

    explicit Scoreboard(uint32_t n)
    {
        sq.Post(uint64_t(n) * kMss, 0, 0, std::nullopt, nullptr);
        for (uint32_t i = 0; i < n; ++i)
        {
            MrcSendQueue::Record& r = sq.CutNew();
            r.ev = r.psn % 16;
            r.sentAt = NanoSeconds(100 * (i + 1));
            r.transmissions = 1;
            sq.MarkSent(r);
        }
    }

    /// Receive a PSN and SACK it as the receiver does (bitmap ending at it when far ahead).
    /// \return the out-of-order count the SACK carries
    uint32_t Arrive(uint32_t psn)
    {
        const uint32_t ooo = receiver.Arrive(psn, sq);
        sq.Slide();
        return ooo;
    }
};

/// Deliver PSNs in the given order through the out-of-order rule; collect what it declares.
std::vector<uint32_t>
Deliver(Scoreboard& s,
        const std::vector<uint32_t>& order,
        MrcSackLossDetector& d,
        size_t* at = nullptr)
{
    std::vector<uint32_t> declared;
    for (size_t k = 0; k < order.size(); ++k)
    {
        const uint32_t ooo = s.Arrive(order[k]);
        for (uint32_t psn : d.OnSack(s.sq, ooo, kCwnd, 2 * kCwnd, kMss))
        {
            declared.push_back(psn);
            s.sq.Find(psn)->queued = true; // what the recovery does with a declared PSN
            if (at && declared.size() == 1)
            {
                *at = k;
            }
        }
    }
    return declared;
}
} // namespace

TEST(MrcSackLossDetector, ThresholdIsOneAndAHalfWindowsWithAFloor)
{
    MrcSackLossDetector d;
    EXPECT_EQ(d.GetThreshold(kCwnd, 2 * kCwnd, kMss), 30u);
    EXPECT_EQ(d.GetThreshold(kCwnd, kCwnd, kMss), 20u) << "capped at the largest window";
    EXPECT_EQ(d.GetThreshold(kMss, 2 * kMss, kMss), 5u) << "floor of 5 packets";
}

TEST(MrcSackLossDetector, ReorderingInsideTheThresholdRetransmitsNothing)
{
    // Each packet is overtaken by up to 25 later ones (spraying over paths of unequal delay).
    Scoreboard s(200);
    std::vector<uint32_t> order;
    for (uint32_t block = 0; block < 200; block += 26)
    {
        const uint32_t end = std::min<uint32_t>(block + 26, 200);
        for (uint32_t i = block + 1; i < end; ++i)
        {
            order.push_back(kFirst + i);
        }
        order.push_back(kFirst + block); // the block's first packet arrives last
    }
    MrcSackLossDetector d;
    EXPECT_TRUE(Deliver(s, order, d).empty());
    EXPECT_EQ(d.GetEpisodes(), 0u);
    EXPECT_TRUE(s.sq.IsWindowEmpty()) << "everything acknowledged";
}

TEST(MrcSackLossDetector, HoleInTheMiddleFoundAfterOneAndAHalfWindows)
{
    Scoreboard s(100);
    std::vector<uint32_t> order;
    for (uint32_t i = 0; i < 100; ++i)
    {
        if (i != 40)
        {
            order.push_back(kFirst + i);
        }
    }
    MrcSackLossDetector d;
    size_t at = 0;
    const std::vector<uint32_t> declared = Deliver(s, order, d, &at);
    ASSERT_EQ(declared, std::vector<uint32_t>{kFirst + 40}) << "exactly the lost PSN";
    // Found when 30 later packets (1.5 windows) have arrived: at line rate with a window of one
    // BDP that is 1.5 RTTs after the loss; the retransmission lands one RTT later (< 3 RTTs).
    EXPECT_EQ(at, 40u + 30u - 1u);
    EXPECT_TRUE(d.InRecovery());
    s.Arrive(kFirst + 40); // the retransmission
    d.OnSack(s.sq, 0, kCwnd, 2 * kCwnd, kMss);
    EXPECT_FALSE(d.InRecovery()) << "the episode ends when the cumulative PSN passes it";
}

TEST(MrcSackLossDetector, TailLossIsNotTheSackRulesToFind)
{
    Scoreboard s(50);
    std::vector<uint32_t> order;
    for (uint32_t i = 0; i < 49; ++i)
    {
        order.push_back(kFirst + i);
    }
    MrcSackLossDetector d;
    EXPECT_TRUE(Deliver(s, order, d).empty()) << "no later arrivals: the tail-loss probe's job";
}

TEST(MrcSackLossDetector, SpuriousRetransmissionsUnderHeavyReorderingAreBounded)
{
    // Every 10th packet is overtaken by 50 later ones: more than the threshold (30).
    const uint32_t n = 300;
    Scoreboard s(n);
    std::vector<uint32_t> order;
    std::set<uint32_t> late;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (i % 10 == 0 && i + 50 < n)
        {
            late.insert(kFirst + i);
            continue;
        }
        order.push_back(kFirst + i);
        if (i >= 50 && (i - 50) % 10 == 0 && late.count(kFirst + i - 50))
        {
            order.push_back(kFirst + i - 50);
        }
    }
    MrcSackLossDetector d;
    const std::vector<uint32_t> declared = Deliver(s, order, d);
    // Every declaration is spurious here (nothing was lost): counted, and only the late ones.
    EXPECT_FALSE(declared.empty()) << "reordering beyond the threshold does cause some";
    for (uint32_t psn : declared)
    {
        EXPECT_TRUE(late.count(psn)) << "PSN " << psn << " was on time";
    }
    EXPECT_LE(declared.size(), late.size()) << "at most once per late packet";
}

TEST(MrcSackLossDetector, TrimRetransmissionDuringAnEpisodeIsJudgedByTheReorderWindow)
{
    // PSN 10 is lost silently; PSN 40 was trimmed and NACKed, and is retransmitted at 7.6 us,
    // after the episode that PSN 10's hole opened has declared PSN 10. The retransmission queues
    // where the trimmed original did (an incast's last hop), so arrivals of packets sent up to
    // 2.4 us after it prove nothing: only PSN 10 may be declared. (Judged by the short reloss
    // window, as if the episode had declared it, PSN 40 was declared lost again: a spurious
    // retransmission and a retired EV.)
    Scoreboard s(100);
    MrcSackLossDetector::Params p;
    p.reorderWindow = MicroSeconds(6);
    p.relossWindow = NanoSeconds(200);
    MrcSackLossDetector d(p);
    s.sq.Find(kFirst + 40)->queued = true; // the trim's NACK queued it for retransmission
    std::vector<uint32_t> declared;
    for (uint32_t i = 0; i < 100; ++i)
    {
        if (i == 10 || i == 40)
        {
            continue;
        }
        if (i == 75)
        {
            ASSERT_TRUE(d.InRecovery()) << "PSN 10's hole opened an episode";
            ASSERT_EQ(declared, std::vector<uint32_t>{kFirst + 10}) << "and declared it";
            MrcSendQueue::Record* r = s.sq.Find(kFirst + 40);
            r->queued = false;
            r->sentAt = NanoSeconds(7600);
            r->transmissions = 2;
        }
        const uint32_t ooo = s.Arrive(kFirst + i);
        // A window of 40 packets: the episode opens at 60 out of order and judges up to 40
        // PSNs past the cumulative one, PSN 40 included.
        for (uint32_t psn : d.OnSack(s.sq, ooo, 40 * kMss, 80 * kMss, kMss))
        {
            declared.push_back(psn);
            s.sq.Find(psn)->queued = true;
        }
    }
    EXPECT_EQ(declared, std::vector<uint32_t>{kFirst + 10});
}

TEST(MrcSackLossDetector, APerEvReorderWindowJudgesEachPacketByItsOwnPath)
{
    // PSNs 110 (EV 14) and 111 (EV 15) are lost. EV 15 is on a plane whose queues are 6 us deep,
    // the others on planes with 1 us of spread (MrcSelectiveRecovery::PlaneReorderWindow): PSN
    // 110 is declared as soon as the out-of-order count allows, PSN 111 only once a packet sent
    // 6 us after it has arrived. With one window for every packet (6 us) both wait.
    const auto run = [](bool perEv) {
        Scoreboard s(100);
        MrcSackLossDetector::Params p;
        p.reorderWindow = MicroSeconds(6);
        MrcSackLossDetector d(p);
        if (perEv)
        {
            d.SetReorderWindowOf([](uint32_t ev) {
                return ev == 15 ? MicroSeconds(6) : MicroSeconds(1);
            });
        }
        std::map<uint32_t, uint32_t> declaredAt; // PSN -> index of the arrival that declared it
        for (uint32_t i = 0; i < 100; ++i)
        {
            if (i == 10 || i == 11)
            {
                continue;
            }
            const uint32_t ooo = s.Arrive(kFirst + i);
            for (uint32_t psn : d.OnSack(s.sq, ooo, kCwnd, 2 * kCwnd, kMss))
            {
                declaredAt.emplace(psn, i);
                s.sq.Find(psn)->queued = true;
            }
        }
        return declaredAt;
    };
    const std::map<uint32_t, uint32_t> perEv = run(true);
    ASSERT_EQ(perEv.size(), 2u);
    // Sent at 1.1 us and 1.2 us; the episode opens at 30 out of order (arrival 41, sent 4.2 us).
    EXPECT_EQ(perEv.at(kFirst + 10), 41u) << "1 us window: declared when the episode opens";
    EXPECT_EQ(perEv.at(kFirst + 11), 72u) << "6 us window: the first packet sent after 7.2 us";
    const std::map<uint32_t, uint32_t> one = run(false);
    ASSERT_EQ(one.size(), 2u);
    EXPECT_EQ(one.at(kFirst + 10), 71u) << "one 6 us window: the first packet sent after 7.1 us";
    EXPECT_EQ(one.at(kFirst + 11), 72u);
}

TEST(MrcRackLossDetector, LostOnlyWhenALaterPacketArrivedAndTheReorderWindowPassed)
{
    Scoreboard s(10);
    MrcRackLossDetector d(0.25);
    // PSN 100 (sent at 100 ns) is missing; PSN 101 (sent at 200 ns) arrives at 10.2 us.
    s.Arrive(kFirst + 1);
    d.OnAcked(s.sq.GetJustAcked(), NanoSeconds(10200));
    EXPECT_EQ(d.GetMinRtt(), MicroSeconds(10));
    std::optional<Time> next;
    EXPECT_TRUE(d.Detect(s.sq, NanoSeconds(10200), next).empty()) << "inside the reorder window";
    ASSERT_TRUE(next.has_value());
    EXPECT_EQ(*next, NanoSeconds(100) + MicroSeconds(10) + MicroSeconds(10) / 4);
    const std::vector<uint32_t> lost = d.Detect(s.sq, *next, next);
    EXPECT_EQ(lost, std::vector<uint32_t>{kFirst}) << "due after RTT + min RTT / 4";
}

namespace
{
/**
 * \param sq the send queue
 * \param stats the QP's counters
 * \param cc the window
 * \param paths the path selection
 * \param rtt base RTT (loss timer 8 of them)
 * \return a recovery context with no-op kick, fail, retransmit and tail probe
 */
MrcLossRecovery::Context
MakeContext(MrcSendQueue& sq,
            MrcQpStats& stats,
            MrcCongestionOps* cc,
            MrcPathSelection* paths,
            Time rtt)
{
    MrcLossRecovery::Context c;
    c.sendQueue = &sq;
    c.paths = paths;
    c.cc = cc;
    c.stats = &stats;
    c.lossTimeout = rtt * 8;
    c.baseRtt = rtt;
    c.mss = kMss;
    c.qpTimeout = MilliSeconds(16);
    c.kick = []() {};
    c.retransmit = [](uint32_t, uint32_t, const std::string&) {};
    return c;
}

/**
 * Schedule first transmissions of the posted data: each (EV, time) cuts the next PSN then and
 * tells the recovery policy.
 * \param sq the send queue (data posted)
 * \param rec the policy
 * \param sends (EV, send time) in PSN order
 */
void
ScheduleSends(MrcSendQueue& sq,
              Ptr<MrcLossRecovery> rec,
              const std::vector<std::pair<uint32_t, Time>>& sends)
{
    for (const auto& [ev, at] : sends)
    {
        Simulator::Schedule(at, [&sq, rec, ev = ev]() {
            MrcSendQueue::Record& r = sq.CutNew();
            r.sentAt = Simulator::Now();
            r.ev = ev;
            r.transmissions = 1;
            sq.MarkSent(r);
            rec->OnSent(r, false);
        });
    }
}
} // namespace

TEST(MrcSelectiveRecovery, TailLossRepairedByTheProbeWithinThreeRtts)
{
    // 10 packets; the last is lost. The SACKs of the others arrive one RTT after their sends;
    // then nothing: the tail-loss probe goes base RTT + target after the last send, its answer
    // (path empty, one RTT later) declares the last packet lost: resent 2.75 RTTs after it left.
    const Time rtt = MicroSeconds(10);
    MrcSendQueue sq(1024, kMss, kFirst);
    MrcQpStats stats;
    Ptr<MrcFixedWindow> cc = CreateObject<MrcFixedWindow>();
    cc->Init(kMss, kMss + 100, DataRate("100Gbps"), rtt);
    Ptr<MrcSinglePathSelection> paths = CreateObject<MrcSinglePathSelection>();
    MrcPathSelection::Config pc;
    pc.evsPerPlane = {{7}};
    paths->Start(pc, MrcPathSelection::Hooks(), stats, CreateObject<UniformRandomVariable>());
    Ptr<MrcSelectiveRecovery> rec = CreateObject<MrcSelectiveRecovery>();
    Time repairedAt(-1);
    MrcLossRecovery::Context c = MakeContext(sq, stats, PeekPointer(cc), PeekPointer(paths), rtt);
    c.retransmit = [&repairedAt](uint32_t psn, uint32_t, const std::string& cause) {
        if (psn == kFirst + 9 && cause == "tail-probe")
        {
            repairedAt = Simulator::Now(); // resent now
        }
    };
    c.sendTailProbe = [&rec, rtt](uint32_t seq) {
        Simulator::Schedule(rtt, [&rec, seq]() {
            rec->OnTailProbeAnswer(seq);
        });
    };
    rec->Start(c);
    sq.Post(10 * kMss, 0, 0, std::nullopt, nullptr);
    std::vector<std::pair<uint32_t, Time>> sends;
    for (uint32_t i = 0; i < 10; ++i)
    {
        sends.emplace_back(7, NanoSeconds(100 * i));
    }
    ScheduleSends(sq, rec, sends);
    for (uint32_t i = 0; i < 9; ++i)
    {
        Simulator::Schedule(NanoSeconds(100 * i) + rtt, [&sq, &rec, i]() {
            sq.AckSack(kFirst + i + 1, kFirst + i + 1, 0);
            sq.Slide();
            rec->OnAcknowledged(MrcAckFeedback{});
        });
    }
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    const Time lastSent = NanoSeconds(900);
    ASSERT_FALSE(repairedAt.IsNegative()) << "the probe's answer declared the tail lost";
    EXPECT_LE(repairedAt - lastSent, rtt * 3)
        << "repaired in " << (repairedAt - lastSent).As(Time::US);
    EXPECT_EQ(stats.rtxTimeout, 0u) << "before the loss timer (8 RTTs)";
    EXPECT_EQ(stats.rtxTailProbe, 1u) << "only the lost packet";
    EXPECT_GE(stats.tailProbesSent, 1u);
    rec->Dispose();
    Simulator::Destroy();
}

namespace
{
/// A path selection that records the EVs the recovery retires.
class RecordingPaths : public MrcSinglePathSelection
{
  public:
    void OnSilentLoss(uint32_t ev) override
    {
        retired.push_back(ev);
    }

    std::vector<uint32_t> retired; //!< EVs retired, in order
};

/// MrcSelectiveRecovery with its declarations callable.
class ExposedRecovery : public MrcSelectiveRecovery
{
  public:
    using MrcSelectiveRecovery::DeclareLost;
    using MrcSelectiveRecovery::DeclareLostUnlocated;
};

/**
 * Six packets at 0, 1 and 2 us on EVs 7 and 8 (base RTT 10 us, loss timer 80 us); at 5 us the
 * first packet of EV 8 is declared lost (located: EV 8 retired).
 * \param sweep RetiredEvSweep
 * \return (PSN offset, cause, time in ns) of every retransmission within 60 us
 */
std::vector<std::tuple<uint32_t, std::string, int64_t>>
RetireWithPacketsInFlight(bool sweep)
{
    const Time rtt = MicroSeconds(10);
    MrcSendQueue sq(1024, kMss, kFirst);
    MrcQpStats stats;
    Ptr<MrcFixedWindow> cc = CreateObject<MrcFixedWindow>();
    cc->Init(kMss, 100 * kMss, DataRate("100Gbps"), rtt);
    Ptr<RecordingPaths> paths = CreateObject<RecordingPaths>();
    MrcPathSelection::Config pc;
    pc.evsPerPlane = {{7, 8}};
    paths->Start(pc, MrcPathSelection::Hooks(), stats, CreateObject<UniformRandomVariable>());
    Ptr<ExposedRecovery> rec = CreateObject<ExposedRecovery>();
    rec->SetAttribute("RetiredEvSweep", BooleanValue(sweep));
    rec->SetAttribute("TailLossProbe", BooleanValue(false));
    rec->SetAttribute("TailReorderTimer", BooleanValue(false));
    std::vector<std::tuple<uint32_t, std::string, int64_t>> resent;
    MrcLossRecovery::Context c = MakeContext(sq, stats, PeekPointer(cc), PeekPointer(paths), rtt);
    c.retransmit = [&resent](uint32_t psn, uint32_t, const std::string& cause) {
        resent.emplace_back(psn - kFirst, cause, Simulator::Now().GetNanoSeconds());
    };
    rec->Start(c);
    sq.Post(7 * kMss, 0, 0, std::nullopt, nullptr);
    std::vector<std::pair<uint32_t, Time>> sends;
    for (uint32_t i = 0; i < 6; ++i)
    {
        sends.emplace_back(7 + i % 2, MicroSeconds(i / 2));
    }
    ScheduleSends(sq, rec, sends);
    Simulator::Schedule(MicroSeconds(5), [&rec]() {
        rec->DeclareLost(kFirst + 1, "path-order");
    });
    Simulator::Stop(MicroSeconds(60));
    Simulator::Run();
    rec->Dispose();
    Simulator::Destroy();
    return resent;
}
} // namespace

TEST(MrcSelectiveRecovery, UnlocatedLossRetiresOnlyAnEvWhosePathWentSilent)
{
    // Base RTT 10 us. At t = 0 and 1 us, one packet each on EV 1 (a slow path: its queue holds
    // 20 us), EV 2 (a dead path since just after t = 0: 5 us RTT before) and EV 3 (no answer
    // ever). At 22 us the SACK rule declares the three packets sent at 1 us: all three are
    // resent, but only EVs 2 and 3 are retired. EV 1's packet is not overdue on its own path
    // (sent 21 us ago, its path's latest RTT 20 us plus the 10 us reorder window): retiring it
    // would take a working path out of the set every time its queue grows (before, every
    // declared loss retired its EV). A later packet of EV 1 delivered before the declared one
    // then locates that loss on EV 1 after all: retired then.
    const Time rtt = MicroSeconds(10);
    MrcSendQueue sq(1024, kMss, kFirst);
    MrcQpStats stats;
    Ptr<MrcFixedWindow> cc = CreateObject<MrcFixedWindow>();
    cc->Init(kMss, 100 * kMss, DataRate("100Gbps"), rtt);
    Ptr<RecordingPaths> paths = CreateObject<RecordingPaths>();
    MrcPathSelection::Config pc;
    pc.evsPerPlane = {{1, 2, 3}};
    paths->Start(pc, MrcPathSelection::Hooks(), stats, CreateObject<UniformRandomVariable>());
    Ptr<ExposedRecovery> rec = CreateObject<ExposedRecovery>();
    std::vector<uint32_t> resent;
    MrcLossRecovery::Context c = MakeContext(sq, stats, PeekPointer(cc), PeekPointer(paths), rtt);
    c.retransmit = [&resent](uint32_t psn, uint32_t, const std::string&) {
        resent.push_back(psn);
    };
    rec->Start(c);
    // PSNs: +0 EV 1 at 0, +1 EV 2 at 0, +2 EV 1 at 1 us, +3 EV 2 at 1 us, +4 EV 3 at 1 us; and
    // one more to send, so that the tail rules stay out of it.
    sq.Post(7 * kMss, 0, 0, std::nullopt, nullptr);
    const std::vector<std::pair<uint32_t, Time>> sends{{1, Time(0)},
                                                       {2, Time(0)},
                                                       {1, MicroSeconds(1)},
                                                       {2, MicroSeconds(1)},
                                                       {3, MicroSeconds(1)},
                                                       {1, MicroSeconds(2)}};
    ScheduleSends(sq, rec, sends);
    // EV 2's first packet is acknowledged after 5 us, EV 1's after 20 us.
    Simulator::Schedule(MicroSeconds(5), [&sq, &rec]() {
        sq.AckSack(kFirst, kFirst, uint64_t(1) << 1);
        rec->OnAcknowledged(MrcAckFeedback{});
    });
    Simulator::Schedule(MicroSeconds(20), [&sq, &rec]() {
        sq.AckSack(kFirst + 2, kFirst, 0);
        sq.Slide();
        rec->OnAcknowledged(MrcAckFeedback{});
    });
    Simulator::Schedule(MicroSeconds(22), [&rec]() {
        for (uint32_t psn : {kFirst + 2, kFirst + 3, kFirst + 4})
        {
            rec->DeclareLostUnlocated(psn, "sack");
        }
    });
    Simulator::Stop(MicroSeconds(23));
    Simulator::Run();
    EXPECT_EQ(resent, (std::vector<uint32_t>{kFirst + 2, kFirst + 3, kFirst + 4}))
        << "every declared packet is resent";
    EXPECT_EQ(paths->retired, (std::vector<uint32_t>{2, 3}))
        << "the dead path's EV and the EV that never answered; not the slow path's";
    EXPECT_EQ(stats.lossesOnDeliveringEv, 1u);
    // Then EV 1's packet sent at 2 us is acknowledged while the one sent at 1 us is not: on a
    // FIFO path that transmission was lost after all, and EV 1 is retired then.
    Simulator::Schedule(MicroSeconds(2), [&sq, &rec]() {
        sq.AckSack(kFirst + 2, kFirst + 2, uint64_t(1) << 3);
        rec->OnAcknowledged(MrcAckFeedback{});
    });
    Simulator::Stop(MicroSeconds(3));
    Simulator::Run();
    EXPECT_EQ(paths->retired, (std::vector<uint32_t>{2, 3, 1}));
    EXPECT_EQ(stats.lossesLocatedLater, 1u);
    EXPECT_EQ(resent.size(), 3u) << "located, not resent twice";
    rec->Dispose();
    Simulator::Destroy();
}

namespace
{
/**
 * EV 1's path: its packet sent at 0 is acknowledged at 20 us (base RTT 10 us, reorder window
 * 10 us). Then packets on EV 1 at 1 us (A), 23 us (M) and 35 us (B). A is declared lost at
 * 22 us and B at 55 us on evidence of the whole queue pair: each is within its path's RTT plus
 * reorder window when declared, so on its own each is resent with the EV kept. At 55 us M, sent
 * on the path after A, is overdue as well.
 * \param deliverBetween whether M is acknowledged (at 50 us)
 * \return (EVs retired, losses located later, PSN offsets resent)
 */
std::tuple<std::vector<uint32_t>, uint64_t, std::vector<uint32_t>>
TwoUnlocatedLossesOnOnePath(bool deliverBetween)
{
    const Time rtt = MicroSeconds(10);
    MrcSendQueue sq(1024, kMss, kFirst);
    MrcQpStats stats;
    Ptr<MrcFixedWindow> cc = CreateObject<MrcFixedWindow>();
    cc->Init(kMss, 100 * kMss, DataRate("100Gbps"), rtt);
    Ptr<RecordingPaths> paths = CreateObject<RecordingPaths>();
    MrcPathSelection::Config pc;
    pc.evsPerPlane = {{1, 2}};
    paths->Start(pc, MrcPathSelection::Hooks(), stats, CreateObject<UniformRandomVariable>());
    Ptr<ExposedRecovery> rec = CreateObject<ExposedRecovery>();
    // Here each EV is its own path: M's delivery would locate A by the per-EV order rule.
    rec->SetAttribute("PathOrderLoss", BooleanValue(false));
    rec->SetAttribute("TailLossProbe", BooleanValue(false));
    std::vector<uint32_t> resent;
    MrcLossRecovery::Context c = MakeContext(sq, stats, PeekPointer(cc), PeekPointer(paths), rtt);
    c.retransmit = [&resent](uint32_t psn, uint32_t, const std::string&) {
        resent.push_back(psn - kFirst);
    };
    rec->Start(c);
    // PSNs: +0, +1 (A), +2 (M), +3 (B) on EV 1; +4 on EV 2; and one more to send, so that the
    // tail rules stay out of it.
    sq.Post(6 * kMss, 0, 0, std::nullopt, nullptr);
    const std::vector<std::pair<uint32_t, Time>> sends{{1, Time(0)},
                                                       {1, MicroSeconds(1)},
                                                       {1, MicroSeconds(23)},
                                                       {1, MicroSeconds(35)},
                                                       {2, MicroSeconds(35)}};
    ScheduleSends(sq, rec, sends);
    Simulator::Schedule(MicroSeconds(20), [&sq, &rec]() {
        sq.AckSack(kFirst + 1, kFirst + 1, 0);
        sq.Slide();
        rec->OnAcknowledged(MrcAckFeedback{});
    });
    Simulator::Schedule(MicroSeconds(22), [&rec]() {
        rec->DeclareLostUnlocated(kFirst + 1, "sack");
    });
    if (deliverBetween)
    {
        Simulator::Schedule(MicroSeconds(50), [&sq, &rec]() {
            sq.AckSack(kFirst + 1, kFirst + 1, uint64_t(1) << 1);
            rec->OnAcknowledged(MrcAckFeedback{});
        });
    }
    Simulator::Schedule(MicroSeconds(55), [&rec]() {
        rec->DeclareLostUnlocated(kFirst + 3, "sack");
    });
    Simulator::Stop(MicroSeconds(56));
    Simulator::Run();
    std::tuple<std::vector<uint32_t>, uint64_t, std::vector<uint32_t>> out{paths->retired,
                                                                           stats.lossesLocatedLater,
                                                                           resent};
    rec->Dispose();
    Simulator::Destroy();
    return out;
}
} // namespace

TEST(MrcSelectiveRecovery, TwoUnlocatedLossesOnASilentPathRetireItsEv)
{
    // A dead path never delivers a later packet, so the per-EV order rule never locates its
    // losses; before, each was resent and the EV kept, and the path went on taking packets.
    const auto [retired, located, resent] = TwoUnlocatedLossesOnOnePath(false);
    EXPECT_EQ(retired, (std::vector<uint32_t>{1})) << "B's loss, after A's: the path is silent";
    EXPECT_EQ(located, 1u) << "A located with it";
    EXPECT_EQ(resent, (std::vector<uint32_t>{1, 3, 2}))
        << "each resent once, and M (overdue on the retired EV) by the sweep";
    // The same two losses, but M (sent on the path after A) was delivered: a slow path that
    // works. Nothing is retired.
    const auto [retired2, located2, resent2] = TwoUnlocatedLossesOnOnePath(true);
    EXPECT_TRUE(retired2.empty()) << "the path delivered between the two losses";
    EXPECT_EQ(located2, 0u);
    EXPECT_EQ(resent2, (std::vector<uint32_t>{1, 3}));
}

TEST(MrcSelectiveRecovery, ARetiredEvsPacketsInFlightAreResentAfterOneOfItsRtts)
{
    // EV 8 is retired at 5 us: its two other packets (PSNs +3, +5), still unacknowledged one
    // RTT of its path plus a target delay later (10 + 7.5 us), are resent then; EV 7's are
    // not. Without the sweep they wait for their own loss timers (80 us after their sends):
    // flows into a failed T0 lost 90 us of goodput that way (mrc-path-health --experiment=links).
    const auto swept = RetireWithPacketsInFlight(true);
    ASSERT_EQ(swept.size(), 3u);
    EXPECT_EQ(swept[0], std::make_tuple(1u, std::string("path-order"), int64_t(5000)));
    EXPECT_EQ(swept[1], std::make_tuple(3u, std::string("retired-ev"), int64_t(22500)));
    EXPECT_EQ(swept[2], std::make_tuple(5u, std::string("retired-ev"), int64_t(22500)));
    const auto waited = RetireWithPacketsInFlight(false);
    ASSERT_EQ(waited.size(), 1u) << "RetiredEvSweep false: nothing more before the loss timer";
}
