/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_DISTRIBUTED_H
#define MRC_DISTRIBUTED_H

#include "ns3/mrc-collective.h"
#include "ns3/mrc-fabric-drop-monitor.h"
#include "ns3/mrc-link-monitor.h"
#include "ns3/mrc-tcp-bulk-workload.h"
#include "ns3/mrc-training-job.h"
#include "ns3/mrc-transfer-monitor.h"
#include "ns3/node-container.h"
#include "ns3/node.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief A distributed run on ns-3's MPI engine, as the module's programs use it, in one place:
 * the same calls compile with and without MPI.
 *
 * ns-3 compiles its mpi module only when configured with --enable-mpi (Debian's libns3 has
 * none); the module then sees NS3_MPI. Without it IsAvailable() is false, Enable() throws, and
 * the other functions describe a run of one rank (GetRank 0, every node local, reductions
 * leave their values as they are), so a program needs no #ifdef.
 *
 * A distributed run: every rank builds the same fabric (MrcClosTopologyHelper::SetRanks with
 * GetRanks()) and the same transport objects; each simulates only its nodes (system id ==
 * GetRank()); only local nodes may start traffic (IsLocal); the results a rank holds are those
 * of its nodes, combined with SumToRoot / MaxToRoot, and printed by rank 0.
 */
class MrcDistributed
{
  public:
    /// \return true if this ns-3 has its MPI engine (built with --enable-mpi)
    static bool IsAvailable();

    /**
     * Use ns-3's distributed simulator (ns3::DistributedSimulatorImpl, conservative
     * granted-time windows) and enable MpiInterface. Call it first in main(), before any
     * simulator call, in a program started by mpiexec.
     * \param argc main's argc \param argv main's argv (MPI may consume arguments)
     * \throws std::runtime_error if IsAvailable() is false
     */
    static void Enable(int* argc, char*** argv);

    /// End the MPI run (after the last Simulator::Destroy); nothing without Enable()
    static void Disable();

    /// \return true between Enable() and Disable()
    static bool IsEnabled();

    /// \return this process's rank (0 when not enabled)
    static uint32_t GetRank();

    /// \return the number of ranks (1 when not enabled)
    static uint32_t GetRanks();

    /// \param node a node \return true if this rank simulates it
    static bool IsLocal(Ptr<const Node> node);

    /**
     * \param nodes some nodes
     * \param local true: those this rank simulates; false: the others (copies)
     * \return them, in order
     */
    static NodeContainer Select(const NodeContainer& nodes, bool local = true);

    /**
     * Element-wise sum over the ranks, the result at rank 0 (the other ranks' values are
     * unspecified afterwards). Every rank must call it with vectors of the same size.
     * \param values this rank's values; rank 0's become the sums
     */
    static void SumToRoot(std::vector<uint64_t>& values);

    /**
     * SumToRoot for doubles. A value that only one rank holds (the others hold 0) reaches
     * rank 0 exactly.
     * \param values this rank's values; rank 0's become the sums
     */
    static void SumToRoot(std::vector<double>& values);

    /**
     * \param value this rank's value
     * \return the least value of any rank, at every rank (MPI_Allreduce); every rank must call
     *         it. Not enabled: value.
     */
    static uint64_t MinOverRanks(uint64_t value);

    /**
     * Element-wise maximum over the ranks, the result at rank 0, as SumToRoot.
     * \param values this rank's values; rank 0's become the maxima
     */
    static void MaxToRoot(std::vector<int64_t>& values);

    /**
     * Give rank 0 the whole run of a collective that every rank built and ran (each saw its
     * own hosts' part): after Simulator::Run, every rank calls it; rank 0's collective then
     * reports every transfer, the duration and any failure (MrcCollective::MergeRunRecords).
     * Nothing happens when not enabled: one process already holds the whole run.
     * \param collective the collective (the same one on every rank)
     */
    static void GatherCollective(Ptr<MrcCollective> collective);

    /**
     * Give rank 0 every step's transfers of a training job that every rank built and ran
     * (MrcTrainingJob::GetRunRecord, MergeRunRecords): after Simulator::Run, every rank calls
     * it. The steps themselves (start, end, failure) are already the same on every rank.
     * Nothing happens when not enabled.
     * \param job the job (the same one on every rank)
     */
    static void GatherJob(Ptr<MrcTrainingJob> job);

    /**
     * Every rank's bytes, at rank 0 (MPI_Gatherv); every rank must call it.
     * \param bytes this rank's bytes (up to 2^31 - 1 bytes over all the ranks)
     * \return at rank 0 every rank's bytes, by rank; at the others nothing; not enabled: bytes
     * \throws std::runtime_error on every rank at once if the ranks' bytes together exceed
     *         what one MPI_Gatherv can carry
     */
    static std::vector<std::string> GatherToRoot(const std::string& bytes);

    /**
     * Give rank 0's copy of a transfer monitor what one process would have computed: each rank
     * saw only its hosts' ends of the flows (the senders' posts on one rank, the receivers'
     * placements on another), so every rank's event log is replayed at rank 0 in time order
     * and the queue pairs' counters are summed. The monitor (the same flows on every rank)
     * must have been recording (MrcTransferMonitor::SetRecording) through the run. Every rank
     * calls it after Simulator::Run; nothing happens when not enabled.
     * \param monitor the monitor
     */
    static void GatherTransferMonitor(Ptr<MrcTransferMonitor> monitor);

    /**
     * Give rank 0's copy of a link monitor every rank's samples: a direction's bytes, busy
     * time and queue are seen on the rank of the node that transmits on it, zero elsewhere,
     * so the samples are summed. The intervals every rank closed are kept. Every rank calls
     * it after Simulator::Run; nothing happens when not enabled.
     * \param monitor the monitor (installed on the same fabric on every rank)
     */
    static void GatherLinkMonitor(Ptr<MrcLinkMonitor> monitor);

    /**
     * Give rank 0's copy of a drop monitor every rank's rows (each rank counts at its own
     * nodes; MrcFabricDropMonitor::ExportRows, ImportRows). Every rank calls it after
     * Simulator::Run; nothing happens when not enabled.
     * \param monitor the monitor (installed on the same fabric on every rank)
     */
    static void GatherDropMonitor(Ptr<MrcFabricDropMonitor> monitor);

    /**
     * Give rank 0's copy of a TCP workload every flow's bytes received and finish time (each
     * rank sees the flows whose receiver it simulates; MrcTcpBulkWorkload::MergeFlows). Every
     * rank calls it after Simulator::Run; nothing happens when not enabled.
     * \param workload the workload (the same flows on every rank)
     */
    static void GatherTcpWorkload(Ptr<MrcTcpBulkWorkload> workload);
};

} // namespace ns3

#endif /* MRC_DISTRIBUTED_H */
