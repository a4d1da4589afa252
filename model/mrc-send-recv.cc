/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-send-recv.h"

#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcSendRecv);

TypeId
MrcSendRecv::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcSendRecv")
                            .SetParent<MrcCollective>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcSendRecv>();
    return tid;
}

std::string
MrcSendRecv::GetName() const
{
    return "send-recv";
}

Time
MrcSendRecv::GetIdealTime() const
{
    return GetLineRate().Transfer(m_size, GetMaxLinks());
}

void
MrcSendRecv::DoSetup()
{
    if (GetRankCount() % 2 != 0)
    {
        throw std::invalid_argument("MrcSendRecv: the ranks (=" + std::to_string(GetRankCount())
                                    + ") must be an even number: n senders, then their n "
                                      "receivers");
    }
}

std::vector<std::pair<uint32_t, uint32_t>>
MrcSendRecv::GetPeerPairs() const
{
    const uint32_t n = GetRankCount() / 2;
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t i = 0; i < n; ++i)
    {
        pairs.emplace_back(i, n + i);
    }
    return pairs;
}

uint32_t
MrcSendRecv::GetTransferCount() const
{
    return GetRankCount() / 2;
}

void
MrcSendRecv::DoStart()
{
    const uint32_t n = GetRankCount() / 2;
    for (uint32_t i = 0; i < n; ++i)
    {
        Post(i, n + i, m_size);
    }
}

std::vector<MrcCollective::PlannedTransfer>
MrcSendRecv::GetPlannedTransfers(uint32_t src, uint32_t dst) const
{
    const uint32_t n = GetRankCount() / 2;
    if (src < n && dst == n + src)
    {
        return {{m_size, 0}};
    }
    return {};
}

} // namespace ns3
