/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The fabric metric collectors: MrcLinkMonitor (per-link load, queues, balance) and
 * MrcFabricDropMonitor (drops, marks, trims and losses by node, kind and reason), checked against
 * scenarios whose answer is known and against the counters of the models they watch.
 */

#include "mrc-test-bench.h"

#include "ns3/boolean.h"
#include "ns3/icmpv6-l4-protocol.h"
#include "ns3/mrc-trimming-queue-disc.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/test.h"
#include "ns3/traffic-control-layer.h"

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

using mrctest::Bench;
using mrctest::WithdrawOnlyUplink;

namespace
{

/**
 * \param topo a fabric
 * \param a one node's name
 * \param b the other's
 * \return the id of the (first) link between them
 */
uint32_t
LinkId(const MrcFabricTopology& topo, const std::string& a, const std::string& b)
{
    return topo.GetLinksBetween(Names::Find<Node>(a), Names::Find<Node>(b)).at(0).id;
}

/**
 * \param topo a fabric
 * \return every host and switch
 */
NodeContainer
AllNodes(const MrcFabricTopology& topo)
{
    NodeContainer all(topo.GetHosts());
    all.Add(topo.GetAllSwitches());
    return all;
}

/**
 * \param f something that should throw std::invalid_argument
 * \return its message, or "" if it did not throw
 */
template<typename F>
std::string
Refusal(F f)
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

} // namespace

/**
 * \ingroup mrc-test
 * One MRC write over a fabric with a single T1: its links run at line rate, the links of the
 * idle T0 carry nothing, and bytes and busy time agree with the queue discs and the rate.
 */
class LinkMonitorUtilisationTestCase : public TestCase
{
  public:
    LinkMonitorUtilisationTestCase()
        : TestCase("MrcLinkMonitor: a line-rate flow fills its links, idle links stay at 0, bytes "
                   "match the queue discs")
    {
    }

