/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup mrc-test
 * MrcDeviceTxQueue: a wake announced by the device runs the queue disc when the frame starts,
 * without an event; any other wake is an event; its flow control stops and wakes as ns-3's;
 * and a fabric gives the same simulation either way, with fewer events, on every ns-3
 * version.
 */

#include "mrc-test-bench.h"

#include "ns3/boolean.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/dynamic-queue-limits.h"
#include "ns3/mac48-address.h"
#include "ns3/mrc-device-tx-queue.h"
#include "ns3/mrc-fabric-channel.h"
#include "ns3/mrc-fabric-net-device.h"
#include "ns3/mrc-pfc-device-queue.h"
#include "ns3/mrc-pfc-tag.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node-list.h"
#include "ns3/object-factory.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/simple-net-device.h"
#include "ns3/test.h"
#include "ns3/traffic-control-layer.h"

#include <vector>

using namespace ns3;
using namespace ns3::mrctest;

namespace
{

/**
 * \ingroup mrc-test
 * The wake rules on a queue alone (the queue disc's Run replaced by a counter).
 */
class DeviceTxQueueWakeTestCase : public TestCase
{
  public:
    DeviceTxQueueWakeTestCase()
        : TestCase("MrcDeviceTxQueue: announced wakes run at the frame start, others by event")
    {
    }

  private:
    /// The "queue disc" ran.
    void Woken()
    {
        m_runs++;
    }

    /**
     * \param immediate ImmediateWake
     * \return a stopped queue whose wake counts in m_runs
     */
    Ptr<MrcDeviceTxQueue> Make(bool immediate)
    {
        Ptr<MrcDeviceTxQueue> q =
            CreateObjectWithAttributes<MrcDeviceTxQueue>("ImmediateWake", BooleanValue(immediate));
        q->SetWakeCallback(MakeCallback(&DeviceTxQueueWakeTestCase::Woken, this));
        q->Stop();
        return q;
    }

    void DoRun() override
    {
        // Announced: no event, the run happens at the frame start, once.
        Ptr<MrcDeviceTxQueue> q = Make(true);
        q->SetFrameStartFollows(true);
        q->Wake();
        NS_TEST_ASSERT_MSG_EQ(q->IsStopped(), false, "woken: not stopped");
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 0u, "no event: nothing ran before the frame start");
        q->NotifyFrameStarted();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 1u, "the frame start ran the queue disc");
        q->NotifyFrameStarted();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 1u, "once");
        NS_TEST_ASSERT_MSG_EQ(q->GetImmediateWakes(), 1u, "counted");

        // Not announced (a dequeue by anyone but the device): an event, nothing left.
        q->Stop();
        q->Wake();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 1u, "not at once");
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 2u, "the event ran it");
        q->NotifyFrameStarted();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 2u, "no second run at the next frame start");

        // Announced, then the device empties its queue without a frame (carrier lost).
        q->Stop();
        q->SetFrameStartFollows(true);
        q->Wake();
        q->FlushPendingWake();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 3u, "a flushed wake still runs, by event");

        // A wake while not stopped runs nothing (as ns-3's).
        q->SetFrameStartFollows(true);
        q->Wake();
        q->NotifyFrameStarted();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 3u, "not stopped: no run");

        // ImmediateWake=false: ns-3's event even when announced.
        Ptr<MrcDeviceTxQueue> stock = Make(false);
        stock->SetFrameStartFollows(true);
        stock->Wake();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 3u, "ImmediateWake=false: not before its event");
        stock->NotifyFrameStarted();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 3u, "ImmediateWake=false: not at the frame start");
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 4u, "its event ran it");
        NS_TEST_ASSERT_MSG_EQ(stock->GetImmediateWakes(), 0u, "none immediate");
        Simulator::Destroy();
    }

    uint32_t m_runs{0}; //!< queue disc runs
};

