/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-cluster-scenario.h"

#include "mrc-bgp-reconvergence-helper.h"
#include "mrc-distributed.h"
#include "mrc-failure-helper.h"
#include "mrc-flow-monitor-helper.h"
#include "mrc-helper.h"
#include "mrc-permutation-helper.h"
#include "mrc-progress.h"
#include "mrc-results-writer.h"
#include "mrc-scheduler-choice.h"
#include "mrc-scoped-attribute-default.h"
#include "mrc-workload-helper.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/flow-monitor.h"
#include "ns3/log.h"
#include "ns3/mrc-all-to-all.h"
#include "ns3/mrc-bgp-reconvergence-model.h"
#include "ns3/mrc-fabric-drop-monitor.h"
#include "ns3/mrc-fabric-queue-stats.h"
#include "ns3/mrc-fabric-topology.h"
#include "ns3/mrc-failure-schedule-parser.h"
#include "ns3/mrc-link-monitor.h"
#include "ns3/mrc-ring-all-reduce.h"
#include "ns3/mrc-tcp-bulk-workload.h"
#include "ns3/mrc-training-job.h"
#include "ns3/mrc-transfer-monitor.h"
#include "ns3/mrc-workload-file.h"
#include "ns3/names.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcClusterScenario");

namespace
{

/// What a run waits for before it stops: every job and the TCP flows.
struct RunningWork
{
    std::vector<Ptr<MrcTrainingJob>> jobs; //!< the jobs
    Ptr<MrcTcpBulkWorkload> tcp;           //!< the TCP workload (nullptr: none)
};

/**
 * Stop the simulation when every job and the TCP flows have ended (periodic monitors would
 * keep it running).
 * \param work what the run waits for
 */
void
StopIfDone(std::shared_ptr<RunningWork> work)
{
    auto done = [](Ptr<MrcTrainingJob> j) {
        return j->IsDone();
    };
    if (std::all_of(work->jobs.begin(), work->jobs.end(), done)
        && (!work->tcp || work->tcp->IsDone()))
    {
        Simulator::Stop();
    }
}

/// \param work what the run waits for (a job just ended)
void
OnJobDone(std::shared_ptr<RunningWork> work, Ptr<MrcTrainingJob>)
{
    StopIfDone(work);
}

/**
 * \param job the job
 * \param name the fabric's display name
 * \param iterations steps asked for
 * \return "<fabric>: step k/n"
 */
std::string
StepStatus(Ptr<MrcTrainingJob> job, std::string name, uint32_t iterations)
{
    return job ? name + ": step " + std::to_string(job->GetSteps().size()) + "/"
                     + std::to_string(iterations)
               : name;
}

/**
 * On MPI ranks, give rank 0 the sums of what each rank counted at its own nodes and queue
 * pairs: fault losses, queue-disc drops, trims and packet-hops, events, corrupt transfers, and
 * each PFC port's counters (seen on the port's rank, zero elsewhere).
 * \param r this rank's result; rank 0's gets the sums
 */
void
SumOverRanks(MrcScenarioResult& r)
{
    std::vector<uint64_t*> fields{&r.faultDrops,
                                  &r.queueDrops,
                                  &r.trims,
                                  &r.linkTraversals,
                                  &r.events};
    std::vector<uint64_t> sums{r.corruptTransfers};
    for (const uint64_t* f : fields)
    {
        sums.push_back(*f);
    }
    for (const MrcPfcPortStats::Row& p : r.pfcPorts)
    {
        sums.insert(sums.end(),
                    {p.pausesSent,
                     p.xonsSent,
                     p.pausesReceived,
                     static_cast<uint64_t>(p.pausedTime.GetTimeStep()),
                     p.maxIngressBytes,
                     p.overflows,
                     p.watchdogTriggers});
    }
    MrcDistributed::SumToRoot(sums);
    if (MrcDistributed::GetRank() != 0)
    {
        return;
    }
    auto next = sums.begin();
    r.corruptTransfers = static_cast<uint32_t>(*next++);
    for (uint64_t* f : fields)
    {
        *f = *next++;
    }
    for (MrcPfcPortStats::Row& p : r.pfcPorts)
    {
        p.pausesSent = *next++;
        p.xonsSent = *next++;
        p.pausesReceived = *next++;
        p.pausedTime = TimeStep(static_cast<int64_t>(*next++));
        p.maxIngressBytes = *next++;
        p.overflows = *next++;
        p.watchdogTriggers = *next++;
    }
}

} // namespace

