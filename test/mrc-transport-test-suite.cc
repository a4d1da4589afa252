/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The MRC transport end to end: exactly-once, byte-exact delivery of many messages of random
 * sizes under random loss, trimming and failures; EV retirement on a black-holed link within
 * a bounded number of RTTs and return through probes; QP failure only when every path is gone.
 */

#include "mrc-test-bench.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/mrc-module.h"
#include "ns3/names.h"
#include "ns3/pointer.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <map>
#include <memory>
#include <random>

using namespace ns3;

using mrctest::Bench;
using mrctest::DropPackets;
using mrctest::EvStateLog;
using mrctest::PostRandom;

/**
 * \ingroup mrc-test
 * Messages of random sizes arrive exactly once and byte for byte; the QP sprays over its EVs.
 */
class MrcDeliveryTestCase : public TestCase
{
  public:
    /**
     * \param name name
     * \param plane data plane
     * \param lossRate random loss on every fabric link (0: none)
     * \param trimming trimming switches
     */
    MrcDeliveryTestCase(std::string name, MrcDataPlane plane, double lossRate, bool trimming)
        : TestCase(name)
        , m_plane(plane)
        , m_lossRate(lossRate)
        , m_trimming(trimming)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(7);
        Bench b(MrcClosSpec::TwoTier(2, 2, 2, 2, 4), m_trimming, m_plane);
        if (m_lossRate > 0)
        {
            for (const MrcFabricLink& l : b.topo->GetLinks())
            {
                if (l.tier != MrcLinkTier::T0_T1)
                {
                    continue;
                }
                for (Ptr<NetDevice> d : {l.lowerDevice, l.upperDevice})
                {
                    DropPackets(d, m_lossRate);
                }
            }
        }
        auto [a, r] = b.Connect(0, 3);
        std::mt19937 gen(11);
        std::vector<uint64_t> sizes{1, 0, 4096, 4097, 3 * 1024 * 1024};
        for (int i = 0; i < 20; ++i)
        {
            sizes.push_back(1 + gen() % 300000);
        }
        std::shared_ptr<std::vector<uint8_t>> region;
        auto expected = PostRandom(a, r, sizes, 3, region);
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(b.errors.size(), 0u, "no QP error");
        for (uint32_t msn = 0; msn < sizes.size(); ++msn)
        {
            NS_TEST_ASSERT_MSG_EQ(b.delivered[msn], 1u, "message " << msn << " delivered once");
            NS_TEST_ASSERT_MSG_EQ(b.completed[msn], 1u, "message " << msn << " completed once");
            NS_TEST_ASSERT_MSG_EQ(
                (b.imms[msn]
                 == (msn % 3 == 0 ? std::optional<uint32_t>(1000 + msn) : std::nullopt)),
                true,
                "immediate of " << msn);
        }
        NS_TEST_ASSERT_MSG_EQ((*region == *expected), true, "every byte in place");
        NS_TEST_ASSERT_MSG_EQ(a->GetPendingMessages(), 0u, "nothing pending");
        const auto& st = a->GetStats();
        if (m_lossRate > 0)
        {
            NS_TEST_ASSERT_MSG_GT(st.retransmissions, 0u, "losses were repaired");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(st.retransmissions, 0u, "healthy fabric: no retransmission");
        }
        NS_TEST_ASSERT_MSG_EQ(r->GetStats().dataPacketsReceived,
                              st.dataPacketsSent,
                              "each PSN once");
    }

    MrcDataPlane m_plane; //!< data plane
    double m_lossRate;    //!< random loss
    bool m_trimming;      //!< trimming
};

/**
 * \ingroup mrc-test
 * A black-holed uplink: the QP retires exactly the EVs that cross it within a bounded number of
 * RTTs, loses no message, and takes the EVs back through probes once the link is repaired.
 */
