/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-results-writer.h"
#include "ns3/mrc-scenario-result-codec.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <stdexcept>

using namespace ns3;

namespace
{

/// \return a result with every part filled with values no default has
MrcScenarioResult
FilledResult()
{
    MrcScenarioResult r;
    r.key = "roce-x4";
    r.name = "RoCEv2/ECMP+BGP x4 QPs";
    r.seed = 7;
    r.run = 3;
    r.iterations = 2;
    r.jobDone = true;
    r.end = NanoSeconds(81809123);
    r.failureStart = MicroSeconds(2500);
    r.failureEnd = MicroSeconds(6500);
    for (uint32_t i = 0; i < 2; ++i)
    {
        MrcScenarioResult::Step s;
        s.index = i;
        s.start = MicroSeconds(1000 * i + 1);
        s.end = s.start + NanoSeconds(1229517 + i);
        s.ideal = MicroSeconds(698);
        s.phase = i == 0 ? MrcScenarioPhase::BEFORE : MrcScenarioPhase::DURING;
        s.failed = i == 1;
        s.transfers = 16;
        s.transferMin = MicroSeconds(400);
        s.transferP50 = MicroSeconds(500);
        s.transferP99 = MicroSeconds(600);
        s.transferMax = NanoSeconds(700001);
        MrcTrainingJob::CommRecord c;
        c.label = "wg dp reduce-scatter";
        c.kind = "ring";
        c.bytes = 1 << 20;
        c.ranks = 8;
        c.issued = s.start;
        c.start = s.start + NanoSeconds(3);
        c.end = s.end;
        c.ideal = MicroSeconds(90);
        s.comms = {c, c};
        r.steps.push_back(s);
    }
    r.jobs = {{"main", 2, true, false}, {"tcp", 1, false, true}};
    r.bytesPosted = 1403400000;
    r.bytesDelivered = 1403400000;
    r.bytesRetransmitted = 220000;
    r.retransmissions = 54;
    r.rtxTrimmed = 5;
    r.rtxTimeout = 6;
    r.rewinds = 31;
    r.trimmedReceived = 9;
    r.evRetirements = 834;
    r.longestStall = NanoSeconds(67119001);
    r.longestStallFlow = "a2a4:h3->h43";
    r.stalledTime = MicroSeconds(70000);
    r.flows = 128;
    r.failedFlows = 1;
    r.faultDrops = 54;
    r.queueDrops = 2;
    r.trims = 3;
    r.linkTraversals = 123456789;
    r.ecnMarks = 32;
    r.routingDrops = 4;
    r.uplinkBalance = 3.5512345678901234;
    r.routingConverged = MicroSeconds(26900);
    r.events = 9759859;
    MrcTcpBulkWorkload::Flow f;
    f.src = 1;
    f.dst = 9;
    f.plane = 2;
    f.bytes = 1000000;
    f.start = MicroSeconds(10);
    f.port = 5001;
    f.received = 999000;
    r.tcpFlows = {f};
    MrcPfcPortStats::Row p;
    p.node = "p0-t0-1";
    p.peer = "p0-t1-1";
    p.tier = MrcLinkTier::T0_T1;
    p.plane = 0;
    p.priority = 3;
    p.pausesSent = 299;
    p.xonsSent = 298;
    p.pausesReceived = 12;
    p.pausedTime = NanoSeconds(236300);
    p.maxIngressBytes = 123456;
    p.overflows = 0;
    p.watchdogTriggers = 1;
    r.pfcPorts = {p};
    return r;
}

/// \param dir a directory \return the contents of every file in it, by name
std::map<std::string, std::string>
Files(const std::filesystem::path& dir)
{
    std::map<std::string, std::string> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    {
        if (e.is_regular_file())
        {
            std::ifstream in(e.path());
            std::ostringstream text;
            text << in.rdbuf();
            files[std::filesystem::relative(e.path(), dir).string()] = text.str();
        }
    }
    return files;
}

} // namespace

