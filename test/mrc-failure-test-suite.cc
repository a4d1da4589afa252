/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Failure injection on the data path of a fabric: black holes, carrier loss (queued, sent and
 * in-flight packets), gray loss statistics and determinism, flaps, degraded rates. Packets are
 * numbered UDP datagrams on a single-path fabric, host-0 - p0-t0-0 - p0-t1-0 - p0-t0-1 - host-1,
 * counted at the receiver and in the loss counters.
 */

#include "mrc-failure-test-bed.h"
#include "mrc-test-bench.h"

#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/pointer.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

using namespace ns3;
using namespace ns3::mrctest;

/**
 * \ingroup mrc-test
 * A black-holed link keeps its carrier and loses exactly the datagrams that cross it in the
 * black-holed direction, counted as BLACKHOLE; a receive error model the device had before is
 * still consulted behind the fault model.
 */
class FailureBlackholeTestCase : public TestCase
{
  public:
    FailureBlackholeTestCase()
        : TestCase("black hole: carrier up, exactly the crossing datagrams lost and counted")
    {
    }

  private:
    void DoRun() override
    {
        FlowBed bed;
        const uint32_t link = bed.failures->FindLink("p0-t0-0", "p0-t1-0");
        for (uint32_t end : {0u, 1u})
        {
            bed.Device(link, end)->AddLinkChangeCallback(
                MakeCallback(&FlowBed::OnLinkChange, &bed));
        }
        // The user's own model on the upper end: disabled now, enabled at 500 us.
        Ptr<RateErrorModel> own = CreateObject<RateErrorModel>();
        own->SetAttribute("ErrorRate", DoubleValue(1.0));
        own->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        own->Disable();
        bed.Device(link, 1)->SetAttribute("ReceiveErrorModel", PointerValue(own));
        Simulator::Schedule(MicroSeconds(500), &RateErrorModel::Enable, own);

        bed.failures->Blackhole(MicroSeconds(140), link, MrcLinkDirection::UP, MicroSeconds(160));
        const uint32_t before = Burst(bed, MicroSeconds(10), 100);
        const uint32_t during = Burst(bed, MicroSeconds(150), 100);
        const uint32_t reverse = Burst(bed, MicroSeconds(150), 50, 1, 0); // downwards: unharmed
        const uint32_t after = Burst(bed, MicroSeconds(400), 50);
        const uint32_t late = Burst(bed, MicroSeconds(600), 10); // the user's model drops these
        bool carrier = false;
        Simulator::Schedule(MicroSeconds(200), [&]() {
            carrier = bed.Device(link, 0)->IsLinkUp() && bed.Device(link, 1)->IsLinkUp();
        });
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(carrier, true, "carrier stays up while black-holed");
        NS_TEST_ASSERT_MSG_EQ(bed.linkChanges, 0u, "no link-change notification");
        NS_TEST_ASSERT_MSG_EQ(bed.Arrived(before, 100), 100u, "before: all arrive");
        NS_TEST_ASSERT_MSG_EQ(bed.Arrived(during, 100), 0u, "during: all vanish");
        NS_TEST_ASSERT_MSG_EQ(bed.Arrived(reverse, 50), 50u, "other direction unharmed");
        NS_TEST_ASSERT_MSG_EQ(bed.Arrived(after, 50), 50u, "after: all arrive");
        NS_TEST_ASSERT_MSG_EQ(bed.Arrived(late, 10), 0u, "the chained model still drops");
        NS_TEST_ASSERT_MSG_EQ(bed.failures->GetLinkLostPackets(link, MrcFabricLossCause::BLACKHOLE),
                              100u,
                              "black-hole losses counted on the link");
        NS_TEST_ASSERT_MSG_EQ(bed.failures->GetLostPackets(MrcFabricLossCause::BLACKHOLE),
                              100u,
                              "and nowhere else");
        uint64_t other = 0;
        for (auto c : {MrcFabricLossCause::LINK_DOWN,
                       MrcFabricLossCause::IN_FLIGHT,
                       MrcFabricLossCause::RANDOM_LOSS})
        {
            other += bed.failures->GetLostPackets(c);
        }
        NS_TEST_ASSERT_MSG_EQ(other, 0u, "no other cause (the user's drops are not counted)");
        const auto& log = bed.failures->GetLog().GetEntries();
        NS_TEST_ASSERT_MSG_EQ(log.size(), 2u, "start and end logged");
        NS_TEST_ASSERT_MSG_EQ(log[0].time, MicroSeconds(140), "start time");
        NS_TEST_ASSERT_MSG_EQ(log[0].target, "link p0-t0-0 p0-t1-0", "target");
        NS_TEST_ASSERT_MSG_EQ(log[0].parameters, "direction=up", "parameters");
        NS_TEST_ASSERT_MSG_EQ(log[1].kind, "blackhole-end", "end kind");
        NS_TEST_ASSERT_MSG_EQ(log[1].time, MicroSeconds(300), "end time");
        NS_TEST_ASSERT_MSG_EQ(log[1].parameters, "direction=up by=duration", "implied end");
    }
};

