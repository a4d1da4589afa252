/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup mrc-test
 * MrcFlowProbe and MrcFlowMonitorHelper: a FlowMonitor sees MRC flows, one per queue pair,
 * direction and plane, with the packets, bytes and delays the transport's own traces give,
 * trimmed packets as drops, packets lost in the fabric as lost; bad use is refused.
 */

#include "mrc-test-bench.h"

#include "ns3/boolean.h"
#include "ns3/flow-monitor.h"
#include "ns3/ipv6-flow-classifier.h"
#include "ns3/mrc-flow-monitor-helper.h"
#include "ns3/mrc-flow-probe.h"
#include "ns3/test.h"
#include "ns3/udp-header.h"

#include <deque>
#include <map>
#include <vector>

using namespace ns3;
using namespace ns3::mrctest;

namespace
{

/// What the transport's own traces saw of one direction of a connection.
struct Seen
{
    uint64_t txPackets{0}; //!< packets the sender's MrcL4Protocol sent
    uint64_t txBytes{0};   //!< their IPv6 sizes
    uint64_t rxPackets{0}; //!< packets of the sender the receiver's MrcL4Protocol got
    /// (opcode, PSN) -> transmissions not yet arrived, in order (control packets repeat PSNs)
    std::map<std::pair<uint8_t, uint32_t>, std::deque<Time>> sentAt;
    Time delaySum; //!< sum over arrivals of arrival - first transmission
};

/**
 * \param bth a BTH
 * \return what tells the packet apart (with its order among equals)
 */
std::pair<uint8_t, uint32_t>
KeyOf(const MrcBthHeader& bth)
{
    return {static_cast<uint8_t>(bth.GetOpcode()), bth.GetPsn()};
}

/**
 * \param packet the IPv6 payload as MrcL4Protocol's Tx trace gives it (no SRH in these fabrics)
 * \return its key
 */
std::pair<uint8_t, uint32_t>
KeyOfSent(Ptr<const Packet> packet)
{
    Ptr<Packet> copy = packet->Copy();
    UdpHeader udp;
    copy->RemoveHeader(udp);
    MrcBthHeader bth;
    copy->PeekHeader(bth);
    return KeyOf(bth);
}

/**
 * MrcL4Protocol Tx at the sender.
 * \param seen what to update
 */
void
OnSent(Seen* seen, Ptr<const Packet> packet, const Ipv6Header& header, uint32_t)
{
    seen->txPackets++;
    seen->txBytes += header.GetSerializedSize() + packet->GetSize();
    seen->sentAt[KeyOfSent(packet)].push_back(Simulator::Now());
}

/**
 * MrcL4Protocol Rx at the receiver: counts the packets whose source is one of the sender's
 * addresses.
 * \param seen what to update
 * \param from the sender's addresses
 */
void
OnArrived(Seen* seen,
          const std::vector<Ipv6Address>* from,
          Ptr<const Packet> packet,
          const Ipv6Header& header,
          uint32_t)
{
    if (std::find(from->begin(), from->end(), header.GetSource()) == from->end())
    {
        return;
    }
    seen->rxPackets++;
    MrcBthHeader bth;
    packet->PeekHeader(bth);
    std::deque<Time>& sent = seen->sentAt.at(KeyOf(bth));
    seen->delaySum += Simulator::Now() - sent.front();
    sent.pop_front();
}

/// A FlowMonitor's view of the flows from one host to another.
struct Flows
{
    std::vector<Ipv6FlowClassifier::FiveTuple> tuples; //!< by flow, in flow id order
    uint64_t txPackets{0};                             //!< summed over the flows
    uint64_t txBytes{0};                               //!< summed
    uint64_t rxPackets{0};                             //!< summed
    uint64_t rxBytes{0};                               //!< summed
    uint64_t lostPackets{0};                           //!< summed
    uint64_t trimmed{0};                               //!< packetsDropped[DROP_TRIMMED]
    uint64_t otherDrops{0};                            //!< packetsDropped, other reasons
    std::map<uint32_t, uint64_t> drops;                //!< packetsDropped by reason
    Time delaySum;                                     //!< summed
    uint64_t timesForwarded{0};                        //!< summed
    uint64_t probePackets{0}; //!< packets of these flows summed over every probe's own stats
};

/**
 * \param monitor the monitor
 * \param classifier its IPv6 classifier
 * \param from the sender's addresses
 * \return the flows whose source is one of them
 */
Flows
FlowsFrom(Ptr<FlowMonitor> monitor,
          Ptr<Ipv6FlowClassifier> classifier,
          const std::vector<Ipv6Address>& from)
{
    Flows f;
    std::vector<FlowProbe::Stats> probeStats; // each probe's own per-flow stats, read once
    for (const Ptr<FlowProbe>& probe : monitor->GetAllProbes())
    {
        probeStats.push_back(probe->GetStats());
    }
    for (const auto& [id, s] : monitor->GetFlowStats())
    {
        const Ipv6FlowClassifier::FiveTuple t = classifier->FindFlow(id);
        if (std::find(from.begin(), from.end(), t.sourceAddress) == from.end())
        {
            continue;
        }
        f.tuples.push_back(t);
        f.txPackets += s.txPackets;
        f.txBytes += s.txBytes;
        f.rxPackets += s.rxPackets;
        f.rxBytes += s.rxBytes;
        f.lostPackets += s.lostPackets;
        f.delaySum += s.delaySum;
        f.timesForwarded += s.timesForwarded;
        for (const FlowProbe::Stats& stats : probeStats)
        {
            if (auto seen = stats.find(id); seen != stats.end())
            {
                f.probePackets += seen->second.packets;
            }
        }
        for (uint32_t r = 0; r < s.packetsDropped.size(); ++r)
        {
            (r == MrcFlowProbe::DROP_TRIMMED ? f.trimmed : f.otherDrops) += s.packetsDropped[r];
            f.drops[r] += s.packetsDropped[r];
        }
    }
    return f;
}

/**
 * \param topo the fabric
 * \param host a host
 * \return its NIC ports' addresses, by plane
 */
std::vector<Ipv6Address>
AddressesOf(const Ptr<MrcFabricTopology>& topo, uint32_t host)
{
    std::vector<Ipv6Address> a;
    for (uint32_t p = 0; p < topo->GetSpec().planes; ++p)
    {
        a.push_back(topo->GetHostAddress(host, p));
    }
    return a;
}

/**
 * \ingroup mrc-test
 * One transfer, no loss: per direction one flow per plane with the queue pair's five-tuple,
 * and the packets, bytes and delays the transport's own traces count.
 */
class FlowProbeTransferTestCase : public TestCase
{
  public:
    /**
     * \param plane data plane
     * \param lean MrcHostPipeline::Enabled
     * \param switches MrcSwitchPipeline::Enabled (false: ns-3's Ipv6L3Protocol forwards)
     */
    FlowProbeTransferTestCase(MrcDataPlane plane, bool lean, bool switches = true)
        : TestCase(std::string("transfer, ") + (plane == MrcDataPlane::SRV6 ? "SRv6" : "ECMP")
                   + (lean ? ", host pipeline" : ", ns-3's receive path")
                   + (switches ? "" : ", ns-3's forwarding"))
        , m_plane(plane)
        , m_lean(lean)
        , m_switches(switches)
    {
    }

