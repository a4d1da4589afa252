/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Failure injection on whole switches and host NIC ports, and schedules applied to a fabric:
 * switch down takes every link of the switch (and only those), overlapping causes end
 * independently, a black-holed switch drops all it receives with its carrier up, NIC port state
 * reaches MRC, and schedule entries naming what the fabric does not have are refused with
 * their line, all or nothing.
 */

#include "mrc-failure-test-bed.h"

#include "ns3/test.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::mrctest;

/**
 * \ingroup mrc-test
 * Switch down: every link of the switch loses its carrier at both ends (notifications), no
 * other link does; a link that failed on its own stays down when the switch comes back.
 */
class FailureSwitchDownTestCase : public TestCase
{
  public:
    FailureSwitchDownTestCase()
        : TestCase("switch down takes all its links and only those; causes end independently")
    {
    }

  private:
    /// \param bed test bed \return each link's carrier (both ends up)
    static std::vector<bool> Carriers(const FlowBed& bed)
    {
        std::vector<bool> up;
        for (const MrcFabricLink& l : bed.topo->GetLinks())
        {
            up.push_back(bed.Device(l.id, 0)->IsLinkUp() && bed.Device(l.id, 1)->IsLinkUp());
        }
        return up;
    }

    void DoRun() override
    {
        FlowBed bed(MrcClosSpec::TwoTier(1, 2, 1, 2, 2));
        Ptr<Node> t1 = bed.topo->GetSwitch(MrcSwitchTier::T1, 0, 0);
        std::vector<bool> ofT1;
        for (const MrcFabricLink& l : bed.topo->GetLinks())
        {
            ofT1.push_back(l.upper == t1);
            for (uint32_t end : {0u, 1u})
            {
                bed.Device(l.id, end)->AddLinkChangeCallback(
                    MakeCallback(&FlowBed::OnLinkChange, &bed));
            }
        }
        NS_TEST_ASSERT_MSG_EQ(std::count(ofT1.begin(), ofT1.end(), true), 2, "T1 has 2 links");
        const uint32_t own = bed.failures->FindLink("p0-t0-0", "p0-t1-0");
        bed.failures->SwitchDown(MicroSeconds(10), t1, MicroSeconds(50));
        bed.failures->LinkDown(MicroSeconds(20), own);
        bed.failures->LinkUp(MicroSeconds(80), own);
        std::vector<bool> at30;
        std::vector<bool> at65;
        Simulator::Schedule(MicroSeconds(30), [&]() {
            at30 = Carriers(bed);
        });
        Simulator::Schedule(MicroSeconds(65), [&]() {
            at65 = Carriers(bed);
        });
        Simulator::Run();

        for (size_t i = 0; i < ofT1.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(at30[i], (!ofT1[i]), "switch down: its links only, link " << i);
            NS_TEST_ASSERT_MSG_EQ(at65[i], (i != own), "switch up: all but the own failure " << i);
        }
        NS_TEST_ASSERT_MSG_EQ((Carriers(bed) == std::vector<bool>(ofT1.size(), true)),
                              true,
                              "everything up at the end");
        // 2 links x 2 ends, down and up once each (the own failure did not change the carrier
        // at 20 us, and kept it down at 60 us).
        NS_TEST_ASSERT_MSG_EQ(bed.linkChanges, 8u, "notifications on the switch's links only");
        const auto& log = bed.failures->GetLog().GetEntries();
        NS_TEST_ASSERT_MSG_EQ(log.size(), 4u, "four events");
        NS_TEST_ASSERT_MSG_EQ(log[0].kind + " " + log[0].target + " " + log[0].parameters,
                              "switch-down switch p0-t1-0 links=2",
                              "switch-down logged");
        NS_TEST_ASSERT_MSG_EQ(log[2].kind + " " + log[2].parameters,
                              "switch-up links=2 by=duration",
                              "switch-up logged");
    }
};

