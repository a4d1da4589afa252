/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RACK_LOSS_DETECTOR_H
#define MRC_RACK_LOSS_DETECTOR_H

#include "mrc-send-queue.h"

#include "ns3/nstime.h"

#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Time-domain loss detection in the manner of RACK (RFC 8985): pure logic over a send
 * queue, no timers.
 *
 * The detector remembers the latest send time among the packets acknowledged so far (RACK's
 * xmit_ts) and the RTT of that packet, and the minimum RTT seen. An unacknowledged packet sent
 * before that one is lost once it is older than that RTT plus a reorder window (by default a
 * quarter of the minimum RTT, as RFC 8985 recommends): a later packet got through, and this one
 * had time enough to. Detect() also says when the oldest packet still waiting will be due, for
 * the caller's timer.
 */
class MrcRackLossDetector
{
  public:
    /**
     * \param reorderFraction reorder window as a fraction of the minimum RTT (RFC 8985: 1/4)
     */
    explicit MrcRackLossDetector(double reorderFraction = 0.25);

    /**
     * Learn from the records a SACK acknowledged.
     * \param acked the records newly acknowledged (MrcSendQueue::GetJustAcked)
     * \param now the current time
     */
    void OnAcked(const std::vector<MrcSendQueue::Acked>& acked, Time now);

    /**
     * \param sq the send queue
     * \param now the current time
     * \param nextDue set to when the next packet sent before the latest delivered one will be
     *        due (nothing if none waits)
     * \return the PSNs lost now, oldest first
     */
    std::vector<uint32_t> Detect(MrcSendQueue& sq, Time now, std::optional<Time>& nextDue) const;

    /// \return the reorder window
    Time GetReorderWindow() const;
    /// \return the minimum RTT seen (zero before the first sample)
    Time GetMinRtt() const;

  private:
    double m_reorderFraction; //!< reorder window / minimum RTT
    Time m_xmitTs{Time(-1)};  //!< send time of the latest-sent delivered packet
    Time m_rtt;               //!< its RTT
    Time m_minRtt;            //!< minimum RTT (0: none yet)
};

} // namespace ns3

#endif /* MRC_RACK_LOSS_DETECTOR_H */
