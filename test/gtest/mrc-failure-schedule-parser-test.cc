/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The failure schedule parser on its own (no fabric): every kind and field of both formats,
 * flap expansion, and each malformed or inconsistent input rejected with the file, the line
 * (CSV) or entry (JSON), the reason and the accepted range.
 */

#include "ns3/mrc-failure-schedule-parser.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <stdexcept>

using namespace ns3;

namespace
{

using Format = MrcFailureScheduleParser::Format;

/**
 * \param text a schedule
 * \param format its format
 * \return its entries
 */
std::vector<MrcFailureSpec>
Parse(const std::string& text, Format format)
{
    std::istringstream in(text);
    return MrcFailureScheduleParser::Parse(in,
                                           format == Format::JSON ? "plan.json" : "plan.csv",
                                           format);
}

/**
 * \param text a schedule
 * \param format its format
 * \return the message of the std::invalid_argument it raises ("" if none)
 */
std::string
Error(const std::string& text, Format format)
{
    try
    {
        Parse(text, format);
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/**
 * \param fields the fields of one CSV event (the others empty)
 * \return the message of the error it raises, as line 2 of a file
 */
std::string
CsvError(const std::vector<std::pair<std::string, std::string>>& fields)
{
    const std::vector<std::string> columns = {"at",
                                              "kind",
                                              "link",
                                              "switch",
                                              "host",
                                              "plane",
                                              "duration",
                                              "direction",
                                              "probability",
                                              "rate",
                                              "period",
                                              "duty",
                                              "times",
                                              "index"};
    std::string header;
    std::string row;
    for (const std::string& c : columns)
    {
        std::string value;
        for (const auto& [name, v] : fields)
        {
            value = name == c ? v : value;
        }
        header += (header.empty() ? "" : ",") + c;
        row += (c == columns.front() ? "" : ",") + value;
    }
    return Error(header + "\n" + row + "\n", Format::CSV);
}

/**
 * \param event one JSON event object
 * \return the message of the error it raises, as events[1] after a valid entry
 */
std::string
JsonError(const std::string& event)
{
    return Error(R"({"events": [{"at": "1us", "kind": "link-down", "link": "a b"}, )" + event
                     + "]}",
                 Format::JSON);
}

const char* kJson = R"({
  "comment": "every kind",
  "events": [
    {"at": "10us", "kind": "link-down", "link": "p0-t0-0 p0-t1-1", "duration": "5us"},
    {"at": "20us", "kind": "link-up", "link": "p0-t1-1 p0-t0-0"},
    {"at": "1ms", "kind": "blackhole", "link": "12", "direction": "up", "duration": "2ms"},
    {"at": "1.5ms", "kind": "blackhole-end", "link": "12", "direction": "up"},
    {"at": "0s", "kind": "gray-loss", "link": "a b", "index": 1, "probability": 0.05,
     "direction": "down"},
    {"at": "3us", "kind": "gray-loss-end", "link": "a b", "index": "1"},
    {"at": "0s", "kind": "rate", "link": "c d", "rate": "25Gbps", "duration": "1us"},
    {"at": "2us", "kind": "rate-restore", "link": "c d"},
    {"at": "100us", "kind": "flap", "link": "e f", "period": "20us", "duty": 0.25,
     "duration": "90us"},
    {"at": "5us", "kind": "flap", "link": "g h", "times": ["0us", "3us", "7us"]},
    {"at": "6us", "kind": "flap", "link": "g i", "times": "0us 1us"},
    {"at": "1us", "kind": "switch-down", "switch": "p0-t1-0", "duration": "1us"},
    {"at": "3us", "kind": "switch-up", "switch": "p0-t1-0"},
    {"at": "4us", "kind": "switch-blackhole", "switch": "p1-t1-0"},
    {"at": "5us", "kind": "switch-blackhole-end", "switch": "p1-t1-0"},
    {"at": "6us", "kind": "port-down", "host": 3, "plane": 1, "duration": "4us"},
    {"at": "7us", "kind": "port-up", "host": 3, "plane": 1, "comment": "back"}
  ]
})";

const char* kCsv = R"(# every kind, as kJson
at, kind, link, index, switch, host, plane, duration, direction, probability, rate, period, duty, times, comment
10us,link-down,p0-t0-0 p0-t1-1,,,,,5us,,,,,,,
20us,link-up,p0-t1-1 p0-t0-0,,,,,,,,,,,,

1ms,blackhole,12,,,,,2ms,up,,,,,,
1.5ms,blackhole-end,12,,,,,,up,,,,,,
0s,gray-loss,a b,1,,,,,down,0.05,,,,,
3us,gray-loss-end,a b,1,,,,,,,,,,,
0s,rate,c d,,,,,1us,,,25Gbps,,,,
2us,rate-restore,c d,,,,,,,,,,,,
100us,flap,e f,,,,,90us,,,,20us,0.25,,
5us,flap,g h,,,,,,,,,,,0us 3us 7us,
6us,flap,g i,,,,,,,,,,,0us 1us,
  # indented comment
1us,switch-down,,,p0-t1-0,,,1us,,,,,,,
3us,switch-up,,,p0-t1-0,,,,,,,,,,
4us,switch-blackhole,,,p1-t1-0,,,,,,,,,,
5us,switch-blackhole-end,,,p1-t1-0,,,,,,,,,,
6us,port-down,,,,3,1,4us,,,,,,,
7us,port-up,,,,3,1,,,,,,,,back
)";

} // namespace

