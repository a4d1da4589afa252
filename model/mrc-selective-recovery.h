/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SELECTIVE_RECOVERY_H
#define MRC_SELECTIVE_RECOVERY_H

#include "mrc-loss-recovery.h"

#include "ns3/event-id.h"

#include <deque>
#include <utility>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief MRC's loss recovery (the default): selective retransmission of exactly the PSNs that are
 * known or presumed lost; the receiver places packets in any order.
 *
 *  - NACK TRIMMED: the PSN is resent at once and its EV goes to SKIP; TRIMMED_LASTHOP: resent,
 *    the EV is not penalised (incast is not the path's fault); NO_BITMAP, PSN_OOR_WINDOW (and a
 *    SEQUENCE_ERROR from a misconfigured go-back-N peer): resent without penalty. Congestion
 *    control hears of trims. UNEXP_EVENT fails the queue pair.
 *  - Loss timer (the queue pair's LossTimeout after each transmission): a packet neither
 *    acknowledged nor NACKed is resent, congestion control hears of the loss and its EV is
 *    retired (MrcPathSelection::OnSilentLoss).
 *  - A local NIC port going down: the packets in flight on it are resent on the other planes.
 */
class MrcSelectiveRecovery : public MrcLossRecovery
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcSelectiveRecovery();
    ~MrcSelectiveRecovery() override;

    MrcReceiveOrder GetReceiveOrder() const override;
    MrcSendQueue::Record* PeekRetransmission() override;
    void PopRetransmission() override;
    void OnSent(MrcSendQueue::Record& r, bool retransmission) override;
    void OnAcknowledged() override;
    void OnNack(const MrcNackHeader& nack) override;
    void OnPortDown(uint32_t plane) override;

  protected:
    void DoStop() override;

  private:
    /**
     * Queue a retransmission.
     * \param r the record
     * \param cause why
     */
    void Queue(MrcSendQueue::Record& r, const std::string& cause);
    /// Re-arm the loss timer for the oldest transmission.
    void ArmLossTimer();
    /// Loss timer expiry.
    void OnLossTimer();

    std::deque<uint32_t> m_rtxQueue;                   //!< PSNs to retransmit
    std::deque<std::pair<Time, uint32_t>> m_lossQueue; //!< (deadline, PSN), in send order
    EventId m_lossEvent;                               //!< loss timer
};

} // namespace ns3

#endif /* MRC_SELECTIVE_RECOVERY_H */
