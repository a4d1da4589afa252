/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SEGMENT_ROUTING_HEADER_H
#define MRC_SEGMENT_ROUTING_HEADER_H

#include "ns3/header.h"
#include "ns3/ipv6-address.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The IPv6 Segment Routing Header (SRH, routing type 4, RFC 8754).
 *
 * \verbatim
   0                   1                   2                   3
   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
  | Next Header   |  Hdr Ext Len  | Routing Type  | Segments Left |
  |  Last Entry   |     Flags     |              Tag              |
  |            Segment List[0] (128 bits) ... Segment List[n]      |
  //                    Optional TLVs (variable)                  //
   \endverbatim
 *
 * Segment List[0] is the last segment of the path; Segments Left indexes the active one.
 * Hdr Ext Len and Last Entry are derived from the segment list and TLVs when serialising.
 * TLVs: Pad1 (type 0, one byte) and PadN (type 4) are understood; any other TLV is kept as it
 * is, in order, and written back. Serialize pads the TLV area to a multiple of 8 bytes with
 * Pad1/PadN when the TLVs given do not already fill it, so a deserialised header round-trips
 * byte for byte.
 *
 * Deserialising never reads beyond the bytes the iterator holds. A malformed header (truncated,
 * routing type not 4, Last Entry inconsistent with Hdr Ext Len, Segments Left > Last Entry, a
 * TLV running past the header) is flagged: IsValid() is false and GetError() says why; callers
 * drop such packets and count them.
 */
class MrcSegmentRoutingHeader : public Header
{
  public:
    /// Routing type of the SRH.
    static constexpr uint8_t kRoutingType = 4;
    /// IANA number of the IPv6 routing header.
    static constexpr uint8_t kProtocolNumber = 43;
    /// TLV type of Pad1 (a single zero byte).
    static constexpr uint8_t kPad1 = 0;
    /// TLV type of PadN.
    static constexpr uint8_t kPadN = 4;
    /// Largest segment list plus TLVs (and their padding): Hdr Ext Len is 8 bits, in 8-octet
    /// units not counting the first 8 octets (RFC 8754 section 2).
    static constexpr uint32_t kMaxBodyBytes = 255 * 8;
    /// Most segments an SRH holds (without TLVs): kMaxBodyBytes / 16.
    static constexpr uint32_t kMaxSegments = kMaxBodyBytes / 16;

    /// A TLV, as carried after the segment list.
    struct Tlv
    {
        uint8_t type{0};            //!< TLV type (Pad1 has no length or value)
        std::vector<uint8_t> value; //!< value bytes (length is value.size())

        /**
         * \param o another TLV
         * \return equality
         */
        bool operator==(const Tlv& o) const
        {
            return type == o.type && value == o.value;
        }
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    MrcSegmentRoutingHeader();

    /// \param nextHeader the header after the SRH (e.g. 41 for IPv6, 17 for UDP)
    void SetNextHeader(uint8_t nextHeader);
    /// \return the next header
    uint8_t GetNextHeader() const;
    /**
     * \param left Segments Left: at most Last Entry (RFC 8754 section 4.3.1: a receiver drops
     *        a header whose Segments Left exceeds it), so set the segment list first
     * \throws std::invalid_argument naming the limit otherwise
     */
    void SetSegmentsLeft(uint8_t left);
    /// \return Segments Left
    uint8_t GetSegmentsLeft() const;
    /// \param flags the flags byte
    void SetFlags(uint8_t flags);
    /// \return the flags byte
    uint8_t GetFlags() const;
    /// \param tag the tag
    void SetTag(uint16_t tag);
    /// \return the tag
    uint16_t GetTag() const;

    /**
     * \param segments the segment list, Segment List[0] (the last segment) first: 1 to
     *        kMaxSegments (127) segments, fewer with TLVs (16 bytes per segment, and the TLVs
     *        padded to 8 bytes, fit in kMaxBodyBytes), and at least Segments Left + 1
     * \throws std::invalid_argument naming the limit otherwise
     */
    void SetSegments(const std::vector<Ipv6Address>& segments);
    /// \return the segment list, Segment List[0] first
    const std::vector<Ipv6Address>& GetSegments() const;
    /// \return Last Entry (number of segments - 1)
    uint8_t GetLastEntry() const;
    /// \return Hdr Ext Len (length in 8-octet units, not counting the first 8 octets)
    uint8_t GetHdrExtLen() const;

    /**
     * \param tlvs the TLVs, in order: values of at most 255 bytes, and with the segment list,
     *        at most kMaxBodyBytes (the TLVs padded to a multiple of 8 bytes)
     * \throws std::invalid_argument naming the limit otherwise
     */
    void SetTlvs(const std::vector<Tlv>& tlvs);
    /// \return the TLVs, in order (including Pad1/PadN)
    const std::vector<Tlv>& GetTlvs() const;

    /// \return the active segment, Segment List[Segments Left]
    Ipv6Address GetActiveSegment() const;

    /// \return false if Deserialize found the header malformed
    bool IsValid() const;
    /// \return why the header is malformed ("" if valid)
    const std::string& GetError() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    /// \return bytes of TLVs as given, before alignment padding
    uint32_t GetTlvBytes() const;
    /// \return padding bytes needed after the TLVs
    uint32_t GetPaddingBytes() const;
    /**
     * \param tlvs TLVs
     * \return their bytes, padded to a multiple of 8
     */
    static uint64_t GetPaddedTlvBytes(const std::vector<Tlv>& tlvs);

    uint8_t m_nextHeader{59};            //!< next header (59: none)
    uint8_t m_segmentsLeft{0};           //!< Segments Left
    uint8_t m_flags{0};                  //!< flags
    uint16_t m_tag{0};                   //!< tag
    std::vector<Ipv6Address> m_segments; //!< Segment List[0..n]
    std::vector<Tlv> m_tlvs;             //!< TLVs
    std::string m_error;                 //!< why Deserialize rejected the header
};

} // namespace ns3

#endif /* MRC_SEGMENT_ROUTING_HEADER_H */
