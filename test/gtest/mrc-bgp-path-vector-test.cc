/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The eBGP decision process on hand-built fabrics: multipath over equally short paths,
 * withdrawals hop by hop, AS-path loop prevention (no valley through a shared ASN, no pod
 * re-entry), restoration to the original state, and bad input.
 */

#include "ns3/mrc-bgp-path-vector.h"

#include <gtest/gtest.h>
#include <stdexcept>

using ns3::MrcBgpPathVector;

namespace
{

using Sessions = std::vector<uint32_t>;

/// A two-tier Clos: T0 i (ASN 100 + i, prefix i) for i < 3, two T1s sharing ASN 200.
struct TwoTier
{
    MrcBgpPathVector pv{3};
    uint32_t t0[3];      //!< T0 speakers
    uint32_t t1[2];      //!< T1 speakers
    uint32_t link[3][2]; //!< session T0 i - T1 j

    TwoTier()
    {
        for (uint32_t i = 0; i < 3; ++i)
        {
            t0[i] = pv.AddSpeaker(100 + i, i);
        }
        t1[0] = pv.AddSpeaker(200);
        t1[1] = pv.AddSpeaker(200);
        for (uint32_t i = 0; i < 3; ++i)
        {
            for (uint32_t j = 0; j < 2; ++j)
            {
                link[i][j] = pv.AddSession(t0[i], t1[j]);
            }
        }
        pv.Converge();
    }
};

/**
 * \param d decisions
 * \param prefix a prefix
 * \return the decision about it, or nullptr
 */
const MrcBgpPathVector::Decision*
Find(const std::vector<MrcBgpPathVector::Decision>& d, uint32_t prefix)
{
    for (const auto& x : d)
    {
        if (x.prefix == prefix)
        {
            return &x;
        }
    }
    return nullptr;
}

} // namespace

TEST(MrcBgpPathVector, SteadyStateIsShortestPathMultipath)
{
    TwoTier f;
    EXPECT_EQ(f.pv.GetBestSessions(f.t0[0], 1), (Sessions{f.link[0][0], f.link[0][1]}));
    EXPECT_EQ(f.pv.GetBestSessions(f.t0[0], 0), Sessions{}); // its own prefix
    EXPECT_EQ(f.pv.GetBestSessions(f.t1[1], 2), Sessions{f.link[2][1]});
    EXPECT_EQ(f.pv.GetPath(f.pv.GetAdvertisedPath(f.t0[0], 0)), (Sessions{100}));
    EXPECT_EQ(f.pv.GetPath(f.pv.GetAdvertisedPath(f.t1[0], 0)), (Sessions{200, 100}));
    EXPECT_EQ(f.pv.GetPath(f.pv.GetAdvertisedPath(f.t0[1], 0)), (Sessions{101, 200, 100}));
}

TEST(MrcBgpPathVector, WithdrawalHopByHop)
{
    TwoTier f;
    // T0 0 - T1 0 goes down. T0 0 keeps its routes via T1 1 (same path: nothing to send);
    // T1 0 loses prefix 0 and must withdraw it.
    auto d = f.pv.SessionDown(f.link[0][0]);
    EXPECT_EQ(d[0].size(), 2u);
    ASSERT_NE(Find(d[0], 1), nullptr);
    EXPECT_TRUE(Find(d[0], 1)->nextHopsChanged);
    EXPECT_FALSE(Find(d[0], 1)->advertisementChanged);
    ASSERT_EQ(d[1].size(), 1u);
    EXPECT_EQ(d[1][0].prefix, 0u);
    EXPECT_TRUE(d[1][0].nextHopsChanged);
    EXPECT_TRUE(d[1][0].advertisementChanged);
    EXPECT_EQ(f.pv.GetAdvertisedPath(f.t1[0], 0), 0u);
    EXPECT_EQ(f.pv.GetBestSessions(f.t0[0], 2), Sessions{f.link[0][1]});
    // The withdrawal reaches T0 1 over its session with T1 0: one next hop fewer, same path.
    auto r = f.pv.Receive(f.link[1][0], 0, f.pv.GetAdvertisements(f.t1[0], {0}));
    ASSERT_EQ(r.size(), 1u);
    EXPECT_TRUE(r[0].nextHopsChanged);
    EXPECT_FALSE(r[0].advertisementChanged);
    EXPECT_EQ(f.pv.GetBestSessions(f.t0[1], 0), Sessions{f.link[1][1]});
    // T1 0 hears T0 1's path to prefix 0 (via T1 1) but it contains ASN 200: a valley through
    // the shared T1 ASN is refused, T1 0 stays without a route.
    f.pv.Converge();
    EXPECT_EQ(f.pv.GetBestSessions(f.t1[0], 0), Sessions{});
    EXPECT_EQ(f.pv.GetBestSessions(f.t0[2], 0), Sessions{f.link[2][1]});
}