MrcClusterScenario::MrcClusterScenario()
{
    NS_LOG_FUNCTION(this);
}

MrcClusterScenario::~MrcClusterScenario() = default;

void
MrcClusterScenario::DoDispose()
{
    m_failures.clear();
    Object::DoDispose();
}

void
MrcClusterScenario::SetFabricName(std::string name)
{
    m_fabric = MrcClusterFabricHelper::Parse(name);
}

std::string
MrcClusterScenario::GetFabricNameAttr() const
{
    return MrcClusterFabricHelper::GetName(m_fabric);
}

MrcClusterFabric
MrcClusterScenario::GetFabric() const
{
    return m_fabric;
}

MrcClosSpec
MrcClusterScenario::GetSpec() const
{
    Validate();
    return MakeSpec();
}

MrcClosSpec
MrcClusterScenario::MakeSpec() const
{
    if (m_fatTreeK != 0)
    {
        if (m_fatTreeK < 4 || m_fatTreeK > MrcClosSpec::kMaxFatTreeK || m_fatTreeK % 2 != 0)
        {
            throw std::invalid_argument("MrcClusterScenario: FatTreeK (="
                                        + std::to_string(m_fatTreeK)
                                        + ") must be 0 or an even number in [4, "
                                        + std::to_string(MrcClosSpec::kMaxFatTreeK) + "]");
        }
        return MrcClosSpec::FatTree(m_fatTreeK, m_singlePlane ? 1 : m_planes);
    }
    return MrcClosSpec::TwoTier(m_singlePlane ? 1 : m_planes, m_t0, m_hostsPerT0, m_t1);
}

