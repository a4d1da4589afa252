/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * MrcValueParser::CheckAttributeText and the command-line check (issue 20, item 1): every
 * attribute value type the bindings and examples pass as text is checked before ns-3 reads it,
 * because ns-3 aborts the program on malformed text (integers and doubles on any trailing
 * text). Every text the check accepts is read by ns-3 (CheckAttributeText ends with the
 * checker's CreateValidValue, so an accepted text that aborted ns-3 would crash this test).
 */

#include "ns3/address.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"
#include "ns3/mac48-address.h"
#include "ns3/mrc-cluster-scenario.h"
#include "ns3/mrc-value-parser.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \param checker a checker
 * \param text a value
 * \return the message CheckAttributeText throws ("" if none)
 */
std::string
Refusal(Ptr<const AttributeChecker> checker, const std::string& text)
{
    try
    {
        MrcValueParser::CheckAttributeText("Field", checker, text);
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/**
 * Expect good texts accepted (and read by ns-3) and bad ones refused naming the field.
 * \param checker the checker
 * \param good accepted texts
 * \param bad refused texts
 */
void
ExpectChecked(Ptr<const AttributeChecker> checker,
              const std::vector<std::string>& good,
              const std::vector<std::string>& bad)
{
    for (const std::string& text : good)
    {
        EXPECT_EQ(Refusal(checker, text), "") << text;
        EXPECT_NE(checker->CreateValidValue(StringValue(text)), nullptr) << text;
    }
    for (const std::string& text : bad)
    {
        EXPECT_EQ(Refusal(checker, text).rfind("Field (=\"" + text + "\") ", 0), 0u) << text;
    }
}

/**
 * \param args the arguments after the program name
 * \return the message CheckCommandLine throws ("" if none)
 */
std::string
CommandLineRefusal(const std::vector<std::string>& args)
{
    std::vector<std::string> argv{"prog"};
    argv.insert(argv.end(), args.begin(), args.end());
    try
    {
        MrcValueParser::CheckCommandLine(argv);
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

// The premise: without the check, ns-3 itself aborts on these texts (death tests fork).
TEST(AttributeTextDeathTest, Ns3AbortsOnTrailingText)
{
    EXPECT_DEATH(MakeUintegerChecker<uint32_t>()->CreateValidValue(StringValue("2.5")), "");
    EXPECT_DEATH(MakeUintegerChecker<uint64_t>()->CreateValidValue(StringValue("1e6")), "");
    EXPECT_DEATH(MakeIntegerChecker<int32_t>()->CreateValidValue(StringValue("ten")), "");
    EXPECT_DEATH(MakeDoubleChecker<double>()->CreateValidValue(StringValue("0.5x")), "");
    EXPECT_DEATH(MakeTimeChecker()->CreateValidValue(StringValue("abc")), "");
    EXPECT_DEATH(MakeDataRateChecker()->CreateValidValue(StringValue("1Gbps x")), "");
}

TEST(AttributeText, Integers)
{
    const Ptr<const AttributeChecker> planes = MakeUintegerChecker<uint32_t>(1, 16);
    ExpectChecked(planes,
                  {"1", "16", "+4", "007"},
                  {"0", "17", "2.5", "1e6", "None", "ten", "-1", " 2", "2 ", "", "0x10"});
    EXPECT_EQ(Refusal(planes, "2.5"), "Field (=\"2.5\") must be an integer in [1, 16]");
    // istream reads "-1" as 2^64 - 1, which a uint64 checker would take.
    const Ptr<const AttributeChecker> u64 = MakeUintegerChecker<uint64_t>();
    ExpectChecked(u64,
                  {"0", "18446744073709551615"},
                  {"-1", "18446744073709551616", "1000000.0", "1e6"});
    const Ptr<const AttributeChecker> i32 = MakeIntegerChecker<int32_t>(-5, 5);
    ExpectChecked(i32, {"-5", "0", "+5"}, {"-6", "6", "1.0", "--1", "9223372036854775808"});
    EXPECT_EQ(Refusal(i32, "x"), "Field (=\"x\") must be an integer in [-5, 5]");
}

TEST(AttributeText, DoublesBooleansEnums)
{
    const Ptr<const AttributeChecker> p = MakeDoubleChecker<double>(0, 1);
    ExpectChecked(p, {"0", "1", "0.5", ".5", "5e-1", "1."}, {"1.5", "-0.1", "0.5x", "nan", "inf"});
    EXPECT_EQ(Refusal(p, "half"), "Field (=\"half\") must be a number in [0, 1]");
    ExpectChecked(MakeDoubleChecker<double>(), {"1e300", "-2.5"}, {"1e400", "1e", "e5", ""});
    ExpectChecked(MakeBooleanChecker(),
                  {"true", "false", "1", "0", "t", "f"},
                  {"yes", "True", "2", ""});
    const Ptr<const AttributeChecker> e = MakeEnumChecker(0, "srv6", 1, "ecmp");
    ExpectChecked(e, {"srv6", "ecmp"}, {"mpls", "0", ""});
    EXPECT_EQ(Refusal(e, "mpls"), "Field (=\"mpls\") must be one of: srv6, ecmp");
}

TEST(AttributeText, TimesAndTheirRange)
{
    const Ptr<const AttributeChecker> t = MakeTimeChecker();
    // Everything Time(std::string) reads: units, no unit (seconds), signs, exponents.
    ExpectChecked(t,
                  {"1us", "2.5ms", "-3ns", "4", "1e-6s", "+7min", "9e9s", "290y", "-9e18ns"},
                  {"soon",
                   "1 us",
                   "us",
                   "1usx",
                   "",
                   "1e300s",
                   "1e10s",
                   "1e20s",
                   "293y",
                   "-1e10",
                   "1e400s",
                   "1e19ns"});
    EXPECT_EQ(Refusal(t, "1e300s"),
              "Field (=\"1e300s\") is beyond ns-3's time range: at most "
                  + MrcValueParser::GetMaxTimeText());
    EXPECT_EQ(MrcValueParser::GetMaxTimeText(), "9223372036s (about 292 years)");
    // The checker's own range still applies.
    ExpectChecked(MakeTimeChecker(Seconds(0), Seconds(1)), {"0s", "1s"}, {"-1ns", "2s"});
}

TEST(AttributeText, RatesAndQueueSizes)
{
    ExpectChecked(MakeDataRateChecker(),
                  {"100Gbps", "400Gb/s", "1.5Mbps", "8", "10KiB/s", "1GBps", "0bps"},
                  {"fast",
                   "1Gbps x",
                   "1 Gbps",
                   "1.5",
                   "1Tbps",
                   "1Kibps",
                   "1e9bps",
                   "99999999999Gbps",
                   "18446744073709551616",
                   ""});
    ExpectChecked(MakeQueueSizeChecker(),
                  {"100p", "1MB", "1.5KiB", "64kp", "4294967295B"},
                  {"100", "100 p", "100px", "1GB", "4294967296B", "5000Mp", ""});
}

TEST(AttributeText, Addresses)
{
    ExpectChecked(MakeIpv4AddressChecker(), {"10.0.0.1", "0.0.0.0"}, {"10.0.0", "1.2.3.256", "x"});
    ExpectChecked(MakeIpv4MaskChecker(),
                  {"255.255.255.0", "/24", "/0", "/32"},
                  {"/33", "/", "255.255.255", "24"});
    ExpectChecked(MakeIpv6AddressChecker(), {"2001:db8::1", "::"}, {"2001:db8:::1", "fd00::g"});
    ExpectChecked(MakeIpv6PrefixChecker(), {"ffff:ffff::"}, {"/64x", "ffff:ffff"});
    ExpectChecked(MakeMac48AddressChecker(),
                  {"00:00:00:00:00:01", "aa:BB:cc:dd:ee:ff"},
                  {"00:00:00:00:00", "00:00:00:00:00:01:02", "0:0:0:0:0:1", "zz:00:00:00:00:00"});
    ExpectChecked(MakeAddressChecker(),
                  {"07-06-00:00:00:00:00:01", "04-04-0a:00:00:01"},
                  {"07-05-00:00:00:00:00:01", "07-06-00:00", "x", "07-15-" + std::string(62, '0')});
}

TEST(AttributeText, OtherTypesAreLeftToNs3)
{
    EXPECT_EQ(Refusal(MakeStringChecker(), "anything at all"), "");
    EXPECT_EQ(Refusal(nullptr, "x"), "");
}

TEST(AttributeText, ByTypeAndAttributeName)
{
    const TypeId scenario = MrcClusterScenario::GetTypeId();
    EXPECT_THROW(MrcValueParser::CheckAttributeText(scenario, "ComputeTime", "soon"),
                 std::invalid_argument);
    EXPECT_THROW(MrcValueParser::CheckAttributeText(scenario, "LinkDelay", "1e300s"),
                 std::invalid_argument);
    EXPECT_THROW(MrcValueParser::CheckAttributeText(scenario, "Planes", "2.5"),
                 std::invalid_argument);
    EXPECT_NO_THROW(MrcValueParser::CheckAttributeText(scenario, "ComputeTime", "20us"));
    EXPECT_NO_THROW(MrcValueParser::CheckAttributeText(scenario, "NoSuchAttribute", "soon"));
}

TEST(AttributeText, GlobalValues)
{
    EXPECT_THROW(MrcValueParser::CheckGlobalValueText("RngRun", "two"), std::invalid_argument);
    EXPECT_THROW(MrcValueParser::CheckGlobalValueText("RngRun", "2.5"), std::invalid_argument);
    EXPECT_NO_THROW(MrcValueParser::CheckGlobalValueText("RngRun", "2"));
    EXPECT_NO_THROW(MrcValueParser::CheckGlobalValueText("NoSuchGlobal", "two"));
}

TEST(CommandLineCheck, Ns3ArgumentsAreCheckedBeforeParsing)
{
    EXPECT_EQ(CommandLineRefusal({"--ns3::MrcClusterScenario::StopTime=abc"})
                  .rfind("--ns3::MrcClusterScenario::StopTime (=\"abc\") must be a time", 0),
              0u);
    EXPECT_EQ(CommandLineRefusal({"--quick", "-ns3::MrcClusterScenario::Planes=2.5"}),
              "--ns3::MrcClusterScenario::Planes (=\"2.5\") must be an integer in [0, "
              "4294967295]");
    EXPECT_NE(CommandLineRefusal({"--ns3::MrcClusterScenario::LinkDelay=1e300s"})
                  .find("beyond ns-3's time range"),
              std::string::npos);
    EXPECT_NE(CommandLineRefusal({"--RngRun=abc"}).find("--RngRun (=\"abc\")"), std::string::npos);
    EXPECT_NE(CommandLineRefusal({"--ns3::MrcClusterScenario::VerifyData"}), "");
    // The program's own options, known attributes with good values, unknown names and
    // non-options are not this check's business.
    EXPECT_EQ(CommandLineRefusal({"--quick",
                                  "--fabrics=mrc,roce",
                                  "--failAt=2.5",
                                  "--ns3::MrcClusterScenario::Planes=2",
                                  "--ns3::MrcClusterScenario::LinkDelay=2us",
                                  "--ns3::NoSuchType::X=abc",
                                  "--RngRun=3",
                                  "extra",
                                  "--PrintAttributes=ns3::MrcClusterScenario"}),
              "");
}

TEST(CommandLineCheckDeathTest, ExitsWithTheReasonInsteadOfAborting)
{
    auto parse = [](std::vector<std::string> args) {
        std::vector<char*> argv;
        for (std::string& a : args)
        {
            argv.push_back(a.data());
        }
        CommandLine cmd("/some/where/prog.cc");
        MrcValueParser::ParseCommandLine(cmd, static_cast<int>(argv.size()), argv.data());
        std::exit(0);
    };
    EXPECT_EXIT(parse({"prog", "--ns3::MrcClusterScenario::StopTime=abc"}),
                ::testing::ExitedWithCode(1),
                "prog: --ns3::MrcClusterScenario::StopTime \\(=\"abc\"\\) must be a time");
    EXPECT_EXIT(parse({"prog", "--ns3::MrcClusterScenario::StopTime=2ms"}),
                ::testing::ExitedWithCode(0),
                "");
}
