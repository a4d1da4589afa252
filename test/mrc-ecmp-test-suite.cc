/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Static per-flow ECMP: uniform spreading, determinism per seed, polarisation across tiers when
 * every switch shares a seed (and its absence by default), next-hop withdrawal and restoration
 * on the data path.
 */

#include "ns3/ipv6.h"
#include "ns3/mrc-module.h"
#include "ns3/names.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <map>
#include <set>

using namespace ns3;

namespace
{

/**
 * Pearson's chi-square statistic of counts against a uniform distribution.
 * \param counts observed counts per bin
 * \return the statistic
 */
double
ChiSquare(const std::map<uint32_t, uint32_t>& counts, uint32_t bins)
{
    double total = 0;
    for (const auto& [bin, c] : counts)
    {
        total += c;
    }
    const double expected = total / bins;
    double chi2 = 0;
    for (const auto& [bin, c] : counts)
    {
        chi2 += (c - expected) * (c - expected) / expected;
    }
    chi2 += (bins - counts.size()) * expected; // empty bins
    return chi2;
}

/// Chi-square critical values at p = 0.001 for 1..7 degrees of freedom.
constexpr double kChi2Critical[] = {0, 10.83, 13.82, 16.27, 18.47, 20.52, 22.46, 24.32};

/**
 * A UDP flow key from host s to host d on plane p with a given source port.
 * \param topo fabric
 * \param s source host
 * \param d destination host
 * \param sport source port
 * \return the key
 */
MrcEcmpFlowKey
Key(const MrcFabricTopology& topo, uint32_t s, uint32_t d, uint16_t sport)
{
    return MrcEcmpFlowKey(topo.GetHostAddress(s, 0), topo.GetHostAddress(d, 0), 17, sport, 4791, 0);
}

} // namespace

/**
 * \ingroup mrc-test
 * Many flows leaving one T0 spread over its uplinks close to uniformly (chi-square bound), and
 * the choice is a pure function of the seed.
 */
class EcmpSpreadTestCase : public TestCase
{
  public:
    EcmpSpreadTestCase()
        : TestCase("ECMP spreads flows uniformly over next hops and is deterministic per seed")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<MrcFabricTopology> topo = MrcClosTopologyHelper().Build(MrcClosSpec::FatTree(8));
        MrcEcmpRoutingHelper ecmp;
        ecmp.SetBaseSeed(7);
        ecmp.Install(*topo);
        Ptr<MrcIpv6EcmpRouting> t0 =
            MrcEcmpRoutingHelper::GetRouting(topo->GetSwitch(MrcSwitchTier::T0, 0, 0));
        std::map<uint32_t, uint32_t> counts;
        std::vector<int32_t> choices;
        // Host 0 to every host of other pods, 100 source ports each: 112 * 100 flows.
        for (uint32_t d = 16; d < topo->GetHostCount(); ++d)
        {
            for (uint16_t port = 0; port < 100; ++port)
            {
                const int32_t nh = t0->SelectNextHop(Key(*topo, 0, d, 10000 + port));
                NS_TEST_ASSERT_MSG_GT_OR_EQ(nh, 0, "route exists");
                counts[nh]++;
                choices.push_back(nh);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(counts.size(), 4u, "all k/2 uplinks used");
        const double chi2 = ChiSquare(counts, 4);
        NS_TEST_ASSERT_MSG_LT(chi2, kChi2Critical[3], "uniform spread (chi2 = " << chi2 << ")");

        // Same seed, fresh install: identical choices. Another seed: many differ.
        const uint32_t seedBefore = t0->GetHashSeed();
        ecmp.Install(*topo);
        t0 = MrcEcmpRoutingHelper::GetRouting(topo->GetSwitch(MrcSwitchTier::T0, 0, 0));
        NS_TEST_ASSERT_MSG_EQ(t0->GetHashSeed(), seedBefore, "seed derived deterministically");
        uint32_t same = 0;
        uint32_t i = 0;
        for (uint32_t d = 16; d < topo->GetHostCount(); ++d)
        {
            for (uint16_t port = 0; port < 100; ++port)
            {
                same += t0->SelectNextHop(Key(*topo, 0, d, 10000 + port)) == choices[i++];
            }
        }
        NS_TEST_ASSERT_MSG_EQ(same, choices.size(), "deterministic per seed");
        ecmp.SetBaseSeed(8);
        ecmp.Install(*topo);
        t0 = MrcEcmpRoutingHelper::GetRouting(topo->GetSwitch(MrcSwitchTier::T0, 0, 0));
        same = 0;
        i = 0;
        for (uint32_t d = 16; d < topo->GetHostCount(); ++d)
        {
            for (uint16_t port = 0; port < 100; ++port)
            {
                same += t0->SelectNextHop(Key(*topo, 0, d, 10000 + port)) == choices[i++];
            }
        }
        // Independent choices agree 1/4 of the time.
        NS_TEST_ASSERT_MSG_LT(same, choices.size() / 3, "another seed, other choices");
        NS_TEST_ASSERT_MSG_GT(same, choices.size() / 6, "another seed, other choices");
        Simulator::Destroy();
        Names::Clear();
    }
};

/**
 * \ingroup mrc-test
 * Polarisation: with one seed on every switch, an aggregation switch's choice repeats the edge
 * switch's, so each T1 uses a single uplink; with per-switch seeds (the default) every T1 spreads
 * uniformly over all its uplinks.
 */
class EcmpPolarisationTestCase : public TestCase
{
  public:
    EcmpPolarisationTestCase()
        : TestCase("per-switch seeds avoid polarisation; a shared seed polarises")
    {
    }