/**
 * \ingroup mrc-test
 * Link down: link-change callbacks on both ends, IsLinkUp() false, datagrams sent into the link
 * lost as LINK_DOWN; up restores. A datagram on the wire when the link falls is lost even if
 * the link is back before it arrives (IN_FLIGHT).
 */
class FailureLinkDownTestCase : public TestCase
{
  public:
    FailureLinkDownTestCase()
        : TestCase("link down and up: notifications, carrier, queued, sent and in-flight losses")
    {
    }

  private:
    void DoRun() override
    {
        FlowBed bed;
        const uint32_t link = bed.failures->FindLink("p0-t1-0", "p0-t0-0");
        uint32_t lowerChanges = 0;
        uint32_t upperChanges = 0;
        bed.Device(link, 0)->AddLinkChangeCallback(
            MakeBoundCallback(&FailureLinkDownTestCase::Count, &lowerChanges));
        bed.Device(link, 1)->AddLinkChangeCallback(
            MakeBoundCallback(&FailureLinkDownTestCase::Count, &upperChanges));
        bed.failures->LinkDown(MicroSeconds(100), link, MicroSeconds(100));
        const uint32_t before = Burst(bed, MicroSeconds(10), 50);
        const uint32_t during = Burst(bed, MicroSeconds(120), 50);
        const uint32_t after = Burst(bed, MicroSeconds(250), 20);
        std::vector<bool> upAt150;
        std::vector<uint32_t> changesAt150;
        Simulator::Schedule(MicroSeconds(150), [&]() {
            upAt150 = {bed.Device(link, 0)->IsLinkUp(), bed.Device(link, 1)->IsLinkUp()};
            changesAt150 = {lowerChanges, upperChanges};
        });
        // In flight: sent at 300 us, on the T0 -> T1 wire from about 301.01 us to 302.02 us.
        // The link flaps down at 301.2 us and up at 301.3 us, before it arrives.
        const uint32_t flying = bed.SendAt(MicroSeconds(300), 0, 1);
        bed.failures->Flap(NanoSeconds(301200), link, {Time(0), NanoSeconds(100)});
        const uint32_t next = bed.SendAt(MicroSeconds(310), 0, 1);
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ((upAt150 == std::vector<bool>{false, false}),
                              true,
                              "IsLinkUp() false at both ends");
        NS_TEST_ASSERT_MSG_EQ((changesAt150 == std::vector<uint32_t>{1, 1}),
                              true,
                              "one notification at each end when it fell");
        NS_TEST_ASSERT_MSG_EQ(lowerChanges, 4u, "down, up, flap down, flap up (lower end)");
        NS_TEST_ASSERT_MSG_EQ(upperChanges, 4u, "down, up, flap down, flap up (upper end)");
        NS_TEST_ASSERT_MSG_EQ(bed.Device(link, 0)->IsLinkUp(), true, "up again");
        NS_TEST_ASSERT_MSG_EQ(bed.Arrived(before, 50), 50u, "before: all arrive");
        NS_TEST_ASSERT_MSG_EQ(bed.Arrived(during, 50), 0u, "during: none");
        NS_TEST_ASSERT_MSG_EQ(bed.Arrived(after, 20), 20u, "after: all arrive");
        NS_TEST_ASSERT_MSG_EQ(bed.failures->GetLinkLostPackets(link, MrcFabricLossCause::LINK_DOWN),
                              50u,
                              "sent into the down link: counted as LINK_DOWN");
        NS_TEST_ASSERT_MSG_EQ(bed.delay.count(flying), 0u, "the in-flight datagram is lost");
        NS_TEST_ASSERT_MSG_EQ(bed.failures->GetLinkLostPackets(link, MrcFabricLossCause::IN_FLIGHT),
                              1u,
                              "counted as IN_FLIGHT");
        NS_TEST_ASSERT_MSG_EQ(bed.delay.count(next), 1u, "the next one arrives");
        const auto& log = bed.failures->GetLog().GetEntries();
        NS_TEST_ASSERT_MSG_EQ(log.size(), 4u, "down, up, flap down, flap up");
        NS_TEST_ASSERT_MSG_EQ(log[1].time, MicroSeconds(200), "up after the duration");
        NS_TEST_ASSERT_MSG_EQ(log[3].time, NanoSeconds(301300), "flap up");
        NS_TEST_ASSERT_MSG_EQ(log[3].parameters, "by=flap", "flap transitions are marked");
    }

