/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-reth-header.h"

#include <ios>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcRethHeader);

TypeId
MrcRethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcRethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcRethHeader>();
    return tid;
}

TypeId
MrcRethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

MrcRethHeader::MrcRethHeader() = default;

void
MrcRethHeader::SetVirtualAddress(uint64_t virtualAddress)
{
    m_virtualAddress = virtualAddress;
}

uint64_t
MrcRethHeader::GetVirtualAddress() const
{
    return m_virtualAddress;
}

void
MrcRethHeader::SetRkey(uint32_t rkey)
{
    m_rkey = rkey;
}

uint32_t
MrcRethHeader::GetRkey() const
{
    return m_rkey;
}

void
MrcRethHeader::SetDmaLength(uint32_t dmaLength)
{
    m_dmaLength = dmaLength;
}

uint32_t
MrcRethHeader::GetDmaLength() const
{
    return m_dmaLength;
}

bool
MrcRethHeader::IsValid() const
{
    return m_error.empty();
}

const std::string&
MrcRethHeader::GetError() const
{
    return m_error;
}

uint32_t
MrcRethHeader::GetSerializedSize() const
{
    return kSize;
}

void
MrcRethHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU64(m_virtualAddress);
    start.WriteHtonU32(m_rkey);
    start.WriteHtonU32(m_dmaLength);
}

uint32_t
MrcRethHeader::Deserialize(Buffer::Iterator start)
{
    m_error.clear();
    const uint32_t available = start.GetRemainingSize();
    if (available < kSize)
    {
        m_error = "MrcRethHeader truncated: " + std::to_string(available) + " bytes present, "
                  + std::to_string(kSize) + " needed";
        return 0;
    }
    Buffer::Iterator i = start;
    m_virtualAddress = i.ReadNtohU64();
    m_rkey = i.ReadNtohU32();
    m_dmaLength = i.ReadNtohU32();
    return kSize;
}

void
MrcRethHeader::Print(std::ostream& os) const
{
    const std::ios_base::fmtflags f = os.flags();
    os << "RETH va 0x" << std::hex << m_virtualAddress << " rkey 0x" << m_rkey;
    os.flags(f);
    os << " len " << m_dmaLength;
    if (!m_error.empty())
    {
        os << " MALFORMED: " << m_error;
    }
}

} // namespace ns3
