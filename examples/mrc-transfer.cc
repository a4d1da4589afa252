/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * One MRC queue pair: host --src writes --bytes to host --dst over a multi-plane two-tier Clos
 * (SRv6 or ECMP data plane, trimming switches), optionally with random loss on every fabric
 * link. Prints the completion time against the line-rate ideal, retransmissions by cause, EV
 * state changes and how many EVs carried data; with --pcap writes pcap files that tshark
 * decodes as IPv6 / UDP / InfiniBand BTH (RoCEv2):
 *
 *   mrc-transfer --bytes=4000000 --planes=2 --loss=0.01
 *   mrc-transfer --pcap=mrc && tshark -r mrc-host-0-1.pcap -c 1 -V
 *
 * --transport=roce runs the RoCEv2 baseline instead (one EV per queue pair, go-back-N, DCQCN)
 * over switches that mark ECN on every port and drop instead of trimming; --qps=N stripes the
 * message over N queue pairs (either transport):
 *
 *   mrc-transfer --transport=roce --qps=8 --dataPlane=ecmp --loss=0.001
 *
 * --flowmon prints ns-3's FlowMonitor view of the MRC flows (MrcFlowMonitorHelper: one flow per
 * queue pair, direction and plane; trimmed and lost packets are drops, by reason);
 * --flowmonXml=FILE also writes FlowMonitor's XML:
 *
 *   mrc-transfer --loss=0.01 --flowmon --flowmonXml=mrc-flows.xml
 */

#include "ns3/core-module.h"
#include "ns3/flow-monitor-module.h"
#include "ns3/internet-module.h"
#include "ns3/mrc-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/// What the sender did.
struct Log
{
    std::set<uint32_t> evs;             //!< EVs that carried data
    std::map<std::string, uint32_t> ev; //!< EV state changes by "old->new (cause)"
    Time done{Time(-1)};                //!< message delivered
};

/**
 * \param log log
 * \param p packet
 * \param psn PSN
 * \param ev EV
 * \param rtx retransmission
 */
void
OnTx(Log* log, Ptr<const Packet> p, uint32_t psn, uint32_t ev, bool rtx)
{
    log->evs.insert(ev);
}

/**
 * \param log log
 * \param ev EV
 * \param from old state
 * \param to new state
 * \param cause why
 */
void
OnEv(Log* log, uint32_t ev, MrcEvState from, MrcEvState to, std::string cause)
{
    std::ostringstream key;
    key << from << "->" << to << " (" << cause << ")";
    log->ev[key.str()]++;
}

/**
 * \param log log
 * \param id message
 * \param bytes size
 * \param imm immediate
 */
void
OnDelivered(Log* log, uint32_t id, uint64_t bytes, std::optional<uint32_t> imm)
{
    log->done = Simulator::Now();
}

/**
 * Print FlowMonitor's flows: five-tuple, packets, bytes, mean delay, switches crossed per received
 * packet, drops by reason, lost.
 * \param monitor the monitor (after the run)
 * \param helper its helper
 */