class MrcBlackholeTestCase : public TestCase
{
  public:
    MrcBlackholeTestCase()
        : TestCase("black-holed link: EVs retired within a few RTTs, no loss, probes bring them "
                   "back")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(3);
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2, 4), true);
        Ptr<Node> t0 = b.topo->GetSwitch(MrcSwitchTier::T0, 0, 0);
        Ptr<Node> t1 = b.topo->GetSwitch(MrcSwitchTier::T1, 0, 0);
        const MrcFabricLink dead = b.topo->GetLinksBetween(t0, t1).at(1);
        Ptr<RateErrorModel> em = DropPackets(dead.upperDevice, 1.0, false);
        auto [a, r] = b.Connect(0, 2);
        EvStateLog evs;
        evs.Follow(a);
        std::shared_ptr<std::vector<uint8_t>> region;
        auto expected = PostRandom(a, r, {4u << 20, 4u << 20, 4u << 20}, 5, region);
        const Time failAt = MicroSeconds(50);
        const Time repairAt = MicroSeconds(400);
        Simulator::Schedule(failAt, &RateErrorModel::Enable, em);
        Simulator::Schedule(repairAt, &RateErrorModel::Disable, em);
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();

        // The EVs through the dead link are those of path choice 2 (T1 0, parallel link 1): the
        // pair has 4 paths and the QP more EVs, so every EV whose choice is 2 mod 4.
        // A dead EV drawn later from the backups is retired when it is first used, so only the
        // first retirement is timed.
        const Time rtt = b.mrc->GetBaseRtt(0, 2);
        NS_TEST_ASSERT_MSG_GT(evs.bad.size(), 0u, "dead EVs were retired");
        Time first = Seconds(1);
        for (const auto& [ev, when] : evs.bad)
        {
            first = Min(first, when);
        }
        NS_TEST_ASSERT_MSG_LT_OR_EQ(first - failAt,
                                    rtt * 4,
                                    "first dead EV retired within 4 base RTTs (" << rtt.As(
                                        Time::US) << "), took " << (first - failAt).As(Time::US));
        for (const auto& [ev, when] : evs.bad)
        {
            NS_TEST_ASSERT_MSG_EQ(ev % 4, 2u, "no healthy EV retired (EV " << ev << ")");
            NS_TEST_ASSERT_MSG_EQ(evs.good.count(ev), 1u, "probes brought EV " << ev << " back");
            NS_TEST_ASSERT_MSG_GT(evs.good[ev], repairAt, "only after the repair");
            NS_TEST_ASSERT_MSG_EQ(a->GetPathSet().GetState(ev), MrcEvState::GOOD, "GOOD again");
        }
        NS_TEST_ASSERT_MSG_EQ(b.errors.size(), 0u, "no QP error");
        for (uint32_t msn = 0; msn < 3; ++msn)
        {
            NS_TEST_ASSERT_MSG_EQ(b.delivered[msn], 1u, "message " << msn << " delivered once");
        }
        NS_TEST_ASSERT_MSG_EQ((*region == *expected), true, "every byte in place");
        // SACKs found most holes (later packets of the plane delivered, or the out-of-order
        // count); the loss timer only what was lost again within the same recovery episode (a
        // retransmission on another dead EV).
        const MrcQpStats& st = a->GetStats();
        const uint64_t bySack = st.rtxSack + st.rtxPlaneOrder;
        NS_TEST_ASSERT_MSG_GT(bySack, 0u, "losses found by the SACK rules");
        NS_TEST_ASSERT_MSG_LT(st.rtxTimeout, bySack, "the loss timer is the backstop");
        NS_TEST_ASSERT_MSG_GT(a->GetStats().probesSent, 0u, "probes sent");
    }
};

/**
 * \ingroup mrc-test
 * N-to-1 incast over trimming switches: trimmed packets are NACKed and retransmitted at once,
 * no loss timer fires, no EV is penalised for last-hop trims, and the receiver's link is busy.
 */
