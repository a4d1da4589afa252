/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * PfcPort's configuration attributes after Initialize: a new value takes effect at once, and
 * a refused one names the attribute and leaves the port as it was (before, any change after
 * PfcHelper::Install, which initialises the port, was silently ignored).
 */

#include "ns3/double.h"
#include "ns3/pfc-port.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace ns3;

TEST(PfcPort, AttributesChangedAfterInitializeTakeEffect)
{
    Ptr<PfcPort> port = CreateObject<PfcPort>();
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

TEST(PfcPort, RefusedValueAfterInitializeLeavesThePortAsItWas)
{
    Ptr<PfcPort> port = CreateObject<PfcPort>();
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