/**
 * \ingroup mrc-test
 * A black-holed switch keeps the carrier of its links and silently drops every datagram it
 * receives, in both directions, counted as BLACKHOLE on its own ports; it forwards again after.
 */
class FailureSwitchBlackholeTestCase : public TestCase
{
  public:
    FailureSwitchBlackholeTestCase()
        : TestCase("black-holed switch: carrier up, everything through it vanishes, counted")
    {
    }

  private:
    void DoRun() override
    {
        FlowBed bed;
        Ptr<Node> t1 = bed.topo->GetSwitch(MrcSwitchTier::T1, 0, 0);
        bed.failures->SwitchBlackhole(MicroSeconds(100), t1, MicroSeconds(100));
        const uint32_t before = Burst(bed, MicroSeconds(10), 50);
        const uint32_t up = Burst(bed, MicroSeconds(120), 50);
        const uint32_t down = Burst(bed, MicroSeconds(120), 30, 1, 0);
        const uint32_t after = Burst(bed, MicroSeconds(250), 50);
        bool carrier = false;
        Simulator::Schedule(MicroSeconds(150), [&]() {
            carrier = true;
            for (const MrcFabricLink& l : bed.topo->GetLinks())
            {
                carrier =
                    carrier && bed.Device(l.id, 0)->IsLinkUp() && bed.Device(l.id, 1)->IsLinkUp();
            }
        });
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(carrier, true, "every carrier up");
        NS_TEST_ASSERT_MSG_EQ(bed.Arrived(before, 50), 50u, "before");
        NS_TEST_ASSERT_MSG_EQ(bed.Arrived(up, 50) + bed.Arrived(down, 30), 0u, "during: none");
        NS_TEST_ASSERT_MSG_EQ(bed.Arrived(after, 50), 50u, "after");
        uint64_t atSwitch = 0;
        for (const MrcFabricLink& l : bed.topo->GetLinksOf(t1))
        {
            atSwitch += bed.Device(l.id, l.upper == t1 ? 1 : 0)
                            ->GetLostPackets(MrcFabricLossCause::BLACKHOLE);
        }
        NS_TEST_ASSERT_MSG_EQ(atSwitch, 80u, "dropped on arrival at the switch");
        NS_TEST_ASSERT_MSG_EQ(bed.failures->GetLostPackets(MrcFabricLossCause::BLACKHOLE),
                              80u,
                              "nowhere else");
    }
};

/**
 * \ingroup mrc-test
 * NIC port down reaches MRC (MrcL4Protocol::GetPortStateBitmap) and the host's link; so does a
 * T0 switch failure on the host's ports; port-down outlasting the switch failure keeps the port
 * down until port-up.
 */
class FailurePortDownTestCase : public TestCase
{
  public:
    FailurePortDownTestCase()
        : TestCase("NIC port down: MRC's port state and the host link follow every cause")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<MrcFabricTopology> topo =
            MrcClosTopologyHelper().Build(MrcClosSpec::TwoTier(2, 2, 1, 1));
        MrcDataPlaneHelper dataPlane;
        dataPlane.Install(topo);
        MrcHelper mrc(topo, dataPlane);
        mrc.Install();
        Ptr<MrcL4Protocol> h0 = topo->GetHost(0)->GetObject<MrcL4Protocol>();
        Ptr<MrcL4Protocol> h1 = topo->GetHost(1)->GetObject<MrcL4Protocol>();
        Ptr<MrcFailureHelper> f = CreateObject<MrcFailureHelper>(topo);
        f->PortDown(MicroSeconds(10), 0, 1, MicroSeconds(20));
        f->SwitchDown(MicroSeconds(50), topo->GetSwitch(MrcSwitchTier::T0, 0, 0), MicroSeconds(20));
        f->PortDown(MicroSeconds(60), 0, 0);
        f->PortUp(MicroSeconds(80), 0, 0);
        std::map<uint32_t, std::pair<uint32_t, uint32_t>> bitmaps; // us -> host 0, host 1
        std::map<uint32_t, bool> plane1Up;
        for (uint32_t us : {5, 15, 35, 55, 75, 85})
        {
            Simulator::Schedule(MicroSeconds(us), [&, us]() {
                bitmaps[us] = {h0->GetPortStateBitmap(), h1->GetPortStateBitmap()};
                plane1Up[us] = topo->GetHostDevice(0, 1)->IsLinkUp();
            });
        }
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();

