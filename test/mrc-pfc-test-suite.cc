/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Priority flow control (IEEE 802.1Qbb): pause timing at one port, and a line of
 * host -> switch(es) -> host whose last link is 4x slower than the first: with PFC nothing is
 * dropped and the bottleneck never idles, without it packets are dropped; a lossy priority is
 * not paused and keeps flowing; two switch hops spread the pause upstream.
 */

#include "mrc-pfc-test-bench.h"

#include "ns3/double.h"
#include "ns3/mrc-pfc-tag.h"
#include "ns3/packet-sink.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::pfctest;

/**
 * \ingroup mrc-test
 * Transmit side of one port: a PAUSE stops a priority for quanta x 512 bit times, a later
 * frame replaces the running time, an XON resumes at once; paused time is accounted.
 */
class PfcPauseTimingTestCase : public TestCase
{
  public:
    PfcPauseTimingTestCase()
        : TestCase("PAUSE expiry after quanta x 512 bit times, XON, paused time, other priorities")
    {
    }

  private:
    /**
     * \param port a port
     * \param priority priority
     * \param quanta pause time
     */
    static void Pause(Ptr<MrcPfcPort> port, uint8_t priority, uint16_t quanta)
    {
        MrcPfcPauseHeader h;
        h.SetPauseTime(priority, quanta);
        port->ReceivePause(h);
    }

    /**
     * Record the state of the port.
     * \param port the port
     */
    void Probe(Ptr<MrcPfcPort> port)
    {
        m_states.push_back(port->IsPaused(3));
        m_other.push_back(port->IsPaused(1));
    }

    void DoRun() override
    {
        PfcChain chain({"100Gbps"}, true);
        Ptr<MrcPfcPort> port = chain.Port(0, 0);
        // 1000 quanta at 100 Gb/s: 5.12 us.
        Simulator::Schedule(MicroSeconds(1), &Pause, port, 3, 1000);
        Simulator::Schedule(MicroSeconds(6), &PfcPauseTimingTestCase::Probe, this, port);
        Simulator::Schedule(NanoSeconds(6130), &PfcPauseTimingTestCase::Probe, this, port);
        // A long pause, refreshed by a short one (replaces it), then an XON.
        Simulator::Schedule(MicroSeconds(10), &Pause, port, 3, 0xffff);
        Simulator::Schedule(MicroSeconds(11), &Pause, port, 3, 1000); // until 16.12 us
        Simulator::Schedule(MicroSeconds(16), &PfcPauseTimingTestCase::Probe, this, port);
        Simulator::Schedule(MicroSeconds(17), &PfcPauseTimingTestCase::Probe, this, port);
        Simulator::Schedule(MicroSeconds(20), &Pause, port, 3, 0xffff);
        Simulator::Schedule(MicroSeconds(22), &Pause, port, 3, 0); // XON
        Simulator::Schedule(MicroSeconds(23), &PfcPauseTimingTestCase::Probe, this, port);
        Simulator::Stop(MicroSeconds(30));
        Simulator::Run();

        const std::vector<bool> expected{true, false, true, false, false};
        NS_TEST_ASSERT_MSG_EQ(m_states.size(), expected.size(), "probes");
        for (size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(m_states[i], expected[i], "paused at probe " << i);
            NS_TEST_ASSERT_MSG_EQ(m_other[i], false, "priority 1 never paused");
        }
        // 5.12 + 6.12 + 2 us.
        NS_TEST_ASSERT_MSG_EQ(port->GetPausedTime(3), NanoSeconds(5120 + 6120 + 2000), "time");
        NS_TEST_ASSERT_MSG_EQ(port->GetPausedTime(1), Time(0), "priority 1");
        NS_TEST_ASSERT_MSG_EQ(port->GetPausesReceived(3), 5u, "frames counted (XON too)");
        Simulator::Destroy();
    }

    std::vector<bool> m_states; //!< priority 3 paused, per probe
    std::vector<bool> m_other;  //!< priority 1 paused, per probe
};

/**
 * \ingroup mrc-test
 * host -> switch -> host, 100 Gb/s in, 25 Gb/s out, 2000 lossless datagrams at once. With PFC:
 * nothing dropped, every byte arrives, the switch pauses the host and resumes it (XON) so the
 * 25 Gb/s link never idles, the backlog stays within XOFF + headroom. Without: drops.
 */
