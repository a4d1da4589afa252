/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-ecmp-route-table.h"

#include <gtest/gtest.h>
#include <stdexcept>

using ns3::Ipv6Address;
using ns3::MrcEcmpRouteTable;

namespace
{
/// \return the next hops Lookup() gives, or {} for no route
std::vector<uint32_t>
Hops(const MrcEcmpRouteTable& t, const char* dst)
{
    const auto* g = t.Lookup(Ipv6Address(dst));
    return g ? *g : std::vector<uint32_t>{};
}
} // namespace

TEST(MrcEcmpRouteTable, LongestPrefixWins)
{
    MrcEcmpRouteTable t;
    t.AddRoute(Ipv6Address("fd00:0::"), 32, {1, 2});
    t.AddRoute(Ipv6Address("fd00:0:5::"), 48, {3});
    t.AddRoute(Ipv6Address("fd00:0:5:7::"), 64, {4});
    EXPECT_EQ(Hops(t, "fd00:0:5:7::1"), (std::vector<uint32_t>{4}));
    EXPECT_EQ(Hops(t, "fd00:0:5:8::1"), (std::vector<uint32_t>{3}));
    EXPECT_EQ(Hops(t, "fd00:0:6::1"), (std::vector<uint32_t>{1, 2}));
    EXPECT_EQ(Hops(t, "fd00:1::1"), (std::vector<uint32_t>{}));
    EXPECT_EQ(t.GetNRoutes(), 3u);
}

TEST(MrcEcmpRouteTable, HostBitsIgnoredAndGroupsMerge)
{
    MrcEcmpRouteTable t;
    t.AddRoute(Ipv6Address("fd00:0:5:ffff::1"), 48, {1});
    t.AddRoute(Ipv6Address("fd00:0:5::"), 48, {2, 1});
    EXPECT_EQ(t.GetNRoutes(), 1u);
    EXPECT_EQ(Hops(t, "fd00:0:5::9"), (std::vector<uint32_t>{1, 2}));
}

TEST(MrcEcmpRouteTable, OddPrefixLengths)
{
    MrcEcmpRouteTable t;
    t.AddRoute(Ipv6Address("fd00:0:80::"), 41, {1}); // 41st bit set
    EXPECT_EQ(Hops(t, "fd00:0:ff::1"), (std::vector<uint32_t>{1}));
    EXPECT_EQ(Hops(t, "fd00:0:7f::1"), (std::vector<uint32_t>{}));
    t.AddRoute(Ipv6Address("::"), 0, {9});
    EXPECT_EQ(Hops(t, "2001::1"), (std::vector<uint32_t>{9}));
}

TEST(MrcEcmpRouteTable, PrefixLengthsAroundTheHalves)
{
    // The key is two 64-bit halves: lengths at and next to the boundary, and whole addresses.
    MrcEcmpRouteTable t;
    t.AddRoute(Ipv6Address("fd00:0:0:1:8000::"), 65, {65});
    t.AddRoute(Ipv6Address("fd00:0:0:2::"), 64, {64});
    t.AddRoute(Ipv6Address("fd00:0:0:3::"), 63, {63}); // fd00:0:0:2::/63 as well
    t.AddRoute(Ipv6Address("fd00::7"), 128, {128});
    t.AddRoute(Ipv6Address("fd00::6"), 127, {127}); // fd00::6 and fd00::7
    EXPECT_EQ(Hops(t, "fd00:0:0:1:8000::1"), (std::vector<uint32_t>{65}));
    EXPECT_EQ(Hops(t, "fd00:0:0:1:ffff::1"), (std::vector<uint32_t>{65}));
    EXPECT_EQ(Hops(t, "fd00:0:0:1:7fff::1"), (std::vector<uint32_t>{}));
    EXPECT_EQ(Hops(t, "fd00:0:0:2:ffff::1"), (std::vector<uint32_t>{64}));
    EXPECT_EQ(Hops(t, "fd00:0:0:3:ffff::1"), (std::vector<uint32_t>{63}));
    EXPECT_EQ(Hops(t, "fd00:0:0:4::1"), (std::vector<uint32_t>{}));
    EXPECT_EQ(Hops(t, "fd00::7"), (std::vector<uint32_t>{128}));
    EXPECT_EQ(Hops(t, "fd00::6"), (std::vector<uint32_t>{127}));
    EXPECT_EQ(Hops(t, "fd00::5"), (std::vector<uint32_t>{}));
    // The network is stored masked, whatever the host bits given.
    ASSERT_TRUE(t.GetRoute(Ipv6Address("fd00:0:0:3::"), 63).has_value());
    EXPECT_EQ(t.GetRoute(Ipv6Address("fd00:0:0:3::"), 63)->network, Ipv6Address("fd00:0:0:2::"));
}

