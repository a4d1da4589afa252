/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-immdt-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcImmDtHeader);

TypeId
MrcImmDtHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcImmDtHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcImmDtHeader>();
    return tid;
}

TypeId
MrcImmDtHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

MrcImmDtHeader::MrcImmDtHeader() = default;

void
MrcImmDtHeader::SetImmediateData(uint32_t immediate)
{
    m_immediate = immediate;
}

uint32_t
MrcImmDtHeader::GetImmediateData() const
{
    return m_immediate;
}

bool
MrcImmDtHeader::IsValid() const
{
    return m_error.empty();
}

const std::string&
MrcImmDtHeader::GetError() const
{
    return m_error;
}

uint32_t
MrcImmDtHeader::GetSerializedSize() const
{
    return kSize;
}

void
MrcImmDtHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32(m_immediate);
}

uint32_t
MrcImmDtHeader::Deserialize(Buffer::Iterator start)
{
    m_error.clear();
    const uint32_t available = start.GetRemainingSize();
    if (available < kSize)
    {
        m_error = "MrcImmDtHeader truncated: " + std::to_string(available) + " bytes present, "
                  + std::to_string(kSize) + " needed";
        return 0;
    }
    Buffer::Iterator i = start;
    m_immediate = i.ReadNtohU32();
    return kSize;
}

void
MrcImmDtHeader::Print(std::ostream& os) const
{
    os << "ImmDt " << m_immediate;
    if (!m_error.empty())
    {
        os << " MALFORMED: " << m_error;
    }
}

} // namespace ns3
