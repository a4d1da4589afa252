/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The static SRv6 data plane: every EV's packet crosses exactly the switches the EV names, with
 * a uSID shift per hop, SRH End operations where the path spans carriers, and decapsulation at
 * the destination host; a black-holed link loses exactly the packets whose EV crosses it (static
 * routing does not route around it); malformed or misaddressed packets are dropped and counted;
 * invalid EVs are refused with clear errors.
 */

#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/ipv6-route.h"
#include "ns3/mrc-module.h"
#include "ns3/names.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/udp-header.h"
#include "ns3/udp-l4-protocol.h"

#include <map>

using namespace ns3;

namespace
{

/**
 * \param packet a forwarded packet (outer IPv6 header removed)
 * \param header its outer header
 * \return the inner UDP source port (the test's packet index)
 */
uint16_t
PacketIndex(Ptr<const Packet> packet, const Ipv6Header& header)
{
    Ptr<Packet> copy = packet->Copy();
    if (header.GetNextHeader() == MrcSegmentRoutingHeader::kProtocolNumber)
    {
        MrcSegmentRoutingHeader srh;
        copy->RemoveHeader(srh);
    }
    Ipv6Header inner;
    copy->RemoveHeader(inner);
    UdpHeader udp;
    copy->PeekHeader(udp);
    return udp.GetSourcePort();
}

} // namespace

/**
 * \ingroup mrc-test
 * Sends one UDP packet per (source, destination, EV) over the SRv6 data plane and records what
 * each packet crossed.
 */
class Srv6Harness
{
  public:
    /**
     * \param spec fabric shape
     * \param usidsPerCarrier uSIDs per carrier (0: as many as fit)
     */
    Srv6Harness(const MrcClosSpec& spec, uint32_t usidsPerCarrier)
    {
        topo = MrcClosTopologyHelper().Build(spec);
        if (usidsPerCarrier)
        {
            srv6.SetUsidsPerCarrier(usidsPerCarrier);
        }
        srv6.Install(topo);
        PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                    Inet6SocketAddress(Ipv6Address::GetAny(), 9000));
        for (uint32_t h = 0; h < topo->GetHostCount(); ++h)
        {
            sinks.Add(sinkHelper.Install(topo->GetHost(h)));
            MrcSrv6RoutingHelper::GetHostRouting(topo->GetHost(h))
                ->TraceConnectWithoutContext("Decap",
                                             MakeCallback(&Srv6Harness::OnDecap, this).Bind(h));
        }
        NodeContainer sw = topo->GetAllSwitches();
        for (auto it = sw.Begin(); it != sw.End(); ++it)
        {
            Ptr<MrcIpv6Srv6Routing> r = MrcSrv6RoutingHelper::GetSwitchRouting(*it);
            r->TraceConnectWithoutContext("Forward",
                                          MakeCallback(&Srv6Harness::OnForward, this).Bind(*it));
            r->TraceConnectWithoutContext("Shift", MakeCallback(&Srv6Harness::OnShift, this));
        }
    }

    /**
     * Schedule one packet.
     * \param src source host
     * \param dst destination host
     * \param ev EV
     */
    void Send(uint32_t src, uint32_t dst, uint32_t ev)
    {
        const uint16_t index = paths.size();
        paths.push_back(srv6.GetPath(src, dst, ev));
        dsts.push_back(dst);
        Simulator::Schedule(MicroSeconds(1 + index),
                            &Srv6Harness::DoSend,
                            this,
                            src,
                            dst,
                            ev,
                            index);
    }

    /**
     * Send now.
     * \param src source
     * \param dst destination
     * \param ev EV
     * \param index packet index
     */
    void DoSend(uint32_t src, uint32_t dst, uint32_t ev, uint16_t index)
    {
        Ptr<Packet> p = Create<Packet>(200);
        UdpHeader udp;
        udp.SetSourcePort(index);
        udp.SetDestinationPort(9000);
        p->AddHeader(udp);
        srv6.Send(src, dst, ev, p, kMrcUdpProtocolNumber);
    }

    /**
     * Forward trace.
     * \param node switch
     * \param packet packet
     * \param header header
     * \param interface egress
     */
    void OnForward(Ptr<Node> node,
                   Ptr<const Packet> packet,
                   const Ipv6Header& header,
                   uint32_t interface)
    {
        const uint16_t i = PacketIndex(packet, header);
        crossed[i].push_back(node);
    }

    /**
     * Shift trace (fires before the Forward trace of the same packet).
     * \param before destination before
     * \param after destination after
     */
    void OnShift(Ipv6Address before, Ipv6Address after)
    {
        ++shifts;
    }

    /**
     * Decap trace.
     * \param host host index
     * \param inner inner packet
     * \param header inner header
     */
    void OnDecap(uint32_t host, Ptr<const Packet> inner, const Ipv6Header& header)
    {
        UdpHeader udp;
        inner->PeekHeader(udp);
        delivered[udp.GetSourcePort()].push_back(host);
    }

    Ptr<MrcFabricTopology> topo;                         //!< fabric
    MrcSrv6RoutingHelper srv6;                           //!< data plane
    ApplicationContainer sinks;                          //!< one sink per host
    std::vector<MrcSrv6Path> paths;                      //!< path of each packet
    std::vector<uint32_t> dsts;                          //!< destination of each packet
    std::map<uint16_t, std::vector<Ptr<Node>>> crossed;  //!< switches each packet crossed
    std::map<uint16_t, std::vector<uint32_t>> delivered; //!< hosts that decapsulated it
    uint64_t shifts{0};                                  //!< uN shifts in total
    uint16_t lastShifts{0};                              //!< last forwarded packet
};