    /// \param n counter
    static void Count(uint32_t* n)
    {
        ++*n;
    }
};

/**
 * \ingroup mrc-test
 * Gray loss at p = 0.05 on one direction: 10,000 datagrams lose a number within 4 sigma of
 * 500, all counted as RANDOM_LOSS; the same stream loses exactly the same datagrams, another
 * stream other ones; the other direction loses nothing.
 */
class FailureGrayLossTestCase : public TestCase
{
  public:
    FailureGrayLossTestCase()
        : TestCase("gray loss: binomial count, counted, deterministic per stream, per direction")
    {
    }

  private:
    /**
     * \param stream the failure helper's first stream
     * \param[out] counted RANDOM_LOSS count
     * \param[out] reverseLost losses in the other direction
     * \return the lost sequence numbers
     */
    std::set<uint32_t> Run(int64_t stream, uint64_t& counted, uint32_t& reverseLost)
    {
        FlowBed bed;
        const uint32_t link = bed.failures->FindLink("p0-t0-0", "p0-t1-0");
        bed.failures->GrayLoss(MicroSeconds(5), link, 0.05, MrcLinkDirection::UP);
        bed.failures->AssignStreams(stream);
        for (uint32_t i = 0; i < 10000; ++i)
        {
            bed.SendAt(MicroSeconds(10) + NanoSeconds(100) * i, 0, 1);
        }
        const uint32_t reverse = bed.sent;
        for (uint32_t i = 0; i < 1000; ++i)
        {
            bed.SendAt(MicroSeconds(10) + NanoSeconds(1000) * i + NanoSeconds(50), 1, 0);
        }
        Simulator::Run();
        std::set<uint32_t> lost;
        for (uint32_t s = 0; s < 10000; ++s)
        {
            if (bed.delay.count(s) == 0)
            {
                lost.insert(s);
            }
        }
        counted = bed.failures->GetLinkLostPackets(link, MrcFabricLossCause::RANDOM_LOSS);
        reverseLost = 1000 - bed.Arrived(reverse, 1000);
        return lost;
    }

    void DoRun() override
    {
        uint64_t counted = 0;
        uint32_t reverseLost = 0;
        const std::set<uint32_t> a = Run(100, counted, reverseLost);
        const double sigma = std::sqrt(10000 * 0.05 * 0.95);
        NS_TEST_ASSERT_MSG_EQ_TOL(double(a.size()), 500.0, 4 * sigma, "binomial(10000, 0.05)");
        NS_TEST_ASSERT_MSG_EQ(counted, a.size(), "every loss counted as RANDOM_LOSS");
        NS_TEST_ASSERT_MSG_EQ(reverseLost, 0u, "the other direction loses nothing");
        const std::set<uint32_t> b = Run(100, counted, reverseLost);
        NS_TEST_ASSERT_MSG_EQ((a == b), true, "same stream: the same datagrams lost");
        const std::set<uint32_t> c = Run(200, counted, reverseLost);
        NS_TEST_ASSERT_MSG_EQ_TOL(double(c.size()), 500.0, 4 * sigma, "binomial, other stream");
        NS_TEST_ASSERT_MSG_NE((a == c), true, "another stream: other datagrams lost");
    }
};

/**
 * \ingroup mrc-test
 * Flaps follow the schedule to the nanosecond: period and duty (with the last cycle cut at the
 * end of the duration), and explicit offsets; the log, the Event trace and the link-change
 * callbacks agree.
 */
class FailureFlapTestCase : public TestCase
{
  public:
    FailureFlapTestCase()
        : TestCase("flaps: transitions at the scheduled times, logged and traced")
    {
    }

