/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-pfc-device-queue.h"

#include "mrc-device-tx-queue.h"
#include "mrc-pfc-tag.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcPfcDeviceQueue");

NS_OBJECT_ENSURE_REGISTERED(MrcPfcDeviceQueue);

TypeId
MrcPfcDeviceQueue::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcPfcDeviceQueue")
            .SetParent<Queue<Packet>>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcPfcDeviceQueue>()
            .AddAttribute("MaxSize",
                          "The maximum size of the data lane (PAUSE frames are not counted).",
                          QueueSizeValue(QueueSize("100p")),
                          MakeQueueSizeAccessor(&QueueBase::SetMaxSize, &QueueBase::GetMaxSize),
                          MakeQueueSizeChecker());
    return tid;
}

MrcPfcDeviceQueue::MrcPfcDeviceQueue()
    : NS_LOG_TEMPLATE_DEFINE("MrcPfcDeviceQueue")
{
    NS_LOG_FUNCTION(this);
}

MrcPfcDeviceQueue::~MrcPfcDeviceQueue() = default;

void
MrcPfcDeviceQueue::DoDispose()
{
    m_flowControl = nullptr;
    m_control.clear();
    Queue<Packet>::DoDispose();
}

bool
MrcPfcDeviceQueue::Enqueue(Ptr<Packet> item)
{
    NS_LOG_FUNCTION(this << item);
    MrcPfcTag tag;
    if (item->PeekPacketTag(tag) && tag.GetKind() == MrcPfcTag::Kind::PAUSE_FRAME)
    {
        m_control.push_back(item);
        return true;
    }
    if (!DoEnqueue(GetContainer().end(), item))
    {
        return false;
    }
    if (m_flowControl)
    {
        m_flowControl->OnEnqueued(item);
    }
    return true;
}

Ptr<Packet>
MrcPfcDeviceQueue::Dequeue()
{
    NS_LOG_FUNCTION(this);
    if (!m_control.empty())
    {
        Ptr<Packet> p = m_control.front();
        m_control.pop_front();
        return p;
    }
    Ptr<Packet> p = DoDequeue(GetContainer().begin());
    if (p && m_flowControl)
    {
        m_flowControl->OnDequeued(p);
    }
    return p;
}

void
MrcPfcDeviceQueue::SetFlowControl(Ptr<MrcDeviceTxQueue> flowControl)
{
    m_flowControl = flowControl;
}

Ptr<Packet>
MrcPfcDeviceQueue::Remove()
{
    NS_LOG_FUNCTION(this);
    return DoRemove(GetContainer().begin());
}

Ptr<const Packet>
MrcPfcDeviceQueue::Peek() const
{
    if (!m_control.empty())
    {
        return m_control.front();
    }
    return DoPeek(GetContainer().begin());
}

uint32_t
MrcPfcDeviceQueue::GetNControlPackets() const
{
    return static_cast<uint32_t>(m_control.size());
}

void
MrcPfcDeviceQueue::ClearControl()
{
    m_control.clear();
}

} // namespace ns3
