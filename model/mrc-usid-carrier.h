/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_USID_CARRIER_H
#define MRC_USID_CARRIER_H

#include "ns3/ipv6-address.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief SRv6 micro-SID (uSID) carriers (RFC 9800, NEXT-C-SID / uN): an IPv6 destination address
 * made of a locator block followed by 16-bit uSIDs, one per node still to visit.
 *
 * \verbatim
   | block (BlockBits) | uSID 1 | uSID 2 | ... | uSID n | 0 ... 0 (end of carrier) |
   \endverbatim
 *
 * The active uSID is the one right after the block. A node whose locator (block + its uSID)
 * equals the first BlockBits + 16 bits of the destination shifts the uSIDs after it left by 16
 * bits, filling with zero (uN "shift and forward"). When nothing follows the active uSID the
 * carrier is exhausted (end of carrier): the node either takes the next carrier from an SRH or
 * is the destination. uSID 0 is reserved as the end-of-carrier marker.
 */
class MrcUsidCarrier
{
  public:
    /// Length of a uSID in bits (MRC uses 16-bit uSIDs).
    static constexpr uint32_t kUsidBits = 16;
    /// Default locator block: fcbb:bb00::/32 (the block of RFC 9800's examples).
    static constexpr uint64_t kDefaultBlock = 0xfcbbbb00;
    /// Length of the default block in bits.
    static constexpr uint32_t kDefaultBlockBits = 32;

    /// The default format: 16-bit uSIDs after fcbb:bb00::/32.
    MrcUsidCarrier();

    /**
     * \param blockBits locator block length in bits: 16, 32 (default), 48 or 64
     * \param block the block value (its top blockBits bits are used, right-aligned in a 64-bit
     *        integer: 0xfcbbbb00 for fcbb:bb00::/32)
     * \throws std::invalid_argument if blockBits is not one of the accepted lengths, or the block
     *         does not fit in it
     */
    MrcUsidCarrier(uint32_t blockBits, uint64_t block);

    /// \return uSIDs that fit in one carrier: (128 - BlockBits) / 16
    uint32_t GetCapacity() const;

    /// \return the block length in bits
    uint32_t GetBlockBits() const;

    /**
     * \param usids the uSIDs, first to visit first; 1..GetCapacity(), none zero
     * \return the carrier address
     * \throws std::invalid_argument if the list is empty, too long or holds a zero
     */
    Ipv6Address Compose(const std::vector<uint16_t>& usids) const;

    /**
     * \param usid a node's uSID
     * \return its locator, block:usid:: (the /BlockBits+16 prefix)
     */
    Ipv6Address Locator(uint16_t usid) const;

    /**
     * \param address an address
     * \return true if it starts with this block
     */
    bool InBlock(Ipv6Address address) const;

    /**
     * \param address a carrier
     * \return the active uSID (right after the block); 0 if none
     */
    uint16_t GetActive(Ipv6Address address) const;

    /**
     * \param address a carrier
     * \param usid a node's uSID
     * \return true if the first BlockBits + 16 bits equal block:usid (the node's locator)
     */
    bool Matches(Ipv6Address address, uint16_t usid) const;

    /**
     * \param address a carrier
     * \return the carrier with the uSIDs after the block shifted left by one uSID (zero fill)
     */
    Ipv6Address Shift(Ipv6Address address) const;

    /**
     * \param address a carrier
     * \return true if no uSID follows the active one (end of carrier)
     */
    bool IsEndOfCarrier(Ipv6Address address) const;

    /**
     * \param address a carrier
     * \return its uSIDs up to the first zero
     */
    std::vector<uint16_t> GetUsids(Ipv6Address address) const;

  private:
    uint32_t m_blockBits; //!< block length
    uint64_t m_block;     //!< block value
};

} // namespace ns3

#endif /* MRC_USID_CARRIER_H */