class MrcIncastTestCase : public TestCase
{
  public:
    MrcIncastTestCase()
        : TestCase("7-to-1 incast: NACK-driven retransmission, no timeouts, no EV penalised, "
                   "goodput near line rate")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(5);
        // Senders and receiver under one T0: only the receiver's port (the last hop) congests.
        Bench b(MrcClosSpec::TwoTier(1, 2, 8, 2), true);
        const uint64_t bytes = 2u << 20;
        std::vector<Ptr<MrcQueuePair>> senders;
        Time last;
        uint32_t penalised = 0;
        for (uint32_t s = 1; s < 8; ++s)
        {
            auto [a, r] = b.Connect(s, 0);
            a->PostWrite(bytes);
            senders.push_back(a);
            r->TraceConnectWithoutContext(
                "MessageDelivered",
                MakeBoundCallback(&MrcIncastTestCase::OnDelivered, &last));
            a->TraceConnectWithoutContext("EvStateChange",
                                          MakeBoundCallback(&MrcIncastTestCase::OnEv, &penalised));
        }
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        uint64_t lastHopRtx = 0;
        uint64_t timeouts = 0;
        for (const auto& a : senders)
        {
            lastHopRtx += a->GetStats().rtxTrimmedLastHop;
            timeouts += a->GetStats().rtxTimeout;
        }
        uint32_t deliveredMessages = 0;
        for (const auto& [msn, n] : b.delivered)
        {
            deliveredMessages += n;
        }
        NS_TEST_ASSERT_MSG_EQ(deliveredMessages, 7u, "all 7 messages delivered");
        NS_TEST_ASSERT_MSG_GT(lastHopRtx, 0u, "last-hop trims were NACKed and retransmitted");
        NS_TEST_ASSERT_MSG_EQ(timeouts, 0u, "no loss timer fired");
        NS_TEST_ASSERT_MSG_EQ(penalised, 0u, "TRIMMED_LASTHOP penalises no EV");
        const double ideal = 7.0 * bytes * 8 / 100e9; // seconds at line rate
        const double goodput = ideal / last.GetSeconds();
        NS_TEST_ASSERT_MSG_GT(goodput, 0.8, "receiver goodput " << goodput << " of line rate");
    }

    /**
     * \param last latest delivery
     * \param msn message
     * \param bytes size
     */
    static void OnDelivered(Time* last, uint32_t msn, uint64_t bytes)
    {
        *last = Simulator::Now();
    }

    /**
     * \param count EVs penalised
     * \param ev EV
     * \param from old
     * \param to new
     * \param cause why
     */
    static void OnEv(uint32_t* count,
                     uint32_t ev,
                     MrcEvState from,
                     MrcEvState to,
                     std::string cause)
    {
        if (to == MrcEvState::SKIP || to == MrcEvState::ASSUMED_BAD)
        {
            ++*count;
        }
    }
};

/**
 * \ingroup mrc-test
 * The QP fails, once and with a reason, only when every path is gone for longer than its
 * timeout budget; PSNs wrap around 2^24 without harm.
 */
class MrcFailureAndWrapTestCase : public TestCase
{
  public:
    MrcFailureAndWrapTestCase()
        : TestCase("QP error only when every path is gone; PSN wrap")
    {
    }

  private:
    void DoRun() override
    {
        {
            Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2), true);
            b.mrc->SetQueuePairAttribute("AckTimeoutExponent", UintegerValue(8)); // 262 us
            b.mrc->SetQueuePairAttribute("RetryCount", UintegerValue(2));
            auto [a, r] = b.Connect(0, 2);
            mrctest::BlackholeUplinks(*b.topo, b.topo->GetSwitch(MrcSwitchTier::T0, 0, 0));
            a->PostWrite(1u << 20);
            Simulator::Stop(MilliSeconds(5));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(b.errors.size(), 1u, "one error");
            NS_TEST_ASSERT_MSG_NE(b.errors[0].find("no acknowledgement progress"),
                                  std::string::npos,
                                  b.errors[0]);
            NS_TEST_ASSERT_MSG_EQ(a->IsFailed(), true, "failed");
            NS_TEST_ASSERT_MSG_EQ(b.delivered.size(), 0u, "nothing delivered");
        }
        {
            Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2), true);
            b.mrc->SetInitialPsn(0xffffff - 100);
            auto [a, r] = b.Connect(0, 3);
            std::shared_ptr<std::vector<uint8_t>> region;
            auto expected = PostRandom(a, r, {1u << 20, 12345}, 9, region);
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(b.delivered.size(), 2u, "both messages across the wrap");
            NS_TEST_ASSERT_MSG_EQ((*region == *expected), true, "every byte in place");
            NS_TEST_ASSERT_MSG_EQ(r->GetStats().dataPacketsReceived,
                                  256u + 4u,
                                  "PSNs: 1 MiB + 12345 B");
        }
    }
};

/**
 * \ingroup mrc-test
 * Malformed packets on UDP/4791 are dropped and counted, never trusted.
 */
class MrcMalformedTestCase : public TestCase
{
  public:
    MrcMalformedTestCase()
        : TestCase("malformed and misaddressed packets on UDP port 4791 are dropped and counted")
    {
    }

