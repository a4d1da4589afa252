/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * How MrcQpGroup stripes a message over its queue pairs.
 */

#include "ns3/mrc-qp-group.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

namespace
{
/// \return "member:offset+bytes" per part, for readable comparisons
std::vector<std::string>
Show(const std::vector<MrcQpGroup::Part>& parts)
{
    std::vector<std::string> out;
    for (const MrcQpGroup::Part& p : parts)
    {
        out.push_back(std::to_string(p.member) + ":" + std::to_string(p.offset) + "+"
                      + std::to_string(p.bytes));
    }
    return out;
}
} // namespace

TEST(MrcQpGroup, StripesWholePacketsOverEveryMember)
{
    // 1 MiB = 256 packets of 4096 B over 8 members: 32 packets each.
    const auto parts = MrcQpGroup::Stripe(1 << 20, 8, 4096, 0);
    ASSERT_EQ(parts.size(), 8u);
    for (uint32_t i = 0; i < 8; ++i)
    {
        EXPECT_EQ(parts[i].member, i);
        EXPECT_EQ(parts[i].offset, i * 32 * 4096ULL);
        EXPECT_EQ(parts[i].bytes, 32 * 4096ULL);
    }
}

TEST(MrcQpGroup, UnevenSizesRoundUpToPacketsAndTheLastPartTakesTheRest)
{
    // 10 packets (the last one short) over 4 members: 3 + 3 + 3 + 1 packets.
    EXPECT_EQ(
        Show(MrcQpGroup::Stripe(9 * 4096 + 10, 4, 4096, 0)),
        (std::vector<std::string>{"0:0+12288", "1:12288+12288", "2:24576+12288", "3:36864+10"}));
    // 5 packets over 4 members: 2 + 2 + 1, the fourth member idle.
    EXPECT_EQ(Show(MrcQpGroup::Stripe(5 * 4096, 4, 4096, 0)),
              (std::vector<std::string>{"0:0+8192", "1:8192+8192", "2:16384+4096"}));
}

TEST(MrcQpGroup, SmallMessagesRotateOverMembers)
{
    EXPECT_EQ(Show(MrcQpGroup::Stripe(100, 8, 4096, 5)), (std::vector<std::string>{"5:0+100"}));
    EXPECT_EQ(Show(MrcQpGroup::Stripe(3 * 4096, 4, 4096, 3)),
              (std::vector<std::string>{"3:0+4096", "0:4096+4096", "1:8192+4096"}));
    EXPECT_EQ(Show(MrcQpGroup::Stripe(0, 4, 4096, 6)), (std::vector<std::string>{"2:0+0"}));
}

TEST(MrcQpGroup, OneMemberTakesEverything)
{
    EXPECT_EQ(Show(MrcQpGroup::Stripe(12345, 1, 4096, 7)), (std::vector<std::string>{"0:0+12345"}));
}

TEST(MrcQpGroup, RejectsZeroMembers)
{
    EXPECT_THROW(MrcQpGroup::Stripe(1, 0, 4096, 0), std::invalid_argument);
    EXPECT_THROW(MrcQpGroup::Stripe(1, 1, 0, 0), std::invalid_argument);
}
