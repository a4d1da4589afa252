/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The BGP reconvergence model's interfaces: NetDevice carrier callbacks drive it (any device that
 * implements IsLinkUp and AddLinkChangeCallback), and bad input gets an exception naming the
 * field and its accepted range.
 */

#include "mrc-bgp-bench.h"

#include "ns3/boolean.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <functional>
#include <string>

using namespace ns3;
using namespace ns3::bgptest;

/**
 * A NetDevice whose carrier the test sets: stands in for any device that implements
 * IsLinkUp() and AddLinkChangeCallback() (MrcFabricNetDevice does).
 */
class TestCarrierDevice : public PointToPointNetDevice
{
  public:
    bool IsLinkUp() const override
    {
        return m_up;
    }

    void AddLinkChangeCallback(Callback<void> callback) override
    {
        m_callbacks.push_back(callback);
    }

    /// \param up new carrier state; fires the link-change callbacks
    void SetCarrier(bool up)
    {
        m_up = up;
        for (auto& cb : m_callbacks)
        {
            cb();
        }
    }

  private:
    bool m_up{true};                         //!< carrier
    std::vector<Callback<void>> m_callbacks; //!< link-change callbacks
};

/**
 * \ingroup mrc-test
 * Carrier callbacks of the devices drive the model (one end losing carrier fails the link,
 * both up again restores it), and bad input gets an exception naming the field and its range.
 */
class BgpAttachAndErrorsTestCase : public TestCase
{
  public:
    BgpAttachAndErrorsTestCase()
        : TestCase("NetDevice carrier callbacks drive the model; bad input is refused")
    {
    }

  private:
    /**
     * \param f a call
     * \return the message of the std::invalid_argument it throws, or ""
     */
    static std::string Invalid(const std::function<void()>& f)
    {
        try
        {
            f();
        }
        catch (const std::invalid_argument& e)
        {
            return e.what();
        }
        return "";
    }

    /// \param s a message \param part expected part \return whether s contains it
    static bool Has(const std::string& s, const std::string& part)
    {
        return s.find(part) != std::string::npos;
    }

