/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "mrc-device-tx-queue.h"

#include "mrc-pfc-device-queue.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-limits.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcDeviceTxQueue");

NS_OBJECT_ENSURE_REGISTERED(MrcDeviceTxQueue);

TypeId
MrcDeviceTxQueue::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcDeviceTxQueue")
            .SetParent<NetDeviceQueue>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcDeviceTxQueue>()
            .AddAttribute("ImmediateWake",
                          "Run the woken queue disc when the device starts its next frame, in "
                          "that event (true), or in an event of its own as ns-3's "
                          "NetDeviceQueue does (false). Both run at the same time.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcDeviceTxQueue::m_immediate),
                          MakeBooleanChecker());
    return tid;
}

MrcDeviceTxQueue::MrcDeviceTxQueue()
    : NS_LOG_TEMPLATE_DEFINE("MrcDeviceTxQueue")
{
}

void
MrcDeviceTxQueue::Start()
{
    NetDeviceQueue::Start();
    m_stopped = false;
}

void
MrcDeviceTxQueue::Stop()
{
    NetDeviceQueue::Stop();
    m_stopped = true;
}

void
MrcDeviceTxQueue::Wake()
{
    const bool wasStopped = m_stopped;
    Start();
    if (!wasStopped || m_wake.IsNull())
    {
        return;
    }
    // A frame start follows: announced (Send), or the current frame is complete, so this is
    // TransmitComplete's dequeue (not while the device discards its queue).
    const bool frameStartFollows =
        m_frameStartFollows || (!m_discarding && Simulator::Now() >= m_frameEnd);
    if (m_immediate && frameStartFollows)
    {
        NS_LOG_LOGIC("woken: the queue disc runs when the device starts its frame");
        m_wakePending = true;
        return;
    }
    // Not NetDeviceQueue::Wake: ns-3-dev's runs the queue disc at once, here inside a dequeue.
    Simulator::ScheduleNow(&MrcDeviceTxQueue::RunWake, this);
}

void
MrcDeviceTxQueue::ConnectDeviceQueue(Ptr<NetDevice> device, Ptr<Queue<Packet>> queue)
{
    NS_ASSERT_MSG(device && queue, "MrcDeviceTxQueue needs the device and its queue");
    m_device = PeekPointer(device);
    m_queue = PeekPointer(queue);
    if (Ptr<MrcPfcDeviceQueue> own = DynamicCast<MrcPfcDeviceQueue>(queue))
    {
        own->SetFlowControl(this);
    }
    else
    {
        queue->TraceConnectWithoutContext("Enqueue",
                                          MakeCallback(&MrcDeviceTxQueue::OnEnqueued, this));
        queue->TraceConnectWithoutContext("Dequeue",
                                          MakeCallback(&MrcDeviceTxQueue::OnDequeued, this));
    }
    queue->TraceConnectWithoutContext("DropBeforeEnqueue",
                                      MakeCallback(&MrcDeviceTxQueue::OnDiscarded, this));
}

void
MrcDeviceTxQueue::OnEnqueued(Ptr<const Packet> packet)
{
    NotifyQueuedBytes(packet->GetSize()); // byte queue limits, if any
    if (m_queue->WouldOverflow(1, m_device->GetMtu()))
    {
        NS_LOG_DEBUG("device queue full (" << m_queue->GetCurrentSize() << "): stopped");
        Stop();
    }
}

void
MrcDeviceTxQueue::OnDequeued(Ptr<const Packet> packet)
{
    if (GetQueueLimits())
    {
        // Its wake runs the queue disc at once in ns-3-dev: not from inside a dequeue.
        Simulator::ScheduleNow(&NetDeviceQueue::NotifyTransmittedBytes, this, packet->GetSize());
    }
    if (!m_queue->WouldOverflow(1, m_device->GetMtu()))
    {
        Wake();
    }
}

void
MrcDeviceTxQueue::OnDiscarded(Ptr<const Packet> /* packet */)
{
    NS_LOG_WARN("device queue refused a packet (" << m_queue->GetCurrentSize()
                                                  << " inside): stopped");
    Stop();
}

void
MrcDeviceTxQueue::SetWakeCallback(WakeCallback cb)
{
    NetDeviceQueue::SetWakeCallback(cb);
    m_wake = cb;
    // The traffic-control layer sets Run of the device's root queue disc (its wake mode
    // WAKE_ROOT): call it directly, without the callback's two indirections (cache misses on
    // every wake at scale). Anything else keeps the callback.
    m_wakeQueueDisc = nullptr;
    Ptr<Node> node = m_device && !cb.IsNull() ? m_device->GetNode() : nullptr;
    Ptr<TrafficControlLayer> tc = node ? node->GetObject<TrafficControlLayer>() : nullptr;
    Ptr<QueueDisc> root = tc ? tc->GetRootQueueDiscOnDevice(m_device) : nullptr;
    if (root && cb.IsEqual(MakeCallback(&QueueDisc::Run, root)))
    {
        m_wakeQueueDisc = PeekPointer(root);
    }
}

bool
MrcDeviceTxQueue::WakesQueueDiscDirectly() const
{
    return m_wakeQueueDisc != nullptr;
}

void
MrcDeviceTxQueue::RunQueueDisc()
{
    if (m_wakeQueueDisc)
    {
        m_wakeQueueDisc->Run(); // the same call as m_wake's (it holds the queue disc)
    }
    else
    {
        m_wake();
    }
}

void
MrcDeviceTxQueue::SetFrameStartFollows(bool follows)
{
    m_frameStartFollows = follows;
}

void
MrcDeviceTxQueue::SetDiscarding(bool discarding)
{
    m_discarding = discarding;
}

void
MrcDeviceTxQueue::NotifyFrameStarted(Time duration)
{
    m_frameEnd = duration == Time::Max() ? Time::Max() : Simulator::Now() + duration;
    m_frameStartFollows = false;
    if (m_wakePending)
    {
        m_wakePending = false;
        m_immediateWakes++;
        RunQueueDisc();
    }
}

void
MrcDeviceTxQueue::FlushPendingWake()
{
    m_frameStartFollows = false;
    if (m_wakePending)
    {
        m_wakePending = false;
        Simulator::ScheduleNow(&MrcDeviceTxQueue::RunWake, this);
    }
}

void
MrcDeviceTxQueue::RunWake()
{
    RunQueueDisc();
}

uint64_t
MrcDeviceTxQueue::GetImmediateWakes() const
{
    return m_immediateWakes;
}

} // namespace ns3