  private:
    void DoRun() override
    {
        MrcScopedAttributeDefault enabled("ns3::MrcHostPipeline", "Enabled", BooleanValue(m_lean));
        MrcScopedAttributeDefault switches("ns3::MrcSwitchPipeline",
                                           "Enabled",
                                           BooleanValue(m_switches));
        Bench b(MrcClosSpec::TwoTier(2, 2, 4, 2), true, m_plane);
        const uint32_t src = 4;
        const uint32_t dst = 0;
        MrcFlowMonitorHelper flowmon;
        Ptr<FlowMonitor> monitor = flowmon.InstallAll();
        NS_TEST_ASSERT_MSG_EQ(flowmon.GetMrcProbeCount(),
                              b.topo->GetHostCount() + b.topo->GetAllSwitches().GetN(),
                              "one MrcFlowProbe per host and per switch");
        auto classifier = DynamicCast<Ipv6FlowClassifier>(flowmon.GetClassifier6());

        auto qps = b.Connect(src, dst);
        std::shared_ptr<std::vector<uint8_t>> region;
        auto expected = PostRandom(qps.first, qps.second, {400000}, 3, region);
        const std::vector<Ipv6Address> srcAddresses = AddressesOf(b.topo, src);
        const std::vector<Ipv6Address> dstAddresses = AddressesOf(b.topo, dst);
        Seen data;
        Seen control;
        b.topo->GetHost(src)->GetObject<MrcL4Protocol>()->TraceConnectWithoutContext(
            "Tx",
            MakeBoundCallback(&OnSent, &data));
        b.topo->GetHost(dst)->GetObject<MrcL4Protocol>()->TraceConnectWithoutContext(
            "Rx",
            MakeBoundCallback(&OnArrived, &data, &srcAddresses));
        b.topo->GetHost(dst)->GetObject<MrcL4Protocol>()->TraceConnectWithoutContext(
            "Tx",
            MakeBoundCallback(&OnSent, &control));
        b.topo->GetHost(src)->GetObject<MrcL4Protocol>()->TraceConnectWithoutContext(
            "Rx",
            MakeBoundCallback(&OnArrived, &control, &dstAddresses));
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        monitor->CheckForLostPackets(Seconds(0));
        NS_TEST_ASSERT_MSG_EQ((region && *region == *expected), true, "every byte delivered");
        NS_TEST_ASSERT_MSG_GT(data.txPackets, 100, "the transfer sent its packets");
        NS_TEST_ASSERT_MSG_EQ(data.rxPackets, data.txPackets, "no loss in this fabric");

        struct Direction
        {
            const char* name;
            const Seen& seen;
            uint32_t from;
            uint32_t to;
            uint32_t destQpn;
        };

        for (const Direction& d : {Direction{"data", data, src, dst, qps.second->GetQpn()},
                                   Direction{"control", control, dst, src, qps.first->GetQpn()}})
        {
            const Flows f = FlowsFrom(monitor, classifier, AddressesOf(b.topo, d.from));
            NS_TEST_ASSERT_MSG_EQ(f.tuples.size(), 2, d.name << ": one flow per plane");
            for (uint32_t p = 0; p < f.tuples.size() && p < 2; ++p)
            {
                const Ipv6FlowClassifier::FiveTuple& t = f.tuples[p];
                const Ipv6Address from = t.sourceAddress;
                const uint32_t plane = from == b.topo->GetHostAddress(d.from, 0) ? 0 : 1;
                NS_TEST_ASSERT_MSG_EQ(from, b.topo->GetHostAddress(d.from, plane), d.name);
                NS_TEST_ASSERT_MSG_EQ(t.destinationAddress,
                                      b.topo->GetHostAddress(d.to, plane),
                                      d.name << ": the peer's port on the same plane, not a "
                                                "uSID carrier");
                NS_TEST_ASSERT_MSG_EQ(uint32_t(t.protocol), 17, d.name << ": UDP");
                NS_TEST_ASSERT_MSG_EQ(t.sourcePort,
                                      (d.destQpn & 0xffff),
                                      d.name << ": the destination QP, not the EV");
                NS_TEST_ASSERT_MSG_EQ(t.destinationPort, 4791, d.name << ": RoCEv2's port");
            }
            NS_TEST_ASSERT_MSG_EQ(f.txPackets, d.seen.txPackets, d.name << ": tx packets");
            NS_TEST_ASSERT_MSG_EQ(f.txBytes, d.seen.txBytes, d.name << ": tx bytes");
            NS_TEST_ASSERT_MSG_EQ(f.rxPackets, d.seen.rxPackets, d.name << ": rx packets");
            NS_TEST_ASSERT_MSG_EQ(f.rxBytes, d.seen.txBytes, d.name << ": rx bytes, as sent");
            NS_TEST_ASSERT_MSG_EQ(f.lostPackets, 0, d.name << ": nothing lost");
            NS_TEST_ASSERT_MSG_EQ(f.trimmed + f.otherDrops, 0, d.name << ": nothing dropped");
            NS_TEST_ASSERT_MSG_EQ(f.delaySum,
                                  d.seen.delaySum,
                                  d.name << ": delays from transmission to arrival, summed");
            NS_TEST_ASSERT_MSG_EQ(f.timesForwarded,
                                  3 * f.rxPackets,
                                  d.name << ": each packet crossed a T0, a T1 and a T0");
            NS_TEST_ASSERT_MSG_EQ(f.probePackets,
                                  f.txPackets + f.rxPackets + f.timesForwarded,
                                  d.name << ": the probes saw each packet leave, at each "
                                            "switch and arrive");
        }
    }

