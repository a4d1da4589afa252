/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/data-rate.h"
#include "ns3/mrc-cluster-scenario.h"
#include "ns3/nstime.h"
#include "ns3/value-parser.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

TEST(ValueParser, DataRates)
{
    EXPECT_EQ(ValueParser::ParseDataRate("r", "100Gbps").GetBitRate(), 100000000000ULL);
    EXPECT_EQ(ValueParser::ParseDataRate("r", "400Gb/s").GetBitRate(), 400000000000ULL);
    EXPECT_EQ(ValueParser::ParseDataRate("r", "1500bps").GetBitRate(), 1500ULL);
    try
    {
        ValueParser::ParseDataRate("--hostRate", "fast");
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_STREQ(e.what(),
                     "--hostRate (=\"fast\") must be a positive data rate such as \"100Gbps\"");
    }
    EXPECT_THROW(ValueParser::ParseDataRate("r", "0bps"), std::invalid_argument);
    EXPECT_THROW(ValueParser::ParseDataRate("r", ""), std::invalid_argument);
    EXPECT_THROW(ValueParser::ParseDataRate("r", "100Gbps x"), std::invalid_argument);
}

TEST(ValueParser, Times)
{
    EXPECT_EQ(ValueParser::ParseTime("t", "1us"), MicroSeconds(1));
    EXPECT_EQ(ValueParser::ParseTime("t", "2.5ms"), MicroSeconds(2500));
    EXPECT_EQ(ValueParser::ParseTime("t", "0s"), Time(0));
    EXPECT_THROW(ValueParser::ParseTime("t", "1"), std::invalid_argument);
    EXPECT_THROW(ValueParser::ParseTime("t", "-1us"), std::invalid_argument);
    EXPECT_THROW(ValueParser::ParseTime("t", "soon"), std::invalid_argument);
    try
    {
        ValueParser::ParseTime("--delay", "1 parsec");
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("--delay (=\"1 parsec\") must be a non-negative time"),
                  std::string::npos);
    }
}

TEST(ValueParser, AttributeTextThatWouldAbortNs3)
{
    const Ptr<const AttributeChecker> time = MakeTimeChecker();
    // Everything Time(std::string) reads passes: units, no unit (seconds), signs, exponents.
    for (const char* ok : {"1us", "2.5ms", "-3ns", "4", "1e-6s", "+7min"})
    {
        EXPECT_NO_THROW(ValueParser::CheckAttributeText("T", time, ok)) << ok;
    }
    for (const char* bad : {"soon", "1 us", "us", "1usx", ""})
    {
        EXPECT_THROW(ValueParser::CheckAttributeText("T", time, bad), std::invalid_argument) << bad;
    }
    // Other values refuse bad text themselves: nothing to check here.
    EXPECT_NO_THROW(ValueParser::CheckAttributeText("R", MakeDataRateChecker(), "fast"));
    // By type and attribute name; unknown attributes are left to ns-3.
    const TypeId scenario = MrcClusterScenario::GetTypeId();
    EXPECT_THROW(ValueParser::CheckAttributeText(scenario, "ComputeTime", "soon"),
                 std::invalid_argument);
    EXPECT_NO_THROW(ValueParser::CheckAttributeText(scenario, "ComputeTime", "20us"));
    EXPECT_NO_THROW(ValueParser::CheckAttributeText(scenario, "NoSuchAttribute", "soon"));
}