TEST(MrcScenarioResultCodec, ARoundTripKeepsEveryFieldExactly)
{
    const MrcScenarioResult r = FilledResult();
    const std::string bytes = MrcScenarioResultCodec::Encode(r);
    const MrcScenarioResult back = MrcScenarioResultCodec::Decode(bytes);
    EXPECT_EQ(MrcScenarioResultCodec::Encode(back), bytes);
    EXPECT_EQ(back.name, r.name);
    EXPECT_EQ(back.end, r.end);
    EXPECT_EQ(back.uplinkBalance, r.uplinkBalance); // bit for bit, not to a printed precision
    ASSERT_EQ(back.steps.size(), 2u);
    EXPECT_EQ(back.steps[1].phase, MrcScenarioPhase::DURING);
    EXPECT_TRUE(back.steps[1].failed);
    EXPECT_EQ(back.steps[1].transferMax, NanoSeconds(700001));
    ASSERT_EQ(back.steps[1].comms.size(), 2u);
    EXPECT_EQ(back.steps[1].comms[1].label, "wg dp reduce-scatter");
    EXPECT_EQ(back.steps[1].comms[1].start, r.steps[1].start + NanoSeconds(3));
    ASSERT_EQ(back.jobs.size(), 2u);
    EXPECT_EQ(back.jobs[1].name, "tcp");
    EXPECT_TRUE(back.jobs[1].failed);
    EXPECT_EQ(back.longestStallFlow, "a2a4:h3->h43");
    ASSERT_EQ(back.tcpFlows.size(), 1u);
    EXPECT_EQ(back.tcpFlows[0].port, 5001);
    EXPECT_EQ(back.tcpFlows[0].finish, Time(-1));
    ASSERT_EQ(back.pfcPorts.size(), 1u);
    EXPECT_EQ(back.pfcPorts[0].tier, MrcLinkTier::T0_T1);
    EXPECT_EQ(back.pfcPorts[0].pausedTime, NanoSeconds(236300));
    EXPECT_EQ(back.pfcPorts[0].watchdogTriggers, 1u);
}

TEST(MrcScenarioResultCodec, TheDecodedResultWritesTheSameFiles)
{
    const std::filesystem::path base =
        std::filesystem::temp_directory_path() / "mrc-gtest-scenario-result-codec";
    std::filesystem::remove_all(base);
    const MrcScenarioResult r = FilledResult();
    MrcScenarioResult other = FilledResult();
    other.key = "mrc";
    other.name = "MRC/SRv6";
    MrcResultsWriter(base / "original").WriteComparison({r, other});
    MrcResultsWriter(base / "decoded")
        .WriteComparison({MrcScenarioResultCodec::Decode(MrcScenarioResultCodec::Encode(r)),
                          MrcScenarioResultCodec::Decode(MrcScenarioResultCodec::Encode(other))});
    const auto original = Files(base / "original");
    EXPECT_FALSE(original.empty());
    EXPECT_EQ(Files(base / "decoded"), original);
    std::filesystem::remove_all(base);
}

TEST(MrcScenarioResultCodec, TruncatedOrOverlongBytesAreRefused)
{
    const std::string bytes = MrcScenarioResultCodec::Encode(FilledResult());
    for (size_t n : {size_t(0), size_t(3), bytes.size() / 2, bytes.size() - 1})
    {
        EXPECT_THROW(MrcScenarioResultCodec::Decode(bytes.substr(0, n)), std::invalid_argument)
            << n << " bytes";
    }
    EXPECT_THROW(MrcScenarioResultCodec::Decode(bytes + "x"), std::invalid_argument);
    // A vector length far beyond the bytes left is refused, not allocated: the steps' count
    // follows key, name (empty: a length each), seed and run.
    std::string huge = MrcScenarioResultCodec::Encode(MrcScenarioResult{});
    const uint64_t count = uint64_t(1) << 50;
    ASSERT_GT(huge.size(), 36u);
    huge.replace(28, sizeof(count), reinterpret_cast<const char*>(&count), sizeof(count));
    EXPECT_THROW(MrcScenarioResultCodec::Decode(huge), std::invalid_argument);
}