/**
 * \ingroup mrc-test
 * Every EV of every host pair (or of one source) on a small topology.
 */
class Srv6EveryEvTestCase : public TestCase
{
  public:
    /**
     * \param name test name
     * \param spec fabric
     * \param usidsPerCarrier uSIDs per carrier (0: all fit; fewer: SRH)
     * \param allSources every host sends (else host 0 only)
     */
    Srv6EveryEvTestCase(std::string name,
                        MrcClosSpec spec,
                        uint32_t usidsPerCarrier,
                        bool allSources)
        : TestCase(name)
        , m_spec(spec)
        , m_usidsPerCarrier(usidsPerCarrier)
        , m_allSources(allSources)
    {
    }

  private:
    void DoRun() override
    {
        Srv6Harness h(m_spec, m_usidsPerCarrier);
        const uint32_t n = h.topo->GetHostCount();
        for (uint32_t s = 0; s < (m_allSources ? n : 1); ++s)
        {
            for (uint32_t d = 0; d < n; ++d)
            {
                for (uint32_t p = 0; d != s && p < m_spec.planes; ++p)
                {
                    for (uint32_t ev : h.srv6.GetEvs(s, d, p))
                    {
                        // What senders resolve (and Send puts on the wire) is GetPath's path.
                        const MrcSrv6Path full = h.srv6.GetPath(s, d, ev);
                        const MrcSrv6Path wire = h.srv6.GetCarriers(s, d, ev);
                        NS_TEST_ASSERT_MSG_EQ(
                            (wire.ev == full.ev && wire.plane == full.plane
                             && wire.interface == full.interface && wire.usids == full.usids
                             && wire.carriers == full.carriers && wire.switches.empty()
                             && !full.switches.empty()),
                            true,
                            "GetCarriers " << s << " -> " << d << " EV " << ev);
                        h.Send(s, d, ev);
                    }
                }
            }
        }
        Simulator::Run();
        uint64_t expectedShifts = 0;
        uint64_t srhAdvances = 0;
        uint64_t bytes = 0;
        for (uint16_t i = 0; i < h.paths.size(); ++i)
        {
            const MrcSrv6Path& path = h.paths[i];
            NS_TEST_ASSERT_MSG_EQ((h.crossed[i] == path.switches),
                                  true,
                                  "packet " << i << " (EV " << path.ev << ") crossed the switches "
                                            << "its EV names");
            NS_TEST_ASSERT_MSG_EQ(h.delivered[i].size(), 1u, "delivered once");
            NS_TEST_ASSERT_MSG_EQ(h.delivered[i][0], h.dsts[i], "to its destination");
            expectedShifts += path.usids.size() - path.carriers.size();
            srhAdvances += path.carriers.size() - 1;
        }
        NS_TEST_ASSERT_MSG_EQ(h.shifts,
                              expectedShifts,
                              "one uN shift per uSID but each carrier's last");
        uint64_t advanced = 0;
        NodeContainer sw = h.topo->GetAllSwitches();
        for (auto it = sw.Begin(); it != sw.End(); ++it)
        {
            advanced += MrcSrv6RoutingHelper::GetSwitchRouting(*it)->GetSrhAdvancedPackets();
        }
        NS_TEST_ASSERT_MSG_EQ(advanced, srhAdvances, "SRH End once per extra carrier");
        if (m_usidsPerCarrier)
        {
            NS_TEST_ASSERT_MSG_GT(advanced, 0u, "paths span carriers");
        }
        for (uint32_t d = 0; d < n; ++d)
        {
            bytes += DynamicCast<PacketSink>(h.sinks.Get(d))->GetTotalRx();
        }
        NS_TEST_ASSERT_MSG_EQ(bytes, 200u * h.paths.size(), "UDP delivered every payload");
        Simulator::Destroy();
        Names::Clear();
    }