void
MrcClusterScenario::Validate() const
{
    auto range = [](const std::string& field, uint64_t v, uint64_t lo, uint64_t hi) {
        if (v < lo || v > hi)
        {
            throw std::invalid_argument("MrcClusterScenario: " + field + " (=" + std::to_string(v)
                                        + ") must be in [" + std::to_string(lo) + ", "
                                        + std::to_string(hi) + "]");
        }
    };
    range("Planes", m_planes, 1, MrcClosSpec::kMaxPlanes);
    MrcSchedulerChoice::Check("MrcClusterScenario: Scheduler", m_scheduler);
    if (m_fatTreeK == 0)
    {
        range("T0Count", m_t0, 2, MrcClosSpec::kMaxSwitchIndex);
        range("HostsPerT0", m_hostsPerT0, 1, 4096);
        range("T1Count", m_t1, 1, MrcClosSpec::kMaxSwitchIndex);
    }
    const MrcClosSpec spec = MakeSpec();
    try
    {
        spec.CheckSize(m_maxLinks, "ns3::MrcClusterScenario::MaxLinks");
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(std::string("MrcClusterScenario: ") + e.what());
    }
    range("QpsPerPeer", m_qpsPerPeer, 1, 64);
    range("Iterations", m_iterations, 1, 1000000);
    range("Seed", m_seed, 1, UINT32_MAX);
    const uint64_t hosts = spec.GetHostCount();
    if (!m_workloadFile.empty() && !m_jobs.GetMainCollectives().empty())
    {
        throw std::invalid_argument(
            "MrcClusterScenario: WorkloadFile and AddCollective both "
            "give the main job; use one (another job can take collectives)");
    }
    if (!m_workloadFile.empty())
    {
        MrcWorkloadHelper check; // the helper's setters name the field and range
        check.SetCommScale(m_commScale);
        check.SetComputeScale(m_computeScale);
        check.SetScaleUpRate(m_scaleUpRate);
        MrcWorkloadHelper::ParsePlacement(m_workloadPlacement);
        MrcWorkloadHelper::ParsePipelineSchedule(m_pipelineSchedule);
    }
    if (m_workloadFile.empty() && m_jobs.GetMainCollectives().empty() && m_allReduceSize == 0
        && m_allToAllSize == 0 && m_tcp.empty() && m_jobs.GetOtherJobs().empty())
    {
        throw std::invalid_argument(
            "MrcClusterScenario: AllReduceSize and AllToAllSize are both 0 and there are no TCP "
            "flows: nothing to run");
    }
    if (m_tcpMinRto.IsStrictlyNegative())
    {
        throw std::invalid_argument("MrcClusterScenario: TcpMinRto must be >= 0");
    }
    if (m_tcpSegmentSize != 0 && (m_tcpSegmentSize < 64 || m_tcpSegmentSize > 65000))
    {
        throw std::invalid_argument("MrcClusterScenario: TcpSegmentSize (="
                                    + std::to_string(m_tcpSegmentSize)
                                    + ") must be 0 or in [64, 65000]");
    }
    if (m_allReduceSize != 0)
    {
        range("AllReduceSize", m_allReduceSize, hosts, UINT64_MAX / 4);
    }
    if (m_allToAllSize != 0)
    {
        range("AllToAllGroup", m_allToAllGroup, 2, hosts);
        if (hosts % m_allToAllGroup != 0)
        {
            throw std::invalid_argument(
                "MrcClusterScenario: AllToAllGroup (=" + std::to_string(m_allToAllGroup)
                + ") must divide the number of hosts (" + std::to_string(hosts) + ")");
        }
    }
    if (!m_stopTime.IsStrictlyPositive() || !m_interval.IsStrictlyPositive()
        || !m_progressInterval.IsStrictlyPositive() || m_computeTime.IsStrictlyNegative())
    {
        throw std::invalid_argument("MrcClusterScenario: StopTime, Interval and ProgressInterval "
                                    "must be > 0 and ComputeTime >= 0");
    }
    if (m_linkDelay.IsStrictlyNegative())
    {
        throw std::invalid_argument("MrcClusterScenario: LinkDelay must be >= 0");
    }
    if (m_linkRate.GetBitRate() == 0)
    {
        throw std::invalid_argument("MrcClusterScenario: LinkRate must be > 0");
    }
}

void
MrcClusterScenario::AddFailure(const MrcFailureSpec& spec)
{
    m_failures.push_back(spec);
}

void
MrcClusterScenario::LoadFailures(const std::string& path)
{
    for (const MrcFailureSpec& spec : MrcFailureScheduleParser::ParseFile(path))
    {
        m_failures.push_back(spec);
    }
}

const std::vector<MrcFailureSpec>&
MrcClusterScenario::GetFailures() const
{
    return m_failures;
}

void
MrcClusterScenario::AddCollective(
    const std::string& typeId,
    const std::vector<uint32_t>& hosts,
    const std::vector<std::pair<std::string, std::string>>& attributes,
    const std::string& job)
{
    m_jobs.AddCollective(job, MrcJobSet::Collective{typeId, hosts, attributes});
}

void
MrcClusterScenario::SetJob(const std::string& job,
                           uint32_t iterations,
                           Time computeTime,
                           Time startTime)
{
    m_jobs.SetJob(job, iterations, computeTime, startTime);
}

void
MrcClusterScenario::AddTcpFlow(uint32_t src,
                               uint32_t dst,
                               uint64_t bytes,
                               Time start,
                               std::optional<uint32_t> plane)
{
    // Checked now, by the workload's own rules (hosts and planes need the fabric: Run).
    CreateObject<MrcTcpBulkWorkload>()->AddFlow(src, dst, bytes, start, plane);
    m_tcp.push_back(TcpSpec{src, dst, bytes, start, plane});
}

