/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * MrcTrimmingQueueDisc: scripted enqueue/dequeue sequences (trims, drops, DSCPs, sizes, order,
 * ECN marks, victim trimming, weighted round robin, configuration errors) and an N-to-1 incast
 * on a small Clos where trimming turns every loss into a delivered header.
 */

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/mrc-module.h"
#include "ns3/names.h"
#include "ns3/on-off-helper.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

using namespace ns3;

namespace
{

/**
 * An IPv6 queue-disc item.
 * \param payload payload bytes (the item is 40 bytes larger)
 * \param dscp DSCP
 * \param ect ECN-capable (ECT(0))
 * \param tag a byte written at the start of the payload, to tell items apart
 * \return the item
 */
Ptr<Ipv6QueueDiscItem>
Item(uint32_t payload, uint8_t dscp, bool ect = false, uint8_t tag = 0)
{
    std::vector<uint8_t> bytes(payload, 0);
    if (payload > 0)
    {
        bytes[0] = tag;
    }
    Ptr<Packet> p = Create<Packet>(bytes.data(), payload);
    Ipv6Header h;
    h.SetSource(Ipv6Address("fd00:0:0:0::1"));
    h.SetDestination(Ipv6Address("fd00:0:1:0::1"));
    h.SetNextHeader(17);
    h.SetPayloadLength(payload);
    h.SetDscp(static_cast<Ipv6Header::DscpType>(dscp));
    h.SetEcn(ect ? Ipv6Header::ECN_ECT0 : Ipv6Header::ECN_NotECT);
    return Create<Ipv6QueueDiscItem>(p, Address(), 0x86DD, h);
}

/**
 * \param item an item
 * \return the tag byte written by Item()
 */
uint8_t
MarkerByte(Ptr<const QueueDiscItem> item)
{
    uint8_t b = 0;
    item->GetPacket()->CopyData(&b, 1);
    return b;
}

/**
 * \param q a queue disc
 * \param reason a drop reason
 * \return packets dropped before enqueue for that reason
 */
uint32_t
Drops(Ptr<QueueDisc> q, const char* reason)
{
    const auto& m = q->GetStats().nDroppedPacketsBeforeEnqueue;
    auto it = m.find(reason);
    return it == m.end() ? 0 : it->second;
}

/**
 * \param item an IPv6 item
 * \return its DSCP
 */
uint8_t
Dscp(Ptr<const QueueDiscItem> item)
{
    return DynamicCast<const Ipv6QueueDiscItem>(item)->GetHeader().GetDscp();
}

} // namespace

/**
 * \ingroup mrc-test
 * A scripted sequence: exact trims, drops, DSCPs, sizes and dequeue order.
 */