  private:
    void DoRun() override
    {
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2), false, MrcDataPlane::ECMP);
        Ptr<Socket> s = Socket::CreateSocket(b.topo->GetHost(0), UdpSocketFactory::GetTypeId());
        s->Bind6();
        const Inet6SocketAddress to(b.topo->GetHostAddress(2, 0), kMrcUdpPort);
        auto send = [s, to](std::vector<uint8_t> bytes) {
            s->SendTo(Create<Packet>(bytes.data(), bytes.size()), 0, to);
        };
        // 5 bytes: no BTH. 12 bytes, opcode 0x0a: unknown opcode. 12 bytes, QP 77: unknown QP.
        Simulator::Schedule(MicroSeconds(1), [send]() {
            send({1, 2, 3, 4, 5});
        });
        Simulator::Schedule(MicroSeconds(2), [send]() {
            send({0x0a, 0, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 1});
        });
        Simulator::Schedule(MicroSeconds(3), [send]() {
            send({0xca, 0, 0xff, 0xff, 0, 0, 0, 77, 0, 0, 0, 1});
        });
        Simulator::Run();
        Ptr<MrcL4Protocol> l4 = MrcHelper::GetL4(b.topo->GetHost(2));
        NS_TEST_ASSERT_MSG_EQ(l4->GetDroppedPackets(MrcL4Protocol::DropReason::MALFORMED), 2u, "");
        NS_TEST_ASSERT_MSG_EQ(l4->GetDroppedPackets(MrcL4Protocol::DropReason::UNKNOWN_QP), 1u, "");
    }
};

/**
 * \ingroup mrc-test
 * ECN marks on one EV move traffic away from it: a line-rate UDP flow loads the path of EV 0
 * (plain IPv6 follows the first shortest path, which is EV 0's), the QP sees ECN echoes on EV 0
 * and its share of the QP's packets falls well below the even 1/4 while the other EVs take the
 * load.
 */
class MrcEcnSteeringTestCase : public TestCase
{
  public:
    MrcEcnSteeringTestCase()
        : TestCase("ECN marks on one EV move traffic to the other EVs")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(9);
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2, 4), true);
        auto [a, r] = b.Connect(0, 2);
        std::map<uint32_t, uint32_t> perEv;
        a->TraceConnectWithoutContext("Tx",
                                      MakeBoundCallback(&MrcEcnSteeringTestCase::OnTx, &perEv));
        // Background: host 1 -> host 3 at 95 Gb/s of plain UDP, on EV 0's links.
        Ptr<Socket> s = Socket::CreateSocket(b.topo->GetHost(1), UdpSocketFactory::GetTypeId());
        s->Bind6();
        const Inet6SocketAddress to(b.topo->GetHostAddress(3, 0), 9);
        const Time gap = DataRate("95Gbps").CalculateBytesTxTime(4096 + 48 + 2);
        for (uint32_t i = 0; i < 4000; ++i)
        {
            Simulator::Schedule(gap * int64_t(i), [s, to]() {
                s->SendTo(Create<Packet>(4096), 0, to);
            });
        }
        // The QP starts once the background has built a queue on EV 0's links.
        Simulator::Schedule(MicroSeconds(50), [a = a]() {
            a->PostWrite(8u << 20);
        });
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        // The pair has 4 paths and the QP more EVs: path = EV choice mod 4.
        uint32_t total = 0;
        std::map<uint32_t, uint32_t> perPath;
        for (const auto& [ev, n] : perEv)
        {
            total += n;
            perPath[(ev & 0x0fffffff) % 4] += n;
        }
        const double share0 = double(perPath[0]) / total;
        NS_TEST_ASSERT_MSG_EQ(b.delivered[0], 1u, "delivered");
        NS_TEST_ASSERT_MSG_EQ(perPath.size(), 4u, "four paths");
        NS_TEST_ASSERT_MSG_LT(share0, 0.15, "path 0 carried " << share0 << " of the packets");
        for (uint32_t path = 1; path < 4; ++path)
        {
            NS_TEST_ASSERT_MSG_GT(double(perPath[path]) / total,
                                  0.25,
                                  "path " << path << " took load");
        }
    }

    /**
     * \param perEv packets per EV
     * \param p packet
     * \param psn PSN
     * \param ev EV
     * \param rtx retransmission
     */
    static void OnTx(std::map<uint32_t, uint32_t>* perEv,
                     Ptr<const Packet> p,
                     uint32_t psn,
                     uint32_t ev,
                     bool rtx)
    {
        (*perEv)[ev]++;
    }
};

