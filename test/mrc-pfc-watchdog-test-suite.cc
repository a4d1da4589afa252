/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * PFC watchdog: a switch port kept paused by a peer that re-sends PAUSE frames forever (a
 * deadlock stand-in) is declared stuck after WatchdogTime and its traffic flows again
 * (forwarded or dropped, WatchdogAction); without the watchdog it stays paused.
 */

#include "mrc-pfc-test-bench.h"

#include "ns3/mrc-pfc-tag.h"
#include "ns3/nstime.h"
#include "ns3/test.h"

#include <algorithm>
#include <stdexcept>

using namespace ns3;
using namespace ns3::pfctest;

namespace
{

/**
 * The receiving host plays a deadlocked switch: it sends its peer a PAUSE frame for priority
 * 3 (65535 quanta) every 100 us until \p until.
 * \param device the device that sends them
 * \param until last sending time
 */
void
PauseStorm(Ptr<NetDevice> device, Time until)
{
    MrcPfcPauseHeader header;
    header.SetPauseTime(kLosslessDscp >> 3, 0xffff);
    Ptr<Packet> frame = Create<Packet>();
    frame->AddHeader(header);
    frame->AddPacketTag(MrcPfcTag(MrcPfcTag::Kind::PAUSE_FRAME, 0));
    device->Send(frame, device->GetBroadcast(), 0x86DD);
    if (Simulator::Now() + MicroSeconds(100) <= until)
    {
        Simulator::Schedule(MicroSeconds(100), &PauseStorm, device, until);
    }
}

} // namespace

/**
 * \ingroup mrc-test
 * 100G host -> switch -> 100G host with PFC; the receiving host re-sends PAUSE for priority 3
 * from 10 us to 2 ms; the sender bursts 200 lossless datagrams at 20 us. The watchdog, if on,
 * is on the switch's port toward the receiver only (WatchdogTime 500 us, restore 1 ms).
 */
class PfcWatchdogTestCase : public TestCase
{
  public:
    /// What the test runs.
    enum class Mode
    {
        OFF,     //!< no watchdog
        FORWARD, //!< WatchdogAction "forward"
        DROP,    //!< WatchdogAction "drop"
    };

    /// \param mode the watchdog's configuration
    explicit PfcWatchdogTestCase(Mode mode)
        : TestCase(mode == Mode::OFF       ? "watchdog off: a port paused forever stays paused"
                   : mode == Mode::FORWARD ? "watchdog forward: stuck after WatchdogTime, "
                                             "traffic flows again, restored when quiet"
                                           : "watchdog drop: stuck after WatchdogTime, the "
                                             "priority's packets are dropped, upstream resumes")
        , m_mode(mode)
    {
    }

  private:
    static constexpr uint32_t kPackets = 200;     //!< burst
    static constexpr uint8_t kPriority = 3;       //!< lossless
    const Time m_watchdogTime{MicroSeconds(500)}; //!< WatchdogTime
    const Time m_restoreTime{MilliSeconds(1)};    //!< WatchdogRestoreTime
    const Time m_stormEnd{MilliSeconds(2)};       //!< last PAUSE sent

