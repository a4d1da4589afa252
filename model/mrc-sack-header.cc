/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-sack-header.h"

#include <ios>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcSackHeader);

TypeId
MrcSackHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcSackHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcSackHeader>();
    return tid;
}

TypeId
MrcSackHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

MrcSackHeader::MrcSackHeader() = default;

void
MrcSackHeader::SetCumulativeAckPsn(uint32_t cumulativeAckPsn)
{
    if (cumulativeAckPsn > kMrcPsnMask)
    {
        throw std::invalid_argument("MrcSackHeader: CumulativeAckPsn (="
                                    + std::to_string(cumulativeAckPsn)
                                    + ") must be in 0..16777215 (24 bits)");
    }
    m_cumulativeAckPsn = cumulativeAckPsn;
}

uint32_t
MrcSackHeader::GetCumulativeAckPsn() const
{
    return m_cumulativeAckPsn;
}

void
MrcSackHeader::SetMark(MrcSackMark mark)
{
    if (static_cast<uint8_t>(mark) > 2)
    {
        std::ostringstream oss;
        oss << "MrcSackHeader: Mark (=" << mark << ") must be NONE, SKIP_ONCE or ALWAYS_SKIP";
        throw std::invalid_argument(oss.str());
    }
    m_mark = mark;
}

MrcSackMark
MrcSackHeader::GetMark() const
{
    return m_mark;
}

void
MrcSackHeader::SetEcnEcho(bool ecnEcho)
{
    m_ecnEcho = ecnEcho;
}

bool
MrcSackHeader::GetEcnEcho() const
{
    return m_ecnEcho;
}

void
MrcSackHeader::SetBitmapBasePsn(uint32_t bitmapBasePsn)
{
    if (bitmapBasePsn > kMrcPsnMask)
    {
        throw std::invalid_argument("MrcSackHeader: BitmapBasePsn (="
                                    + std::to_string(bitmapBasePsn)
                                    + ") must be in 0..16777215 (24 bits)");
    }
    m_bitmapBasePsn = bitmapBasePsn;
}

uint32_t
MrcSackHeader::GetBitmapBasePsn() const
{
    return m_bitmapBasePsn;
}

void
MrcSackHeader::SetBitmap(uint64_t bitmap)
{
    m_bitmap = bitmap;
}

uint64_t
MrcSackHeader::GetBitmap() const
{
    return m_bitmap;
}

void
MrcSackHeader::SetReflectedEv(uint32_t reflectedEv)
{
    m_reflectedEv = reflectedEv;
}

uint32_t
MrcSackHeader::GetReflectedEv() const
{
    return m_reflectedEv;
}

void
MrcSackHeader::SetPortStateBitmap(uint8_t portStateBitmap)
{
    m_portStateBitmap = portStateBitmap;
}

uint8_t
MrcSackHeader::GetPortStateBitmap() const
{
    return m_portStateBitmap;
}

void
MrcSackHeader::SetReflectedTimestamp(uint16_t reflectedTimestamp)
{
    m_reflectedTimestamp = reflectedTimestamp;
}

uint16_t
MrcSackHeader::GetReflectedTimestamp() const
{
    return m_reflectedTimestamp;
}

void
MrcSackHeader::SetOutOfOrderCount(uint16_t outOfOrderCount)
{
    m_outOfOrderCount = outOfOrderCount;
}

uint16_t
MrcSackHeader::GetOutOfOrderCount() const
{
    return m_outOfOrderCount;
}

void
MrcSackHeader::SetWindowPenalty(uint8_t windowPenalty)
{
    if (windowPenalty > kMaxWindowPenalty)
    {
        throw std::invalid_argument("MrcSackHeader: WindowPenalty (="
                                    + std::to_string(windowPenalty) + ") must be in 0..127");
    }
    m_windowPenalty = windowPenalty;
}

uint8_t
MrcSackHeader::GetWindowPenalty() const
{
    return m_windowPenalty;
}

