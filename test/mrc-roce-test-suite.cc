/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The RoCEv2 baseline (MrcHelper::SetRoceV2Baseline: one EV per queue pair, go-back-N, DCQCN):
 * go-back-N resends exactly what it must, a queue pair keeps one UDP source port, and a group of
 * queue pairs stripes a message over distinct source ports; DCQCN cuts the rate by its formula
 * on CNPs and recovers (that case: mrc-dcqcn-test-case.cc).
 */

#include "mrc-dcqcn-test-case.h"
#include "mrc-test-bench.h"

#include "ns3/error-model.h"
#include "ns3/mrc-scoped-attribute-default.h"
#include "ns3/pointer.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/test.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <map>
#include <set>
#include <vector>

using namespace ns3;

using mrctest::Bench;
using mrctest::DropPackets;
using mrctest::PostRandom;

namespace
{

/// Drops the packets whose uid it is given (version-independent, unlike ListErrorModel's list).
class UidDropper : public ErrorModel
{
  public:
    std::set<uint64_t> uids; //!< packets to drop

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        return uids.count(p->GetUid()) > 0;
    }

    void DoReset() override
    {
    }
};

/// What a sending queue pair put on the wire, from its Tx trace.
struct TxLog
{
    std::vector<uint32_t> fresh;  //!< PSNs of new packets, in order
    std::vector<uint32_t> resent; //!< PSNs of retransmissions, in order
    std::set<uint32_t> evs;       //!< EVs used
    Time lastFresh;               //!< last new packet
    Time firstResent{Time(-1)};   //!< first retransmission
    uint32_t dropPsn{0};          //!< the PSN whose first transmission is dropped
    Ptr<UidDropper> dropper;      //!< the receiver's error model

    /**
     * \param p packet
     * \param psn PSN
     * \param ev EV
     * \param rtx retransmission
     */
    void OnTx(Ptr<const Packet> p, uint32_t psn, uint32_t ev, bool rtx)
    {
        evs.insert(ev);
        if (rtx)
        {
            resent.push_back(psn);
            if (firstResent.IsNegative())
            {
                firstResent = Simulator::Now();
            }
            return;
        }
        fresh.push_back(psn);
        lastFresh = Simulator::Now();
        if (dropper && psn == dropPsn)
        {
            dropper->uids.insert(p->GetUid());
        }
    }
};

/**
 * Drop the first transmission of one PSN at the receiving host (every NIC port).
 * \param b the bench
 * \param a the sending queue pair
 * \param host the receiving host
 * \param psn the PSN
 * \param log the sender's log (records the packet's uid when it leaves)
 */
void
DropFirstTransmission(Bench& b, Ptr<MrcQueuePair> a, uint32_t host, uint32_t psn, TxLog& log)
{
    log.dropPsn = psn;
    log.dropper = CreateObject<UidDropper>();
    for (uint32_t p = 0; p < b.topo->GetSpec().planes; ++p)
    {
        b.topo->GetHostDevice(host, p)->SetAttribute("ReceiveErrorModel",
                                                     PointerValue(log.dropper));
    }
    a->TraceConnectWithoutContext("Tx", MakeCallback(&TxLog::OnTx, &log));
}

} // namespace

/**
 * \ingroup mrc-test
 * Go-back-N after a NACK: PSN k of an N-packet message is lost on the single path; the receiver
 * drops the N-1-k packets behind it and NACKs the gap once with PSN k; the sender resends
 * exactly k..N-1, once each and in order; every byte arrives exactly once.
 */