    void DoRun() override
    {
        {
            // The same fabric seen through devices whose carrier the test controls on T0 0 - T1 0.
            Ptr<MrcFabricTopology> built = MrcClosTopologyHelper().Build(MrcClosSpec::FatTree(4));
            MrcEcmpRoutingHelper().Install(*built);
            Ptr<MrcFabricTopology> topo = Create<MrcFabricTopology>(built->GetSpec());
            for (uint32_t h = 0; h < built->GetHostCount(); ++h)
            {
                topo->AddHost(built->GetHost(h));
            }
            for (uint32_t t = 0; t < 3; ++t)
            {
                const NodeContainer& c = built->GetSwitches(MrcSwitchTier(t), 0);
                for (auto it = c.Begin(); it != c.End(); ++it)
                {
                    topo->AddSwitch(MrcSwitchTier(t), 0, *it);
                }
            }
            const MrcFabricLink target =
                built
                    ->GetLinksBetween(built->GetSwitch(MrcSwitchTier::T0, 0, 0),
                                      built->GetSwitch(MrcSwitchTier::T1, 0, 0))
                    .at(0);
            Ptr<TestCarrierDevice> lower = CreateObject<TestCarrierDevice>();
            Ptr<TestCarrierDevice> upper = CreateObject<TestCarrierDevice>();
            for (MrcFabricLink l : built->GetLinks())
            {
                if (l.id == target.id)
                {
                    l.lowerDevice = lower;
                    l.upperDevice = upper;
                }
                topo->AddLink(l);
            }
            Bench b(topo->GetSpec(), MrcBgpReconvergenceHelper(), topo); // attaches by default
            const MrcFabricLink link = topo->GetLinks().at(target.id);
            // First a blackhole nothing detects, then one end loses carrier: detected then.
            MrcFailureDetector silent = MrcFailureDetector::CARRIER;
            Simulator::Schedule(MilliSeconds(5), [&]() {
                silent = b.model->LinkFailed(link, MrcLinkFailureKind::BLACKHOLE);
            });
            Simulator::Schedule(MilliSeconds(10), &TestCarrierDevice::SetCarrier, upper, false);
            Simulator::Schedule(MilliSeconds(15), &TestCarrierDevice::SetCarrier, lower, false);
            Simulator::Schedule(MilliSeconds(50), &TestCarrierDevice::SetCarrier, upper, true);
            Simulator::Schedule(MilliSeconds(60), &TestCarrierDevice::SetCarrier, lower, true);
            bool failedAt55 = false;
            Simulator::Schedule(MilliSeconds(55), [&]() {
                failedAt55 = b.model->IsLinkFailed(link);
            });
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(silent, MrcFailureDetector::NONE, "the blackhole alone: never");
            NS_TEST_ASSERT_MSG_EQ(b.sessions.size(), 2u, "down once, up once");
            NS_TEST_ASSERT_MSG_EQ(b.sessions[0].first, MilliSeconds(12), "carrier lost at one end");
            NS_TEST_ASSERT_MSG_EQ(b.sessions[0].second, false, "down");
            NS_TEST_ASSERT_MSG_EQ(failedAt55, true, "one end still down at 55 ms");
            NS_TEST_ASSERT_MSG_EQ(b.sessions[1].first, MilliSeconds(62), "both ends up at 60 ms");
            NS_TEST_ASSERT_MSG_EQ(
                b.changes[built->GetSwitch(MrcSwitchTier::T0, 0, 0)->GetId()].size(),
                2u,
                "T0 0 reprogrammed twice");
            NS_TEST_ASSERT_MSG_EQ(b.TablesAsOriginal(), true, "restored");
        }
        Bench b(MrcClosSpec::FatTree(4), MrcBgpReconvergenceHelper(), nullptr);
        Ptr<Node> t0 = b.Sw(MrcSwitchTier::T0, 0);
        const MrcFabricLink good = b.Link(t0, b.Sw(MrcSwitchTier::T1, 0));
        std::string e;
        // Attributes: at construction, and at the next call after a change.
        MrcBgpReconvergenceHelper bad;
        bad.SetAttribute("PerHopDelay", TimeValue(MilliSeconds(-1)));
        e = Invalid([&]() {
            bad.Install(b.topo);
        });
        NS_TEST_ASSERT_MSG_EQ(Has(e, "MrcBgpReconvergenceModel: PerHopDelay (=-1ms) must be >= 0"),
                              true,
                              e);
        b.model->SetAttribute("BfdDetectMultiplier", UintegerValue(0));
        e = Invalid([&]() {
            b.model->LinkFailed(good, MrcLinkFailureKind::CARRIER_LOSS);
        });
        NS_TEST_ASSERT_MSG_EQ(Has(e, "BfdDetectMultiplier (=0) must be in 1..255"), true, e);
        NS_TEST_ASSERT_MSG_EQ(b.model->IsLinkFailed(good), false, "nothing done");
        b.model->SetAttribute("BfdDetectMultiplier", UintegerValue(3));
        b.model->SetAttribute("HoldTime", TimeValue(Seconds(1)));
        e = Invalid([&]() {
            b.model->GetTiming();
        });
        NS_TEST_ASSERT_MSG_EQ(Has(e, "HoldTime"), true, e);
        NS_TEST_ASSERT_MSG_EQ(Has(e, "3..65535 s"), true, e);
        b.model->SetAttribute("HoldTime", TimeValue(Seconds(9)));
        // Links and switches.
        const MrcFabricLink host = b.topo->GetLinksOf(b.topo->GetHost(0)).at(0);
        e = Invalid([&]() {
            b.model->LinkFailed(host, MrcLinkFailureKind::CARRIER_LOSS);
        });
        NS_TEST_ASSERT_MSG_EQ(Has(e, "must be a switch-to-switch link of the fabric"), true, e);
        NS_TEST_ASSERT_MSG_EQ(Has(e, "host links carry no BGP session"), true, e);
        MrcFabricLink unknown = good;
        unknown.id = 100000;
        e = Invalid([&]() {
            b.model->LinkRestored(unknown);
        });
        NS_TEST_ASSERT_MSG_EQ(Has(e, "link (id 100000) must be"), true, e);
        MrcFabricLink wrong = good;
        wrong.upper = b.Sw(MrcSwitchTier::T1, 1); // an id that names another link
        e = Invalid([&]() {
            b.model->LinkFailed(wrong, MrcLinkFailureKind::BLACKHOLE);
        });
        NS_TEST_ASSERT_MSG_EQ(Has(e, "must be a switch-to-switch link"), true, e);
        e = Invalid([&]() {
            b.model->SwitchFailed(b.topo->GetHost(0), MrcLinkFailureKind::CARRIER_LOSS);
        });
        NS_TEST_ASSERT_MSG_EQ(Has(e, "must be a switch of the fabric"), true, e);
        e = Invalid([&]() {
            b.model->GetRibNextHops(t0, 8);
        });
        NS_TEST_ASSERT_MSG_EQ(Has(e, "t0 (=8) must be in 0..7"), true, e);
        NS_TEST_ASSERT_MSG_EQ((b.model->GetRibNextHops(t0, 1) == b.Original(t0, 1)), true, "RIB");
        NS_TEST_ASSERT_MSG_EQ(b.model->GetAsn(b.Sw(MrcSwitchTier::T1, 2)),
                              b.model->GetAsn(b.Sw(MrcSwitchTier::T1, 3)),
                              "the T1s of a pod share an ASN");
        NS_TEST_ASSERT_MSG_NE(b.model->GetAsn(b.Sw(MrcSwitchTier::T1, 1)),
                              b.model->GetAsn(b.Sw(MrcSwitchTier::T1, 2)),
                              "pods differ");
        bool logic = false;
        try
        {
            b.model->Install(b.topo);
        }
        catch (const std::logic_error&)
        {
            logic = true;
        }
        NS_TEST_ASSERT_MSG_EQ(logic, true, "installed twice");
        // Tables that are not BGP's steady state, or no ECMP data plane at all.
        MrcEcmpRoutingHelper::GetRouting(t0)->AddRoute(MrcFabricAddressPlan::T0Prefix(0, 5),
                                                       48,
                                                       {1});
        e = Invalid([&]() {
            MrcBgpReconvergenceHelper().Install(b.topo);
        });
        NS_TEST_ASSERT_MSG_EQ(
            Has(e, "p0-t0-0 routes fd00:0:5::/48 over 3 next hops where BGP uses 2"),
            true,
            e);
        {
            MrcClosTopologyHelper helper;
            helper.SetNamePrefix("srv6-");
            Ptr<MrcFabricTopology> srv6 = helper.Build(MrcClosSpec::TwoTier(1, 2, 2, 2));
            MrcDataPlaneHelper dp;
            dp.Install(srv6);
            e = Invalid([&]() {
                MrcBgpReconvergenceHelper().Install(srv6);
            });
        }
        NS_TEST_ASSERT_MSG_EQ(Has(e, "has no MrcIpv6EcmpRouting"), true, e);
    }
};