  private:
    void DoRun() override
    {
        FlowBed bed;
        const uint32_t a = bed.failures->FindLink("p0-t0-0", "p0-t1-0");
        const uint32_t b = bed.failures->FindLink("p0-t0-1", "p0-t1-0");
        bed.Device(a, 1)->AddLinkChangeCallback(MakeCallback(&FlowBed::OnLinkChange, &bed));
        std::vector<std::string> traced;
        bed.failures->TraceConnectWithoutContext(
            "Event",
            MakeBoundCallback(&FailureFlapTestCase::OnEvent, &traced));
        bed.failures->Flap(MicroSeconds(10), a, MicroSeconds(20), 0.25, MicroSeconds(100));
        bed.failures->Flap(MicroSeconds(200), a, MicroSeconds(20), 0.75, MicroSeconds(90));
        bed.failures->Flap(MicroSeconds(400), b, {Time(0), MicroSeconds(3), MicroSeconds(7)});
        Simulator::Run();

        std::vector<Time> expected;
        for (int k = 0; k < 5; ++k)
        {
            expected.push_back(MicroSeconds(10 + 20 * k));
            expected.push_back(MicroSeconds(15 + 20 * k));
        }
        for (int k = 0; k < 5; ++k)
        {
            expected.push_back(MicroSeconds(200 + 20 * k));
            expected.push_back(MicroSeconds(std::min(215 + 20 * k, 290)));
        }
        expected.insert(expected.end(), {MicroSeconds(400), MicroSeconds(403), MicroSeconds(407)});
        const auto& log = bed.failures->GetLog().GetEntries();
        NS_TEST_ASSERT_MSG_EQ(log.size(), expected.size(), "one entry per transition");
        for (size_t i = 0; i < log.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(log[i].time, expected[i], "transition " << i);
            NS_TEST_ASSERT_MSG_EQ(log[i].kind,
                                  (i % 2 == 0 ? "link-down" : "link-up"),
                                  "alternating, transition " << i);
            NS_TEST_ASSERT_MSG_EQ(traced.at(i),
                                  log[i].kind + "|" + log[i].target + "|" + log[i].parameters,
                                  "the trace saw it");
        }
        NS_TEST_ASSERT_MSG_EQ(log.back().target, "link p0-t0-1 p0-t1-0", "third flap's link");
        NS_TEST_ASSERT_MSG_EQ(bed.linkChanges, 20u, "a notification per transition of link a");
        NS_TEST_ASSERT_MSG_EQ(bed.Device(a, 0)->IsLinkUp(), true, "a ends up");
        NS_TEST_ASSERT_MSG_EQ(bed.Device(b, 0)->IsLinkUp(), false, "odd offsets: b ends down");
    }

    /**
     * \param out traced events
     * \param kind kind
     * \param target target
     * \param parameters parameters
     */
    static void OnEvent(std::vector<std::string>* out,
                        const std::string& kind,
                        const std::string& target,
                        const std::string& parameters)
    {
        out->push_back(kind + "|" + target + "|" + parameters);
    }
};

/**
 * \ingroup mrc-test
 * A degraded rate lengthens a 4050-byte frame's serialization on that link, in that direction
 * only, by exactly the difference of the two rates' transmission times; the rate comes back.
 */
class FailureRateTestCase : public TestCase
{
  public:
    FailureRateTestCase()
        : TestCase("degraded rate: serialization time changes exactly, then is restored")
    {
    }

  private:
    void DoRun() override
    {
        FlowBed bed;
        const uint32_t link = bed.failures->FindLink("p0-t0-0", "p0-t1-0");
        bed.failures->DegradeRate(MicroSeconds(50),
                                  link,
                                  DataRate("10Gbps"),
                                  MrcLinkDirection::UP,
                                  MicroSeconds(100));
        const uint32_t size = 4000; // UDP payload: 4000 + 8 + 40 + 2 (PPP) = 4050 on the wire
        const uint32_t healthy = bed.SendAt(MicroSeconds(10), 0, 1, size);
        const uint32_t slow = bed.SendAt(MicroSeconds(60), 0, 1, size);
        const uint32_t backHealthy = bed.SendAt(MicroSeconds(60), 1, 0, size);
        const uint32_t back = bed.SendAt(MicroSeconds(10), 1, 0, size);
        const uint32_t restored = bed.SendAt(MicroSeconds(200), 0, 1, size);
        Simulator::Run();

        const Time extra = DataRate("10Gbps").CalculateBytesTxTime(4050)
                           - DataRate("100Gbps").CalculateBytesTxTime(4050);
        NS_TEST_ASSERT_MSG_EQ(bed.delay.size(), 5u, "all arrive");
        NS_TEST_ASSERT_MSG_EQ(bed.delay[slow] - bed.delay[healthy],
                              extra,
                              "exactly the slower serialization on one link");
        NS_TEST_ASSERT_MSG_EQ(bed.delay[restored], bed.delay[healthy], "restored");
        NS_TEST_ASSERT_MSG_EQ(bed.delay[backHealthy], bed.delay[back], "other direction as before");
        const auto& log = bed.failures->GetLog().GetEntries();
        NS_TEST_ASSERT_MSG_EQ(log.size(), 2u, "degrade and restore");
        NS_TEST_ASSERT_MSG_EQ(log[0].parameters, "rate=10Gbps direction=up", "new rate");
        NS_TEST_ASSERT_MSG_EQ(log[1].parameters,
                              "rate=100Gbps direction=up by=duration",
                              "the rate given back");
    }
};

