/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * PFC on a fabric built by MrcClosTopologyHelper (IPv6, per-flow ECMP): an 8-to-1 incast of
 * line-rate UDP on a lossless priority loses nothing with PFC and loses packets without it;
 * MrcClusterScenario's roce-pfc fabric on a single plane runs a training job without a drop,
 * pauses, and reports every port's PFC counters (pfc.csv, summary.json).
 */

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/mrc-module.h"
#include "ns3/names.h"
#include "ns3/on-off-helper.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

using namespace ns3;

/**
 * \ingroup mrc-test
 * 8-to-1 incast on a two-tier Clos, every port an MrcPfcQueueDisc; the UDP traffic (DSCP 0,
 * priority 0) is made the lossless class.
 */
class PfcClosIncastTestCase : public TestCase
{
  public:
    /// \param pfc PFC on every fabric device
    explicit PfcClosIncastTestCase(bool pfc)
        : TestCase(pfc ? "8-to-1 incast on a Clos with PFC: nothing lost, senders paused"
                       : "8-to-1 incast on a Clos without PFC: drops")
        , m_pfc(pfc)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t senders = 8;
        const uint32_t packets = 50;
        const uint32_t payload = 4096;
        MrcClosTopologyHelper topoHelper;
        topoHelper.SetQueueDisc(MrcPortRole::HOST_NIC, MrcPfcHelper::QueueDiscHelper("64MiB"));
        topoHelper.SetQueueDisc(MrcPortRole::HOST_FACING, MrcPfcHelper::QueueDiscHelper());
        topoHelper.SetQueueDisc(MrcPortRole::FABRIC, MrcPfcHelper::QueueDiscHelper());
        Ptr<MrcFabricTopology> topo = topoHelper.Build(MrcClosSpec::TwoTier(1, 2, 8, 4));
        MrcEcmpRoutingHelper().Install(*topo);
        NodeContainer all(topo->GetHosts(), topo->GetAllSwitches());
        uint32_t ports = 0;
        if (m_pfc)
        {
            MrcPfcHelper pfc;
            pfc.SetPortAttribute("LosslessPriorities", StringValue("0"));
            for (auto n = all.Begin(); n != all.End(); ++n)
            {
                for (uint32_t d = 0; d < (*n)->GetNDevices(); ++d)
                {
                    if (DynamicCast<PointToPointNetDevice>((*n)->GetDevice(d)))
                    {
                        pfc.Install((*n)->GetDevice(d));
                        ++ports;
                    }
                }
            }
            // Every port's PauseSent, through the Config path the documentation gives.
            Config::ConnectWithoutContext("/NodeList/*/DeviceList/*/$ns3::MrcPfcPort/PauseSent",
                                          MakeCallback(&PfcClosIncastTestCase::OnPauseSent, this));
        }

        PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                    Inet6SocketAddress(Ipv6Address::GetAny(), 9000));
        Ptr<PacketSink> sink = DynamicCast<PacketSink>(sinkHelper.Install(topo->GetHost(0)).Get(0));
        for (uint32_t s = 1; s <= senders; ++s)
        {
            OnOffHelper onoff("ns3::UdpSocketFactory",
                              Inet6SocketAddress(topo->GetHostAddress(0, 0), 9000));
            onoff.SetConstantRate(DataRate("98Gbps"), payload);
            onoff.SetAttribute("MaxBytes", UintegerValue(packets * payload));
            onoff.Install(topo->GetHost(s)).Start(MicroSeconds(s % 7));
        }
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();

        const uint64_t drops = MrcFabricQueueStats::Sum(all).droppedPackets;
        const uint64_t sent = uint64_t(senders) * packets * payload;
        if (!m_pfc)
        {
            NS_TEST_ASSERT_MSG_GT(drops, 0u, "an 8:1 incast overflows 512 KiB");
            NS_TEST_ASSERT_MSG_EQ(sink->GetTotalRx() + drops * payload, sent, "lost = dropped");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(ports, 2 * topo->GetLinks().size(), "both ends of every link");
            NS_TEST_ASSERT_MSG_EQ(drops, 0u, "lossless");
            NS_TEST_ASSERT_MSG_EQ(sink->GetTotalRx(), sent, "every byte arrives");
            uint64_t pauses = 0;
            uint64_t xons = 0;
            uint64_t overflows = 0;
            Time hostPaused;
            for (auto n = all.Begin(); n != all.End(); ++n)
            {
                for (uint32_t d = 0; d < (*n)->GetNDevices(); ++d)
                {
                    if (Ptr<MrcPfcPort> port = MrcPfcHelper::GetPort((*n)->GetDevice(d)))
                    {
                        pauses += port->GetPausesSent(0);
                        xons += port->GetXonsSent(0);
                        overflows += port->GetHeadroomOverflows(0);
                        NS_TEST_ASSERT_MSG_EQ(port->GetIngressBytes(0), 0u, "backlog drained");
                    }
                }
            }
            for (uint32_t s = 1; s <= senders; ++s)
            {
                hostPaused += MrcPfcHelper::GetPort(topo->GetHostDevice(s, 0))->GetPausedTime(0);
            }
            NS_TEST_ASSERT_MSG_GT(pauses, 0u, "switches sent PAUSE frames");
            NS_TEST_ASSERT_MSG_EQ(m_tracedPauses, pauses, "PauseSent traced via Config");
            NS_TEST_ASSERT_MSG_EQ(m_tracedXons, xons, "XON frames traced via Config");
            NS_TEST_ASSERT_MSG_EQ(overflows, 0u, "within headroom");
            NS_TEST_ASSERT_MSG_GT(hostPaused, MicroSeconds(100), "senders were paused");
        }
        Simulator::Destroy();
        Names::Clear();
    }

    /**
     * PauseSent of any port.
     * \param priority the priority
     * \param quanta the pause time (0: XON)
     */
    void OnPauseSent(uint8_t priority, uint16_t quanta)
    {
        (quanta > 0 ? m_tracedPauses : m_tracedXons)++;
    }

    bool m_pfc;                 //!< PFC on
    uint64_t m_tracedPauses{0}; //!< PAUSE frames seen by the trace
    uint64_t m_tracedXons{0};   //!< XON frames seen by the trace
};

