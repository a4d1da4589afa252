/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A real PFC deadlock: a ring of four switches whose flows all turn the same way forms a
 * cyclic buffer dependency; with PFC the ring stalls for good, and the PFC watchdog breaks
 * the cycle.
 */

#include "mrc-pfc-test-bench.h"

#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/test.h"

using namespace ns3;
using namespace ns3::pfctest;

/**
 * \ingroup mrc-test
 * Switches S0..S3 in a ring (S_i -> S_i+1, 100 Gb/s, 1 us), host H_i on S_i. Static routes
 * send everything clockwise; H_i sends 2000 lossless datagrams to H_i+2 at once. Every ring
 * link carries two flows at line rate (H_i's first hop, H_i-1's second), so every ring egress
 * queue grows, every switch pauses the previous one, and the four pauses wait on each other:
 * the packets that hold S_i+1's ingress from S_i above XON can only leave through S_i+1's
 * paused egress. Optionally the switches run the PFC watchdog (WatchdogTime 1 ms).
 */
class PfcRingDeadlockTestCase : public TestCase
{
  public:
    /// \param action "" (no watchdog), "forward" or "drop"
    explicit PfcRingDeadlockTestCase(const std::string& action)
        : TestCase(action.empty() ? "a 4-switch ring with cyclic flows deadlocks under PFC"
                                  : "the PFC watchdog (" + action + ") breaks a ring deadlock")
        , m_action(action)
    {
    }

  private:
    static constexpr uint32_t kSwitches = 4;   //!< ring size
    static constexpr uint32_t kPackets = 2000; //!< per flow
    static constexpr uint8_t kPriority = 3;    //!< lossless