/**
 * \ingroup mrc-test
 * Frames announced with their duration (MrcFabricChannel's NotifyFrameStart): once the frame
 * is complete, a dequeue is TransmitComplete's and its wake waits for the next frame start;
 * during the frame, or while the device discards its queue, a wake is an event.
 */
class DeviceTxQueueFrameEndTestCase : public TestCase
{
  public:
    DeviceTxQueueFrameEndTestCase()
        : TestCase("MrcDeviceTxQueue: after a frame's announced end a wake waits for the next "
                   "frame start; during it, or while discarding, it is an event")
    {
    }

  private:
    /// The "queue disc" ran.
    void Woken()
    {
        m_runs++;
    }

    /**
     * Stop the queue, then wake it.
     * \param q the queue
     */
    static void StopAndWake(Ptr<MrcDeviceTxQueue> q)
    {
        q->Stop();
        q->Wake();
    }

    void DoRun() override
    {
        Ptr<MrcDeviceTxQueue> q = CreateObject<MrcDeviceTxQueue>();
        q->SetWakeCallback(MakeCallback(&DeviceTxQueueFrameEndTestCase::Woken, this));

        // Before any frame is announced a wake is an event.
        StopAndWake(q);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 1u, "before the first frame: by event");

        // A frame of 100 ns starts at 0: a wake during it is an event.
        q->NotifyFrameStarted(NanoSeconds(100));
        Simulator::Schedule(NanoSeconds(50), &DeviceTxQueueFrameEndTestCase::StopAndWake, q);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 2u, "during the frame: by event");

        // At its end (TransmitComplete's dequeue), the wake waits for the next frame start.
        Simulator::Schedule(NanoSeconds(50), &DeviceTxQueueFrameEndTestCase::StopAndWake, q);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(Simulator::Now(), NanoSeconds(100), "at the frame's end");
        NS_TEST_ASSERT_MSG_EQ(m_runs, 2u, "no event: waits for the frame start");
        q->NotifyFrameStarted(NanoSeconds(100));
        NS_TEST_ASSERT_MSG_EQ(m_runs, 3u, "run at the next frame start");
        NS_TEST_ASSERT_MSG_EQ(q->GetImmediateWakes(), 1u, "one immediate wake");

        // After that frame's end, but discarding (carrier lost): an event.
        Simulator::Schedule(NanoSeconds(100), [q]() {
            q->SetDiscarding(true);
            StopAndWake(q);
            q->SetDiscarding(false);
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 4u, "discarding: by event");
        NS_TEST_ASSERT_MSG_EQ(q->GetImmediateWakes(), 1u, "still one immediate wake");

        // A frame of unknown duration (a device on another channel): only announcements count.
        q->NotifyFrameStarted();
        Simulator::Schedule(Seconds(1), &DeviceTxQueueFrameEndTestCase::StopAndWake, q);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 5u, "unknown duration: by event");
        Simulator::Destroy();
    }

    uint32_t m_runs{0}; //!< queue disc runs
};

/**
 * \ingroup mrc-test
 * The flow control ConnectDeviceQueue installs on a device queue: stop when full, wake when a
 * dequeue makes room (at the frame start if announced), byte queue limits informed by event.
 */
class DeviceTxQueueFlowControlTestCase : public TestCase
{
  public:
    /**
     * \param queueType the device queue: ns3::DropTailQueue<Packet> (flow control through
     * its traces) or ns3::MrcPfcDeviceQueue (which calls the flow control itself)
     */
    explicit DeviceTxQueueFlowControlTestCase(const std::string& queueType)
        : TestCase("MrcDeviceTxQueue on " + queueType
                   + ": stops on a full device queue, wakes when a dequeue makes room, never "
                     "runs the queue disc inside a dequeue")
        , m_queueType(queueType)
    {
    }

  private:
    /// The "queue disc" ran.
    void Woken()
    {
        m_runs++;
    }