        const std::map<uint32_t, std::pair<uint32_t, uint32_t>> expected = {
            {5, {0, 0}},
            {15, {2, 0}},  // port 1 of host 0 down
            {35, {0, 0}},  // back after 20 us
            {55, {1, 0}},  // T0 of host 0 on plane 0 down
            {75, {1, 0}},  // switch back, port-down still holds
            {85, {0, 0}}}; // port-up
        for (const auto& [us, bits] : expected)
        {
            NS_TEST_ASSERT_MSG_EQ(bitmaps[us].first, bits.first, "host 0 at " << us << " us");
            NS_TEST_ASSERT_MSG_EQ(bitmaps[us].second, bits.second, "host 1 at " << us << " us");
        }
        NS_TEST_ASSERT_MSG_EQ(plane1Up[15], false, "the host's link is down with its port");
        NS_TEST_ASSERT_MSG_EQ(plane1Up[35], true, "and up with it");
        NS_TEST_ASSERT_MSG_EQ(f->GetLog().GetEntries().at(0).target,
                              "host 0 plane 1",
                              "port target");
        Simulator::Destroy();
        Names::Clear();
    }
};

/**
 * \ingroup mrc-test
 * Schedule entries are resolved against the fabric: each unknown node, missing link, ambiguous
 * or out-of-range parallel index, switch that is not one, host or plane out of range, link id
 * out of range, time going back for one link named two ways, and time in the past, is refused
 * with the entry's line and the accepted range; a schedule with one bad entry schedules
 * nothing; a valid one produces the documented CSV log.
 */
class FailureScheduleResolveTestCase : public TestCase
{
  public:
    FailureScheduleResolveTestCase()
        : TestCase("schedules on a fabric: unknown targets refused with line and range, "
                   "all or nothing, CSV log")
    {
    }

  private:
    /**
     * \param f failure helper
     * \param rows CSV rows after the header at,kind,link,index,switch,host,plane,duration
     * \return the error message ("" if none)
     */
    static std::string Error(Ptr<MrcFailureHelper> f, const std::string& rows)
    {
        std::istringstream in("at,kind,link,index,switch,host,plane,duration\n" + rows);
        try
        {
            f->Schedule(MrcFailureScheduleParser::Parse(in,
                                                        "plan.csv",
                                                        MrcFailureScheduleParser::Format::CSV));
        }
        catch (const std::invalid_argument& e)
        {
            return e.what();
        }
        return "";
    }

