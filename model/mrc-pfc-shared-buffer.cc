/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-pfc-shared-buffer.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcPfcSharedBuffer");

NS_OBJECT_ENSURE_REGISTERED(MrcPfcSharedBuffer);

TypeId
MrcPfcSharedBuffer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcPfcSharedBuffer")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcPfcSharedBuffer>()
            .AddAttribute("Size",
                          "Bytes of the switch's shared buffer that lossless traffic may use "
                          "(dynamic PFC thresholds are a fraction of what is free of it).",
                          UintegerValue(16 * 1024 * 1024),
                          MakeUintegerAccessor(&MrcPfcSharedBuffer::m_size),
                          MakeUintegerChecker<uint64_t>(1));
    return tid;
}

MrcPfcSharedBuffer::MrcPfcSharedBuffer()
{
    NS_LOG_FUNCTION(this);
}

MrcPfcSharedBuffer::~MrcPfcSharedBuffer() = default;

void
MrcPfcSharedBuffer::Add(uint32_t bytes)
{
    m_used += bytes;
}

void
MrcPfcSharedBuffer::Release(uint32_t bytes)
{
    m_used -= std::min<uint64_t>(m_used, bytes);
}

uint64_t
MrcPfcSharedBuffer::GetUsed() const
{
    return m_used;
}

uint64_t
MrcPfcSharedBuffer::GetFree() const
{
    return m_used >= m_size ? 0 : m_size - m_used;
}

uint64_t
MrcPfcSharedBuffer::GetSize() const
{
    return m_size;
}

} // namespace ns3
