/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_WORKLOAD_APPLICATION_H
#define MRC_WORKLOAD_APPLICATION_H

#include "ns3/application.h"
#include "ns3/simple-ref-count.h"
#include "ns3/traced-callback.h"

#include <functional>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief One rank of an MRC workload (a collective or a training job) as an ns-3 Application on
 * the rank's host, so that a workload is installed and started as every ns-3 traffic source is
 * (MrcWorkloadHelper::Install returns an ApplicationContainer; Start and Stop times apply).
 *
 * A collective is one object across its ranks, as an NCCL communicator is: a ring's step on
 * one rank waits for a message from another, and the transfers, their ideals and the run's
 * duration are the collective's, not any one rank's. So the ranks' applications share one
 * MrcWorkloadApplication::Launch, and the workload begins when the last of them has started
 * (every rank must enter a collective before data moves), at that application's start time.
 * An application stopped before then withdraws its rank, and the workload waits for it to
 * start again; once the workload has begun, stopping an application does not withdraw work
 * already posted (MRC has no way to cancel a posted WRITE, nor does a GPU's NCCL rank).
 */
class MrcWorkloadApplication : public Application
{
  public:
    /// What the ranks of one workload share: how many must arrive and what then begins.
    class Launch : public SimpleRefCount<Launch>
    {
      public:
        /**
         * \param name the workload's name (logs)
         * \param ranks ranks that must arrive (>= 1)
         * \param start begins the workload (called once, when the last rank arrives)
         * \throws std::invalid_argument if ranks is 0 or start is empty
         */
        Launch(std::string name, uint32_t ranks, std::function<void()> start);

        /// A rank's application started; the last one begins the workload.
        void Arrive();
        /// A rank's application stopped before the workload began.
        void Leave();
        /// \return true once the workload has begun
        bool HasBegun() const;
        /// \return ranks whose application has started (while waiting)
        uint32_t GetArrived() const;
        /// \return ranks that must arrive
        uint32_t GetRanks() const;
        /// \return the workload's name
        const std::string& GetName() const;

      private:
        std::string m_name;            //!< workload name
        uint32_t m_ranks;              //!< ranks that must arrive
        uint32_t m_arrived{0};         //!< ranks arrived
        bool m_begun{false};           //!< the workload began
        std::function<void()> m_start; //!< begins the workload
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcWorkloadApplication();
    ~MrcWorkloadApplication() override;

    /**
     * \param launch what this workload's ranks share
     * \param rank this application's rank in the workload
     */
    void Setup(Ptr<Launch> launch, uint32_t rank);
    /// \return the rank
    uint32_t GetRank() const;
    /// \return what the workload's ranks share (nullptr before Setup)
    Ptr<Launch> GetLaunch() const;

    /**
     * TracedCallback signature of RankStarted.
     * \param rank the rank
     * \param begun the workload began with it (it was the last rank to arrive)
     */
    typedef void (*RankStartedTracedCallback)(uint32_t rank, bool begun);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    Ptr<Launch> m_launch;  //!< shared by the workload's ranks
    uint32_t m_rank{0};    //!< this rank
    bool m_arrived{false}; //!< counted in the launch

    /// The rank's application started: rank, the workload began.
    TracedCallback<uint32_t, bool> m_rankStarted;
};

} // namespace ns3

#endif /* MRC_WORKLOAD_APPLICATION_H */