class TrimmingSequenceTestCase : public TestCase
{
  public:
    TrimmingSequenceTestCase()
        : TestCase("trim on overflow, strict priority, drops with reasons, DSCP rewrite")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<MrcTrimmingQueueDisc> q = CreateObject<MrcTrimmingQueueDisc>();
        q->SetAttribute("DataMaxSize", StringValue("10000B"));
        q->SetAttribute("PriorityMaxSize", StringValue("300B"));
        q->SetAttribute("TrimSize", UintegerValue(100));
        q->SetAttribute("NonTrimmableDscps", StringValue("10, 12"));
        q->SetAttribute("EcnEnabled", BooleanValue(false));
        q->Initialize();

        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(Item(4000, 26, false, 1)), true, "data 1 fits");
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(Item(4000, 26, false, 2)), true, "data 2 fits");
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(Item(4000, 26, false, 3)), true, "data 3 trimmed");
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(Item(60, MrcDscp::kControl, false, 4)),
                              true,
                              "control to priority");
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(Item(4000, 10, false, 5)), false, "non-trimmable");
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(Item(1000, 26, false, 6)), true, "data 6 fits");
        // Priority holds 100 + 100 bytes; another trim would need 100 more: 300 fits exactly.
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(Item(4000, 26, false, 7)), true, "data 7 trimmed");
        NS_TEST_ASSERT_MSG_EQ(q->Enqueue(Item(4000, 26, false, 8)), false, "priority full");

        NS_TEST_ASSERT_MSG_EQ(q->GetTrimStats().trimmed, 2u, "two trims");
        NS_TEST_ASSERT_MSG_EQ(q->GetTrimStats().bytesRemoved, 2u * (4040 - 100), "bytes cut");
        NS_TEST_ASSERT_MSG_EQ(Drops(q, MrcTrimmingQueueDisc::kDropNotTrimmable), 1u, "reason");
        NS_TEST_ASSERT_MSG_EQ(Drops(q, MrcTrimmingQueueDisc::kDropPriorityFull), 1u, "reason");
        NS_TEST_ASSERT_MSG_EQ(q->GetStats().nTotalDroppedPackets, 2u, "drops in total");

        // Dequeue: priority first (trim 3, control 4, trim 7), then data in order (1, 2, 6).
        const uint8_t order[] = {3, 4, 7, 1, 2, 6};
        const uint32_t sizes[] = {100, 100, 100, 4040, 4040, 1040};
        const uint8_t dscps[] =
            {MrcDscp::kTrimmed, MrcDscp::kControl, MrcDscp::kTrimmed, 26, 26, 26};
        for (uint32_t i = 0; i < 6; ++i)
        {
            Ptr<QueueDiscItem> item = q->Dequeue();
            NS_TEST_ASSERT_MSG_NE(item, nullptr, "item " << i);
            NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(MarkerByte(item)),
                                  static_cast<uint32_t>(order[i]),
                                  "order at " << i);
            NS_TEST_ASSERT_MSG_EQ(item->GetSize(), sizes[i], "size at " << i);
            NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(Dscp(item)),
                                  static_cast<uint32_t>(dscps[i]),
                                  "DSCP at " << i);
            auto v6 = DynamicCast<Ipv6QueueDiscItem>(item);
            NS_TEST_ASSERT_MSG_EQ(v6->GetHeader().GetPayloadLength(),
                                  v6->GetPacket()->GetSize(),
                                  "payload length rewritten");
        }
        NS_TEST_ASSERT_MSG_EQ(q->Dequeue(), nullptr, "empty");
        NS_TEST_ASSERT_MSG_EQ(q->GetNPackets(), 0u, "counters consistent");
        NS_TEST_ASSERT_MSG_EQ(q->GetNBytes(), 0u, "counters consistent");
        q->Dispose();

        // Last hop: the other codepoint; trimming off: a drop instead.
        Ptr<MrcTrimmingQueueDisc> last = CreateObject<MrcTrimmingQueueDisc>();
        last->SetAttribute("DataMaxSize", StringValue("1p"));
        last->SetAttribute("LastHop", BooleanValue(true));
        last->Initialize();
        last->Enqueue(Item(4000, 26));
        last->Enqueue(Item(4000, 26));
        Ptr<QueueDiscItem> t = last->Dequeue(); // the trimmed one goes first
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(Dscp(t)),
                              static_cast<uint32_t>(MrcDscp::kTrimmedLastHop),
                              "last hop");
        NS_TEST_ASSERT_MSG_EQ(t->GetSize(), 256u, "default TrimSize");
        last->Dispose();

        // IPv4 packets are trimmed alike: size, DSCP and total length rewritten.
        Ptr<MrcTrimmingQueueDisc> v4 = CreateObject<MrcTrimmingQueueDisc>();
        v4->SetAttribute("DataMaxSize", StringValue("1p"));
        v4->SetAttribute("TrimSize", UintegerValue(64));
        v4->Initialize();
        for (int i = 0; i < 2; ++i)
        {
            Ipv4Header h4;
            h4.SetDscp(Ipv4Header::DSCP_AF31);
            h4.SetPayloadSize(1000);
            h4.SetProtocol(17);
            v4->Enqueue(Create<Ipv4QueueDiscItem>(Create<Packet>(1000), Address(), 0x0800, h4));
        }
        Ptr<QueueDiscItem> t4 = v4->Dequeue();
        auto t4v4 = DynamicCast<Ipv4QueueDiscItem>(t4);
        NS_TEST_ASSERT_MSG_EQ(t4->GetSize(), 64u, "IPv4 trimmed to TrimSize");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(t4v4->GetHeader().GetDscp()),
                              static_cast<uint32_t>(MrcDscp::kTrimmed),
                              "IPv4 DSCP rewritten");
        NS_TEST_ASSERT_MSG_EQ(t4v4->GetHeader().GetPayloadSize(), 44u, "IPv4 length rewritten");
        NS_TEST_ASSERT_MSG_EQ(v4->Dequeue()->GetSize(), 1020u, "the other one whole");
        v4->Dispose();

        Ptr<MrcTrimmingQueueDisc> off = CreateObject<MrcTrimmingQueueDisc>();
        off->SetAttribute("DataMaxSize", StringValue("1p"));
        off->SetAttribute("TrimmingEnabled", BooleanValue(false));
        off->Initialize();
        off->Enqueue(Item(4000, 26));
        NS_TEST_ASSERT_MSG_EQ(off->Enqueue(Item(4000, 26)), false, "dropped");
        NS_TEST_ASSERT_MSG_EQ(Drops(off, MrcTrimmingQueueDisc::kDropNotTrimmable), 1u, "reason");
        NS_TEST_ASSERT_MSG_EQ(off->GetTrimStats().trimmed, 0u, "no trims");
        off->Dispose();

        // Only the trimming-aware classes are trimmed: best effort (DSCP 0, e.g. TCP) is
        // dropped by default, trimmed with TrimmableDscps "*".
        for (const bool all : {false, true})
        {
            Ptr<MrcTrimmingQueueDisc> be = CreateObject<MrcTrimmingQueueDisc>();
            be->SetAttribute("DataMaxSize", StringValue("1p"));
            if (all)
            {
                be->SetAttribute("TrimmableDscps", StringValue(" * "));
            }
            be->Initialize();
            be->Enqueue(Item(4000, 0));
            NS_TEST_ASSERT_MSG_EQ(be->Enqueue(Item(4000, 0)), all, "DSCP 0 over the limit");
            NS_TEST_ASSERT_MSG_EQ(be->GetTrimStats().trimmed, (all ? 1u : 0u), "trims");
            NS_TEST_ASSERT_MSG_EQ(Drops(be, MrcTrimmingQueueDisc::kDropNotTrimmable),
                                  (all ? 0u : 1u),
                                  "not-trimmable drops");
            NS_TEST_ASSERT_MSG_EQ(be->Enqueue(Item(4000, MrcDscp::kRetransmit)),
                                  true,
                                  "retransmissions stay trimmable");
            be->Dispose();
        }
    }
};

