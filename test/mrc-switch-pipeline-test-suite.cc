/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup mrc-test
 * MrcSwitchPipeline: the lean forwarding path gives the same simulation as switches forwarding
 * through Ipv6L3Protocol (completion times, trims, per-switch forwarding), and drops what an
 * IPv6 router drops (hop limit, interface down) with the same ICMPv6 answers.
 */

#include "mrc-test-bench.h"

#include "ns3/boolean.h"
#include "ns3/icmpv6-header.h"
#include "ns3/icmpv6-l4-protocol.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv6-address-helper.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/udp-socket-factory.h"

#include <vector>

using namespace ns3;
using namespace ns3::mrctest;

namespace
{

/// What one run produced, compared between the two forwarding paths.
struct Outcome
{
    std::vector<int64_t> doneNs;  //!< completion time of each message, in order
    std::vector<uint64_t> routed; //!< per switch: packets its routing forwarded
    uint64_t trims{0};            //!< packets trimmed, all switches
    uint64_t lean{0};             //!< packets forwarded by pipelines
    uint64_t slow{0};             //!< packets pipelines handed to Ipv6L3Protocol
    uint32_t pipelines{0};        //!< switches with a pipeline
    bool bytesOk{false};          //!< every byte delivered exactly
};

/**
 * A 4-to-1 incast across racks over trimming switches (two planes).
 * \param lean MrcSwitchPipeline::Enabled
 * \param plane data plane
 * \return the outcome
 */
Outcome
RunIncast(bool lean, MrcDataPlane plane)
{
    MrcScopedAttributeDefault enabled("ns3::MrcSwitchPipeline", "Enabled", BooleanValue(lean));
    Outcome o;
    Bench b(MrcClosSpec::TwoTier(2, 2, 4, 2), true, plane);
    FourToOneIncast incast;
    incast.Post(b);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    o.bytesOk = incast.BytesOk();
    o.doneNs = incast.doneNs;
    const NodeContainer switches = b.topo->GetAllSwitches();
    for (auto it = switches.Begin(); it != switches.End(); ++it)
    {
        Ptr<Node> node = *it;
        if (Ptr<MrcSwitchPipeline> p = node->GetObject<MrcSwitchPipeline>())
        {
            o.pipelines++;
            o.lean += p->GetForwardedPackets();
            o.slow += p->GetSlowPathPackets();
        }
        o.routed.push_back(plane == MrcDataPlane::SRV6
                               ? MrcSrv6RoutingHelper::GetSwitchRouting(node)->GetForwardedPackets()
                               : MrcEcmpRoutingHelper::GetRouting(node)->GetForwardedPackets());
        o.trims += SwitchTrims(node);
    }
    return o;
}

/**
 * \ingroup mrc-test
 * The same incast through the lean pipeline and through Ipv6L3Protocol: identical results.
 */
class PipelineEquivalenceTestCase : public TestCase
{
  public:
    /// \param plane data plane
    explicit PipelineEquivalenceTestCase(MrcDataPlane plane)
        : TestCase("lean pipeline and IPv6 router switches give the same incast, data plane "
                   + std::string(plane == MrcDataPlane::SRV6 ? "srv6" : "ecmp"))
        , m_plane(plane)
    {
    }

