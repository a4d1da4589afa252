/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MRC_DEVICE_TX_QUEUE_H
#define MRC_DEVICE_TX_QUEUE_H

#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/queue.h"

namespace ns3
{

class QueueDisc;

/**
 * \ingroup mrc
 * The transmission queue of a fabric device (NetDeviceQueueInterface's TxQueuesType, installed
 * by MrcClosTopologyHelper): ns-3's NetDeviceQueue, whose queue disc restarts, when the device
 * queue has room again, in the same event in which the device starts its next frame.
 *
 * Flow control is ns-3's (PointToPointHelper's): the queue disc stops when the device queue
 * cannot take another MTU-sized packet and is woken when a dequeue makes room. ns-3 runs that
 * wake as an event of its own, at the same time, because the dequeue happens before the
 * device has started the frame, and a queue disc run from there would hand the device a packet
 * while it is still READY. On a busy port that is one event per packet (about 30 % of a fabric
 * run's events). ns-3.37 schedules it in NetDeviceQueue::Wake, ns-3-dev in the template
 * handler of every dequeue (PacketDequeued); this class connects handlers of its own to the
 * device queue's traces instead (ConnectDeviceQueue, in place of ConnectQueueTraces; an
 * MrcPfcDeviceQueue calls them itself), so the mechanism is the same on both versions.
 *
 * MrcFabricNetDevice announces when a frame start follows a dequeue (Send; TransmitComplete,
 * as the end of the frame announced with its duration, or its PhyTxEnd on another channel)
 * and when the frame has started (from MrcFabricChannel, or PhyTxBegin, the device BUSY): a
 * wake in between waits for that moment and runs the queue disc there, with no event. Every
 * other wake (a device that announces nothing, a dequeue during a frame, the carrier-loss
 * flush) is an event at the same time, as ns-3.37's. Byte queue limits, when configured, are
 * informed of the bytes sent in an event of their own, as ns-3-dev does.
 *
 * The queue disc then picks its next packet at the instant the device queue frees, before the
 * other events of that instant rather than after those already scheduled for it; both are
 * the same time, and every run compared gave identical results (doc/mrc.rst, "Failure
 * injection"). ImmediateWake=false restores the event.
 */
class MrcDeviceTxQueue : public NetDeviceQueue
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcDeviceTxQueue();

    void Start() override;
    void Stop() override;
    void Wake() override;
    void SetWakeCallback(WakeCallback cb) override;

    /**
     * Flow control on the device's queue, in place of NetDeviceQueue::ConnectQueueTraces:
     * stop when an enqueue leaves no room for an MTU-sized packet (or after a packet was
     * refused), wake when a dequeue makes room.
     * \param device the device that owns the queue (its MTU is the room needed); held by a
     * plain pointer, as the device holds this queue
     * \param queue the device's transmit queue: an MrcPfcDeviceQueue (MrcClosTopologyHelper's)
     * calls OnEnqueued and OnDequeued itself, where its traces fire (a traced callback per
     * packet costs a list node and a callback object to reach, on every hop); any other queue
     * type through its Enqueue and Dequeue traces
     */
    void ConnectDeviceQueue(Ptr<NetDevice> device, Ptr<Queue<Packet>> queue);

    /**
     * The device says whether it starts a frame right after what it does now (dequeues in
     * TransmitComplete or in Send).
     * \param follows true until the frame has started or the device is done
     */
    void SetFrameStartFollows(bool follows);

    /**
     * The device started a frame (it is BUSY): run the queue disc if a wake waits.
     * \param duration until the device completes the frame (serialisation and interframe
     * gap), if the device knows it (MrcFabricChannel tells MrcFabricNetDevice): from then until
     * the next frame starts, a dequeue is the device's TransmitComplete, which starts the next
     * frame with what it dequeued, so a wake waits for that start as if announced.
     * Time::Max(): not known; only SetFrameStartFollows announces.
     */
    void NotifyFrameStarted(Time duration = Time::Max());

    /**
     * The device discards what its queue holds (its carrier fell): these dequeues start no
     * frame, so their wakes are events.
     * \param discarding true while it does
     */
    void SetDiscarding(bool discarding);

    /// The device emptied its queue without starting a frame (carrier lost): a waiting wake
    /// becomes ns-3's event.
    void FlushPendingWake();

    /// \return wakes run in a frame start, without an event of their own
    uint64_t GetImmediateWakes() const;

    /// \return true if wakes run the device's root queue disc directly: the wake callback is
    ///         that queue disc's Run, as the traffic-control layer sets it (WAKE_ROOT)
    bool WakesQueueDiscDirectly() const;

    /**
     * The device queue took a packet (its Enqueue trace; an MrcPfcDeviceQueue calls it
     * directly, at the same point).
     * \param packet the packet
     */
    void OnEnqueued(Ptr<const Packet> packet);

    /**
     * The device queue gave a packet to the device (its Dequeue trace; an MrcPfcDeviceQueue
     * calls it directly, at the same point).
     * \param packet the packet
     */
    void OnDequeued(Ptr<const Packet> packet);

  private:
    /**
     * The device queue refused a packet (the queue disc should have been stopped).
     * \param packet the packet
     */
    void OnDiscarded(Ptr<const Packet> packet);

    /// Run the queue disc (a wake's event).
    void RunWake();

    /// Run the queue disc the wake callback runs (directly where it is known).
    void RunQueueDisc();

    NetDevice* m_device{nullptr};    //!< the device (it holds this queue)
    Queue<Packet>* m_queue{nullptr}; //!< the device's transmit queue (the device holds it)

    WakeCallback m_wake;                 //!< the queue disc's Run (also held by the base class)
    QueueDisc* m_wakeQueueDisc{nullptr}; //!< the root queue disc m_wake runs (m_wake holds it)
    bool m_immediate{true};              //!< ImmediateWake
    bool m_stopped{false};               //!< stopped by the device (mirrors the base class's flag)
    bool m_frameStartFollows{false};     //!< the device starts a frame in this event
    bool m_wakePending{false};           //!< woken; the queue disc runs when the frame starts
    bool m_discarding{false};            //!< the device is discarding its queue
    Time m_frameEnd{Time::Max()};        //!< when the device completes its current frame
    uint64_t m_immediateWakes{0};        //!< wakes run without an event
    NS_LOG_TEMPLATE_DECLARE; //!< this class's log component (NetDeviceQueue has its own)
};

} // namespace ns3

#endif /* MRC_DEVICE_TX_QUEUE_H */