/**
 * \ingroup mrc-test
 * ECN: marks follow the thresholds, only ECN-capable data is marked, marking can be disabled,
 * and MarkAtDequeue marks on the way out.
 */
class TrimmingEcnTestCase : public TestCase
{
  public:
    TrimmingEcnTestCase()
        : TestCase("ECN marking thresholds, ECT only, disabled on the last hop, at dequeue")
    {
    }

  private:
    /**
     * Enqueue 5 ECT packets of 1100 B (queue at arrival: 0, 1100, 2200, 3300, 4400 B) and one
     * non-ECT one, then dequeue all and report which came out CE-marked.
     * \param enabled EcnEnabled
     * \param atDequeue MarkAtDequeue
     * \return marked flags in dequeue order
     */
    std::vector<bool> Run(bool enabled, bool atDequeue)
    {
        Ptr<MrcTrimmingQueueDisc> q = CreateObject<MrcTrimmingQueueDisc>();
        q->SetAttribute("EcnEnabled", BooleanValue(enabled));
        q->SetAttribute("MarkAtDequeue", BooleanValue(atDequeue));
        q->SetAttribute("EcnMinTh", UintegerValue(1500));
        q->SetAttribute("EcnMaxTh", UintegerValue(2000));
        q->SetAttribute("EcnMaxP", DoubleValue(1.0));
        q->Initialize();
        for (uint8_t i = 0; i < 5; ++i)
        {
            q->Enqueue(Item(1060, 26, true, i));
        }
        q->Enqueue(Item(1060, 26, false, 5));
        std::vector<bool> marked;
        while (Ptr<QueueDiscItem> item = q->Dequeue())
        {
            marked.push_back(DynamicCast<Ipv6QueueDiscItem>(item)->GetHeader().GetEcn()
                             == Ipv6Header::ECN_CE);
        }
        NS_TEST_EXPECT_MSG_EQ(q->GetStats().GetNMarkedPackets(MrcTrimmingQueueDisc::kMarkEcn),
                              uint32_t(std::count(marked.begin(), marked.end(), true)),
                              "marks counted under their reason");
        q->Dispose();
        return marked;
    }

