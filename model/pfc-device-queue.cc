/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-device-queue.h"

#include "pfc-tag.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcDeviceQueue");

NS_OBJECT_ENSURE_REGISTERED(PfcDeviceQueue);

TypeId
PfcDeviceQueue::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcDeviceQueue")
            .SetParent<Queue<Packet>>()
            .SetGroupName("Mrc")
            .AddConstructor<PfcDeviceQueue>()
            .AddAttribute("MaxSize",
                          "The maximum size of the data lane (PAUSE frames are not counted).",
                          QueueSizeValue(QueueSize("100p")),
                          MakeQueueSizeAccessor(&QueueBase::SetMaxSize, &QueueBase::GetMaxSize),
                          MakeQueueSizeChecker());
    return tid;
}

PfcDeviceQueue::PfcDeviceQueue()
    : NS_LOG_TEMPLATE_DEFINE("PfcDeviceQueue")
{
    NS_LOG_FUNCTION(this);
}

PfcDeviceQueue::~PfcDeviceQueue() = default;

bool
PfcDeviceQueue::Enqueue(Ptr<Packet> item)
{
    NS_LOG_FUNCTION(this << item);
    PfcTag tag;
    if (item->PeekPacketTag(tag) && tag.GetKind() == PfcTag::Kind::PAUSE_FRAME)
    {
        m_control.push_back(item);
        return true;
    }
    return DoEnqueue(GetContainer().end(), item);
}

Ptr<Packet>
PfcDeviceQueue::Dequeue()
{
    NS_LOG_FUNCTION(this);
    if (!m_control.empty())
    {
        Ptr<Packet> p = m_control.front();
        m_control.pop_front();
        return p;
    }
    return DoDequeue(GetContainer().begin());
}

Ptr<Packet>
PfcDeviceQueue::Remove()
{
    NS_LOG_FUNCTION(this);
    return DoRemove(GetContainer().begin());
}

Ptr<const Packet>
PfcDeviceQueue::Peek() const
{
    if (!m_control.empty())
    {
        return m_control.front();
    }
    return DoPeek(GetContainer().begin());
}

uint32_t
PfcDeviceQueue::GetNControlPackets() const
{
    return static_cast<uint32_t>(m_control.size());
}

void
PfcDeviceQueue::ClearControl()
{
    m_control.clear();
}

} // namespace ns3