/**
 * \ingroup mrc-test
 * A NIC port failure injected by the MrcFailureHelper reaches the MRC transport through the
 * device's link-change callback: the port is marked down in MrcL4Protocol, the queue pair
 * sends nothing on that plane while it is down, uses it again once it is back, and a transfer
 * spanning the outage arrives byte for byte.
 */
class FailurePortDownMrcTestCase : public TestCase
{
  public:
    FailurePortDownMrcTestCase()
        : TestCase("NIC port down: MRC stops using the plane, resumes after, nothing lost")
    {
    }

  private:
    void DoRun() override
    {
        Bench bench(MrcClosSpec::TwoTier(2, 2, 1, 1), true);
        Ptr<MrcFailureHelper> failures = CreateObject<MrcFailureHelper>(bench.topo);
        failures->PortDown(MicroSeconds(20), 0, 1, MicroSeconds(200));
        auto [a, b] = bench.Connect(0, 1);
        std::shared_ptr<std::vector<uint8_t>> region;
        auto expected = PostRandom(a, b, {6000000}, 11, region);

        Ptr<MrcL4Protocol> l4 = MrcHelper::GetL4(bench.topo->GetHost(0));
        std::vector<uint8_t> bitmaps;
        for (Time t : {MicroSeconds(10), MicroSeconds(100), MicroSeconds(300)})
        {
            Simulator::Schedule(t, [&bitmaps, l4]() {
                bitmaps.push_back(l4->GetPortStateBitmap());
            });
        }
        std::map<std::string, uint32_t> sent; // "before", "down", "after" -> frames on plane 1
        bench.topo->GetHostDevice(0, 1)->TraceConnectWithoutContext(
            "MacTx",
            Callback<void, Ptr<const Packet>>([&sent](Ptr<const Packet>) {
                const Time now = Simulator::Now();
                sent[now < MicroSeconds(20)    ? "before"
                     : now < MicroSeconds(220) ? "down"
                                               : "after"]++;
            }));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(bitmaps.size(), 3u, "three samples");
        NS_TEST_ASSERT_MSG_EQ(unsigned(bitmaps[0]), 0u, "both ports up before");
        NS_TEST_ASSERT_MSG_EQ(unsigned(bitmaps[1]), 2u, "plane 1's port down (bit 1)");
        NS_TEST_ASSERT_MSG_EQ(unsigned(bitmaps[2]), 0u, "back up");
        NS_TEST_ASSERT_MSG_GT(sent["before"], 0u, "plane 1 used before the failure");
        NS_TEST_ASSERT_MSG_EQ(sent["down"], 0u, "nothing handed to the failed port");
        NS_TEST_ASSERT_MSG_GT(sent["after"], 0u, "plane 1 used again after recovery");
        NS_TEST_ASSERT_MSG_EQ(bench.errors.size(), 0u, "no QP error");
        NS_TEST_ASSERT_MSG_EQ(bench.delivered.size(), 1u, "delivered once");
        NS_TEST_ASSERT_MSG_EQ((*region == *expected), true, "byte for byte");
    }
};

/**
 * The monitor tests' black hole: both directions of the only uplink (p0-t0-0 to p0-t1-0) of a
 * TwoTier(1, 2, 1, 1) fabric, from 50 to 150 us.
 * \param bench the fabric
 * \return the failure helper that applies it (keep it through the run)
 */
Ptr<MrcFailureHelper>
BlackholeTheUplink(const Bench& bench)
{
    Ptr<MrcFailureHelper> failures = CreateObject<MrcFailureHelper>(bench.topo);
    const uint32_t link = failures->FindLink("p0-t0-0", "p0-t1-0");
    failures->Blackhole(MicroSeconds(50), link, MrcLinkDirection::BOTH, MicroSeconds(100));
    return failures;
}

/**
 * \ingroup mrc-test
 * MrcTransferMonitor on a single-path fabric: a black hole from 50 to 150 us on the only uplink
 * stops the transfer; the monitor's longest stall starts within a few microseconds of the black
 * hole and lasts at least its 100 us but ends once probes have restored the path; the goodput
 * series adds up to the bytes delivered, which are the bytes posted, exactly once.
 */
