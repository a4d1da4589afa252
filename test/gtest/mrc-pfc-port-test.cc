/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * MrcPfcPort's configuration attributes after Initialize: a new value takes effect at once, and
 * a refused one names the attribute and leaves the port as it was (before, any change after
 * MrcPfcHelper::Install, which initialises the port, was silently ignored).
 */

#include "ns3/double.h"
#include "ns3/mrc-pfc-port.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace ns3;

TEST(MrcPfcPort, AttributesChangedAfterInitializeTakeEffect)
{
    Ptr<MrcPfcPort> port = CreateObject<MrcPfcPort>();
    port->Initialize();
    EXPECT_EQ(port->GetXoff(), 64u * 1024);
    EXPECT_TRUE(port->IsLossless(3));
    EXPECT_FALSE(port->IsLossless(5));
    port->SetAttribute("XoffThreshold", UintegerValue(96 * 1024));
    EXPECT_EQ(port->GetXoff(), 96u * 1024);
    port->SetAttribute("XonThreshold", UintegerValue(80 * 1024));
    EXPECT_EQ(port->GetXon(), 80u * 1024);
    port->SetAttribute("LosslessPriorities", StringValue("3,5"));
    EXPECT_TRUE(port->IsLossless(5));
    port->Dispose();
}

TEST(MrcPfcPort, RefusedValueAfterInitializeLeavesThePortAsItWas)
{
    Ptr<MrcPfcPort> port = CreateObject<MrcPfcPort>();
    port->Initialize();
    auto refused = [&port](const std::string& name, const AttributeValue& value) {
        try
        {
            port->SetAttribute(name, value);
        }
        catch (const std::invalid_argument& e)
        {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(refused("LosslessPriorities", StringValue("3,9")).find("LosslessPriorities"),
              std::string::npos);
    EXPECT_TRUE(port->IsLossless(3)) << "the old list stays";
    StringValue lossless;
    port->GetAttribute("LosslessPriorities", lossless);
    EXPECT_EQ(lossless.Get(), "3");
    // XON above XOFF is refused; the static thresholds stay 64 / 48 KiB.
    EXPECT_FALSE(refused("XonThreshold", UintegerValue(100 * 1024)).empty());
    EXPECT_EQ(port->GetXon(), 48u * 1024);
    EXPECT_FALSE(refused("ThresholdMode", StringValue("adaptive")).empty());
    StringValue mode;
    port->GetAttribute("ThresholdMode", mode);
    EXPECT_EQ(mode.Get(), "static");
    port->Dispose();
}

TEST(MrcPfcPort, PriorityOfDscpOverridesTheClassSelector)
{
    // Default: priority = DSCP >> 3 (RoCEv2 data, DSCP 26, in 3; CNPs, DSCP 48, in 6).
    Ptr<MrcPfcPort> port = CreateObject<MrcPfcPort>();
    port->Initialize();
    EXPECT_EQ(port->GetPriority(26), 3u);
    EXPECT_EQ(port->GetPriority(48), 6u);
    EXPECT_EQ(port->GetPriority(63), 7u);
    // A deployment that carries RoCEv2 data in priority 5 and its retransmission class in 0.
    port->SetAttribute("PriorityOfDscp", StringValue("26:5, 30:0"));
    EXPECT_EQ(port->GetPriority(26), 5u);
    EXPECT_EQ(port->GetPriority(30), 0u);
    EXPECT_EQ(port->GetPriority(27), 3u) << "unmapped DSCPs keep DSCP >> 3";
    // Malformed maps name the attribute and the ranges, and leave the map as it was.
    for (const std::string bad : {"64:1", "26:8", "26", "26:3,", "a:b", "26:3-4"})
    {
        try
        {
            port->SetAttribute("PriorityOfDscp", StringValue(bad));
            ADD_FAILURE() << "accepted \"" << bad << "\"";
        }
        catch (const std::invalid_argument& e)
        {
            EXPECT_NE(std::string(e.what()).find("PriorityOfDscp"), std::string::npos) << bad;
            EXPECT_NE(std::string(e.what()).find("0..63"), std::string::npos) << bad;
        }
        EXPECT_EQ(port->GetPriority(26), 5u) << "after \"" << bad << "\"";
    }
    port->Dispose();
}
