/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-icrc-trailer.h"

#include <ios>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcIcrcTrailer);

TypeId
MrcIcrcTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcIcrcTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcIcrcTrailer>();
    return tid;
}

TypeId
MrcIcrcTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

MrcIcrcTrailer::MrcIcrcTrailer() = default;

void
MrcIcrcTrailer::SetValue(uint32_t value)
{
    m_value = value;
}

uint32_t
MrcIcrcTrailer::GetValue() const
{
    return m_value;
}

bool
MrcIcrcTrailer::IsValid() const
{
    return m_error.empty();
}

const std::string&
MrcIcrcTrailer::GetError() const
{
    return m_error;
}

uint32_t
MrcIcrcTrailer::GetSerializedSize() const
{
    return kSize;
}

void
MrcIcrcTrailer::Serialize(Buffer::Iterator end) const
{
    end.Prev(kSize);
    end.WriteHtonU32(m_value);
}

uint32_t
MrcIcrcTrailer::Deserialize(Buffer::Iterator end)
{
    m_error.clear();
    // Bytes before the end iterator: the iterator's buffer size minus what lies after it.
    const uint32_t available = end.GetSize() - end.GetRemainingSize();
    if (available < kSize)
    {
        m_error = "MrcIcrcTrailer truncated: " + std::to_string(available) + " bytes present, "
                  + std::to_string(kSize) + " needed";
        return 0;
    }
    Buffer::Iterator i = end;
    i.Prev(kSize);
    m_value = i.ReadNtohU32();
    return kSize;
}

void
MrcIcrcTrailer::Print(std::ostream& os) const
{
    const std::ios_base::fmtflags f = os.flags();
    os << "ICRC 0x" << std::hex << m_value;
    os.flags(f);
    if (!m_error.empty())
    {
        os << " MALFORMED: " << m_error;
    }
}

} // namespace ns3