    void DoRun() override
    {
        // At enqueue: queue 0, 1100 -> no; 2200, 3300, 4400 -> yes; the non-ECT one never.
        std::vector<bool> expect{false, false, true, true, true, false};
        NS_TEST_ASSERT_MSG_EQ((Run(true, false) == expect), true, "marks at enqueue");
        // At dequeue the queue holds what is left behind each packet: 5500, 4400, 3300, 2200,
        // 1100 (the sixth, non-ECT, packet is never marked).
        expect = {true, true, true, true, false, false};
        NS_TEST_ASSERT_MSG_EQ((Run(true, true) == expect), true, "marks at dequeue");
        expect = std::vector<bool>(6, false);
        NS_TEST_ASSERT_MSG_EQ((Run(false, false) == expect), true, "marking disabled");
    }
};

/**
 * \ingroup mrc-test
 * Victim trimming (NDP) and weighted round robin.
 */
class TrimmingVictimWrrTestCase : public TestCase
{
  public:
    TrimmingVictimWrrTestCase()
        : TestCase("trim a queued victim instead of the arrival; weighted round robin")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<MrcTrimmingQueueDisc> q = CreateObject<MrcTrimmingQueueDisc>();
        q->SetAttribute("DataMaxSize", StringValue("2p"));
        q->SetAttribute("VictimTrimProbability", DoubleValue(1.0));
        q->Initialize();
        q->Enqueue(Item(4000, 26, false, 1));
        q->Enqueue(Item(4000, 26, false, 2));
        q->Enqueue(Item(4000, 26, false, 3)); // 2 is trimmed, 3 takes its place
        NS_TEST_ASSERT_MSG_EQ(q->GetTrimStats().victims, 1u, "one victim");
        const uint8_t order[] = {2, 1, 3};
        const uint32_t sizes[] = {256, 4040, 4040};
        for (uint32_t i = 0; i < 3; ++i)
        {
            Ptr<QueueDiscItem> item = q->Dequeue();
            NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(MarkerByte(item)),
                                  static_cast<uint32_t>(order[i]),
                                  "order at " << i);
            NS_TEST_ASSERT_MSG_EQ(item->GetSize(), sizes[i], "size at " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(q->GetNPackets(), 0u, "counters consistent");
        NS_TEST_ASSERT_MSG_EQ(q->GetStats().nTotalDroppedPackets, 0u, "nothing dropped");
        q->Dispose();

        for (bool strict : {true, false})
        {
            Ptr<MrcTrimmingQueueDisc> w = CreateObject<MrcTrimmingQueueDisc>();
            w->SetAttribute("StrictPriority", BooleanValue(strict));
            w->SetAttribute("PriorityWeight", UintegerValue(1));
            w->SetAttribute("DataWeight", UintegerValue(2));
            w->Initialize();
            for (uint8_t i = 0; i < 3; ++i)
            {
                w->Enqueue(Item(100, MrcDscp::kControl, false, 10 + i));
                w->Enqueue(Item(100, 26, false, 20 + i));
            }
            std::vector<unsigned> got;
            while (Ptr<QueueDiscItem> item = w->Dequeue())
            {
                got.push_back(MarkerByte(item));
            }
            const std::vector<unsigned> expect =
                strict ? std::vector<unsigned>{10, 11, 12, 20, 21, 22}
                       : std::vector<unsigned>{10, 20, 21, 11, 22, 12};
            NS_TEST_ASSERT_MSG_EQ((got == expect), true, (strict ? "strict" : "WRR 1:2"));
            w->Dispose();
        }
    }
};

/**
 * \ingroup mrc-test
 * Invalid configurations are refused with the field and its range.
 */
class TrimmingConfigTestCase : public TestCase
{
  public:
    TrimmingConfigTestCase()
        : TestCase("invalid MrcTrimmingQueueDisc configurations give clear errors")
    {
    }