TEST(MrcFailureScheduleParser, EveryKindJson)
{
    const std::vector<MrcFailureSpec> s = Parse(kJson, Format::JSON);
    ASSERT_EQ(s.size(), 17u);
    EXPECT_EQ(s[0].kind, MrcFailureKind::LINK_DOWN);
    EXPECT_EQ(s[0].at, MicroSeconds(10));
    EXPECT_EQ(s[0].nodeA, "p0-t0-0");
    EXPECT_EQ(s[0].nodeB, "p0-t1-1");
    EXPECT_FALSE(s[0].linkId.has_value());
    EXPECT_EQ(s[0].duration, MicroSeconds(5));
    EXPECT_EQ(s[0].origin, "plan.json: events[0]");
    EXPECT_EQ(s[1].GetTargetKey(), s[0].GetTargetKey()) << "either node order names one link";
    EXPECT_EQ(s[2].linkId, 12u);
    EXPECT_EQ(s[2].direction, MrcLinkDirection::UP);
    EXPECT_EQ(s[2].duration, MilliSeconds(2));
    EXPECT_EQ(s[3].at, MicroSeconds(1500));
    EXPECT_EQ(s[4].kind, MrcFailureKind::GRAY_LOSS);
    EXPECT_EQ(s[4].index, 1u);
    EXPECT_DOUBLE_EQ(s[4].probability, 0.05);
    EXPECT_EQ(s[4].direction, MrcLinkDirection::DOWN);
    EXPECT_EQ(s[4].duration, Time(0)) << "no duration: no automatic end";
    EXPECT_EQ(s[5].direction, MrcLinkDirection::BOTH) << "default direction";
    EXPECT_EQ(s[6].rate.GetBitRate(), 25000000000ULL);
    EXPECT_EQ(s[8].period, MicroSeconds(20));
    EXPECT_DOUBLE_EQ(s[8].duty, 0.25);
    EXPECT_EQ(s[9].offsets, (std::vector<Time>{Time(0), MicroSeconds(3), MicroSeconds(7)}));
    EXPECT_EQ(s[10].offsets, (std::vector<Time>{Time(0), MicroSeconds(1)}));
    EXPECT_EQ(s[11].switchName, "p0-t1-0");
    EXPECT_EQ(s[11].DescribeTarget(), "switch p0-t1-0");
    EXPECT_EQ(s[15].host, 3u);
    EXPECT_EQ(s[15].plane, 1u);
    EXPECT_EQ(s[15].DescribeTarget(), "host 3 plane 1");
    EXPECT_EQ(s[16].kind, MrcFailureKind::PORT_UP);
}

TEST(MrcFailureScheduleParser, CsvEqualsJson)
{
    const std::vector<MrcFailureSpec> j = Parse(kJson, Format::JSON);
    const std::vector<MrcFailureSpec> c = Parse(kCsv, Format::CSV);
    ASSERT_EQ(c.size(), j.size());
    for (size_t i = 0; i < c.size(); ++i)
    {
        EXPECT_EQ(c[i].kind, j[i].kind) << i;
        EXPECT_EQ(c[i].at, j[i].at) << i;
        EXPECT_EQ(c[i].DescribeTarget(), j[i].DescribeTarget()) << i;
        EXPECT_EQ(c[i].duration, j[i].duration) << i;
        EXPECT_EQ(c[i].direction, j[i].direction) << i;
        EXPECT_EQ(c[i].probability, j[i].probability) << i;
        EXPECT_EQ(c[i].rate, j[i].rate) << i;
        EXPECT_EQ(c[i].period, j[i].period) << i;
        EXPECT_EQ(c[i].duty, j[i].duty) << i;
        EXPECT_EQ(c[i].offsets, j[i].offsets) << i;
    }
    EXPECT_EQ(c[0].origin, "plan.csv:3");
    EXPECT_EQ(c[2].origin, "plan.csv:6") << "blank lines count";
    EXPECT_EQ(c[11].origin, "plan.csv:16") << "comment lines count";
}

