/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PFC_DEVICE_QUEUE_H
#define MRC_PFC_DEVICE_QUEUE_H

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/queue.h"

#include <deque>

namespace ns3
{

class MrcDeviceTxQueue;

/**
 * \ingroup mrc
 * \brief The transmit queue of a fabric device: a drop-tail queue plus a control lane for PFC
 * PAUSE frames.
 *
 * Packets tagged MrcPfcTag::Kind::PAUSE_FRAME go to the control lane: they are never dropped,
 * not counted against MaxSize nor in the queue's counters and traces (so the queue disc's
 * flow control does not see them), and Dequeue() serves them before any data. Every other
 * packet is queued as by DropTailQueue<Packet>. MrcClosTopologyHelper gives every fabric device
 * one; without PFC nothing ever enters the control lane.
 */
class MrcPfcDeviceQueue : public Queue<Packet>
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcPfcDeviceQueue();
    ~MrcPfcDeviceQueue() override;

    bool Enqueue(Ptr<Packet> item) override;
    Ptr<Packet> Dequeue() override;
    Ptr<Packet> Remove() override;
    Ptr<const Packet> Peek() const override;

    /// \return PAUSE frames waiting in the control lane
    uint32_t GetNControlPackets() const;

    /// Discard the control lane (the carrier went down).
    void ClearControl();

    /**
     * The device's flow control (MrcDeviceTxQueue::ConnectDeviceQueue): told of every data
     * packet this queue takes and gives, right where the Enqueue and Dequeue traces fire,
     * without going through them.
     * \param flowControl the device's transmit queue (null: none)
     */
    void SetFlowControl(Ptr<MrcDeviceTxQueue> flowControl);

  protected:
    void DoDispose() override;

  private:
    std::deque<Ptr<Packet>> m_control;   //!< the control lane
    Ptr<MrcDeviceTxQueue> m_flowControl; //!< the device's flow control, if connected
    NS_LOG_TEMPLATE_DECLARE;             //!< this class's log component (Queue has its own)
};

} // namespace ns3

#endif /* MRC_PFC_DEVICE_QUEUE_H */