class MrcGoBackNNackTestCase : public TestCase
{
  public:
    MrcGoBackNNackTestCase()
        : TestCase("go-back-N: one lost PSN, one NACK, exactly PSNs k..N-1 resent")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2), false, MrcDataPlane::ECMP);
        b.mrc->SetRoceV2Baseline();
        const uint32_t first = 1000;
        b.mrc->SetInitialPsn(first);
        auto [a, r] = b.Connect(0, 2);
        const uint32_t n = 16;
        const uint32_t k = 5;
        TxLog log;
        DropFirstTransmission(b, a, 2, first + k, log);
        std::shared_ptr<std::vector<uint8_t>> region;
        auto expected = PostRandom(a, r, {n * 4096}, 4, region);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(log.fresh.size(), n, "N new packets");
        NS_TEST_ASSERT_MSG_EQ(log.dropper->uids.size(), 1u, "PSN k's first transmission dropped");
        // The scenario's premise: every new packet left before the NACK came back.
        NS_TEST_ASSERT_MSG_GT(log.firstResent, log.lastFresh, "all N sent before the rewind");
        std::vector<uint32_t> want;
        for (uint32_t psn = first + k; psn < first + n; ++psn)
        {
            want.push_back(psn);
        }
        NS_TEST_ASSERT_MSG_EQ(log.resent.size(), n - k, "N - k retransmissions");
        NS_TEST_ASSERT_MSG_EQ((log.resent == want), true, "exactly PSNs k..N-1, in order");
        const MrcQpStats& rs = r->GetStats();
        NS_TEST_ASSERT_MSG_EQ(rs.outOfSequenceDropped, n - 1 - k, "k+1..N-1 dropped once");
        NS_TEST_ASSERT_MSG_EQ(rs.nacksSent, 1u, "one NACK for the gap");
        NS_TEST_ASSERT_MSG_EQ(rs.dataPacketsReceived, n, "each PSN placed once");
        NS_TEST_ASSERT_MSG_EQ(rs.duplicatesReceived, 0u, "no duplicate");
        const MrcQpStats& as = a->GetStats();
        NS_TEST_ASSERT_MSG_EQ(as.rewindsNack, 1u, "one rewind, by the NACK");
        NS_TEST_ASSERT_MSG_EQ(as.rewindsTimeout, 0u, "no timeout");
        NS_TEST_ASSERT_MSG_EQ(as.retransmissions, n - k, "retransmission counter");
        NS_TEST_ASSERT_MSG_EQ(b.delivered[0], 1u, "delivered once");
        NS_TEST_ASSERT_MSG_EQ(b.completed[0], 1u, "completed once");
        NS_TEST_ASSERT_MSG_EQ((*region == *expected), true, "every byte in place");
        NS_TEST_ASSERT_MSG_EQ(log.evs.size(), 1u, "one EV");
    }
};

/**
 * \ingroup mrc-test
 * Go-back-N after a timeout: the last packet is lost, nothing follows it to reveal the gap, so
 * no NACK comes; the retransmission timeout resends exactly that one packet.
 */
