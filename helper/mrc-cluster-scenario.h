/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CLUSTER_SCENARIO_H
#define MRC_CLUSTER_SCENARIO_H

#include "mrc-cluster-fabric-helper.h"
#include "mrc-config-path-list.h"
#include "mrc-job-set.h"
#include "mrc-scenario-result.h"

#include "ns3/data-rate.h"
#include "ns3/mrc-clos-spec.h"
#include "ns3/mrc-failure-spec.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <optional>
#include <string>
#include <vector>

namespace ns3
{

class MrcFabricTopology;
class MrcHelper;
class MrcCollective;
class MrcTrainingJob;
class MrcWorkloadFile;
class MrcTcpBulkWorkload;
class MrcTransferMonitor;

/**
 * \ingroup mrc
 * \brief An AI-training cluster in one object: a multi-plane Clos (two tiers, or a three-tier
 * fat-tree with FatTreeK), a fabric, a
 * training job of ring all-reduce and all-to-all steps, a failure schedule, and the
 * measurements, configured by attributes (so a C++ or Python script, or the command line
 * through Config, sets it up the same way).
 *
 * The job: every host is a rank of one data-parallel ring all-reduce of AllReduceSize bytes
 * per step, and of an expert-parallel all-to-all within groups of AllToAllGroup ranks (each
 * rank sends AllToAllSize / AllToAllGroup bytes to each peer of its group); both run at once after
 * a ComputeTime gap, and a step ends when the last transfer of both has been delivered (P100).
 * Consecutive ranks sit under different T0s, so all collective traffic crosses the T1 layer where
 * failures are injected.
 *
 * Run() builds everything, runs the simulation to the end of the job (or StopTime), fills an
 * MrcScenarioResult, writes the results directory if OutputDirectory is set, and destroys the
 * simulator (so the next scenario, e.g. the same job on another fabric, can run in the same
 * process). A scenario runs once.
 *
 * On ns-3's MPI engine (an ns-3 configured with --enable-mpi, MrcDistributed::Enable before
 * the run) every rank calls Run() on the same scenario: each simulates the nodes the topology
 * helper gives it (MrcClosTopologyHelper::SetRanks, by T0 group), the jobs' steps end on every
 * rank at once (MrcRankBarrier, so ComputeTime must be at least the least link delay), and
 * rank 0 gathers everything (MrcDistributed: the jobs' transfers, the transfer monitor's events,
 * the link and drop monitors, the counters) and alone writes the results directory and returns
 * the whole result; the other ranks' results hold what they simulated. A TCP flow's ends run
 * on their hosts' ranks (MrcTcpBulkWorkload). Events of the same nanosecond may run in another
 * order on several ranks than in one process, so results agree closely, not exactly; on one rank
 * they are one process's.
 *
 * \code
 *   Ptr<MrcClusterScenario> s = CreateObject<MrcClusterScenario>();
 *   s->SetAttribute("Fabric", StringValue("roce-ecmp"));
 *   s->SetAttribute("QpsPerPeer", UintegerValue(4));
 *   s->LoadFailures("failures.json");
 *   MrcScenarioResult r = s->Run();
 * \endcode
 */
class MrcClusterScenario : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcClusterScenario();
    ~MrcClusterScenario() override;

    /// \return the topology the attributes describe (validated)
    MrcClosSpec GetSpec() const;

    /// \return the fabric
    MrcClusterFabric GetFabric() const;

    /**
     * \return the run's short key, as MrcScenarioResult::key and for file names: "mrc",
     *         "mrc-ecmp", "roce", "roce-pfc", with "-x<N>" for N queue pairs per peer and "-1p"
     *         for SinglePlane ("roce-pfc-x8-1p")
     */
    std::string GetKey() const;

    /// \return the display name ("MRC/SRv6", "RoCEv2/PFC/ECMP+BGP x8 QPs, 1 plane")
    std::string GetDisplayName() const;

    /**
     * Add a failure (absolute simulation time; node names as MrcFailureHelper::FindLink takes
     * them, e.g. "p0-t0-1"). Checked against the topology when Run builds it.
     * \param spec the failure
     */
    void AddFailure(const MrcFailureSpec& spec);

    /**
     * Add the failures of a schedule file (JSON or CSV, MrcFailureScheduleParser).
     * \param path the file
     * \throws std::invalid_argument with the line or entry and the field on a bad file
     */
    void LoadFailures(const std::string& path);

    /// \return the failures added so far (FailureFile is read by Run)
    const std::vector<MrcFailureSpec>& GetFailures() const;

