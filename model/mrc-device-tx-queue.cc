/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "mrc-device-tx-queue.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

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
    if (m_immediate && m_stopped && m_frameStartFollows && !m_wake.IsNull())
    {
        NS_LOG_LOGIC("woken: the queue disc runs when the device starts its frame");
        NetDeviceQueue::Start(); // what Wake does, without the event
        m_stopped = false;
        m_wakePending = true;
        return;
    }
    NetDeviceQueue::Wake();
    m_stopped = false;
}

void
MrcDeviceTxQueue::SetWakeCallback(WakeCallback cb)
{
    NetDeviceQueue::SetWakeCallback(cb);
    m_wake = cb;
}

void
MrcDeviceTxQueue::SetFrameStartFollows(bool follows)
{
    m_frameStartFollows = follows;
}

void
MrcDeviceTxQueue::NotifyFrameStarted()
{
    m_frameStartFollows = false;
    if (m_wakePending)
    {
        m_wakePending = false;
        m_immediateWakes++;
        m_wake();
    }
}

void
MrcDeviceTxQueue::FlushPendingWake()
{
    m_frameStartFollows = false;
    if (m_wakePending)
    {
        m_wakePending = false;
        // A member function: ns-3-dev's MakeEvent would not call a Callback data member.
        Simulator::ScheduleNow(&MrcDeviceTxQueue::RunWake, this);
    }
}

void
MrcDeviceTxQueue::RunWake()
{
    m_wake();
}

uint64_t
MrcDeviceTxQueue::GetImmediateWakes() const
{
    return m_immediateWakes;
}

} // namespace ns3