    void DoRun() override
    {
        FlowBed bed(MrcClosSpec::TwoTier(1, 2, 1, 1, 2)); // two parallel links per T0
        Ptr<MrcFailureHelper> f = bed.failures;
        NS_TEST_ASSERT_MSG_EQ(Error(f, "1us,link-down,p0-t0-9 p0-t1-0,,,,,\n"),
                              "plan.csv:2: no node named 'p0-t0-9' (fabric nodes are named "
                              "host-<i> and p<plane>-t<tier>-<index>)",
                              "unknown node");
        NS_TEST_ASSERT_MSG_EQ(Error(f, "1us,link-down,p0-t0-0 p0-t0-1,,,,,\n"),
                              "plan.csv:2: no link between 'p0-t0-0' and 'p0-t0-1'",
                              "no such link");
        NS_TEST_ASSERT_MSG_EQ(Error(f, "1us,link-down,p0-t0-0 p0-t1-0,,,,,\n"),
                              "plan.csv:2: 'p0-t0-0' and 'p0-t1-0' are joined by 2 parallel "
                              "links: give an index in 0..1",
                              "parallel links need an index");
        NS_TEST_ASSERT_MSG_EQ(Error(f, "1us,link-down,p0-t0-0 p0-t1-0,2,,,,\n"),
                              "plan.csv:2: index (=2) must be in 0..1 (the links between "
                              "'p0-t0-0' and 'p0-t1-0')",
                              "index out of range");
        NS_TEST_ASSERT_MSG_EQ(Error(f, "1us,link-down,6,,,,,\n"),
                              "plan.csv:2: link id (=6) must be in 0..5",
                              "link id out of range");
        NS_TEST_ASSERT_MSG_EQ(Error(f, "1us,switch-down,,,host-0,,,\n"),
                              "plan.csv:2: no switch named 'host-0' in this fabric (switches "
                              "are named p<plane>-t<tier>-<index>)",
                              "not a switch");
        NS_TEST_ASSERT_MSG_EQ(Error(f, "1us,port-down,,,,2,0,\n"),
                              "plan.csv:2: host (=2) must be in 0..1",
                              "host out of range");
        NS_TEST_ASSERT_MSG_EQ(Error(f, "1us,port-down,,,,0,1,\n"),
                              "plan.csv:2: plane (=1) must be in 0..0",
                              "plane out of range");
        NS_TEST_ASSERT_MSG_EQ(Error(f, "10us,link-down,0,,,,,\n5us,link-up,p0-t0-0 host-0,,,,,\n"),
                              "plan.csv:3: at (=5us) goes back in time: an earlier entry for "
                              "link p0-t0-0 host-0 (plan.csv:2) is at 10us; list the events of "
                              "each target in time order",
                              "one link named by id and by nodes");
        const std::string bad =
            Error(f, "1us,link-down,host-0 p0-t0-0,,,,,\n2us,link-down,a b,,,,,\n");
        NS_TEST_ASSERT_MSG_EQ(bad.find("plan.csv:3: no node named 'a'"),
                              0u,
                              "the bad entry is named: " << bad);
        std::ostringstream api;
        try
        {
            f->GrayLoss(MicroSeconds(1), 0, 1.5);
        }
        catch (const std::invalid_argument& e)
        {
            api << e.what();
        }
        NS_TEST_ASSERT_MSG_EQ(api.str(),
                              "MrcFailureHelper: probability (=1.5) must be in [0, 1]",
                              "API arguments are checked too");

        // Valid entries, one of them on parallel link index 1.
        NS_TEST_ASSERT_MSG_EQ(Error(f,
                                    "3us,link-down,p0-t1-0 p0-t0-1,1,,,,2us\n"
                                    "4us,switch-down,,,p0-t1-0,,,\n"),
                              "",
                              "valid schedule");
        Simulator::Stop(MicroSeconds(10));
        Simulator::Run();
        std::ostringstream csv;
        f->GetLog().WriteCsv(csv);
        NS_TEST_ASSERT_MSG_EQ(csv.str(),
                              "time_ns,kind,target,parameters,origin\n"
                              "3000,link-down,link p0-t0-1 p0-t1-0 index 1,,plan.csv:2\n"
                              "4000,switch-down,switch p0-t1-0,links=4,plan.csv:3\n"
                              "5000,link-up,link p0-t0-1 p0-t1-0 index 1,by=duration,plan.csv:2\n",
                              "only the valid schedule ran; documented CSV columns");
        std::string past;
        try
        {
            f->LinkDown(MicroSeconds(5), 0);
        }
        catch (const std::invalid_argument& e)
        {
            past = e.what();
        }
        NS_TEST_ASSERT_MSG_EQ(past,
                              "MrcFailureHelper: at (=5us) is before the current simulation time "
                              "(10us)",
                              "no failure in the past");
    }
};

