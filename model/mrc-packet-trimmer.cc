/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-packet-trimmer.h"

#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-queue-disc-item.h"

#include <algorithm>

namespace ns3
{

std::optional<uint8_t>
MrcPacketTrimmer::GetDscp(Ptr<const QueueDiscItem> item)
{
    uint8_t ds = 0;
    if (!item->GetUint8Value(QueueItem::IP_DSFIELD, ds))
    {
        return std::nullopt;
    }
    return static_cast<uint8_t>(ds >> 2);
}

Ptr<QueueDiscItem>
MrcPacketTrimmer::Trim(Ptr<const QueueDiscItem> item, uint32_t trimSize, uint8_t dscp)
{
    if (auto v6 = DynamicCast<const Ipv6QueueDiscItem>(item))
    {
        Ipv6Header header = v6->GetHeader();
        const uint32_t headerSize = header.GetSerializedSize();
        const uint32_t keep = std::min<uint32_t>(v6->GetPacket()->GetSize(),
                                                 trimSize - std::min(trimSize, headerSize));
        Ptr<Packet> cut = v6->GetPacket()->CreateFragment(0, keep);
        header.SetPayloadLength(keep);
        header.SetDscp(static_cast<Ipv6Header::DscpType>(dscp));
        Ptr<Ipv6QueueDiscItem> out =
            Create<Ipv6QueueDiscItem>(cut, v6->GetAddress(), v6->GetProtocol(), header);
        out->SetTxQueueIndex(v6->GetTxQueueIndex());
        return out;
    }
    if (auto v4 = DynamicCast<const Ipv4QueueDiscItem>(item))
    {
        Ipv4Header header = v4->GetHeader();
        const uint32_t headerSize = header.GetSerializedSize();
        const uint32_t keep = std::min<uint32_t>(v4->GetPacket()->GetSize(),
                                                 trimSize - std::min(trimSize, headerSize));
        Ptr<Packet> cut = v4->GetPacket()->CreateFragment(0, keep);
        header.SetPayloadSize(keep);
        header.SetDscp(static_cast<Ipv4Header::DscpType>(dscp));
        Ptr<Ipv4QueueDiscItem> out =
            Create<Ipv4QueueDiscItem>(cut, v4->GetAddress(), v4->GetProtocol(), header);
        out->SetTxQueueIndex(v4->GetTxQueueIndex());
        return out;
    }
    return nullptr;
}

} // namespace ns3