/**
 * \ingroup mrc-test
 * A NIC port goes down mid-transfer, at the sender or at the receiver: the queue pair moves to
 * the other plane (the receiver announces its dead port in SACKs) and every byte arrives.
 */
class MrcPortDownTestCase : public TestCase
{
  public:
    /**
     * \param atReceiver the receiver's port fails (else the sender's)
     */
    explicit MrcPortDownTestCase(bool atReceiver)
        : TestCase(std::string("NIC port down at the ") + (atReceiver ? "receiver" : "sender")
                   + ": the other plane carries everything")
        , m_atReceiver(atReceiver)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(4);
        Bench b(MrcClosSpec::TwoTier(2, 2, 2, 2), true);
        auto [a, r] = b.Connect(0, 3);
        std::map<uint32_t, uint32_t> afterDown; // plane -> packets sent after the failure
        const Time downAt = MicroSeconds(60);
        a->TraceConnectWithoutContext(
            "Tx",
            MakeBoundCallback(&MrcPortDownTestCase::OnTx, &afterDown, downAt));
        std::shared_ptr<std::vector<uint8_t>> region;
        auto expected = PostRandom(a, r, {6u << 20}, 2, region);
        Ptr<MrcL4Protocol> l4 = MrcHelper::GetL4(b.topo->GetHost(m_atReceiver ? 3 : 0));
        Simulator::Schedule(downAt, &MrcL4Protocol::SetPortUp, l4, 1, false);
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(b.delivered[0], 1u, "delivered");
        NS_TEST_ASSERT_MSG_EQ((*region == *expected), true, "every byte in place");
        NS_TEST_ASSERT_MSG_GT(afterDown[0], 0u, "plane 0 carries on");
        // The sender stops at once; told by SACKs, it stops within a round trip.
        NS_TEST_ASSERT_MSG_LT_OR_EQ(afterDown[1], (m_atReceiver ? 64u : 0u), "plane 1 abandoned");
        NS_TEST_ASSERT_MSG_EQ(b.errors.size(), 0u, "no QP error");
    }

    /**
     * \param counts packets per plane after the failure
     * \param downAt failure time
     * \param p packet
     * \param psn PSN
     * \param ev EV
     * \param rtx retransmission
     */
    static void OnTx(std::map<uint32_t, uint32_t>* counts,
                     Time downAt,
                     Ptr<const Packet> p,
                     uint32_t psn,
                     uint32_t ev,
                     bool rtx)
    {
        if (Simulator::Now() > downAt)
        {
            (*counts)[ev >> 28]++;
        }
    }

    bool m_atReceiver; //!< which end fails
};

/**
 * \ingroup mrc-test
 * The transport test suite.
 */
class MrcTransportTestSuite : public TestSuite
{
  public:
    MrcTransportTestSuite()
        : TestSuite("mrc-transport", Type::UNIT)
    {
        AddTestCase(new MrcDeliveryTestCase("byte-exact delivery, SRv6, healthy",
                                            MrcDataPlane::SRV6,
                                            0,
                                            true));
        AddTestCase(new MrcDeliveryTestCase("byte-exact delivery, ECMP mode, healthy",
                                            MrcDataPlane::ECMP,
                                            0,
                                            true));
        AddTestCase(new MrcDeliveryTestCase("byte-exact delivery, SRv6, 2% random loss",
                                            MrcDataPlane::SRV6,
                                            0.02,
                                            true));
        AddTestCase(new MrcBlackholeTestCase);
        AddTestCase(new MrcIncastTestCase);
        AddTestCase(new MrcEcnSteeringTestCase);
        AddTestCase(new MrcPortDownTestCase(false));
        AddTestCase(new MrcPortDownTestCase(true));
        AddTestCase(new MrcFailureAndWrapTestCase);
        AddTestCase(new MrcMalformedTestCase);
    }
};

/// The suite's single instance.
static MrcTransportTestSuite g_mrcTransportTestSuite;
