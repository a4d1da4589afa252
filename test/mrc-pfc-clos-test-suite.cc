/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * PFC on a fabric built by ClosTopologyHelper (IPv6, per-flow ECMP): an 8-to-1 incast of
 * line-rate UDP on a lossless priority loses nothing with PFC and loses packets without it.
 */

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
#include "ns3/uinteger.h"

#include <algorithm>

using namespace ns3;

/**
 * \ingroup mrc-test
 * 8-to-1 incast on a two-tier Clos, every port a PfcQueueDisc; the UDP traffic (DSCP 0,
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
        ClosTopologyHelper topoHelper;
        topoHelper.SetQueueDisc(PortRole::HOST_NIC, PfcHelper::QueueDiscHelper("64MiB"));
        topoHelper.SetQueueDisc(PortRole::HOST_FACING, PfcHelper::QueueDiscHelper());
        topoHelper.SetQueueDisc(PortRole::FABRIC, PfcHelper::QueueDiscHelper());
        Ptr<FabricTopology> topo = topoHelper.Build(ClosSpec::TwoTier(1, 2, 8, 4));
        EcmpRoutingHelper().Install(*topo);
        NodeContainer all(topo->GetHosts(), topo->GetAllSwitches());
        uint32_t ports = 0;
        if (m_pfc)
        {
            PfcHelper pfc;
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
            Config::ConnectWithoutContext("/NodeList/*/DeviceList/*/$ns3::PfcPort/PauseSent",
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

        const uint64_t drops = FabricQueueStats::Sum(all).droppedPackets;
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
                    if (Ptr<PfcPort> port = PfcHelper::GetPort((*n)->GetDevice(d)))
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
                hostPaused += PfcHelper::GetPort(topo->GetHostDevice(s, 0))->GetPausedTime(0);
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
 * PFC on a ClosTopologyHelper fabric.
 */
class MrcPfcClosTestSuite : public TestSuite
{
  public:
    MrcPfcClosTestSuite()
        : TestSuite("mrc-pfc-clos", Type::SYSTEM)
    {
        AddTestCase(new PfcClosIncastTestCase(true));
        AddTestCase(new PfcClosIncastTestCase(false));
    }
};

/// The suite's single instance.
static MrcPfcClosTestSuite g_mrcPfcClosTestSuite;
