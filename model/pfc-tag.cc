/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcTag);

TypeId
PfcTag::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcTag").SetParent<Tag>().SetGroupName("Mrc").AddConstructor<PfcTag>();
    return tid;
}

TypeId
PfcTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

PfcTag::PfcTag() = default;

PfcTag::PfcTag(Kind kind, uint32_t ifIndex)
    : m_kind(kind)
    , m_ifIndex(ifIndex)
{
}

PfcTag::Kind
PfcTag::GetKind() const
{
    return m_kind;
}

uint32_t
PfcTag::GetIfIndex() const
{
    return m_ifIndex;
}

uint32_t
PfcTag::GetSerializedSize() const
{
    return 5;
}

void
PfcTag::Serialize(TagBuffer i) const
{
    i.WriteU8(static_cast<uint8_t>(m_kind));
    i.WriteU32(m_ifIndex);
}

void
PfcTag::Deserialize(TagBuffer i)
{
    m_kind = static_cast<Kind>(i.ReadU8());
    m_ifIndex = i.ReadU32();
}

void
PfcTag::Print(std::ostream& os) const
{
    os << (m_kind == Kind::PAUSE_FRAME ? "PFC pause frame" : "PFC ingress if ") << m_ifIndex;
}

} // namespace ns3
