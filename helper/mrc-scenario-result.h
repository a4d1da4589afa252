/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SCENARIO_RESULT_H
#define MRC_SCENARIO_RESULT_H

#include "ns3/mrc-completion-stats.h"
#include "ns3/mrc-pfc-port-stats.h"
#include "ns3/mrc-tcp-bulk-workload.h"
#include "ns3/mrc-training-job.h"
#include "ns3/mrc-transfer-monitor.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * Where a training step lies relative to the failure window of a scenario.
 */
enum class MrcScenarioPhase : uint8_t
{
    BEFORE, //!< ended before the first failure event
    DURING, //!< overlaps [first failure event, last repair]
    AFTER,  //!< started after the last repair
};

/**
 * \ingroup mrc
 * \brief What one run of an MrcClusterScenario measured, as plain values (it outlives the
 * simulator): the training steps with their phase, totals over the queue pairs, the failure
 * window and the routing reconvergence.
 *
 * The phase of a step: BEFORE if it ended at or before the first failure event, AFTER if it
 * started at or after the last one (the last repair), DURING otherwise. With no failure every
 * step is BEFORE.
 */
struct MrcScenarioResult
{
    /// One training step.
    struct Step
    {
        std::string job{"main"};                          //!< its job ("main": the scenario's)
        uint32_t index{0};                                //!< step number
        Time start;                                       //!< compute gap begins
        Time end;                                         //!< last transfer delivered (P100)
        Time ideal;                                       //!< compute gap + line-rate ideal
        bool failed{false};                               //!< a queue pair failed in the step
        MrcScenarioPhase phase{MrcScenarioPhase::BEFORE}; //!< relative to the failures
        uint32_t transfers{0};                            //!< transfers completed
        Time transferMin;                                 //!< their fastest completion time
        Time transferP50;                                 //!< P50
        Time transferP99;                                 //!< P99
        Time transferMax;                                 //!< P100
        std::vector<MrcTrainingJob::CommRecord> comms;    //!< every communication of the step

        /// \return end - start
        Time GetDuration() const;
    };

    std::string key;  //!< short name for files: "mrc", "roce", "roce-x4"
    std::string name; //!< display name: "MRC/SRv6", "RoCEv2/ECMP+BGP x4 QPs"
    uint32_t seed{1}; //!< the Seed attribute (RNG seed, ECMP hash seed)
    uint64_t run{1};  //!< ns-3's run number (--RngRun): the replication

    /// One job of the run.
    struct Job
    {
        std::string name;       //!< "main", or the name given to AddCollective / SetJob
        uint32_t iterations{0}; //!< steps asked for
        bool done{false};       //!< every step completed
        bool failed{false};     //!< a step failed
        /// MPI ranks: collective runs that started after they were due (a program's comm due
        /// the instant another ended, learnt a lookahead later); zero in one process
        MrcTrainingJob::Lateness lateness;
    };

    std::vector<Step> steps; //!< completed steps of every job, job by job, in order
    std::vector<Job> jobs;   //!< the jobs, the main job first
    uint32_t iterations{0};  //!< steps asked for (the main job)
    bool jobDone{false};     //!< every step of every job completed
    bool jobFailed{false};   //!< a step of a job failed (a queue pair reported a fatal error)
    Time end;                //!< simulation time at the end of the run

    Time failureStart{-1}; //!< first failure event (negative: none)
    Time failureEnd{-1};   //!< last failure event, normally the last repair

    uint64_t bytesPosted{0};        //!< payload bytes posted by all senders
    uint64_t bytesDelivered{0};     //!< payload bytes placed (first copies)
    uint64_t bytesRetransmitted{0}; //!< payload bytes retransmitted
    uint64_t retransmissions{0};    //!< packets retransmitted
    uint64_t rtxTrimmed{0};         //!< ... after a trim NACK
    uint64_t rtxTimeout{0};         //!< ... after the loss timer
    uint64_t rewinds{0};            //!< go-back-N rewinds (NACK or timeout)
    uint64_t trimmedReceived{0};    //!< trimmed headers that reached receivers
    uint64_t evRetirements{0};      //!< EVs retired by silent losses
    Time longestStall{0};           //!< longest stall of any flow
    std::string longestStallFlow;   //!< which
    Time stalledTime{0};            //!< sum over flows of stalls above the threshold
    uint32_t flows{0};              //!< flows (queue-pair groups) watched
    uint32_t failedFlows{0};        //!< of which a queue pair failed
    uint32_t corruptTransfers{0};   //!< VerifyData mismatches (must stay 0)

    uint64_t faultDrops{0};     //!< packets lost to the injected failures
    uint64_t queueDrops{0};     //!< packets dropped by switch and NIC queue discs
    uint64_t trims{0};          //!< packets trimmed by the switches
    uint64_t linkTraversals{0}; //!< packets handed to NetDevices (packet-hops)
    uint64_t ecnMarks{0};       //!< packets CE-marked by the queue discs
    uint64_t routingDrops{0};   //!< packets the fabric routing had no route for
    double uplinkBalance{0};    //!< T0->T1 bytes: busiest link / mean (1 = even; MrcLinkMonitor)
    Time routingConverged{-1};  //!< BGP's last FIB change (zero or negative: none)
    uint64_t events{0};         //!< simulator events executed

    std::vector<MrcTcpBulkWorkload::Flow> tcpFlows; //!< the TCP workload's flows (none: no TCP)
    std::vector<MrcPfcPortStats::Row> pfcPorts;     //!< PFC counters per port (none: no PFC)

    /// \return completion times of the complete TCP flows
    MrcCompletionStats GetTcpStats() const;

    /**
     * \param phase a phase
     * \return the durations of the main job's steps in that phase
     */
    MrcCompletionStats GetStepStats(MrcScenarioPhase phase) const;

    /// \return the durations of every step of the main job
    MrcCompletionStats GetStepStats() const;

    /**
     * \param job a job's name
     * \param phase a phase (none: every step)
     * \return the durations of that job's steps (in that phase)
     */
    MrcCompletionStats GetJobStepStats(const std::string& job,
                                       std::optional<MrcScenarioPhase> phase = std::nullopt) const;

    /**
     * \param phase a phase
     * \return its name: "before", "during", "after"
     */
    static std::string GetPhaseName(MrcScenarioPhase phase);

    /**
     * Add flows' counters to the totals (flows, bytes, retransmissions, stalls, ...; the
     * longest stall and its flow).
     * \param flows the MrcTransferMonitor's summaries
     */
    void AddFlows(const std::vector<MrcTransferMonitor::FlowSummary>& flows);

    /**
     * \param start a step's start
     * \param end its end
     * \return its phase relative to [failureStart, failureEnd]
     */
    MrcScenarioPhase Classify(Time start, Time end) const;
};

} // namespace ns3

#endif /* MRC_SCENARIO_RESULT_H */