  private:
    void DoRun() override
    {
        const Outcome lean = RunIncast(true, m_plane);
        const Outcome router = RunIncast(false, m_plane);
        // 2 planes x (2 T0 + 2 T1).
        NS_TEST_ASSERT_MSG_EQ(lean.pipelines, 8u, "every switch has a pipeline");
        NS_TEST_ASSERT_MSG_EQ(router.pipelines, 0u, "Enabled=false: none");
        NS_TEST_ASSERT_MSG_EQ(lean.bytesOk, true, "lean: every byte delivered");
        NS_TEST_ASSERT_MSG_EQ(router.bytesOk, true, "router: every byte delivered");
        NS_TEST_ASSERT_MSG_EQ(lean.doneNs.size(), 8u, "eight messages complete");
        NS_TEST_ASSERT_MSG_GT(lean.trims, 10u, "the incast trims");
        uint64_t routed = 0;
        for (uint64_t r : lean.routed)
        {
            routed += r;
        }
        NS_TEST_ASSERT_MSG_GT(lean.lean, 300u, "the pipelines forwarded the transfer");
        NS_TEST_ASSERT_MSG_EQ(lean.lean, routed, "every routed packet took the lean path");
        // Only the hosts' router solicitations (to ff02::2) go to Ipv6L3Protocol.
        NS_TEST_ASSERT_MSG_LT(lean.slow, 100u, "only control multicast took ns-3's path");
        NS_TEST_ASSERT_MSG_EQ((lean.doneNs == router.doneNs), true, "same completion times");
        NS_TEST_ASSERT_MSG_EQ((lean.routed == router.routed), true, "same per-switch forwarding");
        NS_TEST_ASSERT_MSG_EQ(lean.trims, router.trims, "same trims");
    }

    MrcDataPlane m_plane; //!< data plane
};

/// Counts of one probe run.
struct ProbeOutcome
{
    uint32_t delivered{0};  //!< UDP datagrams at the destination
    uint32_t icmp{0};       //!< ICMPv6 errors back at the source
    uint8_t icmpType{0};    //!< type of the last one
    uint64_t hopLimit{0};   //!< pipeline drops: HOP_LIMIT, all switches
    uint64_t outputDown{0}; //!< pipeline drops: OUTPUT_DOWN, all switches
    uint64_t monitored{0};  //!< MrcFabricDropMonitor: routing-drop OUTPUT_DOWN
};

/**
 * \param out counts
 * \param socket receiving socket
 */
void
CountReceived(ProbeOutcome* out, Ptr<Socket> socket)
{
    while (socket->Recv())
    {
        out->delivered++;
    }
}

/**
 * \param out counts
 * \param p packet as received by the source's IPv6 (header included)
 */
void
CountIcmp(ProbeOutcome* out, Ptr<const Packet> p, Ptr<Ipv6>, uint32_t)
{
    Ipv6Header ip;
    Ptr<Packet> copy = p->Copy();
    copy->RemoveHeader(ip);
    if (ip.GetNextHeader() == Icmpv6L4Protocol::GetStaticProtocolNumber())
    {
        Icmpv6Header icmp;
        copy->PeekHeader(icmp);
        out->icmp++;
        out->icmpType = icmp.GetType();
    }
}

/**
 * One UDP datagram from host 0 to host 2 (T0 0 - T1 - T0 1) with a hop limit, optionally with
 * T0 0's uplinks down at the IPv6 level.
 * \param lean MrcSwitchPipeline::Enabled
 * \param hopLimit the datagram's hop limit
 * \param uplinksDown set T0 0's IPv6 interfaces towards the T1s down
 * \return the counts
 */
ProbeOutcome
RunProbe(bool lean, uint8_t hopLimit, bool uplinksDown)
{
    MrcScopedAttributeDefault enabled("ns3::MrcSwitchPipeline", "Enabled", BooleanValue(lean));
    ProbeOutcome o;
    Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2), false, MrcDataPlane::ECMP);
    Ptr<Socket> rx = Socket::CreateSocket(b.topo->GetHost(2), UdpSocketFactory::GetTypeId());
    rx->Bind(Inet6SocketAddress(Ipv6Address::GetAny(), 9));
    rx->SetRecvCallback(MakeBoundCallback(&CountReceived, &o));
    b.topo->GetHost(0)->GetObject<Ipv6L3Protocol>()->TraceConnectWithoutContext(
        "Rx",
        MakeBoundCallback(&CountIcmp, &o));
    Ptr<Socket> tx = Socket::CreateSocket(b.topo->GetHost(0), UdpSocketFactory::GetTypeId());
    tx->Bind6();
    tx->SetIpv6HopLimit(hopLimit);
    if (uplinksDown)
    {
        Ptr<Node> t0 = b.topo->GetSwitch(MrcSwitchTier::T0, 0, 0);
        Ptr<Ipv6> ipv6 = t0->GetObject<Ipv6>();
        for (uint32_t i = 1; i < ipv6->GetNInterfaces(); ++i)
        {
            Ptr<NetDevice> peer = ipv6->GetNetDevice(i)->GetChannel()->GetDevice(0);
            peer = peer->GetNode() == t0 ? ipv6->GetNetDevice(i)->GetChannel()->GetDevice(1) : peer;
            if (b.topo->GetSwitchPosition(peer->GetNode()))
            {
                ipv6->SetDown(i);
            }
        }
    }
    Ptr<MrcFabricDropMonitor> monitor = CreateObject<MrcFabricDropMonitor>();
    monitor->Install(b.topo);
    const Inet6SocketAddress to(b.topo->GetHostAddress(2, 0), 9);
    Simulator::Schedule(MicroSeconds(1), [tx, to]() {
        tx->SendTo(Create<Packet>(1000), 0, to);
    });
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    o.monitored = monitor->GetTotal(MrcFabricDropKind::ROUTING_DROP, "OUTPUT_DOWN");
    const NodeContainer switches = b.topo->GetAllSwitches();
    for (auto it = switches.Begin(); it != switches.End(); ++it)
    {
        if (Ptr<MrcSwitchPipeline> p = (*it)->GetObject<MrcSwitchPipeline>())
        {
            o.hopLimit += p->GetDroppedPackets(MrcSwitchPipeline::DropReason::HOP_LIMIT);
            o.outputDown += p->GetDroppedPackets(MrcSwitchPipeline::DropReason::OUTPUT_DOWN);
        }
    }
    return o;
}

