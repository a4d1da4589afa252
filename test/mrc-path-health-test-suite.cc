/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Path health under load as a system test: the links experiment of mrc-path-health at a size
 * that runs in seconds. Sixteen MRC queue pairs (host i -> host i + 4) fill every uplink of a
 * two-plane Clos (4 T0 x 4 hosts, 4 T1 per plane, 100G) while T0 0 has lost its link to T1 0
 * in both planes: the four flows leaving T0 0 and the four entering it share three paths per
 * plane, every one of them marked. ECN steering must not pile their load onto whichever EVs
 * happen to be unmarked (the hot spot then moves from uplink to uplink and windows collapse).
 * The flap experiment's figures at the same size: the same two links flapping every 100 us
 * and every 1 ms.
 */

#include "ns3/core-module.h"
#include "ns3/mrc-module.h"
#include "ns3/test.h"

#include <functional>
#include <memory>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \ingroup mrc-test
 * The loaded fabric every case runs: a two-plane Clos (4 T0 x 4 hosts, 4 T1 per plane, 100G,
 * trimming queues, SRv6) whose sixteen MRC queue pairs (host i -> host i + 4) each have more to
 * write than 200 Gb/s carries in the run. Failures go on `failures` before Start; the simulator
 * is destroyed with the bench.
 */
class LoadedClos
{
  public:
    static constexpr uint32_t kHostsPerT0 = 4;   //!< hosts per T0
    static constexpr double kSteadyStopUs = 800; //!< RunSteady: end of the run
    static constexpr double kIntervalUs = 50;    //!< RunSteady: monitor interval
    static constexpr double kSteadyFromUs = 400; //!< RunSteady: measured from here

    /// Seed the run; build the fabric, its data plane and the failure helper.
    LoadedClos()
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        MrcClosTopologyHelper topoHelper;
        topoHelper.SetLinkRate(MrcLinkTier::HOST_T0, DataRate("100Gbps"));
        topoHelper.SetLinkRate(MrcLinkTier::T0_T1, DataRate("100Gbps"));
        topoHelper.SetTrimmingQueues();
        topo = topoHelper.Build(MrcClosSpec::TwoTier(2, 4, kHostsPerT0, 4));
        dp.SetDataPlane(MrcDataPlane::SRV6);
        dp.Install(topo);
        failures = CreateObject<MrcFailureHelper>(topo);
    }

    /// End the run: the simulator and the node names go with the bench.
    ~LoadedClos()
    {
        Simulator::Destroy();
        Names::Clear();
    }

    LoadedClos(const LoadedClos&) = delete;
    LoadedClos& operator=(const LoadedClos&) = delete;

    /**
     * Install MRC and start the sixteen flows.
     * \param configure sets queue pair attributes on the helper before it installs
     * \param onFlow called with each flow's index and queue pairs before its write is posted
     */
    void Start(const std::function<void(MrcHelper&)>& configure,
               const std::function<void(uint32_t, Ptr<MrcQueuePair>, Ptr<MrcQueuePair>)>& onFlow)
    {
        int64_t stream = MrcClosTopologyHelper::AssignStreams(topo, 0);
        stream += failures->AssignStreams(stream);
        m_mrc = std::make_unique<MrcHelper>(topo, dp);
        configure(*m_mrc);
        m_mrc->SetStream(stream);
        m_mrc->Install();
        const uint32_t hosts = topo->GetHostCount();
        for (uint32_t a = 0; a < hosts; ++a)
        {
            auto [qa, qb] = m_mrc->Connect(a, (a + kHostsPerT0) % hosts);
            onFlow(a, qa, qb);
            qa->PostWrite(100000000); // more than 200 Gb/s carries in 3 ms
        }
    }

    /**
     * \param plane a plane
     * \param t1 a T1 of that plane
     * \return the id of the link from T0 0 to that T1
     */
    uint32_t T0Uplink(uint32_t plane, uint32_t t1) const
    {
        return topo
            ->GetLinksBetween(topo->GetSwitch(MrcSwitchTier::T0, plane, 0),
                              topo->GetSwitch(MrcSwitchTier::T1, plane, t1))
            .at(0)
            .id;
    }

    /**
     * Fail T0 0's uplinks, the i-th at 10 (i + 1) us.
     * \param down (plane, T1) of each uplink, in the order they fail
     */
    void FailT0Uplinks(const std::vector<std::pair<uint32_t, uint32_t>>& down)
    {
        for (size_t i = 0; i < down.size(); ++i)
        {
            const auto [plane, t1] = down[i];
            failures->LinkDown(MicroSeconds(10 * (i + 1)), T0Uplink(plane, t1));
        }
    }

    /**
     * Flap T0 0's uplinks to T1 0 in both planes from 10 us on: each is down the first half of
     * every period.
     * \param period the flap period
     * \param stopUs end of the flapping, us
     */
    void FlapT0Uplinks(Time period, double stopUs)
    {
        for (uint32_t plane : {0u, 1u})
        {
            failures->Flap(MicroSeconds(10), T0Uplink(plane, 0), period, 0.5, MicroSeconds(stopUs));
        }
    }

    /**
     * Start the flows (Start), run to stopUs and measure the steady goodput.
     * \param configure sets queue pair attributes on the helper before it installs
     * \param capacityGbps the capacity left by the failures
     * \param fromUs measured from here, a multiple of kIntervalUs
     * \param stopUs end of the run, a multiple of kIntervalUs
     * \return goodput from fromUs to the end over capacityGbps
     */
    double RunSteady(const std::function<void(MrcHelper&)>& configure,
                     double capacityGbps,
                     double fromUs = kSteadyFromUs,
                     double stopUs = kSteadyStopUs)
    {
        Ptr<MrcTransferMonitor> monitor = CreateObject<MrcTransferMonitor>();
        monitor->SetAttribute("Interval", TimeValue(MicroSeconds(kIntervalUs)));
        Start(configure, [monitor](uint32_t a, Ptr<MrcQueuePair> qa, Ptr<MrcQueuePair> qb) {
            monitor->AddFlow("h" + std::to_string(a), qa, qb);
        });
        Simulator::Stop(MicroSeconds(stopUs));
        Simulator::Run();
        std::vector<uint64_t> series = monitor->GetTotalSeries();
        series.resize(static_cast<size_t>(stopUs / kIntervalUs), 0);
        uint64_t bytes = 0;
        for (size_t i = static_cast<size_t>(fromUs / kIntervalUs); i < series.size(); ++i)
        {
            bytes += series[i];
        }
        const double gbps = bytes * 8e-3 / (stopUs - fromUs);
        return gbps / capacityGbps;
    }

    Ptr<MrcFabricTopology> topo;    //!< the fabric
    MrcDataPlaneHelper dp;          //!< its SRv6 data plane
    Ptr<MrcFailureHelper> failures; //!< failures to schedule before Start

  private:
    std::unique_ptr<MrcHelper> m_mrc; //!< the transport, installed by Start
};

} // namespace