    /**
     * Replace the default job (ring all-reduce + grouped all-to-all) with your own collectives:
     * every collective added runs in each step, at once. QpsPerPeer and VerifyData of the
     * scenario apply unless `attributes` sets them.
     * \param typeId an MrcCollective subclass, e.g. "ns3::MrcIncast"
     * \param hosts its ranks' hosts (empty: every host, in the default rank order, where
     *        consecutive ranks sit under different T0s)
     * \param attributes its attributes as text (name, value), e.g. {"MessageSize", "100000"}
     * \param job "" (or "main"): the main job, whose default it replaces; another name: a job
     *        of its own next to the main one (its own steps and P100, SetJob), sharing the
     *        fabric, e.g. a tenant whose incast hits the main job's ranks
     * \throws std::invalid_argument naming the type or attribute if it does not exist or a
     *         value does not parse, or the job name if it is malformed (checked here); ranks
     *         are checked by Run
     */
    void AddCollective(const std::string& typeId,
                       const std::vector<uint32_t>& hosts,
                       const std::vector<std::pair<std::string, std::string>>& attributes,
                       const std::string& job = "");

    /**
     * Set the parameters of another job (its collectives: AddCollective with its name). A job
     * not set takes the scenario's Iterations and ComputeTime and starts at 0.
     * \param job its name (not "main")
     * \param iterations its steps (1..1000000)
     * \param computeTime its compute gap before each step's collectives (>= 0)
     * \param startTime when its first step starts (>= 0)
     * \throws std::invalid_argument naming the field
     */
    void SetJob(const std::string& job, uint32_t iterations, Time computeTime, Time startTime);

    /**
     * Add a TCP flow (ns-3 TCP, MrcTcpBulkWorkload), an independent workload next to the job: it
     * runs whatever the Fabric, over its routing (on mrc-srv6 switches forward plain IPv6 by
     * their static tables). With TCP flows the job may be empty (AllReduceSize and
     * AllToAllSize 0), for a TCP-only run.
     * \param src source host
     * \param dst destination host
     * \param bytes bytes to send (> 0)
     * \param start start time (absolute)
     * \param plane the plane (none: spread over the planes by flow index)
     * \throws std::invalid_argument naming the field (hosts and planes are checked by Run)
     */
    void AddTcpFlow(uint32_t src,
                    uint32_t dst,
                    uint64_t bytes,
                    Time start,
                    std::optional<uint32_t> plane = std::nullopt);

    /**
     * Add a TCP permutation: every host sends `bytes` to another host, a random derangement
     * drawn from the scenario's seed (on its own RNG stream) when Run builds the fabric.
     * \param bytes bytes per flow (> 0)
     * \param start start time (absolute)
     * \throws std::invalid_argument if bytes is 0 or start negative
     */
    void AddTcpPermutation(uint64_t bytes, Time start);

    /**
     * Set an attribute by Config path on the objects Run builds (switches, devices, queue
     * discs, queue pairs, routing, ...), after the fabric, the transport and the workloads are
     * set up and before the simulation starts. Values the scenario derived at setup (the
     * line-rate ideal from LinkRate, the BGP model's view of the fabric) are not recomputed.
     * \param path "/<object path>/<attribute>" with Config's wildcards, e.g.
     *        "/NodeList/7/$ns3::TrafficControlLayer/RootQueueDiscList/1/$ns3::MrcTrimmingQueueDisc/TrimSize"
     * \param value the value as text
     * \throws std::invalid_argument if the path is malformed; Run throws std::invalid_argument
     *         naming the path if it matches no object, or the object if it refuses the value
     */
    void AddConfig(const std::string& path, const std::string& value);

    /**
     * Build, run, measure, write the results directory, destroy the simulator.
     * \return the measurements (on MPI ranks: the whole run at rank 0)
     * \throws std::invalid_argument on a bad attribute or failure schedule
     * \throws std::logic_error if called twice
     */
    MrcScenarioResult Run();

    /**
     * TracedCallback signature of StepComplete.
     * \param step index
     * \param duration its duration
     * \param ideal its line-rate ideal (plus the compute gap)
     */
    typedef void (*StepTracedCallback)(uint32_t step, Time duration, Time ideal);

  protected:
    void DoDispose() override;

