/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-rank-barrier-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcRankBarrierHeader);

TypeId
MrcRankBarrierHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcRankBarrierHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcRankBarrierHeader>();
    return tid;
}

TypeId
MrcRankBarrierHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

MrcRankBarrierHeader::MrcRankBarrierHeader() = default;

void
MrcRankBarrierHeader::SetKey(uint64_t key)
{
    m_key = key;
}

uint64_t
MrcRankBarrierHeader::GetKey() const
{
    return m_key;
}

void
MrcRankBarrierHeader::SetWhen(Time when)
{
    m_when = when.GetTimeStep();
}

Time
MrcRankBarrierHeader::GetWhen() const
{
    return TimeStep(m_when);
}

void
MrcRankBarrierHeader::SetRank(uint32_t rank)
{
    m_rank = rank;
}

uint32_t
MrcRankBarrierHeader::GetRank() const
{
    return m_rank;
}

void
MrcRankBarrierHeader::SetFailed(bool failed)
{
    m_failed = failed;
}

bool
MrcRankBarrierHeader::IsFailed() const
{
    return m_failed;
}

bool
MrcRankBarrierHeader::IsValid() const
{
    return m_error.empty();
}

std::string
MrcRankBarrierHeader::GetError() const
{
    return m_error;
}

uint32_t
MrcRankBarrierHeader::GetSerializedSize() const
{
    return kSize;
}

void
MrcRankBarrierHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteHtonU64(m_key);
    i.WriteHtonU64(static_cast<uint64_t>(m_when));
    i.WriteHtonU32(m_rank);
    i.WriteU8(m_failed ? 0x01 : 0x00);
    i.WriteU8(0, 3); // reserved
}

uint32_t
MrcRankBarrierHeader::Deserialize(Buffer::Iterator start)
{
    m_error.clear();
    const uint32_t available = start.GetRemainingSize();
    if (available < kSize)
    {
        m_error = "MrcRankBarrierHeader truncated: " + std::to_string(available)
                  + " bytes present, " + std::to_string(kSize) + " needed";
        return 0;
    }
    Buffer::Iterator i = start;
    m_key = i.ReadNtohU64();
    m_when = static_cast<int64_t>(i.ReadNtohU64());
    m_rank = i.ReadNtohU32();
    m_failed = (i.ReadU8() & 0x01) != 0;
    i.Next(3); // reserved
    return kSize;
}

void
MrcRankBarrierHeader::Print(std::ostream& os) const
{
    os << "BARRIER key " << m_key << " rank " << m_rank << (m_failed ? " failed at " : " ended at ")
       << TimeStep(m_when);
    if (!m_error.empty())
    {
        os << " MALFORMED: " << m_error;
    }
}

} // namespace ns3