class PfcLineTestCase : public TestCase
{
  public:
    /// \param pfc PFC on
    explicit PfcLineTestCase(bool pfc)
        : TestCase(pfc ? "100G -> 25G line with PFC: lossless at line rate"
                       : "100G -> 25G line without PFC: drops")
        , m_pfc(pfc)
    {
    }

  private:
    /// \param p a received packet
    void OnRx(Ptr<const Packet> p, const Address&)
    {
        m_lastRx = Simulator::Now();
    }

    void DoRun() override
    {
        const uint32_t count = 2000;
        PfcChain chain({"100Gbps", "25Gbps"}, m_pfc);
        Ptr<PacketSink> sink = Sink(chain.Receiver(), kLosslessPort);
        sink->TraceConnectWithoutContext("Rx", MakeCallback(&PfcLineTestCase::OnRx, this));
        Simulator::Schedule(MicroSeconds(10),
                            &SendBurst,
                            chain.Sender(),
                            chain.ReceiverAddress(),
                            kLosslessPort,
                            kLosslessDscp,
                            count);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();

        const uint64_t sent = uint64_t(count) * kPayload;
        if (!m_pfc)
        {
            const uint64_t drops = chain.Drops();
            NS_TEST_ASSERT_MSG_GT(drops, 1000u, "a 128 KiB queue drops most of a 4:1 burst");
            NS_TEST_ASSERT_MSG_EQ(sink->GetTotalRx() + drops * kPayload, sent, "conservation");
            Simulator::Destroy();
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(chain.Drops(), 0u, "lossless: nothing dropped");
        NS_TEST_ASSERT_MSG_EQ(sink->GetTotalRx(), sent, "every byte arrives");
        // The 25 Gb/s link is busy from the first arrival to the last: 2000 x 1030 B at 25 Gb/s
        // (329.6 ns each, 330 at ns-3's nanosecond resolution: 660 us), plus the start, the
        // first frame's 100G serialisation and two 1 us hops. Measured: exactly this.
        const Time ideal =
            MicroSeconds(10) + Frame("100Gbps") + MicroSeconds(2) + Frame("25Gbps") * count;
        NS_TEST_ASSERT_MSG_GT_OR_EQ(m_lastRx, ideal, "no faster than the bottleneck");
        NS_TEST_ASSERT_MSG_LT(m_lastRx, ideal + MicroSeconds(1), "the bottleneck never idles");

        Ptr<MrcPfcPort> swIn = chain.Port(0, 1); // switch port facing the sender
        Ptr<MrcPfcPort> host = chain.Port(0, 0);
        NS_TEST_ASSERT_MSG_GT(swIn->GetPausesSent(3), 0u, "the switch paused the sender");
        NS_TEST_ASSERT_MSG_GT(swIn->GetXonsSent(3), 0u, "and resumed it with XON");
        NS_TEST_ASSERT_MSG_EQ(host->GetPausesReceived(3),
                              swIn->GetPausesSent(3) + swIn->GetXonsSent(3),
                              "every PAUSE/XON frame arrives");
        NS_TEST_ASSERT_MSG_EQ(swIn->GetIngressBytes(3), 0u, "backlog drained");
        NS_TEST_ASSERT_MSG_GT(swIn->GetMaxIngressBytes(3), swIn->GetXoff(), "XOFF crossed");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(swIn->GetMaxIngressBytes(3),
                                    swIn->GetXoff() + swIn->GetHeadroom(),
                                    "headroom absorbed what was in flight");
        NS_TEST_ASSERT_MSG_EQ(swIn->GetHeadroomOverflows(3), 0u, "no overflow");
        // The sender transmits 2.06 MB at 100 Gb/s (164.8 us) over ~661 us: it is paused for
        // most of the rest.
        const Time paused = host->GetPausedTime(3);
        NS_TEST_ASSERT_MSG_GT(paused, MicroSeconds(400), "sender paused most of the time");
        NS_TEST_ASSERT_MSG_LT(paused, MicroSeconds(500), "but not while it must send");
        NS_TEST_ASSERT_MSG_EQ(host->GetPausedTime(1), Time(0), "other priorities not paused");
        NS_TEST_ASSERT_MSG_EQ(swIn->GetPausesReceived(3),
                              0u,
                              "the sending host never pauses the switch");
        Simulator::Destroy();
    }

    bool m_pfc;    //!< PFC on
    Time m_lastRx; //!< last datagram's arrival
};

/**
 * \ingroup mrc-test
 * The same line with a lossy priority (1) sent alongside the lossless one (3): only priority 3
 * is paused; the sender keeps sending priority 1 while 3 is paused (its queue is empty long
 * before 3's); priority 1 is dropped at the switch, priority 3 is not.
 */
class PfcLossyPriorityTestCase : public TestCase
{
  public:
    PfcLossyPriorityTestCase()
        : TestCase("a lossy priority on the same port is not paused and is dropped, not held")
    {
    }

