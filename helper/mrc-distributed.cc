/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-distributed.h"

#include "ns3/global-value.h"
#include "ns3/mrc-fabric-drop-monitor.h"
#include "ns3/mrc-link-monitor.h"
#include "ns3/mrc-rank-locality.h"
#include "ns3/mrc-tcp-bulk-workload.h"
#include "ns3/mrc-transfer-monitor.h"
#include "ns3/string.h"

#include <limits>
#include <stdexcept>
#include <string>

#ifdef NS3_MPI
#    include "ns3/mpi-interface.h"

#    include <mpi.h>
#endif

namespace ns3
{

#ifdef NS3_MPI
namespace
{

/**
 * Element-wise reduction over the ranks, the result in rank 0's values (nothing when MPI is
 * not enabled or there is nothing to reduce).
 * \param values this rank's values
 * \param type their MPI type
 * \param op the reduction
 */
template<typename T>
void
ReduceToRoot(std::vector<T>& values, MPI_Datatype type, MPI_Op op)
{
    if (!MpiInterface::IsEnabled() || values.empty())
    {
        return;
    }
    std::vector<T> out(values.size());
    MPI_Reduce(values.data(),
               out.data(),
               static_cast<int>(values.size()),
               type,
               op,
               0,
               MpiInterface::GetCommunicator());
    if (MpiInterface::GetSystemId() == 0)
    {
        values = out;
    }
}

} // namespace
#endif

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
    return MrcRankLocality::IsDistributed();
}

uint32_t
MrcDistributed::GetRank()
{
    return MrcRankLocality::GetRank();
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
    return MrcRankLocality::IsLocal(node);
}

NodeContainer
MrcDistributed::Select(const NodeContainer& nodes, bool local)
{
    NodeContainer some;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        if (IsLocal(*it) == local)
        {
            some.Add(*it);
        }
    }
    return some;
}

void
MrcDistributed::SumToRoot(std::vector<uint64_t>& values)
{
#ifdef NS3_MPI
    ReduceToRoot(values, MPI_UINT64_T, MPI_SUM);
#endif
}

void
MrcDistributed::SumToRoot(std::vector<double>& values)
{
#ifdef NS3_MPI
    ReduceToRoot(values, MPI_DOUBLE, MPI_SUM);
#endif
}

uint64_t
MrcDistributed::MinOverRanks(uint64_t value)
{
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled())
    {
        uint64_t out = value;
        MPI_Allreduce(&value, &out, 1, MPI_UINT64_T, MPI_MIN, MpiInterface::GetCommunicator());
        return out;
    }
#endif
    return value;
}

void
MrcDistributed::MaxToRoot(std::vector<int64_t>& values)
{
#ifdef NS3_MPI
    ReduceToRoot(values, MPI_INT64_T, MPI_MAX);
#endif
}

namespace
{
/**
 * Combine every rank's run record of an object that every rank built (an MrcCollective or an
 * MrcTrainingJob) by element-wise maximum, and give the whole to rank 0's copy.
 * \param object the object (GetRunRecord, MergeRunRecords)
 */
template<typename T>
void
GatherRunRecords(T& object)
{
    if (!MrcDistributed::IsEnabled())
    {
        return;
    }
    std::vector<int64_t> record = object.GetRunRecord();
    MrcDistributed::MaxToRoot(record);
    if (MrcDistributed::GetRank() == 0)
    {
        object.MergeRunRecords(record);
    }
}
} // namespace

void
MrcDistributed::GatherCollective(Ptr<MrcCollective> collective)
{
    GatherRunRecords(*collective);
}

void
MrcDistributed::GatherJob(Ptr<MrcTrainingJob> job)
{
    GatherRunRecords(*job);
}

