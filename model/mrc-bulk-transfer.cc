/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-bulk-transfer.h"

#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcBulkTransfer);

TypeId
MrcBulkTransfer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcBulkTransfer")
                            .SetParent<MrcCollective>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcBulkTransfer>()
                            .AddAttribute("Messages",
                                          "WRITEs the S bytes are cut into (1..65536).",
                                          UintegerValue(1),
                                          MakeUintegerAccessor(&MrcBulkTransfer::m_messages),
                                          MakeUintegerChecker<uint32_t>(1, 65536));
    return tid;
}

std::string
MrcBulkTransfer::GetName() const
{
    return "bulk";
}

Time
MrcBulkTransfer::GetIdealTime() const
{
    return GetLineRate().Transfer(m_size, GetMaxLinks());
}

void
MrcBulkTransfer::DoSetup()
{
    if (GetRankCount() != 2)
    {
        throw std::invalid_argument("bulk: hosts must hold exactly 2 ranks, got "
                                    + std::to_string(GetRankCount()));
    }
}

std::vector<std::pair<uint32_t, uint32_t>>
MrcBulkTransfer::GetPeerPairs() const
{
    return {{0, 1}};
}

uint32_t
MrcBulkTransfer::GetTransferCount() const
{
    return m_messages;
}

void
MrcBulkTransfer::DoStart()
{
    for (uint64_t bytes : MrcLineRateModel::Chunks(m_size, m_messages))
    {
        Post(0, 1, bytes, 0);
    }
}

std::vector<MrcCollective::PlannedTransfer>
MrcBulkTransfer::GetPlannedTransfers(uint32_t src, uint32_t dst) const
{
    std::vector<PlannedTransfer> plan;
    if (src == 0 && dst == 1)
    {
        for (uint64_t bytes : MrcLineRateModel::Chunks(m_size, m_messages))
        {
            plan.push_back({bytes, 0});
        }
    }
    return plan;
}

} // namespace ns3