/**
 * \ingroup mrc-test
 * Flows sharing one set of marked bottlenecks keep their capacity (SkipEscalationRatio).
 */
class MrcSharedBottleneckTestCase : public TestCase
{
  public:
    MrcSharedBottleneckTestCase()
        : TestCase("uplinks down, every path marked: 16 MRC flows keep 0.95 of the capacity "
                   "left; escalating SKIPs on any path would not, unless they end once the "
                   "other paths are as marked")
    {
    }

  private:
    static constexpr double kCapacity = 2800; //!< Gb/s left with the two links down

    /**
     * \param escalationRatio MrcQueuePair's SkipEscalationRatio
     * \param releaseRatio MrcQueuePair's SkipReleaseRatio
     * \return steady goodput over the capacity left (LoadedClos::RunSteady)
     */
    static double Run(double escalationRatio, double releaseRatio)
    {
        LoadedClos bed;
        bed.FailT0Uplinks({{0, 0}, {1, 0}});
        return bed.RunSteady(
            [=](MrcHelper& mrc) {
                mrc.SetQueuePairAttribute("EvSetSize", UintegerValue(16));
                mrc.SetQueuePairAttribute("SkipEscalationRatio", DoubleValue(escalationRatio));
                mrc.SetQueuePairAttribute("SkipReleaseRatio", DoubleValue(releaseRatio));
            },
            kCapacity);
    }

    void DoRun() override
    {
        const double steered = Run(4, 2);
        // Payload over wire rate caps the ratio at about 0.97.
        NS_TEST_EXPECT_MSG_GT(steered, 0.95, "goodput over the capacity left, default steering");
        NS_TEST_EXPECT_MSG_LT(steered, 0.98, "payload cannot exceed its share of the wire rate");
        const double anyPath = Run(0, 0);
        NS_TEST_EXPECT_MSG_LT(anyPath,
                              0.93,
                              "escalating on every marked path piles the load onto a few EVs");
        const double released = Run(0, 2);
        NS_TEST_EXPECT_MSG_GT(released,
                              0.94,
                              "escalated SKIPs that end once the other paths are as marked");
    }
};

