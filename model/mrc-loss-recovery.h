/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_LOSS_RECOVERY_H
#define MRC_LOSS_RECOVERY_H

#include "mrc-qp-stats.h"
#include "mrc-send-queue.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <functional>
#include <string>

namespace ns3
{

class MrcCongestionOps;
class MrcNackHeader;
class MrcPathSelection;

/**
 * \ingroup mrc
 * How the receiving end of a queue pair treats data that arrives out of PSN order.
 */
enum class MrcReceiveOrder : uint8_t
{
    ANY,      //!< place every packet on arrival (MRC: no reorder buffer), SACK what arrived
    IN_ORDER, //!< accept only the expected PSN (RoCEv2 RC); drop the others, NACK the gap once
};

/**
 * \ingroup mrc
 * What a SACK told the sender, beyond the PSNs it acknowledged (those are already marked in the
 * send queue when the loss recovery hears of it).
 */
struct MrcAckFeedback
{
    uint32_t outOfOrder{0}; //!< the receiver's out-of-order count (PSNs held beyond the cumulative)
};

/**
 * \ingroup mrc
 * \brief How a queue pair repairs losses: what it resends, when, and what its receiving end
 * accepts. Chosen per queue pair by TypeId (MrcQueuePair's LossRecovery attribute), like
 * MrcCongestionOps; both ends of a connection must use the same policy (MrcHelper configures
 * both alike).
 *
 *  - MrcSelectiveRecovery (default): MRC's selective retransmission from SACKs and NACKs with a
 *    per-packet loss timer.
 *  - MrcGoBackN: RoCEv2 RC's go-back-N.
 *
 * The queue pair processes acknowledgements (SACK cumulative PSN and bitmap, and the cumulative
 * PSN a SEQUENCE_ERROR NACK implies) and then tells the policy. When a port can send, the queue
 * pair asks the policy for a retransmission first (PeekRetransmission, then
 * PopRetransmission if it goes out) and reports every transmission (OnSent).
 *
 * Every policy gives up the same way, as an RC QP does: when the cumulative acknowledgement has
 * not moved for the QP timeout (Context::qpTimeout) retryCount + 1 times in a row while messages
 * are pending, the queue pair fails.
 */
class MrcLossRecovery : public Object
{
  public:
    /// The queue pair's parts a policy acts on; the queue pair owns them and outlives their use.
    struct Context
    {
        MrcSendQueue* sendQueue{nullptr}; //!< records and PSN window
        MrcPathSelection* paths{nullptr}; //!< path feedback (trim, silent loss)
        MrcCongestionOps* cc{nullptr};    //!< congestion control (NACK, loss)
        MrcQpStats* stats{nullptr};       //!< counters
        Time lossTimeout;                 //!< the queue pair's per-packet loss timer
        Time baseRtt;                     //!< the queue pair's (configured) base RTT
        uint32_t mss{4096};               //!< payload bytes of a full packet
        Time qpTimeout;                   //!< QP timeout (1.024 us x 2^AckTimeoutExponent)
        uint32_t retryCount{7};           //!< QP timeouts tolerated (RetryCount)
        /// Something may be sent now (also refreshes the window trace).
        std::function<void()> kick;
        /// A PSN is queued for retransmission: PSN, EV of its last transmission, cause.
        std::function<void(uint32_t, uint32_t, const std::string&)> retransmit;
        /// A fatal error: fail the queue pair with this reason.
        std::function<void(const std::string&)> fail;
        /// Send a tail-loss probe (an acknowledgement request) with this sequence number.
        std::function<void(uint32_t)> sendTailProbe;
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcLossRecovery();
    ~MrcLossRecovery() override;

    /// \param context the queue pair's parts (called once, by MrcQueuePair::Connect)
    virtual void Start(const Context& context);

    /// A message was posted: run the QP timeout if it is idle.
    void OnPosted();
    /// Cancel every timer (the queue pair failed or is disposed).
    void Stop();

    /// \return how the receiving end of a queue pair with this policy treats out-of-order data
    virtual MrcReceiveOrder GetReceiveOrder() const = 0;

    /// \return the record to retransmit next, or nullptr (then a new packet goes, if any)
    virtual MrcSendQueue::Record* PeekRetransmission() = 0;
    /// The record PeekRetransmission returned is being sent.
    virtual void PopRetransmission() = 0;
    /**
     * \param r a record that was just sent (its EV and send time are set)
     * \param retransmission true if resent
     */
    virtual void OnSent(MrcSendQueue::Record& r, bool retransmission) = 0;
    /**
     * A SACK was processed (acknowledged records are marked, the window has slid).
     * \param feedback what else the SACK said
     */
    virtual void OnAcknowledged(const MrcAckFeedback& feedback) = 0;
    /**
     * \param nack a valid NACK (a SEQUENCE_ERROR's implied acknowledgement is already processed)
     */
    virtual void OnNack(const MrcNackHeader& nack) = 0;
    /// \param plane a local NIC port that went down: packets in flight on it are lost
    virtual void OnPortDown(uint32_t plane) = 0;
    /**
     * The answer to a tail-loss probe arrived (after the SACK the peer sent before it). Default:
     * ignored (a policy that sends no tail-loss probes gets none).
     * \param sequence the probe's sequence number
     */
    virtual void OnTailProbeAnswer(uint32_t sequence);

  protected:
    void DoDispose() override;
    /// Cancel the policy's own timers.
    virtual void DoStop() = 0;

    Context m_ctx; //!< the queue pair's parts

  private:
    /// QP timeout check.
    void OnQpTimer();

    EventId m_qpEvent;            //!< QP timeout
    uint32_t m_lastCumulative{0}; //!< cumulative PSN at the last QP timeout check
    uint32_t m_qpTimeouts{0};     //!< consecutive QP timeouts
};

} // namespace ns3

#endif /* MRC_LOSS_RECOVERY_H */
