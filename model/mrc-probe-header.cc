/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-probe-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcProbeHeader);

TypeId
MrcProbeHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcProbeHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcProbeHeader>();
    return tid;
}

TypeId
MrcProbeHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

MrcProbeHeader::MrcProbeHeader() = default;

void
MrcProbeHeader::SetResponse(bool response)
{
    m_response = response;
}

bool
MrcProbeHeader::GetResponse() const
{
    return m_response;
}

void
MrcProbeHeader::SetAckRequest(bool ackRequest)
{
    m_ackRequest = ackRequest;
}

bool
MrcProbeHeader::GetAckRequest() const
{
    return m_ackRequest;
}

void
MrcProbeHeader::SetSequence(uint32_t sequence)
{
    m_sequence = sequence;
}

uint32_t
MrcProbeHeader::GetSequence() const
{
    return m_sequence;
}

void
MrcProbeHeader::SetEv(uint32_t ev)
{
    m_ev = ev;
}

uint32_t
MrcProbeHeader::GetEv() const
{
    return m_ev;
}

bool
MrcProbeHeader::IsValid() const
{
    return m_error.empty();
}

const std::string&
MrcProbeHeader::GetError() const
{
    return m_error;
}

uint32_t
MrcProbeHeader::GetSerializedSize() const
{
    return kSize;
}

void
MrcProbeHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8((m_response ? 0x01 : 0x00) | (m_ackRequest ? 0x02 : 0x00));
    start.WriteU8(0, 3);
    start.WriteHtonU32(m_sequence);
    start.WriteHtonU32(m_ev);
}

uint32_t
MrcProbeHeader::Deserialize(Buffer::Iterator start)
{
    m_error.clear();
    const uint32_t available = start.GetRemainingSize();
    if (available < kSize)
    {
        m_error = "MrcProbeHeader truncated: " + std::to_string(available) + " bytes present, "
                  + std::to_string(kSize) + " needed";
        return 0;
    }
    Buffer::Iterator i = start;
    const uint8_t flags = i.ReadU8();
    m_response = (flags & 0x01) != 0;
    m_ackRequest = (flags & 0x02) != 0;
    i.Next(3); // reserved
    m_sequence = i.ReadNtohU32();
    m_ev = i.ReadNtohU32();
    return kSize;
}

void
MrcProbeHeader::Print(std::ostream& os) const
{
    os << "PROBE " << (m_response ? "response" : "request") << (m_ackRequest ? " ack-request" : "")
       << " seq " << m_sequence << " ev " << m_ev;
    if (!m_error.empty())
    {
        os << " MALFORMED: " << m_error;
    }
}

} // namespace ns3