/**
 * \ingroup mrc-test
 * Planes that have lost different numbers of paths carry shares that follow their GOOD EVs
 * (MrcQueuePair's PlaneLeadLimit).
 */
class MrcUnequalPlanesTestCase : public TestCase
{
  public:
    MrcUnequalPlanesTestCase()
        : TestCase("T0 0 has two plane-0 uplinks and three plane-1 uplinks left: 16 MRC flows "
                   "keep 0.92 of the capacity left, above what planes loaded equally allow; "
                   "ports that take whatever packet is next stay at that bound")
    {
    }

  private:
    static constexpr double kCapacity = 2600; //!< Gb/s left with the three links down

    /**
     * \param leadLimit MrcQueuePair's PlaneLeadLimit
     * \return steady goodput over the capacity left (LoadedClos::RunSteady)
     */
    static double Run(double leadLimit)
    {
        LoadedClos bed;
        // T0 0 to T1 0 in both planes, then T0 0 to T1 1 in plane 0.
        bed.FailT0Uplinks({{0, 0}, {1, 0}, {0, 1}});
        return bed.RunSteady(
            [=](MrcHelper& mrc) {
                mrc.SetQueuePairAttribute("EvSetSize", UintegerValue(16));
                mrc.SetQueuePairAttribute("PlaneLeadLimit", DoubleValue(leadLimit));
            },
            kCapacity);
    }

    void DoRun() override
    {
        // Planes loaded exactly equally: the eight flows through T0 0 get 2 x 200 of their
        // 500 Gb/s, so at most 0.97 x 2400 / 2600 = 0.895 of the capacity left.
        const double weighted = Run(1);
        NS_TEST_EXPECT_MSG_GT(weighted, 0.92, "goodput over the capacity left, default");
        NS_TEST_EXPECT_MSG_LT(weighted, 0.98, "payload cannot exceed its share of the wire rate");
        const double anyPort = Run(0);
        NS_TEST_EXPECT_MSG_LT(anyPort,
                              0.905,
                              "the port that frees first takes the packet: planes equally loaded");
    }
};

/**
 * \ingroup mrc-test
 * Flapping uplinks cost the capacity they take away and little more (issue 15: "flaps cost
 * under 5 %"; the paper: no measurable effect).
 */
class MrcFlapTestCase : public TestCase
{
  public:
    MrcFlapTestCase()
        : TestCase("two uplinks flapping every 100 us are held out as if down (0.95 of the "
                   "capacity without them); flapping every 1 ms they cost under 5 % of the "
                   "time-averaged capacity, above what holding them out gives")
    {
    }

  private:
    static constexpr double kHeldDown = 2800;   //!< Gb/s with both links down
    static constexpr double kSlowFromUs = 510;  //!< slow flaps: an up phase begins
    static constexpr double kSlowStopUs = 2510; //!< two periods later
    /// Slow flaps: the measured span is half up, half down.
    static constexpr double kTimeAveraged = (3200 + kHeldDown) / 2;

    void DoRun() override
    {
        const auto evs16 = [](MrcHelper& mrc) {
            mrc.SetQueuePairAttribute("EvSetSize", UintegerValue(16));
        };
        double fast = 0;
        {
            LoadedClos bed;
            bed.FlapT0Uplinks(MicroSeconds(100), LoadedClos::kSteadyStopUs);
            fast = bed.RunSteady(evs16, kHeldDown);
        }
        // The links held down give 0.97 (the shared-bottleneck case): the up phases are too
        // short for restoration probes to bring their EVs back.
        NS_TEST_EXPECT_MSG_GT(fast, 0.95, "100 us flaps: goodput over the capacity without them");
        double slow = 0;
        {
            LoadedClos bed;
            bed.FlapT0Uplinks(MicroSeconds(1000), kSlowStopUs);
            slow = bed.RunSteady(evs16, kTimeAveraged, kSlowFromUs, kSlowStopUs);
        }
        // Payload is 0.97 of the wire rate: 5 % of the time-averaged capacity lost leaves 0.92.
        // Links never restored would leave 0.97 x 2800 / 3000 = 0.905.
        NS_TEST_EXPECT_MSG_GT(slow, 0.92, "1 ms flaps: goodput over the time-averaged capacity");
        NS_TEST_EXPECT_MSG_LT(slow, 0.98, "payload cannot exceed its share of the wire rate");
    }
};

/**
 * \ingroup mrc-test
 * A path that fails with a deep queue is left at once, all its EVs together
 * (MrcSelectiveRecovery::RetireSilentPath).
 */
