/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-flow-probe-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcFlowProbeTag);

TypeId
MrcFlowProbeTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcFlowProbeTag")
                            .SetParent<Tag>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcFlowProbeTag>();
    return tid;
}

TypeId
MrcFlowProbeTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

MrcFlowProbeTag::MrcFlowProbeTag() = default;

MrcFlowProbeTag::MrcFlowProbeTag(uint32_t flowId,
                                 uint32_t packetId,
                                 uint32_t ipBytes,
                                 uint32_t mrcBytes)
    : m_flowId(flowId)
    , m_packetId(packetId)
    , m_ipBytes(ipBytes)
    , m_mrcBytes(mrcBytes)
{
}

uint32_t
MrcFlowProbeTag::GetFlowId() const
{
    return m_flowId;
}

uint32_t
MrcFlowProbeTag::GetPacketId() const
{
    return m_packetId;
}

uint32_t
MrcFlowProbeTag::GetIpBytes() const
{
    return m_ipBytes;
}

uint32_t
MrcFlowProbeTag::GetMrcBytes() const
{
    return m_mrcBytes;
}

uint32_t
MrcFlowProbeTag::GetSerializedSize() const
{
    return 16;
}

void
MrcFlowProbeTag::Serialize(TagBuffer i) const
{
    i.WriteU32(m_flowId);
    i.WriteU32(m_packetId);
    i.WriteU32(m_ipBytes);
    i.WriteU32(m_mrcBytes);
}

void
MrcFlowProbeTag::Deserialize(TagBuffer i)
{
    m_flowId = i.ReadU32();
    m_packetId = i.ReadU32();
    m_ipBytes = i.ReadU32();
    m_mrcBytes = i.ReadU32();
}

void
MrcFlowProbeTag::Print(std::ostream& os) const
{
    os << "flow " << m_flowId << " packet " << m_packetId << " ip " << m_ipBytes << " B mrc "
       << m_mrcBytes << " B";
}

} // namespace ns3
