/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TCP_BULK_WORKLOAD_H
#define MRC_TCP_BULK_WORKLOAD_H

#include "mrc-completion-stats.h"
#include "mrc-fabric-topology.h"
#include "mrc-rank-barrier.h"

#include "ns3/address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ns3
{

class Packet;

/**
 * \ingroup mrc
 * \brief Bulk transfers over ns-3's own TCP on a fabric: each flow is a BulkSendApplication
 * (MaxBytes) on the source host writing to a PacketSink on the destination host's address in
 * one plane, on a port of its own, and records when its last byte arrived.
 *
 * It is an independent workload: it runs next to (and competes with) an MRC or RoCEv2 training
 * job, e.g. storage or checkpoint traffic, or alone as the TCP baseline of a transfer
 * experiment. The TCP variant, segment size, buffers and timers are ns-3's TcpSocket /
 * TcpSocketBase / TcpL4Protocol defaults (Config::SetDefault); MrcClusterScenario sets the
 * segment size and minimum RTO for its run. On trimming switches TCP segments (DSCP 0) are
 * dropped, not trimmed (MrcTrimmingQueueDisc::TrimmableDscps).
 *
 * \code
 *   Ptr<MrcTcpBulkWorkload> tcp = CreateObject<MrcTcpBulkWorkload>();
 *   tcp->AddFlow(0, 5, 10000000, MicroSeconds(100));
 *   tcp->Install(topo);
 *   Simulator::Run();
 *   Time fct = tcp->GetFlows()[0].GetCompletionTime();
 * \endcode
 */
class MrcTcpBulkWorkload : public Object
{
  public:
    /// One TCP flow.
    struct Flow
    {
        uint32_t src{0};       //!< source host
        uint32_t dst{0};       //!< destination host
        uint32_t plane{0};     //!< plane (the destination address used)
        uint64_t bytes{0};     //!< bytes to send
        Time start;            //!< start time (absolute)
        uint16_t port{0};      //!< destination port (set by Install)
        uint64_t received{0};  //!< bytes received so far
        Time finish{Time(-1)}; //!< time the last byte arrived (negative: not complete)

        /// \return true if every byte arrived
        bool IsComplete() const;
        /// \return finish - start (negative if not complete)
        Time GetCompletionTime() const;
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcTcpBulkWorkload();
    ~MrcTcpBulkWorkload() override;

    /**
     * Add a flow.
     * \param src source host
     * \param dst destination host (!= src)
     * \param bytes bytes to send, > 0
     * \param start start time (absolute, >= 0)
     * \param plane the plane (none: flow index modulo the planes, so flows spread over them)
     * \throws std::invalid_argument naming the field if bytes, start or src == dst is invalid
     *         (hosts and planes are checked against the fabric by Install)
     */
    void AddFlow(uint32_t src,
                 uint32_t dst,
                 uint64_t bytes,
                 Time start,
                 std::optional<uint32_t> plane = std::nullopt);

    /**
     * Install the sinks and senders.
     * \param topo the fabric (routing installed)
     * \throws std::invalid_argument naming the flow and field if a host or plane is out of range
     *         or too many flows for the port range
     * \throws std::logic_error if called twice
     */
    void Install(Ptr<MrcFabricTopology> topo);

    /// \return the flows, in the order added
    const std::vector<Flow>& GetFlows() const;
    /// \return the number of flows complete
    uint32_t GetCompletedCount() const;
    /// \return true if every flow is complete (true with no flows; on MPI ranks, once the
    ///         ranks have agreed that every flow is complete)
    bool IsDone() const;
    /// \return completion times of the complete flows
    MrcCompletionStats GetCompletionStats() const;
    /**
     * \param flows flows (e.g. a copy kept after the run)
     * \return completion times of the complete ones
     */
    static MrcCompletionStats GetCompletionStats(const std::vector<Flow>& flows);

    /// \param cb called once, when the last flow completes (on MPI ranks: on every rank, one
    ///        lookahead after it, when the ranks' MrcRankBarrier has agreed on it)
    void SetDoneCallback(Callback<void> cb);

    /**
     * On MPI ranks each rank sees the flows whose receiver it simulates: rank 0 takes every
     * rank's view (MrcDistributed::GatherTcpWorkload), and GetFlows, GetCompletedCount and
     * GetCompletionStats then cover every flow.
     * \param received bytes received per flow, summed over the ranks
     * \param finish per flow, the latest of the ranks' finish times in time steps (-1: none)
     * \throws std::invalid_argument unless both have one value per flow
     */
    void MergeFlows(const std::vector<uint64_t>& received, const std::vector<int64_t>& finish);

    /**
     * TracedCallback signature of FlowComplete.
     * \param index the flow's index
     * \param fct its completion time
     */
    typedef void (*FlowTracedCallback)(uint32_t index, Time fct);

  protected:
    void DoDispose() override;

  private:
    /**
     * PacketSink Rx trace.
     * \param index the flow
     * \param packet the packet
     * \param from its sender
     */
    void OnRx(uint32_t index, Ptr<const Packet> packet, const Address& from);
    /**
     * The ranks agreed that every flow is complete (MPI runs).
     * \param key the barrier's key (0)
     * \param end when the last flow completed
     * \param failed unused (TCP flows do not fail)
     */
    void OnOutcome(uint64_t key, Time end, bool failed);

    uint16_t m_basePort{20000};                    //!< BasePort
    uint32_t m_sendSize{65536};                    //!< SendSize
    std::vector<Flow> m_flows;                     //!< the flows
    uint32_t m_completed{0};                       //!< flows complete
    bool m_installed{false};                       //!< Install called
    Callback<void> m_done;                         //!< SetDoneCallback
    TracedCallback<uint32_t, Time> m_flowComplete; //!< FlowComplete
    uint32_t m_localFlows{0};                      //!< flows received on this rank
    Ptr<MrcRankBarrier> m_barrier;                 //!< MPI runs: agreement on the end
    bool m_allDone{false};                         //!< MPI runs: every rank's flows complete
};

} // namespace ns3

#endif /* MRC_TCP_BULK_WORKLOAD_H */