void
MrcSackHeader::SetReceivedBytes(uint32_t receivedBytes)
{
    m_receivedBytes = receivedBytes;
}

uint32_t
MrcSackHeader::GetReceivedBytes() const
{
    return m_receivedBytes;
}

bool
MrcSackHeader::IsValid() const
{
    return m_error.empty();
}

const std::string&
MrcSackHeader::GetError() const
{
    return m_error;
}

uint32_t
MrcSackHeader::GetSerializedSize() const
{
    return kSize;
}

void
MrcSackHeader::Serialize(Buffer::Iterator start) const
{
    const uint32_t flags =
        (uint32_t(static_cast<uint8_t>(m_mark) & 0x3) << 6) | (m_ecnEcho ? 0x20u : 0u);
    start.WriteHtonU32((flags << 24) | (m_cumulativeAckPsn & kMrcPsnMask));
    start.WriteHtonU32(m_bitmapBasePsn & kMrcPsnMask);
    start.WriteHtonU64(m_bitmap);
    start.WriteHtonU32(m_reflectedEv);
    start.WriteU8(m_portStateBitmap);
    start.WriteU8(0, 3);
    start.WriteHtonU16(m_reflectedTimestamp);
    start.WriteHtonU16(m_outOfOrderCount);
    start.WriteU8(m_windowPenalty & kMaxWindowPenalty);
    start.WriteU8(0, 3);
    start.WriteHtonU32(m_receivedBytes);
}

uint32_t
MrcSackHeader::Deserialize(Buffer::Iterator start)
{
    m_error.clear();
    const uint32_t available = start.GetRemainingSize();
    if (available < kSize)
    {
        m_error = "MrcSackHeader truncated: " + std::to_string(available) + " bytes present, "
                  + std::to_string(kSize) + " needed";
        return 0;
    }
    Buffer::Iterator i = start;
    const uint32_t word0 = i.ReadNtohU32();
    const uint8_t flags = static_cast<uint8_t>(word0 >> 24);
    const uint8_t mark = (flags >> 6) & 0x3;
    m_mark = static_cast<MrcSackMark>(mark);
    m_ecnEcho = (flags & 0x20) != 0;
    m_cumulativeAckPsn = word0 & kMrcPsnMask;
    m_bitmapBasePsn = i.ReadNtohU32() & kMrcPsnMask;
    m_bitmap = i.ReadNtohU64();
    m_reflectedEv = i.ReadNtohU32();
    m_portStateBitmap = i.ReadU8();
    i.Next(3); // reserved
    m_reflectedTimestamp = i.ReadNtohU16();
    m_outOfOrderCount = i.ReadNtohU16();
    m_windowPenalty = i.ReadU8();
    i.Next(3); // reserved
    m_receivedBytes = i.ReadNtohU32();
    if (mark > 2)
    {
        m_error = "MrcSackHeader: mark " + std::to_string(mark) + " is not one of MrcSackMark";
    }
    else if (m_windowPenalty > kMaxWindowPenalty)
    {
        m_error =
            "MrcSackHeader: window penalty " + std::to_string(m_windowPenalty) + " is above 127";
    }
    return kSize;
}

void
MrcSackHeader::Print(std::ostream& os) const
{
    const std::ios_base::fmtflags f = os.flags();
    os << "SACK cack " << m_cumulativeAckPsn << " base " << m_bitmapBasePsn << " bitmap 0x"
       << std::hex << m_bitmap << " ports 0x" << unsigned(m_portStateBitmap);
    os.flags(f);
    os << " M " << m_mark << (m_ecnEcho ? " ECE" : "") << " ev " << m_reflectedEv << " ts "
       << m_reflectedTimestamp << " ooo " << m_outOfOrderCount << " penalty "
       << unsigned(m_windowPenalty) << " rxbytes " << m_receivedBytes;
    if (!m_error.empty())
    {
        os << " MALFORMED: " << m_error;
    }
}

} // namespace ns3