    void DoRun() override
    {
        PfcChain chain({"100Gbps", "100Gbps"}, true);
        Ptr<MrcPfcPort> stuck = chain.Port(1, 0);
        if (m_mode != Mode::OFF)
        {
            stuck->SetAttribute("WatchdogTime", TimeValue(m_watchdogTime));
            stuck->SetAttribute("WatchdogRestoreTime", TimeValue(m_restoreTime));
            stuck->SetAttribute("WatchdogAction",
                                StringValue(m_mode == Mode::DROP ? "drop" : "forward"));
        }
        stuck->TraceConnectWithoutContext("WatchdogTrigger",
                                          MakeCallback(&PfcWatchdogTestCase::OnWatchdog, this));
        stuck->TraceConnectWithoutContext("PauseStateChange",
                                          MakeCallback(&PfcWatchdogTestCase::OnPause, this));
        stuck->TraceConnectWithoutContext(
            "PauseReceived",
            MakeCallback(&PfcWatchdogTestCase::OnPauseReceived, this));
        Ptr<PacketSink> sink = Sink(chain.Receiver(), kLosslessPort);
        Simulator::Schedule(MicroSeconds(10), &PauseStorm, chain.Device(1, 1), m_stormEnd);
        Simulator::Schedule(MicroSeconds(20),
                            &SendBurst,
                            chain.Sender(),
                            chain.ReceiverAddress(),
                            kLosslessPort,
                            kLosslessDscp,
                            kPackets);
        // Checkpoint while the storm still goes on.
        uint64_t rxAtCheck = 0;
        bool pausedAtCheck = false;
        uint64_t triggersAtCheck = 0;
        uint64_t senderQueuedAtCheck = 0;
        Simulator::Schedule(m_stormEnd - MicroSeconds(50), [&]() {
            rxAtCheck = sink->GetTotalRx();
            pausedAtCheck = stuck->IsPaused(kPriority);
            triggersAtCheck = stuck->GetWatchdogTriggers(kPriority);
            senderQueuedAtCheck = chain.Qdisc(0, 0)->GetNPackets();
        });
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();

        const uint64_t dropped =
            chain.Qdisc(1, 0)->GetStats().GetNDroppedPackets(MrcPfcQueueDisc::kDropWatchdog);
        std::clog << "first pause " << m_firstPause.As(Time::US) << ", watchdog at "
                  << m_triggerAt.As(Time::US) << ", restored at " << m_restoreAt.As(Time::US)
                  << ", last PAUSE " << m_lastPause.As(Time::US) << ", rx at checkpoint "
                  << rxAtCheck << " B, final " << sink->GetTotalRx() << " B, watchdog drops "
                  << dropped << ", upstream pauses " << chain.Port(0, 1)->GetPausesSent(kPriority)
                  << std::endl;
        NS_TEST_ASSERT_MSG_GT(stuck->GetPausesReceived(kPriority), 15u, "the storm went on");
        if (m_mode == Mode::OFF)
        {
            NS_TEST_ASSERT_MSG_EQ(triggersAtCheck, 0u, "no watchdog");
            NS_TEST_ASSERT_MSG_EQ(pausedAtCheck, true, "still paused");
            NS_TEST_ASSERT_MSG_EQ(rxAtCheck, 0u, "nothing got through");
            NS_TEST_ASSERT_MSG_GT(senderQueuedAtCheck, 0u, "the sender is held back too");
            NS_TEST_ASSERT_MSG_GT(chain.Port(0, 1)->GetPausesSent(kPriority),
                                  0u,
                                  "upstream paused");
            NS_TEST_ASSERT_MSG_EQ(m_triggerAt.IsZero(), true, "never triggered");
            // After the storm, the last pause expires and everything arrives.
            NS_TEST_ASSERT_MSG_EQ(sink->GetTotalRx(), uint64_t(kPackets) * kPayload, "late");
            NS_TEST_ASSERT_MSG_EQ(chain.Drops(), 0u, "lossless");
            Simulator::Destroy();
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(triggersAtCheck, 1u, "the watchdog fired once");
        NS_TEST_ASSERT_MSG_EQ(stuck->GetWatchdogTriggers(kPriority), 1u, "and only once");
        NS_TEST_ASSERT_MSG_EQ(m_triggerAt, m_firstPause + m_watchdogTime, "after WatchdogTime");
        NS_TEST_ASSERT_MSG_EQ(pausedAtCheck, false, "PAUSE frames ignored while stuck");
        NS_TEST_ASSERT_MSG_EQ(senderQueuedAtCheck, 0u, "the sender drained");
        NS_TEST_ASSERT_MSG_EQ(chain.Port(0, 1)->GetIngressBytes(kPriority), 0u, "backlog freed");
        NS_TEST_ASSERT_MSG_EQ(m_restoreAt, m_lastPause + m_restoreTime, "restored when quiet");
        NS_TEST_ASSERT_MSG_EQ(stuck->IsStuck(kPriority), false, "restored");
        if (m_mode == Mode::FORWARD)
        {
            NS_TEST_ASSERT_MSG_EQ(rxAtCheck, uint64_t(kPackets) * kPayload, "traffic flows");
            NS_TEST_ASSERT_MSG_EQ(chain.Drops(), 0u, "forwarded, not dropped");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(rxAtCheck, 0u, "dropped at the stuck port");
            NS_TEST_ASSERT_MSG_EQ(dropped, kPackets, "every packet dropped by the watchdog");
        }
        Simulator::Destroy();
    }

    /**
     * WatchdogTrigger of the stuck port.
     * \param priority the priority
     * \param on stuck (true) or restored
     */
    void OnWatchdog(uint8_t priority, bool on)
    {
        (on ? m_triggerAt : m_restoreAt) = Simulator::Now();
    }

    /**
     * PauseStateChange of the stuck port.
     * \param priority the priority
     * \param paused paused
     */
    void OnPause(uint8_t priority, bool paused)
    {
        if (paused && m_firstPause.IsZero())
        {
            m_firstPause = Simulator::Now();
        }
    }

    /**
     * PauseReceived of the stuck port.
     * \param priority the priority
     * \param quanta pause time
     */
    void OnPauseReceived(uint8_t priority, uint16_t quanta)
    {
        m_lastPause = Simulator::Now();
    }

    Mode m_mode;       //!< configuration
    Time m_firstPause; //!< the port was first paused
    Time m_triggerAt;  //!< the watchdog fired
    Time m_restoreAt;  //!< the watchdog restored the priority
    Time m_lastPause;  //!< last PAUSE frame received
};

/**
 * \ingroup mrc-test
 * Invalid watchdog attributes are refused, naming the attribute.
 */
class PfcWatchdogConfigTestCase : public TestCase
{
  public:
    PfcWatchdogConfigTestCase()
        : TestCase("invalid watchdog attributes are refused, naming the attribute")
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
        try
        {
            port->SetAttribute(name, value); // WatchdogAction is checked here
            port->Initialize();
        }
        catch (const std::invalid_argument& e)
        {
            return e.what();
        }
        return "";
    }