    MrcDataPlane m_plane; //!< data plane
    bool m_lean;          //!< host pipeline on
    bool m_switches;      //!< switch pipeline on
};

/**
 * \ingroup mrc-test
 * A 4-to-1 incast over trimming switches: every trimmed packet is a drop (DROP_TRIMMED) of its
 * flow, counted once, and every other packet is received.
 */
class FlowProbeTrimTestCase : public TestCase
{
  public:
    FlowProbeTrimTestCase()
        : TestCase("4-to-1 incast: trimmed packets are drops of their flows")
    {
    }

  private:
    void DoRun() override
    {
        Bench b(MrcClosSpec::TwoTier(2, 2, 4, 2), true, MrcDataPlane::SRV6);
        MrcFlowMonitorHelper flowmon;
        Ptr<FlowMonitor> monitor = flowmon.InstallAll();
        auto classifier = DynamicCast<Ipv6FlowClassifier>(flowmon.GetClassifier6());
        Ptr<MrcFabricDropMonitor> drops = CreateObject<MrcFabricDropMonitor>();
        drops->Install(b.topo);
        FourToOneIncast incast;
        incast.Post(b);
        uint64_t arrivals = 0;
        std::vector<Ipv6Address> senders;
        for (uint32_t s = 4; s < 8; ++s)
        {
            for (const Ipv6Address& a : AddressesOf(b.topo, s))
            {
                senders.push_back(a);
            }
        }
        b.topo->GetHost(0)->GetObject<MrcL4Protocol>()->TraceConnectWithoutContext(
            "Rx",
            MakeBoundCallback(&CountFrom, &arrivals, &senders));
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        monitor->CheckForLostPackets(Seconds(0));
        NS_TEST_ASSERT_MSG_EQ(incast.BytesOk(), true, "every byte delivered");
        const uint64_t trims = drops->GetTotal(MrcFabricDropKind::TRIM);
        NS_TEST_ASSERT_MSG_GT(trims, 10, "the incast trims");
        NS_TEST_ASSERT_MSG_EQ(drops->GetTotal(MrcFabricDropKind::QUEUE_DROP)
                                  + drops->GetTotal(MrcFabricDropKind::LINK_LOSS),
                              0,
                              "every trimmed header reaches the receiver");
        const Flows f = FlowsFrom(monitor, classifier, senders);
        NS_TEST_ASSERT_MSG_EQ(f.tuples.size(), 8, "four senders, two planes");
        NS_TEST_ASSERT_MSG_EQ(f.trimmed, trims, "each trimmed packet dropped once");
        NS_TEST_ASSERT_MSG_EQ(f.otherDrops, 0, "no other drop");
        NS_TEST_ASSERT_MSG_EQ(f.lostPackets, trims, "FlowMonitor counts a drop as lost");
        NS_TEST_ASSERT_MSG_EQ(f.rxPackets + f.trimmed, arrivals, "every arrival reported once");
        NS_TEST_ASSERT_MSG_EQ(f.txPackets, f.rxPackets + f.trimmed, "nothing else in flight");
        NS_TEST_ASSERT_MSG_EQ(f.timesForwarded,
                              3 * f.rxPackets,
                              "three switches per received packet (a trimmed one is a drop)");
    }