    void DoRun() override
    {
        NodeContainer switches;
        NodeContainer hosts;
        switches.Create(kSwitches);
        hosts.Create(kSwitches);
        InternetStackHelper stack;
        stack.SetIpv6StackInstall(false);
        stack.Install(switches);
        stack.Install(hosts);
        MrcPfcHelper hostPfc;
        MrcPfcHelper switchPfc;
        if (!m_action.empty())
        {
            switchPfc.SetPortAttribute("WatchdogTime", TimeValue(MilliSeconds(1)));
            switchPfc.SetPortAttribute("WatchdogAction", StringValue(m_action));
        }
        Ipv4AddressHelper address;
        std::vector<NetDeviceContainer> hostLinks;
        std::vector<NetDeviceContainer> ringLinks;
        std::vector<Ipv4InterfaceContainer> hostIfs;
        std::vector<Ipv4InterfaceContainer> ringIfs;
        for (uint32_t i = 0; i < kSwitches; ++i)
        {
            NetDeviceContainer h = PfcChain::Link(hosts.Get(i), switches.Get(i), "100Gbps");
            NetDeviceContainer r =
                PfcChain::Link(switches.Get(i), switches.Get((i + 1) % kSwitches), "100Gbps");
            MrcPfcHelper::QueueDiscHelper("64MiB").Install(h.Get(0));
            MrcPfcHelper::QueueDiscHelper("128KiB").Install(h.Get(1));
            MrcPfcHelper::QueueDiscHelper("128KiB").Install(r);
            hostPfc.Install(h.Get(0));
            switchPfc.Install(h.Get(1));
            switchPfc.Install(r);
            address.SetBase(("10.1." + std::to_string(i) + ".0").c_str(), "255.255.255.0");
            hostIfs.push_back(address.Assign(h));
            address.SetBase(("10.2." + std::to_string(i) + ".0").c_str(), "255.255.255.0");
            ringIfs.push_back(address.Assign(r));
            hostLinks.push_back(h);
            ringLinks.push_back(r);
        }
        Ipv4StaticRoutingHelper routing;
        for (uint32_t i = 0; i < kSwitches; ++i)
        {
            Ptr<Ipv4> hostIp = hosts.Get(i)->GetObject<Ipv4>();
            routing.GetStaticRouting(hostIp)->SetDefaultRoute(
                hostIfs[i].GetAddress(1),
                hostIp->GetInterfaceForDevice(hostLinks[i].Get(0)));
            Ptr<Ipv4> ip = switches.Get(i)->GetObject<Ipv4>();
            const uint32_t cw = ip->GetInterfaceForDevice(ringLinks[i].Get(0));
            for (uint32_t k = 0; k < kSwitches; ++k)
            {
                if (k != i)
                {
                    routing.GetStaticRouting(ip)->AddNetworkRouteTo(
                        Ipv4Address(("10.1." + std::to_string(k) + ".0").c_str()),
                        Ipv4Mask("255.255.255.0"),
                        ringIfs[i].GetAddress(1),
                        cw);
                }
            }
        }
        std::vector<Ptr<PacketSink>> sinks;
        for (uint32_t i = 0; i < kSwitches; ++i)
        {
            sinks.push_back(Sink(hosts.Get(i), kLosslessPort));
            Simulator::Schedule(MicroSeconds(10),
                                &SendBurst,
                                hosts.Get(i),
                                hostIfs[(i + 2) % kSwitches].GetAddress(0),
                                kLosslessPort,
                                kLosslessDscp,
                                kPackets);
        }
        auto received = [&sinks]() {
            uint64_t rx = 0;
            for (const auto& s : sinks)
            {
                rx += s->GetTotalRx();
            }
            return rx;
        };
        uint64_t rxAt10 = 0;
        Simulator::Schedule(MilliSeconds(10), [&]() {
            rxAt10 = received();
        });
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();

        const uint64_t sent = uint64_t(kSwitches) * kPackets * kPayload;
        uint64_t triggers = 0;
        uint64_t watchdogDrops = 0;
        uint32_t ringPaused = 0;
        uint64_t backlog = 0;
        for (uint32_t i = 0; i < kSwitches; ++i)
        {
            Ptr<NetDevice> cw = ringLinks[i].Get(0);
            ringPaused += MrcPfcHelper::GetPort(cw)->IsPaused(kPriority) ? 1 : 0;
            for (uint32_t d = 0; d < switches.Get(i)->GetNDevices(); ++d)
            {
                Ptr<NetDevice> dev = switches.Get(i)->GetDevice(d);
                if (Ptr<MrcPfcPort> port = MrcPfcHelper::GetPort(dev))
                {
                    triggers += port->GetWatchdogTriggers(kPriority);
                    backlog += port->GetIngressBytes(kPriority);
                    Ptr<QueueDisc> q =
                        switches.Get(i)->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(
                            dev);
                    watchdogDrops +=
                        q->GetStats().GetNDroppedPackets(MrcPfcQueueDisc::kDropWatchdog);
                }
            }
        }
        const uint64_t rx = received();
        std::clog << "ring" << (m_action.empty() ? "" : " watchdog " + m_action) << ": sent "
                  << sent << " B, received " << rxAt10 << " B at 10 ms, " << rx
                  << " B at 20 ms, ring ports paused at the end " << ringPaused << ", backlog "
                  << backlog << " B, watchdog triggers " << triggers << ", watchdog drops "
                  << watchdogDrops << std::endl;
        if (m_action.empty())
        {
            NS_TEST_ASSERT_MSG_LT(rx, sent / 2, "deadlocked: most of the data never arrives");
            NS_TEST_ASSERT_MSG_EQ(rx, rxAt10, "nothing moves between 10 and 20 ms");
            NS_TEST_ASSERT_MSG_EQ(ringPaused, kSwitches, "every ring port paused");
            NS_TEST_ASSERT_MSG_EQ(triggers, 0u, "no watchdog");
            NS_TEST_ASSERT_MSG_GT(backlog, 0u, "stuck packets hold the switches' buffers");
        }
        else if (m_action == "forward")
        {
            NS_TEST_ASSERT_MSG_EQ(backlog, 0u, "the buffers drained");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(triggers, 1u, "the watchdog fired");
            NS_TEST_ASSERT_MSG_EQ(rx, sent, "every byte arrives");
            NS_TEST_ASSERT_MSG_EQ(watchdogDrops, 0u, "forwarded");
        }
        else
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(triggers, 1u, "the watchdog fired");
            NS_TEST_ASSERT_MSG_GT(watchdogDrops, 0u, "the stuck packets were dropped");
            NS_TEST_ASSERT_MSG_EQ(backlog, 0u, "their buffer space was released");
            NS_TEST_ASSERT_MSG_EQ(rx + watchdogDrops * kPayload, sent, "delivered or dropped");
        }
        Simulator::Destroy();
    }

    std::string m_action; //!< WatchdogAction, "" for none
};

/**
 * \ingroup mrc-test
 * PFC deadlock on a cyclic buffer dependency.
 */
class MrcPfcDeadlockTestSuite : public TestSuite
{
  public:
    MrcPfcDeadlockTestSuite()
        : TestSuite("mrc-pfc-deadlock", Type::UNIT)
    {
        AddTestCase(new PfcRingDeadlockTestCase(""));
        AddTestCase(new PfcRingDeadlockTestCase("forward"));
        AddTestCase(new PfcRingDeadlockTestCase("drop"));
    }
};

/// The suite's instance.
static MrcPfcDeadlockTestSuite g_mrcPfcDeadlockTestSuite;
