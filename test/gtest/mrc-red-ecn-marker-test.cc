/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-red-ecn-marker.h"

#include <gtest/gtest.h>
#include <stdexcept>

using ns3::MrcRedEcnMarker;

TEST(MrcRedEcnMarker, Profile)
{
    MrcRedEcnMarker m(1000, 3000, 0.2);
    EXPECT_DOUBLE_EQ(m.GetProbability(0), 0.0);
    EXPECT_DOUBLE_EQ(m.GetProbability(999), 0.0);
    EXPECT_DOUBLE_EQ(m.GetProbability(1000), 0.0);
    EXPECT_DOUBLE_EQ(m.GetProbability(2000), 0.1);
    EXPECT_DOUBLE_EQ(m.GetProbability(2999), 0.2 * 1999 / 2000);
    EXPECT_DOUBLE_EQ(m.GetProbability(3000), 1.0);
    EXPECT_DOUBLE_EQ(m.GetProbability(1u << 30), 1.0);
}

TEST(MrcRedEcnMarker, RejectsBadProfiles)
{
    try
    {
        MrcRedEcnMarker(3000, 3000, 0.5);
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_STREQ(e.what(), "EcnMinTh (=3000 B) must be < EcnMaxTh (=3000 B)");
    }
    EXPECT_THROW(MrcRedEcnMarker(0, 10, -0.1), std::invalid_argument);
    EXPECT_THROW(MrcRedEcnMarker(0, 10, 1.01), std::invalid_argument);
}
