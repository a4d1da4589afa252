/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ECMP_FLOW_KEY_H
#define MRC_ECMP_FLOW_KEY_H

#include "ns3/ipv6-address.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class Packet;
class Ipv6Header;

/**
 * \ingroup mrc
 * \brief The fields a switch hashes to pick an ECMP next hop: the IPv6 5-tuple plus the flow
 * label.
 *
 * Ports are read from the transport header that follows the IPv6 header (UDP and TCP); other
 * protocols hash with ports 0. The hash is ns-3's Murmur3 (ns3::Hasher) over the fields and a
 * per-switch seed, so that switches of different tiers make independent choices.
 */
class MrcEcmpFlowKey
{
  public:
    MrcEcmpFlowKey() = default;

    /**
     * Build a key from explicit fields.
     * \param src source address
     * \param dst destination address
     * \param protocol next header (6 = TCP, 17 = UDP)
     * \param srcPort transport source port
     * \param dstPort transport destination port
     * \param flowLabel 20-bit IPv6 flow label
     */
    MrcEcmpFlowKey(Ipv6Address src,
                   Ipv6Address dst,
                   uint8_t protocol,
                   uint16_t srcPort,
                   uint16_t dstPort,
                   uint32_t flowLabel);

    /**
     * Build the key of a packet whose IPv6 header has already been removed.
     * \param header the IPv6 header
     * \param payload the packet, starting at the transport header
     * \return the key
     */
    static MrcEcmpFlowKey FromPacket(const Ipv6Header& header, Ptr<const Packet> payload);

    /**
     * \param seed the per-switch hash seed
     * \return the 32-bit hash of the key under that seed
     */
    uint32_t Hash(uint32_t seed) const;

    /// \return the source address
    Ipv6Address GetSource() const;
    /// \return the destination address
    Ipv6Address GetDestination() const;
    /// \return the transport protocol number
    uint8_t GetProtocol() const;
    /// \return the transport source port
    uint16_t GetSourcePort() const;
    /// \return the transport destination port
    uint16_t GetDestinationPort() const;
    /// \return the flow label
    uint32_t GetFlowLabel() const;

    /**
     * \param other another key
     * \return true if every field is equal
     */
    bool operator==(const MrcEcmpFlowKey& other) const;

    /**
     * \param other another key
     * \return strict weak order over all fields (for std::map)
     */
    bool operator<(const MrcEcmpFlowKey& other) const;

  private:
    Ipv6Address m_src;       //!< source address
    Ipv6Address m_dst;       //!< destination address
    uint8_t m_protocol{0};   //!< next header
    uint16_t m_srcPort{0};   //!< source port
    uint16_t m_dstPort{0};   //!< destination port
    uint32_t m_flowLabel{0}; //!< flow label
};

/**
 * \param os output stream
 * \param key the key
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, const MrcEcmpFlowKey& key);

} // namespace ns3

#endif /* MRC_ECMP_FLOW_KEY_H */