  private:
    /**
     * \param name attribute
     * \param value its value
     * \param expected fragment of the error
     */
    void Expect(const std::string& name, const AttributeValue& value, const std::string& expected)
    {
        Ptr<MrcTrimmingQueueDisc> q = CreateObject<MrcTrimmingQueueDisc>();
        q->SetAttribute(name, value);
        std::string message;
        try
        {
            q->Initialize();
        }
        catch (const std::invalid_argument& e)
        {
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(message.find(expected),
                              std::string::npos,
                              "'" << message << "' should contain '" << expected << "'");
    }

    void DoRun() override
    {
        Expect("TrimSize", UintegerValue(40), "TrimSize (=40) must be in 48..65535");
        Expect("EcnMinTh", UintegerValue(300000), "EcnMinTh (=300000 B) must be < EcnMaxTh");
        Expect("EcnMaxP", DoubleValue(1.5), "EcnMaxP (=1.500000) must be in [0, 1]");
        Expect("NonTrimmableDscps", StringValue("1,x"), "NonTrimmableDscps (=\"1,x\")");
        Expect("NonTrimmableDscps", StringValue("64"), "DSCPs in 0..63");
        Expect("TrimmableDscps", StringValue("26,**"), "TrimmableDscps (=\"26,**\")");
        Expect("TrimmableDscps", StringValue("99"), "DSCPs in 0..63 or *");
        Expect("VictimTrimProbability", DoubleValue(-0.1), "VictimTrimProbability");
        Expect("DataMaxSize", StringValue("0p"), "DataMaxSize must be > 0");
    }
};

/**
 * \ingroup mrc-test
 * N-to-1 incast of UDP data on a two-tier Clos: with trimming every packet arrives whole or as
 * a trimmed header marked TRIMMED_LASTHOP (zero silent loss, no header dropped); with trimming
 * off, packets are lost.
 */
class TrimmingIncastTestCase : public TestCase
{
  public:
    /**
     * \param senders N
     * \param trimming TrimmingEnabled
     */
    TrimmingIncastTestCase(uint32_t senders, bool trimming)
        : TestCase(std::to_string(senders) + "-to-1 incast, trimming "
                   + (trimming ? "on: zero silent loss" : "off: drops"))
        , m_senders(senders)
        , m_trimming(trimming)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t packets = 50;
        const uint32_t payload = 4096;
        // The senders' UDP data leaves at DSCP 0: make every class trimmable, as on a switch
        // configured to trim all traffic (the default trims MRC's data classes only).
        MrcScopedAttributeDefault trimAll("ns3::MrcTrimmingQueueDisc",
                                          "TrimmableDscps",
                                          StringValue("*"));
        MrcClosTopologyHelper topoHelper;
        topoHelper.SetTrimmingQueues(m_trimming);
        const uint32_t t0 = (m_senders + 1 + 7) / 8;
        Ptr<MrcFabricTopology> topo =
            topoHelper.Build(MrcClosSpec::TwoTier(1, std::max(t0, 2u), 8, 4));
        MrcEcmpRoutingHelper().Install(*topo);