  private:
    /**
     * \param priority paused priority
     * \param quanta pause time
     */
    void OnPause(uint8_t priority, uint16_t quanta)
    {
        m_pausedPriorities |= 1u << priority;
    }

    /// Look at the sender's queue disc.
    void Probe(Ptr<MrcPfcQueueDisc> q)
    {
        m_losslessQueued = q->GetNPackets(3);
        m_lossyQueued = q->GetNPackets(1);
    }

    void DoRun() override
    {
        const uint32_t count = 2000;
        PfcChain chain({"100Gbps", "25Gbps"}, true);
        Ptr<PacketSink> lossless = Sink(chain.Receiver(), kLosslessPort);
        Ptr<PacketSink> lossy = Sink(chain.Receiver(), kLossyPort);
        chain.Port(0, 0)->TraceConnectWithoutContext(
            "PauseReceived",
            MakeCallback(&PfcLossyPriorityTestCase::OnPause, this));
        for (auto [port, dscp] :
             {std::pair{kLosslessPort, kLosslessDscp}, {kLossyPort, kLossyDscp}})
        {
            Simulator::Schedule(MicroSeconds(10),
                                &SendBurst,
                                chain.Sender(),
                                chain.ReceiverAddress(),
                                port,
                                dscp,
                                count);
        }
        // At 400 us the 25 Gb/s link has carried about 1.2 MB: priority 3 still waits at the
        // sender, paused; priority 1 (served only while 3 is paused) has left already.
        Simulator::Schedule(MicroSeconds(400),
                            &PfcLossyPriorityTestCase::Probe,
                            this,
                            chain.Qdisc(0, 0));
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();

        Ptr<MrcPfcPort> swIn = chain.Port(0, 1);
        Ptr<MrcPfcPort> host = chain.Port(0, 0);
        NS_TEST_ASSERT_MSG_EQ(m_pausedPriorities, 1u << 3, "PAUSE frames name priority 3 only");
        NS_TEST_ASSERT_MSG_EQ(swIn->GetPausesSent(1), 0u, "no pause for the lossy priority");
        NS_TEST_ASSERT_MSG_EQ(host->GetPausedTime(1), Time(0), "lossy priority never paused");
        NS_TEST_ASSERT_MSG_GT(host->GetPausedTime(3), MicroSeconds(100), "lossless paused");
        NS_TEST_ASSERT_MSG_GT(m_losslessQueued, 100u, "priority 3 held at the sender");
        NS_TEST_ASSERT_MSG_EQ(m_lossyQueued, 0u, "priority 1 flowed while 3 was paused");
        NS_TEST_ASSERT_MSG_EQ(lossless->GetTotalRx(), uint64_t(count) * kPayload, "lossless");
        const uint64_t drops = chain.Drops();
        NS_TEST_ASSERT_MSG_GT(drops, 0u, "the lossy priority is dropped at the switch");
        NS_TEST_ASSERT_MSG_EQ(chain.Qdisc(1, 0)->GetStats().nTotalDroppedPackets,
                              drops,
                              "only at the switch's 25G egress");
        NS_TEST_ASSERT_MSG_EQ(lossy->GetTotalRx() + drops * kPayload,
                              uint64_t(count) * kPayload,
                              "lossy: delivered + dropped = sent");
        Simulator::Destroy();
    }