TEST(MrcFailureScheduleParser, FlapTimes)
{
    MrcFailureSpec f;
    f.kind = MrcFailureKind::FLAP;
    f.at = MicroSeconds(10);
    f.period = MicroSeconds(20);
    f.duty = 0.25;
    f.duration = MicroSeconds(100);
    std::vector<Time> expected;
    for (int k = 0; k < 5; ++k)
    {
        expected.push_back(MicroSeconds(10 + 20 * k));
        expected.push_back(MicroSeconds(15 + 20 * k));
    }
    EXPECT_EQ(f.GetFlapTimes(), expected);
    // The last cycle is cut at the end of the duration: down 80..95 us after `at`, up at 90.
    f.duty = 0.75;
    f.duration = MicroSeconds(90);
    const std::vector<Time> clipped = f.GetFlapTimes();
    ASSERT_EQ(clipped.size(), 10u);
    EXPECT_EQ(clipped[1], MicroSeconds(25));
    EXPECT_EQ(clipped[8], MicroSeconds(90));
    EXPECT_EQ(clipped[9], MicroSeconds(100));
    f.offsets = {Time(0), MicroSeconds(3), MicroSeconds(7)};
    EXPECT_EQ(f.GetFlapTimes(),
              (std::vector<Time>{MicroSeconds(10), MicroSeconds(13), MicroSeconds(17)}));
}

TEST(MrcFailureScheduleParser, FormatsExactly)
{
    EXPECT_EQ(MrcFailureSpec::FormatTime(MicroSeconds(100)), "100us");
    EXPECT_EQ(MrcFailureSpec::FormatTime(NanoSeconds(1500)), "1500ns");
    EXPECT_EQ(MrcFailureSpec::FormatTime(MilliSeconds(2)), "2ms");
    EXPECT_EQ(MrcFailureSpec::FormatTime(Time(0)), "0s");
    EXPECT_EQ(MrcFailureSpec::FormatRate(DataRate("25Gbps")), "25Gbps");
    EXPECT_EQ(MrcFailureSpec::FormatRate(DataRate("1500bps")), "1500bps");
    EXPECT_EQ(MrcFailureSpec::FormatNumber(0.05), "0.05");
    EXPECT_EQ(MrcFailureSpec::FormatNumber(1.0 / 3), "0.3333333333333333");
}

