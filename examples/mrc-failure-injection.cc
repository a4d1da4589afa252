/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Failure injection on a multi-plane two-tier Clos: a schedule of link, switch and NIC port
 * failures (built in, or read from --schedule=<file.json|file.csv>) applied while a random
 * permutation runs, with line-rate UDP over per-flow ECMP (--transport=udp) or with MRC over
 * SRv6 and trimming switches (--transport=mrc). Prints the failure log (CSV), the packets the
 * failures destroyed by cause, and what the workload delivered.
 *
 *   mrc-failure-injection
 *   mrc-failure-injection --transport=mrc
 *   mrc-failure-injection --schedule=examples/failure-schedule-sample.json --log=failures.csv
 *
 * The built-in schedule is examples/failure-schedule-sample.json written with the helper's
 * methods; both need the default fabric (2 planes, 4 T0 x 4 hosts, 4 T1) or a larger one.
 */

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mrc-module.h"

#include <iomanip>
#include <iostream>
#include <memory>

using namespace ns3;

namespace
{

/**
 * The events of examples/failure-schedule-sample.json, through MrcFailureHelper's methods.
 * \param f the failure helper
 */
void
ScheduleBuiltIn(Ptr<MrcFailureHelper> f)
{
    const Time us = MicroSeconds(1);
    // 2 % random loss towards the spine.
    f->GrayLoss(10 * us, f->FindLink("p0-t0-0", "p0-t1-0"), 0.02, MrcLinkDirection::UP, 100 * us);
    f->Flap(20 * us, f->FindLink("p0-t0-1", "p0-t1-1"), 20 * us, 0.5, 80 * us);
    // The carrier stays up: only the data plane notices.
    f->Blackhole(30 * us, f->FindLink("p1-t0-3", "p1-t1-2"), MrcLinkDirection::DOWN, 60 * us);
    f->SwitchDown(40 * us, Names::Find<Node>("p0-t1-3"), 50 * us);
    f->DegradeRate(50 * us,
                   f->FindLink("p1-t0-0", "p1-t1-1"),
                   DataRate("25Gbps"),
                   MrcLinkDirection::BOTH,
                   50 * us);
    f->PortDown(60 * us, 5, 1, 30 * us);
    f->SwitchBlackhole(70 * us, Names::Find<Node>("p1-t1-0"), 20 * us);
    f->Flap(120 * us, 22, {Time(0), 2 * us, 10 * us, 11 * us}); // link 22: p0-t0-1 p0-t1-2
}

/**
 * MessageDelivered trace of an MRC receiver.
 * \param finish where to record the time
 * \param msn message
 * \param bytes size
 */
void
OnDelivered(Time* finish, uint32_t msn, uint64_t bytes)
{
    *finish = Simulator::Now();
}

/**
 * EvStateChange trace of an MRC sender.
 * \param retired EVs retired so far
 * \param ev EV
 * \param from old state
 * \param to new state
 * \param cause why
 */
void
OnEvState(uint32_t* retired, uint32_t ev, MrcEvState from, MrcEvState to, std::string cause)
{
    *retired += to == MrcEvState::ASSUMED_BAD ? 1 : 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t planes = 2;
    uint32_t t0 = 4;
    uint32_t hostsPerT0 = 4;
    uint32_t t1 = 4;
    uint64_t bytes = 2000000;
    std::string transport = "udp";
    std::string schedule;
    std::string logFile;
    uint32_t seed = 1;
    CommandLine cmd(__FILE__);
    MrcStrictOptions strict; // numeric options parsed whole (CommandLine alone: 2.5 -> 2)
    strict.Add(cmd, "planes", "planes (NIC ports per host)", planes);
    strict.Add(cmd, "t0", "T0 switches per plane", t0);
    strict.Add(cmd, "hostsPerT0", "hosts per T0", hostsPerT0);
    strict.Add(cmd, "t1", "T1 switches per plane", t1);
    strict.Add(cmd, "bytes", "bytes each host sends to its permutation partner", bytes);
    strict.Add(cmd,
               "transport",
               "udp (line rate, per-flow ECMP) or mrc (MRC over SRv6)",
               transport);
    strict.Add(cmd, "schedule", "failure schedule, .json or .csv (empty: built in)", schedule);
    strict.Add(cmd, "log", "write the failure log to this CSV file (empty: print it)", logFile);
    strict.Add(cmd, "seed", "RNG seed (permutation, ECMP, gray loss)", seed);
    MrcValueParser::ParseCommandLine(cmd, argc, argv);
    try
    {
        if (transport != "udp" && transport != "mrc")
        {
            throw std::invalid_argument("--transport (=" + transport + ") must be udp or mrc");
        }
        const bool mrc = transport == "mrc";
        RngSeedManager::SetSeed(seed);
        const MrcClosSpec spec = MrcClosSpec::TwoTier(planes, t0, hostsPerT0, t1);
        MrcClosTopologyHelper topoHelper;
        if (mrc)
        {
            topoHelper.SetTrimmingQueues();
        }
        Ptr<MrcFabricTopology> topo = topoHelper.Build(spec);
        MrcDataPlaneHelper dataPlane;
        dataPlane.SetDataPlane(mrc ? MrcDataPlane::SRV6 : MrcDataPlane::ECMP);
        dataPlane.GetEcmpHelper().SetBaseSeed(seed);
        dataPlane.Install(topo);

        Ptr<MrcFailureHelper> failures = CreateObject<MrcFailureHelper>(topo);
        if (schedule.empty())
        {
            ScheduleBuiltIn(failures);
        }
        else
        {
            failures->LoadSchedule(schedule);
        }
        failures->AssignStreams(1000);

        MrcPermutationHelper perm(topo);
        std::unique_ptr<MrcHelper> mrcHelper;
        std::vector<Ptr<MrcQueuePair>> senders;
        std::vector<Time> finish;
        uint32_t retired = 0;
        if (mrc)
        {
            mrcHelper = std::make_unique<MrcHelper>(topo, dataPlane);
            mrcHelper->Install();
            Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
            rng->SetStream(0);
            const std::vector<uint32_t> dst =
                MrcPermutationHelper::Derangement(topo->GetHostCount(), rng);
            finish.assign(dst.size(), Time(-1));
            for (uint32_t i = 0; i < dst.size(); ++i)
            {
                auto [a, b] = mrcHelper->Connect(i, dst[i]);
                a->TraceConnectWithoutContext("EvStateChange",
                                              MakeBoundCallback(&OnEvState, &retired));
                b->TraceConnectWithoutContext("MessageDelivered",
                                              MakeBoundCallback(&OnDelivered, &finish[i]));
                a->PostWrite(bytes);
                senders.push_back(a);
            }
        }
        else
        {
            perm.SetBytesPerFlow(bytes);
            perm.SetTrackCollisions(false);
            perm.Install();
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        std::cout << spec.Describe() << "\n"
                  << (mrc ? "MRC over SRv6, trimming switches" : "UDP at line rate, per-flow ECMP")
                  << "; permutation, " << bytes << " bytes per host; seed " << seed << "\n"
                  << "schedule: " << (schedule.empty() ? "built in" : schedule) << "\n";
        const MrcFailureLog& log = failures->GetLog();
        if (logFile.empty())
        {
            std::cout << "failure log:\n";
            log.WriteCsv(std::cout);
        }
        else
        {
            log.WriteCsv(logFile);
            std::cout << "failure log: " << log.GetEntries().size() << " events written to "
                      << logFile << "\n";
        }
        std::cout << "packets lost to failures:";
        for (auto cause : {MrcFabricLossCause::LINK_DOWN,
                           MrcFabricLossCause::IN_FLIGHT,
                           MrcFabricLossCause::BLACKHOLE,
                           MrcFabricLossCause::RANDOM_LOSS})
        {
            std::cout << " " << cause << " " << failures->GetLostPackets(cause);
        }
        std::cout << "\nswitch queue drops: "
                  << MrcFabricQueueStats::Sum(topo->GetAllSwitches()).droppedPackets << "\n";
        if (mrc)
        {
            MrcQueuePair::Stats total;
            for (const Ptr<MrcQueuePair>& a : senders)
            {
                total.retransmissions += a->GetStats().retransmissions;
                total.rtxTimeout += a->GetStats().rtxTimeout;
                total.rtxTrimmed += a->GetStats().rtxTrimmed + a->GetStats().rtxTrimmedLastHop;
            }
            uint32_t done = 0;
            Time last(0);
            for (const Time& f : finish)
            {
                done += f.IsNegative() ? 0 : 1;
                last = f.IsNegative() ? last : Max(last, f);
            }
            std::cout << "MRC: " << done << "/" << finish.size()
                      << " messages delivered, the last at " << last.GetMicroSeconds()
                      << " us; retransmissions " << total.retransmissions << " (loss timer "
                      << total.rtxTimeout << ", trimmed " << total.rtxTrimmed << "); EVs retired "
                      << retired << "\n";
        }
        else
        {
            uint64_t sent = 0;
            uint64_t received = 0;
            uint32_t done = 0;
            for (const auto& f : perm.GetFlows())
            {
                sent += f.bytes;
                received += f.received;
                done += f.finish.IsNegative() ? 0 : 1;
            }
            std::cout << "UDP: " << done << "/" << perm.GetFlows().size()
                      << " flows complete; bytes received " << received << " of " << sent << " ("
                      << std::fixed << std::setprecision(2) << 100.0 * received / sent << " %)\n";
        }
        Simulator::Destroy();
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
