/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-bth-header.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcBthHeader);

namespace
{

/**
 * \param field the field name
 * \param value the value given
 * \throws std::invalid_argument if value does not fit in 24 bits
 */
void
Check24(const char* field, uint32_t value)
{
    if (value > kMrcPsnMask)
    {
        throw std::invalid_argument(std::string("MrcBthHeader: ") + field + " (="
                                    + std::to_string(value) + ") must be in 0..16777215 (24 bits)");
    }
}

} // namespace

TypeId
MrcBthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcBthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcBthHeader>();
    return tid;
}

TypeId
MrcBthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

MrcBthHeader::MrcBthHeader() = default;

void
MrcBthHeader::SetOpcode(MrcOpcode opcode)
{
    if (!MrcIsKnownOpcode(static_cast<uint8_t>(opcode)))
    {
        std::ostringstream oss;
        oss << "MrcBthHeader: opcode (=" << opcode << ") is not one of MrcOpcode";
        throw std::invalid_argument(oss.str());
    }
    m_opcode = static_cast<uint8_t>(opcode);
}

MrcOpcode
MrcBthHeader::GetOpcode() const
{
    return static_cast<MrcOpcode>(m_opcode);
}

void
MrcBthHeader::SetSolicitedEvent(bool se)
{
    m_solicitedEvent = se;
}

bool
MrcBthHeader::GetSolicitedEvent() const
{
    return m_solicitedEvent;
}

void
MrcBthHeader::SetMigReq(bool m)
{
    m_migReq = m;
}

bool
MrcBthHeader::GetMigReq() const
{
    return m_migReq;
}

void
MrcBthHeader::SetPadCount(uint8_t pad)
{
    if (pad > 3)
    {
        throw std::invalid_argument("MrcBthHeader: PadCount (=" + std::to_string(pad)
                                    + ") must be in 0..3");
    }
    m_padCount = pad;
}

uint8_t
MrcBthHeader::GetPadCount() const
{
    return m_padCount;
}

void
MrcBthHeader::SetTransportVersion(uint8_t version)
{
    if (version > 15)
    {
        throw std::invalid_argument("MrcBthHeader: TransportVersion (=" + std::to_string(version)
                                    + ") must be in 0..15");
    }
    m_transportVersion = version;
}

uint8_t
MrcBthHeader::GetTransportVersion() const
{
    return m_transportVersion;
}

void
MrcBthHeader::SetPartitionKey(uint16_t pkey)
{
    m_partitionKey = pkey;
}

uint16_t
MrcBthHeader::GetPartitionKey() const
{
    return m_partitionKey;
}

void
MrcBthHeader::SetDestQp(uint32_t qp)
{
    Check24("DestQp", qp);
    m_destQp = qp;
}

uint32_t
MrcBthHeader::GetDestQp() const
{
    return m_destQp;
}

void
MrcBthHeader::SetAckRequest(bool ackReq)
{
    m_ackRequest = ackReq;
}

bool
MrcBthHeader::GetAckRequest() const
{
    return m_ackRequest;
}

void
MrcBthHeader::SetPsn(uint32_t psn)
{
    Check24("Psn", psn);
    m_psn = psn;
}

uint32_t
MrcBthHeader::GetPsn() const
{
    return m_psn;
}

bool
MrcBthHeader::IsValid() const
{
    return m_error.empty();
}

const std::string&
MrcBthHeader::GetError() const
{
    return m_error;
}

uint32_t
MrcBthHeader::GetSerializedSize() const
{
    return kSize;
}

void
MrcBthHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(m_opcode);
    i.WriteU8(static_cast<uint8_t>((m_solicitedEvent ? 0x80 : 0) | (m_migReq ? 0x40 : 0)
                                   | ((m_padCount & 0x3) << 4) | (m_transportVersion & 0xf)));
    i.WriteHtonU16(m_partitionKey);
    i.WriteHtonU32(m_destQp & kMrcPsnMask); // byte 4 reserved (0), bytes 5-7 DestQP
    i.WriteHtonU32((m_ackRequest ? 0x80000000u : 0) | (m_psn & kMrcPsnMask));
}

uint32_t
MrcBthHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_error.clear();
    const uint32_t available = i.GetRemainingSize();
    if (available < kSize)
    {
        m_error = "MrcBthHeader truncated: " + std::to_string(available) + " bytes present, "
                  + std::to_string(kSize) + " needed";
        return 0;
    }
    m_opcode = i.ReadU8();
    const uint8_t flags = i.ReadU8();
    m_solicitedEvent = (flags & 0x80) != 0;
    m_migReq = (flags & 0x40) != 0;
    m_padCount = (flags >> 4) & 0x3;
    m_transportVersion = flags & 0xf;
    m_partitionKey = i.ReadNtohU16();
    m_destQp = i.ReadNtohU32() & kMrcPsnMask;
    const uint32_t word = i.ReadNtohU32();
    m_ackRequest = (word & 0x80000000u) != 0;
    m_psn = word & kMrcPsnMask;
    if (!MrcIsKnownOpcode(m_opcode))
    {
        m_error = std::string("MrcBthHeader: unknown opcode 0x") + "0123456789abcdef"[m_opcode >> 4]
                  + "0123456789abcdef"[m_opcode & 0xf];
    }
    return kSize;
}

void
MrcBthHeader::Print(std::ostream& os) const
{
    os << "BTH " << GetOpcode() << " qp " << m_destQp << " psn " << m_psn
       << (m_ackRequest ? " A" : "") << (m_solicitedEvent ? " SE" : "") << (m_migReq ? " M" : "")
       << " pad " << unsigned(m_padCount) << " pkey " << m_partitionKey;
    if (!m_error.empty())
    {
        os << " MALFORMED: " << m_error;
    }
}

} // namespace ns3