    void DoRun() override
    {
        Ptr<SimpleNetDevice> device = CreateObject<SimpleNetDevice>();
        ObjectFactory factory(m_queueType);
        factory.Set("MaxSize", QueueSizeValue(QueueSize("3p")));
        Ptr<Queue<Packet>> queue = factory.Create<Queue<Packet>>();
        Ptr<MrcDeviceTxQueue> q = CreateObject<MrcDeviceTxQueue>();
        q->SetWakeCallback(MakeCallback(&DeviceTxQueueFlowControlTestCase::Woken, this));
        q->ConnectDeviceQueue(device, queue);

        queue->Enqueue(Create<Packet>(100));
        queue->Enqueue(Create<Packet>(100));
        NS_TEST_ASSERT_MSG_EQ(q->IsStopped(), false, "room for one more: running");
        queue->Enqueue(Create<Packet>(100));
        NS_TEST_ASSERT_MSG_EQ(q->IsStopped(), true, "full: stopped");

        // A dequeue by someone else than an announcing device: the run is an event.
        queue->Dequeue();
        NS_TEST_ASSERT_MSG_EQ(q->IsStopped(), false, "room again: woken");
        NS_TEST_ASSERT_MSG_EQ(m_runs, 0u, "not run inside the dequeue");
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 1u, "run by its event");

        // The device announces its frame: the run waits for the frame start, no event.
        queue->Enqueue(Create<Packet>(100));
        NS_TEST_ASSERT_MSG_EQ(q->IsStopped(), true, "full again");
        q->SetFrameStartFollows(true);
        queue->Dequeue();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 1u, "nothing ran before the frame start");
        q->NotifyFrameStarted();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 2u, "run at the frame start");
        NS_TEST_ASSERT_MSG_EQ(q->GetImmediateWakes(), 1u, "one immediate wake");

        // A dequeue that leaves the queue full enough wakes nothing; a refused packet stops.
        queue->Dequeue();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_runs, 2u, "not stopped: no run");
        queue->Enqueue(Create<Packet>(100));
        queue->Enqueue(Create<Packet>(100));
        q->Start();
        NS_TEST_ASSERT_MSG_EQ(queue->Enqueue(Create<Packet>(100)), false, "the queue refuses");
        NS_TEST_ASSERT_MSG_EQ(q->IsStopped(), true, "a refused packet stops the queue disc");
        if (Ptr<MrcPfcDeviceQueue> pfc = DynamicCast<MrcPfcDeviceQueue>(queue))
        {
            // PAUSE frames go to the control lane, outside flow control: no stop, no wake.
            q->Start();
            Ptr<Packet> pause = Create<Packet>(64);
            pause->AddPacketTag(MrcPfcTag(MrcPfcTag::Kind::PAUSE_FRAME, 0));
            NS_TEST_ASSERT_MSG_EQ(pfc->Enqueue(pause), true, "a PAUSE frame is always taken");
            NS_TEST_ASSERT_MSG_EQ(q->IsStopped(), false, "a PAUSE frame does not stop it");
            q->Stop();
            NS_TEST_ASSERT_MSG_EQ(pfc->Dequeue(), pause, "the PAUSE frame goes first");
            NS_TEST_ASSERT_MSG_EQ(q->IsStopped(), true, "its dequeue wakes nothing");
        }

        // Byte queue limits: told of the bytes sent by event, so their wake is not inside the
        // dequeue either.
        while (!queue->IsEmpty())
        {
            queue->Dequeue();
        }
        Simulator::Run();
        const uint32_t before = m_runs;
        q->SetQueueLimits(CreateObject<DynamicQueueLimits>());
        queue->Enqueue(Create<Packet>(100));
        NS_TEST_ASSERT_MSG_EQ(q->IsStopped(), true, "over the byte limit: stopped");
        queue->Dequeue();
        NS_TEST_ASSERT_MSG_EQ(q->IsStopped(), true, "the byte limit learns by event");
        NS_TEST_ASSERT_MSG_EQ(m_runs, before, "nothing ran inside the dequeue");
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(q->IsStopped(), false, "bytes completed: running");
        NS_TEST_ASSERT_MSG_EQ(m_runs, before + 1, "the byte limit's wake ran");
        Simulator::Destroy();
    }

    std::string m_queueType; //!< the device queue's TypeId name
    uint32_t m_runs{0};      //!< queue disc runs
};

