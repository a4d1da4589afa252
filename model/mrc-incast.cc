/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-incast.h"

#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcIncast);

TypeId
MrcIncast::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcIncast")
            .SetParent<MrcCollective>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcIncast>()
            .AddAttribute("VictimSize",
                          "Bytes of the victim flow between the last two ranks (0: no victim).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcIncast::m_victimSize),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

std::string
MrcIncast::GetName() const
{
    return "incast";
}

bool
MrcIncast::HasVictim() const
{
    return m_victimSize > 0;
}

uint32_t
MrcIncast::GetMinRanks() const
{
    return HasVictim() ? 4 : 2;
}

uint32_t
MrcIncast::GetSenderCount() const
{
    return GetRankCount() - 1 - (HasVictim() ? 2 : 0);
}

Time
MrcIncast::GetIdealTime() const
{
    // Senders at different distances (some in the target's rack): the receiver's links are busy
    // from the nearest one's latency on, and the farthest still needs its own transfer.
    uint32_t nearest = std::numeric_limits<uint32_t>::max();
    uint32_t farthest = 0;
    for (uint32_t s = 1; s <= GetSenderCount(); ++s)
    {
        nearest = std::min(nearest, GetLinks(s, 0));
        farthest = std::max(farthest, GetLinks(s, 0));
    }
    Time ideal = GetSenderCount() == 0
                     ? Time(0)
                     : GetLineRate().Incast(GetSenderCount(), m_size, nearest, farthest);
    if (HasVictim())
    {
        ideal = std::max(ideal, GetLineRate().Transfer(m_victimSize, GetMaxLinks()));
    }
    return ideal;
}

std::vector<std::pair<uint32_t, uint32_t>>
MrcIncast::GetPeerPairs() const
{
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t s = 1; s <= GetSenderCount(); ++s)
    {
        pairs.emplace_back(s, 0);
    }
    if (HasVictim())
    {
        pairs.emplace_back(GetRankCount() - 2, GetRankCount() - 1);
    }
    return pairs;
}

uint32_t
MrcIncast::GetTransferCount() const
{
    return GetSenderCount() + (HasVictim() ? 1 : 0);
}

void
MrcIncast::DoStart()
{
    for (uint32_t s = 1; s <= GetSenderCount(); ++s)
    {
        Post(s, 0, m_size, 0);
    }
    if (HasVictim())
    {
        Post(GetRankCount() - 2, GetRankCount() - 1, m_victimSize, 1);
    }
}

Time
MrcIncast::GetVictimTime() const
{
    for (const auto& t : GetTransfers())
    {
        if (t.tag == 1 && t.isDelivered)
        {
            return t.delivered - t.posted;
        }
    }
    return Time(0);
}

std::vector<Time>
MrcIncast::GetIncastTimes() const
{
    std::vector<Time> times;
    for (const auto& t : GetTransfers())
    {
        if (t.tag == 0 && t.isDelivered)
        {
            times.push_back(t.delivered - t.posted);
        }
    }
    return times;
}

std::vector<MrcCollective::PlannedTransfer>
MrcIncast::GetPlannedTransfers(uint32_t src, uint32_t dst) const
{
    if (dst == 0 && src >= 1 && src <= GetSenderCount())
    {
        return {{m_size, 0}};
    }
    if (HasVictim() && src == GetRankCount() - 2 && dst == GetRankCount() - 1)
    {
        return {{m_victimSize, 1}};
    }
    return {};
}

} // namespace ns3
