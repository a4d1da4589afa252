/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * BGP reconvergence on the ECMP data plane of a k=4 fat-tree: every switch drops the dead next
 * hop at exactly detection + hops x per-hop + FIB time and not before; UDP traffic hashed onto
 * the dead link is lost exactly until the flow's first switch converged, then nothing is lost;
 * the repair brings the original groups back with the modelled delays; a blackhole is never
 * detected without BFD (or the hold timer) and is after the BFD time with it; FIB time grows
 * with the routes as configured; overlapping failures compose and queue their FIB batches.
 * (mrc-bgp-api: carrier callbacks and bad input.)
 *
 * Fat-tree k=4, plane 0: T0 0..7 (pod = index / 2), T1 0..7 (pod = index / 2, T1 j of a pod
 * connects to T2 2j and 2j+1), T2 0..3. The failed link is T0 0 - T1 0 unless said otherwise.
 */

#include "mrc-bgp-bench.h"

#include "ns3/boolean.h"
#include "ns3/test.h"

#include <functional>
#include <string>

using namespace ns3;
using namespace ns3::bgptest;

/**
 * \ingroup mrc-test
 * A carrier loss on T0 0 - T1 0 at 20 ms, repaired at 70 ms; PerHopDelay 5 ms, FibBaseTime
 * 10 ms, other attributes default (carrier 2 ms, 1.3 ms per route). Hops from the failure:
 * T0 0 and T1 0 detect it; T0 1 and T2 0/1 hear T1 0's withdrawal (1 hop); T1 2/4/6 hear the
 * T2s' (2 hops); the T0s of pods 1-3 hear their T1's (3 hops).
 */
class BgpLinkFailureTestCase : public TestCase
{
  public:
    BgpLinkFailureTestCase()
        : TestCase("link failure: exact per-switch FIB times and route sets, loss window, repair")
    {
    }

