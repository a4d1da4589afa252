/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-fabric-address-plan.h"

#include <gtest/gtest.h>
#include <sstream>

using ns3::Ipv6Address;
using ns3::MrcFabricAddressPlan;

namespace
{
/// \return the address printed as ns-3 prints it
std::string
Str(Ipv6Address a)
{
    std::ostringstream os;
    os << a;
    return os.str();
}
} // namespace

TEST(MrcFabricAddressPlan, Layout)
{
    EXPECT_EQ(Str(MrcFabricAddressPlan::HostAddress(2, 300, 5)), "fd00:2:12c:5::1");
    EXPECT_EQ(Str(MrcFabricAddressPlan::HostLinkPrefix(2, 300, 5)), "fd00:2:12c:5::");
    EXPECT_EQ(Str(MrcFabricAddressPlan::T0Prefix(2, 300)), "fd00:2:12c::");
    EXPECT_EQ(Str(MrcFabricAddressPlan::PlanePrefix(2)), "fd00:2::");
    EXPECT_EQ(MrcFabricAddressPlan::kHostLinkPrefixLength, 64);
    EXPECT_EQ(MrcFabricAddressPlan::kT0PrefixLength, 48);
    EXPECT_EQ(MrcFabricAddressPlan::kPlanePrefixLength, 32);
}

TEST(MrcFabricAddressPlan, NotDocumentationPrefix)
{
    // ns-3's Ipv6L3Protocol refuses to forward 2001:db8::/32: hosts must not live there.
    EXPECT_FALSE(MrcFabricAddressPlan::HostAddress(0, 0, 0).IsDocumentation());
}

TEST(MrcFabricAddressPlan, ParseRoundTrip)
{
    for (uint32_t p : {0u, 1u, 15u})
    {
        for (uint32_t t : {0u, 7u, 65535u})
        {
            for (uint32_t h : {0u, 3u, 255u})
            {
                auto loc = MrcFabricAddressPlan::ParseHostAddress(
                    MrcFabricAddressPlan::HostAddress(p, t, h));
                ASSERT_TRUE(loc.has_value());
                EXPECT_EQ(loc->plane, p);
                EXPECT_EQ(loc->t0, t);
                EXPECT_EQ(loc->port, h);
            }
        }
    }
}

TEST(MrcFabricAddressPlan, ParseRejectsOtherAddresses)
{
    EXPECT_FALSE(MrcFabricAddressPlan::ParseHostAddress(Ipv6Address("fe80::1")).has_value());
    EXPECT_FALSE(MrcFabricAddressPlan::ParseHostAddress(Ipv6Address("fd00:1:2:3::2")).has_value());
    EXPECT_FALSE(
        MrcFabricAddressPlan::ParseHostAddress(Ipv6Address("fd00:1:2:3:4::1")).has_value());
    EXPECT_FALSE(MrcFabricAddressPlan::ParseHostAddress(Ipv6Address("fcbb:bb00:1::")).has_value());
}
