/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Queue-pair mechanisms end to end: SACK coalescing, NACK NO_BITMAP, the operator denylist, and
 * the reverse-path liveness probes of a queue pair that only receives.
 */

#include "mrc-test-bench.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/mrc-scoped-attribute-default.h"
#include "ns3/nstime.h"
#include "ns3/pointer.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <set>

using namespace ns3;
using mrctest::Bench;
using mrctest::DropPackets;
using mrctest::EvStateLog;
using mrctest::PostRandom;

/**
 * \ingroup mrc-test
 * SACK coalescing: one SACK per SackBytes placed (plus one at the message's end), or one per
 * data packet with SackBytes = 0; delivery is complete either way.
 */
class MrcSackCoalescingTestCase : public TestCase
{
  public:
    /// \param sackBytes the receiver's SackBytes
    explicit MrcSackCoalescingTestCase(uint32_t sackBytes)
        : TestCase("SACK coalescing, SackBytes=" + std::to_string(sackBytes))
        , m_sackBytes(sackBytes)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2, 2), true);
        b.mrc->SetQueuePairAttribute("SackBytes", UintegerValue(m_sackBytes));
        auto [a, r] = b.Connect(0, 2);
        const uint64_t bytes = 1 << 20; // 256 packets of 4096 B
        std::map<std::string, Time> when;
        for (const std::string name : {"MessagePosted", "FirstByteSent", "MessageComplete"})
        {
            a->TraceConnectWithoutContext(
                name,
                MakeBoundCallback(&MrcSackCoalescingTestCase::OnMessage, &when, name));
        }
        r->TraceConnectWithoutContext("MessageDelivered",
                                      MakeBoundCallback(&MrcSackCoalescingTestCase::OnMessage,
                                                        &when,
                                                        std::string("MessageDelivered")));
        const Time postAt = MicroSeconds(3);
        Simulator::Schedule(postAt, [a = a, bytes]() {
            a->PostWrite(bytes);
        });
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(b.delivered[0], 1u, "delivered once");
        NS_TEST_ASSERT_MSG_EQ(when.size(), 4u, "all four message traces fired");
        NS_TEST_ASSERT_MSG_EQ(when["MessagePosted"], postAt, "posted when posted");
        NS_TEST_ASSERT_MSG_EQ(when["FirstByteSent"], postAt, "the idle NIC sends at once");
        NS_TEST_ASSERT_MSG_GT(when["MessageDelivered"],
                              when["FirstByteSent"] + b.mrc->GetBaseRtt(0, 2) / 2,
                              "delivered after half an RTT");
        NS_TEST_ASSERT_MSG_GT(when["MessageComplete"],
                              when["MessageDelivered"],
                              "acknowledged after delivery");
        NS_TEST_ASSERT_MSG_EQ(b.completed[0], 1u, "completed once");
        const uint64_t packets = r->GetStats().dataPacketsReceived;
        NS_TEST_ASSERT_MSG_EQ(packets, 256u, "256 packets, none lost");
        const uint64_t sacks = r->GetStats().sacksSent;
        NS_TEST_ASSERT_MSG_EQ(a->GetStats().sacksReceived, sacks, "every SACK arrived");
        if (m_sackBytes == 0)
        {
            NS_TEST_ASSERT_MSG_EQ(sacks, packets, "a SACK per packet");
        }
        else
        {
            // 16 KiB = 4 packets per SACK; the last SACK (message end) may come early, and a
            // sender that pauses gets a SACK from the coalescing timer: allow a few more.
            const uint64_t expected = bytes / m_sackBytes;
            NS_TEST_ASSERT_MSG_GT_OR_EQ(sacks, expected, "at least one per SackBytes");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(sacks,
                                        expected + expected / 10 + 2,
                                        "about one per SackBytes (" << sacks << ")");
        }
    }

    /**
     * \param when trace name -> time
     * \param name this trace
     * \param msn message
     * \param bytes bytes
     */
    static void OnMessage(std::map<std::string, Time>* when,
                          std::string name,
                          uint32_t msn,
                          uint64_t bytes)
    {
        (*when)[name] = Simulator::Now();
    }

    uint32_t m_sackBytes; //!< SackBytes
};

/**
 * \ingroup mrc-test
 * The loss timer of a healthy queue pair waits for the oldest packet still in flight: over a
 * 1 MiB write (256 packets, nothing lost) it costs a few simulator events, not one per packet
 * sent. Measured as the events of the same run with the default LossTimeout (8 base RTTs, so
 * every deadline passes within the run) minus those with a LossTimeout longer than the run
 * (the timer never fires).
 */