    MrcClosSpec m_spec;         //!< fabric
    uint32_t m_usidsPerCarrier; //!< carrier size
    bool m_allSources;          //!< every host sends
};

/**
 * \ingroup mrc-test
 * A black-holed link loses exactly the packets whose EV crosses it.
 */
class Srv6BlackholeTestCase : public TestCase
{
  public:
    Srv6BlackholeTestCase()
        : TestCase("a black-holed link drops exactly the packets whose EV crosses it")
    {
    }

  private:
    void DoRun() override
    {
        // One plane, 2 T0 x 2 hosts, 2 T1, 4 uplinks per T0: 2 parallel links per T0-T1 pair.
        Srv6Harness h(MrcClosSpec::TwoTier(1, 2, 2, 2, 4), 0);
        Ptr<Node> t0 = h.topo->GetSwitch(MrcSwitchTier::T0, 0, 0);
        Ptr<Node> t1 = h.topo->GetSwitch(MrcSwitchTier::T1, 0, 0);
        const MrcFabricLink dead = h.topo->GetLinksBetween(t0, t1).at(1); // parallel link v1
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorRate", DoubleValue(1.0));
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        dead.upperDevice->SetAttribute("ReceiveErrorModel", PointerValue(em)); // T0 -> T1 only
        for (uint32_t s = 0; s < 4; ++s)
        {
            for (uint32_t d = 0; d < 4; ++d)
            {
                for (uint32_t ev : (s == d ? std::vector<uint32_t>{} : h.srv6.GetEvs(s, d, 0)))
                {
                    h.Send(s, d, ev);
                }
            }
        }
        Simulator::Run();
        uint32_t lost = 0;
        for (uint16_t i = 0; i < h.paths.size(); ++i)
        {
            const MrcSrv6Path& path = h.paths[i];
            // Crosses the dead link upwards: from T0 0, uplink u = 2 (T1 0, parallel index 1).
            const bool crosses = path.switches.size() > 1 && path.switches[0] == t0
                                 && path.switches[1] == t1 && (path.ev & 0x0fffffff) == 2;
            if (crosses)
            {
                ++lost;
                NS_TEST_ASSERT_MSG_EQ(h.delivered[i].size(), 0u, "lost: EV " << path.ev);
                NS_TEST_ASSERT_MSG_EQ(h.crossed[i].size(), 1u, "stopped after the first switch");
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(h.delivered[i].size(), 1u, "delivered: EV " << path.ev);
                NS_TEST_ASSERT_MSG_EQ((h.crossed[i] == path.switches), true, "on its own path");
            }
        }
        // Hosts 0 and 1 sit on T0 0 and send to hosts 2 and 3 with 4 EVs each: 4 cross it.
        NS_TEST_ASSERT_MSG_EQ(lost, 4u, "exactly the EVs over the dead link");
        Simulator::Destroy();
        Names::Clear();
    }
};

