/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup mrc-test
 * MrcHostPipeline: MRC datagrams handed to MrcL4Protocol directly give the same simulation as
 * their way through Ipv6L3Protocol and UdpL4Protocol (completion times, trims, every byte, the
 * SRv6 host routing's counters), and every other packet still takes ns-3's stack.
 */

#include "mrc-test-bench.h"

#include "ns3/boolean.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/udp-socket-factory.h"

#include <vector>

using namespace ns3;
using namespace ns3::mrctest;

namespace
{

/// What one run produced, compared between the two receive paths.
struct Outcome
{
    std::vector<int64_t> doneNs; //!< completion time of each message, in order
    uint64_t trims{0};           //!< packets trimmed, all switches
    uint64_t mrcRx{0};           //!< MrcL4Protocol Rx, all hosts
    uint64_t upperLayer{0};      //!< SRv6 host routing: delivered without decapsulation
    uint64_t ipv6Rx{0};          //!< Ipv6L3Protocol Rx, all hosts
    uint64_t lean{0};            //!< datagrams the host pipelines delivered
    uint64_t slow{0};            //!< packets they handed to Ipv6L3Protocol
    uint64_t misrouted{0};       //!< packets they dropped
    uint32_t pipelines{0};       //!< hosts with a pipeline
    bool bytesOk{false};         //!< every byte delivered exactly
};

/**
 * \param count counter
 */
void
CountMrcRx(uint64_t* count, Ptr<const Packet>, const Ipv6Header&, uint32_t)
{
    ++*count;
}

/**
 * \param count counter
 */
void
CountIpv6Rx(uint64_t* count, Ptr<const Packet>, Ptr<Ipv6>, uint32_t)
{
    ++*count;
}

/**
 * A 4-to-1 incast across racks over trimming switches (two planes), into host 0.
 * \param lean MrcHostPipeline::Enabled
 * \param plane data plane (SRv6: the destination is a SID; ECMP: a host address)
 * \return the outcome
 */
Outcome
RunIncast(bool lean, MrcDataPlane plane)
{
    MrcScopedAttributeDefault enabled("ns3::MrcHostPipeline", "Enabled", BooleanValue(lean));
    Outcome o;
    Bench b(MrcClosSpec::TwoTier(2, 2, 4, 2), true, plane);
    FourToOneIncast incast;
    incast.Post(b);
    for (uint32_t h = 0; h < b.topo->GetHostCount(); ++h)
    {
        Ptr<Node> host = b.topo->GetHost(h);
        host->GetObject<MrcL4Protocol>()->TraceConnectWithoutContext(
            "Rx",
            MakeBoundCallback(&CountMrcRx, &o.mrcRx));
        host->GetObject<Ipv6L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            MakeBoundCallback(&CountIpv6Rx, &o.ipv6Rx));
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    o.bytesOk = incast.BytesOk();
    o.doneNs = incast.doneNs;
    for (uint32_t h = 0; h < b.topo->GetHostCount(); ++h)
    {
        Ptr<Node> host = b.topo->GetHost(h);
        if (Ptr<MrcHostPipeline> p = host->GetObject<MrcHostPipeline>())
        {
            o.pipelines++;
            o.lean += p->GetDeliveredPackets();
            o.slow += p->GetSlowPathPackets();
            o.misrouted += p->GetMisroutedPackets();
        }
        if (plane == MrcDataPlane::SRV6)
        {
            o.upperLayer += MrcSrv6RoutingHelper::GetHostRouting(host)->GetUpperLayerPackets();
        }
    }
    const NodeContainer switches = b.topo->GetAllSwitches();
    for (auto it = switches.Begin(); it != switches.End(); ++it)
    {
        o.trims += SwitchTrims(*it);
    }
    return o;
}

/**
 * \ingroup mrc-test
 * The same incast with and without the host pipeline: identical results, and every MRC
 * datagram took the lean path.
 */
class HostPipelineEquivalenceTestCase : public TestCase
{
  public:
    /// \param plane data plane
    explicit HostPipelineEquivalenceTestCase(MrcDataPlane plane)
        : TestCase("host pipeline and ns-3's IPv6 and UDP receive give the same incast, data plane "
                   + std::string(plane == MrcDataPlane::SRV6 ? "srv6" : "ecmp"))
        , m_plane(plane)
    {
    }

  private:
    void DoRun() override
    {
        const Outcome lean = RunIncast(true, m_plane);
        const Outcome stack = RunIncast(false, m_plane);
        NS_TEST_ASSERT_MSG_EQ(lean.pipelines, 8u, "every host has a pipeline");
        NS_TEST_ASSERT_MSG_EQ(stack.pipelines, 0u, "Enabled=false: none");
        NS_TEST_ASSERT_MSG_EQ(lean.bytesOk, true, "lean: every byte delivered");
        NS_TEST_ASSERT_MSG_EQ(stack.bytesOk, true, "stack: every byte delivered");
        NS_TEST_ASSERT_MSG_EQ(lean.doneNs.size(), 8u, "eight messages complete");
        NS_TEST_ASSERT_MSG_GT(lean.trims, 10u, "the incast trims");
        NS_TEST_ASSERT_MSG_GT(lean.mrcRx, 400u, "the transfer arrived");
        NS_TEST_ASSERT_MSG_EQ(lean.lean, lean.mrcRx, "every MRC datagram took the lean path");
        NS_TEST_ASSERT_MSG_EQ(lean.misrouted, 0u, "nothing misrouted");
        // Only the switches' router advertisements and neighbour discovery take ns-3's path,
        // and only they fire Ipv6L3Protocol's Rx.
        NS_TEST_ASSERT_MSG_LT(lean.slow, 100u, "only control traffic took ns-3's path");
        NS_TEST_ASSERT_MSG_EQ(lean.ipv6Rx, lean.slow, "Ipv6L3Protocol saw the slow path only");
        NS_TEST_ASSERT_MSG_EQ(stack.ipv6Rx, stack.mrcRx + lean.slow, "the stack saw them all");
        NS_TEST_ASSERT_MSG_EQ((lean.doneNs == stack.doneNs), true, "same completion times");
        NS_TEST_ASSERT_MSG_EQ(lean.trims, stack.trims, "same trims");
        NS_TEST_ASSERT_MSG_EQ(lean.mrcRx, stack.mrcRx, "same MRC arrivals");
        NS_TEST_ASSERT_MSG_EQ(lean.upperLayer, stack.upperLayer, "same SRv6 host counters");
        if (m_plane == MrcDataPlane::SRV6)
        {
            NS_TEST_ASSERT_MSG_EQ(lean.upperLayer, lean.mrcRx, "SRv6: each one to a local SID");
        }
    }

    MrcDataPlane m_plane; //!< data plane
};

/**
 * \param count counter
 * \param socket receiving socket
 */
void
CountReceived(uint32_t* count, Ptr<Socket> socket)
{
    while (socket->Recv())
    {
        ++*count;
    }
}

/**
 * \ingroup mrc-test
 * A host with the pipeline still receives other UDP through ns-3's stack, and refuses to take
 * over a node without MrcL4Protocol.
 */
class HostPipelineSlowPathTestCase : public TestCase
{
  public:
    HostPipelineSlowPathTestCase()
        : TestCase("user UDP reaches its socket through ns-3's stack on a pipelined host")
    {
    }

  private:
    void DoRun() override
    {
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2), false, MrcDataPlane::ECMP);
        Ptr<Node> host = b.topo->GetHost(2);
        Ptr<MrcHostPipeline> pipeline = host->GetObject<MrcHostPipeline>();
        NS_TEST_ASSERT_MSG_NE(pipeline, nullptr, "MrcHelper installed the pipeline");
        uint32_t received = 0;
        uint64_t ipv6Rx = 0;
        Ptr<Socket> rx = Socket::CreateSocket(host, UdpSocketFactory::GetTypeId());
        rx->Bind(Inet6SocketAddress(Ipv6Address::GetAny(), 9));
        rx->SetRecvCallback(MakeBoundCallback(&CountReceived, &received));
        Ptr<Socket> tx = Socket::CreateSocket(b.topo->GetHost(0), UdpSocketFactory::GetTypeId());
        tx->Bind6();
        const Inet6SocketAddress to(b.topo->GetHostAddress(2, 0), 9);
        uint64_t slowBefore = 0;
        Simulator::Schedule(MicroSeconds(50), [&]() {
            slowBefore = pipeline->GetSlowPathPackets();
            host->GetObject<Ipv6L3Protocol>()->TraceConnectWithoutContext(
                "Rx",
                MakeBoundCallback(&CountIpv6Rx, &ipv6Rx));
            for (int i = 0; i < 3; ++i)
            {
                tx->SendTo(Create<Packet>(1000), 0, to);
            }
        });
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(received, 3u, "three datagrams on port 9 arrive");
        // At least: a router advertisement may share the window.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(pipeline->GetSlowPathPackets() - slowBefore,
                                    3u,
                                    "through ns-3's path");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(ipv6Rx, 3u, "Ipv6L3Protocol's Rx saw them");
        NS_TEST_ASSERT_MSG_EQ(pipeline->GetDeliveredPackets(), 0u, "none on the lean path");

        Ptr<Node> bare = b.topo->GetSwitch(MrcSwitchTier::T0, 0, 0);
        NS_TEST_ASSERT_MSG_EQ(MrcHostPipeline::Install(bare),
                              nullptr,
                              "no MrcL4Protocol: not installed");
    }
};

/**
 * \ingroup mrc-test
 * MrcHostPipeline tests.
 */
class MrcHostPipelineTestSuite : public TestSuite
{
  public:
    MrcHostPipelineTestSuite()
        : TestSuite("mrc-host-pipeline", Type::UNIT)
    {
        AddTestCase(new HostPipelineEquivalenceTestCase(MrcDataPlane::SRV6));
        AddTestCase(new HostPipelineEquivalenceTestCase(MrcDataPlane::ECMP));
        AddTestCase(new HostPipelineSlowPathTestCase);
    }
};

/// Static instance.
static MrcHostPipelineTestSuite g_mrcHostPipelineTestSuite;

} // namespace
