/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-qp-group.h"

#include "mrc-rank-locality.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcQpGroup");

NS_OBJECT_ENSURE_REGISTERED(MrcQpGroup);

TypeId
MrcQpGroup::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcQpGroup")
                            .SetParent<Object>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcQpGroup>();
    return tid;
}

MrcQpGroup::MrcQpGroup() = default;

MrcQpGroup::~MrcQpGroup() = default;

void
MrcQpGroup::DoDispose()
{
    m_members.clear();
    m_sendComplete = MakeNullCallback<void, uint32_t>();
    m_receive = MakeNullCallback<void, uint32_t, uint64_t, std::optional<uint32_t>>();
    Object::DoDispose();
}

void
MrcQpGroup::AddMember(Ptr<MrcQueuePair> sender, Ptr<MrcQueuePair> receiver)
{
    const uint32_t member = m_members.size();
    m_members.emplace_back(sender, receiver);
    sender->SetSendCompleteCallback(MakeCallback(&MrcQpGroup::OnPartComplete, this, member));
    receiver->SetReceiveCallback(MakeCallback(&MrcQpGroup::OnPartDelivered, this, member));
}

std::vector<MrcQpGroup::Part>
MrcQpGroup::Stripe(uint64_t bytes, uint32_t members, uint32_t mss, uint32_t first)
{
    if (members == 0 || mss == 0)
    {
        throw std::invalid_argument("MrcQpGroup::Stripe: members and mss must be >= 1");
    }
    if (bytes == 0)
    {
        return {Part{first % members, 0, 0}};
    }
    const uint64_t packets = (bytes + mss - 1) / mss;
    const uint64_t chunk = (packets + members - 1) / members * mss;
    std::vector<Part> parts;
    for (uint32_t i = 0; i < members && i * chunk < bytes; ++i)
    {
        parts.push_back(Part{(first + i) % members, i * chunk, std::min(chunk, bytes - i * chunk)});
    }
    return parts;
}

uint32_t
MrcQpGroup::PostWrite(uint64_t bytes,
                      uint64_t remoteVa,
                      uint32_t rkey,
                      std::optional<uint32_t> immediate,
                      std::shared_ptr<const std::vector<uint8_t>> data)
{
    if (m_members.empty())
    {
        throw std::logic_error("MrcQpGroup::PostWrite: the group has no queue pair");
    }
    if (data && data->size() != bytes)
    {
        throw std::invalid_argument("MrcQpGroup::PostWrite: data holds "
                                    + std::to_string(data->size()) + " bytes, the message "
                                    + std::to_string(bytes));
    }
    const std::vector<Part> parts = NextStripe(bytes);
    const uint32_t id = m_nextId++;
    // In a distributed run the receiving host may be another rank's: its copy there counts the
    // parts in (ExpectWrite), this one only their acknowledgements.
    const bool receiverHere = MrcRankLocality::IsLocal(m_members.front().second->GetNode());
    Message& m = m_messages[id];
    m.bytes = bytes;
    m.immediate = immediate;
    m.unacknowledged = parts.size();
    m.undelivered = receiverHere ? parts.size() : 0;
    m_stats.messagesPosted++;
    m_stats.bytesPosted += bytes;
    for (const Part& part : parts)
    {
        std::shared_ptr<const std::vector<uint8_t>> slice;
        if (data)
        {
            slice = std::make_shared<const std::vector<uint8_t>>(data->begin() + part.offset,
                                                                 data->begin() + part.offset
                                                                     + part.bytes);
        }
        const bool last = part.offset + part.bytes == bytes;
        const uint32_t msn =
            m_members[part.member].first->PostWrite(part.bytes,
                                                    remoteVa + part.offset,
                                                    rkey,
                                                    last ? immediate : std::nullopt,
                                                    slice);
        m_sendParts[{part.member, msn}] = id;
        if (receiverHere)
        {
            m_recvParts[{part.member, msn}] = id;
        }
    }
    NS_LOG_INFO("group message " << id << " (" << bytes << " B) in " << parts.size() << " parts");
    return id;
}

