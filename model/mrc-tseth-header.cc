/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-tseth-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcTsethHeader);

TypeId
MrcTsethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcTsethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcTsethHeader>();
    return tid;
}

TypeId
MrcTsethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

MrcTsethHeader::MrcTsethHeader() = default;

void
MrcTsethHeader::SetTimestamp(uint16_t timestamp)
{
    m_timestamp = timestamp;
}

uint16_t
MrcTsethHeader::GetTimestamp() const
{
    return m_timestamp;
}

bool
MrcTsethHeader::IsValid() const
{
    return m_error.empty();
}

const std::string&
MrcTsethHeader::GetError() const
{
    return m_error;
}

uint32_t
MrcTsethHeader::GetSerializedSize() const
{
    return kSize;
}

void
MrcTsethHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU16(m_timestamp);
    start.WriteHtonU16(0);
}

uint32_t
MrcTsethHeader::Deserialize(Buffer::Iterator start)
{
    m_error.clear();
    const uint32_t available = start.GetRemainingSize();
    if (available < kSize)
    {
        m_error = "MrcTsethHeader truncated: " + std::to_string(available) + " bytes present, "
                  + std::to_string(kSize) + " needed";
        return 0;
    }
    Buffer::Iterator i = start;
    m_timestamp = i.ReadNtohU16();
    i.ReadNtohU16(); // reserved
    return kSize;
}

void
MrcTsethHeader::Print(std::ostream& os) const
{
    os << "TSETH ts " << m_timestamp;
    if (!m_error.empty())
    {
        os << " MALFORMED: " << m_error;
    }
}

} // namespace ns3