  private:
    void DoRun() override
    {
        MrcBgpReconvergenceHelper bgp;
        bgp.SetAttribute("PerHopDelay", TimeValue(MilliSeconds(5)));
        bgp.SetAttribute("FibBaseTime", TimeValue(MilliSeconds(10)));
        Bench b(MrcClosSpec::FatTree(4), bgp, nullptr);
        auto t0 = [&](uint32_t i) {
            return b.Sw(MrcSwitchTier::T0, i);
        };
        auto t1 = [&](uint32_t i) {
            return b.Sw(MrcSwitchTier::T1, i);
        };
        auto t2 = [&](uint32_t i) {
            return b.Sw(MrcSwitchTier::T2, i);
        };
        const MrcFabricLink link = b.Link(t0(0), t1(0));
        const Time fail = MilliSeconds(20);
        const Time repair = MilliSeconds(70);
        b.StartTraffic(MilliSeconds(1),
                       MilliSeconds(110),
                       MilliSeconds(1),
                       MicroSeconds(550),
                       link,
                       fail);
        Simulator::Schedule(fail, &Bench::Blackhole, &b, link, true);
        Simulator::Schedule(fail,
                            &MrcBgpReconvergenceModel::LinkFailed,
                            b.model,
                            link,
                            MrcLinkFailureKind::CARRIER_LOSS);
        Simulator::Schedule(repair, &Bench::Blackhole, &b, link, false);
        Simulator::Schedule(repair, &MrcBgpReconvergenceModel::LinkRestored, b.model, link);

        // Hand-computed: detection 2 ms, 5 ms per hop, FIB 10 ms + 1.3 ms per route.
        auto f = [&](int64_t us) {
            return fail + MicroSeconds(us);
        };
        auto r = [&](int64_t us) {
            return repair + MicroSeconds(us);
        };
        Expected want;
        want[t0(0)->GetId()] = {{f(2000 + 19100), 7}, {r(7000 + 19100), 7}};
        want[t1(0)->GetId()] = {{f(2000 + 11300), 1}, {r(7000 + 11300), 1}};
        for (Ptr<Node> n : {t0(1), t2(0), t2(1)})
        {
            want[n->GetId()] = {{f(7000 + 11300), 1}, {r(12000 + 11300), 1}};
        }
        for (uint32_t q = 1; q < 4; ++q)
        {
            want[t1(2 * q)->GetId()] = {{f(12000 + 11300), 1}, {r(17000 + 11300), 1}};
            for (uint32_t i = 2 * q; i < 2 * q + 2; ++i)
            {
                want[t0(i)->GetId()] = {{f(17000 + 11300), 1}, {r(22000 + 11300), 1}};
            }
        }
        // The route state after the failure converged, per (switch, T0).
        auto failed = [&](Ptr<Node> n, uint32_t d) -> std::vector<uint32_t> {
            if (n == t0(0) && d != 0)
            {
                return b.Without(n, d, {b.If(n, t1(0))});
            }
            if (d != 0)
            {
                return b.Original(n, d);
            }
            if (n == t1(0) || n == t2(0) || n == t2(1) || n == t1(2) || n == t1(4) || n == t1(6))
            {
                return {};
            }
            if (n == t0(1))
            {
                return b.Without(n, d, {b.If(n, t1(0))});
            }
            const uint32_t i = b.topo->GetSwitchPosition(n)->index;
            if (b.topo->GetSwitchPosition(n)->tier == MrcSwitchTier::T0 && i >= 2)
            {
                return b.Without(n, d, {b.If(n, t1(i / 2 * 2))});
            }
            return b.Original(n, d);
        };
        // Each switch keeps the dead next hop until exactly its FIB time, then drops it.
        std::vector<std::string> early;
        std::vector<std::string> late;
        for (const auto& [id, batches] : want)
        {
            Ptr<Node> n = NodeList::GetNode(id);
            const Time at = batches[0].at;
            Simulator::Schedule(at - NanoSeconds(1), [&, n]() {
                for (uint32_t d = 0; d < 8; ++d)
                {
                    if (b.Active(n, d) != b.Original(n, d))
                    {
                        early.push_back(Names::FindName(n));
                    }
                }
            });
            Simulator::Schedule(at + NanoSeconds(1), [&, n]() {
                for (uint32_t d = 0; d < 8; ++d)
                {
                    if (b.Active(n, d) != failed(n, d))
                    {
                        late.push_back(Names::FindName(n));
                    }
                }
            });
        }
        std::string why;
        bool convergedFailure = false;
        Simulator::Schedule(MilliSeconds(60), [&]() {
            convergedFailure = SameRoutes(b, failed, why) && b.model->IsConverged();
        });
        Simulator::Stop(MilliSeconds(150));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(SameChanges(b, want, why), true, why);
        NS_TEST_ASSERT_MSG_EQ(early.size(), 0u, "changed before its time: " << early.size());
        NS_TEST_ASSERT_MSG_EQ(late.size(), 0u, "not changed at its time: " << late.size());
        NS_TEST_ASSERT_MSG_EQ(convergedFailure, true, "route sets after the failure: " << why);
        NS_TEST_ASSERT_MSG_EQ(b.TablesAsOriginal(), true, "the repair restores every group");
        NS_TEST_ASSERT_MSG_EQ(b.model->IsConverged(), true, "nothing pending");
        NS_TEST_ASSERT_MSG_EQ(b.model->GetLastConvergenceTime(), r(22000 + 11300), "last FIB");
        // Sessions: down 2 ms after the failure, up 2 ms after the repair.
        NS_TEST_ASSERT_MSG_EQ(b.sessions.size(), 2u, "one session down, then up");
        NS_TEST_ASSERT_MSG_EQ(b.sessions[0].first, f(2000), "detected after the carrier delay");
        NS_TEST_ASSERT_MSG_EQ(b.sessions[1].first, r(2000), "up after the carrier delay");
        // Start and end traces of a 3-hop switch bracket its single batch.
        const uint32_t far = t0(7)->GetId();
        NS_TEST_ASSERT_MSG_EQ(b.starts[far].size(), 2u, "two convergences");
        NS_TEST_ASSERT_MSG_EQ(b.starts[far][0], f(17000), "withdrawal received after 3 hops");
        NS_TEST_ASSERT_MSG_EQ(b.ends[far][0], f(28300), "FIB programmed");
        NS_TEST_ASSERT_MSG_EQ(b.starts[far][1], r(22000), "advertisement after 4 hops");

        // Traffic: a crossing flow loses exactly the packets sent from the failure until its
        // first switch (its source T0) converged; nothing else is lost.
        auto until = [&](const Flow& fl) {
            const uint32_t src = b.topo->GetHostT0(fl.src);
            return src == 0 ? f(21100) : src == 1 ? f(18300) : f(28300);
        };
        uint32_t crossing = 0;
        uint64_t lost = 0;
        const uint32_t bad = LossMismatches(b, fail, until, crossing, lost);
        NS_TEST_ASSERT_MSG_EQ(bad, 0u, "packets lost or delivered against the model");
        std::set<uint32_t> classes;
        for (const Flow& fl : b.flows)
        {
            if (fl.crosses)
            {
                const uint32_t src = b.topo->GetHostT0(fl.src);
                classes.insert(src < 2 ? src : 2);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(classes.size(), 3u, "crossing flows from T0 0, T0 1 and far pods");
        NS_TEST_ASSERT_MSG_GT(lost, 100u, "the window loses traffic");
        NS_TEST_ASSERT_MSG_EQ(lost,
                              b.model->GetBlackholedPackets() + NoRouteDrops(b),
                              "every loss is counted: onto the dead link or for lack of a route");
        NS_TEST_ASSERT_MSG_GT(b.model->GetBlackholedPackets(link), 0u, "per-link count");
    }
};

/**
 * \ingroup mrc-test
 * A blackhole (no carrier loss) on T0 0 - T1 0 at 20 ms: without BFD or hold-timer detection
 * nothing ever notices (tables unchanged, crossing flows lose everything for 1 s); with BFD at
 * 3 x 50 ms the session goes down at exactly 170 ms and the fabric converges from there; with
 * hold-timer detection (3 s) at exactly 3.02 s. Default timing otherwise.
 */
class BgpBlackholeTestCase : public TestCase
{
  public:
    BgpBlackholeTestCase()
        : TestCase("a blackhole is detected only by BFD (after its detection time) or the hold "
                   "timer")
    {
    }

  private:
    void DoRun() override
    {
        const Time fail = MilliSeconds(20);
        auto f = [&](int64_t us) {
            return fail + MicroSeconds(us);
        };
        {
            Bench b(MrcClosSpec::FatTree(4), MrcBgpReconvergenceHelper(), nullptr);
            const MrcFabricLink link =
                b.Link(b.Sw(MrcSwitchTier::T0, 0), b.Sw(MrcSwitchTier::T1, 0));
            b.StartTraffic(MilliSeconds(1),
                           Seconds(1),
                           MilliSeconds(10),
                           MicroSeconds(5550),
                           link,
                           fail);
            MrcFailureDetector detector = MrcFailureDetector::CARRIER;
            Simulator::Schedule(fail, [&]() {
                b.Blackhole(link, true);
                detector = b.model->LinkFailed(link, MrcLinkFailureKind::BLACKHOLE);
            });
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(detector, MrcFailureDetector::NONE, "nothing can detect it");
            NS_TEST_ASSERT_MSG_EQ(b.sessions.size(), 0u, "the session stays up");
            NS_TEST_ASSERT_MSG_EQ(b.changes.size(), 0u, "no FIB change anywhere");
            NS_TEST_ASSERT_MSG_EQ(b.TablesAsOriginal(), true, "tables unchanged after 1 s");
            NS_TEST_ASSERT_MSG_EQ(b.model->IsLinkFailed(link), true, "failed");
            NS_TEST_ASSERT_MSG_EQ(b.model->IsSessionUp(link), true, "session up");
            uint32_t crossing = 0;
            uint64_t lost = 0;
            auto forever = [](const Flow&) {
                return Time::Max();
            };
            NS_TEST_ASSERT_MSG_EQ(LossMismatches(b, fail, forever, crossing, lost),
                                  0u,
                                  "crossing flows lose every packet, the others none");
            NS_TEST_ASSERT_MSG_GT(crossing, 0u, "some flows cross");
            NS_TEST_ASSERT_MSG_EQ(lost, b.model->GetBlackholedPackets(), "all onto the link");
        }
        {
            MrcBgpReconvergenceHelper bgp;
            bgp.SetAttribute("BfdEnabled", BooleanValue(true));
            bgp.SetAttribute("BfdInterval", TimeValue(MilliSeconds(50)));
            Bench b(MrcClosSpec::FatTree(4), bgp, nullptr);
            const MrcFabricLink link =
                b.Link(b.Sw(MrcSwitchTier::T0, 0), b.Sw(MrcSwitchTier::T1, 0));
            b.StartTraffic(MilliSeconds(1),
                           MilliSeconds(300),
                           MilliSeconds(10),
                           MicroSeconds(5550),
                           link,
                           fail);
            MrcFailureDetector detector = MrcFailureDetector::NONE;
            Simulator::Schedule(fail, [&]() {
                b.Blackhole(link, true);
                detector = b.model->LinkFailed(link, MrcLinkFailureKind::BLACKHOLE);
            });
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(detector, MrcFailureDetector::BFD, "BFD detects it");
            NS_TEST_ASSERT_MSG_EQ(b.sessions.size(), 1u, "session down once");
            NS_TEST_ASSERT_MSG_EQ(b.sessions[0].first, f(150000), "after 3 x 50 ms");
            // 1 ms per hop, 1.3 ms per route, no base.
            Expected want;
            want[b.Sw(MrcSwitchTier::T0, 0)->GetId()] = {{f(150000 + 9100), 7}};
            want[b.Sw(MrcSwitchTier::T1, 0)->GetId()] = {{f(150000 + 1300), 1}};
            for (Ptr<Node> n : {b.Sw(MrcSwitchTier::T0, 1),
                                b.Sw(MrcSwitchTier::T2, 0),
                                b.Sw(MrcSwitchTier::T2, 1)})
            {
                want[n->GetId()] = {{f(151000 + 1300), 1}};
            }
            for (uint32_t q = 1; q < 4; ++q)
            {
                want[b.Sw(MrcSwitchTier::T1, 2 * q)->GetId()] = {{f(152000 + 1300), 1}};
                want[b.Sw(MrcSwitchTier::T0, 2 * q)->GetId()] = {{f(153000 + 1300), 1}};
                want[b.Sw(MrcSwitchTier::T0, 2 * q + 1)->GetId()] = {{f(153000 + 1300), 1}};
            }
            std::string why;
            NS_TEST_ASSERT_MSG_EQ(SameChanges(b, want, why), true, why);
            auto until = [&](const Flow& fl) {
                const uint32_t src = b.topo->GetHostT0(fl.src);
                return src == 0 ? f(159100) : src == 1 ? f(152300) : f(154300);
            };
            uint32_t crossing = 0;
            uint64_t lost = 0;
            NS_TEST_ASSERT_MSG_EQ(LossMismatches(b, fail, until, crossing, lost),
                                  0u,
                                  "lost exactly until the source T0 converged");
            NS_TEST_ASSERT_MSG_EQ(lost,
                                  b.model->GetBlackholedPackets() + NoRouteDrops(b),
                                  "counted");
        }
        {
            MrcBgpReconvergenceHelper bgp;
            bgp.SetAttribute("HoldTimerDetection", BooleanValue(true));
            bgp.SetAttribute("HoldTime", TimeValue(Seconds(3)));
            Bench b(MrcClosSpec::FatTree(4), bgp, nullptr);
            const MrcFabricLink link =
                b.Link(b.Sw(MrcSwitchTier::T0, 0), b.Sw(MrcSwitchTier::T1, 0));
            MrcFailureDetector detector = MrcFailureDetector::NONE;
            Simulator::Schedule(fail, [&]() {
                detector = b.model->LinkFailed(link, MrcLinkFailureKind::BLACKHOLE);
            });
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(detector, MrcFailureDetector::HOLD_TIMER, "hold timer");
            NS_TEST_ASSERT_MSG_EQ(b.sessions.size(), 1u, "session down once");
            NS_TEST_ASSERT_MSG_EQ(b.sessions[0].first, fail + Seconds(3), "after the hold time");
            const auto& c = b.changes[b.Sw(MrcSwitchTier::T0, 0)->GetId()];
            NS_TEST_ASSERT_MSG_EQ(c.size(), 1u, "one batch");
            NS_TEST_ASSERT_MSG_EQ(c[0].at, fail + Seconds(3) + MicroSeconds(9100), "7 routes");
        }
    }
};

/**
 * \ingroup mrc-test
 * FIB time grows with the routes a switch changes, as configured: T1 0 fails (power loss,
 * carrier lost on its 4 links) at 10 ms with FibBaseTime 10 ms and FibPerRouteTime 1.3 ms, then
 * 5 ms with an MRAI of 30 ms; every switch's convergence lasts exactly base + n x per-route for
 * its n changed routes (T1 0 itself 8, the pod's T0s 7, everything else 2), hops cost
 * PerHopDelay + Mrai; the repair restores every table. On a k=8 fat-tree a T0 changes 31 routes.
 */
class BgpFibScalingTestCase : public TestCase
{
  public:
    BgpFibScalingTestCase()
        : TestCase("FIB time = base + per-route x changed routes; MRAI per hop; switch failure")
    {
    }

  private:
    void DoRun() override
    {
        for (int64_t perRoute : {1300, 5000})
        {
            const Time mrai = perRoute == 1300 ? Time(0) : MilliSeconds(30);
            MrcBgpReconvergenceHelper bgp;
            bgp.SetAttribute("FibBaseTime", TimeValue(MilliSeconds(10)));
            bgp.SetAttribute("FibPerRouteTime", TimeValue(MicroSeconds(perRoute)));
            bgp.SetAttribute("Mrai", TimeValue(mrai));
            Bench b(MrcClosSpec::FatTree(4), bgp, nullptr);
            const Time fail = MilliSeconds(10);
            Ptr<Node> dead = b.Sw(MrcSwitchTier::T1, 0);
            Simulator::Schedule(fail,
                                &MrcBgpReconvergenceModel::SwitchFailed,
                                b.model,
                                dead,
                                MrcLinkFailureKind::CARRIER_LOSS);
            Simulator::Schedule(Seconds(1),
                                &MrcBgpReconvergenceModel::SwitchRestored,
                                b.model,
                                dead);
            Simulator::Run();
            const Time hop = MilliSeconds(1) + mrai;
            auto fib = [&](uint32_t n) {
                return MilliSeconds(10) + MicroSeconds(perRoute) * int64_t(n);
            };
            // (switch, hops from the failure, routes changed)
            std::vector<std::tuple<Ptr<Node>, uint32_t, uint32_t>> expect = {
                {dead, 0, 8},
                {b.Sw(MrcSwitchTier::T0, 0), 0, 7},
                {b.Sw(MrcSwitchTier::T0, 1), 0, 7},
                {b.Sw(MrcSwitchTier::T2, 0), 0, 2},
                {b.Sw(MrcSwitchTier::T2, 1), 0, 2}};
            for (uint32_t q = 1; q < 4; ++q)
            {
                expect.emplace_back(b.Sw(MrcSwitchTier::T1, 2 * q), 1, 2);
                expect.emplace_back(b.Sw(MrcSwitchTier::T0, 2 * q), 2, 2);
                expect.emplace_back(b.Sw(MrcSwitchTier::T0, 2 * q + 1), 2, 2);
            }
            Expected want;
            for (const auto& [n, hops, routes] : expect)
            {
                const uint32_t id = n->GetId();
                const Time start = fail + MilliSeconds(2) + hop * int64_t(hops);
                NS_TEST_ASSERT_MSG_EQ(b.starts[id].size(), 2u, Names::FindName(n) << " twice");
                NS_TEST_ASSERT_MSG_EQ(b.starts[id][0], start, Names::FindName(n) << " start");
                NS_TEST_ASSERT_MSG_EQ(b.ends[id][0] - b.starts[id][0],
                                      fib(routes),
                                      Names::FindName(n) << " programs " << routes << " routes");
                NS_TEST_ASSERT_MSG_EQ(b.changes[id][0].routes, routes, Names::FindName(n));
                want[id] = {b.changes[id][0], b.changes[id][1]}; // the repair is checked below
            }
            std::string why;
            NS_TEST_ASSERT_MSG_EQ(SameChanges(b, want, why), true, "no other switch: " << why);
            NS_TEST_ASSERT_MSG_EQ(b.TablesAsOriginal(), true, "restored");
            NS_TEST_ASSERT_MSG_EQ(b.model->IsConverged(), true, "nothing pending");
        }
        {
            Bench b(MrcClosSpec::FatTree(8), MrcBgpReconvergenceHelper(), nullptr);
            const MrcFabricLink link =
                b.Link(b.Sw(MrcSwitchTier::T0, 0), b.Sw(MrcSwitchTier::T1, 0));
            Simulator::Schedule(MilliSeconds(10),
                                &MrcBgpReconvergenceModel::LinkFailed,
                                b.model,
                                link,
                                MrcLinkFailureKind::CARRIER_LOSS);
            Simulator::Run();
            const auto& c = b.changes[b.Sw(MrcSwitchTier::T0, 0)->GetId()];
            NS_TEST_ASSERT_MSG_EQ(c.size(), 1u, "one batch");
            NS_TEST_ASSERT_MSG_EQ(c[0].routes, 31u, "every other T0 of the fabric");
            NS_TEST_ASSERT_MSG_EQ(c[0].at, MilliSeconds(12) + MicroSeconds(1300 * 31), "31 routes");
        }
    }
};

/**
 * \ingroup mrc-test
 * Overlapping failures compose. T0 0 loses its uplink to T1 0 at 20 ms, then its uplink to
 * T1 1 at 25 ms, before its first FIB batch is done: the second batch waits for the first
 * (FIFO). T0 0 is then cut off: no switch keeps a route to it, it keeps none. Repairing only
 * T0 0 - T1 0 at 200 ms brings back exactly the routes that BGP's loop prevention allows:
 * via T1 0, its T2s and the T1s above them; T1 1, T2 2/3 and T1 1/3/5/7 stay without a route.
 * A link repaired before its failure is detected changes nothing.
 */
class BgpOverlapTestCase : public TestCase
{
  public:
    BgpOverlapTestCase()
        : TestCase("overlapping failures compose; FIB batches queue; a short flap goes unnoticed")
    {
    }

  private:
    void DoRun() override
    {
        MrcBgpReconvergenceHelper bgp;
        bgp.SetAttribute("PerHopDelay", TimeValue(MilliSeconds(5)));
        bgp.SetAttribute("FibBaseTime", TimeValue(MilliSeconds(10)));
        Bench b(MrcClosSpec::FatTree(4), bgp, nullptr);
        auto t0 = [&](uint32_t i) {
            return b.Sw(MrcSwitchTier::T0, i);
        };
        auto t1 = [&](uint32_t i) {
            return b.Sw(MrcSwitchTier::T1, i);
        };
        auto t2 = [&](uint32_t i) {
            return b.Sw(MrcSwitchTier::T2, i);
        };
        const MrcFabricLink a = b.Link(t0(0), t1(0));
        const MrcFabricLink c = b.Link(t0(0), t1(1));
        const MrcFabricLink flap = b.Link(t0(4), t1(5));
        auto fail = [&](const MrcFabricLink& l) {
            b.model->LinkFailed(l, MrcLinkFailureKind::CARRIER_LOSS);
        };
        Simulator::Schedule(MilliSeconds(20), [&]() {
            fail(a);
        });
        Simulator::Schedule(MilliSeconds(25), [&]() {
            fail(c);
        });
        Simulator::Schedule(MilliSeconds(100), [&]() {
            fail(flap);
        });
        Simulator::Schedule(MilliSeconds(101),
                            &MrcBgpReconvergenceModel::LinkRestored,
                            b.model,
                            flap);
        std::string why;
        bool cutOff = false;
        Simulator::Schedule(MilliSeconds(150), [&]() {
            cutOff = SameRoutes(
                b,
                [&](Ptr<Node> n, uint32_t d) {
                    return n == t0(0) || d == 0 ? std::vector<uint32_t>{} : b.Original(n, d);
                },
                why);
        });
        Simulator::Schedule(MilliSeconds(200), &MrcBgpReconvergenceModel::LinkRestored, b.model, a);
        Simulator::Run();
        const auto& c0 = b.changes[t0(0)->GetId()];
        NS_TEST_ASSERT_MSG_GT_OR_EQ(c0.size(), 2u, "two batches at T0 0");
        NS_TEST_ASSERT_MSG_EQ(c0[0].at, MicroSeconds(22000 + 19100), "first: 7 routes");
        NS_TEST_ASSERT_MSG_EQ(c0[1].at, MicroSeconds(41100 + 19100), "second waits for the first");
        NS_TEST_ASSERT_MSG_EQ(c0[1].routes, 7u, "every route loses its last next hop");
        NS_TEST_ASSERT_MSG_EQ(cutOff, true, "T0 0 cut off: " << why);
        NS_TEST_ASSERT_MSG_EQ(b.sessions.size(), 3u, "the flap never took its session down");
        auto after = [&](Ptr<Node> n, uint32_t d) -> std::vector<uint32_t> {
            if (n == t0(0))
            {
                return d == 0 ? std::vector<uint32_t>{} : std::vector<uint32_t>{b.If(n, t1(0))};
            }
            if (d != 0)
            {
                return b.Original(n, d);
            }
            const auto pos = *b.topo->GetSwitchPosition(n);
            switch (pos.tier)
            {
                case MrcSwitchTier::T0:
                    return {b.If(n, t1(pos.index / 2 * 2))};
                case MrcSwitchTier::T1:
                    return pos.index % 2 == 0 ? b.Original(n, d) : std::vector<uint32_t>{};
                default:
                    return n == t2(0) || n == t2(1) ? b.Original(n, d) : std::vector<uint32_t>{};
            }
        };
        NS_TEST_ASSERT_MSG_EQ(SameRoutes(b, after, why), true, "after the partial repair: " << why);
        NS_TEST_ASSERT_MSG_EQ(b.model->IsConverged(), true, "nothing pending");
        NS_TEST_ASSERT_MSG_EQ(b.model->GetUnreachableRoutes(),
                              2u + 4u,
                              "T2 2/3 and T1 1/3/5/7 have no route to T0 0");
    }
};

/**
 * \ingroup mrc-test
 * The BGP reconvergence test suite.
 */
class MrcBgpTestSuite : public TestSuite
{
  public:
    MrcBgpTestSuite()
        : TestSuite("mrc-bgp", Type::UNIT)
    {
        AddTestCase(new BgpLinkFailureTestCase);
        AddTestCase(new BgpBlackholeTestCase);
        AddTestCase(new BgpFibScalingTestCase);
        AddTestCase(new BgpOverlapTestCase);
    }
};

/// The suite's single instance.
static MrcBgpTestSuite g_mrcBgpTestSuite;