/**
 * \ingroup mrc-test
 * Malformed and misaddressed packets are dropped and counted; plain IPv6 is forwarded by the
 * static table or dropped as configured; invalid EVs are refused.
 */
class Srv6DropsAndErrorsTestCase : public TestCase
{
  public:
    Srv6DropsAndErrorsTestCase()
        : TestCase("malformed SRH, path ending at a switch, not encapsulated, unmatched, bad EVs")
    {
    }

  private:
    /**
     * Send raw bytes from host 0 with a given outer destination and next header.
     * \param topo fabric
     * \param dst outer destination
     * \param protocol next header
     * \param payload the bytes after the outer IPv6 header
     */
    static void Raw(Ptr<MrcFabricTopology> topo,
                    Ipv6Address dst,
                    uint8_t protocol,
                    std::vector<uint8_t> payload)
    {
        Ptr<Ipv6L3Protocol> ipv6 = topo->GetHost(0)->GetObject<Ipv6L3Protocol>();
        Ptr<Ipv6Route> route = Create<Ipv6Route>();
        route->SetDestination(dst);
        route->SetGateway(Ipv6Address::GetAny());
        route->SetOutputDevice(topo->GetHostDevice(0, 0));
        route->SetSource(topo->GetHostAddress(0, 0));
        ipv6->Send(Create<Packet>(payload.data(), payload.size()),
                   topo->GetHostAddress(0, 0),
                   dst,
                   protocol,
                   route);
    }