class MrcLossTimerWakesTestCase : public TestCase
{
  public:
    MrcLossTimerWakesTestCase()
        : TestCase("a healthy queue pair's loss timer wakes per LossTimeout, not per packet")
    {
    }

  private:
    /// What one run gives.
    struct End
    {
        uint64_t events;    //!< simulator events executed
        uint64_t delivered; //!< messages delivered
        uint64_t timeouts;  //!< retransmissions after the loss timer
        Time lossTimeout;   //!< the sender's loss timer
        Time complete;      //!< when the write was acknowledged
    };

    /**
     * \param lossTimeout the queue pairs' LossTimeout (0: LossTimeoutRtts base RTTs)
     * \return how the run ended
     */
    static End Run(Time lossTimeout)
    {
        RngSeedManager::SetSeed(1);
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2, 2), true);
        // Fixed streams: both runs draw the same router solicitation times.
        MrcClosTopologyHelper::AssignStreams(b.topo, 0);
        b.mrc->SetQueuePairAttribute("LossTimeout", TimeValue(lossTimeout));
        auto [a, r] = b.Connect(0, 2);
        Time complete;
        a->TraceConnectWithoutContext(
            "MessageComplete",
            MakeBoundCallback(&MrcLossTimerWakesTestCase::OnComplete, &complete));
        Simulator::Schedule(MicroSeconds(3), [a = a]() {
            a->PostWrite(1 << 20);
        });
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        TimeValue timeout;
        a->GetAttribute("LossTimeout", timeout);
        return End{Simulator::GetEventCount(),
                   b.delivered[0],
                   a->GetStats().rtxTimeout,
                   timeout.Get(),
                   complete};
    }

    /**
     * \param at where to write the time
     * \param msn message
     * \param bytes its size
     */
    static void OnComplete(Time* at, uint32_t msn, uint64_t bytes)
    {
        *at = Simulator::Now();
    }

    void DoRun() override
    {
        const End dflt = Run(Time(0));
        const End never = Run(Seconds(1));
        NS_TEST_ASSERT_MSG_EQ(dflt.delivered, 1u, "delivered once (default timer)");
        NS_TEST_ASSERT_MSG_EQ(never.delivered, 1u, "delivered once (no timer)");
        NS_TEST_ASSERT_MSG_EQ(dflt.timeouts + never.timeouts, 0u, "nothing timed out");
        NS_TEST_ASSERT_MSG_EQ(dflt.complete, never.complete, "the timer changes no packet");
        // Every deadline of the default run passes within it: the last send plus the timer.
        NS_TEST_ASSERT_MSG_LT(dflt.complete + dflt.lossTimeout,
                              MilliSeconds(2),
                              "every deadline passes before the run stops");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(dflt.events, never.events, "the timer adds events");
        // About one wake per LossTimeout over the transfer; one per packet would be 256.
        const uint64_t wakes = dflt.events - never.events;
        const uint64_t periods =
            dflt.complete.GetNanoSeconds() / dflt.lossTimeout.GetNanoSeconds() + 2;
        NS_TEST_ASSERT_MSG_LT_OR_EQ(wakes,
                                    2 * periods,
                                    "loss timer wakes: " << wakes << " over " << periods
                                                         << " timeouts");
    }
};

/**
 * \ingroup mrc-test
 * A receive bitmap smaller than the PSN window: packets arriving beyond it behind a hole are
 * refused with NACK NO_BITMAP, resent without penalising their EV, and every byte still
 * arrives exactly once.
 */
