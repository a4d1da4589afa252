/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The comparison as a system test, at a size that runs in a second: four long writes
 * across a two-tier Clos (2 T0 of 2 hosts, 2 T1) while the uplink T0 0 - T1 0 loses carrier.
 * MRC over SRv6 bypasses the dead path within its loss timer; RoCEv2-style queue pairs over
 * per-flow ECMP lose the flows hashed onto the link until the BGP model has reprogrammed the
 * switches, and then finish. Both deliver every byte exactly once and no queue pair fails.
 */

#include "mrc-test-bench.h"

#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <vector>

using namespace ns3;

using mrctest::Bench;
using mrctest::PostRandom;

namespace
{

/// What one fabric did.
struct Outcome
{
    std::vector<MrcTransferMonitor::FlowSummary> flows; //!< per flow
    bool bytesExact{true};                              //!< every region holds what was written
    Time converged{-1};                                 //!< BGP's last FIB change
    Time baseRtt;                                       //!< of the flows
};

} // namespace

/**
 * \ingroup mrc-test
 * Link failure under long writes: MRC/SRv6 against RoCEv2/ECMP with the BGP model.
 */
class MrcFailoverTestCase : public TestCase
{
  public:
    MrcFailoverTestCase()
        : TestCase("a link fails under load: MRC stalls less than a loss timer, RoCEv2 over "
                   "ECMP until BGP converged; nothing lost, no QP fails")
    {
    }

  private:
    static constexpr uint64_t kBytes = 3000000; //!< per flow: about 250 us at line rate

    /**
     * \param roce RoCEv2 over ECMP + BGP (else MRC over SRv6)
     * \return the outcome
     */
    static Outcome Run(bool roce)
    {
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2),
                !roce,
                roce ? MrcDataPlane::ECMP : MrcDataPlane::SRV6);
        // One plane of two paths: 8 EVs (4 per path), as a 128-EV set spreads over the paths of
        // a large fabric; the default 128 would put 64 EVs on each of the two paths, each
        // retired only by a loss of its own.
        b.mrc->SetQueuePairAttribute("EvSetSize", UintegerValue(8));
        Ptr<MrcBgpReconvergenceModel> bgp;
        if (roce)
        {
            MrcBgpReconvergenceHelper helper;
            helper.SetAttribute("CarrierDetectionDelay", TimeValue(MicroSeconds(100)));
            helper.SetAttribute("PerHopDelay", TimeValue(MicroSeconds(10)));
            helper.SetAttribute("FibPerRouteTime", TimeValue(MicroSeconds(10)));
            bgp = helper.Install(b.topo);
            b.mrc->SetRoceV2Baseline();
        }
        Ptr<MrcFailureHelper> failures = CreateObject<MrcFailureHelper>(b.topo);
        failures->LinkDown(MicroSeconds(50), failures->FindLink("p0-t0-0", "p0-t1-0"));
        Ptr<MrcTransferMonitor> monitor = CreateObject<MrcTransferMonitor>();
        std::vector<std::shared_ptr<std::vector<uint8_t>>> regions(4);
        std::vector<std::shared_ptr<std::vector<uint8_t>>> expected(4);
        Outcome out;
        for (uint32_t a = 0; a < 4; ++a)
        {
            const uint32_t dst = (a + 2) % 4; // the other T0
            auto [qa, qb] = b.Connect(a, dst);
            monitor->AddFlow("h" + std::to_string(a), qa, qb);
            expected[a] = PostRandom(qa, qb, {kBytes}, a, regions[a]);
            out.baseRtt = b.mrc->GetBaseRtt(a, dst);
        }
        // RoCEv2: a flow whose whole window went into the dead link hears nothing until its
        // Local ACK Timeout (1.07 s by default) fires, and a lossy fabric may take several.
        Simulator::Stop(roce ? Seconds(10) : MilliSeconds(20));
        Simulator::Run();
        out.flows = monitor->GetSummaries(Simulator::Now());
        for (uint32_t a = 0; a < 4; ++a)
        {
            out.bytesExact = out.bytesExact && *regions[a] == *expected[a];
        }
        if (bgp)
        {
            out.converged = bgp->GetLastConvergenceTime();
        }
        return out;
    }

    /// \param o an outcome \return the longest stall of any flow
    static Time LongestStall(const Outcome& o)
    {
        Time t(0);
        for (const auto& f : o.flows)
        {
            t = Max(t, f.longestStall);
        }
        return t;
    }

    void DoRun() override
    {
        const Outcome mrc = Run(false);
        const Outcome roce = Run(true);
        for (const Outcome* o : {&mrc, &roce})
        {
            const std::string name = o == &mrc ? "MRC: " : "RoCEv2: ";
            NS_TEST_ASSERT_MSG_EQ(o->bytesExact, true, name + "every byte as written");
            for (const auto& f : o->flows)
            {
                NS_TEST_ASSERT_MSG_EQ(f.bytesDelivered, kBytes, name + f.label + " exactly once");
                NS_TEST_ASSERT_MSG_EQ(f.completion.IsPositive(), true, name + f.label + " done");
                NS_TEST_ASSERT_MSG_EQ(f.failed, false, name + f.label + " no QP failure");
            }
        }
        // MRC: the dead path's EVs are retired by the loss timer (8 base RTTs) and replaced.
        const Time mrcStall = LongestStall(mrc);
        NS_TEST_ASSERT_MSG_LT(mrcStall, mrc.baseRtt * 12, "MRC bypasses within a loss timer");
        // RoCEv2 over ECMP: BGP converges (carrier 100 us, hops and FIB 10 us each) ...
        NS_TEST_ASSERT_MSG_GT_OR_EQ(roce.converged,
                                    MicroSeconds(150),
                                    "BGP converged after detection");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(roce.converged, MicroSeconds(250), "and soon after");
        // ... and a flow hashed onto the dead link waits for it.
        const Time roceStall = LongestStall(roce);
        NS_TEST_ASSERT_MSG_GT_OR_EQ(roceStall,
                                    roce.converged - MicroSeconds(50),
                                    "a flow stalls from the failure until BGP converged");
        NS_TEST_ASSERT_MSG_GT(roceStall, mrcStall, "the single-path fabric stalls longer");
        // A window lost whole into the dead link is noticed by nothing but the Local ACK Timeout.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(roceStall,
                                    NanoSeconds(4096) * int64_t(1 << 18),
                                    "a RoCEv2 NIC waits for its Local ACK Timeout");
    }
};

/**
 * \ingroup mrc-test
 * The failover comparison suite.
 */
class MrcFailoverTestSuite : public TestSuite
{
  public:
    MrcFailoverTestSuite()
        : TestSuite("mrc-failover", Type::SYSTEM)
    {
        AddTestCase(new MrcFailoverTestCase);
    }
};

/// The suite's single instance.
static MrcFailoverTestSuite g_mrcFailoverTestSuite;
