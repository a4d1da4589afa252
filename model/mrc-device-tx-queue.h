/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MRC_DEVICE_TX_QUEUE_H
#define MRC_DEVICE_TX_QUEUE_H

#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"

namespace ns3
{

/**
 * \ingroup mrc
 * The transmission queue of a fabric device (NetDeviceQueueInterface's TxQueuesType, installed
 * by MrcClosTopologyHelper): ns-3's NetDeviceQueue, whose queue disc restarts, when the device
 * queue has room again, in the same event in which the device starts its next frame.
 *
 * ns-3's NetDeviceQueue::Wake schedules the queue disc's Run as an event of its own, at the
 * same time: it is called while the device dequeues, before the device has started the frame,
 * and a queue disc run from there would hand the device a packet while it is still READY.
 * On a busy port that is one event per packet (about 30 % of a fabric run's events).
 * MrcFabricNetDevice announces when a frame start follows a dequeue (its PhyTxEnd in
 * TransmitComplete, and Send) and when the frame has started (PhyTxBegin, the device BUSY): a
 * wake in between waits for that moment and runs the queue disc there, with no event. Every
 * other wake (a device that announces nothing, a dequeue by anyone else) is ns-3's own.
 *
 * The queue disc then picks its next packet at the instant the device queue frees, before the
 * other events of that instant rather than after those already scheduled for it; both are
 * the same time, and every run compared gave identical results (doc/mrc.rst, "Failure
 * injection"). ImmediateWake=false restores ns-3's event. This is ns-3.37's NetDeviceQueue;
 * ns-3-dev schedules its wake in PacketDequeued instead (after the frame start), so there the
 * frame-start wake never applies.
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
     * The device says whether it starts a frame right after what it does now (dequeues in
     * TransmitComplete or in Send).
     * \param follows true until the frame has started or the device is done
     */
    void SetFrameStartFollows(bool follows);

    /// The device started a frame (it is BUSY): run the queue disc if a wake waits.
    void NotifyFrameStarted();

    /// The device emptied its queue without starting a frame (carrier lost): a waiting wake
    /// becomes ns-3's event.
    void FlushPendingWake();

    /// \return wakes run in a frame start, without an event of their own
    uint64_t GetImmediateWakes() const;

  private:
    /// Run the queue disc (a flushed wake's event).
    void RunWake();

    WakeCallback m_wake;             //!< the queue disc's Run (also held by the base class)
    bool m_immediate{true};          //!< ImmediateWake
    bool m_stopped{false};           //!< stopped by the device (mirrors the base class's flag)
    bool m_frameStartFollows{false}; //!< the device starts a frame in this event
    bool m_wakePending{false};       //!< woken; the queue disc runs when the frame starts
    uint64_t m_immediateWakes{0};    //!< wakes run without an event
    NS_LOG_TEMPLATE_DECLARE;         //!< this class's log component (NetDeviceQueue has its own)
};

} // namespace ns3

#endif /* MRC_DEVICE_TX_QUEUE_H */