class MrcNoBitmapTestCase : public TestCase
{
  public:
    MrcNoBitmapTestCase()
        : TestCase("NACK NO_BITMAP: refused packets are resent, nothing lost, no EV blamed")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(5);
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2, 4), true);
        b.mrc->SetQueuePairAttribute("ReceiveBitmapPsns", UintegerValue(64));
        // The UEC reference's SACK rule alone (1.5 windows of out-of-order arrivals) keeps a
        // hole open long enough for the bitmap to run out; the plane-order rule repairs it first.
        MrcScopedAttributeDefault uecRule("ns3::MrcSelectiveRecovery",
                                          "PlaneOrderLoss",
                                          BooleanValue(false));
        // 5 % loss on one uplink of the sender's T0: holes that the cumulative PSN waits on.
        Ptr<Node> t0 = b.topo->GetSwitch(MrcSwitchTier::T0, 0, 0);
        Ptr<Node> t1 = b.topo->GetSwitch(MrcSwitchTier::T1, 0, 0);
        DropPackets(b.topo->GetLinksBetween(t0, t1).at(0).upperDevice, 0.05);
        auto [a, r] = b.Connect(0, 2);
        std::set<MrcNackCode> codes;
        a->TraceConnectWithoutContext("NackReceived",
                                      MakeBoundCallback(&MrcNoBitmapTestCase::OnNack, &codes));
        std::shared_ptr<std::vector<uint8_t>> region;
        auto expected = PostRandom(a, r, {2u << 20, 12345, 1u << 20}, 9, region);
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(b.errors.size(), 0u, "no QP error");
        for (uint32_t msn = 0; msn < 3; ++msn)
        {
            NS_TEST_ASSERT_MSG_EQ(b.delivered[msn], 1u, "message " << msn << " delivered once");
        }
        NS_TEST_ASSERT_MSG_EQ((*region == *expected), true, "every byte in place");
        NS_TEST_ASSERT_MSG_GT(r->GetStats().noBitmapReceived, 0u, "the bitmap ran out");
        NS_TEST_ASSERT_MSG_EQ(codes.count(MrcNackCode::NO_BITMAP), 1u, "NO_BITMAP NACKs sent");
        NS_TEST_ASSERT_MSG_EQ(a->GetStats().rtxNoBitmap,
                              r->GetStats().noBitmapReceived,
                              "each refused packet resent once");
        NS_TEST_ASSERT_MSG_EQ(r->GetStats().dataPacketsReceived,
                              a->GetStats().dataPacketsSent,
                              "each PSN placed once");
    }

    /**
     * \param codes NACK codes seen
     * \param psn PSN
     * \param code code
     */
    static void OnNack(std::set<MrcNackCode>* codes, uint32_t psn, MrcNackCode code)
    {
        codes->insert(code);
    }
};

/**
 * \ingroup mrc-test
 * The operator denylist: a denied EV never carries another packet, leaves the active set, and
 * is replaced from the same plane's backups so the plane keeps its share.
 */
class MrcDenyEvTestCase : public TestCase
{
  public:
    MrcDenyEvTestCase()
        : TestCase("DenyEv: a denied EV is never used again and is replaced in its plane")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(2);
        Bench b(MrcClosSpec::TwoTier(2, 2, 2, 2, 4), true);
        // 4 paths per plane: 2 active, 2 backups.
        b.mrc->SetQueuePairAttribute("EvSetSize", UintegerValue(4));
        auto [a, r] = b.Connect(0, 2);
        const uint32_t denied = a->GetPathSet().GetActive(1).front();
        const size_t activeBefore = a->GetPathSet().GetActive(1).size();
        std::map<uint32_t, uint64_t> sent; // EV -> packets after the denial
        const Time denyAt = MicroSeconds(20);
        a->TraceConnectWithoutContext("Tx", MakeBoundCallback(&MrcDenyEvTestCase::OnTx, &sent));
        a->PostWrite(4u << 20);
        Simulator::Schedule(denyAt, [a = a, denied, &sent]() {
            sent.clear();
            a->DenyEv(denied);
        });
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(b.delivered[0], 1u, "delivered");
        NS_TEST_ASSERT_MSG_EQ(a->GetPathSet().GetState(denied), MrcEvState::DENIED, "DENIED");
        NS_TEST_ASSERT_MSG_EQ(sent.count(denied), 0u, "no packet on the denied EV afterwards");
        NS_TEST_ASSERT_MSG_EQ(a->GetPathSet().GetActive(1).size(),
                              activeBefore,
                              "replaced from the plane's backups");
        uint64_t plane0 = 0;
        uint64_t plane1 = 0;
        for (const auto& [ev, n] : sent)
        {
            (a->GetPathSet().GetPlane(ev) == 0 ? plane0 : plane1) += n;
        }
        NS_TEST_ASSERT_MSG_GT(plane1, 0u, "plane 1 still carries traffic");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(std::max(plane0, plane1) - std::min(plane0, plane1),
                                    (plane0 + plane1) / 10,
                                    "planes stay evenly loaded (" << plane0 << " vs " << plane1
                                                                  << ")");
    }

    /**
     * \param sent EV -> packets
     * \param p packet
     * \param psn PSN
     * \param ev EV
     * \param rtx retransmission
     */
    static void OnTx(std::map<uint32_t, uint64_t>* sent,
                     Ptr<const Packet> p,
                     uint32_t psn,
                     uint32_t ev,
                     bool rtx)
    {
        (*sent)[ev]++;
    }
};