/// What one incast produced.
struct Outcome
{
    std::vector<int64_t> doneNs;  //!< completion times, in order
    uint64_t trims{0};            //!< packets trimmed, all switches
    uint64_t events{0};           //!< events executed
    uint64_t immediate{0};        //!< wakes run without an event, all devices
    bool bytesOk{false};          //!< every byte delivered exactly
    uint32_t txQueues{0};         //!< MrcDeviceTxQueues (fabric devices)
    uint32_t direct{0};           //!< those that run their root queue disc directly
    bool directAfterDelete{true}; //!< one of them, after its root queue disc was deleted
};

/**
 * A 4-to-1 incast across racks over trimming switches (two planes).
 * \param immediate MrcDeviceTxQueue::ImmediateWake
 * \return the outcome
 */
Outcome
RunIncast(bool immediate)
{
    MrcScopedAttributeDefault wake("ns3::MrcDeviceTxQueue",
                                   "ImmediateWake",
                                   BooleanValue(immediate));
    Outcome o;
    Bench b(MrcClosSpec::TwoTier(2, 2, 4, 2), true);
    FourToOneIncast incast;
    incast.Post(b);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    o.events = Simulator::GetEventCount();
    o.bytesOk = incast.BytesOk();
    o.doneNs = incast.doneNs;
    const NodeContainer switches = b.topo->GetAllSwitches();
    for (auto it = switches.Begin(); it != switches.End(); ++it)
    {
        o.trims += SwitchTrims(*it);
    }
    for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
    {
        Ptr<Node> node = NodeList::GetNode(n);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<NetDeviceQueueInterface> ndqi =
                node->GetDevice(d)->GetObject<NetDeviceQueueInterface>();
            if (auto q = ndqi ? DynamicCast<MrcDeviceTxQueue>(ndqi->GetTxQueue(0)) : nullptr)
            {
                o.immediate += q->GetImmediateWakes();
                o.txQueues++;
                o.direct += q->WakesQueueDiscDirectly() ? 1 : 0;
            }
        }
    }
    // Deleting a root queue disc clears the wake callback (ns-3's traffic-control layer): the
    // direct call goes with it.
    Ptr<NetDevice> port = b.topo->GetLinks().front().upperDevice; // a switch's port
    Ptr<MrcDeviceTxQueue> q =
        DynamicCast<MrcDeviceTxQueue>(port->GetObject<NetDeviceQueueInterface>()->GetTxQueue(0));
    if (q && q->WakesQueueDiscDirectly()) // else the counts above fail the test
    {
        port->GetNode()->GetObject<TrafficControlLayer>()->DeleteRootQueueDiscOnDevice(port);
        o.directAfterDelete = q->WakesQueueDiscDirectly();
    }
    return o;
}

/**
 * \ingroup mrc-test
 * Two MrcFabricNetDevices on an MrcFabricChannel (frames announced by the channel) and on a
 * plain PointToPointChannel (the devices' PhyTxBegin and PhyTxEnd traces): a sender that
 * refills the device queue whenever it is woken delivers every packet at the same times, with
 * its wakes run at frame starts, on both.
 */
class DeviceTxQueueChannelTestCase : public TestCase
{
  public:
    DeviceTxQueueChannelTestCase()
        : TestCase("MrcFabricNetDevice: frame starts announced by MrcFabricChannel or by the "
                   "device's traces on another channel drive the same flow control")
    {
    }

  private:
    /// What one run gave.
    struct Run
    {
        std::vector<int64_t> arrivalsNs; //!< arrival times at the receiver
        uint64_t immediate{0};           //!< wakes run at a frame start
        bool direct{true};               //!< the wake ran a queue disc directly
    };

