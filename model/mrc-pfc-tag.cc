/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-pfc-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcPfcTag);

TypeId
MrcPfcTag::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcPfcTag").SetParent<Tag>().SetGroupName("Mrc").AddConstructor<MrcPfcTag>();
    return tid;
}

TypeId
MrcPfcTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

MrcPfcTag::MrcPfcTag() = default;

MrcPfcTag::MrcPfcTag(Kind kind, uint32_t ifIndex)
    : m_kind(kind)
    , m_ifIndex(ifIndex)
{
}

MrcPfcTag::Kind
MrcPfcTag::GetKind() const
{
    return m_kind;
}

uint32_t
MrcPfcTag::GetIfIndex() const
{
    return m_ifIndex;
}

uint32_t
MrcPfcTag::GetSerializedSize() const
{
    return 5;
}

void
MrcPfcTag::Serialize(TagBuffer i) const
{
    i.WriteU8(static_cast<uint8_t>(m_kind));
    i.WriteU32(m_ifIndex);
}

void
MrcPfcTag::Deserialize(TagBuffer i)
{
    m_kind = static_cast<Kind>(i.ReadU8());
    m_ifIndex = i.ReadU32();
}

void
MrcPfcTag::Print(std::ostream& os) const
{
    os << (m_kind == Kind::PAUSE_FRAME ? "PFC pause frame" : "PFC ingress if ") << m_ifIndex;
}

} // namespace ns3
