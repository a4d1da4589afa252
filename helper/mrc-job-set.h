/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_JOB_SET_H
#define MRC_JOB_SET_H

#include "mrc-scenario-result.h"

#include "ns3/mrc-collective.h"
#include "ns3/mrc-training-job.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class MrcFabricTopology;
class MrcHelper;

/**
 * \ingroup mrc
 * \brief The jobs of a scenario given as collectives (MrcClusterScenario::AddCollective): the
 * main job's custom collectives and any number of other named jobs, each with its own ranks,
 * iterations, compute gap and start time, sharing the fabric.
 *
 * Checks each collective's type and attributes when it is added; makes the collectives
 * (MakeCollectives) and turns each job's steps into result rows tagged with its name
 * (AppendSteps).
 */
class MrcJobSet
{
  public:
    /// The name of the scenario's main job (its default job, workload or custom collectives).
    static const std::string kMain;

    /// One collective of a job.
    struct Collective
    {
        std::string typeId;                                          //!< its type
        std::vector<uint32_t> hosts;                                 //!< its hosts (empty: all)
        std::vector<std::pair<std::string, std::string>> attributes; //!< its attributes
    };

    /// A job.
    struct Job
    {
        std::string name;                    //!< its name
        std::optional<uint32_t> iterations;  //!< steps (none: the scenario's Iterations)
        std::optional<Time> computeTime;     //!< compute gap (none: the scenario's ComputeTime)
        Time startTime;                      //!< when its first step starts
        std::vector<Collective> collectives; //!< its collectives
    };

    /**
     * \param qpsPerPeer QpsPerPeer of every collective (before its own attributes)
     * \param verifyData VerifyData of every collective (before its own attributes)
     */
    void SetCollectiveDefaults(uint32_t qpsPerPeer, bool verifyData);

    /**
     * \param job a job's name ("" or kMain: the main job)
     * \param c a collective
     * \throws std::invalid_argument naming the type or attribute if it does not exist or a value
     *         does not parse, or if the job name holds a character other than letters, digits,
     *         '-' and '_'
     */
    void AddCollective(const std::string& job, const Collective& c);

    /**
     * Set another job's parameters (the job is created if it has no collectives yet).
     * \param job its name (not the main job)
     * \param iterations its steps (1..1000000)
     * \param computeTime its compute gap (>= 0)
     * \param startTime when its first step starts (>= 0)
     * \throws std::invalid_argument naming the field
     */
    void SetJob(const std::string& job, uint32_t iterations, Time computeTime, Time startTime);

    /// \return the main job's collectives (empty: the scenario's own job)
    const std::vector<Collective>& GetMainCollectives() const;
    /// \return the other jobs, in the order first named
    const std::vector<Job>& GetOtherJobs() const;

    /**
     * \param c a collective
     * \return it, created with the defaults and its attributes (not set up)
     * \throws std::invalid_argument naming the type or attribute
     */
    Ptr<MrcCollective> Create(const Collective& c) const;

    /**
     * \param collectives a job's collectives
     * \param topo the fabric
     * \param mrc the transport
     * \param allHosts the hosts of a collective without hosts (rank order)
     * \return them, created and set up
     */
    std::vector<Ptr<MrcCollective>> MakeCollectives(const std::vector<Collective>& collectives,
                                                    Ptr<MrcFabricTopology> topo,
                                                    MrcHelper& mrc,
                                                    const std::vector<uint32_t>& allHosts) const;

    /**
     * Add a job's completed steps to a result (a step still running is left out).
     * \param name the job's name
     * \param job the job
     * \param r the result (failureStart and failureEnd set: the phases)
     */
    static void AppendSteps(const std::string& name,
                            const MrcTrainingJob& job,
                            MrcScenarioResult& r);

  private:
    /// \param job a name \return its job (created, checked, if new)
    Job& Find(const std::string& job);

    uint32_t m_qpsPerPeer{1};       //!< QpsPerPeer default
    bool m_verifyData{false};       //!< VerifyData default
    std::vector<Collective> m_main; //!< the main job's collectives
    std::vector<Job> m_others;      //!< the other jobs
};

} // namespace ns3

#endif /* MRC_JOB_SET_H */
