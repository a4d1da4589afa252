/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-rank-locality.h"

#ifdef NS3_MPI
#    include "ns3/mpi-interface.h"
#endif

namespace ns3
{

bool
MrcRankLocality::IsDistributed()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled();
#else
    return false;
#endif
}

uint32_t
MrcRankLocality::GetRank()
{
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled())
    {
        return MpiInterface::GetSystemId();
    }
#endif
    return 0;
}

bool
MrcRankLocality::IsLocal(Ptr<const Node> node)
{
    return !IsDistributed() || node->GetSystemId() == GetRank();
}

} // namespace ns3