  private:
    void DoRun() override
    {
        // 3 T0 of one host, one T1: host 0 -> host 1 crosses p0-t0-0 -> p0-t1-0 -> p0-t0-1.
        Bench b(MrcClosSpec::TwoTier(1, 3, 1, 1), true);
        Ptr<MrcLinkMonitor> links = CreateObject<MrcLinkMonitor>();
        links->SetAttribute("Interval", TimeValue(MicroSeconds(20)));
        links->Install(b.topo, Time(0), MicroSeconds(1000));
        NS_TEST_ASSERT_MSG_EQ(links->GetDirectionCount(), 6u, "3 fabric links, 2 directions");
        auto [qa, qb] = b.Connect(0, 1);
        qa->PostWrite(4000000); // about 330 us at 100 Gb/s
        // Stop after the monitor's stop: an event at the same time as Simulator::Stop's may not
        // run, and the last interval would stay open.
        Simulator::Stop(MicroSeconds(1001));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(b.completed.size(), 1u, "the write completed");
        NS_TEST_ASSERT_MSG_EQ(links->GetIntervalCount(), 50u, "(stop - start) / Interval");

        const uint32_t up =
            *links->FindDirection(LinkId(*b.topo, "p0-t0-0", "p0-t1-0"), MrcLinkDirection::UP);
        const uint32_t down =
            *links->FindDirection(LinkId(*b.topo, "p0-t0-1", "p0-t1-0"), MrcLinkDirection::DOWN);
        NS_TEST_ASSERT_MSG_EQ(links->GetDirectionInfo(up).fromName, "p0-t0-0", "up: from T0");
        NS_TEST_ASSERT_MSG_EQ(links->GetDirectionInfo(down).toName, "p0-t0-1", "down: to T0");
        for (uint32_t d : {up, down})
        {
            const auto& series = links->GetSeries(d);
            NS_TEST_ASSERT_MSG_EQ(series.size(), 50u, "one sample per interval");
            // Intervals 3..14 (60..300 us) are in the middle of the transfer.
            for (uint32_t i = 3; i < 15; ++i)
            {
                NS_TEST_ASSERT_MSG_GT(series[i].utilisation,
                                      0.95,
                                      "interval " << i << " of direction " << d << " at line rate");
                NS_TEST_ASSERT_MSG_LT_OR_EQ(series[i].utilisation, 1.0, "busy share <= 1");
            }
            NS_TEST_ASSERT_MSG_EQ(series[49].bytes, 0u, "idle at the end");
            NS_TEST_ASSERT_MSG_GT(links->GetSummary(d).bytes, 4000000u, "payload and headers");
        }
        // The links of p0-t0-2 carry nothing at all.
        const uint32_t idle = LinkId(*b.topo, "p0-t0-2", "p0-t1-0");
        for (MrcLinkDirection dir : {MrcLinkDirection::UP, MrcLinkDirection::DOWN})
        {
            const MrcLinkMonitor::Summary s = links->GetSummary(*links->FindDirection(idle, dir));
            NS_TEST_ASSERT_MSG_EQ(s.bytes, 0u, "idle link: no byte");
            NS_TEST_ASSERT_MSG_EQ(s.peakUtilisation, 0.0, "idle link: never busy");
            NS_TEST_ASSERT_MSG_EQ(s.peakQueueBytes, 0u, "idle link: no queue");
        }
        // Every direction: frame bytes = queue disc bytes + 2-byte PPP header per packet, and
        // the busy time is those bytes at the link rate, up to ns-3's rounding of each frame's
        // transmission time to the time resolution (1 ns).
        for (uint32_t d = 0; d < links->GetDirectionCount(); ++d)
        {
            const MrcLinkMonitor::DirectionInfo& info = links->GetDirectionInfo(d);
            Ptr<QueueDisc> q =
                info.from->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(info.device);
            const QueueDisc::Stats& st = q->GetStats();
            const MrcLinkMonitor::Summary s = links->GetSummary(d);
            NS_TEST_ASSERT_MSG_EQ(s.bytes,
                                  st.nTotalSentBytes + 2 * st.nTotalSentPackets,
                                  "direction " << d << ": bytes as sent by the queue disc");
            const double busy = s.meanUtilisation * 1000e-6;
            const double expected = s.bytes * 8 / 100e9;
            NS_TEST_ASSERT_MSG_EQ_TOL(busy,
                                      expected,
                                      st.nTotalSentPackets * 1e-9 + 1e-12,
                                      "direction " << d << ": busy time = bytes at line rate");
        }
        std::ostringstream series;
        links->WriteSeriesCsv(series);
        std::istringstream lines(series.str());
        std::string header;
        std::getline(lines, header);
        NS_TEST_ASSERT_MSG_EQ(header,
                              "interval,start_us,end_us,dir_index,link,tier,plane,direction,from,"
                              "to,bytes,utilisation,rate_gbps,queue_bytes,peak_queue_bytes",
                              "series header");
        uint32_t rows = 0;
        for (std::string line; std::getline(lines, line);)
        {
            rows++;
        }
        NS_TEST_ASSERT_MSG_EQ(rows, 50u * 6u, "one row per interval and direction");
    }
};

/**
 * \ingroup mrc-test
 * Sampling alone: interval bounds, a last interval cut at stop, no event after stop, Finish(),
 * and the parameter checks.
 */
class LinkMonitorSamplingTestCase : public TestCase
{
  public:
    LinkMonitorSamplingTestCase()
        : TestCase(
            "MrcLinkMonitor: interval bounds, last interval cut at stop, nothing after stop, "
            "Finish() cuts the open interval, invalid parameters refused")
    {
    }

  private:
    /// How an idle run ended.
    struct End
    {
        uint64_t events{0};    //!< events executed
        uint32_t intervals{0}; //!< intervals closed
    };

