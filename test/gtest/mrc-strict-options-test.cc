/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * MrcStrictOptions (issue 20): a program's numeric options are read whole. ns3::CommandLine
 * alone reads them with istream >> and silently takes "2.5" as 2, "1e5" as 1 and "-1" as the
 * largest unsigned value.
 */

#include "ns3/mrc-strict-options.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A program's options.
struct Options
{
    uint32_t planes{4};       //!< an unsigned option
    uint8_t small{7};         //!< a narrow one
    int64_t offset{0};        //!< a signed one
    double loss{0};           //!< a real one
    bool quick{false};        //!< passed to CommandLine as it is
    std::string name{"none"}; //!< passed to CommandLine as it is
};

/**
 * \param args the arguments after the program name
 * \return the options they give
 */
Options
Parse(const std::vector<std::string>& args)
{
    Options o;
    CommandLine cmd;
    MrcStrictOptions strict;
    strict.Add(cmd, "planes", "planes", o.planes);
    strict.Add(cmd, "small", "narrow", o.small);
    strict.Add(cmd, "offset", "signed", o.offset);
    strict.Add(cmd, "loss", "real", o.loss);
    strict.Add(cmd, "quick", "flag", o.quick);
    strict.Add(cmd, "name", "text", o.name);
    std::vector<std::string> argv{"prog"};
    argv.insert(argv.end(), args.begin(), args.end());
    cmd.Parse(argv);
    return o;
}

} // namespace

TEST(MrcStrictOptions, WholeNumbersAndOtherTypesAreRead)
{
    const Options o = Parse({"--planes=16",
                             "--small=255",
                             "--offset=-12",
                             "--loss=2.5e-3",
                             "--quick=1",
                             "--name=ring"});
    EXPECT_EQ(o.planes, 16u);
    EXPECT_EQ(o.small, 255);
    EXPECT_EQ(o.offset, -12);
    EXPECT_DOUBLE_EQ(o.loss, 0.0025);
    EXPECT_TRUE(o.quick);
    EXPECT_EQ(o.name, "ring");
    const Options d = Parse({});
    EXPECT_EQ(d.planes, 4u) << "defaults untouched";
    EXPECT_EQ(d.small, 7);
}

TEST(MrcStrictOptionsDeathTest, TrailingTextWrappingAndRangeAreRefusedByName)
{
    EXPECT_EXIT(Parse({"--planes=2.5"}),
                testing::ExitedWithCode(1),
                "--planes \\(=\"2.5\"\\) must be an integer in \\[0, 4294967295\\]");
    EXPECT_EXIT(Parse({"--planes=1e5"}), testing::ExitedWithCode(1), "--planes \\(=\"1e5\"\\)");
    EXPECT_EXIT(Parse({"--planes=-1"}), testing::ExitedWithCode(1), "--planes \\(=\"-1\"\\)");
    EXPECT_EXIT(Parse({"--small=256"}),
                testing::ExitedWithCode(1),
                "--small \\(=\"256\"\\) must be an integer in \\[0, 255\\]");
    EXPECT_EXIT(Parse({"--offset=3x"}), testing::ExitedWithCode(1), "--offset \\(=\"3x\"\\)");
    EXPECT_EXIT(Parse({"--loss=0.1%"}), testing::ExitedWithCode(1), "--loss \\(=\"0.1%\"\\)");
    EXPECT_EXIT(Parse({"--loss=inf"}), testing::ExitedWithCode(1), "--loss \\(=\"inf\"\\)");
}