TEST(MrcBgpPathVector, RestorationGivesTheOriginalState)
{
    TwoTier f;
    std::vector<std::vector<Sessions>> before(5, std::vector<Sessions>(3));
    for (uint32_t s = 0; s < 5; ++s)
    {
        for (uint32_t p = 0; p < 3; ++p)
        {
            before[s][p] = f.pv.GetBestSessions(s, p);
        }
    }
    f.pv.SessionDown(f.link[0][0]);
    f.pv.SessionDown(f.link[2][1]);
    f.pv.Converge();
    EXPECT_EQ(f.pv.GetBestSessions(f.t0[1], 2), Sessions{f.link[1][0]});
    // Up again: each end sends its table to the other, then everything settles.
    f.pv.SessionUp(f.link[0][0]);
    f.pv.SessionUp(f.link[2][1]);
    auto r = f.pv.Receive(f.link[0][0], 1, f.pv.GetAllAdvertisements(f.t0[0]));
    ASSERT_NE(Find(r, 0), nullptr);
    EXPECT_TRUE(Find(r, 0)->advertisementChanged);
    f.pv.Converge();
    for (uint32_t s = 0; s < 5; ++s)
    {
        for (uint32_t p = 0; p < 3; ++p)
        {
            EXPECT_EQ(f.pv.GetBestSessions(s, p), before[s][p]) << s << " " << p;
        }
    }
}

TEST(MrcBgpPathVector, NoPodReentry)
{
    // Pod A: T0a (ASN 1, prefix 0), T0c (ASN 3, prefix 2), T1x and T1y (ASN 10).
    // Pod B: T0b (ASN 2, prefix 1), T1z (ASN 11). T2 g (ASN 20) above every T1.
    MrcBgpPathVector pv(3);
    const uint32_t a = pv.AddSpeaker(1, 0);
    const uint32_t b = pv.AddSpeaker(2, 1);
    const uint32_t c = pv.AddSpeaker(3, 2);
    const uint32_t x = pv.AddSpeaker(10);
    const uint32_t y = pv.AddSpeaker(10);
    const uint32_t z = pv.AddSpeaker(11);
    const uint32_t g = pv.AddSpeaker(20);
    const uint32_t ax = pv.AddSession(a, x);
    const uint32_t ay = pv.AddSession(a, y);
    pv.AddSession(c, x);
    const uint32_t cy = pv.AddSession(c, y);
    const uint32_t bz = pv.AddSession(b, z);
    const uint32_t xg = pv.AddSession(x, g);
    const uint32_t yg = pv.AddSession(y, g);
    pv.AddSession(z, g);
    pv.Converge();
    EXPECT_EQ(pv.GetBestSessions(g, 0), (Sessions{xg, yg}));
    EXPECT_EQ(pv.GetPath(pv.GetAdvertisedPath(b, 0)), (Sessions{2, 11, 20, 10, 1}));
    // T0c - T1y and T1x - T0a fail. The up-down path T0c, T1x, T2, T1y, T0a exists but enters
    // pod A twice (ASN 10 twice): BGP refuses it, T0c has no route to T0a.
    pv.SessionDown(cy);
    pv.SessionDown(ax);
    pv.Converge();
    EXPECT_EQ(pv.GetBestSessions(c, 0), Sessions{});
    EXPECT_EQ(pv.GetBestSessions(x, 0), Sessions{});
    EXPECT_EQ(pv.GetBestSessions(g, 0), Sessions{yg});
    EXPECT_EQ(pv.GetBestSessions(b, 0), Sessions{bz});
    EXPECT_EQ(pv.GetBestSessions(y, 0), Sessions{ay});
}

TEST(MrcBgpPathVector, DownSessionsIgnoreUpdatesAndTieBreaksAreDeterministic)
{
    TwoTier f;
    f.pv.SessionDown(f.link[1][0]);
    EXPECT_FALSE(f.pv.IsSessionUp(f.link[1][0]));
    EXPECT_TRUE(f.pv.Receive(f.link[1][0], 0, f.pv.GetAllAdvertisements(f.t1[0])).empty());
    EXPECT_EQ(f.pv.GetBestSessions(f.t0[1], 0), Sessions{f.link[1][1]});
    // Two equally short paths: the advertised one is via the lower session number.
    TwoTier g;
    EXPECT_EQ(g.pv.GetAdvertisedPath(g.t0[0], 1), g.pv.GetAdvertisedPath(g.t0[0], 1)); // stable
    EXPECT_EQ(g.pv.GetPath(g.pv.GetAdvertisedPath(g.t0[0], 1)), (Sessions{100, 200, 101}));
}

TEST(MrcBgpPathVector, BadInput)
{
    MrcBgpPathVector pv(2);
    EXPECT_THROW(pv.AddSpeaker(1, 2), std::invalid_argument);
    const uint32_t a = pv.AddSpeaker(1, 0);
    EXPECT_THROW(pv.AddSession(a, a), std::invalid_argument);
    EXPECT_THROW(pv.AddSession(a, 7), std::invalid_argument);
    const uint32_t b = pv.AddSpeaker(2, 1);
    const uint32_t s = pv.AddSession(a, b);
    EXPECT_THROW(pv.Receive(s + 1, 0, {}), std::out_of_range);
    EXPECT_THROW(pv.Receive(s, 2, {}), std::out_of_range);
    EXPECT_THROW(pv.Receive(s, 0, {{5, 0}}), std::out_of_range);
    EXPECT_THROW(pv.Receive(s, 0, {{0, 999}}), std::out_of_range);
    EXPECT_THROW(pv.SessionDown(9), std::out_of_range);
    EXPECT_THROW(pv.GetBestSessions(9, 0), std::out_of_range);
    try
    {
        pv.AddSession(a, a);
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_STREQ(e.what(),
                     "MrcBgpPathVector::AddSession: speakers (=0, 0) must be two different "
                     "speakers in 0..1");
    }
}