    /**
     * \param count arrivals from the senders
     * \param from the senders' addresses
     * \param header the outer header
     */
    static void CountFrom(uint64_t* count,
                          const std::vector<Ipv6Address>* from,
                          Ptr<const Packet>,
                          const Ipv6Header& header,
                          uint32_t)
    {
        if (std::find(from->begin(), from->end(), header.GetSource()) != from->end())
        {
            ++*count;
        }
    }
};

/**
 * \param count counter
 */
void
CountDrop(uint64_t* count, Ptr<const Packet>)
{
    ++*count;
}

/**
 * \ingroup mrc-test
 * Random loss on the receiver's last hop (ns-3's RateErrorModel): each lost packet is reported
 * dropped (DROP_DEVICE) by the receiving host's probe, once.
 */
class FlowProbeLossTestCase : public TestCase
{
  public:
    FlowProbeLossTestCase()
        : TestCase("random loss: each lost packet is a DROP_DEVICE drop, at once")
    {
    }

  private:
    void DoRun() override
    {
        Bench b(MrcClosSpec::TwoTier(2, 2, 4, 2), true, MrcDataPlane::ECMP);
        MrcFlowMonitorHelper flowmon;
        Ptr<FlowMonitor> monitor = flowmon.InstallAll();
        auto classifier = DynamicCast<Ipv6FlowClassifier>(flowmon.GetClassifier6());
        Ptr<NetDevice> lastHop = b.topo->GetHostDevice(0, 0);
        Ptr<RateErrorModel> em = DropPackets(lastHop, 0.05);
        em->AssignStreams(7);
        uint64_t lost = 0;
        lastHop->TraceConnectWithoutContext("PhyRxDrop", MakeBoundCallback(&CountDrop, &lost));
        auto qps = b.Connect(4, 0);
        std::shared_ptr<std::vector<uint8_t>> region;
        auto expected = PostRandom(qps.first, qps.second, {1000000}, 5, region);
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ((region && *region == *expected), true, "every byte delivered");
        NS_TEST_ASSERT_MSG_GT(lost, 3, "the error model dropped packets");
        monitor->CheckForLostPackets(); // FlowMonitor's MaxPerHopDelay: no packet is that old
        Flows f = FlowsFrom(monitor, classifier, AddressesOf(b.topo, 4));
        NS_TEST_ASSERT_MSG_EQ(f.drops[MrcFlowProbe::DROP_DEVICE], lost, "each loss reported");
        NS_TEST_ASSERT_MSG_EQ(f.otherDrops, lost, "under no other reason");
        NS_TEST_ASSERT_MSG_EQ(f.lostPackets, lost, "FlowMonitor counts a drop as lost");
        NS_TEST_ASSERT_MSG_EQ(f.txPackets, f.rxPackets + lost, "nothing else in flight");
    }
};

/**
 * \ingroup mrc-test
 * Losses in the fabric are reported where they happen, each once, under the kind
 * MrcFabricDropMonitor counts them: queue drops on drop-tail switches, a black hole and a link
 * that goes down (FaultDrop with PhyRxDrop or MacTxDrop), and ECMP packets without a route (the
 * routing's Drop with the pipeline's).
 */
class FlowProbeFabricDropsTestCase : public TestCase
{
  public:
    FlowProbeFabricDropsTestCase()
        : TestCase("fabric drops: queue, link and routing losses reported once, where they happen")
    {
    }

