/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_GO_BACK_N_H
#define MRC_GO_BACK_N_H

#include "mrc-loss-recovery.h"

#include "ns3/event-id.h"

namespace ns3
{

/**
 * \ingroup mrc
 * \brief RoCEv2 RC's loss recovery: go-back-N.
 *
 * Receiver (MrcReceiveOrder::IN_ORDER): only the expected PSN is accepted; a packet ahead of it
 * is dropped (counted in outOfSequenceDropped) and the first one of each gap is answered with a
 * NACK SEQUENCE_ERROR carrying the expected PSN (InfiniBand's "PSN sequence error" NAK, sent once
 * until the gap is filled); duplicates are acknowledged again; SACKs carry the cumulative PSN
 * only (their bitmap stays empty).
 *
 * Sender: a NACK (SEQUENCE_ERROR, which also acknowledges every PSN before the one it carries, or
 * TRIMMED / TRIMMED_LASTHOP / NO_BITMAP / PSN_OOR_WINDOW) or the retransmission timeout rewinds
 * to the first unacknowledged PSN: every packet from there on is resent, in PSN order, before any
 * new one. The timeout (RetransmitTimeout) runs while packets are outstanding and restarts
 * whenever the cumulative acknowledgement advances. Paths are not blamed; the queue pair fails
 * after RetryCount QP timeouts without progress, as an RC QP does.
 */
class MrcGoBackN : public MrcLossRecovery
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcGoBackN();
    ~MrcGoBackN() override;

    void Start(const Context& context) override;
    MrcReceiveOrder GetReceiveOrder() const override;
    MrcSendQueue::Record* PeekRetransmission() override;
    void PopRetransmission() override;
    void OnSent(MrcSendQueue::Record& r, bool retransmission) override;
    void OnAcknowledged(const MrcAckFeedback& feedback) override;
    void OnNack(const MrcNackHeader& nack) override;
    void OnPortDown(uint32_t plane) override;

    /// \return the retransmission timeout in use
    Time GetRetransmitTimeout() const;

  protected:
    void DoStop() override;

  private:
    /**
     * Go back to the first unacknowledged PSN: everything in flight is lost and resent in order.
     * \param cause why (Retransmit trace)
     */
    void Rewind(const std::string& cause);
    /// (Re)start the retransmission timeout.
    void ArmTimer();
    /// The retransmission timeout expired.
    void OnTimeout();

    Time m_timeoutAttr;         //!< RetransmitTimeout attribute (0: from LocalAckTimeout)
    uint32_t m_localAckTimeout; //!< LocalAckTimeout exponent
    Time m_timeout;             //!< timeout in use
    EventId m_timer;            //!< retransmission timeout
    bool m_resending{false};    //!< a rewind is being resent
    uint32_t m_cursor{0};       //!< next PSN to resend while m_resending
    uint32_t m_lastBase{0};     //!< cumulative acknowledgement at the last check
};

} // namespace ns3

#endif /* MRC_GO_BACK_N_H */