TEST(MrcFailureScheduleParser, CsvErrorsNameLineReasonAndRange)
{
    EXPECT_EQ(CsvError({{"at", "1us"}, {"kind", "link-dwn"}, {"link", "a b"}}),
              "plan.csv:2: kind (=\"link-dwn\") is not a failure kind (accepted: link-down, "
              "link-up, blackhole, blackhole-end, gray-loss, gray-loss-end, rate, rate-restore, "
              "flap, switch-down, switch-up, switch-blackhole, switch-blackhole-end, port-down, "
              "port-up)");
    EXPECT_EQ(
        CsvError({{"at", "1us"}, {"kind", "gray-loss"}, {"link", "a b"}, {"probability", "1.5"}}),
        "plan.csv:2: probability (=1.5) must be in [0, 1]");
    EXPECT_EQ(
        CsvError({{"at", "1us"}, {"kind", "gray-loss"}, {"link", "a b"}, {"probability", "-0.1"}}),
        "plan.csv:2: probability (=-0.1) must be in [0, 1]");
    EXPECT_EQ(
        CsvError({{"at", "1us"}, {"kind", "gray-loss"}, {"link", "a b"}, {"probability", "often"}}),
        "plan.csv:2: probability (=\"often\") must be a number in [0, 1]");
    EXPECT_EQ(CsvError({{"at", "1us"}, {"kind", "gray-loss"}, {"link", "a b"}}),
              "plan.csv:2: missing field 'probability' (gray-loss takes: at, kind, link, index, "
              "duration, direction, probability, comment)");
    EXPECT_EQ(CsvError({{"kind", "link-down"}, {"link", "a b"}}),
              "plan.csv:2: missing field 'at' (link-down takes: at, kind, link, index, duration, "
              "comment)");
    EXPECT_EQ(CsvError({{"at", "1us"}, {"kind", "link-down"}}),
              "plan.csv:2: missing field 'link' (link-down takes: at, kind, link, index, "
              "duration, comment)");
    EXPECT_EQ(
        CsvError({{"at", "1us"}, {"link", "a b"}}).rfind("plan.csv:2: missing field 'kind'", 0),
        0u);
    EXPECT_EQ(
        CsvError({{"at", "1us"}, {"kind", "link-down"}, {"link", "a b"}, {"duration", "-5us"}}),
        "plan.csv:2: duration (=\"-5us\") must be a non-negative time with a unit (s, ms, "
        "us, ns, ...) such as \"1us\"");
    EXPECT_EQ(
        CsvError({{"at", "1us"}, {"kind", "link-down"}, {"link", "a b"}, {"duration", "0us"}}),
        "plan.csv:2: duration (=\"0us\") must be > 0");
    EXPECT_EQ(CsvError({{"at", "100"}, {"kind", "link-down"}, {"link", "a b"}}),
              "plan.csv:2: at (=\"100\") must be a non-negative time with a unit (s, ms, us, ns, "
              "...) such as \"1us\"");
    EXPECT_EQ(
        CsvError({{"at", "1us"}, {"kind", "link-down"}, {"link", "a b"}, {"direction", "up"}}),
        "plan.csv:2: field 'direction' does not apply to link-down (its fields: at, kind, "
        "link, index, duration, comment)");
    EXPECT_EQ(CsvError({{"at", "1us"}, {"kind", "link-up"}, {"link", "a b"}, {"duration", "1us"}}),
              "plan.csv:2: field 'duration' does not apply to link-up (its fields: at, kind, "
              "link, index, comment)");
    EXPECT_EQ(
        CsvError(
            {{"at", "1us"}, {"kind", "blackhole"}, {"link", "a b"}, {"direction", "sideways"}}),
        "plan.csv:2: direction (=\"sideways\") must be one of: both, up (frames from the "
        "lower node to the upper one), down");
    EXPECT_EQ(CsvError({{"at", "1us"}, {"kind", "rate"}, {"link", "a b"}, {"rate", "fast"}}),
              "plan.csv:2: rate (=\"fast\") must be a positive data rate such as \"100Gbps\"");
    EXPECT_EQ(CsvError({{"at", "1us"}, {"kind", "link-down"}, {"link", "p0-t0-0"}}),
              "plan.csv:2: link (=\"p0-t0-0\") must name two different nodes, such as "
              "\"p0-t0-3 p0-t1-1\", or be a link id (0, 1, ...)");
    EXPECT_EQ(CsvError({{"at", "1us"}, {"kind", "link-down"}, {"link", "a a"}}),
              "plan.csv:2: link (=\"a a\") must name two different nodes, such as "
              "\"p0-t0-3 p0-t1-1\", or be a link id (0, 1, ...)");
    EXPECT_EQ(CsvError({{"at", "1us"}, {"kind", "link-down"}, {"link", "7"}, {"index", "1"}}),
              "plan.csv:2: index applies to a link named by its nodes, not to link id 7");
    EXPECT_EQ(CsvError({{"at", "1us"}, {"kind", "link-down"}, {"link", "a b"}, {"index", "-1"}}),
              "plan.csv:2: index (=\"-1\") must be an integer in 0..4294967295");
    EXPECT_EQ(CsvError({{"at", "1us"}, {"kind", "port-down"}, {"host", "x"}, {"plane", "0"}}),
              "plan.csv:2: host (=\"x\") must be an integer in 0..4294967295");
    EXPECT_EQ(CsvError({{"at", "1us"}, {"kind", "switch-down"}, {"switch", "two words"}}),
              "plan.csv:2: switch (=\"two words\") must be one node name, such as \"p0-t1-0\"");
    EXPECT_EQ(CsvError({{"at", "1us"},
                        {"kind", "flap"},
                        {"link", "a b"},
                        {"duration", "10us"},
                        {"period", "5us"},
                        {"duty", "1"}}),
              "plan.csv:2: duty (=1) must be in (0, 1): the fraction of each period the link "
              "is down");
    EXPECT_EQ(CsvError({{"at", "1us"},
                        {"kind", "flap"},
                        {"link", "a b"},
                        {"duration", "10us"},
                        {"period", "0us"},
                        {"duty", "0.5"}}),
              "plan.csv:2: period (=\"0us\") must be > 0");
    EXPECT_EQ(
        CsvError(
            {{"at", "1us"}, {"kind", "flap"}, {"link", "a b"}, {"period", "5us"}, {"duty", "0.5"}}),
        "plan.csv:2: missing field 'duration' (flap takes: at, kind, link, index, period, "
        "duty, duration, times, comment)");
    EXPECT_EQ(CsvError({{"at", "1us"},
                        {"kind", "flap"},
                        {"link", "a b"},
                        {"duration", "10us"},
                        {"times", "0us 1us"}}),
              "plan.csv:2: flap takes either times, or period, duty and duration, not both");
    EXPECT_EQ(CsvError({{"at", "1us"}, {"kind", "flap"}, {"link", "a b"}}),
              "plan.csv:2: flap needs either times, or period, duty and duration");
    EXPECT_EQ(
        CsvError({{"at", "1us"}, {"kind", "flap"}, {"link", "a b"}, {"times", "0us 5us 5us"}}),
        "plan.csv:2: times must increase strictly: times[2] (=5us) is not after times[1] "
        "(=5us)");
    EXPECT_EQ(Error("at,kind,link\n1us,link-down\n", Format::CSV),
              "plan.csv:2: 2 cells, but the header has 3 columns");
}