  private:
    /**
     * Walk many flows from pod 0 to other pods and count, per T1 of pod 0, the uplinks used.
     * \param perSwitch per-switch seeds
     * \param[out] worstChi2 the largest chi-square over T1s
     * \return the fewest distinct uplinks any loaded T1 used
     */
    uint32_t Run(bool perSwitch, double& worstChi2)
    {
        Ptr<MrcFabricTopology> topo = MrcClosTopologyHelper().Build(MrcClosSpec::FatTree(8));
        MrcEcmpRoutingHelper ecmp;
        ecmp.SetPerSwitchSeeds(perSwitch);
        ecmp.Install(*topo);
        std::map<uint32_t, std::map<uint32_t, uint32_t>> uplinks; // T1 node id -> T2 -> count
        for (uint32_t s = 0; s < 16; ++s)
        {
            for (uint32_t d = 16; d < topo->GetHostCount(); d += 3)
            {
                for (uint16_t port = 0; port < 20; ++port)
                {
                    auto path = MrcEcmpRoutingHelper::TracePath(*topo,
                                                                s,
                                                                0,
                                                                Key(*topo, s, d, 20000 + port));
                    // host, T0, T1, T2, T1, T0, host
                    NS_ASSERT(path.size() == 7);
                    uplinks[path[2]->GetId()][path[3]->GetId()]++;
                }
            }
        }
        uint32_t fewest = 1000;
        worstChi2 = 0;
        for (const auto& [t1, counts] : uplinks)
        {
            fewest = std::min<uint32_t>(fewest, counts.size());
            worstChi2 = std::max(worstChi2, ChiSquare(counts, 4));
        }
        Simulator::Destroy();
        Names::Clear();
        return fewest;
    }

    void DoRun() override
    {
        double chi2 = 0;
        NS_TEST_ASSERT_MSG_EQ(Run(false, chi2), 1u, "shared seed: each T1 uses one uplink");
        NS_TEST_ASSERT_MSG_EQ(Run(true, chi2), 4u, "per-switch seeds: every uplink used");
        NS_TEST_ASSERT_MSG_LT(chi2, kChi2Critical[3], "per-switch seeds: uniform at T1");
    }
};

/**
 * \ingroup mrc-test
 * Withdrawing a next hop removes it from every group at once; the data path stops using it,
 * a route with no next hop left drops (counted); restoring brings the old choices back.
 */
class EcmpWithdrawTestCase : public TestCase
{
  public:
    EcmpWithdrawTestCase()
        : TestCase("next-hop withdrawal and restoration on the data path")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<MrcFabricTopology> topo =
            MrcClosTopologyHelper().Build(MrcClosSpec::TwoTier(1, 2, 2, 2));
        MrcEcmpRoutingHelper().Install(*topo);
        Ptr<Node> t0 = topo->GetSwitch(MrcSwitchTier::T0, 0, 0);
        Ptr<MrcIpv6EcmpRouting> r = MrcEcmpRoutingHelper::GetRouting(t0);
        auto uplinks = topo->GetLinksBetween(t0, topo->GetSwitch(MrcSwitchTier::T1, 0, 0));
        const uint32_t dead = uplinks.at(0).lowerInterface;
        uint32_t changes = 0;
        r->TraceConnectWithoutContext(
            "NextHopChange",
            MakeCallback(&EcmpWithdrawTestCase::OnChange, this).Bind(&changes));

