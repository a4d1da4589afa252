/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_WIRE_SIZE_H
#define MRC_WIRE_SIZE_H

#include "mrc-bth-header.h"
#include "mrc-icrc-trailer.h"
#include "mrc-meth-header.h"
#include "mrc-reth-header.h"
#include "mrc-sack-header.h"
#include "mrc-tseth-header.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * Every size of an MRC packet on the wire, from its header stack (doc/mrc.rst, "MRC
 * transport"): the one place that knows them. The transport, the line-rate ideal and the
 * helpers' base RTT all call these, so a header change cannot make them disagree.
 */

namespace ns3
{

/// IPv6 fixed header (the outer header; MRC sends no inner IPv6 header, see doc/mrc.rst).
inline constexpr uint32_t kMrcIpv6HeaderBytes = 40;
/// UDP header (destination port 4791).
inline constexpr uint32_t kMrcUdpHeaderBytes = 8;
/// Link framing added to each IPv6 packet on the wire (ns-3's PointToPointNetDevice: PPP, 2 B).
inline constexpr uint32_t kMrcFramingBytes = 2;

/**
 * \brief Bytes of an SRv6 segment routing header for a path of several uSID carriers.
 * \param carriers the path's carrier count (1: no SRH)
 * \return 8 + 16 per carrier, or 0 for a path of one carrier
 */
inline constexpr uint32_t
MrcSrhBytes(uint32_t carriers)
{
    return carriers > 1 ? 8 + 16 * carriers : 0;
}

/**
 * \brief Bytes on the wire of an MRC packet.
 * \param mrcBytes the UDP payload: BTH, extension headers, payload and ICRC
 * \param carriers the path's uSID carrier count (1: no SRH; ECMP paths have 1)
 * \return mrcBytes plus UDP, SRH, outer IPv6 and link framing
 */
inline constexpr uint32_t
MrcWireBytes(uint32_t mrcBytes, uint32_t carriers = 1)
{
    return mrcBytes + kMrcUdpHeaderBytes + MrcSrhBytes(carriers) + kMrcIpv6HeaderBytes
           + kMrcFramingBytes;
}

/// MRC headers of every data packet around its payload: BTH, METH, TSETH, RETH and ICRC
/// (the last packet of a WRITE with immediate adds a 4-byte ImmDt).
inline constexpr uint32_t kMrcDataHeaderBytes = MrcBthHeader::kSize + MrcMethHeader::kSize
                                                + MrcTsethHeader::kSize + MrcRethHeader::kSize
                                                + MrcIcrcTrailer::kSize;

/**
 * \brief Bytes on the wire of an MRC data packet.
 * \param payload the packet's payload bytes (at most the queue pair's Mss)
 * \param carriers the path's uSID carrier count
 * \return payload plus every header and the link framing
 */
inline constexpr uint32_t
MrcDataWireBytes(uint32_t payload, uint32_t carriers = 1)
{
    return MrcWireBytes(payload + kMrcDataHeaderBytes, carriers);
}

/// Bytes on the wire of a SACK (BTH, SACK, ICRC; one carrier).
inline constexpr uint32_t kMrcSackWireBytes =
    MrcWireBytes(MrcBthHeader::kSize + MrcSackHeader::kSize + MrcIcrcTrailer::kSize);

static_assert(MrcDataWireBytes(0) == 90, "a data packet's overhead is 90 bytes (doc/mrc.rst)");
static_assert(kMrcSackWireBytes == 102, "a SACK is 102 bytes on the wire (doc/mrc.rst)");

} // namespace ns3

#endif /* MRC_WIRE_SIZE_H */