    uint32_t m_pausedPriorities{0}; //!< bit per priority named in a PAUSE at the sender
    uint32_t m_losslessQueued{0};   //!< sender's priority 3 backlog at the probe
    uint32_t m_lossyQueued{99};     //!< sender's priority 1 backlog at the probe
};

/**
 * \ingroup mrc-test
 * Congestion spreading over two switch hops: host -100G- s0 -100G- s1 -25G- host. s1 pauses
 * s0's port towards it; s0's backlog from the host then crosses XOFF and s0 pauses the host.
 * Nothing is dropped and the bottleneck stays busy.
 */
class PfcTwoHopTestCase : public TestCase
{
  public:
    PfcTwoHopTestCase()
        : TestCase("two switch hops: the first-hop switch pauses its upstream too")
    {
    }

  private:
    /// \param p a received packet
    void OnRx(Ptr<const Packet> p, const Address&)
    {
        m_lastRx = Simulator::Now();
    }

    void DoRun() override
    {
        const uint32_t count = 3000;
        PfcChain chain({"100Gbps", "100Gbps", "25Gbps"}, true);
        Ptr<PacketSink> sink = Sink(chain.Receiver(), kLosslessPort);
        sink->TraceConnectWithoutContext("Rx", MakeCallback(&PfcTwoHopTestCase::OnRx, this));
        Simulator::Schedule(MicroSeconds(10),
                            &SendBurst,
                            chain.Sender(),
                            chain.ReceiverAddress(),
                            kLosslessPort,
                            kLosslessDscp,
                            count);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();

        Ptr<MrcPfcPort> host = chain.Port(0, 0);
        Ptr<MrcPfcPort> s0In = chain.Port(0, 1);
        Ptr<MrcPfcPort> s0Out = chain.Port(1, 0);
        Ptr<MrcPfcPort> s1In = chain.Port(1, 1);
        NS_TEST_ASSERT_MSG_EQ(chain.Drops(), 0u, "nothing dropped");
        NS_TEST_ASSERT_MSG_EQ(sink->GetTotalRx(), uint64_t(count) * kPayload, "all delivered");
        NS_TEST_ASSERT_MSG_GT(s1In->GetPausesSent(3), 0u, "s1 pauses s0");
        NS_TEST_ASSERT_MSG_EQ(s0Out->GetPausesReceived(3),
                              s1In->GetPausesSent(3) + s1In->GetXonsSent(3),
                              "s0 receives them");
        NS_TEST_ASSERT_MSG_GT(s0Out->GetPausedTime(3), MicroSeconds(100), "s0's port paused");
        NS_TEST_ASSERT_MSG_GT(s0In->GetPausesSent(3), 0u, "s0 pauses the host in turn");
        NS_TEST_ASSERT_MSG_GT(s0In->GetMaxIngressBytes(3), s0In->GetXoff(), "s0 crossed XOFF");
        NS_TEST_ASSERT_MSG_GT(host->GetPausedTime(3), MicroSeconds(100), "the host paused");
        NS_TEST_ASSERT_MSG_EQ(s0In->GetHeadroomOverflows(3) + s1In->GetHeadroomOverflows(3),
                              0u,
                              "within headroom");
        const Time ideal =
            MicroSeconds(10) + Frame("100Gbps") * 2 + MicroSeconds(3) + Frame("25Gbps") * count;
        NS_TEST_ASSERT_MSG_GT_OR_EQ(m_lastRx, ideal, "no faster than the bottleneck");
        NS_TEST_ASSERT_MSG_LT(m_lastRx, ideal + MicroSeconds(1), "the bottleneck never idles");
        Simulator::Destroy();
    }

