/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PACKET_TRIMMER_H
#define MRC_PACKET_TRIMMER_H

#include "ns3/queue-item.h"

#include <cstdint>
#include <optional>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Cuts an IPv6 or IPv4 queue-disc item down to its first bytes, as a trimming switch
 * does, and rewrites its DSCP.
 *
 * The trim size counts the IP header, like switch ASICs do (SAI/SONiC trim to a size measured
 * from the start of the L3 packet, here without the 2-byte PPP framing). The payload is cut
 * with Packet::CreateFragment, so the bytes on the wire shrink and packet tags are kept; the IP
 * payload-length field is rewritten so that the header stays consistent. Transport headers
 * inside the kept bytes are untouched (their length fields still describe the original
 * packet: the receiver knows the packet was trimmed from the DSCP).
 */
class MrcPacketTrimmer
{
  public:
    /// Smallest trim size accepted: an IPv6 header plus a UDP header.
    static constexpr uint32_t kMinTrimSize = 48;

    /**
     * \param item an IPv4 or IPv6 queue-disc item
     * \return its DSCP, or nothing if the item has no DS field
     */
    static std::optional<uint8_t> GetDscp(Ptr<const QueueDiscItem> item);

    /**
     * \param item an IPv4 or IPv6 queue-disc item
     * \param trimSize bytes to keep, counting the IP header (>= kMinTrimSize)
     * \param dscp the DSCP of the trimmed packet
     * \return a new item of min(size, trimSize) bytes, or nullptr if the item is neither IPv4
     *         nor IPv6
     */
    static Ptr<QueueDiscItem> Trim(Ptr<const QueueDiscItem> item, uint32_t trimSize, uint8_t dscp);
};

} // namespace ns3

#endif /* MRC_PACKET_TRIMMER_H */
