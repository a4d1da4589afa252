/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TRIMMING_DATA_QUEUE_H
#define MRC_TRIMMING_DATA_QUEUE_H

#include "ns3/queue-item.h"
#include "ns3/queue.h"

namespace ns3
{

/**
 * \ingroup mrc
 * \brief A FIFO (drop-tail) queue of QueueDiscItems from which the most recently enqueued item can
 * be taken back: the data queue of MrcTrimmingQueueDisc, whose "trim a queued victim" policy (as in
 * NDP's switch) trims the tail instead of the arrival.
 */
class MrcTrimmingDataQueue : public Queue<QueueDiscItem>
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcTrimmingDataQueue();
    ~MrcTrimmingDataQueue() override;

    bool Enqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> Dequeue() override;
    Ptr<QueueDiscItem> Remove() override;
    Ptr<const QueueDiscItem> Peek() const override;

    /**
     * Take the tail item out of the queue. It leaves as a dequeue (the Dequeue trace fires, so a
     * QueueDisc's counters stay consistent), not as a drop.
     * \return the tail item, or nullptr if the queue is empty
     */
    Ptr<QueueDiscItem> RemoveTail();

    /// \return the tail item (the most recent arrival), or nullptr if the queue is empty
    Ptr<const QueueDiscItem> PeekTail() const;
};

} // namespace ns3

#endif /* MRC_TRIMMING_DATA_QUEUE_H */