        // Host 0 receives from hosts 1..N, each sending `packets` whole packets at line rate.
        PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                    Inet6SocketAddress(Ipv6Address::GetAny(), 9000));
        ApplicationContainer sink = sinkHelper.Install(topo->GetHost(0));
        sink.Get(0)->TraceConnectWithoutContext("Rx",
                                                MakeCallback(&TrimmingIncastTestCase::OnRx, this));
        topo->GetHost(0)->GetObject<Ipv6L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            MakeCallback(&TrimmingIncastTestCase::OnIpRx, this));
        for (uint32_t s = 1; s <= m_senders; ++s)
        {
            OnOffHelper onoff("ns3::UdpSocketFactory",
                              Inet6SocketAddress(topo->GetHostAddress(0, 0), 9000));
            onoff.SetConstantRate(DataRate("98Gbps"), payload);
            onoff.SetAttribute("MaxBytes", UintegerValue(packets * payload));
            onoff.Install(topo->GetHost(s)).Start(MicroSeconds(s % 7));
        }
        Simulator::Run();

        const MrcFabricQueueStats::Totals q = MrcFabricQueueStats::Sum(topo->GetAllSwitches());
        const uint64_t drops = q.droppedPackets;
        const uint64_t trims = q.trimmedPackets;
        const uint32_t sent = m_senders * packets;
        if (m_trimming)
        {
            NS_TEST_ASSERT_MSG_EQ(m_whole + m_trimmed, sent, "every packet whole or trimmed");
            NS_TEST_ASSERT_MSG_GT(m_trimmed, 0u, "incast trims");
            NS_TEST_ASSERT_MSG_EQ(m_trimmed, trims, "every trim arrives");
            NS_TEST_ASSERT_MSG_EQ(drops, 0u, "no header dropped under default limits");
            NS_TEST_ASSERT_MSG_EQ(m_trimmedLastHop + m_trimmedFabric,
                                  m_trimmed,
                                  "every trimmed packet carries a trimmed codepoint");
            if (m_senders <= 8)
            {
                // At most one sender crosses the fabric: only the host-facing port congests.
                NS_TEST_ASSERT_MSG_EQ(m_trimmedFabric, 0u, "no fabric trims");
            }
            else
            {
                // 64 senders over per-flow ECMP also overload the T1-to-T0 links.
                NS_TEST_ASSERT_MSG_GT(m_trimmedFabric, 0u, "fabric trims");
                NS_TEST_ASSERT_MSG_GT(m_trimmedLastHop, 0u, "last-hop trims");
            }
            NS_TEST_ASSERT_MSG_EQ(m_trimmedBytes, m_trimmed * (256u - 48u), "trimmed UDP payload");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(m_trimmed, 0u, "nothing trimmed");
            NS_TEST_ASSERT_MSG_GT(drops, 0u, "drops occur");
            NS_TEST_ASSERT_MSG_EQ(m_whole + drops, sent, "lost = dropped");
        }
        Simulator::Destroy();
        Names::Clear();
    }

    /**
     * Sink Rx: a whole packet or a trimmed one.
     * \param p the UDP payload
     * \param from sender
     */
    void OnRx(Ptr<const Packet> p, const Address& from)
    {
        if (p->GetSize() == 4096)
        {
            ++m_whole;
        }
        else
        {
            ++m_trimmed;
            m_trimmedBytes += p->GetSize();
        }
    }

    /**
     * IPv6 Rx at the receiver: count trimmed DSCPs.
     * \param p the packet with its IPv6 header
     * \param ipv6 the stack
     * \param interface the interface
     */
    void OnIpRx(Ptr<const Packet> p, Ptr<Ipv6> ipv6, uint32_t interface)
    {
        Ipv6Header h;
        p->PeekHeader(h);
        if (h.GetDscp() == MrcDscp::kTrimmedLastHop)
        {
            ++m_trimmedLastHop;
        }
        else if (h.GetDscp() == MrcDscp::kTrimmed)
        {
            ++m_trimmedFabric;
        }
    }

    uint32_t m_senders;           //!< N
    bool m_trimming;              //!< trimming on
    uint32_t m_whole{0};          //!< whole packets received
    uint32_t m_trimmed{0};        //!< trimmed packets received
    uint64_t m_trimmedBytes{0};   //!< their UDP payload bytes
    uint32_t m_trimmedLastHop{0}; //!< packets received with DSCP TRIMMED_LASTHOP
    uint32_t m_trimmedFabric{0};  //!< packets received with DSCP TRIMMED
};

/**
 * \ingroup mrc-test
 * The trimming test suite.
 */
class MrcTrimmingTestSuite : public TestSuite
{
  public:
    MrcTrimmingTestSuite()
        : TestSuite("mrc-trimming", Type::UNIT)
    {
        AddTestCase(new TrimmingSequenceTestCase);
        AddTestCase(new TrimmingEcnTestCase);
        AddTestCase(new TrimmingVictimWrrTestCase);
        AddTestCase(new TrimmingConfigTestCase);
        AddTestCase(new TrimmingIncastTestCase(8, true));
        AddTestCase(new TrimmingIncastTestCase(64, true));
        AddTestCase(new TrimmingIncastTestCase(8, false));
        AddTestCase(new TrimmingIncastTestCase(64, false));
    }
};

/// The suite's single instance.
static MrcTrimmingTestSuite g_mrcTrimmingTestSuite;
