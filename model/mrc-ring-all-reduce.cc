/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ring-all-reduce.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcRingAllReduce);

TypeId
MrcRingAllReduce::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcRingAllReduce")
                            .SetParent<MrcRingCollective>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcRingAllReduce>();
    return tid;
}

std::string
MrcRingAllReduce::GetName() const
{
    return "ring-all-reduce";
}

uint32_t
MrcRingAllReduce::GetStepCount() const
{
    return GetRankCount() < 2 ? 0 : 2 * (GetRankCount() - 1);
}

} // namespace ns3