class MrcGoBackNTimeoutTestCase : public TestCase
{
  public:
    MrcGoBackNTimeoutTestCase()
        : TestCase("go-back-N: the last packet lost, the timeout resends exactly it")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(2);
        // A Local ACK Timeout of 4.096 us x 2^5 = 131 us (the default, 2^18, is 1.07 s).
        MrcScopedAttributeDefault t("ns3::MrcGoBackN", "LocalAckTimeout", UintegerValue(5));
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2), false, MrcDataPlane::ECMP);
        b.mrc->SetRoceV2Baseline();
        const uint32_t first = 0xfffff0; // across the 24-bit wrap
        b.mrc->SetInitialPsn(first);
        auto [a, r] = b.Connect(0, 3);
        const uint32_t n = 32;
        TxLog log;
        DropFirstTransmission(b, a, 3, MrcPsnAdd(first, n - 1), log);
        std::shared_ptr<std::vector<uint8_t>> region;
        auto expected = PostRandom(a, r, {(n - 1) * 4096 + 100}, 5, region);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();

        Ptr<MrcGoBackN> gbn = DynamicCast<MrcGoBackN>(a->GetLossRecovery());
        NS_TEST_ASSERT_MSG_EQ((gbn != nullptr), true, "go-back-N in use");
        NS_TEST_ASSERT_MSG_EQ(gbn->GetRetransmitTimeout(),
                              NanoSeconds(4096 * 32),
                              "the Local ACK Timeout, 4.096 us x 2^t");
        if (log.resent.empty())
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(log.resent.size(), 1u, "one retransmission");
        NS_TEST_ASSERT_MSG_EQ(log.resent.at(0), MrcPsnAdd(first, n - 1), "of the last PSN");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(log.firstResent - log.lastFresh,
                                    gbn->GetRetransmitTimeout(),
                                    "after the timeout");
        const MrcQpStats& as = a->GetStats();
        NS_TEST_ASSERT_MSG_EQ(as.rewindsTimeout, 1u, "one rewind, by the timeout");
        NS_TEST_ASSERT_MSG_EQ(as.rewindsNack, 0u, "no NACK");
        NS_TEST_ASSERT_MSG_EQ(r->GetStats().outOfSequenceDropped, 0u, "nothing out of order");
        NS_TEST_ASSERT_MSG_EQ(r->GetStats().nacksSent, 0u, "no NACK sent");
        NS_TEST_ASSERT_MSG_EQ(b.delivered[0], 1u, "delivered once");
        NS_TEST_ASSERT_MSG_EQ((*region == *expected), true, "every byte in place");
        NS_TEST_ASSERT_MSG_EQ(b.errors.size(), 0u, "no QP error");
    }
};

/**
 * \ingroup mrc-test
 * The RoCEv2 baseline under random loss: many messages of random sizes arrive exactly once and
 * byte for byte, through go-back-N rewinds.
 */
class MrcRoceLossyDeliveryTestCase : public TestCase
{
  public:
    MrcRoceLossyDeliveryTestCase()
        : TestCase("RoCEv2 baseline: byte-exact delivery under 1% random loss")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(6);
        // Tail losses wait for the Local ACK Timeout: 4.096 us x 2^10 = 4.2 ms here (the default,
        // 1.07 s, would make this a simulated minute of timers for the same check).
        MrcScopedAttributeDefault t("ns3::MrcGoBackN", "LocalAckTimeout", UintegerValue(10));
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2), false, MrcDataPlane::ECMP);
        b.mrc->SetRoceV2Baseline();
        for (const MrcFabricLink& l : b.topo->GetLinks())
        {
            if (l.tier == MrcLinkTier::T0_T1)
            {
                DropPackets(l.lowerDevice, 0.01);
                DropPackets(l.upperDevice, 0.01);
            }
        }
        auto [a, r] = b.Connect(0, 2);
        std::vector<uint64_t> sizes{1, 0, 4096, 4097, 1u << 20};
        for (uint64_t i = 0; i < 10; ++i)
        {
            sizes.push_back(1 + (i * 7919 * 31) % 200000);
        }
        std::shared_ptr<std::vector<uint8_t>> region;
        auto expected = PostRandom(a, r, sizes, 7, region);
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(b.errors.size(), 0u, "no QP error");
        for (uint32_t msn = 0; msn < sizes.size(); ++msn)
        {
            NS_TEST_ASSERT_MSG_EQ(b.delivered[msn], 1u, "message " << msn << " delivered once");
            NS_TEST_ASSERT_MSG_EQ(b.completed[msn], 1u, "message " << msn << " completed once");
        }
        NS_TEST_ASSERT_MSG_EQ((*region == *expected), true, "every byte in place");
        const MrcQpStats& as = a->GetStats();
        NS_TEST_ASSERT_MSG_GT(as.rewindsNack + as.rewindsTimeout, 0u, "losses were repaired");
        NS_TEST_ASSERT_MSG_EQ(r->GetStats().dataPacketsReceived,
                              as.dataPacketsSent,
                              "each PSN placed once");
    }
};

/**
 * \ingroup mrc-test
 * A single-path queue pair has no path health: when its path dies it keeps rewinding on its
 * timeout, never changes an EV's state, and fails after RetryCount + 1 QP timeouts, as an RC QP.
 */