/**
 * \ingroup mrc-test
 * Hop limit and a down output interface: the pipeline drops where Ipv6L3Protocol drops, and
 * the source gets the same ICMPv6 error.
 */
class PipelineDropsTestCase : public TestCase
{
  public:
    PipelineDropsTestCase()
        : TestCase("lean pipeline drops on hop limit and down interfaces as an IPv6 router does")
    {
    }

  private:
    void DoRun() override
    {
        for (bool lean : {true, false})
        {
            const std::string mode = lean ? "lean: " : "router: ";
            const uint64_t counted = lean ? 1 : 0; // only the pipeline counts its drops
            // Three switches on the way, each decrements: 4 arrives with 1.
            const ProbeOutcome pass = RunProbe(lean, 4, false);
            NS_TEST_ASSERT_MSG_EQ(pass.delivered, 1u, mode + "hop limit 4 arrives");
            NS_TEST_ASSERT_MSG_EQ(pass.icmp, 0u, mode + "no ICMPv6 error");
            // Hop limit 1 dies at the first switch, which answers the host directly.
            const ProbeOutcome first = RunProbe(lean, 1, false);
            NS_TEST_ASSERT_MSG_EQ(first.delivered, 0u, mode + "hop limit 1 dies at T0");
            NS_TEST_ASSERT_MSG_EQ(first.icmp, 1u, mode + "one ICMPv6 error back");
            NS_TEST_ASSERT_MSG_EQ(unsigned(first.icmpType),
                                  unsigned(Icmpv6Header::ICMPV6_ERROR_TIME_EXCEEDED),
                                  mode + "Time Exceeded");
            NS_TEST_ASSERT_MSG_EQ(first.hopLimit, counted, mode + "counted once");
            // Hop limit 3 dies at the last T0. Its answer has the switch's link-local source,
            // which ns-3 never forwards: no error reaches the host, in either mode.
            const ProbeOutcome last = RunProbe(lean, 3, false);
            NS_TEST_ASSERT_MSG_EQ(last.delivered, 0u, mode + "hop limit 3 dies at the last T0");
            NS_TEST_ASSERT_MSG_EQ(last.icmp, 0u, mode + "its error is not forwarded");
            NS_TEST_ASSERT_MSG_EQ(last.hopLimit, counted, mode + "counted once");
            const ProbeOutcome down = RunProbe(lean, 64, true);
            NS_TEST_ASSERT_MSG_EQ(down.delivered, 0u, mode + "uplinks down: nothing arrives");
            NS_TEST_ASSERT_MSG_EQ(down.outputDown, counted, mode + "counted once");
            NS_TEST_ASSERT_MSG_EQ(down.monitored, down.outputDown, mode + "drop monitor agrees");
        }
    }
};