TEST(MrcEcmpRouteTable, WithdrawEverywhereFallsBackToShorterPrefix)
{
    MrcEcmpRouteTable t;
    t.AddRoute(Ipv6Address("fd00:0::"), 32, {1, 2});
    t.AddRoute(Ipv6Address("fd00:0:5::"), 48, {3, 4});
    t.AddRoute(Ipv6Address("fd00:0:6::"), 48, {3, 1});
    EXPECT_EQ(t.SetNextHopEnabled(3, false), 2u);
    EXPECT_FALSE(t.IsNextHopEnabled(3));
    EXPECT_EQ(Hops(t, "fd00:0:5::1"), (std::vector<uint32_t>{4}));
    EXPECT_EQ(Hops(t, "fd00:0:6::1"), (std::vector<uint32_t>{1}));
    t.SetNextHopEnabled(4, false);
    // fd00:0:5::/48 has nothing left: the /32 takes over.
    EXPECT_EQ(Hops(t, "fd00:0:5::1"), (std::vector<uint32_t>{1, 2}));
    EXPECT_EQ(t.SetNextHopEnabled(3, true), 2u);
    EXPECT_EQ(Hops(t, "fd00:0:5::1"), (std::vector<uint32_t>{3}));
    EXPECT_EQ(Hops(t, "fd00:0:6::1"), (std::vector<uint32_t>{3, 1}));
}

TEST(MrcEcmpRouteTable, WithdrawOneRouteOnly)
{
    MrcEcmpRouteTable t;
    t.AddRoute(Ipv6Address("fd00:0:5::"), 48, {3, 4});
    t.AddRoute(Ipv6Address("fd00:0:6::"), 48, {3, 4});
    EXPECT_TRUE(t.SetNextHopEnabled(Ipv6Address("fd00:0:5::"), 48, 3, false));
    EXPECT_EQ(Hops(t, "fd00:0:5::1"), (std::vector<uint32_t>{4}));
    EXPECT_EQ(Hops(t, "fd00:0:6::1"), (std::vector<uint32_t>{3, 4}));
    EXPECT_FALSE(t.SetNextHopEnabled(Ipv6Address("fd00:0:5::"), 48, 9, false));
    EXPECT_FALSE(t.SetNextHopEnabled(Ipv6Address("fd00:0:7::"), 48, 3, false));
    EXPECT_TRUE(t.SetNextHopEnabled(Ipv6Address("fd00:0:5::"), 48, 3, true));
    EXPECT_EQ(Hops(t, "fd00:0:5::1"), (std::vector<uint32_t>{3, 4}));
}

TEST(MrcEcmpRouteTable, RemoveAndList)
{
    MrcEcmpRouteTable t;
    t.AddRoute(Ipv6Address("fd00:0:6::"), 48, {1});
    t.AddRoute(Ipv6Address("fd00:0:5::"), 48, {2});
    t.AddRoute(Ipv6Address("fd00:0:5:1::"), 64, {3});
    auto routes = t.GetRoutes();
    ASSERT_EQ(routes.size(), 3u);
    EXPECT_EQ(routes[0].prefixLength, 64);
    EXPECT_EQ(routes[1].network, Ipv6Address("fd00:0:5::"));
    EXPECT_EQ(routes[2].network, Ipv6Address("fd00:0:6::"));
    EXPECT_TRUE(t.RemoveRoute(Ipv6Address("fd00:0:5:1::"), 64));
    EXPECT_FALSE(t.RemoveRoute(Ipv6Address("fd00:0:5:1::"), 64));
    EXPECT_EQ(Hops(t, "fd00:0:5:1::1"), (std::vector<uint32_t>{2}));
}