/**
 * \ingroup mrc-test
 * MrcClusterScenario, Fabric roce-pfc, SinglePlane: 16 hosts, 2 planes of 100G collapsed into
 * one at 200G; XOFF lowered to 16 KiB so that the job's all-to-all fills ingress queues. Every
 * byte arrives exactly once without a retransmission or a queue drop, PAUSE frames were sent
 * and honoured, no headroom overflow, and pfc.csv holds one row per port (both ends of the 32
 * links) whose counters add up to summary.json's.
 */
class PfcClusterScenarioTestCase : public TestCase
{
  public:
    PfcClusterScenarioTestCase()
        : TestCase("roce-pfc cluster scenario on one plane: lossless, paused, reported per port")
    {
    }

  private:
    void DoRun() override
    {
        MrcScopedAttributeDefault xoff("ns3::MrcPfcPort", "XoffThreshold", UintegerValue(16384));
        MrcScopedAttributeDefault xon("ns3::MrcPfcPort", "XonThreshold", UintegerValue(8192));
        Ptr<MrcClusterScenario> s = CreateObject<MrcClusterScenario>();
        s->SetAttribute("Fabric", StringValue("roce-pfc"));
        s->SetAttribute("SinglePlane", BooleanValue(true));
        s->SetAttribute("Planes", UintegerValue(2));
        s->SetAttribute("T0Count", UintegerValue(4));
        s->SetAttribute("HostsPerT0", UintegerValue(4));
        s->SetAttribute("T1Count", UintegerValue(4));
        s->SetAttribute("AllReduceSize", UintegerValue(0));
        s->SetAttribute("AllToAllSize", UintegerValue(1600000));
        s->SetAttribute("AllToAllGroup", UintegerValue(16));
        s->SetAttribute("Iterations", UintegerValue(2));
        s->SetAttribute("VerifyData", BooleanValue(true));
        s->SetAttribute("ShowProgress", BooleanValue(false));
        const std::string dir = CreateTempDirFilename("mrc-pfc-cluster");
        s->SetAttribute("OutputDirectory", StringValue(dir));
        NS_TEST_ASSERT_MSG_EQ(s->GetSpec().planes, 1u, "one plane");
        NS_TEST_ASSERT_MSG_EQ(s->GetKey(), "roce-pfc-1p", "the run's key");
        const MrcScenarioResult r = s->Run();

        NS_TEST_ASSERT_MSG_EQ(r.jobDone && !r.jobFailed, true, "the job completed");
        NS_TEST_ASSERT_MSG_EQ(r.corruptTransfers, 0u, "byte for byte");
        NS_TEST_ASSERT_MSG_EQ(r.bytesDelivered, r.bytesPosted, "exactly once");
        NS_TEST_ASSERT_MSG_EQ(r.queueDrops, 0u, "lossless: no queue drop");
        NS_TEST_ASSERT_MSG_EQ(r.retransmissions, 0u, "nothing to retransmit");
        NS_TEST_ASSERT_MSG_EQ(r.pfcPorts.size(), 64u, "both ends of 32 links, priority 3");
        const MrcPfcPortStats::Totals t = MrcPfcPortStats::Sum(r.pfcPorts);
        NS_TEST_ASSERT_MSG_EQ(t.ports, 64u, "64 ports");
        NS_TEST_ASSERT_MSG_GT(t.pausesSent, 0u, "ingress queues crossed XOFF: PAUSE sent");
        NS_TEST_ASSERT_MSG_GT(t.pausedTime, Time(0), "and honoured");
        NS_TEST_ASSERT_MSG_EQ(t.overflows, 0u, "within headroom");
        for (const auto& row : r.pfcPorts)
        {
            NS_TEST_ASSERT_MSG_EQ(unsigned(row.priority), 3u, "RoCEv2 data: priority 3");
            NS_TEST_ASSERT_MSG_EQ(row.plane, 0u, "one plane");
        }

        std::ifstream csv(dir + "/pfc.csv");
        std::string line;
        std::getline(csv, line);
        NS_TEST_ASSERT_MSG_EQ(line.rfind("node,peer,tier,plane,priority,pauses_sent,", 0),
                              0u,
                              "pfc.csv header");
        uint64_t rows = 0;
        uint64_t pauses = 0;
        while (std::getline(csv, line))
        {
            std::vector<std::string> f;
            std::stringstream ss(line);
            for (std::string x; std::getline(ss, x, ',');)
            {
                f.push_back(x);
            }
            NS_TEST_ASSERT_MSG_EQ(f.size(), 12u, "12 columns: " + line);
            pauses += std::stoull(f.at(5));
            rows++;
        }
        NS_TEST_ASSERT_MSG_EQ(rows, 64u, "one row per port");
        NS_TEST_ASSERT_MSG_EQ(pauses, t.pausesSent, "pfc.csv adds up");
        std::ifstream json(dir + "/summary.json");
        std::ostringstream text;
        text << json.rdbuf();
        NS_TEST_ASSERT_MSG_NE(text.str().find("\"pauses_sent\": " + std::to_string(t.pausesSent)),
                              std::string::npos,
                              "summary.json's pfc object");
    }
};