TEST(MrcFailureScheduleParser, TimeGoingBackwardsForOneTarget)
{
    const std::string header = "at,kind,link,switch\n";
    EXPECT_EQ(Error(header
                        + "20us,link-down,a b,\n"
                          "5us,link-down,c d,\n"
                          "10us,link-up,b a,\n",
                    Format::CSV),
              "plan.csv:4: at (=10us) goes back in time: an earlier entry for link b a "
              "(plan.csv:2) is at 20us; list the events of each target in time order");
    EXPECT_EQ(Error(header + "20us,switch-down,,s\n10us,switch-up,,s\n", Format::CSV),
              "plan.csv:3: at (=10us) goes back in time: an earlier entry for switch s "
              "(plan.csv:2) is at 20us; list the events of each target in time order");
    // Other targets may go back in time; equal times are fine.
    EXPECT_EQ(
        Parse(header + "20us,switch-down,,s\n10us,switch-down,,t\n20us,switch-up,,s\n", Format::CSV)
            .size(),
        3u);
}

TEST(MrcFailureScheduleParser, CsvHeaderErrors)
{
    EXPECT_EQ(Error("at,kind,lnk\n", Format::CSV),
              "plan.csv:1: unknown column 'lnk' in the header (accepted: at, kind, link, "
              "index, switch, host, plane, duration, direction, probability, rate, period, duty, "
              "times, comment)");
    EXPECT_EQ(Error("# nothing else\n\nkind,link\n", Format::CSV),
              "plan.csv:3: the header must name the columns 'at' and 'kind' (and those the "
              "events need, e.g. at,kind,link,duration)");
    EXPECT_EQ(Error("at,kind,at\n", Format::CSV), "plan.csv:1: column 'at' appears twice");
    EXPECT_EQ(Error("# only comments\n", Format::CSV),
              "plan.csv:1: no header line (expected column names such as at,kind,link,duration)");
    EXPECT_TRUE(Parse("at,kind\n", Format::CSV).empty()) << "an empty schedule is valid";
}

TEST(MrcFailureScheduleParser, JsonErrorsNameEntryReasonAndRange)
{
    EXPECT_EQ(JsonError(R"({"at": "2us", "kind": "gray-loss", "link": "a b", "probabilty": 0.1})"),
              "plan.json: events[1]: unknown field 'probabilty' (accepted: at, kind, link, index, "
              "switch, host, plane, duration, direction, probability, rate, period, duty, times, "
              "comment)");
    EXPECT_EQ(JsonError(R"({"at": "2us", "kind": "gray-loss", "link": "a b", "probability": 2})"),
              "plan.json: events[1]: probability (=2) must be in [0, 1]");
    EXPECT_EQ(JsonError(R"({"at": "2us", "kind": "port-down", "host": 1})"),
              "plan.json: events[1]: missing field 'plane' (port-down takes: at, kind, host, "
              "plane, duration, comment)");
    EXPECT_EQ(JsonError(R"({"at": "2us", "kind": "link-down", "link": ["a", "b"]})"),
              "plan.json: events[1]: field 'link' must be a single value, not an object or array");
    EXPECT_EQ(JsonError(R"({"at": "2us", "at": "3us", "kind": "link-down", "link": "a b"})"),
              "plan.json: events[1]: duplicate field 'at'");
    EXPECT_EQ(JsonError(R"("link-down")").rfind("plan.json: events[1]: must be an object", 0), 0u);
    EXPECT_EQ(JsonError(R"({"at": "0.5us", "kind": "link-up", "link": "b a"})"),
              "plan.json: events[1]: at (=500ns) goes back in time: an earlier entry for link b a "
              "(plan.json: events[0]) is at 1us; list the events of each target in time order");
}