#if defined(MRC_SOURCE_DIR) || defined(NS_TEST_SOURCEDIR)
/**
 * \ingroup mrc-test
 * The sample schedules of examples/ load on the example's fabric (every name, index and link
 * id resolves) and give the same log in JSON and CSV.
 */
class FailureSampleScheduleTestCase : public TestCase
{
  public:
    FailureSampleScheduleTestCase()
        : TestCase("the sample schedules load on the example's fabric, JSON and CSV alike")
    {
    }

  private:
    /// \return the examples folder (standalone: absolute; in a source tree: from its root)
    static std::string ExamplesDir()
    {
#    ifdef MRC_SOURCE_DIR
        return MRC_SOURCE_DIR "/examples/";
#    else
        return NS_TEST_SOURCEDIR "/../examples/";
#    endif
    }

    /**
     * \param file a schedule file
     * \return the log of running it, without the origin column
     */
    static std::vector<std::string> Run(const std::string& file)
    {
        Ptr<MrcFabricTopology> topo =
            MrcClosTopologyHelper().Build(MrcClosSpec::TwoTier(2, 4, 4, 4));
        Ptr<MrcFailureHelper> f = CreateObject<MrcFailureHelper>(topo);
        f->LoadSchedule(ExamplesDir() + file);
        Simulator::Run();
        std::vector<std::string> lines;
        for (const MrcFailureLog::Entry& e : f->GetLog().GetEntries())
        {
            lines.push_back(std::to_string(e.time.GetNanoSeconds()) + " " + e.kind + " " + e.target
                            + " " + e.parameters);
        }
        Simulator::Destroy();
        Names::Clear();
        return lines;
    }

    void DoRun() override
    {
        const std::vector<std::string> json = Run("failure-schedule-sample.json");
        const std::vector<std::string> csv = Run("failure-schedule-sample.csv");
        NS_TEST_ASSERT_MSG_EQ(json.size(), 24u, "24 transitions");
        NS_TEST_ASSERT_MSG_EQ((json == csv), true, "JSON and CSV give the same log");
        NS_TEST_ASSERT_MSG_EQ(json.front(),
                              "10000 gray-loss link p0-t0-0 p0-t1-0 probability=0.02 direction=up",
                              "first event");
        NS_TEST_ASSERT_MSG_EQ(json.back(),
                              "131000 link-up link p0-t0-1 p0-t1-2 by=flap",
                              "link id 22 is p0-t0-1 p0-t1-2");
    }
};
#endif

/**
 * \ingroup mrc-test
 * Issue 20, item 6: a flap with a 1 ns period over 1 s made 2e9 events without a word. The
 * events of a schedule are counted before anything is scheduled and refused above MaxEvents,
 * with the count, the cap and the attribute that raises it; exactly MaxEvents is accepted.
 */
class FailureEventCapTestCase : public TestCase
{
  public:
    FailureEventCapTestCase()
        : TestCase("the events of a schedule are capped by MaxEvents, checked before scheduling")
    {
    }

  private:
    /**
     * \param periods flap periods (two events each)
     * \return a flap of the fabric's link p0-t0-0 p0-t1-0 with that many 1 us periods
     */
    static MrcFailureSpec Flap(uint64_t periods)
    {
        MrcFailureSpec f;
        f.kind = MrcFailureKind::FLAP;
        f.at = MicroSeconds(1);
        f.nodeA = "p0-t0-0";
        f.nodeB = "p0-t1-0";
        f.period = MicroSeconds(1);
        f.duty = 0.5;
        f.duration = MicroSeconds(periods);
        f.origin = "plan.csv:2";
        return f;
    }

    /**
     * \param helper a helper
     * \param specs entries
     * \return the message it throws ("" if none)
     */
    static std::string Error(Ptr<MrcFailureHelper> helper, const std::vector<MrcFailureSpec>& specs)
    {
        try
        {
            helper->Schedule(specs);
        }
        catch (const std::invalid_argument& e)
        {
            return e.what();
        }
        return "";
    }