/**
 * \ingroup mrc-tests
 * SetPfcQueues' switch queue discs take EcnEnabled from the attribute's default, so that
 * --ns3::MrcPfcQueueDisc::EcnEnabled=false turns marking off (it did not while the helper set
 * the attribute explicitly); hosts' NIC queue discs never mark.
 */
class PfcEcnDefaultTestCase : public TestCase
{
  public:
    PfcEcnDefaultTestCase()
        : TestCase("PFC queue discs follow EcnEnabled's default")
    {
    }

  private:
    void DoRun() override
    {
        for (bool ecn : {true, false})
        {
            MrcScopedAttributeDefault scoped("ns3::MrcPfcQueueDisc",
                                             "EcnEnabled",
                                             BooleanValue(ecn));
            MrcClosTopologyHelper helper;
            helper.SetPfcQueues("512KiB");
            Ptr<MrcFabricTopology> topo = helper.Build(MrcClosSpec::TwoTier(1, 2, 2, 1));
            uint32_t switchDiscs = 0;
            uint32_t hostDiscs = 0;
            NodeContainer all(topo->GetHosts(), topo->GetAllSwitches());
            for (auto n = all.Begin(); n != all.End(); ++n)
            {
                const bool isHost = n - all.Begin() < topo->GetHosts().GetN();
                Ptr<TrafficControlLayer> tc = (*n)->GetObject<TrafficControlLayer>();
                for (uint32_t d = 0; d < (*n)->GetNDevices(); ++d)
                {
                    Ptr<QueueDisc> q = tc->GetRootQueueDiscOnDevice((*n)->GetDevice(d));
                    if (!DynamicCast<MrcPfcQueueDisc>(q))
                    {
                        continue;
                    }
                    BooleanValue marks;
                    q->GetAttribute("EcnEnabled", marks);
                    const bool expected = !isHost && ecn; // a host's NIC never marks
                    const std::string where = isHost ? "host NIC" : "switch port";
                    NS_TEST_EXPECT_MSG_EQ(marks.Get(), expected, where << ", default " << ecn);
                    ++(isHost ? hostDiscs : switchDiscs);
                }
            }
            NS_TEST_EXPECT_MSG_EQ(hostDiscs, 4u, "one NIC port per host (4 hosts)");
            NS_TEST_EXPECT_MSG_EQ(switchDiscs, 12u, "4 host-facing + 2 x 2 x 2 fabric ports");
            Simulator::Destroy();
            Names::Clear();
        }
    }
};

/**
 * \ingroup mrc-test
 * PFC on an MrcClosTopologyHelper fabric.
 */
class MrcPfcClosTestSuite : public TestSuite
{
  public:
    MrcPfcClosTestSuite()
        : TestSuite("mrc-pfc-clos", Type::SYSTEM)
    {
        AddTestCase(new PfcClosIncastTestCase(true));
        AddTestCase(new PfcClosIncastTestCase(false));
        AddTestCase(new PfcClusterScenarioTestCase);
        AddTestCase(new PfcEcnDefaultTestCase);
    }
};

/// The suite's single instance.
static MrcPfcClosTestSuite g_mrcPfcClosTestSuite;