TEST(MrcFailureScheduleParser, JsonStructureErrors)
{
    EXPECT_EQ(Error("{\n  \"events\": [\n    {\"at\": \"1us\" \"kind\": \"link-down\"}\n  ]\n}\n",
                    Format::JSON)
                  .rfind("plan.json:3: JSON syntax error: ", 0),
              0u);
    EXPECT_EQ(Error(R"({"event": []})", Format::JSON)
                  .rfind("plan.json: unknown top-level key "
                         "'event' (accepted: events, comment)",
                         0),
              0u);
    EXPECT_EQ(Error(R"({"comment": "x"})", Format::JSON)
                  .rfind("plan.json: needs exactly one top-level \"events\" array", 0),
              0u);
    EXPECT_EQ(Error(R"({"events": {"a": {"at": "1us"}}})", Format::JSON)
                  .rfind("plan.json: \"events\" must be an array, not an object", 0),
              0u);
    EXPECT_EQ(Error(R"({"events": "none"})", Format::JSON)
                  .rfind("plan.json: \"events\" must be an array", 0),
              0u);
    EXPECT_TRUE(Parse(R"({"events": []})", Format::JSON).empty());
}

TEST(MrcFailureScheduleParser, Files)
{
    try
    {
        MrcFailureScheduleParser::ParseFile("plan.txt");
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_STREQ(e.what(), "plan.txt: a failure schedule must be a .json or a .csv file");
    }
    try
    {
        MrcFailureScheduleParser::ParseFile("/nonexistent/plan.json");
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_STREQ(e.what(), "/nonexistent/plan.json: cannot open the failure schedule");
    }
}

// Issue 20: Boost's JSON reader recursed once per level (80,000 levels overflowed the stack).
TEST(MrcFailureScheduleParser, JsonNestingIsBoundedBeforeParsing)
{
    const uint32_t most = MrcFailureScheduleParser::kMaxJsonDepth;
    EXPECT_EQ(most, 32u);
    const std::string deep = std::string(80000, '[') + std::string(80000, ']');
    EXPECT_EQ(Error("{\"events\":\n" + deep + "}", Format::JSON),
              "plan.json:2: JSON nested deeper than 32 levels of arrays and objects (a schedule "
              "needs 4)");
    // An event's comment as nested arrays: 3 levels above it, so 29 more is the largest
    // accepted (then refused by the reader for what it is), 30 the smallest refused.
    auto nested = [](uint32_t n) {
        return JsonError(R"({"at": "2us", "kind": "link-up", "link": "a b", "comment": )"
                         + std::string(n, '[') + std::string(n, ']') + "}");
    };
    EXPECT_EQ(nested(most - 3),
              "plan.json: events[1]: field 'comment' must be a single value, not an object or "
              "array");
    EXPECT_NE(nested(most - 2).find("JSON nested deeper than 32 levels"), std::string::npos);
    // Brackets in strings (escaped quotes included) are text.
    EXPECT_EQ(
        Parse(R"({"events": [{"at": "1us", "kind": "link-down", "link": "a b", "comment": "\"[)"
                  + std::string(100, '[') + R"(\\"}]})",
              Format::JSON)
            .size(),
        1u);
}

TEST(MrcFailureScheduleParser, SizeIsBoundedBeforeParsing)
{
    const uint64_t most = MrcFailureScheduleParser::kMaxBytes;
    EXPECT_EQ(most, 16u * 1024 * 1024);
    const std::string head = "at,kind\n#";
    std::string text = head + std::string(most - head.size() - 1, 'x') + "\n";
    EXPECT_TRUE(Parse(text, Format::CSV).empty()); // exactly the limit: read
    text += "\n";
    EXPECT_EQ(Error(text, Format::CSV),
              "plan.csv: more than 16777216 bytes, larger than a failure schedule may be");
    // A file is measured before it is read.
    const std::string path = testing::TempDir() + "mrc-too-large-schedule.json";
    {
        std::ofstream out(path);
        out << std::string(most + 1, ' ');
    }
    try
    {
        MrcFailureScheduleParser::ParseFile(path);
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  path
                      + ": 16777217 bytes is larger than a failure schedule may be (16777216 "
                        "bytes)");
    }
    std::remove(path.c_str());
}

