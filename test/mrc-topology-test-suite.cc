/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Topology helper: wiring per tier and plane, names, devices, reachability with the expected
 * number of switch hops over the real data plane, and errors for impossible parameters.
 */

#include "ns3/channel.h"
#include "ns3/ipv6.h"
#include "ns3/mrc-module.h"
#include "ns3/names.h"
#include "ns3/node-list.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <set>

using namespace ns3;

namespace
{

/**
 * \param what a callable that must throw std::invalid_argument
 * \return the exception's message, or "" if nothing was thrown
 */
template<typename F>
std::string
ErrorOf(F what)
{
    try
    {
        what();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

/**
 * \ingroup mrc-test
 * Node, link and device counts of a two-plane k=4 fat-tree, and a two-tier Clos with
 * oversubscription and parallel uplinks.
 */
class FabricWiringTestCase : public TestCase
{
  public:
    FabricWiringTestCase()
        : TestCase("fat-tree and two-tier Clos wiring per tier and plane")
    {
    }

  private:
    void DoRun() override
    {
        {
            Ptr<MrcFabricTopology> topo = MrcClosTopologyHelper().Build(MrcClosSpec::FatTree(4, 2));
            NS_TEST_ASSERT_MSG_EQ(topo->GetHostCount(), 16u, "k^3/4 hosts");
            for (uint32_t p = 0; p < 2; ++p)
            {
                NS_TEST_ASSERT_MSG_EQ(topo->GetSwitches(MrcSwitchTier::T0, p).GetN(), 8u, "T0");
                NS_TEST_ASSERT_MSG_EQ(topo->GetSwitches(MrcSwitchTier::T1, p).GetN(), 8u, "T1");
                NS_TEST_ASSERT_MSG_EQ(topo->GetSwitches(MrcSwitchTier::T2, p).GetN(), 4u, "T2");
            }
            uint32_t perTierPlane[3][2] = {};
            for (const MrcFabricLink& l : topo->GetLinks())
            {
                perTierPlane[uint32_t(l.tier)][l.plane]++;
                NS_TEST_ASSERT_MSG_EQ(l.lowerDevice->GetChannel(),
                                      l.upperDevice->GetChannel(),
                                      "both ends on one channel");
                NS_TEST_ASSERT_MSG_EQ(l.lowerDevice->GetNode(), l.lower, "lower device");
                NS_TEST_ASSERT_MSG_EQ(l.upperDevice->GetMtu(),
                                      MrcClosTopologyHelper::kDefaultMtu,
                                      "MTU");
            }
            for (uint32_t p = 0; p < 2; ++p)
            {
                NS_TEST_ASSERT_MSG_EQ(perTierPlane[0][p], 16u, "host links per plane");
                NS_TEST_ASSERT_MSG_EQ(perTierPlane[1][p], 16u, "T0-T1 links per plane");
                NS_TEST_ASSERT_MSG_EQ(perTierPlane[2][p], 16u, "T1-T2 links per plane");
            }
            // Every switch uses exactly k ports; every host has one device per plane.
            NodeContainer sw = topo->GetAllSwitches();
            for (auto it = sw.Begin(); it != sw.End(); ++it)
            {
                NS_TEST_ASSERT_MSG_EQ((*it)->GetNDevices(), 4u + 1u, "k ports + loopback");
            }
            for (uint32_t h = 0; h < topo->GetHostCount(); ++h)
            {
                NS_TEST_ASSERT_MSG_EQ(topo->GetHost(h)->GetNDevices(), 2u + 1u, "P NICs");
                for (uint32_t p = 0; p < 2; ++p)
                {
                    Ptr<Node> t0 = topo->GetSwitch(MrcSwitchTier::T0, p, topo->GetHostT0(h));
                    NS_TEST_ASSERT_MSG_EQ(topo->GetLinksBetween(topo->GetHost(h), t0).size(),
                                          1u,
                                          "host attached to its T0 on each plane");
                    Ptr<Ipv6> ipv6 = topo->GetHost(h)->GetObject<Ipv6>();
                    const uint32_t i = topo->GetHostInterface(h, p);
                    NS_TEST_ASSERT_MSG_EQ(ipv6->GetInterfaceForAddress(topo->GetHostAddress(h, p)),
                                          int32_t(i),
                                          "address plan");
                    NS_TEST_ASSERT_MSG_EQ(ipv6->GetNetDevice(i),
                                          topo->GetHostDevice(h, p),
                                          "interface of the plane's NIC port");
                }
            }
            // Pod wiring: T1 j of a pod connects to T2 group j only.
            for (uint32_t t1 = 0; t1 < 8; ++t1)
            {
                for (const MrcFabricLink& l :
                     topo->GetLinksOf(topo->GetSwitch(MrcSwitchTier::T1, 0, t1)))
                {
                    if (l.tier == MrcLinkTier::T1_T2)
                    {
                        const auto pos = topo->GetSwitchPosition(l.upper);
                        NS_TEST_ASSERT_MSG_EQ(pos->index / 2, t1 % 2, "T2 group of T1");
                    }
                }
            }
            NS_TEST_ASSERT_MSG_EQ(Names::Find<Node>("p1-t2-3"),
                                  topo->GetSwitch(MrcSwitchTier::T2, 1, 3),
                                  "names");
            NS_TEST_ASSERT_MSG_EQ(Names::Find<Node>("host-15"), topo->GetHost(15), "names");
            const std::string err = ErrorOf([] {
                MrcClosTopologyHelper().Build(MrcClosSpec::FatTree(4));
            });
            NS_TEST_ASSERT_MSG_NE(err.find("node name 'host-0' is already taken"),
                                  std::string::npos,
                                  "second fabric with the same names is refused");
            Simulator::Destroy();
            Names::Clear();
        }
        {
            // 2 planes, 4 T0 x 8 hosts, 2 T1, 4 uplinks per T0: 2:1 oversubscribed, 2 parallel.
            MrcClosTopologyHelper helper;
            helper.SetNamePrefix("c-");
            helper.SetLinkRate(MrcLinkTier::T0_T1, DataRate("400Gbps"));
            Ptr<MrcFabricTopology> topo = helper.Build(MrcClosSpec::TwoTier(2, 4, 8, 2, 4));
            NS_TEST_ASSERT_MSG_EQ(topo->GetHostCount(), 32u, "hosts");
            NS_TEST_ASSERT_MSG_EQ(topo->GetSpec().GetTiers(), 2u, "tiers");
            for (uint32_t t0 = 0; t0 < 4; ++t0)
            {
                for (uint32_t t1 = 0; t1 < 2; ++t1)
                {
                    auto links = topo->GetLinksBetween(topo->GetSwitch(MrcSwitchTier::T0, 1, t0),
                                                       topo->GetSwitch(MrcSwitchTier::T1, 1, t1));
                    NS_TEST_ASSERT_MSG_EQ(links.size(), 2u, "parallel uplinks");
                    DataRateValue rate;
                    links[0].lowerDevice->GetAttribute("DataRate", rate);
                    NS_TEST_ASSERT_MSG_EQ(rate.Get(), DataRate("400Gbps"), "per-tier rate");
                }
            }
            NS_TEST_ASSERT_MSG_EQ(Names::Find<Node>("c-p1-t1-1"),
                                  topo->GetSwitch(MrcSwitchTier::T1, 1, 1),
                                  "prefixed names");
            NS_TEST_ASSERT_MSG_EQ(topo->GetSwitches(MrcSwitchTier::T1, 0).Get(0)->GetNDevices(),
                                  4u * 2u + 1u,
                                  "T1 downlinks");
            Simulator::Destroy();
            Names::Clear();
        }
    }
};

/**
 * \ingroup mrc-test
 * Every host pair is reachable on every plane over the installed ECMP tables with the expected
 * number of switch hops, and real packets follow the predicted path.
 */
class FabricReachabilityTestCase : public TestCase
{
  public:
    FabricReachabilityTestCase()
        : TestCase("every host pair reachable with the expected hop count; packets follow it")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(3);
        {
            Ptr<MrcFabricTopology> topo = MrcClosTopologyHelper().Build(MrcClosSpec::FatTree(4, 2));
            MrcEcmpRoutingHelper().Install(*topo);
            const uint32_t n = topo->GetHostCount();
            for (uint32_t p = 0; p < 2; ++p)
            {
                for (uint32_t s = 0; s < n; ++s)
                {
                    for (uint32_t d = 0; d < n; ++d)
                    {
                        if (s == d)
                        {
                            continue;
                        }
                        const uint32_t expected = topo->GetHostT0(s) == topo->GetHostT0(d) ? 1
                                                  : s / 4 == d / 4                         ? 3
                                                                                           : 5;
                        auto path = MrcEcmpRoutingHelper::TracePath(
                            *topo,
                            s,
                            p,
                            MrcEcmpFlowKey(topo->GetHostAddress(s, p),
                                           topo->GetHostAddress(d, p),
                                           17,
                                           1000 + s,
                                           2000 + d,
                                           0));
                        NS_TEST_ASSERT_MSG_EQ(path.size(), expected + 2, "switch hops");
                        NS_TEST_ASSERT_MSG_EQ(path.back(), topo->GetHost(d), "reaches dst");
                        for (uint32_t i = 1; i + 1 < path.size(); ++i)
                        {
                            NS_TEST_ASSERT_MSG_EQ(topo->GetSwitchPosition(path[i])->plane,
                                                  p,
                                                  "stays in its plane");
                        }
                    }
                }
            }
            Simulator::Destroy();
            Names::Clear();
        }
        {
            // Real traffic on a two-plane two-tier Clos: every flow completes, every data packet
            // crosses exactly the switches TracePath predicts.
            Ptr<MrcFabricTopology> topo =
                MrcClosTopologyHelper().Build(MrcClosSpec::TwoTier(2, 4, 4, 2));
            MrcEcmpRoutingHelper().Install(*topo);
            MrcPermutationHelper perm(topo);
            perm.SetBytesPerFlow(40000);
            perm.SetTransport(MrcPermutationTransport::UDP);
            perm.Install();
            std::map<uint32_t, std::set<uint32_t>> seen; // dst host -> forwarding node ids
            NodeContainer sw = topo->GetAllSwitches();
            for (auto it = sw.Begin(); it != sw.End(); ++it)
            {
                const uint32_t id = (*it)->GetId();
                MrcEcmpRoutingHelper::GetRouting(*it)->TraceConnectWithoutContext(
                    "Forward",
                    MakeCallback(&FabricReachabilityTestCase::OnForward, this).Bind(topo, id));
            }
            m_seen = &seen;
            Simulator::Run();
            for (const auto& f : perm.GetFlows())
            {
                NS_TEST_ASSERT_MSG_EQ(f.bytes, 40960u, "UDP: 40000 B round up to 10 packets");
                NS_TEST_ASSERT_MSG_EQ(f.received,
                                      f.bytes,
                                      "all bytes of " << f.src << "->" << f.dst);
                // Predict the path from the key the switches actually saw (its source port is
                // the sender's ephemeral port) and compare switch by switch.
                NS_TEST_ASSERT_MSG_EQ(m_keys.count(f.dst), 1u, "one key per flow");
                auto path =
                    MrcEcmpRoutingHelper::TracePath(*topo, f.src, f.plane, m_keys.at(f.dst));
                std::set<uint32_t> predicted;
                for (uint32_t i = 1; i + 1 < path.size(); ++i)
                {
                    predicted.insert(path[i]->GetId());
                }
                NS_TEST_ASSERT_MSG_EQ((seen[f.dst] == predicted),
                                      true,
                                      "switches crossed by " << f.src << "->" << f.dst);
                NS_TEST_ASSERT_MSG_EQ(f.switchHops, predicted.size(), "recorded hop count");
            }
            Simulator::Destroy();
            Names::Clear();
        }
    }

    /**
     * Forward trace sink.
     * \param topo fabric
     * \param nodeId forwarding switch
     * \param packet packet
     * \param header header
     * \param interface out interface
     * \param hash hash
     */
    void OnForward(Ptr<MrcFabricTopology> topo,
                   uint32_t nodeId,
                   Ptr<const Packet> packet,
                   const Ipv6Header& header,
                   uint32_t interface,
                   uint32_t hash)
    {
        auto dst = topo->FindHostByAddress(header.GetDestination());
        if (dst)
        {
            (*m_seen)[*dst].insert(nodeId);
            m_keys[*dst] = MrcEcmpFlowKey::FromPacket(header, packet);
        }
    }

    std::map<uint32_t, std::set<uint32_t>>* m_seen{nullptr}; //!< dst host -> switches seen
    std::map<uint32_t, MrcEcmpFlowKey> m_keys;               //!< dst host -> flow key seen
};

/**
 * \ingroup mrc-test
 * Impossible parameters fail with a message naming the parameter and its range.
 */
class FabricInvalidParametersTestCase : public TestCase
{
  public:
    FabricInvalidParametersTestCase()
        : TestCase("impossible topology parameters are refused with a clear message")
    {
    }

  private:
    /**
     * \param message the error obtained
     * \param expected a fragment it must contain
     */
    void Expect(const std::string& message, const std::string& expected)
    {
        NS_TEST_EXPECT_MSG_NE(message.find(expected),
                              std::string::npos,
                              "error '" << message << "' should contain '" << expected << "'");
    }

    void DoRun() override
    {
        MrcClosTopologyHelper h;
        Expect(ErrorOf([&] {
                   h.Build(MrcClosSpec::FatTree(5));
               }),
               "k (=5) must be an even number");
        Expect(ErrorOf([&] {
                   h.Build(MrcClosSpec::TwoTier(0, 4, 4, 2));
               }),
               "planes (=0)");
        Expect(ErrorOf([&] {
                   MrcClosSpec s = MrcClosSpec::TwoTier(1, 4, 4, 2);
                   s.radix = 6;
                   h.Build(s);
               }),
               "hostsPerT0 + t0Uplinks (=8) must be <= radix (=6)");
        Expect(ErrorOf([&] {
                   h.Build(MrcClosSpec::TwoTier(1, 4, 4, 3));
               }),
               "t0Uplinks (=4) must be a positive multiple of t1PerPod (=3)");
        Expect(ErrorOf([&] {
                   h.SetMtu(1000);
               }),
               "Mtu (=1000) must be in 1280..65535");
        Expect(ErrorOf([&] {
                   h.SetDeviceQueueSize("lots");
               }),
               "DeviceQueueSize (=\"lots\")");
        Expect(ErrorOf([&] {
                   h.SetLinkRate(MrcLinkTier::HOST_T0, DataRate(0));
               }),
               "link rate must be > 0");
        Expect(ErrorOf([&] {
                   h.SetRanks(0);
               }),
               "SetRanks: ranks (=0) must be >= 1");
        Expect(ErrorOf([&] {
                   MrcClosTopologyHelper r;
                   r.SetRanks(9);
                   r.Build(MrcClosSpec::FatTree(4));
               }),
               "SetRanks: MrcRankPlan: ranks (=9) must be in 1..8");
        NS_TEST_ASSERT_MSG_EQ(NodeList::GetNNodes(), 0u, "nothing was built");
    }
};

/**
 * \ingroup mrc-test
 * SetRanks: every node is created with the system id MrcRankPlan gives it (without MPI the run
 * ignores system ids, so the fabric works as on one rank).
 */
class FabricRanksTestCase : public TestCase
{
  public:
    FabricRanksTestCase()
        : TestCase("SetRanks gives each node its rank's system id")
    {
    }

  private:
    void DoRun() override
    {
        const MrcClosSpec spec = MrcClosSpec::FatTree(4, 2);
        MrcClosTopologyHelper h;
        NS_TEST_ASSERT_MSG_EQ(h.GetRanks(), 1u, "one rank by default");
        h.SetRanks(2);
        Ptr<MrcFabricTopology> topo = h.Build(spec);
        const MrcRankPlan plan(spec, 2);
        uint32_t onRank1 = 0;
        for (uint32_t i = 0; i < topo->GetHostCount(); ++i)
        {
            const uint32_t id = topo->GetHost(i)->GetSystemId();
            NS_TEST_EXPECT_MSG_EQ(id, plan.OfHost(i), "host " << i);
            onRank1 += id;
        }
        NS_TEST_EXPECT_MSG_EQ(onRank1, 8u, "half of the 16 hosts on rank 1");
        for (uint32_t p = 0; p < spec.planes; ++p)
        {
            for (uint32_t t = 0; t < 3; ++t)
            {
                const NodeContainer& c = topo->GetSwitches(MrcSwitchTier(t), p);
                for (uint32_t i = 0; i < c.GetN(); ++i)
                {
                    NS_TEST_EXPECT_MSG_EQ(c.Get(i)->GetSystemId(),
                                          plan.OfSwitch(MrcSwitchTier(t), i),
                                          "plane " << p << " tier " << t << " switch " << i);
                }
            }
        }
        Simulator::Destroy();
        Names::Clear();
    }
};

/**
 * \ingroup mrc-test
 * The topology test suite.
 */
class MrcTopologyTestSuite : public TestSuite
{
  public:
    MrcTopologyTestSuite()
        : TestSuite("mrc-topology", Type::UNIT)
    {
        AddTestCase(new FabricWiringTestCase);
        AddTestCase(new FabricReachabilityTestCase);
        AddTestCase(new FabricInvalidParametersTestCase);
        AddTestCase(new FabricRanksTestCase);
    }
};

/// The suite's single instance.
static MrcTopologyTestSuite g_mrcTopologyTestSuite;
