/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-segment-routing-header.h"

#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcSegmentRoutingHeader);

TypeId
MrcSegmentRoutingHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcSegmentRoutingHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcSegmentRoutingHeader>();
    return tid;
}

TypeId
MrcSegmentRoutingHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

MrcSegmentRoutingHeader::MrcSegmentRoutingHeader() = default;

void
MrcSegmentRoutingHeader::SetNextHeader(uint8_t nextHeader)
{
    m_nextHeader = nextHeader;
}

uint8_t
MrcSegmentRoutingHeader::GetNextHeader() const
{
    return m_nextHeader;
}

void
MrcSegmentRoutingHeader::SetSegmentsLeft(uint8_t left)
{
    if (left > 0 && left >= m_segments.size())
    {
        throw std::invalid_argument(
            "MrcSegmentRoutingHeader: Segments Left (=" + std::to_string(left) + ") must be <= "
            + (m_segments.empty()
                   ? std::string("Last Entry; set the segment list first")
                   : "Last Entry (=" + std::to_string(m_segments.size() - 1)
                         + ", the segment list holds " + std::to_string(m_segments.size()) + ")"));
    }
    m_segmentsLeft = left;
}

uint8_t
MrcSegmentRoutingHeader::GetSegmentsLeft() const
{
    return m_segmentsLeft;
}

void
MrcSegmentRoutingHeader::SetFlags(uint8_t flags)
{
    m_flags = flags;
}

uint8_t
MrcSegmentRoutingHeader::GetFlags() const
{
    return m_flags;
}

void
MrcSegmentRoutingHeader::SetTag(uint16_t tag)
{
    m_tag = tag;
}

uint16_t
MrcSegmentRoutingHeader::GetTag() const
{
    return m_tag;
}

void
MrcSegmentRoutingHeader::SetSegments(const std::vector<Ipv6Address>& segments)
{
    const uint64_t tlvBytes = GetPaddedTlvBytes(m_tlvs);
    const uint64_t most = (kMaxBodyBytes - tlvBytes) / 16;
    if (segments.empty() || segments.size() > most)
    {
        throw std::invalid_argument(
            "MrcSegmentRoutingHeader: segment list size (=" + std::to_string(segments.size())
            + ") must be in 1.." + std::to_string(most) + " (Hdr Ext Len is 8 bits: at most "
            + std::to_string(kMaxBodyBytes) + " bytes of 16-byte segments and TLVs"
            + (tlvBytes > 0 ? ", of which the TLVs take " + std::to_string(tlvBytes) : "") + ")");
    }
    if (m_segmentsLeft >= segments.size())
    {
        throw std::invalid_argument(
            "MrcSegmentRoutingHeader: segment list size (=" + std::to_string(segments.size())
            + ") must exceed Segments Left (=" + std::to_string(m_segmentsLeft) + ")");
    }
    m_segments = segments;
}

const std::vector<Ipv6Address>&
MrcSegmentRoutingHeader::GetSegments() const
{
    return m_segments;
}

uint8_t
MrcSegmentRoutingHeader::GetLastEntry() const
{
    return m_segments.empty() ? 0 : static_cast<uint8_t>(m_segments.size() - 1);
}

void
MrcSegmentRoutingHeader::SetTlvs(const std::vector<Tlv>& tlvs)
{
    for (const Tlv& t : tlvs)
    {
        if (t.type != kPad1 && t.value.size() > 255)
        {
            throw std::invalid_argument("MrcSegmentRoutingHeader: TLV length (="
                                        + std::to_string(t.value.size()) + ") must be <= 255");
        }
    }
    const uint64_t segmentBytes = 16 * m_segments.size();
    const uint64_t tlvBytes = GetPaddedTlvBytes(tlvs);
    if (segmentBytes + tlvBytes > kMaxBodyBytes)
    {
        throw std::invalid_argument(
            "MrcSegmentRoutingHeader: TLV bytes (=" + std::to_string(tlvBytes)
            + ", padded to 8) must be <= " + std::to_string(kMaxBodyBytes - segmentBytes)
            + " (Hdr Ext Len is 8 bits: at most " + std::to_string(kMaxBodyBytes)
            + " bytes of segments and TLVs, of which the " + std::to_string(m_segments.size())
            + " segments take " + std::to_string(segmentBytes) + ")");
    }
    m_tlvs = tlvs;
}

const std::vector<MrcSegmentRoutingHeader::Tlv>&
MrcSegmentRoutingHeader::GetTlvs() const
{
    return m_tlvs;
}

Ipv6Address
MrcSegmentRoutingHeader::GetActiveSegment() const
{
    return m_segmentsLeft < m_segments.size() ? m_segments[m_segmentsLeft] : Ipv6Address();
}

bool
MrcSegmentRoutingHeader::IsValid() const
{
    return m_error.empty();
}

const std::string&
MrcSegmentRoutingHeader::GetError() const
{
    return m_error;
}

uint32_t
MrcSegmentRoutingHeader::GetTlvBytes() const
{
    uint32_t n = 0;
    for (const Tlv& t : m_tlvs)
    {
        n += (t.type == kPad1) ? 1 : 2 + t.value.size();
    }
    return n;
}

uint64_t
MrcSegmentRoutingHeader::GetPaddedTlvBytes(const std::vector<Tlv>& tlvs)
{
    uint64_t n = 0;
    for (const Tlv& t : tlvs)
    {
        n += (t.type == kPad1) ? 1 : 2 + t.value.size();
    }
    return (n + 7) / 8 * 8;
}

