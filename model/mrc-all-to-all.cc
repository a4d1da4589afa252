/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-all-to-all.h"

#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcAllToAll);

TypeId
MrcAllToAll::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcAllToAll")
                            .SetParent<MrcCollective>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcAllToAll>()
                            .AddAttribute("Concurrency",
                                          "Writes a rank has outstanding at once (0: all n - 1).",
                                          UintegerValue(0),
                                          MakeUintegerAccessor(&MrcAllToAll::m_concurrency),
                                          MakeUintegerChecker<uint32_t>());
    return tid;
}

std::string
MrcAllToAll::GetName() const
{
    return "all-to-all";
}

Time
MrcAllToAll::GetIdealTime() const
{
    return GetLineRate().AllToAll(GetRankCount(), m_size, GetMaxLinks());
}

std::vector<std::pair<uint32_t, uint32_t>>
MrcAllToAll::GetPeerPairs() const
{
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t a = 0; a < GetRankCount(); ++a)
    {
        for (uint32_t b = 0; b < GetRankCount(); ++b)
        {
            if (a != b)
            {
                pairs.emplace_back(a, b);
            }
        }
    }
    return pairs;
}

uint32_t
MrcAllToAll::GetTransferCount() const
{
    return GetRankCount() * (GetRankCount() - 1);
}

void
MrcAllToAll::DoStart()
{
    const uint32_t n = GetRankCount();
    m_next.assign(n, 1);
    const uint32_t first = (m_concurrency == 0) ? n - 1 : std::min(m_concurrency, n - 1);
    for (uint32_t i = 0; i < first; ++i)
    {
        for (uint32_t r = 0; r < n; ++r)
        {
            PostNext(r);
        }
    }
}

void
MrcAllToAll::PostNext(uint32_t rank)
{
    const uint32_t n = GetRankCount();
    if (m_next[rank] >= n)
    {
        return;
    }
    const uint32_t dst = (rank + m_next[rank]) % n;
    m_next[rank]++;
    Post(rank, dst, MrcLineRateModel::Chunks(m_size, n)[dst], 0);
}

void
MrcAllToAll::OnSendComplete(uint32_t index)
{
    if (m_concurrency != 0)
    {
        PostNext(GetTransfers()[index].src);
    }
}

std::vector<MrcCollective::PlannedTransfer>
MrcAllToAll::GetPlannedTransfers(uint32_t src, uint32_t dst) const
{
    if (src == dst || src >= GetRankCount() || dst >= GetRankCount())
    {
        return {};
    }
    return {{MrcLineRateModel::Chunks(m_size, GetRankCount())[dst], 0}};
}

} // namespace ns3