    Time m_lastRx; //!< last datagram's arrival
};

/**
 * \ingroup mrc-test
 * Dynamic thresholds: XOFF = alpha x free shared buffer. With a 1 MiB buffer and alpha 1/8 the
 * line's switch pauses when its backlog b exceeds (1 MiB - b) / 8, i.e. b > 116,508 B: well
 * above the static default (64 KiB), still lossless and at line rate.
 */
class PfcDynamicThresholdTestCase : public TestCase
{
  public:
    PfcDynamicThresholdTestCase()
        : TestCase("dynamic thresholds: XOFF is alpha x the free shared buffer")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t count = 2000;
        MrcPfcHelper helper;
        helper.SetPortAttribute("ThresholdMode", StringValue("dynamic"));
        helper.SetPortAttribute("DynamicAlpha", DoubleValue(0.125));
        helper.SetBufferAttribute("Size", UintegerValue(1024 * 1024));
        PfcChain chain({"100Gbps", "25Gbps"}, helper);
        Ptr<PacketSink> sink = Sink(chain.Receiver(), kLosslessPort);
        Simulator::Schedule(MicroSeconds(10),
                            &SendBurst,
                            chain.Sender(),
                            chain.ReceiverAddress(),
                            kLosslessPort,
                            kLosslessDscp,
                            count);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();

        Ptr<MrcPfcPort> swIn = chain.Port(0, 1);
        NS_TEST_ASSERT_MSG_EQ(chain.Drops(), 0u, "nothing dropped");
        NS_TEST_ASSERT_MSG_EQ(sink->GetTotalRx(), uint64_t(count) * kPayload, "all delivered");
        NS_TEST_ASSERT_MSG_EQ(swIn->GetXoff(), 131072u, "empty buffer: XOFF = 1 MiB / 8");
        NS_TEST_ASSERT_MSG_EQ(swIn->GetXon(), 131072u - 18000u, "XON = XOFF - XonOffset");
        NS_TEST_ASSERT_MSG_GT(swIn->GetPausesSent(3), 0u, "paused");
        NS_TEST_ASSERT_MSG_GT(swIn->GetMaxIngressBytes(3), 116508u, "XOFF at (1 MiB - b) / 8");
        NS_TEST_ASSERT_MSG_LT(swIn->GetMaxIngressBytes(3),
                              116508u + swIn->GetHeadroom(),
                              "within headroom");
        NS_TEST_ASSERT_MSG_EQ(swIn->GetHeadroomOverflows(3), 0u, "no overflow");
        Simulator::Destroy();
    }
};

/**
 * \ingroup mrc-test
 * Invalid configurations are refused with the attribute and the accepted range named.
 */
class PfcConfigTestCase : public TestCase
{
  public:
    PfcConfigTestCase()
        : TestCase("invalid PFC attributes and devices are refused, naming what is wrong")
    {
    }

  private:
    /**
     * \param name attribute
     * \param value value
     * \return the error message of Initialize(), or "" if none
     */
    static std::string Error(const std::string& name, const AttributeValue& value)
    {
        Ptr<MrcPfcPort> port = CreateObject<MrcPfcPort>();
        port->SetAttribute(name, value);
        if (name == "DynamicAlpha")
        {
            port->SetAttribute("ThresholdMode", StringValue("dynamic"));
        }
        try
        {
            port->Initialize();
        }
        catch (const std::invalid_argument& e)
        {
            return e.what();
        }
        return "";
    }

    /**
     * \param message an error message
     * \param part what it must contain
     * \return true if it does
     */
    static bool Has(const std::string& message, const std::string& part)
    {
        return message.find(part) != std::string::npos;
    }

    void DoRun() override
    {
        std::string e = Error("LosslessPriorities", StringValue("3,8"));
        NS_TEST_EXPECT_MSG_EQ(Has(e, "LosslessPriorities") && Has(e, "0..7"), true, e);
        e = Error("LosslessPriorities", StringValue("x"));
        NS_TEST_EXPECT_MSG_EQ(Has(e, "LosslessPriorities"), true, e);
        e = Error("ThresholdMode", StringValue("adaptive"));
        NS_TEST_EXPECT_MSG_EQ(Has(e, "ThresholdMode") && Has(e, "\"dynamic\""), true, e);
        e = Error("XonThreshold", UintegerValue(1 << 20));
        NS_TEST_EXPECT_MSG_EQ(Has(e, "XonThreshold") && Has(e, "XoffThreshold"), true, e);
        e = Error("DynamicAlpha", DoubleValue(0));
        NS_TEST_EXPECT_MSG_EQ(Has(e, "DynamicAlpha") && Has(e, "(0, 64]"), true, e);
        e = Error("PauseQuanta", UintegerValue(0));
        NS_TEST_EXPECT_MSG_EQ(Has(e, "PauseQuanta") && Has(e, "1..65535"), true, e);
        NS_TEST_EXPECT_MSG_EQ(Error("LosslessPriorities", StringValue(" 3, 4 ,")), "", "valid");

        Ptr<MrcPfcPort> port = CreateObject<MrcPfcPort>();
        port->SetAttribute("LosslessPriorities", StringValue("0,7"));
        port->Initialize();
        NS_TEST_EXPECT_MSG_EQ(port->IsLossless(0) && port->IsLossless(7) && !port->IsLossless(3),
                              true,
                              "parsed");

        // A device that is not on an MrcFabricChannel is refused.
        Ptr<Node> node = CreateObject<Node>();
        Ptr<PointToPointNetDevice> dev = CreateObject<PointToPointNetDevice>();
        node->AddDevice(dev);
        bool refused = false;
        try
        {
            MrcPfcHelper().Install(dev);
        }
        catch (const std::invalid_argument& ex)
        {
            refused = Has(ex.what(), "MrcFabricChannel");
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "plain device refused");
        Simulator::Destroy();
    }
};