    /**
     * Run an idle fabric to 300 us.
     * \param monitor with an MrcLinkMonitor over [10 us, 105 us], Interval 10 us
     * \return how it ended
     */
    static End RunIdle(bool monitor)
    {
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2), true);
        // Fixed streams: both runs draw the same router solicitation times, whatever was
        // created before them in the process.
        MrcClosTopologyHelper::AssignStreams(b.topo, 0);
        Ptr<MrcLinkMonitor> links = CreateObject<MrcLinkMonitor>();
        links->SetAttribute("Interval", TimeValue(MicroSeconds(10)));
        if (monitor)
        {
            links->Install(b.topo, MicroSeconds(10), MicroSeconds(105));
        }
        Simulator::Stop(MicroSeconds(300));
        Simulator::Run();
        return End{Simulator::GetEventCount(), links->GetIntervalCount()};
    }

    void DoRun() override
    {
        // Without and with a monitor: 1 + 10 more events (start and samples), none after stop.
        // (Run to a fixed time: an idle fabric's hosts still send router solicitations at
        // random times for a few milliseconds.)
        const End bare = RunIdle(false);
        const End watched = RunIdle(true);
        NS_TEST_ASSERT_MSG_EQ(watched.events, bare.events + 11, "start and 10 samples, no more");
        NS_TEST_ASSERT_MSG_EQ(watched.intervals, 10u, "ceil(95 us / 10 us)");

        // Finish() mid-interval: the open interval is cut there and nothing follows it.
        std::vector<Time> ends = FinishAt(MicroSeconds(47));
        NS_TEST_ASSERT_MSG_EQ(ends.size(), 4u, "[10,20) [20,30) [30,40) [40,47)");
        NS_TEST_ASSERT_MSG_EQ(ends.back(), MicroSeconds(47), "cut at Finish");
        // At a boundary: no interval of zero width.
        ends = FinishAt(MicroSeconds(40));
        NS_TEST_ASSERT_MSG_EQ(ends.size(), 3u, "the interval closed at 40 us is the last");
        NS_TEST_ASSERT_MSG_EQ(ends.back(), MicroSeconds(40), "last end at Finish");
        // Before start: no interval at all.
        NS_TEST_ASSERT_MSG_EQ(FinishAt(MicroSeconds(5)).size(), 0u, "start cancelled");
        // After stop: the run's intervals, unchanged.
        ends = FinishAt(MicroSeconds(200));
        NS_TEST_ASSERT_MSG_EQ(ends.size(), 10u, "as without Finish");
        NS_TEST_ASSERT_MSG_EQ(ends.back(), MicroSeconds(105), "cut at stop, not at Finish");

        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2), true);
        Ptr<MrcLinkMonitor> links = CreateObject<MrcLinkMonitor>();
        const std::string zero = Refusal([&] {
            links->SetAttribute("Interval", TimeValue(Time(0)));
        });
        NS_TEST_ASSERT_MSG_NE(zero.find("attribute Interval must be > 0"),
                              std::string::npos,
                              "Interval 0 refused, naming the attribute and range: " << zero);
        NS_TEST_ASSERT_MSG_EQ(links->GetInterval(), MicroSeconds(100), "default kept");
        links->SetAttribute("Interval", TimeValue(MicroSeconds(10)));
        links->SetAttribute("IncludeHostLinks", BooleanValue(true));
        NS_TEST_ASSERT_MSG_NE(Refusal([&] {
                                  links->Install(b.topo, MicroSeconds(10), MicroSeconds(10));
                              }),
                              "",
                              "stop <= start refused");
        links->Install(b.topo, MicroSeconds(10), MicroSeconds(105));
        // 4 host links + 4 T0-T1 links, both directions.
        NS_TEST_ASSERT_MSG_EQ(links->GetDirectionCount(), 16u, "host links included");
        NS_TEST_ASSERT_MSG_NE(Refusal([&] {
                                  links->SetAttribute("Interval", TimeValue(MicroSeconds(5)));
                              }),
                              "",
                              "Interval fixed by Install");
        Simulator::Stop(MicroSeconds(300));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(links->GetIntervalCount(), 10u, "no interval after stop");
        const auto& s = links->GetSeries(0);
        NS_TEST_ASSERT_MSG_EQ(s.front().start, MicroSeconds(10), "first interval at start");
        NS_TEST_ASSERT_MSG_EQ(s[3].end, MicroSeconds(50), "start + k x Interval");
        NS_TEST_ASSERT_MSG_EQ(s.back().start, MicroSeconds(100), "last interval");
        NS_TEST_ASSERT_MSG_EQ(s.back().end, MicroSeconds(105), "cut at stop");
        NS_TEST_ASSERT_MSG_EQ(s.back().rate, DataRate("100Gbps"), "rate of the device");
        NS_TEST_ASSERT_MSG_EQ(links->GetBalance(MrcLinkTier::T0_T1, MrcLinkDirection::BOTH),
                              0.0,
                              "no traffic: balance 0");
    }

    /**
     * Run an idle fabric to 300 us with a monitor over [10 us, 105 us] (Interval 10 us) that
     * Finish() ends at `finish`, then call Finish() once more after the run.
     * \param finish when
     * \return the ends of the closed intervals of the first direction
     */
    static std::vector<Time> FinishAt(Time finish)
    {
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 2), true);
        Ptr<MrcLinkMonitor> links = CreateObject<MrcLinkMonitor>();
        links->SetAttribute("Interval", TimeValue(MicroSeconds(10)));
        links->Install(b.topo, MicroSeconds(10), MicroSeconds(105));
        Simulator::Schedule(finish, &MrcLinkMonitor::Finish, links);
        Simulator::Stop(MicroSeconds(300));
        Simulator::Run();
        links->Finish(); // a second time: nothing
        std::vector<Time> ends;
        if (links->GetIntervalCount() > 0)
        {
            for (const MrcLinkMonitor::Sample& s : links->GetSeries(0))
            {
                ends.push_back(s.end);
            }
        }
        return ends;
    }
};

