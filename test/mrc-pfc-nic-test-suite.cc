/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * PFC at the host NIC: an MRC transfer from a host whose NIC port is paused for a known time
 * sends nothing of the paused priority during the pause (the queue pairs are held back, not
 * queued in the host's queue disc) and completes byte for byte afterwards.
 */

#include "mrc-test-bench.h"

#include "ns3/mrc-module.h"
#include "ns3/test.h"
#include "ns3/traffic-control-layer.h"

#include <algorithm>

using namespace ns3;

/**
 * \ingroup mrc-test
 * A two-tier Clos with PfcQueueDiscs and PFC on every device and MRC on the hosts; host 0
 * writes 4 MB to host 3. At 30 us its NIC's MrcPfcPort receives a PAUSE for priority 3 (MRC data,
 * DSCP 26 and retransmissions, DSCP 30) of 65535 quanta: 335.5 us at 100 Gb/s.
 */
class PfcNicPauseTestCase : public TestCase
{
  public:
    PfcNicPauseTestCase()
        : TestCase("a paused host NIC holds its queue pairs back and completes afterwards")
    {
    }

  private:
    static constexpr uint8_t kPriority = 3; //!< MRC data and retransmissions

    void DoRun() override
    {
        MrcClosTopologyHelper topoHelper;
        topoHelper.SetQueueDisc(MrcPortRole::HOST_NIC, MrcPfcHelper::QueueDiscHelper("64MiB"));
        topoHelper.SetQueueDisc(MrcPortRole::HOST_FACING, MrcPfcHelper::QueueDiscHelper());
        topoHelper.SetQueueDisc(MrcPortRole::FABRIC, MrcPfcHelper::QueueDiscHelper());
        Ptr<MrcFabricTopology> topo = topoHelper.Build(MrcClosSpec::TwoTier(1, 2, 2, 2));
        MrcDataPlaneHelper dataPlane;
        dataPlane.Install(topo);
        MrcHelper mrc(topo, dataPlane);
        mrc.Install();
        NodeContainer all(topo->GetHosts(), topo->GetAllSwitches());
        MrcPfcHelper pfc;
        for (auto n = all.Begin(); n != all.End(); ++n)
        {
            for (uint32_t d = 0; d < (*n)->GetNDevices(); ++d)
            {
                if (DynamicCast<PointToPointNetDevice>((*n)->GetDevice(d)))
                {
                    pfc.Install((*n)->GetDevice(d));
                }
            }
        }

        auto [a, b] = mrc.Connect(0, 3);
        a->SetSendCompleteCallback(MakeCallback(&PfcNicPauseTestCase::OnComplete, this));
        std::shared_ptr<std::vector<uint8_t>> region;
        auto expected = mrctest::PostRandom(a, b, {4000000}, 16, region);

        Ptr<NetDevice> nic = topo->GetHostDevice(0, 0);
        Ptr<MrcPfcPort> port = MrcPfcHelper::GetPort(nic);
        DataRateValue rate;
        nic->GetAttribute("DataRate", rate);
        m_pause =
            NanoSeconds(MrcPfcPauseHeader::QuantaToNanoSeconds(0xffff, rate.Get().GetBitRate()));
        MrcPfcPauseHeader header;
        header.SetPauseTime(kPriority, 0xffff);
        Simulator::Schedule(m_pauseAt, &MrcPfcPort::ReceivePause, port, header);

        MrcHelper::GetL4(topo->GetHost(0))
            ->TraceConnectWithoutContext("Tx", MakeCallback(&PfcNicPauseTestCase::OnTx, this));
        Ptr<QueueDisc> qdisc =
            topo->GetHost(0)->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(nic);
        qdisc->TraceConnectWithoutContext("PacketsInQueue",
                                          MakeCallback(&PfcNicPauseTestCase::OnQueue, this));

        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();

        // The largest gap between two data packets leaving the NIC is the pause.
        Time gap;
        Time gapStart;
        for (size_t i = 1; i < m_txTimes.size(); ++i)
        {
            if (m_txTimes[i] - m_txTimes[i - 1] > gap)
            {
                gap = m_txTimes[i] - m_txTimes[i - 1];
                gapStart = m_txTimes[i - 1];
            }
        }
        const Time frame = rate.Get().CalculateBytesTxTime(4200);
        std::clog << "pause " << m_pause.As(Time::US) << ", largest transmit gap "
                  << gap.As(Time::US) << " from " << gapStart.As(Time::US) << ", data packets sent "
                  << m_txTimes.size() << ", max host qdisc packets " << m_maxQueued
                  << " during the pause, " << m_maxQueuedOutside << " outside, holds "
                  << MrcHelper::GetL4(topo->GetHost(0))->GetPort(0)->GetPausedHolds()
                  << ", completed at " << m_completedAt.As(Time::US) << std::endl;
        NS_TEST_ASSERT_MSG_EQ(m_completed, 1u, "the write completes");
        NS_TEST_ASSERT_MSG_EQ((*region == *expected), true, "byte for byte");
        NS_TEST_ASSERT_MSG_EQ(port->GetPausesReceived(kPriority), 1u, "one PAUSE");
        NS_TEST_ASSERT_MSG_EQ(port->GetPausedTime(kPriority), m_pause, "paused 65535 quanta");
        // Nothing of priority 3 starts during the pause: the gap covers it, give or take the
        // packet being serialised when it began.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(gap, m_pause - frame, "no data sent while paused");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(gap, m_pause + frame, "data resumes at the end");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(gapStart, m_pauseAt, "the gap is the pause");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(gapStart + gap, m_pauseAt + m_pause, "the gap is the pause");
        NS_TEST_ASSERT_MSG_GT(m_completedAt, m_pauseAt + m_pause, "still sending when paused");
        // The queue pairs are held back: the host's queue disc holds at most the packet that
        // was on its way when the pause began.
        NS_TEST_ASSERT_MSG_LT_OR_EQ(m_maxQueued, 2u, "host queue disc stays (nearly) empty");
        NS_TEST_ASSERT_MSG_GT(MrcHelper::GetL4(topo->GetHost(0))->GetPort(0)->GetPausedHolds(),
                              0u,
                              "the NIC port held packets back");
        Simulator::Destroy();
        Names::Clear();
    }

    /**
     * MrcL4Protocol Tx of the sending host.
     * \param packet the packet
     * \param header its outer header
     * \param plane its plane
     */
    void OnTx(Ptr<const Packet> packet, const Ipv6Header& header, uint32_t plane)
    {
        if ((header.GetTrafficClass() >> 2) >> 3 == kPriority)
        {
            m_txTimes.push_back(Simulator::Now());
        }
    }

    /**
     * Host queue disc PacketsInQueue.
     * \param before previous value
     * \param after new value
     */
    void OnQueue(uint32_t before, uint32_t after)
    {
        const Time now = Simulator::Now();
        uint32_t& max =
            now > m_pauseAt && now < m_pauseAt + m_pause ? m_maxQueued : m_maxQueuedOutside;
        max = std::max(max, after);
    }

    /// \param msn the completed message
    void OnComplete(uint32_t msn)
    {
        m_completed++;
        m_completedAt = Simulator::Now();
    }

    Time m_pauseAt{MicroSeconds(30)}; //!< when the PAUSE arrives
    Time m_pause;                     //!< its duration
    std::vector<Time> m_txTimes;      //!< data packets started by the NIC
    uint32_t m_maxQueued{0};          //!< host queue disc packets during the pause
    uint32_t m_maxQueuedOutside{0};   //!< and outside it
    uint32_t m_completed{0};          //!< messages completed
    Time m_completedAt;               //!< when
};

/**
 * \ingroup mrc-test
 * PFC at host NICs.
 */
class MrcPfcNicTestSuite : public TestSuite
{
  public:
    MrcPfcNicTestSuite()
        : TestSuite("mrc-pfc-nic", Type::UNIT)
    {
        AddTestCase(new PfcNicPauseTestCase);
    }
};

/// The suite's instance.
static MrcPfcNicTestSuite g_mrcPfcNicTestSuite;