    /// The sending side: a backlog handed to the device while its queue has room.
    struct Sender
    {
        Ptr<MrcFabricNetDevice> device; //!< sending device
        Ptr<MrcDeviceTxQueue> txQueue;  //!< its flow control
        uint32_t backlog{0};            //!< packets left to send

        /// Hand packets to the device until its flow control stops or nothing is left.
        void Pump()
        {
            while (backlog > 0 && !txQueue->IsStopped())
            {
                --backlog;
                device->Send(Create<Packet>(1000), device->GetBroadcast(), 0x86DD);
            }
        }
    };

    /**
     * \param arrivals where to record
     * \param device receiving device
     * \param packet packet
     * \param protocol protocol
     * \param from sender
     * \return true
     */
    static bool Received(std::vector<int64_t>* arrivals,
                         Ptr<NetDevice> device,
                         Ptr<const Packet> packet,
                         uint16_t protocol,
                         const Address& from)
    {
        arrivals->push_back(Simulator::Now().GetNanoSeconds());
        return true;
    }

    /**
     * \param fabricChannel an MrcFabricChannel (else a PointToPointChannel)
     * \return what the run gave
     */
    static Run RunOne(bool fabricChannel)
    {
        Run run;
        Sender sender;
        Ptr<PointToPointChannel> channel =
            fabricChannel ? Ptr<PointToPointChannel>(CreateObject<MrcFabricChannel>())
                          : CreateObject<PointToPointChannel>();
        channel->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
        std::vector<Ptr<MrcFabricNetDevice>> devices;
        for (int i = 0; i < 2; ++i)
        {
            Ptr<Node> node = CreateObject<Node>();
            Ptr<MrcFabricNetDevice> device = CreateObject<MrcFabricNetDevice>();
            device->SetAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
            device->SetAddress(Mac48Address::Allocate());
            node->AddDevice(device);
            Ptr<Queue<Packet>> queue =
                CreateObjectWithAttributes<MrcPfcDeviceQueue>("MaxSize",
                                                              QueueSizeValue(QueueSize("3p")));
            device->SetQueue(queue);
            Ptr<NetDeviceQueueInterface> ndqi = CreateObjectWithAttributes<NetDeviceQueueInterface>(
                "TxQueuesType",
                TypeIdValue(MrcDeviceTxQueue::GetTypeId()));
            Ptr<MrcDeviceTxQueue> txQueue = DynamicCast<MrcDeviceTxQueue>(ndqi->GetTxQueue(0));
            txQueue->ConnectDeviceQueue(device, queue);
            device->AggregateObject(ndqi);
            device->Attach(channel);
            devices.push_back(device);
            if (i == 0)
            {
                sender.device = device;
                sender.txQueue = txQueue;
                txQueue->SetWakeCallback(MakeCallback(&Sender::Pump, &sender));
            }
        }
        devices[1]->SetReceiveCallback(MakeBoundCallback(&Received, &run.arrivalsNs));
        sender.backlog = 20;
        Simulator::Schedule(MicroSeconds(1), &Sender::Pump, &sender);
        Simulator::Run();
        run.immediate = sender.txQueue->GetImmediateWakes();
        run.direct = sender.txQueue->WakesQueueDiscDirectly();
        NS_ASSERT_MSG(sender.backlog == 0, "the sender's backlog is gone");
        Simulator::Destroy();
        return run;
    }

