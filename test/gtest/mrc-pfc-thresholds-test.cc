/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * PFC thresholds: static and dynamic XOFF/XON, the headroom formula, invalid values.
 */

#include "ns3/mrc-pfc-thresholds.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/**
 * \param f a call expected to throw std::invalid_argument
 * \return its message ("" if it did not throw)
 */
template<typename F>
std::string
Message(F f)
{
    try
    {
        f();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

TEST(MrcPfcThresholds, Static)
{
    MrcPfcThresholds t = MrcPfcThresholds::Static(65536, 49152);
    EXPECT_EQ(t.GetMode(), MrcPfcThresholdMode::STATIC);
    EXPECT_EQ(t.GetXoff(0), 65536u);
    EXPECT_EQ(t.GetXoff(1u << 30), 65536u); // the free buffer does not matter
    EXPECT_EQ(t.GetXon(12345), 49152u);
    EXPECT_EQ(MrcPfcThresholds::Static(100, 100).GetXon(0), 100u); // XON = XOFF allowed
    const std::string e = Message([] {
        MrcPfcThresholds::Static(100, 101);
    });
    EXPECT_NE(e.find("XonThreshold (=101)"), std::string::npos) << e;
    EXPECT_NE(e.find("0..XoffThreshold (=100)"), std::string::npos) << e;
}

TEST(MrcPfcThresholds, Dynamic)
{
    MrcPfcThresholds t = MrcPfcThresholds::Dynamic(0.125, 18000);
    EXPECT_EQ(t.GetMode(), MrcPfcThresholdMode::DYNAMIC);
    EXPECT_EQ(t.GetXoff(1048576), 131072u);
    EXPECT_EQ(t.GetXon(1048576), 131072u - 18000u);
    EXPECT_EQ(t.GetXoff(800000), 100000u); // shrinks as the buffer fills
    EXPECT_EQ(t.GetXon(100000), 0u);       // 12500 - 18000 clamps at 0
    EXPECT_EQ(t.GetXoff(0), 0u);
    EXPECT_EQ(MrcPfcThresholds::Dynamic(2, 0).GetXoff(1000), 2000u);
    for (double bad : {0.0, -1.0, 64.5})
    {
        const std::string e = Message([bad] {
            MrcPfcThresholds::Dynamic(bad, 0);
        });
        EXPECT_NE(e.find("DynamicAlpha"), std::string::npos) << e;
        EXPECT_NE(e.find("(0, 64]"), std::string::npos) << e;
    }
    EXPECT_EQ(Message([] {
                  MrcPfcThresholds::Dynamic(64, 0);
              }),
              "");
}

TEST(MrcPfcThresholds, ParseMode)
{
    EXPECT_EQ(MrcPfcThresholds::ParseMode("static"), MrcPfcThresholdMode::STATIC);
    EXPECT_EQ(MrcPfcThresholds::ParseMode("dynamic"), MrcPfcThresholdMode::DYNAMIC);
    for (const char* bad : {"", "Static", "adaptive"})
    {
        const std::string e = Message([bad] {
            MrcPfcThresholds::ParseMode(bad);
        });
        EXPECT_NE(e.find("ThresholdMode"), std::string::npos) << e;
        EXPECT_NE(e.find("\"static\" or \"dynamic\""), std::string::npos) << e;
    }
}

TEST(MrcPfcThresholds, Headroom)
{
    // 100 Gb/s, 1 us: 2 x 12500 B on the wire + 12500 B response + 3 x 1502 B frames.
    EXPECT_EQ(
        MrcPfcThresholds::Headroom(100000000000ULL, MicroSeconds(1), 1502, 3, MicroSeconds(1)),
        25000u + 12500u + 4506u);
    // 25 Gb/s, 2 us, no response delay, 4354-byte frames (the fabric's MTU + PPP).
    EXPECT_EQ(MrcPfcThresholds::Headroom(25000000000ULL, MicroSeconds(2), 4354, 2, Time(0)),
              12500u + 8708u);
    // Fractions of a byte round up.
    EXPECT_EQ(MrcPfcThresholds::Headroom(1, NanoSeconds(1), 0, 0, Time(0)), 1u);
    EXPECT_EQ(MrcPfcThresholds::Headroom(0, MicroSeconds(1), 100, 2, MicroSeconds(1)), 200u);
}