class MrcRoceDeadPathTestCase : public TestCase
{
  public:
    MrcRoceDeadPathTestCase()
        : TestCase("single path: a dead path is not avoided; the QP fails after RetryCount")
    {
    }

  private:
    /**
     * \param count state changes
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
        ++*count;
    }

    void DoRun() override
    {
        // The RC retry timer is the Local ACK Timeout: 4.096 us x 2^6 = 262 us.
        MrcScopedAttributeDefault t("ns3::MrcGoBackN", "LocalAckTimeout", UintegerValue(6));
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2), false, MrcDataPlane::ECMP);
        b.mrc->SetRoceV2Baseline();
        b.mrc->SetQueuePairAttribute("AckTimeoutExponent", UintegerValue(8)); // 262 us
        b.mrc->SetQueuePairAttribute("RetryCount", UintegerValue(2));
        auto [a, r] = b.Connect(0, 2);
        uint32_t changes = 0;
        a->TraceConnectWithoutContext("EvStateChange", MakeBoundCallback(&OnEv, &changes));
        // Every uplink of the sender's T0 black-holes: whatever path ECMP hashed the QP onto.
        mrctest::BlackholeUplinks(*b.topo, b.topo->GetSwitch(MrcSwitchTier::T0, 0, 0));
        a->PostWrite(1u << 20);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(b.errors.size(), 1u, "one error");
        NS_TEST_ASSERT_MSG_NE(b.errors[0].find("no acknowledgement progress for 3 QP timeouts"),
                              std::string::npos,
                              b.errors[0]);
        NS_TEST_ASSERT_MSG_EQ(changes, 0u, "no EV state change");
        // RetryCount retransmissions, then the next timeout is fatal (RC's retry_cnt).
        NS_TEST_ASSERT_MSG_GT_OR_EQ(a->GetStats().rewindsTimeout, 2u, "rewound on every timeout");
        NS_TEST_ASSERT_MSG_EQ(a->GetStats().probesSent, 0u, "no probe");
        NS_TEST_ASSERT_MSG_EQ(b.delivered.size(), 0u, "nothing delivered");
    }
};

/**
 * \ingroup mrc-test
 * Single path and QP scaling: every packet of a RoCEv2 queue pair carries the same EV, hence the
 * same UDP source port on the wire; a group of 8 queue pairs uses 8 distinct source ports,
 * stripes a message over all of them and delivers it byte for byte; MRC's default policies are
 * untouched by it.
 */
class MrcQpGroupTestCase : public TestCase
{
  public:
    MrcQpGroupTestCase()
        : TestCase("single path: one UDP source port per QP; a group of 8 QPs stripes over 8")
    {
    }

  private:
    /// Per destination QP: UDP source ports of its data packets on the wire.
    using PortLog = std::map<uint32_t, std::set<uint16_t>>;

    /**
     * \param log log
     * \param packet UDP header onwards
     * \param header outer IPv6 header
     * \param plane NIC port
     */
    static void OnWire(PortLog* log,
                       Ptr<const Packet> packet,
                       const Ipv6Header& header,
                       uint32_t plane)
    {
        Ptr<Packet> p = packet->Copy();
        UdpHeader udp;
        p->RemoveHeader(udp);
        MrcBthHeader bth;
        p->RemoveHeader(bth);
        if (IsDataOpcode(bth.GetOpcode()))
        {
            (*log)[bth.GetDestQp()].insert(udp.GetSourcePort());
        }
    }

    /**
     * \param count completions
     * \param id group message
     */
    static void OnGroupComplete(std::map<uint32_t, uint32_t>* count, uint32_t id)
    {
        (*count)[id]++;
    }

