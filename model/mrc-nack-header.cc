/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-nack-header.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcNackHeader);

TypeId
MrcNackHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcNackHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcNackHeader>();
    return tid;
}

TypeId
MrcNackHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

MrcNackHeader::MrcNackHeader() = default;

void
MrcNackHeader::SetCode(MrcNackCode code)
{
    if (!MrcIsKnownNackCode(static_cast<uint8_t>(code)))
    {
        std::ostringstream oss;
        oss << "MrcNackHeader: code (=" << code << ") is not one of MrcNackCode";
        throw std::invalid_argument(oss.str());
    }
    m_code = code;
}

MrcNackCode
MrcNackHeader::GetCode() const
{
    return m_code;
}

void
MrcNackHeader::SetPsn(uint32_t psn)
{
    if (psn > kMrcPsnMask)
    {
        throw std::invalid_argument("MrcNackHeader: Psn (=" + std::to_string(psn)
                                    + ") must be in 0..16777215 (24 bits)");
    }
    m_psn = psn;
}

uint32_t
MrcNackHeader::GetPsn() const
{
    return m_psn;
}

void
MrcNackHeader::SetReflectedEv(uint32_t reflectedEv)
{
    m_reflectedEv = reflectedEv;
}

uint32_t
MrcNackHeader::GetReflectedEv() const
{
    return m_reflectedEv;
}

void
MrcNackHeader::SetReflectedTimestamp(uint16_t reflectedTimestamp)
{
    m_reflectedTimestamp = reflectedTimestamp;
}

uint16_t
MrcNackHeader::GetReflectedTimestamp() const
{
    return m_reflectedTimestamp;
}

bool
MrcNackHeader::IsValid() const
{
    return m_error.empty();
}

const std::string&
MrcNackHeader::GetError() const
{
    return m_error;
}

uint32_t
MrcNackHeader::GetSerializedSize() const
{
    return kSize;
}

void
MrcNackHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32((uint32_t(static_cast<uint8_t>(m_code)) << 24) | (m_psn & kMrcPsnMask));
    start.WriteHtonU32(m_reflectedEv);
    start.WriteHtonU16(m_reflectedTimestamp);
    start.WriteHtonU16(0);
}

uint32_t
MrcNackHeader::Deserialize(Buffer::Iterator start)
{
    m_error.clear();
    const uint32_t available = start.GetRemainingSize();
    if (available < kSize)
    {
        m_error = "MrcNackHeader truncated: " + std::to_string(available) + " bytes present, "
                  + std::to_string(kSize) + " needed";
        return 0;
    }
    Buffer::Iterator i = start;
    const uint32_t word = i.ReadNtohU32();
    const uint8_t code = static_cast<uint8_t>(word >> 24);
    m_code = static_cast<MrcNackCode>(code);
    m_psn = word & kMrcPsnMask;
    m_reflectedEv = i.ReadNtohU32();
    m_reflectedTimestamp = i.ReadNtohU16();
    i.ReadNtohU16(); // reserved
    if (!MrcIsKnownNackCode(code))
    {
        m_error = std::string("MrcNackHeader: unknown NACK code 0x") + "0123456789abcdef"[code >> 4]
                  + "0123456789abcdef"[code & 0xf];
    }
    return kSize;
}

void
MrcNackHeader::Print(std::ostream& os) const
{
    os << "NACK " << m_code << " psn " << m_psn << " ev " << m_reflectedEv << " ts "
       << m_reflectedTimestamp;
    if (!m_error.empty())
    {
        os << " MALFORMED: " << m_error;
    }
}

} // namespace ns3