    void DoRun() override
    {
        Ptr<MrcFabricTopology> topo =
            MrcClosTopologyHelper().Build(MrcClosSpec::TwoTier(1, 2, 2, 2));
        MrcSrv6RoutingHelper srv6;
        srv6.Install(topo);
        const MrcUsidCarrier& c = srv6.GetCarrier();
        const MrcUsidPlan& plan = srv6.GetPlan();
        Ptr<MrcIpv6Srv6Routing> t0 =
            MrcSrv6RoutingHelper::GetSwitchRouting(topo->GetSwitch(MrcSwitchTier::T0, 0, 0));
        Ptr<MrcIpv6Srv6HostRouting> host3 = MrcSrv6RoutingHelper::GetHostRouting(topo->GetHost(3));
        const uint16_t t0Usid = plan.GetSwitchUsid(MrcSwitchTier::T0, 0, 0, 0);

        // The path ends at T0 0 and announces an SRH of 5 bytes: malformed.
        Simulator::Schedule(MicroSeconds(1),
                            &Raw,
                            topo,
                            c.Locator(t0Usid),
                            43,
                            std::vector<uint8_t>{41, 0, 4, 0, 0});
        // An SRH whose Segments Left exceeds Last Entry.
        MrcSegmentRoutingHeader srh;
        srh.SetNextHeader(41);
        srh.SetSegments({c.Locator(0x0e01)});
        Buffer b;
        b.AddAtStart(srh.GetSerializedSize());
        srh.Serialize(b.Begin());
        std::vector<uint8_t> bytes(b.GetSize());
        b.CopyData(bytes.data(), bytes.size());
        bytes[3] = 3;
        Simulator::Schedule(MicroSeconds(2), &Raw, topo, c.Locator(t0Usid), 43, bytes);
        // The path ends at T0 0 with no SRH: nothing to do at a switch.
        Simulator::Schedule(MicroSeconds(3),
                            &Raw,
                            topo,
                            c.Locator(t0Usid),
                            17,
                            std::vector<uint8_t>(20, 0));
        // Reaches host 3's SID and carries UDP directly: delivered to the upper layer.
        const MrcSrv6Path path = srv6.GetPath(0, 3, 0);
        Simulator::Schedule(MicroSeconds(4),
                            &Raw,
                            topo,
                            path.carriers[0],
                            17,
                            std::vector<uint8_t>(20, 0));
        // Reaches host 3's SID with an inner header shorter than 40 bytes.
        Simulator::Schedule(MicroSeconds(5),
                            &Raw,
                            topo,
                            path.carriers[0],
                            41,
                            std::vector<uint8_t>(12, 0x60));
        // A uSID nobody owns: no route.
        Simulator::Schedule(MicroSeconds(6),
                            &Raw,
                            topo,
                            c.Locator(0x0ddd),
                            17,
                            std::vector<uint8_t>(20, 0));
        Simulator::Run();

        using R = MrcIpv6Srv6Routing::DropReason;
        NS_TEST_ASSERT_MSG_EQ(t0->GetDroppedPackets(R::MALFORMED_SRH), 2u, "malformed SRHs");
        NS_TEST_ASSERT_MSG_EQ(t0->GetDroppedPackets(R::PATH_ENDS_HERE), 1u, "ends at a switch");
        NS_TEST_ASSERT_MSG_EQ(t0->GetDroppedPackets(R::NO_ROUTE), 1u, "unknown uSID");
        using H = MrcIpv6Srv6HostRouting::DropReason;
        NS_TEST_ASSERT_MSG_EQ(host3->GetUpperLayerPackets(), 1u, "transport directly on the SID");
        NS_TEST_ASSERT_MSG_EQ(host3->GetDroppedPackets(H::TRUNCATED_INNER), 1u, "short inner");
        NS_TEST_ASSERT_MSG_EQ(host3->GetDecapsulatedPackets(), 0u, "nothing delivered");
        Simulator::Destroy();

        // Invalid EVs.
        auto error = [&srv6](uint32_t s, uint32_t d, uint32_t ev) {
            try
            {
                srv6.GetPath(s, d, ev);
            }
            catch (const std::invalid_argument& e)
            {
                return std::string(e.what());
            }
            return std::string();
        };
        NS_TEST_ASSERT_MSG_NE(error(0, 3, 0x10000000)
                                  .find("plane bits 31..28 (=1) must be < "
                                        "planes (=1)"),
                              std::string::npos,
                              "plane out of range");
        // A choice beyond the pair's paths names path c mod paths (several EVs per path).
        NS_TEST_ASSERT_MSG_EQ(error(0, 3, 2), "", "choice 2 of 2 paths is path 0");
        NS_TEST_ASSERT_MSG_EQ((srv6.GetPath(0, 3, 2).usids == srv6.GetPath(0, 3, 0).usids),
                              true,
                              "EVs 2 and 0 take the same path");
        NS_TEST_ASSERT_MSG_EQ(srv6.GetEvs(0, 3, 0, 5).size(), 5u, "five EVs over two paths");
        NS_TEST_ASSERT_MSG_EQ(error(0, 1, 1), "", "one path under one T0: every choice is it");
        NS_TEST_ASSERT_MSG_NE(error(2, 2, 0).find("must be distinct"), std::string::npos, "same");
        Names::Clear();

        // One setting switches the data plane.
        Ptr<MrcFabricTopology> other =
            MrcClosTopologyHelper().Build(MrcClosSpec::TwoTier(1, 2, 2, 2));
        MrcDataPlaneHelper dp;
        dp.SetDataPlane(MrcDataPlaneHelper::Parse("--dataPlane", "ecmp"));
        dp.Install(other);
        NS_TEST_ASSERT_MSG_NE(
            MrcEcmpRoutingHelper::GetRouting(other->GetSwitch(MrcSwitchTier::T1, 0, 0)),
            nullptr,
            "ECMP installed");
        std::string message;
        try
        {
            MrcDataPlaneHelper::Parse("--dataPlane", "bgp");
        }
        catch (const std::invalid_argument& e)
        {
            message = e.what();
        }
        NS_TEST_ASSERT_MSG_EQ(message, "--dataPlane (=\"bgp\") must be srv6 or ecmp", "parse");
        Simulator::Destroy();
        Names::Clear();
    }
};