TEST(MrcEcmpRouteTable, RejectsBadRoutes)
{
    MrcEcmpRouteTable t;
    EXPECT_THROW(t.AddRoute(Ipv6Address("fd00::"), 129, {1}), std::invalid_argument);
    EXPECT_THROW(t.AddRoute(Ipv6Address("fd00::"), 48, {}), std::invalid_argument);
    try
    {
        t.AddRoute(Ipv6Address("fd00::"), 200, {1});
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_STREQ(e.what(),
                     "MrcEcmpRouteTable::AddRoute: prefixLength (=200) must be in 0..128");
    }
}

TEST(MrcEcmpRouteTable, SetRouteNextHopsReplacesOneGroup)
{
    MrcEcmpRouteTable t;
    t.AddRoute(Ipv6Address("fd00:0::"), 32, {9});
    t.AddRoute(Ipv6Address("fd00:0:5::"), 48, {3, 1, 4});
    t.AddRoute(Ipv6Address("fd00:0:6::"), 48, {3, 1, 4});
    // Replace one route's set: the members keep their order, the other route is untouched.
    EXPECT_TRUE(t.SetRouteNextHops(Ipv6Address("fd00:0:5:ffff::"), 48, {4, 3}));
    EXPECT_EQ(Hops(t, "fd00:0:5::1"), (std::vector<uint32_t>{3, 4}));
    EXPECT_EQ(Hops(t, "fd00:0:6::1"), (std::vector<uint32_t>{3, 1, 4}));
    EXPECT_FALSE(t.SetRouteNextHops(Ipv6Address("fd00:0:5::"), 48, {3, 4})); // no change
    // A next hop that is not a member yet is appended.
    EXPECT_TRUE(t.SetRouteNextHops(Ipv6Address("fd00:0:5::"), 48, {3, 7}));
    EXPECT_EQ(Hops(t, "fd00:0:5::1"), (std::vector<uint32_t>{3, 7}));
    auto r = t.GetRoute(Ipv6Address("fd00:0:5::"), 48);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->members, (std::vector<uint32_t>{3, 1, 4, 7}));
    // Empty: the route stops matching and the /32 takes over.
    EXPECT_TRUE(t.SetRouteNextHops(Ipv6Address("fd00:0:5::"), 48, {}));
    EXPECT_EQ(Hops(t, "fd00:0:5::1"), (std::vector<uint32_t>{9}));
    EXPECT_EQ(t.GetNRoutes(), 3u); // still listed, with no active next hop
    EXPECT_TRUE(t.GetRoute(Ipv6Address("fd00:0:5::"), 48)->active.empty());
    // The original set gives back the original group exactly.
    EXPECT_TRUE(t.SetRouteNextHops(Ipv6Address("fd00:0:5::"), 48, {1, 4, 3}));
    EXPECT_EQ(Hops(t, "fd00:0:5::1"), (std::vector<uint32_t>{3, 1, 4}));
    // A global withdrawal still applies on top of the route's set.
    t.SetNextHopEnabled(1, false);
    EXPECT_EQ(Hops(t, "fd00:0:5::1"), (std::vector<uint32_t>{3, 4}));
    t.SetNextHopEnabled(1, true);
    // A missing route is created (not with an empty set).
    EXPECT_FALSE(t.SetRouteNextHops(Ipv6Address("fd00:0:8::"), 48, {}));
    EXPECT_FALSE(t.GetRoute(Ipv6Address("fd00:0:8::"), 48).has_value());
    EXPECT_TRUE(t.SetRouteNextHops(Ipv6Address("fd00:0:8::"), 48, {2}));
    EXPECT_EQ(Hops(t, "fd00:0:8::1"), (std::vector<uint32_t>{2}));
    EXPECT_FALSE(t.GetRoute(Ipv6Address("fd00:0:8::"), 64).has_value());
    EXPECT_THROW(t.SetRouteNextHops(Ipv6Address("fd00::"), 129, {1}), std::invalid_argument);
}
