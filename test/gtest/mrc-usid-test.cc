/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-clos-spec.h"
#include "ns3/mrc-usid-carrier.h"
#include "ns3/mrc-usid-plan.h"

#include <gtest/gtest.h>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{
/// \return the address as text
std::string
Str(Ipv6Address a)
{
    std::ostringstream os;
    os << a;
    return os.str();
}
} // namespace

TEST(MrcUsidCarrier, ComposeShiftEndOfCarrier)
{
    MrcUsidCarrier c(32, 0xfcbbbb00);
    EXPECT_EQ(c.GetCapacity(), 6u);
    Ipv6Address a = c.Compose({0x1, 0x9, 0x11, 0xf, 0x8, 0xe01});
    EXPECT_EQ(Str(a), "fcbb:bb00:1:9:11:f:8:e01");
    EXPECT_TRUE(c.Matches(a, 0x1));
    EXPECT_FALSE(c.Matches(a, 0x9));
    EXPECT_FALSE(c.IsEndOfCarrier(a));
    a = c.Shift(a);
    EXPECT_EQ(Str(a), "fcbb:bb00:9:11:f:8:e01:0");
    EXPECT_EQ(c.GetActive(a), 0x9);
    for (int i = 0; i < 4; ++i)
    {
        a = c.Shift(a);
    }
    EXPECT_EQ(Str(a), "fcbb:bb00:e01::");
    EXPECT_TRUE(c.IsEndOfCarrier(a));
    EXPECT_EQ(c.GetUsids(a), (std::vector<uint16_t>{0xe01}));
    EXPECT_EQ(Str(c.Locator(0x1234)), "fcbb:bb00:1234::");
    EXPECT_FALSE(c.InBlock(Ipv6Address("fd00::1")));
    EXPECT_EQ(c.GetActive(Ipv6Address("fd00:1234::1")), 0);
}

TEST(MrcUsidCarrier, OtherBlockLengths)
{
    MrcUsidCarrier c16(16, 0xfc00);
    EXPECT_EQ(c16.GetCapacity(), 7u);
    EXPECT_EQ(Str(c16.Compose({1, 2, 3, 4, 5, 6, 7})), "fc00:1:2:3:4:5:6:7");
    MrcUsidCarrier c48(48, 0xfcbbbb000001);
    EXPECT_EQ(c48.GetCapacity(), 5u);
    Ipv6Address a = c48.Compose({0xa, 0xb});
    EXPECT_EQ(Str(a), "fcbb:bb00:1:a:b::");
    EXPECT_TRUE(c48.Matches(a, 0xa));
    EXPECT_EQ(Str(c48.Shift(a)), "fcbb:bb00:1:b::");
}

TEST(MrcUsidCarrier, RejectsBadInput)
{
    EXPECT_THROW(MrcUsidCarrier(24, 0), std::invalid_argument);
    EXPECT_THROW(MrcUsidCarrier(16, 0x1ffff), std::invalid_argument);
    MrcUsidCarrier c(32, 0xfcbbbb00);
    EXPECT_THROW(c.Compose({}), std::invalid_argument);
    EXPECT_THROW(c.Compose({1, 2, 3, 4, 5, 6, 7}), std::invalid_argument);
    EXPECT_THROW(c.Compose({1, 0, 3}), std::invalid_argument);
}

TEST(MrcUsidPlan, UniqueUsidsWithPlaneBits)
{
    // Two-tier Clos with 2 parallel links per T0-T1 pair, 3 planes.
    MrcUsidPlan plan(MrcClosSpec::TwoTier(3, 4, 8, 2, 4));
    EXPECT_EQ(plan.GetVariants(MrcSwitchTier::T0), 2u);
    EXPECT_EQ(plan.GetVariants(MrcSwitchTier::T1), 2u);
    std::set<uint16_t> seen;
    for (uint32_t p = 0; p < 3; ++p)
    {
        for (uint32_t i = 0; i < 4; ++i)
        {
            for (uint32_t v = 0; v < 2; ++v)
            {
                const uint16_t u = plan.GetSwitchUsid(MrcSwitchTier::T0, p, i, v);
                EXPECT_EQ(u >> 12, p);
                EXPECT_NE(u & 0xfff, 0);
                EXPECT_TRUE(seen.insert(u).second);
            }
        }
        for (uint32_t i = 0; i < 2; ++i)
        {
            for (uint32_t v = 0; v < 2; ++v)
            {
                EXPECT_TRUE(seen.insert(plan.GetSwitchUsid(MrcSwitchTier::T1, p, i, v)).second);
            }
        }
        for (uint32_t h = 0; h < 8; ++h)
        {
            const uint16_t u = plan.GetPortUsid(p, h);
            EXPECT_EQ(u, (p << 12) | (0xe00 + h));
            EXPECT_TRUE(seen.insert(u).second);
        }
    }
    EXPECT_EQ(plan.Describe(plan.GetSwitchUsid(MrcSwitchTier::T1, 2, 1, 1)), "p2 T1[1] v1");
    EXPECT_EQ(plan.Describe(plan.GetPortUsid(1, 5)), "p1 port 5");
    EXPECT_EQ(plan.Describe(0), "unallocated");
    EXPECT_THROW(plan.GetSwitchUsid(MrcSwitchTier::T2, 0, 0, 0), std::out_of_range);
    EXPECT_THROW(plan.GetSwitchUsid(MrcSwitchTier::T0, 0, 0, 2), std::out_of_range);
}

TEST(MrcUsidPlan, RefusesFabricsThatDoNotFit)
{
    try
    {
        MrcUsidPlan plan(MrcClosSpec::FatTree(64));
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("needs 5120 switch uSIDs per plane"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_NO_THROW(MrcUsidPlan(MrcClosSpec::FatTree(32)));
    EXPECT_THROW(MrcUsidPlan(MrcClosSpec::TwoTier(1, 2, 600, 2, 2)), std::invalid_argument);
}