    void DoRun() override
    {
        {
            FlowBed bed;
            MrcFailureSpec absurd = Flap(1);
            absurd.period = NanoSeconds(1);
            absurd.duration = Seconds(1);
            NS_TEST_ASSERT_MSG_EQ(
                Error(bed.failures, {absurd}),
                "MrcFailureHelper: the failures would make 2000000000 simulator events (2000000000 "
                "from plan.csv:2 (flap of link p0-t0-0 p0-t1-0)), more than MaxEvents (=10000000); "
                "a flap makes two per period: lengthen its period or shorten its duration, or "
                "raise ns3::MrcFailureHelper::MaxEvents (e.g. "
                "--ns3::MrcFailureHelper::MaxEvents=2000000000) to run it anyway",
                "1 ns flap over 1 s refused by the default cap");
            NS_TEST_ASSERT_MSG_EQ(bed.failures->GetScheduledEvents(), 0u, "nothing scheduled");
            NS_TEST_ASSERT_MSG_EQ(Simulator::GetEventCount(), 0u, "no event ran");
        }
        {
            // Both sides of a cap of 100: 49 flap periods and a link-down with its end (2) fit
            // exactly, one more period does not (all or nothing).
            FlowBed bed;
            bed.failures->SetAttribute("MaxEvents", UintegerValue(100));
            MrcFailureSpec down;
            down.kind = MrcFailureKind::LINK_DOWN;
            down.at = MicroSeconds(5);
            down.nodeA = "p0-t0-1";
            down.nodeB = "p0-t1-0";
            down.duration = MicroSeconds(10);
            down.origin = "plan.csv:3";
            const std::string over = Error(bed.failures, {Flap(50), down});
            NS_TEST_ASSERT_MSG_NE(over.find("would make 102 simulator events (100 from plan.csv:2"),
                                  std::string::npos,
                                  over);
            NS_TEST_ASSERT_MSG_NE(over.find("more than MaxEvents (=100)"), std::string::npos, over);
            NS_TEST_ASSERT_MSG_EQ(bed.failures->GetScheduledEvents(), 0u, "all or nothing");
            NS_TEST_ASSERT_MSG_EQ(Error(bed.failures, {Flap(49), down}), "", "exactly the cap");
            NS_TEST_ASSERT_MSG_EQ(bed.failures->GetScheduledEvents(), 100u, "100 scheduled");
            // The cap counts every call: one more event is refused, by the API too.
            const uint32_t link = bed.failures->FindLink("p0-t0-1", "p0-t1-0");
            bool refused = false;
            try
            {
                bed.failures->LinkUp(MicroSeconds(500), link);
            }
            catch (const std::invalid_argument& e)
            {
                refused = std::string(e.what()).find("on top of 100 already scheduled")
                          != std::string::npos;
            }
            NS_TEST_ASSERT_MSG_EQ(refused, true, "the 101st event is refused");
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(bed.failures->GetLog().GetEntries().size(),
                                  100u,
                                  "the 100 accepted events ran");
        }
    }
};

/**
 * \ingroup mrc-test
 * The failure injection test suite (switches, NIC ports, schedules on a fabric).
 */
class MrcFailureScheduleTestSuite : public TestSuite
{
  public:
    MrcFailureScheduleTestSuite()
        : TestSuite("mrc-failure-schedule", Type::UNIT)
    {
        AddTestCase(new FailureSwitchDownTestCase);
        AddTestCase(new FailureSwitchBlackholeTestCase);
        AddTestCase(new FailurePortDownTestCase);
        AddTestCase(new FailureScheduleResolveTestCase);
        AddTestCase(new FailureEventCapTestCase);
#if defined(MRC_SOURCE_DIR) || defined(NS_TEST_SOURCEDIR)
        AddTestCase(new FailureSampleScheduleTestCase);
#endif
    }
};

/// The suite's single instance.
static MrcFailureScheduleTestSuite g_mrcFailureScheduleTestSuite;