/**
 * \ingroup mrc-test
 * The MrcFailureHelper's faults reach the model through the FabricNetDevices alone (no call to
 * LinkFailed): a link down is seen by the carrier after CarrierDetectionDelay and comes back
 * after the carrier's restore delay; a link black hole and a switch black hole are seen only by
 * BFD, after its detection time, on exactly the blackholed sessions; without BFD a black hole
 * changes nothing in routing.
 */
class BgpFollowsFailureHelperTestCase : public TestCase
{
  public:
    BgpFollowsFailureHelperTestCase()
        : TestCase("MrcFailureHelper link down, link and switch black holes drive the model")
    {
    }

  private:
    void DoRun() override
    {
        for (bool bfd : {true, false})
        {
            MrcBgpReconvergenceHelper bgp;
            bgp.SetAttribute("BfdEnabled", BooleanValue(bfd));
            bgp.SetAttribute("BfdInterval", TimeValue(MilliSeconds(50)));
            Bench b(MrcClosSpec::FatTree(4), bgp, nullptr);
            const MrcBgpConvergenceTiming t = b.model->GetTiming();
            Ptr<MrcFailureHelper> failures = CreateObject<MrcFailureHelper>(b.topo);
            const MrcFabricLink down =
                b.Link(b.Sw(MrcSwitchTier::T0, 0), b.Sw(MrcSwitchTier::T1, 0));
            const MrcFabricLink hole =
                b.Link(b.Sw(MrcSwitchTier::T0, 1), b.Sw(MrcSwitchTier::T1, 1));
            failures->LinkDown(MilliSeconds(10), down.id, MilliSeconds(100));
            failures->Blackhole(MilliSeconds(300),
                                hole.id,
                                MrcLinkDirection::UP,
                                MilliSeconds(200));
            failures->SwitchBlackhole(Seconds(1), b.Sw(MrcSwitchTier::T1, 2));
            bool holeFailed = false;
            Simulator::Schedule(MilliSeconds(400), [&]() {
                holeFailed = b.model->IsLinkFailed(hole);
            });
            Simulator::Stop(Seconds(2));
            Simulator::Run();

            const Time carrierDown = MilliSeconds(10) + t.carrierDetectionDelay;
            const Time carrierUp =
                MilliSeconds(110) + t.GetRestoreDelay(MrcFailureDetector::CARRIER);
            const std::string tag = bfd ? " (BFD)" : " (no BFD)";
            NS_TEST_ASSERT_MSG_EQ(holeFailed, true, "the black hole fails the link" + tag);
            NS_TEST_ASSERT_MSG_EQ(b.sessions.size(), (bfd ? 8u : 2u), "session changes" + tag);
            NS_TEST_ASSERT_MSG_EQ(b.sessions[0].first, carrierDown, "carrier loss seen" + tag);
            NS_TEST_ASSERT_MSG_EQ(b.sessions[0].second, false, "down");
            NS_TEST_ASSERT_MSG_EQ(b.sessions[1].first, carrierUp, "carrier back" + tag);
            NS_TEST_ASSERT_MSG_EQ(b.sessions[1].second, true, "up");
            if (bfd)
            {
                const Time bfdTime = t.GetBfdDetectionTime();
                NS_TEST_ASSERT_MSG_EQ(b.sessions[2].first,
                                      MilliSeconds(300) + bfdTime,
                                      "BFD sees the link black hole");
                NS_TEST_ASSERT_MSG_EQ(b.sessions[2].second, false, "down");
                NS_TEST_ASSERT_MSG_EQ(b.sessions[3].first,
                                      MilliSeconds(500)
                                          + t.GetRestoreDelay(MrcFailureDetector::BFD),
                                      "up after the black hole ends");
                NS_TEST_ASSERT_MSG_EQ(b.sessions[3].second, true, "up");
                for (uint32_t i = 4; i < 8; ++i)
                {
                    NS_TEST_ASSERT_MSG_EQ(b.sessions[i].first,
                                          Seconds(1) + bfdTime,
                                          "BFD sees each of the switch's 4 sessions");
                    NS_TEST_ASSERT_MSG_EQ(b.sessions[i].second, false, "down");
                }
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(b.model->IsSessionUp(hole), true, "black hole unseen");
                NS_TEST_ASSERT_MSG_EQ(b.model->IsConverged(), true, "nothing pending");
            }
        }
    }
};

