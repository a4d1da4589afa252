/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/drop-tail-queue.h"
#include "ns3/mrc-trace-connections.h"
#include "ns3/packet.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// Counts the packets a queue's traces report.
struct Counter
{
    int enqueued{0}; //!< Enqueue trace calls
    int dequeued{0}; //!< Dequeue trace calls

    /// Enqueue trace.
    void OnEnqueue(Ptr<const Packet>)
    {
        ++enqueued;
    }

    /// Dequeue trace.
    void OnDequeue(Ptr<const Packet>)
    {
        ++dequeued;
    }
};

/// \param q a queue: one packet in and out
void
PassOne(const Ptr<DropTailQueue<Packet>>& q)
{
    ASSERT_TRUE(q->Enqueue(Create<Packet>(100)));
    ASSERT_TRUE(q->Dequeue());
}

} // namespace

TEST(MrcTraceConnections, ConnectedTracesFireUntilDisconnected)
{
    Ptr<DropTailQueue<Packet>> q = CreateObject<DropTailQueue<Packet>>();
    Counter c;
    MrcTraceConnections traces;
    EXPECT_TRUE(traces.Connect(q, "Enqueue", MakeCallback(&Counter::OnEnqueue, &c)));
    EXPECT_TRUE(traces.Connect(q, "Dequeue", MakeCallback(&Counter::OnDequeue, &c)));
    EXPECT_EQ(traces.GetN(), 2u);
    PassOne(q);
    EXPECT_EQ(c.enqueued, 1);
    EXPECT_EQ(c.dequeued, 1);

    traces.DisconnectAll();
    EXPECT_EQ(traces.GetN(), 0u);
    PassOne(q);
    EXPECT_EQ(c.enqueued, 1) << "no callback left on the queue after DisconnectAll";
    EXPECT_EQ(c.dequeued, 1);
}

TEST(MrcTraceConnections, UnknownTraceSourceIsRefusedAndNotRemembered)
{
    Ptr<DropTailQueue<Packet>> q = CreateObject<DropTailQueue<Packet>>();
    Counter c;
    MrcTraceConnections traces;
    EXPECT_FALSE(traces.Connect(q, "NoSuchTrace", MakeCallback(&Counter::OnEnqueue, &c)));
    EXPECT_EQ(traces.GetN(), 0u);
    traces.DisconnectAll(); // nothing to undo
    EXPECT_EQ(traces.GetN(), 0u);
}

TEST(MrcTraceConnections, DisconnectsOnlyItsOwnConnections)
{
    Ptr<DropTailQueue<Packet>> q = CreateObject<DropTailQueue<Packet>>();
    Counter mine;
    Counter other;
    MrcTraceConnections traces;
    EXPECT_TRUE(traces.Connect(q, "Enqueue", MakeCallback(&Counter::OnEnqueue, &mine)));
    q->TraceConnectWithoutContext("Enqueue", MakeCallback(&Counter::OnEnqueue, &other));
    traces.DisconnectAll();
    PassOne(q);
    EXPECT_EQ(mine.enqueued, 0);
    EXPECT_EQ(other.enqueued, 1) << "a connection made elsewhere stays";
}