    /**
     * \param count deliveries
     * \param id group message
     * \param bytes size
     * \param imm immediate
     */
    static void OnGroupDelivered(std::map<uint32_t, std::optional<uint32_t>>* count,
                                 uint32_t id,
                                 uint64_t bytes,
                                 std::optional<uint32_t> imm)
    {
        NS_ABORT_MSG_IF(count->count(id), "delivered twice");
        (*count)[id] = imm;
    }

    void DoRun() override
    {
        RngSeedManager::SetSeed(8);
        Bench b(MrcClosSpec::TwoTier(2, 2, 2, 2, 4), false, MrcDataPlane::ECMP);
        {
            auto [m, mr] = b.mrc->Connect(1, 3); // a plain MRC queue pair first
            NS_TEST_ASSERT_MSG_EQ(m->GetPathSelection()->GetInstanceTypeId(),
                                  MrcSprayPathSelection::GetTypeId(),
                                  "MRC sprays by default");
            NS_TEST_ASSERT_MSG_EQ(m->GetLossRecovery()->GetInstanceTypeId(),
                                  MrcSelectiveRecovery::GetTypeId(),
                                  "selective retransmission by default");
            NS_TEST_ASSERT_MSG_EQ(m->GetCongestionControl()->GetInstanceTypeId(),
                                  MrcNscc::GetTypeId(),
                                  "NSCC by default");
        }
        b.mrc->SetRoceV2Baseline(8);
        Ptr<MrcQpGroup> g = b.mrc->ConnectGroup(0, 2);
        NS_TEST_ASSERT_MSG_EQ(g->GetSize(), 8u, "8 queue pairs per peer");
        PortLog ports;
        MrcHelper::GetL4(b.topo->GetHost(0))
            ->TraceConnectWithoutContext("Tx", MakeBoundCallback(&OnWire, &ports));
        std::map<uint32_t, TxLog> logs;
        std::set<uint32_t> evs;
        std::set<uint32_t> planes;
        for (uint32_t i = 0; i < g->GetSize(); ++i)
        {
            Ptr<MrcQueuePair> qp = g->GetSender(i);
            NS_TEST_ASSERT_MSG_EQ(qp->GetPathSelection()->GetInstanceTypeId(),
                                  MrcSinglePathSelection::GetTypeId(),
                                  "single path");
            NS_TEST_ASSERT_MSG_EQ(qp->GetLossRecovery()->GetInstanceTypeId(),
                                  MrcGoBackN::GetTypeId(),
                                  "go-back-N");
            NS_TEST_ASSERT_MSG_EQ(qp->GetCongestionControl()->GetInstanceTypeId(),
                                  MrcDcqcn::GetTypeId(),
                                  "DCQCN");
            qp->TraceConnectWithoutContext("Tx", MakeCallback(&TxLog::OnTx, &logs[i]));
            const uint32_t ev =
                DynamicCast<MrcSinglePathSelection>(qp->GetPathSelection())->GetEv();
            evs.insert(ev & 0xffff);
            planes.insert(qp->GetPathSet().GetPlane(ev));
        }
        NS_TEST_ASSERT_MSG_EQ(evs.size(), 8u, "8 distinct UDP source ports");
        NS_TEST_ASSERT_MSG_EQ(planes.size(), 2u, "spread over both NIC ports");
        std::map<uint32_t, uint32_t> completed;
        std::map<uint32_t, std::optional<uint32_t>> delivered;
        g->SetSendCompleteCallback(MakeBoundCallback(&OnGroupComplete, &completed));
        g->SetReceiveCallback(MakeBoundCallback(&OnGroupDelivered, &delivered));
        // 1 MiB = 256 packets: 32 per member. Then a 3-packet message with immediate.
        const std::vector<uint64_t> sizes{1u << 20, 3 * 4096 - 5};
        uint64_t total = 0;
        for (uint64_t s : sizes)
        {
            total += s;
        }
        auto region = std::make_shared<std::vector<uint8_t>>(total, 0);
        auto expected = std::make_shared<std::vector<uint8_t>>(total, 0);
        g->RegisterMemory(0x10000, region);
        uint64_t offset = 0;
        for (size_t m = 0; m < sizes.size(); ++m)
        {
            auto data = std::make_shared<std::vector<uint8_t>>(sizes[m]);
            for (uint64_t i = 0; i < sizes[m]; ++i)
            {
                (*data)[i] = static_cast<uint8_t>((i * 131 + m * 17) >> 3);
            }
            std::copy(data->begin(), data->end(), expected->begin() + offset);
            g->PostWrite(sizes[m],
                         0x10000 + offset,
                         7,
                         m == 1 ? std::optional<uint32_t>(42) : std::nullopt,
                         data);
            offset += sizes[m];
        }
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ((*region == *expected), true, "every byte in place");
        NS_TEST_ASSERT_MSG_EQ(completed.size(), 2u, "both messages completed");
        NS_TEST_ASSERT_MSG_EQ(completed[0], 1u, "once");
        NS_TEST_ASSERT_MSG_EQ(completed[1], 1u, "once");
        NS_TEST_ASSERT_MSG_EQ(delivered.size(), 2u, "both messages delivered");
        NS_TEST_ASSERT_MSG_EQ((delivered[1] == std::optional<uint32_t>(42)), true, "immediate");
        NS_TEST_ASSERT_MSG_EQ(g->GetGroupStats().messagesDelivered, 2u, "group counter");
        std::set<uint16_t> wirePorts;
        for (uint32_t i = 0; i < g->GetSize(); ++i)
        {
            Ptr<MrcQueuePair> qp = g->GetSender(i);
            const uint32_t ev =
                DynamicCast<MrcSinglePathSelection>(qp->GetPathSelection())->GetEv();
            NS_TEST_ASSERT_MSG_EQ(logs[i].evs.size(), 1u, "QP " << i << ": one EV");
            NS_TEST_ASSERT_MSG_EQ(*logs[i].evs.begin(), ev, "QP " << i << ": its EV");
            const std::set<uint16_t>& sports = ports[g->GetReceiver(i)->GetQpn()];
            NS_TEST_ASSERT_MSG_EQ(sports.size(), 1u, "QP " << i << ": one UDP source port");
            NS_TEST_ASSERT_MSG_EQ(*sports.begin(), (ev & 0xffff), "QP " << i << ": EV[15:0]");
            wirePorts.insert(*sports.begin());
            // 32 packets of the 1 MiB message each, and one of the 3 of the second message
            // on members 1..3 (the second message starts on member 1).
            const uint64_t want = 32 + (i >= 1 && i <= 3 ? 1 : 0);
            NS_TEST_ASSERT_MSG_EQ(qp->GetStats().dataPacketsSent, want, "QP " << i << " striped");
        }
        NS_TEST_ASSERT_MSG_EQ(wirePorts.size(), 8u, "8 distinct source ports on the wire");
        NS_TEST_ASSERT_MSG_EQ(g->GetSenderStats().dataPacketsSent, 256u + 3u, "sender totals");
        NS_TEST_ASSERT_MSG_EQ(g->GetReceiverStats().dataPacketsReceived,
                              256u + 3u,
                              "receiver totals");
    }
};

/**
 * \ingroup mrc-test
 * The RoCEv2 baseline test suite.
 */
class MrcRoceTestSuite : public TestSuite
{
  public:
    MrcRoceTestSuite()
        : TestSuite("mrc-roce", Type::UNIT)
    {
        AddTestCase(new MrcGoBackNNackTestCase);
        AddTestCase(new MrcGoBackNTimeoutTestCase);
        AddTestCase(new MrcRoceLossyDeliveryTestCase);
        AddTestCase(new MrcRoceDeadPathTestCase);
        AddTestCase(new mrctest::MrcDcqcnTestCase);
        AddTestCase(new MrcQpGroupTestCase);
    }
};

/// The suite's single instance.
static MrcRoceTestSuite g_mrcRoceTestSuite;
