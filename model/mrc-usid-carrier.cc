/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-usid-carrier.h"

#include <array>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

/// 16-bit words of an address.
using Words = std::array<uint16_t, 8>;

/**
 * \param a an address
 * \return its eight 16-bit words
 */
Words
ToWords(Ipv6Address a)
{
    uint8_t b[16];
    a.Serialize(b);
    Words w{};
    for (unsigned i = 0; i < 8; ++i)
    {
        w[i] = static_cast<uint16_t>(b[2 * i] << 8 | b[2 * i + 1]);
    }
    return w;
}

/**
 * \param w eight 16-bit words
 * \return the address
 */
Ipv6Address
FromWords(const Words& w)
{
    uint8_t b[16];
    for (unsigned i = 0; i < 8; ++i)
    {
        b[2 * i] = static_cast<uint8_t>(w[i] >> 8);
        b[2 * i + 1] = static_cast<uint8_t>(w[i]);
    }
    return Ipv6Address(b);
}

/**
 * \param w an address as words
 * \param blockBits the block's length, a multiple of 16
 * \param block the block's value
 * \return true if the address starts with the block
 */
bool
StartsWithBlock(const Words& w, uint32_t blockBits, uint64_t block)
{
    const unsigned blockWords = blockBits / 16;
    for (unsigned i = 0; i < blockWords; ++i)
    {
        if (w[i] != static_cast<uint16_t>(block >> (16 * (blockWords - 1 - i))))
        {
            return false;
        }
    }
    return true;
}

} // namespace

MrcUsidCarrier::MrcUsidCarrier()
    : MrcUsidCarrier(kDefaultBlockBits, kDefaultBlock)
{
}

MrcUsidCarrier::MrcUsidCarrier(uint32_t blockBits, uint64_t block)
    : m_blockBits(blockBits)
    , m_block(block)
{
    if (blockBits != 16 && blockBits != 32 && blockBits != 48 && blockBits != 64)
    {
        throw std::invalid_argument("MrcUsidCarrier: block length (=" + std::to_string(blockBits)
                                    + " bits) must be 16, 32, 48 or 64");
    }
    if (blockBits < 64 && (block >> blockBits) != 0)
    {
        throw std::invalid_argument("MrcUsidCarrier: block does not fit in "
                                    + std::to_string(blockBits) + " bits");
    }
}

uint32_t
MrcUsidCarrier::GetCapacity() const
{
    return (128 - m_blockBits) / kUsidBits;
}

uint32_t
MrcUsidCarrier::GetBlockBits() const
{
    return m_blockBits;
}

Ipv6Address
MrcUsidCarrier::Compose(const std::vector<uint16_t>& usids) const
{
    if (usids.empty() || usids.size() > GetCapacity())
    {
        throw std::invalid_argument("MrcUsidCarrier: a carrier holds 1.."
                                    + std::to_string(GetCapacity()) + " uSIDs, not "
                                    + std::to_string(usids.size()));
    }
    Words w{};
    const unsigned blockWords = m_blockBits / 16;
    for (unsigned i = 0; i < blockWords; ++i)
    {
        w[i] = static_cast<uint16_t>(m_block >> (16 * (blockWords - 1 - i)));
    }
    for (size_t i = 0; i < usids.size(); ++i)
    {
        if (usids[i] == 0)
        {
            throw std::invalid_argument("MrcUsidCarrier: uSID 0 is the end-of-carrier marker");
        }
        w[blockWords + i] = usids[i];
    }
    return FromWords(w);
}

Ipv6Address
MrcUsidCarrier::Locator(uint16_t usid) const
{
    return Compose({usid});
}

bool
MrcUsidCarrier::InBlock(Ipv6Address address) const
{
    return StartsWithBlock(ToWords(address), m_blockBits, m_block);
}

uint16_t
MrcUsidCarrier::GetActive(Ipv6Address address) const
{
    const Words w = ToWords(address);
    return StartsWithBlock(w, m_blockBits, m_block) ? w[m_blockBits / 16] : 0;
}

bool
MrcUsidCarrier::Matches(Ipv6Address address, uint16_t usid) const
{
    return usid != 0 && GetActive(address) == usid;
}

Ipv6Address
MrcUsidCarrier::Shift(Ipv6Address address) const
{
    Words w = ToWords(address);
    for (unsigned i = m_blockBits / 16; i < 7; ++i)
    {
        w[i] = w[i + 1];
    }
    w[7] = 0;
    return FromWords(w);
}

bool
MrcUsidCarrier::IsEndOfCarrier(Ipv6Address address) const
{
    const Words w = ToWords(address);
    for (unsigned i = m_blockBits / 16 + 1; i < 8; ++i)
    {
        if (w[i] != 0)
        {
            return false;
        }
    }
    return true;
}

std::vector<uint16_t>
MrcUsidCarrier::GetUsids(Ipv6Address address) const
{
    std::vector<uint16_t> out;
    const Words w = ToWords(address);
    for (unsigned i = m_blockBits / 16; i < 8 && w[i] != 0; ++i)
    {
        out.push_back(w[i]);
    }
    return out;
}

} // namespace ns3
