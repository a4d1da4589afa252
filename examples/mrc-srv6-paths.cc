/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The static SRv6 data plane: a host sends UDP packets to another host on chosen entropy values
 * (EVs), each naming one source-routed path; the example prints, per EV, the uSIDs, the carrier
 * addresses and the switches the packet really crossed (from the switches' Forward traces), and
 * writes pcap files that tshark decodes (IPv6, Segment Routing Header, inner IPv6, UDP).
 *
 *   mrc-srv6-paths --topology=fattree --k=4 --src=0 --dst=15
 *   mrc-srv6-paths --usidsPerCarrier=3 --pcap=srv6      # two carriers: an SRH
 *   tshark -r srv6-host-0-1.pcap -V
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mrc-module.h"
#include "ns3/point-to-point-module.h"

#include <iomanip>
#include <iostream>
#include <map>

using namespace ns3;

namespace
{

/// Switches each packet crossed, by UDP source port (= the packet's index).
std::map<uint16_t, std::vector<std::string>> g_crossed; // NOLINT: example-local trace state

/**
 * MrcIpv6Srv6Routing Forward trace.
 * \param name switch name
 * \param packet packet
 * \param header header
 * \param interface egress
 */
void
OnForward(std::string name, Ptr<const Packet> packet, const Ipv6Header& header, uint32_t interface)
{
    // Find the inner UDP header: skip an SRH and the inner IPv6 header.
    Ptr<Packet> copy = packet->Copy();
    if (header.GetNextHeader() == MrcSegmentRoutingHeader::kProtocolNumber)
    {
        MrcSegmentRoutingHeader srh;
        copy->RemoveHeader(srh);
    }
    Ipv6Header inner;
    copy->RemoveHeader(inner);
    UdpHeader udp;
    copy->PeekHeader(udp);
    g_crossed[udp.GetSourcePort()].push_back(name);
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string topology = "clos";
    uint32_t k = 4;
    uint32_t planes = 2;
    uint32_t src = 0;
    uint32_t dst = 0;
    uint32_t usidsPerCarrier = 0;
    bool forceSrh = false;
    std::string pcap;
    CommandLine cmd(__FILE__);
    MrcStrictOptions strict; // numeric options parsed whole (CommandLine alone: 2.5 -> 2)
    strict.Add(cmd,
               "topology",
               "clos (2 planes, 2 T0 x 2 hosts, 2 T1, 2 parallel uplinks) or "
               "fattree",
               topology);
    strict.Add(cmd, "k", "fat-tree radix", k);
    strict.Add(cmd, "planes", "planes", planes);
    strict.Add(cmd, "src", "source host", src);
    strict.Add(cmd, "dst", "destination host (default: the last host)", dst);
    strict.Add(cmd, "usidsPerCarrier", "uSIDs per carrier (0: as many as fit)", usidsPerCarrier);
    strict.Add(cmd, "forceSrh", "carry an SRH even with one carrier", forceSrh);
    strict.Add(cmd, "pcap", "pcap file prefix (empty: no pcap)", pcap);
    MrcValueParser::ParseCommandLine(cmd, argc, argv);
    try
    {
        const MrcClosSpec spec = topology == "fattree" ? MrcClosSpec::FatTree(k, planes)
                                                       : MrcClosSpec::TwoTier(planes, 2, 2, 2, 4);
        if (topology != "fattree" && topology != "clos")
        {
            throw std::invalid_argument("--topology (=" + topology + ") must be clos or fattree");
        }
        Ptr<MrcFabricTopology> topo = MrcClosTopologyHelper().Build(spec);
        if (dst == 0)
        {
            dst = topo->GetHostCount() - 1;
        }
        MrcSrv6RoutingHelper srv6;
        if (usidsPerCarrier)
        {
            srv6.SetUsidsPerCarrier(usidsPerCarrier);
        }
        srv6.SetForceSrh(forceSrh);
        srv6.Install(topo);

        PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                    Inet6SocketAddress(Ipv6Address::GetAny(), 9000));
        ApplicationContainer sink = sinkHelper.Install(topo->GetHost(dst));
        NodeContainer switches = topo->GetAllSwitches();
        for (auto it = switches.Begin(); it != switches.End(); ++it)
        {
            MrcSrv6RoutingHelper::GetSwitchRouting(*it)->TraceConnect("Forward",
                                                                      Names::FindName(*it),
                                                                      MakeCallback(&OnForward));
        }
        if (!pcap.empty())
        {
            PointToPointHelper p2p;
            for (const MrcFabricLink& l : topo->GetLinks())
            {
                p2p.EnablePcap(pcap, l.lowerDevice, false, false);
            }
        }

        // One packet per EV of every plane, 10 us apart.
        std::vector<MrcSrv6Path> paths;
        Time at = MicroSeconds(10);
        for (uint32_t p = 0; p < spec.planes; ++p)
        {
            for (uint32_t ev : srv6.GetEvs(src, dst, p))
            {
                paths.push_back(srv6.GetPath(src, dst, ev));
                const uint16_t index = paths.size() - 1;
                Simulator::Schedule(at, [&srv6, src, dst, ev, index]() {
                    Ptr<Packet> packet = Create<Packet>(1000);
                    UdpHeader udp;
                    udp.SetSourcePort(index);
                    udp.SetDestinationPort(9000);
                    packet->AddHeader(udp);
                    srv6.Send(src, dst, ev, packet, kMrcUdpProtocolNumber, MrcDscp::kData);
                });
                at += MicroSeconds(10);
            }
        }
        Simulator::Run();

        std::cout << spec.Describe() << "\nhost " << src << " -> host " << dst << ": "
                  << srv6.GetPathCount(src, dst) << " path(s) per plane\n";
        for (size_t i = 0; i < paths.size(); ++i)
        {
            const MrcSrv6Path& path = paths[i];
            std::cout << "EV 0x" << std::hex << std::setw(8) << std::setfill('0') << path.ev
                      << std::dec << std::setfill(' ') << "  uSIDs";
            for (uint16_t u : path.usids)
            {
                std::cout << " " << std::hex << std::setw(4) << std::setfill('0') << u << std::dec
                          << std::setfill(' ');
            }
            std::cout << "\n  carriers";
            for (const Ipv6Address& c : path.carriers)
            {
                std::cout << " " << c;
            }
            std::cout << "\n  crossed ";
            for (const std::string& s : g_crossed[i])
            {
                std::cout << " " << s;
            }
            std::cout << "\n";
        }
        std::cout << "received by host " << dst << ": "
                  << DynamicCast<PacketSink>(sink.Get(0))->GetTotalRx() << " bytes in "
                  << paths.size() << " packets sent\n";
        Simulator::Destroy();
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
