/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TRAINING_JOB_H
#define MRC_TRAINING_JOB_H

#include "completion-stats.h"
#include "mrc-collective.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief A synchronous training job: Iterations steps of (compute gap, collectives).
 *
 * A step starts with ComputeTime of computation (nothing on the network), then starts every
 * collective of the job at once (AddCollective; each already Setup, on disjoint or overlapping
 * hosts) and ends when the last of them has delivered its last transfer (P100). The next step
 * starts then. A collective that fails (queue pair error) ends the step, marked failed, and the
 * job (no later steps). Several jobs can run at once on the same fabric; a collective belongs to
 * one job.
 *
 * Per step the job records start, end, duration, the line-rate ideal (ComputeTime plus the
 * largest ideal of its collectives) and the completion times of all its transfers.
 * A collective's own StartTime is not used (the job starts it); the job must outlive the
 * simulation run (its collectives call back into it).
 */
class MrcTrainingJob : public Object
{
  public:
    /// What one step did.
    struct Step
    {
        Time start;                      //!< step start (compute begins)
        Time end;                        //!< last transfer delivered (or failure)
        Time ideal;                      //!< ComputeTime + largest collective ideal
        bool failed{false};              //!< a collective failed
        std::vector<Time> transferTimes; //!< completion times of the step's transfers

        /// \return end - start
        Time GetDuration() const;
        /// \return order statistics of transferTimes
        CompletionStats GetTransferStats() const;
    };

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

    /// Begin the job at StartTime (relative to now).
    void Start();

    /// \param cb called with this job after its last step (or a failed one)
    void SetDoneCallback(Callback<void, Ptr<MrcTrainingJob>> cb);

    /// \return the steps run so far (the last one may be in progress)
    const std::vector<Step>& GetSteps() const;
    /// \return true when the job has ended
    bool IsDone() const;
    /// \return true if a step failed
    bool HasFailed() const;
    /// \return the collectives
    const std::vector<Ptr<MrcCollective>>& GetCollectives() const;

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
    /// Start a step: the compute gap.
    void BeginStep();
    /// The compute gap is over: start the collectives.
    void StartCollectives();
    /// \param collective a collective whose run ended
    void OnCollectiveDone(Ptr<MrcCollective> collective);

    uint32_t m_iterations{1};                           //!< Iterations attribute
    Time m_computeTime;                                 //!< ComputeTime attribute
    Time m_startTime;                                   //!< StartTime attribute
    std::vector<Ptr<MrcCollective>> m_collectives;      //!< per step
    std::vector<Step> m_steps;                          //!< steps so far
    uint32_t m_pending{0};                              //!< collectives still running
    bool m_done{false};                                 //!< ended
    bool m_failed{false};                               //!< a step failed
    EventId m_event;                                    //!< next scheduled phase
    Callback<void, Ptr<MrcTrainingJob>> m_doneCallback; //!< done callback
    TracedCallback<uint32_t, Time, Time> m_stepTrace;   //!< StepComplete
};

} // namespace ns3

#endif /* MRC_TRAINING_JOB_H */