// Issue 20: "1e300s" ran at t = 0 (Time wrapped).
TEST(MrcFailureScheduleParser, TimesBeyondNs3sRange)
{
    EXPECT_EQ(JsonError(R"({"at": "1e300s", "kind": "link-up", "link": "a b"})"),
              "plan.json: events[1]: at (=\"1e300s\") is beyond ns-3's time range: at most "
              "9223372036s (about 292 years)");
    EXPECT_NE(JsonError(R"({"at": "2us", "kind": "link-down", "link": "a b", "duration": "1e10s"})")
                  .find("duration (=\"1e10s\") is beyond ns-3's time range"),
              std::string::npos);
    EXPECT_NE(JsonError(R"({"at": "9e9s", "kind": "link-down", "link": "a b", "duration": "9e9s"})")
                  .find("at + duration (="),
              std::string::npos);
    EXPECT_NE(JsonError(R"({"at": "9e9s", "kind": "flap", "link": "a b", "times": "0s 9e9s"})")
                  .find("at + times (="),
              std::string::npos);
    EXPECT_EQ(JsonError(R"({"at": "9e9s", "kind": "link-down", "link": "a b", "duration": "1s"})"),
              "");
}

// Issue 20, item 8: spreadsheets write a UTF-8 byte order mark before the header.
TEST(MrcFailureScheduleParser, Utf8ByteOrderMarkIsSkipped)
{
    const std::string bom = "\xEF\xBB\xBF";
    const std::vector<MrcFailureSpec> csv =
        Parse(bom + "at,kind,link\n1us,link-down,a b\n", Format::CSV);
    ASSERT_EQ(csv.size(), 1u);
    EXPECT_EQ(csv[0].at, MicroSeconds(1));
    const std::vector<MrcFailureSpec> json =
        Parse(bom + R"({"events": [{"at": "1us", "kind": "link-down", "link": "a b"}]})",
              Format::JSON);
    ASSERT_EQ(json.size(), 1u);
    // Only at the start: elsewhere it is text, shown escaped.
    EXPECT_EQ(Error("at,kind,link\n1us,link-down," + bom + "a b\n", Format::CSV),
              "plan.csv:2: link (=\"\\xef\\xbb\\xbfa b\") holds a byte that is not printable "
              "ASCII (shown as \\xNN)");
}

// Issue 20, item 8: a directory failed without its name.
TEST(MrcFailureScheduleParser, DirectoryIsRefusedWithItsName)
{
    const std::string path = testing::TempDir() + "mrc-schedule-dir.json";
    std::filesystem::create_directories(path);
    try
    {
        MrcFailureScheduleParser::ParseFile(path);
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_EQ(std::string(e.what()), path + ": is a directory, not a failure schedule file");
    }
    std::filesystem::remove(path);
}

// Issue 20, item 8: a NUL in a cell truncated the message (C string).
TEST(MrcFailureScheduleParser, ControlCharactersAreShownEscaped)
{
    const std::string nul("\0", 1);
    EXPECT_EQ(Error("at,kind,link\n1us,link-down,p0-t0-0" + nul + "x p0-t1-0\n", Format::CSV),
              "plan.csv:2: link (=\"p0-t0-0\\x00x p0-t1-0\") holds a byte that is not printable "
              "ASCII (shown as \\xNN)");
    EXPECT_EQ(Error("at,kind,li" + nul + "nk\n", Format::CSV),
              "plan.csv:1: unknown column 'li\\x00nk' in the header (accepted: "
                  + MrcFailureScheduleParser::GetFieldNames() + ")");
    EXPECT_EQ(JsonError(R"({"at": "1us", "kind": "link-down", "link": "a\u0000b c"})"),
              "plan.json: events[1]: link (=\"a\\x00b c\") holds a byte that is not printable "
              "ASCII (shown as \\xNN)");
    // Tabs separate words; a comment may hold any UTF-8 text, but no control character.
    EXPECT_EQ(Parse("at,kind,link,comment\n1us,link-down,a\tb,caf\xC3\xA9\n", Format::CSV).size(),
              1u);
    EXPECT_EQ(Error("at,kind,link,comment\n1us,link-down,a b,x\x01y\n", Format::CSV),
              "plan.csv:2: comment (=\"x\\x01y\") holds a control character (shown as \\xNN)");
}