/**
 * \ingroup mrc-test
 * Plain IPv6 (not source-routed) crosses an SRv6 fabric by the static tables, or is dropped as
 * unmatched when the switches are told to.
 */
class Srv6PlainIpv6TestCase : public TestCase
{
  public:
    /**
     * \param forward ForwardUnmatched
     */
    explicit Srv6PlainIpv6TestCase(bool forward)
        : TestCase(std::string("plain IPv6 over SRv6 switches: ")
                   + (forward ? "forwarded by the static table" : "dropped as unmatched"))
        , m_forward(forward)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<MrcFabricTopology> topo = MrcClosTopologyHelper().Build(MrcClosSpec::FatTree(4));
        MrcSrv6RoutingHelper srv6;
        srv6.SetForwardUnmatched(m_forward);
        srv6.Install(topo);
        MrcPermutationHelper perm(topo);
        perm.SetBytesPerFlow(8192);
        perm.SetPacketSize(4096);
        perm.Install();
        Simulator::Run();
        uint64_t unmatched = 0;
        NodeContainer sw = topo->GetAllSwitches();
        for (auto it = sw.Begin(); it != sw.End(); ++it)
        {
            unmatched += MrcSrv6RoutingHelper::GetSwitchRouting(*it)->GetDroppedPackets(
                MrcIpv6Srv6Routing::DropReason::UNMATCHED);
        }
        for (const auto& f : perm.GetFlows())
        {
            NS_TEST_ASSERT_MSG_EQ(f.received,
                                  (m_forward ? f.bytes : 0),
                                  "flow " << f.src << "->" << f.dst);
        }
        NS_TEST_ASSERT_MSG_EQ(unmatched, (m_forward ? 0u : 2u * 16u), "unmatched drops counted");
        Simulator::Destroy();
        Names::Clear();
    }

    bool m_forward; //!< ForwardUnmatched
};

/**
 * \ingroup mrc-test
 * The SRv6 test suite.
 */
class MrcSrv6TestSuite : public TestSuite
{
  public:
    MrcSrv6TestSuite()
        : TestSuite("mrc-srv6", Type::UNIT)
    {
        AddTestCase(new Srv6EveryEvTestCase("every EV, every pair: two-tier Clos, 2 planes, "
                                            "parallel uplinks",
                                            MrcClosSpec::TwoTier(2, 2, 2, 2, 4),
                                            0,
                                            true));
        AddTestCase(new Srv6EveryEvTestCase("every EV from host 0: k=4 fat-tree, 2 planes",
                                            MrcClosSpec::FatTree(4, 2),
                                            0,
                                            false));
        AddTestCase(new Srv6EveryEvTestCase("every EV from host 0: k=4 fat-tree, 2 uSIDs per "
                                            "carrier (SRH)",
                                            MrcClosSpec::FatTree(4, 1),
                                            2,
                                            false));
        AddTestCase(new Srv6BlackholeTestCase);
        AddTestCase(new Srv6DropsAndErrorsTestCase);
        AddTestCase(new Srv6PlainIpv6TestCase(true));
        AddTestCase(new Srv6PlainIpv6TestCase(false));
    }
};

/// The suite's single instance.
static MrcSrv6TestSuite g_mrcSrv6TestSuite;