/**
 * \ingroup mrc-test
 * A queue pair that only receives sends its SACKs on its own EVs towards the sender. When the
 * reverse direction of one uplink black-holes, the receiver's liveness probes (one random EV per
 * base RTT) retire exactly the EVs that cross it, and restoration probes bring them back after
 * the repair; the transfer is unaffected.
 */
class MrcReverseLivenessTestCase : public TestCase
{
  public:
    MrcReverseLivenessTestCase()
        : TestCase("receiver-only QP: liveness probes retire dead reverse EVs, probes restore "
                   "them")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(4);
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2, 4), true);
        // The receiver (host 2) sits under T0 1; its uplink 1 to T1 0 black-holes upwards only,
        // so the sender's data (downwards) is untouched and only the receiver's control
        // packets on EVs crossing it vanish.
        Ptr<Node> t0 = b.topo->GetSwitch(MrcSwitchTier::T0, 0, 1);
        Ptr<Node> t1 = b.topo->GetSwitch(MrcSwitchTier::T1, 0, 0);
        const MrcFabricLink dead = b.topo->GetLinksBetween(t0, t1).at(1);
        Ptr<RateErrorModel> em = DropPackets(dead.upperDevice, 1.0, false);
        // 4 active EVs, one per path (and 4 backups, the second EV of each path).
        b.mrc->SetQueuePairAttribute("EvSetSize", UintegerValue(4));
        auto [a, r] = b.Connect(0, 2);
        EvStateLog evs;
        evs.Follow(r);
        std::shared_ptr<std::vector<uint8_t>> region;
        auto expected = PostRandom(a, r, {4u << 20, 4u << 20, 4u << 20}, 8, region);
        const Time failAt = MicroSeconds(50);
        const Time repairAt = MicroSeconds(500);
        Simulator::Schedule(failAt, &RateErrorModel::Enable, em);
        Simulator::Schedule(repairAt, &RateErrorModel::Disable, em);
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();

        // Path choice 2 = T1 0, parallel link 1, in the receiver's own EV numbering: EVs 2 and
        // 6 (choice mod 4 paths).
        const Time rtt = b.mrc->GetBaseRtt(2, 0);
        NS_TEST_ASSERT_MSG_GT(evs.bad.size(), 0u, "a dead reverse EV was retired");
        for (const auto& [ev, when] : evs.bad)
        {
            NS_TEST_ASSERT_MSG_EQ(ev % 4, 2u, "no healthy reverse EV retired (EV " << ev << ")");
            // One random EV of 4 probed per RTT, then LossTimeout (8 RTTs) to declare it dead.
            NS_TEST_ASSERT_MSG_LT_OR_EQ(when - failAt,
                                        rtt * 60,
                                        "retired within 60 base RTTs (" << rtt.As(Time::US) << ")");
            NS_TEST_ASSERT_MSG_EQ(evs.good.count(ev), 1u, "probes brought EV " << ev << " back");
            NS_TEST_ASSERT_MSG_GT(evs.good[ev], repairAt, "only after the repair");
        }
        NS_TEST_ASSERT_MSG_EQ(r->GetStats().dataPacketsSent, 0u, "the receiver sent no data");
        NS_TEST_ASSERT_MSG_GT(r->GetStats().probesSent, 0u, "the receiver probed");
        NS_TEST_ASSERT_MSG_EQ(b.errors.size(), 0u, "no QP error");
        for (uint32_t msn = 0; msn < 3; ++msn)
        {
            NS_TEST_ASSERT_MSG_EQ(b.delivered[msn], 1u, "message " << msn << " delivered once");
        }
        NS_TEST_ASSERT_MSG_EQ((*region == *expected), true, "every byte in place");
    }
};

/**
 * \ingroup mrc-test
 * Policies with attributes through MrcHelper (ns-3's helper idiom): every queue pair connected
 * afterwards has the policy with those attributes; a type that is not such a policy, or an
 * unknown attribute, is refused by name.
 */
class MrcPolicyAttributesTestCase : public TestCase
{
  public:
    MrcPolicyAttributesTestCase()
        : TestCase("policies take attributes through MrcHelper's SetCongestionControl & co")
    {
    }