// Issue 20, item 8: "1fs" rounds to 0 at ns-3's resolution; "must be > 0" was misleading.
TEST(MrcFailureScheduleParser, TimesBelowTheResolution)
{
    EXPECT_EQ(JsonError(R"({"at": "1us", "kind": "flap", "link": "a b", "period": "1fs", )"
                        R"("duty": 0.5, "duration": "1us"})"),
              "plan.json: events[1]: period (=\"1fs\") is below ns-3's time resolution (1ns): "
              "it would be 0");
    EXPECT_EQ(JsonError(R"({"at": "0.1ps", "kind": "link-up", "link": "c d"})"),
              "plan.json: events[1]: at (=\"0.1ps\") is below ns-3's time resolution (1ns): "
              "it would be 0");
    EXPECT_EQ(JsonError(R"({"at": "0fs", "kind": "link-up", "link": "c d"})"), "");
}

// Issue 20, item 6: the events of an entry are counted without expanding a flap.
TEST(MrcFailureSpec, EventCount)
{
    MrcFailureSpec flap;
    flap.kind = MrcFailureKind::FLAP;
    flap.period = NanoSeconds(1);
    flap.duty = 0.5;
    flap.duration = Seconds(1);
    EXPECT_EQ(flap.GetEventCount(), 2000000000u);
    for (const auto& [period, duration] :
         std::vector<std::pair<Time, Time>>{{MicroSeconds(3), MicroSeconds(10)},
                                            {MicroSeconds(5), MicroSeconds(10)},
                                            {MicroSeconds(20), MicroSeconds(10)},
                                            {NanoSeconds(7), MicroSeconds(1)}})
    {
        flap.period = period;
        flap.duration = duration;
        EXPECT_EQ(flap.GetEventCount(), flap.GetFlapTimes().size()) << period << " " << duration;
    }
    flap.period = Time::Max() / 2;
    flap.duration = Time::Max();
    EXPECT_EQ(flap.GetEventCount(), 6u); // (2^63 - 1) / (2^62 - 1): 2 and a bit
    flap.period = TimeStep(1);
    EXPECT_EQ(flap.GetEventCount(), 2 * static_cast<uint64_t>(Time::Max().GetTimeStep()));
    flap.offsets = {MicroSeconds(1), MicroSeconds(2), MicroSeconds(4)};
    EXPECT_EQ(flap.GetEventCount(), 3u);
    MrcFailureSpec down;
    down.kind = MrcFailureKind::LINK_DOWN;
    EXPECT_EQ(down.GetEventCount(), 1u);
    down.duration = MicroSeconds(1);
    EXPECT_EQ(down.GetEventCount(), 2u);
    down.kind = MrcFailureKind::LINK_UP;
    EXPECT_EQ(down.GetEventCount(), 1u);
}

#ifdef MRC_SOURCE_DIR
TEST(MrcFailureScheduleParser, SampleFilesAgree)
{
    const std::string dir = MRC_SOURCE_DIR "/examples/";
    const std::vector<MrcFailureSpec> j =
        MrcFailureScheduleParser::ParseFile(dir + "failure-schedule-sample.json");
    const std::vector<MrcFailureSpec> c =
        MrcFailureScheduleParser::ParseFile(dir + "failure-schedule-sample.csv");
    ASSERT_EQ(j.size(), 8u);
    ASSERT_EQ(c.size(), j.size());
    for (size_t i = 0; i < j.size(); ++i)
    {
        EXPECT_EQ(c[i].kind, j[i].kind) << i;
        EXPECT_EQ(c[i].at, j[i].at) << i;
        EXPECT_EQ(c[i].DescribeTarget(), j[i].DescribeTarget()) << i;
        EXPECT_EQ(c[i].duration, j[i].duration) << i;
        EXPECT_EQ(c[i].direction, j[i].direction) << i;
        EXPECT_EQ(c[i].probability, j[i].probability) << i;
        EXPECT_EQ(c[i].rate, j[i].rate) << i;
        EXPECT_EQ(c[i].GetFlapTimes(), j[i].GetFlapTimes()) << i;
    }
}
#endif