  private:
    /// \param name fabric attribute value
    void SetFabricName(std::string name);
    /// \return fabric attribute value
    std::string GetFabricNameAttr() const;
    /// \throws std::invalid_argument if an attribute is out of range
    void Validate() const;
    /// \return the topology of the attributes (FatTreeK checked, the rest by Validate)
    MrcClosSpec MakeSpec() const;
    /// \return rank -> host: consecutive ranks under different T0s
    std::vector<uint32_t> RankHosts() const;
    /**
     * Create the job's collectives.
     * \param topo the fabric
     * \param mrc the transport helper
     * \return the collectives
     */
    std::vector<Ptr<MrcCollective>> MakeCollectives(Ptr<MrcFabricTopology> topo, MrcHelper& mrc);
    /**
     * Create the collectives of WorkloadFile and the job's program.
     * \param workload the parsed file
     * \param hosts its ranks' hosts (MrcWorkloadHelper::Place)
     * \param topo the fabric
     * \param mrc the transport helper
     * \param job the job
     * \return the fabric collectives
     */
    std::vector<Ptr<MrcCollective>> MakeWorkload(const MrcWorkloadFile& workload,
                                                 const std::vector<uint32_t>& hosts,
                                                 Ptr<MrcFabricTopology> topo,
                                                 MrcHelper& mrc,
                                                 Ptr<MrcTrainingJob> job) const;
    /**
     * Create the TCP workload of AddTcpFlow and AddTcpPermutation.
     * \param topo the fabric
     * \param stream the RNG stream of the permutations
     * \return it, installed (nullptr if there are no TCP flows)
     */
    Ptr<MrcTcpBulkWorkload> MakeTcp(Ptr<MrcFabricTopology> topo, int64_t stream) const;
    /**
     * Build, run and measure (Run, which cleans up also when this throws).
     * \return the measurements
     */
    MrcScenarioResult DoRun();

    MrcClusterFabric m_fabric{MrcClusterFabric::MRC_SRV6}; //!< Fabric
    uint32_t m_qpsPerPeer{1};                              //!< QpsPerPeer
    uint32_t m_planes{4};                                  //!< Planes
    bool m_singlePlane{false};                             //!< SinglePlane
    uint32_t m_t0{8};                                      //!< T0Count
    uint32_t m_hostsPerT0{8};                              //!< HostsPerT0
    uint32_t m_t1{8};                                      //!< T1Count
    uint32_t m_fatTreeK{0};                                //!< FatTreeK
    DataRate m_linkRate;                                   //!< LinkRate
    Time m_linkDelay;                                      //!< LinkDelay
    uint32_t m_iterations{10};                             //!< Iterations
    Time m_computeTime;                                    //!< ComputeTime
    uint64_t m_allReduceSize{0};                           //!< AllReduceSize
    uint64_t m_allToAllSize{0};                            //!< AllToAllSize
    uint32_t m_allToAllGroup{8};                           //!< AllToAllGroup
    bool m_verifyData{false};                              //!< VerifyData
    Time m_stopTime;                                       //!< StopTime
    Time m_interval;                                       //!< Interval
    std::string m_failureFile;                             //!< FailureFile
    std::string m_outputDirectory;                         //!< OutputDirectory
    uint64_t m_maxLinks{MrcClosSpec::kDefaultMaxLinks};    //!< MaxLinks
    bool m_showProgress{true};                             //!< ShowProgress
    bool m_flowMonitor{false};                             //!< FlowMonitor
    Time m_progressInterval;                               //!< ProgressInterval
    uint32_t m_seed{1};                                    //!< Seed
    std::string m_workloadFile;                            //!< WorkloadFile
    std::string m_workloadPlacement;                       //!< WorkloadPlacement
    std::string m_pipelineSchedule;                        //!< PipelineSchedule
    std::string m_scheduler;                               //!< Scheduler
    uint32_t m_gpusPerServer{1};                           //!< GpusPerServer
    DataRate m_scaleUpRate;                                //!< ScaleUpRate
    double m_commScale{1};                                 //!< CommScale
    double m_computeScale{1};                              //!< ComputeScale
    std::vector<MrcFailureSpec> m_failures;                //!< failures added

    MrcJobSet m_jobs; //!< AddCollective and SetJob: the main job's and other jobs' collectives

    /// TCP flows of AddTcpFlow (and AddTcpPermutation, with kPermutation as src)
    struct TcpSpec
    {
        uint32_t src{0};               //!< source host (kPermutation: a permutation)
        uint32_t dst{0};               //!< destination host
        uint64_t bytes{0};             //!< bytes
        Time start;                    //!< start
        std::optional<uint32_t> plane; //!< plane
    };

    static constexpr uint32_t kPermutation = UINT32_MAX; //!< TcpSpec::src of a permutation
    std::vector<TcpSpec> m_tcp;                          //!< AddTcpFlow, AddTcpPermutation
    uint32_t m_tcpSegmentSize{4096};                     //!< TcpSegmentSize
    Time m_tcpMinRto;                                    //!< TcpMinRto
    uint32_t m_roceLocalAckTimeout;                      //!< RoceLocalAckTimeout
    MrcConfigPathList m_config;                          //!< AddConfig
    bool m_ran{false};                                   //!< Run called
    TracedCallback<uint32_t, Time, Time> m_stepTrace;    //!< StepComplete
};

} // namespace ns3

#endif /* MRC_CLUSTER_SCENARIO_H */