  private:
    void DoRun() override
    {
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2, 2), true);
        b.mrc->SetCongestionControl("ns3::MrcFixedWindow", "Window", UintegerValue(65536));
        b.mrc->SetLossRecovery("ns3::MrcGoBackN", "LocalAckTimeout", UintegerValue(10));
        auto [a, r] = b.Connect(0, 2);
        for (Ptr<MrcQueuePair> qp : {a, r})
        {
            Ptr<MrcCongestionOps> cc = qp->GetCongestionControl();
            NS_TEST_ASSERT_MSG_EQ(cc->GetInstanceTypeId().GetName(),
                                  "ns3::MrcFixedWindow",
                                  "the type named");
            UintegerValue window;
            cc->GetAttribute("Window", window);
            NS_TEST_EXPECT_MSG_EQ(window.Get(), 65536u, "with its attribute");
            NS_TEST_EXPECT_MSG_EQ(cc->GetCwnd(), 65536u, "in force");
            UintegerValue timeout;
            qp->GetLossRecovery()->GetAttribute("LocalAckTimeout", timeout);
            NS_TEST_EXPECT_MSG_EQ(timeout.Get(), 10u, "loss recovery's attribute too");
        }
        const std::string notCc = mrctest::InvalidArgumentOf([&b]() {
            b.mrc->SetCongestionControl("ns3::MrcGoBackN");
        });
        NS_TEST_EXPECT_MSG_NE(notCc.find("CongestionControl (=ns3::MrcGoBackN) must be a "
                                         "ns3::MrcCongestionOps subclass"),
                              std::string::npos,
                              notCc);
        const std::string unknown = mrctest::InvalidArgumentOf([&b]() {
            b.mrc->SetPathSelection("ns3::MrcSprayPathSelection", "Rotate", UintegerValue(1));
        });
        NS_TEST_EXPECT_MSG_NE(unknown.find("attribute Rotate is unknown"),
                              std::string::npos,
                              unknown);
        NS_TEST_EXPECT_MSG_NE(mrctest::InvalidArgumentOf([&b]() {
                                  b.mrc->SetLossRecovery("ns3::Nope");
                              }),
                              "",
                              "an unknown type");
        // Queue pair attributes are checked the same way: unknown names and values out of the
        // attribute's range are refused with the attribute's name.
        const std::string qpUnknown = mrctest::InvalidArgumentOf([&b]() {
            b.mrc->SetQueuePairAttribute("Rotate", UintegerValue(1));
        });
        NS_TEST_EXPECT_MSG_NE(qpUnknown.find("queue pair attribute Rotate is unknown"),
                              std::string::npos,
                              qpUnknown);
        const std::string qpRange = mrctest::InvalidArgumentOf([&b]() {
            b.mrc->SetQueuePairAttribute("Mss", UintegerValue(10)); // accepted: 64..9000
        });
        NS_TEST_EXPECT_MSG_NE(qpRange.find("queue pair attribute Mss"), std::string::npos, qpRange);
    }
};

/**
 * \ingroup mrc-test
 * RetirePathEvs: on a fabric with fewer paths than EVs (16 EVs, 2 paths: 8 active on each), a
 * black-holed path loses all its active EVs once losses on 3 of them (the default) are found,
 * each replaced by a backup on the other path; with RetirePathEvs=0 and RetireSilentPath=false
 * each of them is retired by a loss of its own. Every byte arrives once either way.
 */
class MrcRetirePathTestCase : public TestCase
{
  public:
    /// \param retirePath retire whole paths (RetirePathEvs default), else RetirePathEvs=0
    explicit MrcRetirePathTestCase(bool retirePath)
        : TestCase(std::string("a black-holed path: ")
                   + (retirePath ? "all its EVs retired after losses on 3 (RetirePathEvs)"
                                 : "each EV retired by a loss of its own (RetirePathEvs=0, "
                                   "RetireSilentPath=false)"))
        , m_retirePath(retirePath)
    {
    }

  private:
    /// A retirement: when, which EV, why.
    struct Retirement
    {
        Time at;           //!< when
        uint32_t ev;       //!< EV
        std::string cause; //!< cause
    };