std::vector<std::string>
MrcDistributed::GatherToRoot(const std::string& bytes)
{
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled())
    {
        const MPI_Comm comm = MpiInterface::GetCommunicator();
        const bool root = MpiInterface::GetSystemId() == 0;
        const uint32_t ranks = MpiInterface::GetSize();
        // Every rank learns the total first, so that all of them refuse it together (a rank
        // leaving a collective alone would leave the others waiting for ever).
        const uint64_t mine = bytes.size();
        uint64_t total = 0;
        MPI_Allreduce(&mine, &total, 1, MPI_UINT64_T, MPI_SUM, comm);
        if (total > uint64_t(std::numeric_limits<int>::max()))
        {
            throw std::runtime_error("MrcDistributed::GatherToRoot: " + std::to_string(total)
                                     + " bytes from the ranks in all (accepted: up to 2^31 - 1)");
        }
        int size = static_cast<int>(mine);
        std::vector<int> sizes(root ? ranks : 0);
        MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, comm);
        std::vector<int> offsets(sizes.size(), 0);
        for (size_t r = 1; r < sizes.size(); ++r)
        {
            offsets[r] = offsets[r - 1] + sizes[r - 1];
        }
        std::string all(root ? total : 0, '\0');
        MPI_Gatherv(bytes.data(),
                    size,
                    MPI_CHAR,
                    all.data(),
                    sizes.data(),
                    offsets.data(),
                    MPI_CHAR,
                    0,
                    comm);
        std::vector<std::string> out;
        for (size_t r = 0; r < sizes.size(); ++r)
        {
            out.push_back(all.substr(offsets[r], sizes[r]));
        }
        return out;
    }
#endif
    return {bytes};
}

void
MrcDistributed::GatherTransferMonitor(Ptr<MrcTransferMonitor> monitor)
{
    if (!IsEnabled())
    {
        return;
    }
    std::vector<uint64_t> counters = monitor->GetCounters();
    SumToRoot(counters);
    const std::vector<std::string> logs = GatherToRoot(monitor->GetEventLog().Serialize());
    if (GetRank() == 0)
    {
        MrcTransferEventLog all;
        for (const std::string& bytes : logs)
        {
            all.Append(MrcTransferEventLog::Deserialize(bytes));
        }
        monitor->Replay(std::move(all));
        monitor->SetCounters(std::move(counters));
    }
}

void
MrcDistributed::GatherLinkMonitor(Ptr<MrcLinkMonitor> monitor)
{
    if (!IsEnabled())
    {
        return;
    }
    // The ranks may have closed different numbers of intervals by the stop (an interval's end
    // and the stop at the same instant run in either order): keep those every rank closed.
    const auto intervals = static_cast<uint32_t>(MinOverRanks(monitor->GetIntervalCount()));
    std::vector<uint64_t> counts = monitor->ExportCounts(intervals);
    std::vector<double> utilisation = monitor->ExportUtilisation(intervals);
    SumToRoot(counts);
    SumToRoot(utilisation);
    if (GetRank() == 0)
    {
        monitor->ImportSamples(intervals, counts, utilisation);
    }
}

void
MrcDistributed::GatherDropMonitor(Ptr<MrcFabricDropMonitor> monitor)
{
    if (!IsEnabled())
    {
        return;
    }
    const std::vector<std::string> exports = GatherToRoot(monitor->ExportRows());
    if (GetRank() == 0)
    {
        monitor->ImportRows(exports);
    }
}

void
MrcDistributed::GatherTcpWorkload(Ptr<MrcTcpBulkWorkload> workload)
{
    if (!IsEnabled())
    {
        return;
    }
    std::vector<uint64_t> received;
    std::vector<int64_t> finish;
    for (const MrcTcpBulkWorkload::Flow& f : workload->GetFlows())
    {
        received.push_back(f.received); // 0 where the receiver is another rank's
        finish.push_back(f.IsComplete() ? f.finish.GetTimeStep() : -1);
    }
    SumToRoot(received);
    MaxToRoot(finish);
    if (GetRank() == 0)
    {
        workload->MergeFlows(received, finish);
    }
}

} // namespace ns3
