/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcClusterScenario's attributes and trace sources (its TypeId), apart from the scenario's
// code so that each file stays short.

#include "mrc-cluster-scenario.h"
#include "mrc-scheduler-choice.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcClusterScenario);

TypeId
MrcClusterScenario::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcClusterScenario")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcClusterScenario>()
            .AddAttribute("Fabric",
                          "mrc-srv6 (MRC over static SRv6, trimming switches), mrc-ecmp (MRC "
                          "over per-flow ECMP + BGP), roce-ecmp (RoCEv2-style queue pairs over "
                          "per-flow ECMP + BGP, ECN switches that drop) or roce-pfc (the same "
                          "queue pairs on a lossless fabric: MrcPfcQueueDisc and MrcPfcPort, with "
                          "MrcPfcPort's defaults, on every switch and NIC port; ECN marking).",
                          StringValue("mrc-srv6"),
                          MakeStringAccessor(&MrcClusterScenario::SetFabricName,
                                             &MrcClusterScenario::GetFabricNameAttr),
                          MakeStringChecker())
            .AddAttribute("QpsPerPeer",
                          "Queue pairs per ordered host pair, 1..64 (QP scaling: a message is "
                          "striped over them, each with its own UDP source port).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MrcClusterScenario::m_qpsPerPeer),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Planes",
                          "Planes (NIC ports per host), 1..16.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&MrcClusterScenario::m_planes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SinglePlane",
                          "Build one plane whose links run at Planes x LinkRate instead of "
                          "Planes planes at LinkRate: the same bandwidth per host and per switch "
                          "(e.g. one 400G plane against MRC's 4x100G, as in the paper's "
                          "comparison clusters). Failures then name plane 0 only.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcClusterScenario::m_singlePlane),
                          MakeBooleanChecker())
            .AddAttribute("T0Count",
                          "T0 switches per plane, >= 2 (traffic crosses the T1s).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&MrcClusterScenario::m_t0),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HostsPerT0",
                          "Hosts per T0, >= 1.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&MrcClusterScenario::m_hostsPerT0),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("T1Count",
                          "T1 switches per plane, >= 1 (each T0 has one uplink to each).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&MrcClusterScenario::m_t1),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FatTreeK",
                          "0: the two-tier Clos of T0Count, HostsPerT0 and T1Count; an even k in "
                          "4..64: a three-tier k-ary fat-tree per plane (k^3/4 hosts; T0Count, "
                          "HostsPerT0 and T1Count are then ignored).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcClusterScenario::m_fatTreeK),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LinkRate",
                          "Rate of every link (host-T0, T0-T1 and T1-T2), per plane.",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&MrcClusterScenario::m_linkRate),
                          MakeDataRateChecker())
            .AddAttribute("LinkDelay",
                          "Propagation delay of every link (host-T0, T0-T1 and T1-T2), >= 0.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&MrcClusterScenario::m_linkDelay),
                          MakeTimeChecker())
            .AddAttribute("Iterations",
                          "Training steps, >= 1.",
                          UintegerValue(10),
                          MakeUintegerAccessor(&MrcClusterScenario::m_iterations),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ComputeTime",
                          "Compute gap at the start of every step, >= 0.",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&MrcClusterScenario::m_computeTime),
                          MakeTimeChecker())
            .AddAttribute("AllReduceSize",
                          "Bytes each rank all-reduces per step over the ring of all hosts (0: "
                          "no all-reduce); >= the number of hosts.",
                          UintegerValue(1000000),
                          MakeUintegerAccessor(&MrcClusterScenario::m_allReduceSize),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("AllToAllSize",
                          "Bytes of each rank's all-to-all buffer per step, S: S/AllToAllGroup "
                          "go to each peer of its group (0: no all-to-all).",
                          UintegerValue(256000),
                          MakeUintegerAccessor(&MrcClusterScenario::m_allToAllSize),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("AllToAllGroup",
                          "Ranks per all-to-all group, >= 2, dividing the number of hosts.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&MrcClusterScenario::m_allToAllGroup),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("VerifyData",
                          "Carry real bytes and check every transfer byte for byte.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcClusterScenario::m_verifyData),
                          MakeBooleanChecker())
            .AddAttribute("StopTime",
                          "Simulation time limit; a job still running then is reported as not "
                          "done (> 0).",
                          TimeValue(Seconds(10)),
                          MakeTimeAccessor(&MrcClusterScenario::m_stopTime),
                          MakeTimeChecker())
            .AddAttribute("Interval",
                          "Width of the goodput time-series intervals (> 0).",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&MrcClusterScenario::m_interval),
                          MakeTimeChecker())
            .AddAttribute("FailureFile",
                          "Failure schedule (JSON or CSV) read by Run, in addition to "
                          "AddFailure (empty: none).",
                          StringValue(""),
                          MakeStringAccessor(&MrcClusterScenario::m_failureFile),
                          MakeStringChecker())
            .AddAttribute("OutputDirectory",
                          "Results directory, created if missing (empty: write nothing).",
                          StringValue(""),
                          MakeStringAccessor(&MrcClusterScenario::m_outputDirectory),
                          MakeStringChecker())
            .AddAttribute("FlowMonitor",
                          "Install ns-3's FlowMonitor (MrcFlowMonitorHelper: MRC flows per queue "
                          "pair, direction and plane, with drops where they happen; TCP flows by "
                          "ns-3's probes) and write flowmon.xml into OutputDirectory. Needs an "
                          "OutputDirectory; not in a distributed run.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcClusterScenario::m_flowMonitor),
                          MakeBooleanChecker())
            .AddAttribute("MaxLinks",
                          "Most links the fabric may have over all planes (host-T0, T0-T1, "
                          "T1-T2), checked before anything is built: FatTreeK=64 with Planes=16 "
                          "is 3,145,728 links. Raise it to build a larger fabric anyway.",
                          UintegerValue(MrcClosSpec::kDefaultMaxLinks),
                          MakeUintegerAccessor(&MrcClusterScenario::m_maxLinks),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute(
                "ShowProgress",
                "Print a progress line (simulated time, wall time, events/s, step) on stderr "
                "(MrcProgress).",
                BooleanValue(true),
                MakeBooleanAccessor(&MrcClusterScenario::m_showProgress),
                MakeBooleanChecker())
            .AddAttribute("ProgressInterval",
                          "Wall-clock interval between progress lines (> 0).",
                          TimeValue(Seconds(5)),
                          MakeTimeAccessor(&MrcClusterScenario::m_progressInterval),
                          MakeTimeChecker())
            .AddAttribute("Seed",
                          "RNG seed (ns-3 RngSeedManager, ECMP hash seed, EV streams), >= 1. "
                          "Replications vary ns-3's run number instead (--RngRun, or "
                          "RngSeedManager::SetRun before Run): every random stream changes, "
                          "the ECMP hash seed does not.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MrcClusterScenario::m_seed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("WorkloadFile",
                          "A training workload to run instead of the default job: a SimAI / "
                          "AICB workload file (MrcWorkloadFile; empty: none). Its ranks are "
                          "placed by WorkloadPlacement; AllReduceSize, AllToAllSize and "
                          "ComputeTime do not apply.",
                          StringValue(""),
                          MakeStringAccessor(&MrcClusterScenario::m_workloadFile),
                          MakeStringChecker())
            .AddAttribute("WorkloadPlacement",
                          "Ranks of WorkloadFile on hosts: packed (rank r on host r, "
                          "consecutive ranks under one T0) or spread (under different T0s).",
                          StringValue("packed"),
                          MakeStringAccessor(&MrcClusterScenario::m_workloadPlacement),
                          MakeStringChecker())
            .AddAttribute("PipelineSchedule",
                          "WorkloadFile with pp > 1: the order of micro-batches in a stage, "
                          "1f1b (Megatron-LM's one-forward-one-backward) or gpipe (every "
                          "forward, then every backward).",
                          StringValue("1f1b"),
                          MakeStringAccessor(&MrcClusterScenario::m_pipelineSchedule),
                          MakeStringChecker())
            .AddAttribute("GpusPerServer",
                          "WorkloadFile: consecutive ranks sharing a scale-up network (NVLink, "
                          "not simulated: ScaleUpRate); 1: every comm crosses the fabric.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MrcClusterScenario::m_gpusPerServer),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ScaleUpRate",
                          "WorkloadFile: scale-up bandwidth per GPU and direction (default: "
                          "NVLink 4, 450 GB/s).",
                          DataRateValue(DataRate("3600Gbps")),
                          MakeDataRateAccessor(&MrcClusterScenario::m_scaleUpRate),
                          MakeDataRateChecker())
            .AddAttribute("CommScale",
                          "WorkloadFile: multiplies every comm size, > 0 (SimAI's comm_scale).",
                          DoubleValue(1),
                          MakeDoubleAccessor(&MrcClusterScenario::m_commScale),
                          MakeDoubleChecker<double>())
            .AddAttribute("ComputeScale",
                          "WorkloadFile: multiplies every compute and update time, >= 0 "
                          "(SimAI's compute_scale).",
                          DoubleValue(1),
                          MakeDoubleAccessor(&MrcClusterScenario::m_computeScale),
                          MakeDoubleChecker<double>())
            .AddAttribute("Scheduler",
                          "The simulator's event scheduler for the run (a TypeId name; empty: "
                          "keep the simulator's, e.g. --SchedulerType). Results do not depend "
                          "on it; the run time does (ns-3's priority queue, the default, was "
                          "the fastest measured on these fabrics).",
                          StringValue(MrcSchedulerChoice::kDefault),
                          MakeStringAccessor(&MrcClusterScenario::m_scheduler),
                          MakeStringChecker())
            .AddAttribute("TcpSegmentSize",
                          "ns3::TcpSocket::SegmentSize of the TCP flows' sockets during the run "
                          "(restored after), 0: keep ns-3's default (536 B). The default, 4096 "
                          "B, is MRC's payload per packet.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&MrcClusterScenario::m_tcpSegmentSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TcpMinRto",
                          "ns3::TcpSocketBase::MinRto of the TCP flows' sockets during the run "
                          "(restored after), 0: keep ns-3's default (1 s). The default, 1 ms, "
                          "is a data-centre tuning at the millisecond time scale of the "
                          "scenario's failures.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&MrcClusterScenario::m_tcpMinRto),
                          MakeTimeChecker())
            .AddAttribute("RoceLocalAckTimeout",
                          "ns3::MrcGoBackN::LocalAckTimeout of the RoCEv2 fabrics' queue pairs "
                          "during the run (restored after): their retransmission and retry timer "
                          "is 4.096 us x 2^t. Default 14 (67 ms), NCCL's NCCL_IB_TIMEOUT default "
                          "before 2.14 and a common operator setting; 18 (1.07 s) is NCCL's "
                          "current default and MrcGoBackN's (a RoCEv2 window lost whole to a "
                          "failure then stalls its step for 1.07 s, and the results directory "
                          "grows with the run). 0: keep MrcGoBackN's default.",
                          UintegerValue(14),
                          MakeUintegerAccessor(&MrcClusterScenario::m_roceLocalAckTimeout),
                          MakeUintegerChecker<uint32_t>(0, 31))
            .AddTraceSource("StepComplete",
                            "A training step ended: index, duration, ideal.",
                            MakeTraceSourceAccessor(&MrcClusterScenario::m_stepTrace),
                            "ns3::MrcClusterScenario::StepTracedCallback");
    return tid;
}

} // namespace ns3