    void DoRun() override
    {
        RngSeedManager::SetSeed(3);
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2), true);
        b.mrc->SetQueuePairAttribute("EvSetSize", UintegerValue(16));
        if (!m_retirePath)
        {
            b.mrc->SetLossRecovery("ns3::MrcSelectiveRecovery",
                                   "RetirePathEvs",
                                   UintegerValue(0),
                                   "RetireSilentPath",
                                   BooleanValue(false));
        }
        Ptr<Node> t0 = b.topo->GetSwitch(MrcSwitchTier::T0, 0, 0);
        Ptr<Node> t1 = b.topo->GetSwitch(MrcSwitchTier::T1, 0, 0);
        Ptr<RateErrorModel> hole =
            DropPackets(b.topo->GetLinksBetween(t0, t1).at(0).upperDevice, 1.0, false);
        Simulator::Schedule(MicroSeconds(30), &RateErrorModel::Enable, hole);
        auto [a, r] = b.Connect(0, 2);
        std::vector<Retirement> retired;
        a->TraceConnectWithoutContext("EvStateChange",
                                      MakeBoundCallback(&MrcRetirePathTestCase::OnEv, &retired));
        const std::vector<uint32_t> start = a->GetPathSet().GetActive(0);
        std::shared_ptr<std::vector<uint8_t>> region;
        auto expected = PostRandom(a, r, {2u << 20}, 4, region);
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(b.errors.size(), 0u, "no QP error");
        NS_TEST_ASSERT_MSG_EQ(b.delivered[0], 1u, "the message delivered once");
        NS_TEST_ASSERT_MSG_EQ((*region == *expected), true, "every byte in place");
        NS_TEST_ASSERT_MSG_EQ(retired.empty(), false, "the black-holed path was found");
        // The path of the first EV retired is the black-holed one: 8 of the 16 active EVs.
        const MrcSrv6RoutingHelper& srv6 = b.dataPlane.GetSrv6Helper();
        auto path = [&srv6](uint32_t ev) {
            return srv6.GetPath(0, 2, ev).carriers;
        };
        const auto holed = path(retired.front().ev);
        std::map<uint32_t, Retirement> first; // EV of the holed path active at the start -> its
        for (const Retirement& x : retired)   // retirement
        {
            if (path(x.ev) == holed && !first.count(x.ev)
                && std::find(start.begin(), start.end(), x.ev) != start.end())
            {
                first.emplace(x.ev, x);
            }
        }
        uint32_t onHoled = 0;
        for (uint32_t ev : start)
        {
            onHoled += path(ev) == holed ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(onHoled, 8u, "8 active EVs per path");
        NS_TEST_ASSERT_MSG_EQ(first.size(), 8u, "each of them retired");
        uint32_t own = 0;
        Time earliest = Time::Max();
        Time latest = Time::Min();
        for (const auto& [ev, x] : first)
        {
            own += x.cause == "silent loss" ? 1 : 0;
            earliest = std::min(earliest, x.at);
            latest = std::max(latest, x.at);
        }
        if (m_retirePath)
        {
            NS_TEST_ASSERT_MSG_EQ(own, 3u, "3 losses of their own, the rest with the third");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(own, 8u, "each by a loss of its own");
            NS_TEST_ASSERT_MSG_GT(latest, earliest, "one after another");
        }
        for (uint32_t ev : a->GetPathSet().GetActive(0))
        {
            NS_TEST_ASSERT_MSG_EQ((path(ev) == holed), false, "EV " << ev << " still on the hole");
        }
        NS_TEST_ASSERT_MSG_EQ(a->GetPathSet().GetActive(0).size(), 16u, "backups filled in");
    }

    /**
     * \param log retirements
     * \param ev EV \param from old state \param to new state \param cause why
     */
    static void OnEv(std::vector<Retirement>* log,
                     uint32_t ev,
                     MrcEvState from,
                     MrcEvState to,
                     std::string cause)
    {
        if (to == MrcEvState::ASSUMED_BAD)
        {
            log->push_back({Simulator::Now(), ev, cause});
        }
    }

    bool m_retirePath; //!< RetirePathEvs at its default (else 0)
};

/**
 * \ingroup mrc-test
 * The queue-pair mechanisms test suite.
 */
class MrcQpTestSuite : public TestSuite
{
  public:
    MrcQpTestSuite()
        : TestSuite("mrc-qp", Type::UNIT)
    {
        AddTestCase(new MrcSackCoalescingTestCase(16384));
        AddTestCase(new MrcSackCoalescingTestCase(0));
        AddTestCase(new MrcLossTimerWakesTestCase);
        AddTestCase(new MrcNoBitmapTestCase);
        AddTestCase(new MrcDenyEvTestCase);
        AddTestCase(new MrcReverseLivenessTestCase);
        AddTestCase(new MrcPolicyAttributesTestCase);
        AddTestCase(new MrcRetirePathTestCase(true));
        AddTestCase(new MrcRetirePathTestCase(false));
    }
};

/// The suite's single instance.
static MrcQpTestSuite g_mrcQpTestSuite;