class FailureMonitorStallTestCase : public TestCase
{
  public:
    FailureMonitorStallTestCase()
        : TestCase("MrcTransferMonitor: stall, goodput series and totals across a black hole")
    {
    }

  private:
    void DoRun() override
    {
        Bench bench(MrcClosSpec::TwoTier(1, 2, 1, 1), true);
        Ptr<MrcFailureHelper> failures = BlackholeTheUplink(bench);
        auto [a, b] = bench.Connect(0, 1);
        Ptr<MrcTransferMonitor> monitor = CreateObject<MrcTransferMonitor>();
        monitor->SetAttribute("Interval", TimeValue(MicroSeconds(10)));
        monitor->AddFlow("h0->h1", a, b);
        std::shared_ptr<std::vector<uint8_t>> region;
        auto expected = PostRandom(a, b, {3000000}, 5, region);
        Simulator::Run();

        const MrcTransferMonitor::FlowSummary s = monitor->GetSummary(0, Simulator::Now());
        NS_TEST_ASSERT_MSG_EQ(s.bytesPosted, 3000000u, "posted");
        NS_TEST_ASSERT_MSG_EQ(s.bytesDelivered, 3000000u, "each byte counted once");
        NS_TEST_ASSERT_MSG_EQ((*region == *expected), true, "byte for byte");
        NS_TEST_ASSERT_MSG_EQ(s.completion.IsPositive(), true, "complete");
        NS_TEST_ASSERT_MSG_EQ(s.failed, false, "no QP failed");
        NS_TEST_ASSERT_MSG_GT(s.retransmissions, 0u, "the black-holed packets were resent");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(s.stallStart, MicroSeconds(45), "stall starts at the hole");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(s.stallStart, MicroSeconds(60), "stall starts at the hole");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(s.longestStall, MicroSeconds(95), "the hole lasts 100 us");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(s.longestStall, MicroSeconds(350), "probes restore the EV");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(s.stalledTime, s.longestStall, "the long gap is stalled time");
        NS_TEST_ASSERT_MSG_LT(s.stalledTime,
                              s.longestStall + MicroSeconds(100),
                              "little stalled time besides the hole");
        NS_TEST_ASSERT_MSG_GT(s.rtxTimeout, 0u, "the loss timer found the black-holed packets");
        NS_TEST_ASSERT_MSG_EQ(s.rtxTrimmed, 0u, "nothing trimmed: one flow, no congestion");
        NS_TEST_ASSERT_MSG_GT(s.evRetirements, 0u, "silent losses retired EVs");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(s.evStateChanges,
                                    2 * s.evRetirements,
                                    "every retired EV came back (probes)");
        uint64_t sum = 0;
        for (uint64_t bytes : monitor->GetSeries(0))
        {
            sum += bytes;
        }
        NS_TEST_ASSERT_MSG_EQ(sum, s.bytesDelivered, "the series adds up");
        const auto& series = monitor->GetSeries(0);
        NS_TEST_ASSERT_MSG_EQ(series.at(10), 0u, "nothing arrives in [100, 110) us");
        NS_TEST_ASSERT_MSG_GT(series.at(3), 100000u, "about line rate before: 125 kB per 10 us");
        std::ostringstream csv;
        monitor->WriteSummaryCsv(csv, Simulator::Now());
        NS_TEST_ASSERT_MSG_EQ(csv.str().rfind("flow,label,bytes_posted,", 0), 0u, "CSV header");
    }
};

/**
 * \ingroup mrc-test
 * MrcTransferMonitor::Replay, as MrcDistributed::GatherTransferMonitor uses it on MPI ranks:
 * the events of a run across a black hole (two flows, one each way), split into what a
 * sender's rank and a receiver's rank would have recorded and joined in the wrong order, give
 * the same flows.csv and goodput.csv as the monitor computed during the run. A replay of half
 * the events does not (the test can fail), and counters of the wrong size are refused.
 */
class FailureMonitorReplayTestCase : public TestCase
{
  public:
    FailureMonitorReplayTestCase()
        : TestCase("MrcTransferMonitor: a replay of the events split by rank gives the same "
                   "results")
    {
    }