void
MrcClusterScenario::AddTcpPermutation(uint64_t bytes, Time start)
{
    CreateObject<MrcTcpBulkWorkload>()->AddFlow(0, 1, bytes, start);
    m_tcp.push_back(TcpSpec{kPermutation, 0, bytes, start, std::nullopt});
}

void
MrcClusterScenario::AddConfig(const std::string& path, const std::string& value)
{
    m_config.Add(path, value);
}

Ptr<MrcTcpBulkWorkload>
MrcClusterScenario::MakeTcp(Ptr<MrcFabricTopology> topo, int64_t stream) const
{
    if (m_tcp.empty())
    {
        return nullptr;
    }
    Ptr<MrcTcpBulkWorkload> tcp = CreateObject<MrcTcpBulkWorkload>();
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(stream);
    const uint32_t hosts = topo->GetHostCount();
    for (const TcpSpec& t : m_tcp)
    {
        if (t.src != kPermutation)
        {
            tcp->AddFlow(t.src, t.dst, t.bytes, t.start, t.plane);
            continue;
        }
        const std::vector<uint32_t> dst = MrcPermutationHelper::Derangement(hosts, rng);
        for (uint32_t h = 0; h < hosts; ++h)
        {
            tcp->AddFlow(h, dst[h], t.bytes, t.start);
        }
    }
    tcp->Install(topo);
    return tcp;
}

std::vector<uint32_t>
MrcClusterScenario::RankHosts() const
{
    // Host h sits under T0 h / hostsPerT0 (MrcFabricTopology's numbering, both shapes).
    const MrcClosSpec spec = MakeSpec();
    const uint32_t perT0 = spec.hostsPerT0;
    const uint32_t t0s = spec.GetHostCount() / perT0;
    return MrcWorkloadHelper::Place(MrcWorkloadHelper::Placement::SPREAD, t0s * perT0, perT0, t0s);
}

std::vector<Ptr<MrcCollective>>
MrcClusterScenario::MakeWorkload(const MrcWorkloadFile& workload,
                                 const std::vector<uint32_t>& hosts,
                                 Ptr<MrcFabricTopology> topo,
                                 MrcHelper& mrc,
                                 Ptr<MrcTrainingJob> job) const
{
    MrcWorkloadHelper helper;
    helper.SetGpusPerServer(m_gpusPerServer);
    helper.SetScaleUpRate(m_scaleUpRate);
    helper.SetCommScale(m_commScale);
    helper.SetComputeScale(m_computeScale);
    helper.SetPipelineSchedule(MrcWorkloadHelper::ParsePipelineSchedule(m_pipelineSchedule));
    helper.SetCollectiveAttribute("QpsPerPeer", std::to_string(m_qpsPerPeer));
    helper.SetCollectiveAttribute("VerifyData", m_verifyData ? "true" : "false");
    return helper.Install(workload, topo, mrc, hosts, job);
}