        std::vector<int32_t> before;
        for (uint16_t port = 0; port < 200; ++port)
        {
            before.push_back(r->SelectNextHop(Key(*topo, 0, 2, port)));
        }
        NS_TEST_ASSERT_MSG_GT(std::count(before.begin(), before.end(), int32_t(dead)),
                              0,
                              "the uplink is used before");
        r->WithdrawNextHop(dead);
        NS_TEST_ASSERT_MSG_EQ(changes, 1u, "trace fired once (routes changed: 1)");
        for (uint16_t port = 0; port < 200; ++port)
        {
            const int32_t nh = r->SelectNextHop(Key(*topo, 0, 2, port));
            NS_TEST_ASSERT_MSG_NE(nh, int32_t(dead), "withdrawn next hop unused");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(nh, 0, "the other uplink remains");
        }
        // Withdraw the second uplink: the remote T0's hosts are unreachable.
        const uint32_t other = topo->GetLinksBetween(t0, topo->GetSwitch(MrcSwitchTier::T1, 0, 1))
                                   .at(0)
                                   .lowerInterface;
        r->WithdrawNextHop(other);
        NS_TEST_ASSERT_MSG_EQ(r->SelectNextHop(Key(*topo, 0, 2, 1)), -1, "no route left");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(r->SelectNextHop(Key(*topo, 0, 1, 1)),
                                    0,
                                    "hosts of the same T0 still reachable");

        // Data path: a UDP flow from host 0 to host 2 is dropped at T0 and counted.
        MrcPermutationHelper perm(topo);
        perm.SetBytesPerFlow(8192);
        perm.SetPacketSize(4096);
        perm.Install();
        Simulator::Run();
        uint64_t lost = 0;
        for (const auto& f : perm.GetFlows())
        {
            if (topo->GetHostT0(f.src) == 0 && topo->GetHostT0(f.dst) == 1)
            {
                NS_TEST_ASSERT_MSG_EQ(f.received, 0u, "black-holed at T0");
                lost += 2;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(r->GetDroppedPackets(), lost, "drops counted");
        Simulator::Destroy();

        r->RestoreNextHop(dead);
        r->RestoreNextHop(other);
        std::vector<int32_t> after;
        for (uint16_t port = 0; port < 200; ++port)
        {
            after.push_back(r->SelectNextHop(Key(*topo, 0, 2, port)));
        }
        NS_TEST_ASSERT_MSG_EQ((after == before), true, "restored: the same choices as before");
        NS_TEST_ASSERT_MSG_EQ(changes, 4u, "one trace per change");
        Names::Clear();
    }

    /**
     * NextHopChange trace sink.
     * \param counter counter to increment
     * \param interface next hop
     * \param enabled restored or withdrawn
     * \param routes routes changed
     */
    void OnChange(uint32_t* counter, uint32_t interface, bool enabled, uint32_t routes)
    {
        ++*counter;
        NS_TEST_EXPECT_MSG_EQ(routes, 1u, "one remote T0 route changes");
    }
};

/**
 * \ingroup mrc-test
 * The ECMP test suite.
 */
class MrcEcmpTestSuite : public TestSuite
{
  public:
    MrcEcmpTestSuite()
        : TestSuite("mrc-ecmp", Type::UNIT)
    {
        AddTestCase(new EcmpSpreadTestCase);
        AddTestCase(new EcmpPolarisationTestCase);
        AddTestCase(new EcmpWithdrawTestCase);
    }
};

/// The suite's single instance.
static MrcEcmpTestSuite g_mrcEcmpTestSuite;