uint32_t
MrcSegmentRoutingHeader::GetPaddingBytes() const
{
    return (8 - (GetTlvBytes() % 8)) % 8;
}

uint8_t
MrcSegmentRoutingHeader::GetHdrExtLen() const
{
    return static_cast<uint8_t>((16 * m_segments.size() + GetTlvBytes() + GetPaddingBytes()) / 8);
}

uint32_t
MrcSegmentRoutingHeader::GetSerializedSize() const
{
    return 8 + 8 * GetHdrExtLen();
}

void
MrcSegmentRoutingHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(m_nextHeader);
    i.WriteU8(GetHdrExtLen());
    i.WriteU8(kRoutingType);
    i.WriteU8(m_segmentsLeft);
    i.WriteU8(GetLastEntry());
    i.WriteU8(m_flags);
    i.WriteHtonU16(m_tag);
    for (const Ipv6Address& s : m_segments)
    {
        uint8_t b[16];
        s.Serialize(b);
        i.Write(b, 16);
    }
    for (const Tlv& t : m_tlvs)
    {
        i.WriteU8(t.type);
        if (t.type != kPad1)
        {
            i.WriteU8(static_cast<uint8_t>(t.value.size()));
            if (!t.value.empty())
            {
                i.Write(t.value.data(), t.value.size());
            }
        }
    }
    const uint32_t pad = GetPaddingBytes();
    if (pad == 1)
    {
        i.WriteU8(kPad1);
    }
    else if (pad > 1)
    {
        i.WriteU8(kPadN);
        i.WriteU8(static_cast<uint8_t>(pad - 2));
        i.WriteU8(0, pad - 2);
    }
}

uint32_t
MrcSegmentRoutingHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_error.clear();
    m_segments.clear();
    m_tlvs.clear();
    const uint32_t available = i.GetRemainingSize();
    if (available < 8)
    {
        m_error = "truncated: " + std::to_string(available) + " bytes, the fixed part needs 8";
        return 0;
    }
    m_nextHeader = i.ReadU8();
    const uint8_t hdrExtLen = i.ReadU8();
    const uint8_t routingType = i.ReadU8();
    m_segmentsLeft = i.ReadU8();
    const uint8_t lastEntry = i.ReadU8();
    m_flags = i.ReadU8();
    m_tag = i.ReadNtohU16();
    const uint32_t total = 8 + 8 * uint32_t(hdrExtLen);
    if (routingType != kRoutingType)
    {
        m_error = "routing type " + std::to_string(routingType) + " is not 4 (SRH)";
        return 8;
    }
    if (available < total)
    {
        m_error = "truncated: Hdr Ext Len " + std::to_string(hdrExtLen) + " needs "
                  + std::to_string(total) + " bytes, " + std::to_string(available) + " present";
        return 8;
    }
    if (16 * (uint32_t(lastEntry) + 1) > total - 8)
    {
        m_error = "Last Entry " + std::to_string(lastEntry) + " needs "
                  + std::to_string(16 * (lastEntry + 1)) + " bytes of segments, Hdr Ext Len "
                  + std::to_string(hdrExtLen) + " gives " + std::to_string(total - 8);
        return 8;
    }
    if (m_segmentsLeft > lastEntry)
    {
        m_error = "Segments Left " + std::to_string(m_segmentsLeft) + " > Last Entry "
                  + std::to_string(lastEntry);
        return 8;
    }
    for (uint32_t s = 0; s <= lastEntry; ++s)
    {
        uint8_t b[16];
        i.Read(b, 16);
        m_segments.push_back(Ipv6Address::Deserialize(b));
    }
    uint32_t left = total - 8 - 16 * (uint32_t(lastEntry) + 1);
    std::vector<Tlv> tlvs;
    while (left > 0)
    {
        Tlv t;
        t.type = i.ReadU8();
        --left;
        if (t.type == kPad1)
        {
            tlvs.push_back(t);
            continue;
        }
        if (left < 1)
        {
            m_error = "TLV of type " + std::to_string(t.type) + " has no length byte";
            m_segments.clear();
            return 8;
        }
        const uint8_t len = i.ReadU8();
        --left;
        if (len > left)
        {
            m_error = "TLV of type " + std::to_string(t.type) + " and length " + std::to_string(len)
                      + " runs past the header";
            m_segments.clear();
            return 8;
        }
        t.value.resize(len);
        if (len > 0)
        {
            i.Read(t.value.data(), len);
        }
        left -= len;
        tlvs.push_back(t);
    }
    m_tlvs = tlvs;
    return total;
}

void
MrcSegmentRoutingHeader::Print(std::ostream& os) const
{
    os << "SRH next header " << unsigned(m_nextHeader) << " segments left "
       << unsigned(m_segmentsLeft) << " last entry " << unsigned(GetLastEntry()) << " [";
    for (size_t s = 0; s < m_segments.size(); ++s)
    {
        os << (s ? " " : "") << s << ":" << m_segments[s];
    }
    os << "]";
    if (!m_tlvs.empty())
    {
        os << " tlvs " << m_tlvs.size();
    }
    if (!m_error.empty())
    {
        os << " MALFORMED: " << m_error;
    }
}

} // namespace ns3