/**
 * \ingroup mrc-test
 * Two planes of a two-tier Clos with two parallel links from each T0 to each T1 (4 T0s, 2 T1s
 * per plane): the BGP steady state is the installed ECMP tables, every parallel link is its own
 * session, and losing one of two parallel links changes only the two switches at its ends in
 * that plane (T1 0's path to T0 0 is unchanged, so it sends nothing).
 */
class BgpParallelLinksTestCase : public TestCase
{
  public:
    BgpParallelLinksTestCase()
        : TestCase("two planes, parallel links: sessions per link, changes stay local")
    {
    }

  private:
    void DoRun() override
    {
        Bench b(MrcClosSpec::TwoTier(2, 4, 4, 2, 4), MrcBgpReconvergenceHelper(), nullptr);
        Ptr<Node> t0 = b.topo->GetSwitch(MrcSwitchTier::T0, 1, 0);
        Ptr<Node> t1 = b.topo->GetSwitch(MrcSwitchTier::T1, 1, 0);
        const auto parallel = b.topo->GetLinksBetween(t0, t1);
        NS_TEST_ASSERT_MSG_EQ(parallel.size(), 2u, "two parallel links");
        NS_TEST_ASSERT_MSG_EQ(b.model->GetRibNextHops(t0, 2).size(), 4u, "4 uplinks used");
        Simulator::Schedule(MilliSeconds(10),
                            &MrcBgpReconvergenceModel::LinkFailed,
                            b.model,
                            parallel[1],
                            MrcLinkFailureKind::CARRIER_LOSS);
        Simulator::Run();
        Expected want;
        want[t0->GetId()] = {{MicroSeconds(12000 + 3 * 1300), 3}};
        want[t1->GetId()] = {{MicroSeconds(12000 + 1300), 1}};
        std::string why;
        NS_TEST_ASSERT_MSG_EQ(SameChanges(b, want, why), true, why);
        auto route = [&](Ptr<Node> n, uint32_t plane, uint32_t d) {
            return MrcEcmpRoutingHelper::GetRouting(n)
                ->GetTable()
                .GetRoute(MrcFabricAddressPlan::T0Prefix(plane, d), 48)
                ->active;
        };
        NS_TEST_ASSERT_MSG_EQ(route(t1, 1, 0).size(), 1u, "T1 0 keeps the other parallel link");
        NS_TEST_ASSERT_MSG_EQ(route(t1, 1, 0)[0], parallel[0].upperInterface, "that one");
        NS_TEST_ASSERT_MSG_EQ(route(t0, 1, 3).size(), 3u, "T0 0 has 3 uplinks left");
        Ptr<Node> other = b.topo->GetSwitch(MrcSwitchTier::T0, 0, 0);
        NS_TEST_ASSERT_MSG_EQ(route(other, 0, 3).size(), 4u, "plane 0 untouched");
    }
};

/**
 * \ingroup mrc-test
 * The BGP reconvergence model's interface test suite.
 */
class MrcBgpApiTestSuite : public TestSuite
{
  public:
    MrcBgpApiTestSuite()
        : TestSuite("mrc-bgp-api", Type::UNIT)
    {
        AddTestCase(new BgpAttachAndErrorsTestCase);
        AddTestCase(new BgpParallelLinksTestCase);
        AddTestCase(new BgpFollowsFailureHelperTestCase);
    }
};

/// The suite's single instance.
static MrcBgpApiTestSuite g_mrcBgpApiTestSuite;