class MrcSilentPathTestCase : public TestCase
{
  public:
    MrcSilentPathTestCase()
        : TestCase("128 EVs, 16 per path: a path that fails under load is retired whole once its "
                   "silence shows, and takes only probes after that")
    {
    }

  private:
    static constexpr double kFailUs = 250; //!< the second failure, on a loaded plane
    static constexpr double kStopUs = 450; //!< end of the run

    static constexpr double kLateUs = kFailUs + 100; //!< drops counted from here

    /// What the second failed link dropped.
    struct Drops
    {
        uint64_t count{0}; //!< frames sent into it after it failed
        uint64_t late{0};  //!< those from kLateUs on
    };

    /**
     * FaultDrop sink.
     * \param drops where to count
     * \param cause why the frame was lost
     */
    static void RecordDrop(Drops* drops, Ptr<const Packet>, MrcFabricLossCause cause)
    {
        if (cause == MrcFabricLossCause::LINK_DOWN)
        {
            drops->count++;
            drops->late += Simulator::Now() >= MicroSeconds(kLateUs) ? 1 : 0;
        }
    }

    /**
     * Sixteen flows fill a two-plane Clos whose T0 0 loses its plane-0 links to T1 0 (at 100 us)
     * and to T1 1 (at kFailUs, when plane 0's other uplinks of T0 0 hold deep queues).
     * \param silentPath MrcSelectiveRecovery's RetireSilentPath
     * \return the frames the second link dropped after it failed
     */
    static Drops Run(bool silentPath)
    {
        Config::SetDefault("ns3::MrcSelectiveRecovery::RetireSilentPath", BooleanValue(silentPath));
        Drops drops;
        {
            LoadedClos bed;
            const Ptr<Node> t0 = bed.topo->GetSwitch(MrcSwitchTier::T0, 0, 0);
            const MrcFabricLink first =
                bed.topo->GetLinksBetween(t0, bed.topo->GetSwitch(MrcSwitchTier::T1, 0, 0)).at(0);
            const MrcFabricLink second =
                bed.topo->GetLinksBetween(t0, bed.topo->GetSwitch(MrcSwitchTier::T1, 0, 1)).at(0);
            bed.failures->LinkDown(MicroSeconds(100), first.id);
            bed.failures->LinkDown(MicroSeconds(kFailUs), second.id);
            for (const Ptr<NetDevice>& d : {second.lowerDevice, second.upperDevice})
            {
                d->TraceConnectWithoutContext("FaultDrop", MakeBoundCallback(&RecordDrop, &drops));
            }
            bed.Start(
                [](MrcHelper& mrc) {
                    mrc.SetQueuePairAttribute("EvSetSize", UintegerValue(128));
                },
                [](uint32_t, Ptr<MrcQueuePair>, Ptr<MrcQueuePair>) {});
            Simulator::Stop(MicroSeconds(kStopUs));
            Simulator::Run();
        }
        Config::Reset();
        return drops;
    }

    void DoRun() override
    {
        const Drops whole = Run(true);
        const Drops twoAtATime = Run(false);
        // Observed: 620 frames, 42 of them late (full-size restoration probes and control
        // packets, a few every 25 us), against 1276 and 588 retired two EVs at a time
        // (ns-3.37); ns-3-dev orders simultaneous events differently: 581 and 34 against 1027
        // and 359.
        NS_TEST_EXPECT_MSG_LT(whole.late,
                              100,
                              "100 us after the failure only probes go to the dead path");
        const uint64_t lateWithout = twoAtATime.late;
        NS_TEST_EXPECT_MSG_GT(lateWithout,
                              4 * whole.late,
                              "retired two EVs at a time, the path takes data for 200 us more");
        const uint64_t allWithout = twoAtATime.count;
        NS_TEST_EXPECT_MSG_LT(whole.count,
                              allWithout * 3 / 4,
                              "fewer packets lost to the failure in all");
    }
};

/**
 * \ingroup mrc-test
 * Path health under load.
 */
class MrcPathHealthTestSuite : public TestSuite
{
  public:
    MrcPathHealthTestSuite()
        : TestSuite("mrc-path-health", Type::SYSTEM)
    {
        AddTestCase(new MrcSharedBottleneckTestCase);
        AddTestCase(new MrcUnequalPlanesTestCase);
        AddTestCase(new MrcSilentPathTestCase);
        AddTestCase(new MrcFlapTestCase);
    }
};

/// The suite's instance.
static MrcPathHealthTestSuite g_mrcPathHealthTestSuite;
