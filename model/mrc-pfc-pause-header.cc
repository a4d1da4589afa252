/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-pfc-pause-header.h"

#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcPfcPauseHeader);

namespace
{

/**
 * \param priority a priority
 * \throws std::invalid_argument if it is not 0..7
 */
void
CheckPriority(uint8_t priority)
{
    if (priority >= MrcPfcPauseHeader::kPriorities)
    {
        throw std::invalid_argument("MrcPfcPauseHeader: priority (=" + std::to_string(priority)
                                    + ") must be in 0..7");
    }
}

/**
 * \param v a 16-bit value
 * \return it as 0xhhhh
 */
std::string
Hex16(uint16_t v)
{
    const char* digits = "0123456789abcdef";
    std::string s = "0x";
    for (int shift = 12; shift >= 0; shift -= 4)
    {
        s += digits[(v >> shift) & 0xf];
    }
    return s;
}

} // namespace

TypeId
MrcPfcPauseHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcPfcPauseHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcPfcPauseHeader>();
    return tid;
}

TypeId
MrcPfcPauseHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

MrcPfcPauseHeader::MrcPfcPauseHeader() = default;

void
MrcPfcPauseHeader::SetPauseTime(uint8_t priority, uint16_t quanta)
{
    CheckPriority(priority);
    m_enable |= static_cast<uint8_t>(1u << priority);
    m_quanta[priority] = quanta;
}

uint16_t
MrcPfcPauseHeader::GetPauseTime(uint8_t priority) const
{
    CheckPriority(priority);
    return m_quanta[priority];
}

bool
MrcPfcPauseHeader::IsEnabled(uint8_t priority) const
{
    CheckPriority(priority);
    return (m_enable >> priority) & 1u;
}

uint8_t
MrcPfcPauseHeader::GetEnableVector() const
{
    return m_enable;
}

uint16_t
MrcPfcPauseHeader::GetOpcode() const
{
    return m_opcode;
}

bool
MrcPfcPauseHeader::IsValid() const
{
    return m_error.empty();
}

const std::string&
MrcPfcPauseHeader::GetError() const
{
    return m_error;
}

uint64_t
MrcPfcPauseHeader::QuantaToNanoSeconds(uint16_t quanta, uint64_t bitRate)
{
    if (bitRate == 0)
    {
        throw std::invalid_argument("MrcPfcPauseHeader: link rate must be > 0 bit/s");
    }
    // quanta * 512 bits fits in 26 bits; times 1e9 in 56: no overflow.
    const uint64_t bitNs = uint64_t(quanta) * kBitsPerQuantum * 1000000000ULL;
    return (bitNs + bitRate - 1) / bitRate;
}

void
MrcPfcPauseHeader::Print(std::ostream& os) const
{
    os << "PFC opcode " << Hex16(m_opcode) << " pause";
    for (uint32_t p = 0; p < kPriorities; ++p)
    {
        if ((m_enable >> p) & 1u)
        {
            os << " p" << p << "=" << m_quanta[p];
        }
    }
    if (!m_error.empty())
    {
        os << " MALFORMED: " << m_error;
    }
}

uint32_t
MrcPfcPauseHeader::GetSerializedSize() const
{
    return kSize;
}

void
MrcPfcPauseHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteHtonU16(m_opcode);
    i.WriteHtonU16(m_enable);
    for (uint16_t q : m_quanta)
    {
        i.WriteHtonU16(q);
    }
    i.WriteU8(0, kSize - 4 - 2 * kPriorities);
}

uint32_t
MrcPfcPauseHeader::Deserialize(Buffer::Iterator start)
{
    m_error.clear();
    const uint32_t available = start.GetRemainingSize();
    if (available < kSize)
    {
        m_error = "MrcPfcPauseHeader truncated: " + std::to_string(available) + " bytes present, "
                  + std::to_string(kSize) + " needed";
        return 0;
    }
    Buffer::Iterator i = start;
    m_opcode = i.ReadNtohU16();
    const uint16_t enable = i.ReadNtohU16();
    m_enable = static_cast<uint8_t>(enable & 0xff);
    for (uint16_t& q : m_quanta)
    {
        q = i.ReadNtohU16();
    }
    i.Next(kSize - 4 - 2 * kPriorities); // padding: not checked (802.1Qbb: ignored)
    if (m_opcode != kOpcode)
    {
        m_error = "MrcPfcPauseHeader: opcode " + Hex16(m_opcode) + " is not PFC (0x0101)";
    }
    else if (enable > 0xff)
    {
        m_error =
            "MrcPfcPauseHeader: reserved bits set in the priority-enable vector " + Hex16(enable);
    }
    return kSize;
}

} // namespace ns3
