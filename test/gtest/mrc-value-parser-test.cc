/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/data-rate.h"
#include "ns3/mrc-cluster-scenario.h"
#include "ns3/mrc-value-parser.h"
#include "ns3/nstime.h"

#include <cmath>
#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

TEST(MrcValueParser, DataRates)
{
    EXPECT_EQ(MrcValueParser::ParseDataRate("r", "100Gbps").GetBitRate(), 100000000000ULL);
    EXPECT_EQ(MrcValueParser::ParseDataRate("r", "400Gb/s").GetBitRate(), 400000000000ULL);
    EXPECT_EQ(MrcValueParser::ParseDataRate("r", "1500bps").GetBitRate(), 1500ULL);
    try
    {
        MrcValueParser::ParseDataRate("--hostRate", "fast");
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_STREQ(e.what(),
                     "--hostRate (=\"fast\") must be a positive data rate such as \"100Gbps\"");
    }
    EXPECT_THROW(MrcValueParser::ParseDataRate("r", "0bps"), std::invalid_argument);
    EXPECT_THROW(MrcValueParser::ParseDataRate("r", ""), std::invalid_argument);
    EXPECT_THROW(MrcValueParser::ParseDataRate("r", "100Gbps x"), std::invalid_argument);
}

TEST(MrcValueParser, Times)
{
    EXPECT_EQ(MrcValueParser::ParseTime("t", "1us"), MicroSeconds(1));
    EXPECT_EQ(MrcValueParser::ParseTime("t", "2.5ms"), MicroSeconds(2500));
    EXPECT_EQ(MrcValueParser::ParseTime("t", "0s"), Time(0));
    EXPECT_THROW(MrcValueParser::ParseTime("t", "1"), std::invalid_argument);
    EXPECT_THROW(MrcValueParser::ParseTime("t", "-1us"), std::invalid_argument);
    EXPECT_THROW(MrcValueParser::ParseTime("t", "soon"), std::invalid_argument);
    try
    {
        MrcValueParser::ParseTime("--delay", "1 parsec");
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("--delay (=\"1 parsec\") must be a non-negative time"),
                  std::string::npos);
    }
}

TEST(MrcValueParser, AttributeTextThatWouldAbortNs3)
{
    const Ptr<const AttributeChecker> time = MakeTimeChecker();
    // Everything Time(std::string) reads passes: units, no unit (seconds), signs, exponents.
    for (const char* ok : {"1us", "2.5ms", "-3ns", "4", "1e-6s", "+7min"})
    {
        EXPECT_NO_THROW(MrcValueParser::CheckAttributeText("T", time, ok)) << ok;
    }
    for (const char* bad : {"soon", "1 us", "us", "1usx", ""})
    {
        EXPECT_THROW(MrcValueParser::CheckAttributeText("T", time, bad), std::invalid_argument)
            << bad;
    }
    // By type and attribute name; unknown attributes are left to ns-3.
    const TypeId scenario = MrcClusterScenario::GetTypeId();
    EXPECT_THROW(MrcValueParser::CheckAttributeText(scenario, "ComputeTime", "soon"),
                 std::invalid_argument);
    EXPECT_NO_THROW(MrcValueParser::CheckAttributeText(scenario, "ComputeTime", "20us"));
    EXPECT_NO_THROW(MrcValueParser::CheckAttributeText(scenario, "NoSuchAttribute", "soon"));
}

TEST(MrcValueParser, TimesBeyondNs3sRange)
{
    // int64 nanoseconds: about 292 years. Beyond, Time(std::string) wraps silently ("1e300s"
    // ran at 0, "1e10s" turned negative).
    EXPECT_EQ(MrcValueParser::ParseTime("t", "9e9s"), Seconds(9e9));
    EXPECT_EQ(MrcValueParser::ParseTime("t", "290y"), Seconds(290 * 365 * 86400.0));
    for (const char* beyond : {"1e300s", "1e20s", "1e10s", "293y", "1e19ns", "1e400s"})
    {
        EXPECT_THROW(MrcValueParser::ParseTime("at", beyond), std::invalid_argument) << beyond;
    }
    try
    {
        MrcValueParser::ParseTime("at", "1e300s");
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_STREQ(e.what(),
                     "at (=\"1e300s\") is beyond ns-3's time range: at most 9223372036s (about "
                     "292 years)");
    }
}

// Issue 20, item 8: Interval=1fs rounds to 0 at ns-3's resolution (1 ns); the scenario then
// said "must be > 0" of a value that was not 0.
TEST(MrcValueParser, TimesBelowTheResolution)
{
    for (const char* below : {"1fs", "1000fs", "499ps", "0.4ns", "1e-10s"})
    {
        try
        {
            MrcValueParser::ParseTime("Interval", below);
            FAIL() << below;
        }
        catch (const std::invalid_argument& e)
        {
            EXPECT_EQ(std::string(e.what()),
                      "Interval (=\"" + std::string(below)
                          + "\") is below ns-3's time resolution (1ns): it would be 0");
        }
    }
    EXPECT_THROW(MrcValueParser::CheckAttributeText("Interval", MakeTimeChecker(), "-1fs"),
                 std::invalid_argument);
    EXPECT_THROW(
        MrcValueParser::CheckAttributeText(MrcClusterScenario::GetTypeId(), "Interval", "1fs"),
        std::invalid_argument);
    // Zero, and anything that keeps at least one step, are fine.
    for (const char* ok : {"0fs", "0s", "1ns", "1.5ns", "1e-9s", "1500ps", "1e6fs"})
    {
        EXPECT_NO_THROW(MrcValueParser::ParseTime("Interval", ok)) << ok;
    }
}

TEST(MrcValueParser, TimesFromNumbers)
{
    // Command-line options in microseconds (--failAt): MicroSeconds(1e18) wraps.
    EXPECT_EQ(MrcValueParser::ToTime("--failAt", 2500, Time::US), MicroSeconds(2500));
    EXPECT_EQ(MrcValueParser::ToTime("--failAt", 0, Time::US), Time(0));
    EXPECT_EQ(MrcValueParser::ToTime("--stop", 9e12, Time::MS), MilliSeconds(9e12));
    try
    {
        MrcValueParser::ToTime("--failAt", 1e18, Time::US);
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_STREQ(e.what(),
                     "--failAt (=1e+18 us) is beyond ns-3's time range: at most 9223372036s "
                     "(about 292 years)");
    }
    EXPECT_THROW(MrcValueParser::ToTime("--stop", 1e13, Time::MS), std::invalid_argument);
    try
    {
        MrcValueParser::ToTime("--failAt", -1, Time::US);
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_STREQ(e.what(), "--failAt (=-1 us) must be a time >= 0");
    }
    EXPECT_THROW(MrcValueParser::ToTime("t", std::nan(""), Time::US), std::invalid_argument);
    EXPECT_THROW(MrcValueParser::ToTime("t", INFINITY, Time::S), std::invalid_argument);
}

TEST(MrcValueParser, DataRatesBeyondRange)
{
    // DataRate converts the number times the unit to uint64 without a check.
    EXPECT_THROW(MrcValueParser::ParseDataRate("rate", "99999999999Gbps"), std::invalid_argument);
    EXPECT_THROW(MrcValueParser::ParseDataRate("rate", "1e9bps"), std::invalid_argument);
    EXPECT_EQ(MrcValueParser::ParseDataRate("rate", "1.5Gbps").GetBitRate(), 1500000000ULL);
}
