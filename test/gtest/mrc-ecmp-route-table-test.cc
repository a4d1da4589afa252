/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-ecmp-route-table.h"

#include <algorithm>
#include <array>
#include <gtest/gtest.h>
#include <optional>
#include <random>
#include <set>
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

namespace
{
/// A route of the reference table in CompiledTableMatchesAReference.
struct RefRoute
{
    std::array<uint8_t, 16> network; //!< masked address
    uint8_t length;                  //!< prefix length
    std::vector<uint32_t> members;   //!< next hops
    std::set<uint32_t> withdrawn;    //!< withdrawn from this route only
};

/// \return the address's bytes with the bits after length cleared
std::array<uint8_t, 16>
MaskBytes(std::array<uint8_t, 16> b, unsigned length)
{
    for (unsigned bit = length; bit < 128; ++bit)
    {
        b[bit / 8] &= static_cast<uint8_t>(~(0x80u >> (bit % 8)));
    }
    return b;
}

/// \return the address of these bytes (Ipv6Address takes a non-const pointer)
Ipv6Address
Addr(std::array<uint8_t, 16> b)
{
    return Ipv6Address(b.data());
}
} // namespace

TEST(MrcEcmpRouteTable, CompiledTableMatchesAReference)
{
    // Lookup reads a compiled copy of the table: after every kind of change it must give what
    // a plain longest-prefix search over the routes gives. Routes share a block and differ in
    // one 16-bit field right after the prefix (a locator's), so their masked keys have zero low
    // bits, the case a weak hash of the compiled table collides on; a few hundred routes make
    // the compiled array grow several times.
    //
    // The first 32 bits come from a few blocks: each length up to 80 draws from two of them (a
    // level Find skips for a destination in another block: a T0's host links beside its uSID
    // locators), 127 and 128 from all five (too many for the filter), 24 from all (shorter
    // than the filter's 32 bits); lookups from all five.
    std::mt19937 rng(7);
    const std::vector<uint8_t> lengths{24, 32, 48, 64, 80, 127, 128};
    const std::array<std::array<uint8_t, 4>, 5> blocks{{{0xfc, 0x00, 0x00, 0x00},
                                                        {0xfc, 0x00, 0x00, 0x01},
                                                        {0xfd, 0x00, 0x00, 0x00},
                                                        {0xfc, 0x00, 0x80, 0x00},
                                                        {0x20, 0x01, 0x0d, 0xb8}}};
    const auto randomAddress = [&rng, &blocks](unsigned length = 0) {
        const size_t block = length < 32 || length > 80 ? rng() % blocks.size()
                                                        : (length / 16 + rng() % 2) % blocks.size();
        std::array<uint8_t, 16> b{blocks[block][0],
                                  blocks[block][1],
                                  blocks[block][2],
                                  blocks[block][3]};
        for (unsigned i = 4; i < 16; ++i)
        {
            b[i] = (rng() % 4 == 0) ? static_cast<uint8_t>(rng()) : 0;
        }
        b[4 + rng() % 2] = static_cast<uint8_t>(rng() % 8); // few distinct values: overlaps
        return b;
    };
    MrcEcmpRouteTable t;
    std::vector<RefRoute> ref;
    std::set<uint32_t> withdrawnEverywhere;
    const auto expected = [&](const std::array<uint8_t, 16>& dst) {
        const RefRoute* best = nullptr;
        std::vector<uint32_t> bestActive;
        for (const RefRoute& r : ref)
        {
            std::vector<uint32_t> active;
            for (uint32_t m : r.members)
            {
                if (r.withdrawn.count(m) == 0 && withdrawnEverywhere.count(m) == 0)
                {
                    active.push_back(m);
                }
            }
            if (!active.empty() && MaskBytes(dst, r.length) == r.network
                && (!best || r.length > best->length))
            {
                best = &r;
                bestActive = active;
            }
        }
        return bestActive;
    };
    uint32_t checked = 0;
    const auto check = [&](const std::array<uint8_t, 16>& dst, unsigned step) {
        const auto* got = t.Lookup(Addr(dst));
        const std::vector<uint32_t> want = expected(dst);
        EXPECT_EQ(got ? *got : std::vector<uint32_t>{}, want)
            << "lookup " << Addr(dst) << " at step " << step;
        // The first next hop kept beside the key follows every change as the group does.
        const std::optional<uint32_t> first = t.LookupFirst(Addr(dst));
        EXPECT_EQ(first, want.empty() ? std::nullopt : std::optional<uint32_t>(want.front()))
            << "first next hop " << Addr(dst) << " at step " << step;
        checked += want.empty() ? 0 : 1;
    };
    for (unsigned step = 0; step < 3000; ++step)
    {
        const unsigned action = rng() % 10;
        std::optional<std::array<uint8_t, 16>> changed; // a route the step changed
        if (action < 4 || ref.empty())
        {
            const uint8_t length = lengths[rng() % lengths.size()];
            const auto network = MaskBytes(randomAddress(length), length);
            const std::vector<uint32_t> hops{static_cast<uint32_t>(rng() % 8),
                                             static_cast<uint32_t>(rng() % 8)};
            t.AddRoute(Addr(network), length, hops);
            auto it = std::find_if(ref.begin(), ref.end(), [&](const RefRoute& r) {
                return r.length == length && r.network == network;
            });
            if (it == ref.end())
            {
                ref.push_back(RefRoute{network, length, {}, {}});
                it = ref.end() - 1;
            }
            for (uint32_t h : hops)
            {
                if (std::find(it->members.begin(), it->members.end(), h) == it->members.end())
                {
                    it->members.push_back(h);
                }
            }
            changed = network;
        }
        else if (action == 4)
        {
            const size_t i = rng() % ref.size();
            EXPECT_TRUE(t.RemoveRoute(Addr(ref[i].network), ref[i].length));
            changed = ref[i].network;
            ref.erase(ref.begin() + i);
        }
        else if (action == 5)
        {
            const auto hop = static_cast<uint32_t>(rng() % 8);
            const bool enabled = rng() % 2 == 0;
            t.SetNextHopEnabled(hop, enabled);
            enabled ? (void)withdrawnEverywhere.erase(hop) : (void)withdrawnEverywhere.insert(hop);
            changed = ref[rng() % ref.size()].network;
        }
        else if (action == 6)
        {
            RefRoute& r = ref[rng() % ref.size()];
            const uint32_t hop = r.members[rng() % r.members.size()];
            const bool enabled = rng() % 2 == 0;
            EXPECT_TRUE(t.SetNextHopEnabled(Addr(r.network), r.length, hop, enabled));
            enabled ? (void)r.withdrawn.erase(hop) : (void)r.withdrawn.insert(hop);
            changed = r.network;
        }
        else
        {
            // Lookups: at a route (or inside it), and anywhere.
            for (unsigned q = 0; q < 8; ++q)
            {
                std::array<uint8_t, 16> dst = randomAddress();
                if (q % 2 == 0)
                {
                    const RefRoute& r = ref[rng() % ref.size()];
                    for (unsigned bit = 0; bit < r.length; ++bit) // r's prefix, dst's host bits
                    {
                        const uint8_t m = static_cast<uint8_t>(0x80u >> (bit % 8));
                        dst[bit / 8] = (dst[bit / 8] & ~m) | (r.network[bit / 8] & m);
                    }
                }
                check(dst, step);
            }
        }
        if (changed)
        {
            check(*changed, step); // at once: the compiled copy must follow every change
        }
    }
    EXPECT_GT(ref.size(), 150u); // the compiled array grew past its first sizes
    EXPECT_GT(checked, 1000u);   // most lookups matched a route
}