std::vector<MrcQpGroup::Part>
MrcQpGroup::NextStripe(uint64_t bytes) const
{
    UintegerValue mss;
    m_members.front().first->GetAttribute("Mss", mss);
    return Stripe(bytes,
                  m_members.size(),
                  static_cast<uint32_t>(mss.Get()),
                  m_nextId % m_members.size());
}

uint32_t
MrcQpGroup::ExpectWrite(uint64_t bytes, std::optional<uint32_t> immediate)
{
    if (m_members.empty())
    {
        throw std::logic_error("MrcQpGroup::ExpectWrite: the group has no queue pair");
    }
    if (MrcRankLocality::IsLocal(m_members.front().first->GetNode()))
    {
        throw std::logic_error("MrcQpGroup::ExpectWrite: this process simulates the sending "
                               "host; PostWrite covers both ends");
    }
    const std::vector<Part> parts = NextStripe(bytes);
    const uint32_t id = m_nextId++;
    m_expectedMsn.resize(m_members.size(), 0);
    Message& m = m_messages[id];
    m.bytes = bytes;
    m.immediate = immediate;
    m.unacknowledged = 0;
    m.undelivered = parts.size();
    for (const Part& part : parts)
    {
        m_recvParts[{part.member, m_expectedMsn[part.member]++}] = id;
    }
    NS_LOG_INFO("expecting group message " << id << " (" << bytes << " B) in " << parts.size()
                                           << " parts");
    return id;
}

void
MrcQpGroup::OnPartComplete(uint32_t member, uint32_t msn)
{
    auto it = m_sendParts.find({member, msn});
    if (it == m_sendParts.end())
    {
        return; // posted on the member directly
    }
    const uint32_t id = it->second;
    m_sendParts.erase(it);
    if (--m_messages[id].unacknowledged == 0)
    {
        m_stats.messagesCompleted++;
        if (!m_sendComplete.IsNull())
        {
            m_sendComplete(id);
        }
        Forget(id);
    }
}

void
MrcQpGroup::OnPartDelivered(uint32_t member,
                            uint32_t msn,
                            uint64_t bytes,
                            std::optional<uint32_t> immediate)
{
    auto it = m_recvParts.find({member, msn});
    if (it == m_recvParts.end())
    {
        return;
    }
    const uint32_t id = it->second;
    m_recvParts.erase(it);
    Message& m = m_messages[id];
    if (--m.undelivered == 0)
    {
        m_stats.messagesDelivered++;
        if (!m_receive.IsNull())
        {
            m_receive(id, m.bytes, m.immediate);
        }
        Forget(id);
    }
}

void
MrcQpGroup::Forget(uint32_t id)
{
    auto it = m_messages.find(id);
    if (it != m_messages.end() && it->second.unacknowledged == 0 && it->second.undelivered == 0)
    {
        m_messages.erase(it);
    }
}

void
MrcQpGroup::RegisterMemory(uint64_t va, std::shared_ptr<std::vector<uint8_t>> region)
{
    for (auto& [sender, receiver] : m_members)
    {
        receiver->RegisterMemory(va, region);
    }
}

void
MrcQpGroup::SetSendCompleteCallback(Callback<void, uint32_t> cb)
{
    m_sendComplete = cb;
}

void
MrcQpGroup::SetReceiveCallback(Callback<void, uint32_t, uint64_t, std::optional<uint32_t>> cb)
{
    m_receive = cb;
}

uint32_t
MrcQpGroup::GetSize() const
{
    return m_members.size();
}

Ptr<MrcQueuePair>
MrcQpGroup::GetSender(uint32_t i) const
{
    return m_members.at(i).first;
}

Ptr<MrcQueuePair>
MrcQpGroup::GetReceiver(uint32_t i) const
{
    return m_members.at(i).second;
}

const MrcQpGroup::Stats&
MrcQpGroup::GetGroupStats() const
{
    return m_stats;
}

MrcQpStats
MrcQpGroup::GetSenderStats() const
{
    MrcQpStats sum;
    for (const auto& [sender, receiver] : m_members)
    {
        sum += sender->GetStats();
    }
    return sum;
}

MrcQpStats
MrcQpGroup::GetReceiverStats() const
{
    MrcQpStats sum;
    for (const auto& [sender, receiver] : m_members)
    {
        sum += receiver->GetStats();
    }
    return sum;
}

} // namespace ns3
