/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-shared-buffer.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcSharedBuffer");

NS_OBJECT_ENSURE_REGISTERED(PfcSharedBuffer);

TypeId
PfcSharedBuffer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcSharedBuffer")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<PfcSharedBuffer>()
            .AddAttribute("Size",
                          "Bytes of the switch's shared buffer that lossless traffic may use "
                          "(dynamic PFC thresholds are a fraction of what is free of it).",
                          UintegerValue(16 * 1024 * 1024),
                          MakeUintegerAccessor(&PfcSharedBuffer::m_size),
                          MakeUintegerChecker<uint64_t>(1));
    return tid;
}

PfcSharedBuffer::PfcSharedBuffer()
{
    NS_LOG_FUNCTION(this);
}

PfcSharedBuffer::~PfcSharedBuffer() = default;

void
PfcSharedBuffer::Add(uint32_t bytes)
{
    m_used += bytes;
}

void
PfcSharedBuffer::Release(uint32_t bytes)
{
    m_used -= std::min<uint64_t>(m_used, bytes);
}

uint64_t
PfcSharedBuffer::GetUsed() const
{
    return m_used;
}

uint64_t
PfcSharedBuffer::GetFree() const
{
    return m_used >= m_size ? 0 : m_size - m_used;
}

uint64_t
PfcSharedBuffer::GetSize() const
{
    return m_size;
}

} // namespace ns3
