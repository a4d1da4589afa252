/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-meth-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcMethHeader);

TypeId
MrcMethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcMethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcMethHeader>();
    return tid;
}

TypeId
MrcMethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

MrcMethHeader::MrcMethHeader() = default;

void
MrcMethHeader::SetMsn(uint32_t msn)
{
    m_msn = msn;
}

uint32_t
MrcMethHeader::GetMsn() const
{
    return m_msn;
}

bool
MrcMethHeader::IsValid() const
{
    return m_error.empty();
}

const std::string&
MrcMethHeader::GetError() const
{
    return m_error;
}

uint32_t
MrcMethHeader::GetSerializedSize() const
{
    return kSize;
}

void
MrcMethHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32(m_msn);
}

uint32_t
MrcMethHeader::Deserialize(Buffer::Iterator start)
{
    m_error.clear();
    const uint32_t available = start.GetRemainingSize();
    if (available < kSize)
    {
        m_error = "MrcMethHeader truncated: " + std::to_string(available) + " bytes present, "
                  + std::to_string(kSize) + " needed";
        return 0;
    }
    m_msn = start.ReadNtohU32();
    return kSize;
}

void
MrcMethHeader::Print(std::ostream& os) const
{
    os << "METH msn " << m_msn;
    if (!m_error.empty())
    {
        os << " MALFORMED: " << m_error;
    }
}

} // namespace ns3