  private:
    void DoRun() override
    {
        Bench bench(MrcClosSpec::TwoTier(1, 2, 1, 1), true);
        Ptr<MrcFailureHelper> failures = BlackholeTheUplink(bench);
        auto [a, b] = bench.Connect(0, 1);
        auto [c, d] = bench.Connect(1, 0);
        Ptr<MrcTransferMonitor> monitor = CreateObject<MrcTransferMonitor>();
        monitor->SetAttribute("Interval", TimeValue(MicroSeconds(10)));
        monitor->SetRecording(true);
        monitor->AddFlow("h0->h1", a, b);
        monitor->AddFlow("h1->h0", c, d);
        a->PostWrite(1000000);
        c->PostWrite(300000);
        Simulator::Schedule(MicroSeconds(120), [c = c]() {
            c->PostWrite(500000);
        });
        Simulator::Run();
        const Time end = Simulator::Now();

        auto csv = [&monitor, end]() {
            std::ostringstream os;
            monitor->WriteSummaryCsv(os, end);
            monitor->WriteSeriesCsv(os);
            return os.str();
        };
        const std::string online = csv();
        const MrcTransferMonitor::FlowSummary s = monitor->GetSummary(0, end);
        NS_TEST_ASSERT_MSG_GT(s.longestStall, MicroSeconds(95), "the black hole stalled h0->h1");
        const MrcTransferEventLog log = monitor->GetEventLog();
        NS_TEST_ASSERT_MSG_GT(log.GetSize(), 300u, "a placement per packet, and the rest");

        // What each rank would have recorded: the senders' events and the receivers'.
        MrcTransferEventLog senders;
        MrcTransferEventLog receivers;
        for (const auto& e : log.GetEvents())
        {
            const bool rx = e.kind == MrcTransferEventLog::Kind::PLACED
                            || e.kind == MrcTransferEventLog::Kind::DELIVERED;
            (rx ? receivers : senders).Add(TimeStep(e.time), e.member, e.kind, e.value);
        }
        MrcTransferEventLog joined = MrcTransferEventLog::Deserialize(receivers.Serialize());
        joined.Append(MrcTransferEventLog::Deserialize(senders.Serialize()));
        const std::vector<uint64_t> counters = monitor->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(counters.size(), 2 * MrcTransferMonitor::kCounters, "per flow");
        monitor->Replay(joined);
        monitor->SetCounters(counters);
        const std::string replayed = csv();
        NS_TEST_ASSERT_MSG_EQ(replayed, online, "the replay gives the run's results");

        monitor->Replay(receivers); // nothing posted: nothing due, no stall
        const MrcTransferMonitor::FlowSummary half = monitor->GetSummary(0, end);
        NS_TEST_ASSERT_MSG_EQ(half.longestStall, Time(0), "without the posts there is no stall");
        NS_TEST_ASSERT_MSG_EQ(half.bytesDelivered, s.bytesDelivered, "placements still count");
        bool refused = false;
        try
        {
            monitor->SetCounters(std::vector<uint64_t>(3, 0));
        }
        catch (const std::invalid_argument&)
        {
            refused = true;
        }
        NS_TEST_ASSERT_MSG_EQ(refused, true, "counters of the wrong size are refused");
    }
};

/**
 * \ingroup mrc-test
 * MrcTransferMonitor: an idle queue pair is not stalled. Two 200 kB writes 300 us apart on a
 * healthy fabric: the longest stall is the first packet's latency after a post (a few us), not
 * the idle gap between the messages, and no time counts as stalled.
 */
class FailureMonitorIdleTestCase : public TestCase
{
  public:
    FailureMonitorIdleTestCase()
        : TestCase("MrcTransferMonitor: the idle time between two messages is not a stall")
    {
    }