std::vector<Ptr<MrcCollective>>
MrcClusterScenario::MakeCollectives(Ptr<MrcFabricTopology> topo, MrcHelper& mrc)
{
    const std::vector<uint32_t> ranks = RankHosts();
    std::vector<Ptr<MrcCollective>> out;
    if (!m_jobs.GetMainCollectives().empty())
    {
        return m_jobs.MakeCollectives(m_jobs.GetMainCollectives(), topo, mrc, ranks);
    }
    auto configure = [this](Ptr<MrcCollective> c, uint64_t size) {
        c->SetAttribute("MessageSize", UintegerValue(size));
        c->SetAttribute("QpsPerPeer", UintegerValue(m_qpsPerPeer));
        c->SetAttribute("VerifyData", BooleanValue(m_verifyData));
    };
    if (m_allReduceSize > 0)
    {
        Ptr<MrcCollective> ring = CreateObject<MrcRingAllReduce>();
        configure(ring, m_allReduceSize);
        ring->Setup(topo, mrc, ranks);
        out.push_back(ring);
    }
    if (m_allToAllSize > 0)
    {
        for (uint32_t g = 0; g < ranks.size() / m_allToAllGroup; ++g)
        {
            std::vector<uint32_t> group(ranks.begin() + g * m_allToAllGroup,
                                        ranks.begin() + (g + 1) * m_allToAllGroup);
            Ptr<MrcCollective> a2a = CreateObject<MrcAllToAll>();
            configure(a2a, m_allToAllSize);
            a2a->Setup(topo, mrc, group);
            out.push_back(a2a);
        }
    }
    return out;
}

std::string
MrcClusterScenario::GetKey() const
{
    std::string key = m_fabric == MrcClusterFabric::MRC_SRV6   ? "mrc"
                      : m_fabric == MrcClusterFabric::MRC_ECMP ? "mrc-ecmp"
                      : m_fabric == MrcClusterFabric::ROCE_PFC ? "roce-pfc"
                                                               : "roce";
    key += m_qpsPerPeer > 1 ? "-x" + std::to_string(m_qpsPerPeer) : "";
    return m_singlePlane && m_planes > 1 ? key + "-1p" : key;
}

std::string
MrcClusterScenario::GetDisplayName() const
{
    std::string name = m_fabric == MrcClusterFabric::MRC_SRV6   ? "MRC/SRv6"
                       : m_fabric == MrcClusterFabric::MRC_ECMP ? "MRC/ECMP+BGP"
                       : m_fabric == MrcClusterFabric::ROCE_PFC ? "RoCEv2/PFC/ECMP+BGP"
                                                                : "RoCEv2/ECMP+BGP";
    name += m_qpsPerPeer > 1 ? " x" + std::to_string(m_qpsPerPeer) + " QPs" : "";
    return m_singlePlane && m_planes > 1 ? name + ", 1 plane" : name;
}

MrcScenarioResult
MrcClusterScenario::Run()
{
    NS_LOG_FUNCTION(this);
    if (m_ran)
    {
        throw std::logic_error("MrcClusterScenario::Run: a scenario runs once");
    }
    m_ran = true;
    try
    {
        return DoRun();
    }
    catch (...)
    {
        // A bad failure schedule or Config path is found with the fabric built: leave nothing
        // behind, so that the next scenario of the process starts clean.
        Simulator::Destroy();
        Names::Clear();
        throw;
    }
}