  private:
    /**
     * The flows of every MRC packet, after the run, with everything in flight counted lost.
     * \param monitor the monitor
     * \param helper its helper
     * \param hosts hosts (0 .. hosts - 1)
     * \param topo the fabric
     * \return the flows
     */
    static Flows All(Ptr<FlowMonitor> monitor,
                     MrcFlowMonitorHelper& helper,
                     uint32_t hosts,
                     const Ptr<MrcFabricTopology>& topo)
    {
        monitor->CheckForLostPackets(Seconds(0));
        std::vector<Ipv6Address> all;
        for (uint32_t h = 0; h < hosts; ++h)
        {
            for (const Ipv6Address& a : AddressesOf(topo, h))
            {
                all.push_back(a);
            }
        }
        return FlowsFrom(monitor, DynamicCast<Ipv6FlowClassifier>(helper.GetClassifier6()), all);
    }

    void DoRun() override
    {
        {
            Bench b(MrcClosSpec::TwoTier(2, 2, 4, 2), false, MrcDataPlane::SRV6);
            MrcFlowMonitorHelper flowmon;
            Ptr<FlowMonitor> monitor = flowmon.InstallAll();
            Ptr<MrcFabricDropMonitor> drops = CreateObject<MrcFabricDropMonitor>();
            drops->Install(b.topo);
            FourToOneIncast incast;
            incast.Post(b);
            Simulator::Stop(MilliSeconds(20));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(incast.BytesOk(), true, "every byte delivered");
            Flows f = All(monitor, flowmon, b.topo->GetHostCount(), b.topo);
            const uint64_t queueDrops = drops->GetTotal(MrcFabricDropKind::QUEUE_DROP);
            NS_TEST_ASSERT_MSG_GT(queueDrops, 10, "drop-tail switches drop");
            NS_TEST_ASSERT_MSG_EQ(f.drops[MrcFlowProbe::DROP_QUEUE_DISC],
                                  queueDrops,
                                  "drop-tail: each queue drop reported");
            NS_TEST_ASSERT_MSG_EQ(f.otherDrops, queueDrops, "and nothing else");
            NS_TEST_ASSERT_MSG_EQ(f.lostPackets, queueDrops, "nothing lost unreported");
            NS_TEST_ASSERT_MSG_EQ(f.txPackets, f.rxPackets + queueDrops, "tx = rx + drops");
        }
        {
            Bench b(MrcClosSpec::TwoTier(1, 2, 1, 2, 2), true);
            MrcFlowMonitorHelper flowmon;
            Ptr<FlowMonitor> monitor = flowmon.InstallAll();
            Ptr<MrcFabricDropMonitor> drops = CreateObject<MrcFabricDropMonitor>();
            drops->Install(b.topo);
            Ptr<MrcFailureHelper> failures = CreateObject<MrcFailureHelper>(b.topo);
            failures->Blackhole(MicroSeconds(20),
                                failures->FindLink("p0-t0-0", "p0-t1-0"),
                                MrcLinkDirection::UP);
            failures->LinkDown(MicroSeconds(60),
                               failures->FindLink("p0-t0-0", "p0-t1-1"),
                               MicroSeconds(100));
            b.Connect(0, 1).first->PostWrite(2000000);
            Simulator::Stop(MilliSeconds(5));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(b.completed.size(), 1u, "MRC routes around the faults");
            Flows f = All(monitor, flowmon, b.topo->GetHostCount(), b.topo);
            const uint64_t linkLoss = drops->GetTotal(MrcFabricDropKind::LINK_LOSS);
            NS_TEST_ASSERT_MSG_GT(drops->GetTotal(MrcFabricDropKind::LINK_LOSS, "blackhole"),
                                  0,
                                  "the black hole swallowed packets");
            NS_TEST_ASSERT_MSG_GT(linkLoss,
                                  drops->GetTotal(MrcFabricDropKind::LINK_LOSS, "blackhole"),
                                  "the link that went down lost packets too");
            NS_TEST_ASSERT_MSG_EQ(f.drops[MrcFlowProbe::DROP_DEVICE],
                                  linkLoss,
                                  "each link loss reported once");
            NS_TEST_ASSERT_MSG_EQ(f.otherDrops, linkLoss, "and nothing else");
            NS_TEST_ASSERT_MSG_EQ(f.txPackets, f.rxPackets + linkLoss, "tx = rx + drops");
        }
        {
            Bench b(MrcClosSpec::TwoTier(1, 2, 1, 1), false, MrcDataPlane::ECMP);
            b.mrc->SetRoceV2Baseline();
            MrcFlowMonitorHelper flowmon;
            Ptr<FlowMonitor> monitor = flowmon.InstallAll();
            Ptr<MrcIpv6EcmpRouting> routing = WithdrawOnlyUplink(*b.topo);
            b.Connect(0, 1).first->PostWrite(100000);
            Simulator::Stop(MicroSeconds(300));
            Simulator::Run();
            Flows f = All(monitor, flowmon, b.topo->GetHostCount(), b.topo);
            NS_TEST_ASSERT_MSG_GT(routing->GetDroppedPackets(), 0u, "packets without a route");
            NS_TEST_ASSERT_MSG_EQ(f.drops[MrcFlowProbe::DROP_ROUTING],
                                  routing->GetDroppedPackets(),
                                  "each routing drop reported once");
            NS_TEST_ASSERT_MSG_EQ(f.txPackets,
                                  f.rxPackets + routing->GetDroppedPackets(),
                                  "tx = rx + drops");
        }
    }
};

/**
 * \ingroup mrc-test
 * Bad use gets a clear error: a probe before MRC is installed, or with a null argument.
 */
class FlowProbeErrorsTestCase : public TestCase
{
  public:
    FlowProbeErrorsTestCase()
        : TestCase("installing before MRC, on a node without IPv6, or with null arguments, is "
                   "refused")
    {
    }