/**
 * \ingroup mrc-test
 * The pipeline's receive handler is registered once for every device of the switch. A port
 * added after it was installed keeps ns-3's own handler: a datagram to the switch's address on
 * that port arrives once (not also through the pipeline, not lost).
 */
class PipelinePortAddedLaterTestCase : public TestCase
{
  public:
    PipelinePortAddedLaterTestCase()
        : TestCase("a port added after the pipeline keeps ns-3's receive path, once")
    {
    }

  private:
    void DoRun() override
    {
        ProbeOutcome o;
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2), false, MrcDataPlane::ECMP);
        Ptr<Node> t0 = b.topo->GetSwitch(MrcSwitchTier::T0, 0, 0);
        Ptr<MrcSwitchPipeline> pipeline = t0->GetObject<MrcSwitchPipeline>();
        NS_TEST_ASSERT_MSG_NE(pipeline, nullptr, "T0 has a pipeline");
        Ptr<Node> x = CreateObject<Node>();
        InternetStackHelper stack;
        stack.SetIpv4StackInstall(false);
        stack.Install(x);
        PointToPointHelper p2p;
        const NetDeviceContainer devices = p2p.Install(x, t0);
        Ipv6AddressHelper addresses;
        addresses.SetBase(Ipv6Address("fd99::"), Ipv6Prefix(64));
        const Ipv6InterfaceContainer interfaces = addresses.Assign(devices);
        Ptr<Socket> rx = Socket::CreateSocket(t0, UdpSocketFactory::GetTypeId());
        rx->Bind(Inet6SocketAddress(Ipv6Address::GetAny(), 9));
        rx->SetRecvCallback(MakeBoundCallback(&CountReceived, &o));
        Ptr<Socket> tx = Socket::CreateSocket(x, UdpSocketFactory::GetTypeId());
        tx->Bind6();
        const Inet6SocketAddress to(interfaces.GetAddress(1, 1), 9);
        Simulator::Schedule(Seconds(2), [tx, to]() {
            tx->SendTo(Create<Packet>(1000), 0, to);
        });
        Simulator::Stop(Seconds(3));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(o.delivered, 1u, "the datagram arrives once");
        NS_TEST_ASSERT_MSG_EQ(pipeline->GetForwardedPackets(), 0u, "the pipeline forwarded none");
    }
};

/**
 * \ingroup mrc-test
 * MrcSwitchPipeline tests.
 */
class MrcSwitchPipelineTestSuite : public TestSuite
{
  public:
    MrcSwitchPipelineTestSuite()
        : TestSuite("mrc-switch-pipeline", Type::UNIT)
    {
        AddTestCase(new PipelineEquivalenceTestCase(MrcDataPlane::SRV6));
        AddTestCase(new PipelineEquivalenceTestCase(MrcDataPlane::ECMP));
        AddTestCase(new PipelineDropsTestCase);
        AddTestCase(new PipelinePortAddedLaterTestCase);
    }
};

/// Static instance.
static MrcSwitchPipelineTestSuite g_mrcSwitchPipelineTestSuite;

} // namespace