/**
 * \ingroup mrc-test
 * MrcFabricChannel remembers which of its ends have an MrcPfcPort; a port installed after the
 * link has carried frames is seen from the next frame on (its frames get the INGRESS tag the
 * receiving switch charges to the port).
 */
class PfcLateInstallTestCase : public TestCase
{
  public:
    PfcLateInstallTestCase()
        : TestCase("a PFC port installed after the first frames is used from the next frame")
    {
    }

  private:
    /**
     * The receiving device's receive callback.
     * \param device the device
     * \param p the frame
     * \return true
     */
    bool Receive(Ptr<NetDevice> device, Ptr<const Packet> p, uint16_t, const Address&)
    {
        MrcPfcTag tag;
        const bool tagged = p->PeekPacketTag(tag) && tag.GetKind() == MrcPfcTag::Kind::INGRESS;
        m_ingress.push_back(tagged ? std::optional<uint32_t>(tag.GetIfIndex()) : std::nullopt);
        return true;
    }

    void DoRun() override
    {
        NodeContainer nodes(2);
        NetDeviceContainer devices = PfcChain::Link(nodes.Get(0), nodes.Get(1), "100Gbps");
        Ptr<NetDevice> a = devices.Get(0);
        Ptr<NetDevice> b = devices.Get(1);
        b->SetReceiveCallback(MakeCallback(&PfcLateInstallTestCase::Receive, this));
        const auto send = [a, b]() {
            a->Send(Create<Packet>(100), b->GetAddress(), 0x86DD);
        };
        Simulator::Schedule(MicroSeconds(1), send);
        Simulator::Schedule(MicroSeconds(5), [b]() {
            MrcPfcHelper().Install(b);
        });
        Simulator::Schedule(MicroSeconds(10), send);
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_ingress.size(), 2u, "both frames delivered");
        NS_TEST_EXPECT_MSG_EQ(m_ingress[0].has_value(), false, "no PFC port yet: no tag");
        NS_TEST_EXPECT_MSG_EQ(m_ingress[1].has_value(), true, "the new port is seen");
        NS_TEST_EXPECT_MSG_EQ(m_ingress[1].value_or(99), b->GetIfIndex(), "tagged for b's port");
        Simulator::Destroy();
    }

    std::vector<std::optional<uint32_t>> m_ingress; //!< per frame: the INGRESS tag's interface
};

/**
 * \ingroup mrc-test
 * The PFC test suite.
 */
class MrcPfcTestSuite : public TestSuite
{
  public:
    MrcPfcTestSuite()
        : TestSuite("mrc-pfc", Type::UNIT)
    {
        AddTestCase(new PfcConfigTestCase);
        AddTestCase(new PfcPauseTimingTestCase);
        AddTestCase(new PfcLineTestCase(true));
        AddTestCase(new PfcLineTestCase(false));
        AddTestCase(new PfcLossyPriorityTestCase);
        AddTestCase(new PfcTwoHopTestCase);
        AddTestCase(new PfcDynamicThresholdTestCase);
        AddTestCase(new PfcLateInstallTestCase);
    }
};

/// The suite's single instance.
static MrcPfcTestSuite g_mrcPfcTestSuite;