/**
 * \ingroup mrc-test
 * 7-to-1 incast over trimming switches: the receiver's last hop queues, and the drop monitor's
 * trims are exactly the queue discs' own counts, at the receiver's T0.
 */
class IncastMetricsTestCase : public TestCase
{
  public:
    IncastMetricsTestCase()
        : TestCase("incast: the last hop queues; trims, ECN marks and drops counted as the queue "
                   "discs count them")
    {
    }

  private:
    void DoRun() override
    {
        Bench b(MrcClosSpec::TwoTier(1, 2, 8, 2), true);
        Ptr<MrcLinkMonitor> links = CreateObject<MrcLinkMonitor>();
        links->SetAttribute("IncludeHostLinks", BooleanValue(true));
        links->SetAttribute("Interval", TimeValue(MicroSeconds(50)));
        links->Install(b.topo, Time(0), MicroSeconds(500));
        Ptr<MrcFabricDropMonitor> drops = CreateObject<MrcFabricDropMonitor>();
        drops->Install(b.topo);
        for (uint32_t s = 1; s < 8; ++s)
        {
            b.Connect(s, 0).first->PostWrite(256 * 1024);
        }
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        uint32_t completed = 0;
        for (const auto& [msn, n] : b.completed)
        {
            completed += n;
        }
        NS_TEST_ASSERT_MSG_EQ(completed, 7u, "every write completed");

        const uint32_t lastHop =
            *links->FindDirection(LinkId(*b.topo, "host-0", "p0-t0-0"), MrcLinkDirection::DOWN);
        NS_TEST_ASSERT_MSG_GT(links->GetSummary(lastHop).peakQueueBytes,
                              100000u,
                              "the receiver's port queues");
        NS_TEST_ASSERT_MSG_GT(links->GetSummary(lastHop).peakUtilisation,
                              0.99,
                              "and runs at line rate");

        const uint64_t trims = MrcFabricQueueStats::Sum(AllNodes(*b.topo)).trimmedPackets;
        NS_TEST_ASSERT_MSG_GT(trims, 0u, "the incast trims");
        NS_TEST_ASSERT_MSG_EQ(drops->GetTotal(MrcFabricDropKind::TRIM),
                              trims,
                              "every trim counted");
        for (const MrcFabricDropMonitor::Row& r : drops->GetRows())
        {
            if (r.kind == MrcFabricDropKind::TRIM)
            {
                NS_TEST_ASSERT_MSG_EQ(r.name, "p0-t0-0", "trims at the receiver's T0");
                NS_TEST_ASSERT_MSG_EQ(r.reason, "arrival", "no victim trimming by default");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(drops->GetTotal(MrcFabricDropKind::LINK_LOSS), 0u, "no link fault");
        std::ostringstream csv;
        drops->WriteCsv(csv);
        std::ostringstream row;
        row << "p0-t0-0,T0,0,0,trim,arrival," << trims << "\n";
        NS_TEST_ASSERT_MSG_EQ(csv.str().rfind("node,tier,plane,index,kind,reason,count\n", 0),
                              0u,
                              "header first");
        NS_TEST_ASSERT_MSG_NE(csv.str().find(row.str()), std::string::npos, "trim row");
        Simulator::Destroy();
        Names::Clear();

        // RoCEv2 switches (ECN marking, drop when full): 7-to-1 incast over ECMP.
        MrcClosTopologyHelper helper;
        helper.SetEcnQueues();
        Ptr<MrcFabricTopology> topo = helper.Build(MrcClosSpec::TwoTier(1, 2, 4, 2));
        MrcDataPlaneHelper dataPlane;
        dataPlane.SetDataPlane(MrcDataPlane::ECMP);
        dataPlane.Install(topo);
        MrcHelper mrc(topo, dataPlane);
        mrc.SetRoceV2Baseline();
        mrc.Install();
        drops = CreateObject<MrcFabricDropMonitor>();
        drops->Install(topo);
        for (uint32_t s = 1; s < 8; ++s)
        {
            mrc.Connect(s, 0).first->PostWrite(256 * 1024);
        }
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        uint64_t marks = 0;
        uint64_t dropped = 0;
        NodeContainer all = AllNodes(*topo);
        for (auto it = all.Begin(); it != all.End(); ++it)
        {
            Ptr<TrafficControlLayer> tc = (*it)->GetObject<TrafficControlLayer>();
            for (uint32_t d = 0; d < (*it)->GetNDevices(); ++d)
            {
                if (auto q = tc->GetRootQueueDiscOnDevice((*it)->GetDevice(d)))
                {
                    marks += q->GetStats().GetNMarkedPackets(MrcTrimmingQueueDisc::kMarkEcn);
                    dropped += q->GetStats().nTotalDroppedPackets;
                }
            }
        }
        NS_TEST_ASSERT_MSG_GT(marks, 0u, "DCQCN's switches mark");
        NS_TEST_ASSERT_MSG_EQ(
            drops->GetTotal(MrcFabricDropKind::ECN_MARK, MrcTrimmingQueueDisc::kMarkEcn),
            marks,
            "every mark counted under its reason");
        NS_TEST_ASSERT_MSG_EQ(drops->GetTotal(MrcFabricDropKind::ECN_MARK), marks, "and no other");
        NS_TEST_ASSERT_MSG_EQ(drops->GetTotal(MrcFabricDropKind::QUEUE_DROP),
                              dropped,
                              "every queue drop counted");
        NS_TEST_ASSERT_MSG_EQ(drops->GetTotal(MrcFabricDropKind::TRIM), 0u, "no trimming");
        Simulator::Destroy();
        Names::Clear();
    }
};

/**
 * \ingroup mrc-test
 * Link faults and routing drops are counted under their causes, at the node that saw them.
 */
class FaultMetricsTestCase : public TestCase
{
  public:
    FaultMetricsTestCase()
        : TestCase("drops: a black hole's losses under `blackhole` at the receiving node; ECMP "
                   "routing drops under NO_ROUTE")
    {
    }

  private:
    void DoRun() override
    {
        {
            Bench b(MrcClosSpec::TwoTier(1, 2, 1, 2, 2), true);
            Ptr<MrcFabricDropMonitor> drops = CreateObject<MrcFabricDropMonitor>();
            drops->Install(b.topo);
            Ptr<MrcFailureHelper> failures = CreateObject<MrcFailureHelper>(b.topo);
            const uint32_t link = failures->FindLink("p0-t0-0", "p0-t1-0");
            failures->Blackhole(MicroSeconds(20), link, MrcLinkDirection::UP);
            b.Connect(0, 1).first->PostWrite(2000000);
            Simulator::Stop(MilliSeconds(5));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(b.completed.size(), 1u, "MRC routes around the black hole");
            const uint64_t lost = failures->GetLinkLostPackets(link, MrcFabricLossCause::BLACKHOLE);
            NS_TEST_ASSERT_MSG_GT(lost, 0u, "the black hole swallowed packets");
            NS_TEST_ASSERT_MSG_EQ(drops->GetTotal(MrcFabricDropKind::LINK_LOSS, "blackhole"),
                                  lost,
                                  "every loss counted under its cause");
            NS_TEST_ASSERT_MSG_EQ(drops->GetTotal(MrcFabricDropKind::LINK_LOSS),
                                  lost,
                                  "and under no other");
            const auto rows = drops->GetRows(Names::Find<Node>("p0-t1-0"));
            bool found = false;
            for (const auto& r : rows)
            {
                found = found || (r.kind == MrcFabricDropKind::LINK_LOSS && r.count == lost);
            }
            NS_TEST_ASSERT_MSG_EQ(found, true, "at the receiving end, the T1");
        }
        {
            Bench b(MrcClosSpec::TwoTier(1, 2, 1, 1), false, MrcDataPlane::ECMP);
            b.mrc->SetRoceV2Baseline();
            Ptr<MrcFabricDropMonitor> drops = CreateObject<MrcFabricDropMonitor>();
            drops->Install(b.topo);
            Ptr<MrcIpv6EcmpRouting> routing = WithdrawOnlyUplink(*b.topo);
            b.Connect(0, 1).first->PostWrite(100000);
            Simulator::Stop(MicroSeconds(300));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_GT(routing->GetDroppedPackets(), 0u, "packets without a route");
            NS_TEST_ASSERT_MSG_EQ(drops->GetTotal(MrcFabricDropKind::ROUTING_DROP, "NO_ROUTE"),
                                  routing->GetDroppedPackets(),
                                  "routing drops counted under NO_ROUTE");
            for (const auto& r : drops->GetRows())
            {
                NS_TEST_ASSERT_MSG_EQ(r.name, "p0-t0-0", "only at the T0");
            }
        }
    }
};

/**
 * \ingroup mrc-test
 * The merges MrcDistributed uses on MPI ranks, in one process: a run's drop rows exported,
 * split as two ranks would hold them (alternate nodes) and imported in the wrong order give
 * the same drops.csv; the link samples split by direction between two "ranks" (zero where a
 * rank does not transmit) and summed give the same links.csv; fewer intervals keep fewer
 * samples; malformed rows and sizes that do not fit are refused.
 */
class MonitorMergeTestCase : public TestCase
{
  public:
    MonitorMergeTestCase()
        : TestCase("monitors: drop rows and link samples merged as from two ranks")
    {
    }

  private:
    void DoRun() override
    {
        Bench b(MrcClosSpec::TwoTier(1, 2, 1, 2, 2), true);
        Ptr<MrcFabricDropMonitor> drops = CreateObject<MrcFabricDropMonitor>();
        drops->Install(b.topo);
        Ptr<MrcLinkMonitor> links = CreateObject<MrcLinkMonitor>();
        links->SetAttribute("Interval", TimeValue(MicroSeconds(20)));
        links->Install(b.topo, Time(0), MicroSeconds(400));
        Ptr<MrcFailureHelper> failures = CreateObject<MrcFailureHelper>(b.topo);
        failures->Blackhole(MicroSeconds(20),
                            failures->FindLink("p0-t0-0", "p0-t1-0"),
                            MrcLinkDirection::UP);
        failures->Blackhole(MicroSeconds(30),
                            failures->FindLink("p0-t0-1", "p0-t1-1"),
                            MrcLinkDirection::DOWN);
        b.Connect(0, 1).first->PostWrite(2000000);
        b.Connect(1, 0).first->PostWrite(1000000);
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();

        std::ostringstream before;
        drops->WriteCsv(before);
        NS_TEST_ASSERT_MSG_GT(drops->GetRows().size(), 1u, "rows at more than one node");
        std::string even;
        std::string odd;
        std::istringstream lines(drops->ExportRows());
        for (std::string line; std::getline(lines, line);)
        {
            const uint32_t slot = std::stoul(line.substr(0, line.find('\t')));
            (slot % 2 == 0 ? even : odd) += line + "\n";
        }
        NS_TEST_ASSERT_MSG_EQ((!even.empty() && !odd.empty()), true, "both halves have rows");
        drops->ImportRows({even, odd}); // the T1 (slot 4) before the T0 (slot 3): sorted back
        std::ostringstream after;
        drops->WriteCsv(after);
        NS_TEST_EXPECT_MSG_EQ(after.str(), before.str(), "drops.csv from the two halves");
        bool refused = false;
        try
        {
            drops->ImportRows({"0\t9\tx\t1\n"});
        }
        catch (const std::invalid_argument& e)
        {
            refused = std::string(e.what()).find("kind 0..4") != std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "an unknown kind is refused, naming the range");

        const uint32_t n = links->GetIntervalCount();
        NS_TEST_ASSERT_MSG_EQ(n, 20u, "400 us of 20 us intervals");
        std::ostringstream series;
        links->WriteSeriesCsv(series);
        std::vector<uint64_t> counts = links->ExportCounts(n);
        std::vector<double> util = links->ExportUtilisation(n);
        uint64_t bytes = 0;
        for (size_t k = 0; k < util.size(); ++k)
        {
            bytes += counts[3 * k];
        }
        NS_TEST_ASSERT_MSG_GT(bytes, 1000000u, "the links carried the writes");
        // Two ranks: directions split alternately, each zero where the other transmits.
        const size_t perDirection = n;
        std::vector<uint64_t> sumCounts(counts.size(), 0);
        std::vector<double> sumUtil(util.size(), 0.0);
        for (uint32_t rank = 0; rank < 2; ++rank)
        {
            for (size_t k = 0; k < util.size(); ++k)
            {
                const bool mine = (k / perDirection) % 2 == rank;
                for (size_t j = 0; j < 3; ++j)
                {
                    sumCounts[3 * k + j] += mine ? counts[3 * k + j] : 0;
                }
                sumUtil[k] += mine ? util[k] : 0.0;
            }
        }
        links->ImportSamples(n, sumCounts, sumUtil);
        std::ostringstream merged;
        links->WriteSeriesCsv(merged);
        NS_TEST_EXPECT_MSG_EQ(merged.str(), series.str(), "links.csv from the two halves");
        bool badSize = false;
        try
        {
            links->ImportSamples(n, std::vector<uint64_t>(3, 0), sumUtil);
        }
        catch (const std::invalid_argument&)
        {
            badSize = true;
        }
        NS_TEST_EXPECT_MSG_EQ(badSize, true, "counts of the wrong size are refused");
        links->ImportSamples(n - 1, links->ExportCounts(n - 1), links->ExportUtilisation(n - 1));
        NS_TEST_EXPECT_MSG_EQ(links->GetIntervalCount(), n - 1, "fewer intervals kept");
        NS_TEST_EXPECT_MSG_EQ(links->GetSeries(0).size(), size_t(n - 1), "and fewer samples");
    }
};

/**
 * \ingroup mrc-test
 * Spraying balances the uplinks; one path per flow does not. Same seed, same files.
 */
class BalanceTestCase : public TestCase
{
  public:
    BalanceTestCase()
        : TestCase("balance: MRC spraying near 1, single-path RoCEv2 >= 2 on 4 uplinks with 2 "
                   "flows per T0; identical CSV files for the same seed")
    {
    }

  private:
    /// What one run wrote.
    struct Output
    {
        double balanceUp{0};   //!< T0-T1 up
        double balanceDown{0}; //!< T0-T1 down
        std::string series;    //!< WriteSeriesCsv
        std::string summary;   //!< WriteSummaryCsv
        std::string balance;   //!< WriteBalanceCsv
        std::string drops;     //!< MrcFabricDropMonitor::WriteCsv
    };

    /**
     * \param roce single-path RoCEv2 over ECMP (else MRC over SRv6)
     * \return the run's output
     */
    static Output Run(bool roce)
    {
        RngSeedManager::SetSeed(3);
        RngSeedManager::SetRun(1);
        // 2 T0 of 2 hosts, 4 T1: each T0 sends 2 flows to the other over 4 uplinks.
        Bench b(MrcClosSpec::TwoTier(1, 2, 2, 4, 4),
                !roce,
                roce ? MrcDataPlane::ECMP : MrcDataPlane::SRV6);
        if (roce)
        {
            b.mrc->SetRoceV2Baseline();
        }
        // Fixed RNG streams: ns-3 numbers automatic streams on from the previous run.
        b.mrc->SetStream(7);
        b.mrc->SetInitialPsn(0);
        int64_t stream = 100;
        NodeContainer all = AllNodes(*b.topo);
        for (auto it = all.Begin(); it != all.End(); ++it)
        {
            // Hosts send router solicitations at random times on their NIC ports.
            stream += (*it)->GetObject<Icmpv6L4Protocol>()->AssignStreams(stream);
            Ptr<TrafficControlLayer> tc = (*it)->GetObject<TrafficControlLayer>();
            for (uint32_t d = 0; d < (*it)->GetNDevices(); ++d)
            {
                auto q = DynamicCast<MrcTrimmingQueueDisc>(
                    tc->GetRootQueueDiscOnDevice((*it)->GetDevice(d)));
                stream += q ? q->AssignStreams(stream) : 0;
            }
        }
        Ptr<MrcLinkMonitor> links = CreateObject<MrcLinkMonitor>();
        links->SetAttribute("Interval", TimeValue(MicroSeconds(50)));
        links->Install(b.topo, Time(0), MicroSeconds(400));
        Ptr<MrcFabricDropMonitor> drops = CreateObject<MrcFabricDropMonitor>();
        drops->Install(b.topo);
        for (uint32_t h = 0; h < 4; ++h)
        {
            auto [qa, qb] = b.Connect(h, (h + 2) % 4);
            stream += qa->AssignStreams(stream);
            stream += qb->AssignStreams(stream);
            qa->PostWrite(1000000);
        }
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        Output out;
        out.balanceUp = links->GetBalance(MrcLinkTier::T0_T1, MrcLinkDirection::UP);
        out.balanceDown = links->GetBalance(MrcLinkTier::T0_T1, MrcLinkDirection::DOWN);
        std::ostringstream s1;
        std::ostringstream s2;
        std::ostringstream s3;
        std::ostringstream s4;
        links->WriteSeriesCsv(s1);
        links->WriteSummaryCsv(s2);
        links->WriteBalanceCsv(s3);
        drops->WriteCsv(s4);
        out.series = s1.str();
        out.summary = s2.str();
        out.balance = s3.str();
        out.drops = s4.str();
        return out;
    }

    void DoRun() override
    {
        const Output mrc = Run(false);
        const Output roce = Run(true);
        NS_TEST_ASSERT_MSG_LT(mrc.balanceUp, 1.1, "MRC sprays evenly over the uplinks");
        NS_TEST_ASSERT_MSG_LT(mrc.balanceDown, 1.1, "and the downlinks");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(mrc.balanceUp, 1.0, "max/mean >= 1");
        NS_TEST_ASSERT_MSG_GT(roce.balanceUp, 1.9, "single path: 2 of 4 uplinks at most");
        NS_TEST_ASSERT_MSG_GT(roce.balanceUp, mrc.balanceUp, "RoCEv2 less balanced than MRC");

        const Output again = Run(false);
        NS_TEST_ASSERT_MSG_EQ((again.series == mrc.series), true, "series CSV identical");
        NS_TEST_ASSERT_MSG_EQ((again.summary == mrc.summary), true, "summary CSV identical");
        NS_TEST_ASSERT_MSG_EQ((again.balance == mrc.balance), true, "balance CSV identical");
        NS_TEST_ASSERT_MSG_EQ((again.drops == mrc.drops), true, "drop CSV identical");
        NS_TEST_ASSERT_MSG_GT(mrc.series.size(), 1000u, "a real series");
    }
};

/**
 * \ingroup mrc-test
 * The metric collectors' suite.
 */
class MrcMetricsTestSuite : public TestSuite
{
  public:
    MrcMetricsTestSuite()
        : TestSuite("mrc-metrics", Type::UNIT)
    {
        AddTestCase(new LinkMonitorUtilisationTestCase);
        AddTestCase(new LinkMonitorSamplingTestCase);
        AddTestCase(new IncastMetricsTestCase);
        AddTestCase(new FaultMetricsTestCase);
        AddTestCase(new BalanceTestCase);
        AddTestCase(new MonitorMergeTestCase);
    }
};

/// The suite's single instance.
static MrcMetricsTestSuite g_mrcMetricsTestSuite;