    void DoRun() override
    {
        const Run fabric = RunOne(true);
        const Run plain = RunOne(false);
        NS_TEST_ASSERT_MSG_EQ(fabric.arrivalsNs.size(), 20u, "every packet arrived (fabric)");
        NS_TEST_ASSERT_MSG_EQ(plain.arrivalsNs.size(), 20u, "every packet arrived (plain)");
        NS_TEST_ASSERT_MSG_EQ((fabric.arrivalsNs == plain.arrivalsNs), true, "at the same times");
        // 1000 B + 2 B PPP at 1 Gb/s: 8016 ns a frame, back to back; the first 1 us + 1 us on.
        NS_TEST_ASSERT_MSG_EQ(fabric.arrivalsNs.front(), 1000 + 8016 + 1000, "first arrival");
        NS_TEST_ASSERT_MSG_EQ(fabric.arrivalsNs.back(),
                              1000 + 20 * 8016 + 1000,
                              "back to back: the queue never ran dry");
        NS_TEST_ASSERT_MSG_GT(fabric.immediate, 0u, "wakes at frame starts (fabric)");
        NS_TEST_ASSERT_MSG_EQ(fabric.immediate, plain.immediate, "as many on both");
        NS_TEST_ASSERT_MSG_EQ(fabric.direct, false, "a wake callback of another kind is kept");
    }
};

/**
 * \ingroup mrc-test
 * The same incast with the wake at the frame start and with ns-3's event: identical results.
 */
class DeviceTxQueueEquivalenceTestCase : public TestCase
{
  public:
    DeviceTxQueueEquivalenceTestCase()
        : TestCase("MrcDeviceTxQueue: an incast gives the same results with ImmediateWake on and "
                   "off, with one event fewer per wake")
    {
    }

  private:
    void DoRun() override
    {
        const Outcome fast = RunIncast(true);
        const Outcome stock = RunIncast(false);
        NS_TEST_ASSERT_MSG_EQ(fast.bytesOk, true, "immediate: every byte delivered");
        NS_TEST_ASSERT_MSG_EQ(stock.bytesOk, true, "event: every byte delivered");
        NS_TEST_ASSERT_MSG_EQ(fast.doneNs.size(), 8u, "eight messages complete");
        NS_TEST_ASSERT_MSG_GT(fast.trims, 10u, "the incast trims (queues build)");
        NS_TEST_ASSERT_MSG_EQ((fast.doneNs == stock.doneNs), true, "same completion times");
        NS_TEST_ASSERT_MSG_EQ(fast.trims, stock.trims, "same trims");
        NS_TEST_ASSERT_MSG_EQ(stock.immediate, 0u, "ImmediateWake=false: every wake an event");
        NS_TEST_ASSERT_MSG_GT(fast.immediate, 300u, "busy ports woke their queue discs");
        NS_TEST_ASSERT_MSG_EQ(stock.events - fast.events,
                              fast.immediate,
                              "each immediate wake saved exactly its event");
        // Each fabric device's wake runs its root queue disc directly (the callback the
        // traffic-control layer set is that queue disc's Run), in both modes.
        NS_TEST_ASSERT_MSG_GT(fast.txQueues, 20u, "the fabric's devices have MrcDeviceTxQueues");
        NS_TEST_ASSERT_MSG_EQ(fast.direct, fast.txQueues, "each runs its queue disc directly");
        NS_TEST_ASSERT_MSG_EQ(stock.direct, stock.txQueues, "also with ImmediateWake off");
        NS_TEST_ASSERT_MSG_EQ(fast.directAfterDelete, false, "not once the queue disc is gone");
    }
};

/**
 * \ingroup mrc-test
 * MrcDeviceTxQueue tests.
 */
class MrcDeviceTxQueueTestSuite : public TestSuite
{
  public:
    MrcDeviceTxQueueTestSuite()
        : TestSuite("mrc-device-tx-queue", Type::UNIT)
    {
        AddTestCase(new DeviceTxQueueWakeTestCase);
        AddTestCase(new DeviceTxQueueFrameEndTestCase);
        AddTestCase(new DeviceTxQueueChannelTestCase);
        AddTestCase(new DeviceTxQueueFlowControlTestCase("ns3::DropTailQueue<Packet>"));
        AddTestCase(new DeviceTxQueueFlowControlTestCase("ns3::MrcPfcDeviceQueue"));
        AddTestCase(new DeviceTxQueueEquivalenceTestCase);
    }
};

/// Static instance registering the suite.
MrcDeviceTxQueueTestSuite g_mrcDeviceTxQueueTestSuite;

} // namespace
