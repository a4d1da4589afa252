/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "trimming-data-queue.h"

#include <iterator>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(TrimmingDataQueue);

TypeId
TrimmingDataQueue::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TrimmingDataQueue")
                            .SetParent<Queue<QueueDiscItem>>()
                            .SetGroupName("Mrc")
                            .AddConstructor<TrimmingDataQueue>();
    return tid;
}

TrimmingDataQueue::TrimmingDataQueue() = default;

TrimmingDataQueue::~TrimmingDataQueue() = default;

bool
TrimmingDataQueue::Enqueue(Ptr<QueueDiscItem> item)
{
    return DoEnqueue(GetContainer().end(), item);
}

Ptr<QueueDiscItem>
TrimmingDataQueue::Dequeue()
{
    return DoDequeue(GetContainer().begin());
}

Ptr<QueueDiscItem>
TrimmingDataQueue::Remove()
{
    return DoRemove(GetContainer().begin());
}

Ptr<const QueueDiscItem>
TrimmingDataQueue::Peek() const
{
    return DoPeek(GetContainer().begin());
}

Ptr<QueueDiscItem>
TrimmingDataQueue::RemoveTail()
{
    if (IsEmpty())
    {
        return nullptr;
    }
    return DoDequeue(std::prev(GetContainer().end()));
}

Ptr<const QueueDiscItem>
TrimmingDataQueue::PeekTail() const
{
    if (IsEmpty())
    {
        return nullptr;
    }
    return DoPeek(std::prev(GetContainer().end()));
}

} // namespace ns3