MrcScenarioResult
MrcClusterScenario::DoRun()
{
    // Everything that can be checked without the fabric, before anything is built: the
    // attributes, the size, the failure file, and that the results can be written.
    const MrcClosSpec spec = GetSpec();
    std::vector<MrcFailureSpec> schedule = m_failures;
    if (!m_failureFile.empty())
    {
        for (const MrcFailureSpec& f : MrcFailureScheduleParser::ParseFile(m_failureFile))
        {
            schedule.push_back(f);
        }
    }
    if (!m_outputDirectory.empty())
    {
        MrcResultsWriter::CheckDirectory(m_outputDirectory, "MrcClusterScenario: OutputDirectory");
    }
    std::optional<MrcWorkloadFile> workload;
    std::vector<uint32_t> workloadHosts; // rank -> host (it fits: checked before the build)
    if (!m_workloadFile.empty())
    {
        workload = MrcWorkloadFile::ParseFile(m_workloadFile);
        workloadHosts =
            MrcWorkloadHelper::Place(MrcWorkloadHelper::ParsePlacement(m_workloadPlacement),
                                     workload->GetRanks(),
                                     spec.hostsPerT0,
                                     spec.GetHostCount() / spec.hostsPerT0);
    }
    // On ns-3's MPI engine (MrcDistributed::Enable before the run) every rank builds the whole
    // scenario and simulates its share of the nodes; rank 0 gathers the results.
    const bool distributed = MrcDistributed::IsEnabled();
    if (m_flowMonitor && (m_outputDirectory.empty() || distributed))
    {
        throw std::invalid_argument(
            m_outputDirectory.empty()
                ? "MrcClusterScenario: FlowMonitor=true needs an OutputDirectory (where "
                  "flowmon.xml goes)"
                : "MrcClusterScenario: FlowMonitor=true is not available in a distributed run "
                  "(ns-3's FlowMonitor sees the nodes of one rank only)");
    }
    MrcClusterFabricHelper fabric(m_fabric);
    const bool roce = fabric.IsRoce();
    // The seed is the scenario's; the run number stays the user's (--RngRun, the ns-3 way of
    // replicating a run: every random stream changes, the ECMP hash seed does not).
    RngSeedManager::SetSeed(m_seed);
    MrcSchedulerChoice::Apply("MrcClusterScenario: Scheduler", m_scheduler);
    // The TCP flows' sockets take these defaults when their applications start; the previous
    // defaults come back when the run returns or throws.
    std::optional<MrcScopedAttributeDefault> segmentSize;
    std::optional<MrcScopedAttributeDefault> minRto;
    if (!m_tcp.empty() && m_tcpSegmentSize != 0)
    {
        segmentSize.emplace("ns3::TcpSocket", "SegmentSize", UintegerValue(m_tcpSegmentSize));
    }
    if (!m_tcp.empty() && m_tcpMinRto.IsStrictlyPositive())
    {
        minRto.emplace("ns3::TcpSocketBase", "MinRto", TimeValue(m_tcpMinRto));
    }
    std::optional<MrcScopedAttributeDefault> localAckTimeout;
    if (roce && m_roceLocalAckTimeout != 0)
    {
        localAckTimeout.emplace("ns3::MrcGoBackN",
                                "LocalAckTimeout",
                                UintegerValue(m_roceLocalAckTimeout));
    }

    MrcClosTopologyHelper& topoHelper = fabric.GetTopologyHelper();
    topoHelper.SetMaxLinks(m_maxLinks, "ns3::MrcClusterScenario::MaxLinks");
    if (distributed)
    {
        topoHelper.SetRanks(MrcDistributed::GetRanks());
    }
    const DataRate rate(m_linkRate.GetBitRate() * (m_singlePlane ? m_planes : 1));
    for (MrcLinkTier tier : {MrcLinkTier::HOST_T0, MrcLinkTier::T0_T1, MrcLinkTier::T1_T2})
    {
        topoHelper.SetLinkRate(tier, rate);
        topoHelper.SetLinkDelay(tier, m_linkDelay);
    }
    fabric.GetDataPlane().GetEcmpHelper().SetBaseSeed(m_seed);
    Ptr<MrcFabricTopology> topo = fabric.Build(spec);
    Ptr<MrcBgpReconvergenceModel> bgp =
        fabric.IsEcmp() ? MrcBgpReconvergenceHelper().Install(topo) : nullptr;
    Ptr<MrcFailureHelper> failures = CreateObject<MrcFailureHelper>(topo);
    failures->Schedule(schedule);
    // Fixed RNG streams: the run does not depend on what ran before it in the process.
    int64_t stream = MrcClosTopologyHelper::AssignStreams(topo, 0);
    stream += failures->AssignStreams(stream);

    MrcHelper mrc(topo, fabric.GetDataPlane());
    fabric.ConfigureTransport(mrc, m_qpsPerPeer);
    mrc.SetStream(stream);
    mrc.Install();
    m_jobs.SetCollectiveDefaults(m_qpsPerPeer, m_verifyData);
    Ptr<MrcTrainingJob> job;
    std::vector<Ptr<MrcCollective>> collectives;
    if (workload)
    {
        job = CreateObject<MrcTrainingJob>();
        collectives = MakeWorkload(*workload, workloadHosts, topo, mrc, job);
    }
    else
    {
        collectives = MakeCollectives(topo, mrc);
        if (!collectives.empty())
        {
            job = CreateObject<MrcTrainingJob>();
            job->SetAttribute("ComputeTime", TimeValue(m_computeTime));
            for (const auto& c : collectives)
            {
                job->AddCollective(c);
            }
        }
    }
    // Every job, the main one first; the other jobs' collectives after the main job's.
    std::vector<std::pair<std::string, Ptr<MrcTrainingJob>>> jobs;
    if (job)
    {
        job->SetAttribute("Iterations", UintegerValue(m_iterations));
        job->TraceConnectWithoutContext(
            "StepComplete",
            MakeCallback(&TracedCallback<uint32_t, Time, Time>::operator(), &m_stepTrace));
        jobs.emplace_back(MrcJobSet::kMain, job);
    }
    for (const MrcJobSet::Job& spec : m_jobs.GetOtherJobs())
    {
        if (spec.collectives.empty())
        {
            throw std::invalid_argument("MrcClusterScenario: job " + spec.name
                                        + " has no collectives (AddCollective with its name)");
        }
        Ptr<MrcTrainingJob> other = CreateObject<MrcTrainingJob>();
        other->SetAttribute("Iterations", UintegerValue(spec.iterations.value_or(m_iterations)));
        other->SetAttribute("ComputeTime", TimeValue(spec.computeTime.value_or(m_computeTime)));
        other->SetAttribute("StartTime", TimeValue(spec.startTime));
        for (const auto& c : m_jobs.MakeCollectives(spec.collectives, topo, mrc, RankHosts()))
        {
            other->AddCollective(c);
            collectives.push_back(c);
        }
        jobs.emplace_back(spec.name, other);
    }
    // The TCP permutations draw from a stream of their own, after the transport's.
    Ptr<MrcTcpBulkWorkload> tcp = MakeTcp(topo, stream + (int64_t(1) << 40));
    auto work = std::make_shared<RunningWork>();
    work->tcp = tcp;
    for (const auto& [name, j] : jobs)
    {
        work->jobs.push_back(j);
        j->SetDoneCallback(MakeCallback(&OnJobDone).Bind(work));
    }
    if (tcp)
    {
        tcp->SetDoneCallback(MakeCallback(&StopIfDone).Bind(work));
    }
    Ptr<MrcTransferMonitor> monitor = CreateObject<MrcTransferMonitor>();
    monitor->SetAttribute("Interval", TimeValue(m_interval));
    monitor->SetRecording(distributed);
    monitor->AddCollectives(collectives);
    Ptr<MrcLinkMonitor> links = CreateObject<MrcLinkMonitor>();
    links->SetInterval(m_interval);
    links->Install(topo, Time(0), m_stopTime);
    Ptr<MrcFabricDropMonitor> drops = CreateObject<MrcFabricDropMonitor>();
    drops->Install(topo);
    // ns-3's FlowMonitor, when asked: MRC flows (MrcFlowProbe) and the TCP flows (ns-3's probes).
    std::unique_ptr<MrcFlowMonitorHelper> flowmon;
    if (m_flowMonitor)
    {
        flowmon = std::make_unique<MrcFlowMonitorHelper>();
        flowmon->InstallAll();
    }

    std::unique_ptr<MrcProgress> progress;
    if (m_showProgress && MrcDistributed::GetRank() == 0)
    {
        progress = std::make_unique<MrcProgress>(std::cerr, m_progressInterval, m_interval);
        const std::string name = GetDisplayName();
        const uint32_t iterations = m_iterations;
        progress->SetStatus(MakeCallback(&StepStatus).Bind(job, name, iterations));
        progress->Start();
    }
    m_config.Apply();
    for (const auto& [name, j] : jobs)
    {
        j->Start();
    }
    Simulator::Stop(m_stopTime);
    NS_LOG_INFO(GetDisplayName() << ": " << spec.Describe());
    Simulator::Run();
    // Events of the model only: the progress checks depend on ShowProgress.
    const uint64_t progressEvents = progress ? progress->GetChecks() : 0;
    progress.reset();
    for (const auto& [name, j] : jobs)
    {
        MrcDistributed::GatherJob(j);
    }
    MrcDistributed::GatherTransferMonitor(monitor);
    MrcDistributed::GatherLinkMonitor(links);
    MrcDistributed::GatherDropMonitor(drops);
    if (tcp)
    {
        MrcDistributed::GatherTcpWorkload(tcp);
    }

    MrcScenarioResult r;
    r.key = GetKey();
    r.seed = m_seed;
    r.run = RngSeedManager::GetRun();
    r.name = GetDisplayName();
    r.iterations = job ? m_iterations : 0;
    r.jobDone = true;
    for (const auto& [name, j] : jobs)
    {
        UintegerValue iterations;
        j->GetAttribute("Iterations", iterations);
        r.jobs.push_back(
            {name, uint32_t(iterations.Get()), j->IsDone(), j->HasFailed(), j->GetLateness()});
        r.jobDone = r.jobDone && j->IsDone();
        r.jobFailed = r.jobFailed || j->HasFailed();
    }
    r.end = Simulator::Now();
    r.events = Simulator::GetEventCount() - progressEvents;
    const auto& log = failures->GetLog().GetEntries();
    if (!log.empty())
    {
        r.failureStart = log.front().time;
        r.failureEnd = log.back().time;
    }
    for (const auto& [name, j] : jobs)
    {
        MrcJobSet::AppendSteps(name, *j, r);
    }
    r.AddFlows(monitor->GetSummaries(r.end));
    for (const auto& c : collectives)
    {
        r.corruptTransfers += c->GetCorruptTransfers();
    }
    r.faultDrops = failures->GetLostPackets();
    const MrcFabricQueueStats::Totals q =
        MrcFabricQueueStats::Sum(NodeContainer(topo->GetHosts(), topo->GetAllSwitches()));
    r.queueDrops = q.droppedPackets;
    r.trims = q.trimmedPackets;
    r.linkTraversals = q.sentPackets;
    if (bgp)
    {
        r.routingConverged = bgp->GetLastConvergenceTime();
    }
    r.uplinkBalance = links->GetBalance(MrcLinkTier::T0_T1, MrcLinkDirection::UP);
    r.routingDrops = drops->GetTotal(MrcFabricDropKind::ROUTING_DROP);
    r.ecnMarks = drops->GetTotal(MrcFabricDropKind::ECN_MARK);
    if (tcp)
    {
        r.tcpFlows = tcp->GetFlows();
    }
    r.pfcPorts = MrcPfcPortStats::Collect(*topo);
    if (distributed)
    {
        SumOverRanks(r);
    }
    if (!m_outputDirectory.empty() && MrcDistributed::GetRank() == 0)
    {
        MrcResultsWriter writer(m_outputDirectory);
        writer.WriteRun(r, *monitor, failures->GetLog());
        writer.WriteFabric(*links, *drops);
        if (flowmon)
        {
            Ptr<FlowMonitor> flows = flowmon->GetMonitor();
            flows->CheckForLostPackets(Seconds(0)); // what is still in flight at the end is lost
            flows->SerializeToXmlFile(
                (std::filesystem::path(m_outputDirectory) / "flowmon.xml").string(),
                true,
                true);
        }
    }
    for (const auto& [name, j] : jobs)
    {
        j->Dispose();
    }
    if (tcp)
    {
        tcp->Dispose();
    }
    for (const auto& c : collectives)
    {
        c->Dispose();
    }
    Simulator::Destroy();
    Names::Clear();
    return r;
}

} // namespace ns3