    void DoRun() override
    {
        auto has = [](const std::string& message, const std::string& part) {
            return message.find(part) != std::string::npos;
        };
        std::string e = Error("WatchdogTime", TimeValue(MicroSeconds(-1)));
        NS_TEST_EXPECT_MSG_EQ(has(e, "WatchdogTime") && has(e, ">= 0"), true, e);
        e = Error("WatchdogRestoreTime", TimeValue(Time(0)));
        NS_TEST_EXPECT_MSG_EQ(has(e, "WatchdogRestoreTime") && has(e, "> 0"), true, e);
        e = Error("WatchdogAction", StringValue("ignore"));
        NS_TEST_EXPECT_MSG_EQ(has(e, "WatchdogAction") && has(e, "\"forward\""), true, e);
        NS_TEST_EXPECT_MSG_EQ(Error("WatchdogAction", StringValue("forward")), "", "valid");
        Ptr<MrcPfcPort> port = CreateObject<MrcPfcPort>();
        port->Initialize();
        NS_TEST_EXPECT_MSG_EQ((port->GetWatchdogAction() == MrcPfcPort::WatchdogAction::DROP),
                              true,
                              "default drop");
        TimeValue t;
        port->GetAttribute("WatchdogTime", t);
        NS_TEST_EXPECT_MSG_EQ(t.Get().IsZero(), true, "off by default");
        Simulator::Destroy();
    }
};

/**
 * \ingroup mrc-test
 * The PFC watchdog.
 */
class MrcPfcWatchdogTestSuite : public TestSuite
{
  public:
    MrcPfcWatchdogTestSuite()
        : TestSuite("mrc-pfc-watchdog", Type::UNIT)
    {
        AddTestCase(new PfcWatchdogConfigTestCase);
        AddTestCase(new PfcWatchdogTestCase(PfcWatchdogTestCase::Mode::OFF));
        AddTestCase(new PfcWatchdogTestCase(PfcWatchdogTestCase::Mode::FORWARD));
        AddTestCase(new PfcWatchdogTestCase(PfcWatchdogTestCase::Mode::DROP));
    }
};

/// The suite's instance.
static MrcPfcWatchdogTestSuite g_mrcPfcWatchdogTestSuite;
