/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-distributed.h"

#include "ns3/global-value.h"
#include "ns3/string.h"

#include <stdexcept>

#ifdef NS3_MPI
#    include "ns3/mpi-interface.h"

#    include <mpi.h>
#endif

namespace ns3
{

bool
MrcDistributed::IsAvailable()
{
#ifdef NS3_MPI
    return true;
#else
    return false;
#endif
}

void
MrcDistributed::Enable(int* argc, char*** argv)
{
#ifdef NS3_MPI
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DistributedSimulatorImpl"));
    MpiInterface::Enable(argc, argv);
#else
    throw std::runtime_error("this ns-3 has no MPI engine (configure ns-3 with --enable-mpi and "
                             "build the module in its contrib/; Debian's libns3 has none)");
#endif
}

void
MrcDistributed::Disable()
{
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled())
    {
        MpiInterface::Disable();
    }
#endif
}

bool
MrcDistributed::IsEnabled()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled();
#else
    return false;
#endif
}

uint32_t
MrcDistributed::GetRank()
{
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled())
    {
        return MpiInterface::GetSystemId();
    }
#endif
    return 0;
}

uint32_t
MrcDistributed::GetRanks()
{
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled())
    {
        return MpiInterface::GetSize();
    }
#endif
    return 1;
}

bool
MrcDistributed::IsLocal(Ptr<const Node> node)
{
    return !IsEnabled() || node->GetSystemId() == GetRank();
}

void
MrcDistributed::SumToRoot(std::vector<uint64_t>& values)
{
#ifdef NS3_MPI
    if (IsEnabled() && !values.empty())
    {
        std::vector<uint64_t> out(values.size());
        MPI_Reduce(values.data(),
                   out.data(),
                   static_cast<int>(values.size()),
                   MPI_UINT64_T,
                   MPI_SUM,
                   0,
                   MpiInterface::GetCommunicator());
        if (GetRank() == 0)
        {
            values = out;
        }
    }
#endif
}

void
MrcDistributed::MaxToRoot(std::vector<int64_t>& values)
{
#ifdef NS3_MPI
    if (IsEnabled() && !values.empty())
    {
        std::vector<int64_t> out(values.size());
        MPI_Reduce(values.data(),
                   out.data(),
                   static_cast<int>(values.size()),
                   MPI_INT64_T,
                   MPI_MAX,
                   0,
                   MpiInterface::GetCommunicator());
        if (GetRank() == 0)
        {
            values = out;
        }
    }
#endif
}

} // namespace ns3