  private:
    void DoRun() override
    {
        {
            MrcClosTopologyHelper helper;
            Ptr<MrcFabricTopology> topo = helper.Build(MrcClosSpec::TwoTier(1, 2, 2, 2));
            MrcFlowMonitorHelper flowmon;
            const std::string all = InvalidArgumentOf([&flowmon]() {
                flowmon.InstallAll();
            });
            NS_TEST_ASSERT_MSG_NE(all.find("no node has MrcL4Protocol"),
                                  std::string::npos,
                                  "InstallAll before MRC: " << all);
            const std::string one = InvalidArgumentOf([&flowmon, &topo]() {
                flowmon.Install(topo->GetHost(0));
            });
            NS_TEST_ASSERT_MSG_NE(one.find("has no MrcL4Protocol"),
                                  std::string::npos,
                                  "Install on a host before MRC: " << one);
            const std::string none = InvalidArgumentOf([&flowmon]() {
                flowmon.Install(Ptr<Node>());
            });
            NS_TEST_ASSERT_MSG_NE(none.find("null"), std::string::npos, none);
            Simulator::Destroy();
            Names::Clear();
        }
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2), true);
        Ptr<FlowMonitor> monitor = CreateObject<FlowMonitor>();
        const std::string nullClassifier = InvalidArgumentOf([&monitor, &b]() {
            CreateObject<MrcFlowProbe>(monitor, nullptr, b.topo->GetHost(0));
        });
        NS_TEST_ASSERT_MSG_NE(nullClassifier.find("must not be null"),
                              std::string::npos,
                              nullClassifier);
        const std::string bare = InvalidArgumentOf([&monitor]() {
            CreateObject<MrcFlowProbe>(monitor, Create<Ipv6FlowClassifier>(), CreateObject<Node>());
        });
        NS_TEST_ASSERT_MSG_NE(bare.find("has no IPv6 stack"), std::string::npos, bare);
        NS_TEST_ASSERT_MSG_EQ(monitor->GetAllProbes().size(),
                              0,
                              "a refused probe is not left registered with the monitor");
        monitor->Dispose();
    }
};

/**
 * \ingroup mrc-test
 * The suite.
 */
class MrcFlowProbeTestSuite : public TestSuite
{
  public:
    MrcFlowProbeTestSuite()
        : TestSuite("mrc-flow-probe", Type::UNIT)
    {
        AddTestCase(new FlowProbeTransferTestCase(MrcDataPlane::SRV6, true));
        AddTestCase(new FlowProbeTransferTestCase(MrcDataPlane::ECMP, true));
        AddTestCase(new FlowProbeTransferTestCase(MrcDataPlane::SRV6, false));
        AddTestCase(new FlowProbeTransferTestCase(MrcDataPlane::ECMP, true, false));
        AddTestCase(new FlowProbeTrimTestCase);
        AddTestCase(new FlowProbeLossTestCase);
        AddTestCase(new FlowProbeFabricDropsTestCase);
        AddTestCase(new FlowProbeErrorsTestCase);
    }
};

/// Registers the suite.
static MrcFlowProbeTestSuite g_mrcFlowProbeTestSuite;

} // namespace
