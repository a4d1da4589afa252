/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-all-gather.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcAllGather);

TypeId
MrcAllGather::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcAllGather")
                            .SetParent<MrcRingCollective>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcAllGather>();
    return tid;
}

std::string
MrcAllGather::GetName() const
{
    return "all-gather";
}

uint32_t
MrcAllGather::GetStepCount() const
{
    return GetRankCount() < 2 ? 0 : GetRankCount() - 1;
}

} // namespace ns3