  private:
    void DoRun() override
    {
        Bench bench(MrcClosSpec::TwoTier(1, 2, 1, 1), true);
        auto [a, b] = bench.Connect(0, 1);
        Ptr<MrcTransferMonitor> monitor = CreateObject<MrcTransferMonitor>();
        monitor->AddFlow("h0->h1", a, b);
        a->PostWrite(200000);
        Simulator::Schedule(MicroSeconds(300), [a = a]() {
            a->PostWrite(200000);
        });
        Simulator::Run();

        const MrcTransferMonitor::FlowSummary s = monitor->GetSummary(0, Simulator::Now());
        NS_TEST_ASSERT_MSG_EQ(s.bytesDelivered, 400000u, "both messages");
        NS_TEST_ASSERT_MSG_GT(s.completion, MicroSeconds(300), "the second one after 300 us");
        NS_TEST_ASSERT_MSG_GT(s.longestStall, Time(0), "first-packet latency counts");
        NS_TEST_ASSERT_MSG_LT(s.longestStall, MicroSeconds(10), "the idle gap does not");
        NS_TEST_ASSERT_MSG_EQ(s.stalledTime, Time(0), "nothing longer than StallThreshold");
        NS_TEST_ASSERT_MSG_EQ(s.retransmissions, 0u, "healthy fabric");
        // flows.csv: the longest gap (the first packet's latency) began at the post at t = 0, and
        // zero stalled time is 0: both were written as -1, "none", when 0 counted as negative.
        std::ostringstream csv;
        monitor->WriteSummaryCsv(csv, Simulator::Now());
        std::string line = csv.str().substr(csv.str().find('\n') + 1);
        std::vector<std::string> f;
        std::stringstream fields(line.substr(0, line.find('\n')));
        for (std::string x; std::getline(fields, x, ',');)
        {
            f.push_back(x);
        }
        NS_TEST_ASSERT_MSG_EQ(f.size(), 21u, "21 columns");
        NS_TEST_ASSERT_MSG_EQ(f.at(9), "0.000", "stall_start_us: at the post");
        NS_TEST_ASSERT_MSG_EQ(f.at(11), "0.000", "stalled_us: zero");
    }
};

/**
 * \param at where to write the time
 * \param msn the message (unused)
 * \param bytes its size (unused)
 */
void
RecordCompletion(Time* at, uint32_t msn, uint64_t bytes)
{
    *at = Simulator::Now();
}

/**
 * \ingroup mrc-test
 * MrcTransferMonitor: a message delivered whole whose acknowledgements are lost is a stall. A
 * 40 kB write while the sender's T0 drops everything coming down from the T1 (its ACKs) for
 * 100 us: every byte arrives within microseconds, the sender completes the message only after
 * the hole; the stall spans the wait (it ended at the last placement before).
 */
class FailureMonitorAckLossTestCase : public TestCase
{
  public:
    FailureMonitorAckLossTestCase()
        : TestCase("MrcTransferMonitor: a delivered message waiting for its ACKs is stalled")
    {
    }

  private:
    void DoRun() override
    {
        Bench bench(MrcClosSpec::TwoTier(1, 2, 1, 1), true);
        Ptr<MrcFailureHelper> failures = CreateObject<MrcFailureHelper>(bench.topo);
        const uint32_t link = failures->FindLink("p0-t0-0", "p0-t1-0");
        failures->Blackhole(Time(0), link, MrcLinkDirection::DOWN, MicroSeconds(100));
        auto [a, b] = bench.Connect(0, 1);
        Ptr<MrcTransferMonitor> monitor = CreateObject<MrcTransferMonitor>();
        monitor->AddFlow("h0->h1", a, b);
        Time completed(-1);
        a->TraceConnectWithoutContext("MessageComplete",
                                      MakeBoundCallback(&RecordCompletion, &completed));
        a->PostWrite(40000);
        Simulator::Run();

        const MrcTransferMonitor::FlowSummary s = monitor->GetSummary(0, Simulator::Now());
        NS_TEST_ASSERT_MSG_EQ(s.bytesDelivered, 40000u, "delivered once");
        NS_TEST_ASSERT_MSG_LT(s.completion, MicroSeconds(20), "delivered whole at once");
        NS_TEST_ASSERT_MSG_GT(completed, MicroSeconds(100), "acknowledged after the hole");
        NS_TEST_ASSERT_MSG_GT(s.longestStall, MicroSeconds(80), "the wait for the ACKs");
        NS_TEST_ASSERT_MSG_LT(s.stallStart, MicroSeconds(20), "from the last placement");
    }
};

/**
 * \ingroup mrc-test
 * The failure injection test suite (data path).
 */
class MrcFailureTestSuite : public TestSuite
{
  public:
    MrcFailureTestSuite()
        : TestSuite("mrc-failure", Type::UNIT)
    {
        AddTestCase(new FailureBlackholeTestCase);
        AddTestCase(new FailureLinkDownTestCase);
        AddTestCase(new FailureGrayLossTestCase);
        AddTestCase(new FailureFlapTestCase);
        AddTestCase(new FailureRateTestCase);
        AddTestCase(new FailurePortDownMrcTestCase);
        AddTestCase(new FailureMonitorStallTestCase);
        AddTestCase(new FailureMonitorIdleTestCase);
        AddTestCase(new FailureMonitorReplayTestCase);
        AddTestCase(new FailureMonitorAckLossTestCase);
    }
};

/// The suite's single instance.
static MrcFailureTestSuite g_mrcFailureTestSuite;
