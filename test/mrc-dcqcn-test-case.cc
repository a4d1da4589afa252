/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The DCQCN test case of the mrc-roce suite: DCQCN cuts the rate by its formula on CNPs and
 * recovers (the suite: mrc-roce-test-suite.cc).
 */

#include "mrc-dcqcn-test-case.h"

#include "mrc-test-bench.h"

#include "ns3/rng-seed-manager.h"

#include <algorithm>

namespace ns3
{
namespace mrctest
{

MrcDcqcnTestCase::MrcDcqcnTestCase()
    : TestCase("DCQCN: CNPs at most once per CnpInterval, every cut is Rc (1 - alpha : 2), "
               "recovery to line rate")
{
}

void
MrcDcqcnTestCase::OnAlpha(RateLog* log, double from, double to)
{
    log->alpha = to;
    log->lastAlphaChange = Simulator::Now();
}

void
MrcDcqcnTestCase::OnRate(RateLog* log, double from, double to)
{
    log->changes.push_back(Change{Simulator::Now(), from, to, log->alpha});
}

void
MrcDcqcnTestCase::OnCnp(std::vector<Time>* times, uint32_t ev)
{
    times->push_back(Simulator::Now());
}

void
MrcDcqcnTestCase::DoRun()
{
    RngSeedManager::SetSeed(3);

    struct Cleanup
    {
        ~Cleanup()
        {
            Simulator::Destroy();
            Names::Clear();
        }
    } cleanup;

    // A RoCEv2 fabric: RED/ECN marking on every switch port, the last hop included, and
    // drop-tail (no trimming, no PFC).
    MrcClosTopologyHelper helper;
    helper.SetEcnQueues();
    Ptr<MrcFabricTopology> topo = helper.Build(MrcClosSpec::TwoTier(1, 1, 4, 1));
    MrcDataPlaneHelper dataPlane;
    dataPlane.SetDataPlane(MrcDataPlane::ECMP);
    dataPlane.Install(topo);
    MrcHelper mrc(topo, dataPlane);
    mrc.Install();
    mrc.SetRoceV2Baseline();
    auto [a1, r1] = mrc.Connect(1, 0); // the long flow
    auto [a2, r2] = mrc.Connect(2, 0); // the short flow
    Ptr<MrcDcqcn> dcqcn = DynamicCast<MrcDcqcn>(a1->GetCongestionControl());
    NS_TEST_ASSERT_MSG_EQ((dcqcn != nullptr), true, "DCQCN in use");
    RateLog rates;
    dcqcn->TraceConnectWithoutContext("Alpha", MakeBoundCallback(&OnAlpha, &rates));
    dcqcn->TraceConnectWithoutContext("Rate", MakeBoundCallback(&OnRate, &rates));
    std::vector<Time> cnps1;
    std::vector<Time> cnps2;
    r1->TraceConnectWithoutContext("CnpSent", MakeBoundCallback(&OnCnp, &cnps1));
    r2->TraceConnectWithoutContext("CnpSent", MakeBoundCallback(&OnCnp, &cnps2));
    std::vector<Time> cnpsIn;
    a1->TraceConnectWithoutContext("CnpReceived", MakeBoundCallback(&OnCnp, &cnpsIn));
    std::shared_ptr<std::vector<uint8_t>> region1;
    std::shared_ptr<std::vector<uint8_t>> region2;
    auto expected1 = PostRandom(a1, r1, {4u << 20}, 1, region1);
    auto expected2 = PostRandom(a2, r2, {1u << 20}, 2, region2);
    Simulator::Stop(Seconds(2));
    Simulator::Run();

    NS_TEST_ASSERT_MSG_EQ((*region1 == *expected1), true, "long flow: every byte in place");
    NS_TEST_ASSERT_MSG_EQ((*region2 == *expected2), true, "short flow: every byte in place");
    NS_TEST_ASSERT_MSG_GT(cnps1.size(), 0u, "the long flow's receiver sent CNPs");
    NS_TEST_ASSERT_MSG_GT(cnps2.size(), 0u, "the short flow's receiver sent CNPs");
    const Time interval = *dcqcn->GetCnpInterval();
    for (const std::vector<Time>* cnps : {&cnps1, &cnps2})
    {
        for (size_t i = 1; i < cnps->size(); ++i)
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ((*cnps)[i] - (*cnps)[i - 1],
                                        interval,
                                        "at most one CNP per CnpInterval");
        }
    }
    NS_TEST_ASSERT_MSG_EQ(r1->GetStats().cnpsSent, cnps1.size(), "CnpSent trace and counter");
    NS_TEST_ASSERT_MSG_EQ(a1->GetStats().cnpsReceived, cnps1.size(), "every CNP arrived");

    const double line = dcqcn->GetLineRate();
    NS_TEST_ASSERT_MSG_EQ(line, 100e9, "one 100 Gb/s port");
    NS_TEST_ASSERT_MSG_GT(rates.changes.size(), 0u, "the rate changed");
    const Change& cut = rates.changes.front();
    NS_TEST_ASSERT_MSG_EQ(cut.from, line, "from line rate");
    NS_TEST_ASSERT_MSG_EQ(cut.alpha, 1.0, "alpha starts at 1");
    NS_TEST_ASSERT_MSG_EQ(cut.to, line / 2, "the first CNP halves the rate");
    NS_TEST_ASSERT_MSG_EQ(cut.at, cnpsIn.front(), "at the first CNP");
    DataRateValue minRate;
    dcqcn->GetAttribute("MinRate", minRate);
    TimeValue decrease;
    dcqcn->GetAttribute("RateDecreaseInterval", decrease);
    uint32_t cuts = 0;
    double lowest = line;
    Time lastCut(-1);
    for (const Change& c : rates.changes)
    {
        lowest = std::min(lowest, c.to);
        if (c.to < c.from)
        {
            ++cuts;
            NS_TEST_ASSERT_MSG_EQ_TOL(
                c.to,
                std::max(double(minRate.Get().GetBitRate()), c.from * (1 - c.alpha / 2)),
                c.from * 1e-12,
                "every cut is Rc (1 - alpha / 2), at least MinRate");
            if (!lastCut.IsStrictlyNegative())
            {
                NS_TEST_ASSERT_MSG_GT_OR_EQ(c.at - lastCut,
                                            decrease.Get(),
                                            "at most one cut per RateDecreaseInterval");
            }
            lastCut = c.at;
        }
    }
    NS_TEST_ASSERT_MSG_GT(cuts, 1u, "several cuts");
    NS_TEST_ASSERT_MSG_LT_OR_EQ(cuts, cnpsIn.size(), "a cut needs a CNP");
    NS_TEST_ASSERT_MSG_LT(lowest, line / 2, "cut more than once");
    // Recovery: back at line rate after the last CNP, then DCQCN idles.
    const Change& last = rates.changes.back();
    NS_TEST_ASSERT_MSG_EQ(last.to, line, "back at line rate");
    NS_TEST_ASSERT_MSG_GT(last.at, cnpsIn.back(), "after the marks stopped");
    NS_TEST_ASSERT_MSG_EQ(dcqcn->IsLimited(), false, "the limiter is idle");
    NS_TEST_ASSERT_MSG_LT_OR_EQ(rates.lastAlphaChange,
                                last.at,
                                "DCQCN's timers stopped at line rate");
}

} // namespace mrctest
} // namespace ns3
