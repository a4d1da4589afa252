/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TRAINING_JOB_H
#define MRC_TRAINING_JOB_H

#include "mrc-collective.h"
#include "mrc-completion-stats.h"
#include "mrc-rank-barrier.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief A synchronous training job: Iterations steps, each a program of operations (compute,
 * then communication), ending when the last of its transfers has been delivered (P100).
 *
 * Two ways to say what a step does:
 *  - AddCollective (the simple job): a step is ComputeTime of computation (nothing on the
 *    network), then every collective added at once; it ends when the last of them has
 *    delivered its last transfer.
 *  - AddOperation (a program, e.g. the layers of an imported workload, MrcWorkloadHelper): a
 *    step runs the operations in order. Each computes for its Operation::compute, then issues
 *    its communications; a blocking operation lets the next one start only when they have all
 *    ended, a non-blocking one at once (the overlap of data-parallel gradient all-reduces with
 *    backward computation). Communications on the same stream (one communicator, as NCCL runs
 *    them) run one after another in issue order; different streams run concurrently. A
 *    communication is a collective on the fabric, run with the given MessageSize, or an
 *    analytic transfer of a fixed duration (a scale-up domain's NVLink, not simulated). The
 *    step ends when the last operation has been issued and every stream is idle.
 *
 * A program can have several lanes (Operation::lane; the stages of a pipeline-parallel job):
 * each lane runs its operations in program order as above, lanes run concurrently, and a
 * stream belongs to one lane. An operation can also wait for other operations, of any lane, to
 * have ended (Operation::after: every comm of theirs ended), as a pipeline stage waits to
 * receive a micro-batch's activations or gradients from its neighbour before computing on it.
 *
 * Per step the job records start, end, duration, the line-rate ideal (the same program with
 * every collective taking its line-rate ideal, MrcCollective::GetIdealTime), the completion
 * times of all its transfers, and each communication's issue, start and end. A collective that
 * fails (queue pair error) ends the step, marked failed, and the job (no later steps). Several
 * jobs can run at once on the same fabric; a collective belongs to one job. A collective's own
 * StartTime is not used (the job starts it); the job must outlive the simulation run (its
 * collectives call back into it).
 *
 * Distributed runs (ns-3's MPI engine): a job of AddCollective runs on several ranks, every
 * rank building the same job. Each rank sees its own hosts' part of a collective; an
 * MrcRankBarrier tells every rank, one lookahead after the fact, when the collective ended as
 * a whole (its last delivery on any rank) or failed. ComputeTime must be at least that
 * lookahead: the next step's collectives then start at the same simulated time as in one
 * process, and every rank records the same steps (start, end, failure). A step's
 * transferTimes hold the transfers delivered on this rank until MrcDistributed::GatherJob
 * gives rank 0 all of them. A program (AddOperation) runs on several ranks too, each of its
 * collective runs agreed on the same way: what follows an end by at least the lookahead
 * (computation, a hold, an analytic comm) happens when it would in one process, but a
 * collective due sooner after another's end (the next comm of its stream, or after too short
 * a computation) starts when the end is learnt, up to one lookahead late; GetLateness counts
 * those starts and their delay (zero in one process and for AddCollective jobs).
 */
class MrcTrainingJob : public Object
{
  public:
    /// One communication of an operation.
    struct Comm
    {
        std::string label;             //!< name in the records (e.g. "layer3/wg")
        Ptr<MrcCollective> collective; //!< on the fabric (nullptr: analytic, `duration`)
        std::optional<uint64_t> bytes; //!< its MessageSize for this run (none: as set)
        Time duration;                 //!< without a collective: how long it takes
        uint32_t stream{0};            //!< serialised with the stream's other comms
        Time hold;                     //!< after it ends, its stream and operation wait so long
    };

    /// One operation of a step's program.
    struct Operation
    {
        std::string label;       //!< name (e.g. "layer3/fwd")
        Time compute;            //!< computation before its comms are issued
        std::vector<Comm> comms; //!< communications issued after the computation
        bool blocking{true};     //!< the next operation waits for these comms to end
        uint32_t lane{0};        //!< its lane: a lane runs in order, lanes concurrently
        /// Operations (indices in the program, any lane) whose comms must all have ended
        /// before this one starts its computation (a pipeline stage's receive).
        std::vector<uint32_t> after;
    };

    /// What one communication of a step did.
    struct CommRecord
    {
        std::string label; //!< Comm::label
        std::string kind;  //!< the collective's name ("analytic" without one)
        uint64_t bytes{0}; //!< its size (0: analytic)
        uint32_t ranks{0}; //!< its ranks (0: analytic)
        Time issued;       //!< issued by its operation
        Time start;        //!< started (its stream free)
        Time end;          //!< ended (zero: not yet)
        Time ideal;        //!< its line-rate ideal (analytic: the duration)
    };

    /// What one step did.
    struct Step
    {
        Time start;                      //!< step start (compute begins)
        Time end;                        //!< last transfer delivered (or failure)
        Time ideal;                      //!< the program at line rate (see the class)
        bool failed{false};              //!< a collective failed
        std::vector<Time> transferTimes; //!< completion times of the step's transfers
        std::vector<CommRecord> comms;   //!< every communication, in issue order

        /// \return end - start
        Time GetDuration() const;
        /// \return order statistics of transferTimes
        MrcCompletionStats GetTransferStats() const;
    };

    /**
     * The end of a program run with given communication times: each lane's operations in
     * order, each starting when its lane is free and its `after` operations have ended,
     * computing, then issuing its comms, each comm starting when its stream is free; a
     * blocking operation holds its lane until its comms end. Streams must each be of one lane
     * (AddOperation checks it), so that a stream's comms are issued in program order.
     * \param ops the program
     * \param duration the time of a communication
     * \return when the last communication (or computation) ends, from the step's start
     * \throws std::invalid_argument if an `after` index is out of range or the operation's own
     * \throws std::logic_error if operations wait on each other (a cycle through `after`)
     */
    static Time ScheduleEnd(const std::vector<Operation>& ops,
                            const std::function<Time(const Comm&)>& duration);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcTrainingJob();
    ~MrcTrainingJob() override;

    /**
     * \param collective a collective (Setup done) to run in every step
     * \throws std::invalid_argument if it is null or already added
     */
    void AddCollective(Ptr<MrcCollective> collective);

    /**
     * \param op an operation to run, after those added before, in every step
     * \throws std::invalid_argument if a collective of it is already another stream's or
     *         another job's, a stream is another lane's, a size is 0, an analytic comm's
     *         duration is negative, or it waits for itself (`after`)
     */
    void AddOperation(const Operation& op);

    /**
     * Begin the job at StartTime (relative to now).
     * \throws std::logic_error without collectives or operations, with both, or if
     *         operations wait on each other (a cycle through `after`)
     * \throws std::invalid_argument if an `after` index is not an operation
     */
    void Start();

    /// \param cb called with this job after its last step (or a failed one)
    void SetDoneCallback(Callback<void, Ptr<MrcTrainingJob>> cb);

    /// \return the steps run so far (the last one may be in progress)
    const std::vector<Step>& GetSteps() const;
    /// \return true when the job has ended
    bool IsDone() const;
    /// \return true if a step failed
    bool HasFailed() const;
    /// \return the collectives (of AddCollective and of the operations)
    const std::vector<Ptr<MrcCollective>>& GetCollectives() const;
    /// \return the program of a step (one operation for AddCollective, once started)
    const std::vector<Operation>& GetOperations() const;

    /// Distributed runs: collective starts later than one process would make them.
    struct Lateness
    {
        uint64_t starts{0}; //!< how many collective runs started late
        Time total;         //!< their delays added up
        Time longest;       //!< the longest delay (at most the ranks' lookahead)
    };

    /// \return what started late so far (always zero in one process)
    Lateness GetLateness() const;

    /**
     * Distributed runs: what this rank saw of every step's transfers (each collective's
     * MrcCollective::GetRunRecord at its end, step after step), to be combined over the ranks
     * by element-wise maximum (MrcDistributed::GatherJob). Empty in one process.
     * \return the record
     */
    std::vector<int64_t> GetRunRecord() const;

    /**
     * Take every step's transfers from the element-wise maximum of every rank's GetRunRecord
     * (after the run): each step's transferTimes then hold the whole step's, as one process has
     * them; the collectives hold their last step's run (MrcCollective::MergeRunRecords).
     * \param merged the combined record
     * \throws std::invalid_argument if its size is not GetRunRecord's
     */
    void MergeRunRecords(const std::vector<int64_t>& merged);

    /**
     * TracedCallback signature of StepComplete.
     * \param step the step's index
     * \param duration its duration
     * \param ideal its line-rate ideal
     */
    typedef void (*StepTracedCallback)(uint32_t step, Time duration, Time ideal);

  protected:
    void DoDispose() override;

  private:
    /// Start a step: the first operation of every lane.
    void BeginStep();
    /// Start the next operation (its computation) of every lane that is free and whose next
    /// operation's `after` operations have ended.
    void RunLanes();
    /// \param op an operation whose computation is over: issue its comms \param at when it
    /// was due (now in one process; on ranks it may have been learnt late)
    void IssueComms(uint32_t op, Time at);
    /// \param op an operation: its lane moves on to the next one \param at when it was free
    void ReleaseLane(uint32_t op, Time at);
    /// \param stream start its next comm if it is idle and has one \param at when it was due
    void StartNext(uint32_t stream, Time at);
    /// \param stream its running comm ended \param end when (with its hold)
    void OnCommDone(uint32_t stream, Time end);
    /**
     * A collective starts now: count it in m_lateness if it was due earlier.
     * \param rec its record \param at when it was due
     */
    void NoteLateStart(const CommRecord& rec, Time at);
    /// \param collective a collective whose run ended
    void OnCollectiveDone(Ptr<MrcCollective> collective);
    /**
     * A collective of the running step ended, or failed (one process: now; distributed: when
     * the ranks' shares say, learnt m_barrier's delay later).
     * \param collective the collective \param end when \param failed how
     */
    void EndCollective(Ptr<MrcCollective> collective, Time end, bool failed);
    /**
     * Distributed runs: this rank's share of a collective's run ended or failed (post it).
     * \param collective the collective \param failed how
     */
    void OnRankShare(Ptr<MrcCollective> collective, bool failed);
    /**
     * Distributed runs: the ranks agree on how a collective's run ended.
     * \param key its step and record (its place among the step's comms) \param end when
     * \param failed how
     */
    void OnBarrierOutcome(uint64_t key, Time end, bool failed);
    /**
     * Distributed runs: join the ranks (Start).
     * \param program true if the job is a program (AddOperation)
     * \throws std::invalid_argument if ComputeTime is shorter than the ranks' lookahead (not
     *         for a program, whose late starts GetLateness counts)
     */
    void SetUpRanks(bool program);
    /// The step may have ended: every operation issued and every stream idle.
    void MaybeEndStep();
    /// \param comm a comm \return its line-rate ideal
    Time IdealOf(const Comm& comm) const;

    /// A comm issued in this step.
    struct Issued
    {
        uint32_t op{0};     //!< its operation
        uint32_t comm{0};   //!< its index in the operation
        uint32_t record{0}; //!< its record in the step
    };

    /// A stream: the comm it runs and those waiting, in issue order.
    struct Stream
    {
        std::deque<Issued> queue;      //!< waiting
        std::optional<Issued> running; //!< running
        EventId analytic;              //!< end of a running analytic comm
    };

    /// A lane: its operations and where it is in them this step.
    struct Lane
    {
        std::vector<uint32_t> ops; //!< its operations, in program order
        size_t next{0};            //!< the next to start
        bool busy{false};          //!< an operation computing, or blocking on its comms
        Time freeAt;               //!< when it last became free
        EventId compute;           //!< end of the running computation
    };

    /// Per operation this step: issued, and comms not yet ended.
    struct OpState
    {
        bool issued{false};  //!< its comms issued
        uint32_t pending{0}; //!< its comms not yet ended
        Time done;           //!< when it was issued, then when its last comm so far ended
    };

    uint32_t m_iterations{1};                           //!< Iterations attribute
    Time m_computeTime;                                 //!< ComputeTime attribute
    Time m_startTime;                                   //!< StartTime attribute
    std::vector<Ptr<MrcCollective>> m_collectives;      //!< every collective of the job
    bool m_simple{false};                               //!< collectives of AddCollective
    std::vector<Operation> m_ops;                       //!< the program of a step
    Time m_ideal;                                       //!< its line-rate ideal (Start)
    std::map<Ptr<MrcCollective>, uint32_t> m_streamOf;  //!< collective -> its stream
    std::map<uint32_t, Stream> m_streams;               //!< streams
    std::map<uint32_t, uint32_t> m_laneOfStream;        //!< stream -> its lane
    std::map<uint32_t, Lane> m_lanes;                   //!< lanes (Start)
    std::vector<OpState> m_opState;                     //!< per operation, this step
    uint32_t m_issuedOps{0};                            //!< operations issued this step
    EventId m_wake;                                     //!< RunLanes after a comm ended
    std::vector<Step> m_steps;                          //!< steps so far
    bool m_done{false};                                 //!< ended
    bool m_failed{false};                               //!< a step failed
    EventId m_event;                                    //!< next scheduled phase
    Callback<void, Ptr<MrcTrainingJob>> m_doneCallback; //!< done callback
    TracedCallback<uint32_t, Time, Time> m_stepTrace;   //!< StepComplete
    /// Distributed runs: the ranks' agreement on each collective's end (null in one process).
    Ptr<MrcRankBarrier> m_barrier;
    Time m_stepEnd;      //!< the latest end (issue, comm) in the running step
    Lateness m_lateness; //!< distributed runs: starts later than due
    /// Distributed runs: per step, per comm record, its collective and this rank's record of
    /// its run (empty: analytic, or not ended).
    std::vector<std::vector<std::pair<Ptr<MrcCollective>, std::vector<int64_t>>>> m_records;
};

} // namespace ns3

#endif /* MRC_TRAINING_JOB_H */