void
PrintFlows(Ptr<FlowMonitor> monitor, FlowMonitorHelper& helper)
{
    // Whatever is still in flight when the simulation stops is lost.
    monitor->CheckForLostPackets(Seconds(0));
    auto classifier = DynamicCast<Ipv6FlowClassifier>(helper.GetClassifier6());
    std::cout << "FlowMonitor (MrcFlowProbe): flow, source -> destination, UDP ports, tx/rx "
                 "packets, rx bytes, mean delay, hops (switches per received packet); drops by "
                 "reason; lost (drops included)\n";
    for (const auto& [id, s] : monitor->GetFlowStats())
    {
        const Ipv6FlowClassifier::FiveTuple t = classifier->FindFlow(id);
        // Drops by MrcFlowProbe::DropReason: trimmed, queue disc, device (link), routing.
        std::vector<uint32_t> drops(s.packetsDropped);
        drops.resize(std::max<size_t>(drops.size(), MrcFlowProbe::DROP_ROUTING + 1), 0);
        std::cout << "  " << id << " " << t.sourceAddress << " -> " << t.destinationAddress << " "
                  << t.sourcePort << "/" << t.destinationPort << ": " << s.txPackets << "/"
                  << s.rxPackets << " packets, " << s.rxBytes << " B, "
                  << (s.rxPackets ? (s.delaySum / s.rxPackets).GetMicroSeconds() : 0) << " us, "
                  << std::fixed << std::setprecision(2)
                  << (s.rxPackets ? double(s.timesForwarded) / s.rxPackets : 0.0)
                  << std::defaultfloat << " hops; trimmed " << drops[MrcFlowProbe::DROP_TRIMMED]
                  << ", dropped by queues " << drops[MrcFlowProbe::DROP_QUEUE_DISC] << ", links "
                  << drops[MrcFlowProbe::DROP_DEVICE] << ", routing "
                  << drops[MrcFlowProbe::DROP_ROUTING] << "; lost " << s.lostPackets << "\n";
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t planes = 2;
    uint32_t src = 0;
    uint32_t dst = 0;
    uint64_t bytes = 4000000;
    double loss = 0;
    std::string dataPlane = "srv6";
    std::string pcap;
    uint32_t seed = 1;
    std::string transport = "mrc";
    uint32_t qps = 1;
    bool flowmon = false;
    std::string flowmonXml;
    CommandLine cmd(__FILE__);
    MrcStrictOptions strict; // numeric options parsed whole (CommandLine alone: 2.5 -> 2)
    strict.Add(cmd, "planes", "planes (NIC ports per host)", planes);
    strict.Add(cmd, "src", "source host", src);
    strict.Add(cmd, "dst", "destination host (default: the last)", dst);
    strict.Add(cmd, "bytes", "bytes to write", bytes);
    strict.Add(cmd, "loss", "random packet loss on every T0-T1 link, 0..1", loss);
    strict.Add(cmd, "dataPlane", "srv6 or ecmp", dataPlane);
    strict.Add(cmd, "pcap", "pcap file prefix (empty: none)", pcap);
    strict.Add(cmd, "seed", "RNG seed", seed);
    strict.Add(cmd, "transport", "mrc, or roce (RoCEv2: single path, go-back-N, DCQCN)", transport);
    strict.Add(cmd, "qps", "queue pairs the message is striped over", qps);
    strict.Add(cmd, "flowmon", "print FlowMonitor's MRC flows (MrcFlowMonitorHelper)", flowmon);
    strict.Add(cmd, "flowmonXml", "also write FlowMonitor's XML to this file", flowmonXml);
    MrcValueParser::ParseCommandLine(cmd, argc, argv);
    try
    {
        if (!(loss >= 0 && loss <= 1))
        {
            throw std::invalid_argument("--loss (=" + std::to_string(loss) + ") must be in 0..1");
        }
        if (transport != "mrc" && transport != "roce")
        {
            throw std::invalid_argument("--transport (=" + transport + ") must be mrc or roce");
        }
        if (qps == 0)
        {
            throw std::invalid_argument("--qps must be >= 1");
        }
        const bool roce = transport == "roce";
        RngSeedManager::SetSeed(seed);
        MrcClosTopologyHelper topoHelper;
        topoHelper.SetTrimmingQueues();
        if (roce)
        {
            // A RoCEv2 fabric: RED/ECN marking on every switch port (DCQCN's signal), the last
            // hop included; drop-tail, no trimming, no PFC.
            topoHelper.SetEcnQueues();
        }
        Ptr<MrcFabricTopology> topo = topoHelper.Build(MrcClosSpec::TwoTier(planes, 4, 4, 4));
        if (dst == 0)
        {
            dst = topo->GetHostCount() - 1;
        }
        MrcDataPlaneHelper dp;
        dp.SetDataPlane(MrcDataPlaneHelper::Parse("--dataPlane", dataPlane));
        dp.Install(topo);
        for (const MrcFabricLink& l : topo->GetLinks())
        {
            if (loss > 0 && l.tier == MrcLinkTier::T0_T1)
            {
                for (Ptr<NetDevice> d : {l.lowerDevice, l.upperDevice})
                {
                    Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
                    em->SetAttribute("ErrorRate", DoubleValue(loss));
                    em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
                    d->SetAttribute("ReceiveErrorModel", PointerValue(em));
                }
            }
        }
        MrcHelper mrc(topo, dp);
        mrc.Install();
        if (roce)
        {
            mrc.SetRoceV2Baseline(qps);
        }
        Ptr<MrcQpGroup> group = mrc.ConnectGroup(src, dst, qps);
        Log log;
        for (uint32_t i = 0; i < group->GetSize(); ++i)
        {
            group->GetSender(i)->TraceConnectWithoutContext("Tx", MakeBoundCallback(&OnTx, &log));
            group->GetSender(i)->TraceConnectWithoutContext("EvStateChange",
                                                            MakeBoundCallback(&OnEv, &log));
        }
        group->SetReceiveCallback(MakeBoundCallback(&OnDelivered, &log));
        if (!pcap.empty())
        {
            PointToPointHelper p2p;
            for (uint32_t p = 0; p < planes; ++p)
            {
                p2p.EnablePcap(pcap, topo->GetHostDevice(src, p), false, false);
            }
        }
        MrcFlowMonitorHelper flowmonHelper;
        Ptr<FlowMonitor> monitor;
        if (flowmon || !flowmonXml.empty())
        {
            monitor = flowmonHelper.InstallAll();
        }
        group->PostWrite(bytes);
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        DataRateValue rate;
        topo->GetHostDevice(src, 0)->GetAttribute("DataRate", rate);
        const uint64_t packets = (bytes + 4095) / 4096;
        const Time ideal =
            rate.Get().CalculateBytesTxTime(packets * MrcDataWireBytes(4096) / planes)
            + mrc.GetBaseRtt(src, dst) / 2;
        const MrcQpStats st = group->GetSenderStats();
        std::cout << MrcClosSpec::TwoTier(planes, 4, 4, 4).Describe() << ", " << dataPlane
                  << ", loss " << loss << (roce ? ", RoCEv2 baseline" : "")
                  << (qps > 1 ? ", " + std::to_string(qps) + " QPs" : "") << "\n"
                  << "host " << src << " -> host " << dst << ": " << bytes << " B in " << packets
                  << " packets over " << log.evs.size() << " EVs\n";
        if (log.done.IsNegative())
        {
            std::cout << "  NOT delivered by 1 s"
                      << (group->GetSender(0)->IsFailed() ? " (QP failed)" : "") << "\n";
        }
        else
        {
            std::cout << "  delivered at " << log.done.GetMicroSeconds()
                      << " us; ideal (line rate on " << planes << " port(s) + half the base RTT) "
                      << ideal.GetMicroSeconds() << " us\n";
        }
        std::cout << "  retransmissions " << st.retransmissions << " (trimmed " << st.rtxTrimmed
                  << ", trimmed last hop " << st.rtxTrimmedLastHop << ", loss timer "
                  << st.rtxTimeout << "), SACKs " << st.sacksReceived << ", NACKs "
                  << st.nacksReceived << ", probes " << st.probesSent << "\n";
        if (roce)
        {
            std::cout << "  go-back-N rewinds " << st.rewindsNack << " by NACK, "
                      << st.rewindsTimeout << " by timeout; receiver dropped "
                      << group->GetReceiverStats().outOfSequenceDropped << " out of sequence; CNPs "
                      << st.cnpsReceived << "\n";
        }
        for (const auto& [change, n] : log.ev)
        {
            std::cout << "  EV " << change << ": " << n << "\n";
        }
        if (monitor)
        {
            PrintFlows(monitor, flowmonHelper);
            if (!flowmonXml.empty())
            {
                monitor->SerializeToXmlFile(flowmonXml, true, true);
            }
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
