/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-fabric-address-plan.h"

#include <array>

namespace ns3
{

Ipv6Address
MrcFabricAddressPlan::Make(uint16_t w0, uint16_t w1, uint16_t w2, uint16_t w3, uint16_t last)
{
    std::array<uint8_t, 16> b{};
    const uint16_t words[4] = {w0, w1, w2, w3};
    for (unsigned i = 0; i < 4; ++i)
    {
        b[2 * i] = static_cast<uint8_t>(words[i] >> 8);
        b[2 * i + 1] = static_cast<uint8_t>(words[i]);
    }
    b[14] = static_cast<uint8_t>(last >> 8);
    b[15] = static_cast<uint8_t>(last);
    return Ipv6Address(b.data());
}

Ipv6Address
MrcFabricAddressPlan::HostAddress(uint32_t plane, uint32_t t0, uint32_t port)
{
    return Make(kHostBlock, plane, t0, port, 1);
}

Ipv6Address
MrcFabricAddressPlan::HostLinkPrefix(uint32_t plane, uint32_t t0, uint32_t port)
{
    return Make(kHostBlock, plane, t0, port, 0);
}

Ipv6Address
MrcFabricAddressPlan::T0Prefix(uint32_t plane, uint32_t t0)
{
    return Make(kHostBlock, plane, t0, 0, 0);
}

Ipv6Address
MrcFabricAddressPlan::PlanePrefix(uint32_t plane)
{
    return Make(kHostBlock, plane, 0, 0, 0);
}

std::optional<MrcFabricAddressPlan::HostLocation>
MrcFabricAddressPlan::ParseHostAddress(Ipv6Address address)
{
    std::array<uint8_t, 16> b{};
    address.GetBytes(b.data());
    auto word = [&b](unsigned i) {
        return uint32_t(b[2 * i] << 8 | b[2 * i + 1]);
    };
    if (word(0) != kHostBlock)
    {
        return std::nullopt;
    }
    for (unsigned i = 4; i < 7; ++i)
    {
        if (word(i) != 0)
        {
            return std::nullopt;
        }
    }
    if (word(7) != 1)
    {
        return std::nullopt;
    }
    return HostLocation{word(1), word(2), word(3)};
}

} // namespace ns3
