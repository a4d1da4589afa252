/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PLANE_ORDER_LOSS_DETECTOR_H
#define MRC_PLANE_ORDER_LOSS_DETECTOR_H

#include "mrc-send-queue.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Loss detection per plane: a PSN is lost when a packet sent on the same plane at least
 * that plane's reorder window after it has been acknowledged. Pure logic over a send queue, no
 * timers.
 *
 * Each plane of a multi-plane fabric is its own network behind its own NIC port: its queues,
 * and so its delays, are independent of the other planes'. After an asymmetric failure one
 * plane may hold tens of microseconds of queue while another holds none. The UEC reference's
 * SACK rule judges every packet against the whole queue pair (an out-of-order count of 1.5
 * windows, from the cumulative PSN, which the deepest plane holds back), so a packet lost on an
 * empty plane waits for the deepest plane's queues. This rule keeps, per plane, the latest send
 * time among the acknowledged first transmissions (Karn's rule: a packet sent twice says
 * nothing of either path) and declares the plane's older packets once they are more than the
 * plane's reorder window behind it: RACK (RFC 8985) with one sender state per plane, as
 * multipath TCP runs loss recovery per subflow. The reorder window covers the spread of queueing
 * delays among the paths of one plane.
 *
 * Each transmission is remembered once, in send order per plane, and forgotten when judged,
 * acknowledged or sent again: the work per acknowledgement is constant on average.
 */
class MrcPlaneOrderLossDetector
{
  public:
    /// The reorder window of a plane.
    using WindowOf = std::function<Time(uint32_t plane)>;

    /**
     * Record a transmission.
     * \param psn its PSN
     * \param plane the plane of its EV
     * \param sentAt its send time
     */
    void OnSent(uint32_t psn, uint32_t plane, Time sentAt);

    /**
     * Note a packet the last SACK acknowledged. A packet sent more than once is ignored
     * (Karn's rule: the copy that arrived may have been sent on another plane).
     * \param acked the acknowledged record (MrcSendQueue::GetJustAcked)
     * \param plane the plane of its EV
     */
    void OnAcked(const MrcSendQueue::Acked& acked, uint32_t plane);

    /**
     * Apply the rule after the acknowledgements of a SACK have been noted (OnAcked).
     * \param sq the send queue
     * \param windowOf each plane's reorder window now
     * \return the PSNs newly found lost (not queued already), in send order per plane
     */
    std::vector<uint32_t> Detect(MrcSendQueue& sq, const WindowOf& windowOf);

    /**
     * \param plane a plane
     * \return the latest send time among the plane's acknowledged first transmissions
     *         (negative: none yet)
     */
    Time GetLatestDelivered(uint32_t plane) const;

    /// \return transmissions remembered (a bound on the detector's memory)
    std::size_t GetSize() const;

  private:
    /// A transmission on a plane.
    struct Sent
    {
        Time sentAt;     //!< send time
        uint32_t psn{0}; //!< PSN
    };

    /// Grow the per-plane state to hold a plane.
    /// \param plane the plane
    void Reserve(uint32_t plane);

    std::vector<std::deque<Sent>> m_perPlane; //!< per plane, its transmissions in send order
    std::vector<Time> m_latest;               //!< per plane, see GetLatestDelivered
    std::size_t m_size{0};                    //!< entries over every plane
};

} // namespace ns3

#endif /* MRC_PLANE_ORDER_LOSS_DETECTOR_H */
