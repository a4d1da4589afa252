/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-trimming-data-queue.h"

#include <iterator>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcTrimmingDataQueue);

TypeId
MrcTrimmingDataQueue::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcTrimmingDataQueue")
                            .SetParent<Queue<QueueDiscItem>>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcTrimmingDataQueue>();
    return tid;
}

MrcTrimmingDataQueue::MrcTrimmingDataQueue() = default;

MrcTrimmingDataQueue::~MrcTrimmingDataQueue() = default;

bool
MrcTrimmingDataQueue::Enqueue(Ptr<QueueDiscItem> item)
{
    return DoEnqueue(GetContainer().end(), item);
}

Ptr<QueueDiscItem>
MrcTrimmingDataQueue::Dequeue()
{
    return DoDequeue(GetContainer().begin());
}

Ptr<QueueDiscItem>
MrcTrimmingDataQueue::Remove()
{
    return DoRemove(GetContainer().begin());
}

Ptr<const QueueDiscItem>
MrcTrimmingDataQueue::Peek() const
{
    return DoPeek(GetContainer().begin());
}

Ptr<QueueDiscItem>
MrcTrimmingDataQueue::RemoveTail()
{
    if (IsEmpty())
    {
        return nullptr;
    }
    return DoDequeue(std::prev(GetContainer().end()));
}

Ptr<const QueueDiscItem>
MrcTrimmingDataQueue::PeekTail() const
{
    if (IsEmpty())
    {
        return nullptr;
    }
    return DoPeek(std::prev(GetContainer().end()));
}

} // namespace ns3
