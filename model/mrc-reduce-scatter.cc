/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-reduce-scatter.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcReduceScatter);

TypeId
MrcReduceScatter::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcReduceScatter")
                            .SetParent<MrcRingCollective>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcReduceScatter>();
    return tid;
}

std::string
MrcReduceScatter::GetName() const
{
    return "reduce-scatter";
}

uint32_t
MrcReduceScatter::GetStepCount() const
{
    return GetRankCount() < 2 ? 0 : GetRankCount() - 1;
}

} // namespace ns3
