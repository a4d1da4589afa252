/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SACK_LOSS_DETECTOR_H
#define MRC_SACK_LOSS_DETECTOR_H

#include "mrc-send-queue.h"

#include <boost/dynamic_bitset.hpp>
#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Loss detection from SACKs by the receiver's out-of-order count, the rule of the UEC
 * reference simulator (uet-htsim, UecSrc::runSleek): pure logic over a send queue, no timers.
 *
 * Every SACK carries the receiver's out-of-order count: PSNs it holds beyond its cumulative
 * PSN. When that count reaches a threshold of max(min(CwndFactor x cwnd, max window),
 * MinPackets x MSS) bytes (in full packets), PSNs are missing although that many sent after them
 * have arrived: the sender enters loss recovery up to the highest PSN sent so far and declares
 * lost every unacknowledged PSN from the cumulative PSN up to that recovery point, at most one
 * congestion window of PSNs past the cumulative PSN, and only those whose last transmission
 * left at least reorderWindow before a packet that has since been acknowledged (a packet
 * still queued on a slower path, or a retransmission still on its way, is not judged by
 * arrivals that preceded it; such PSNs are judged again by later SACKs of the episode).
 * A PSN is declared once per recovery episode, and again only when a packet sent relossWindow
 * after its retransmission has been acknowledged (the retransmission was lost too, e.g. on
 * another EV of a dead path; the reference simulator leaves that to its timers). A PSN
 * retransmitted during the episode for another reason (a trim's NACK) was not declared by the
 * episode: its retransmission is judged by reorderWindow like a first transmission, since it
 * queues where the trimmed original did. The episode ends when the cumulative PSN passes the
 * recovery point.
 *
 * Reordering across paths of different delay shows as an out-of-order count too; below the
 * threshold (about one and a half windows of later packets) it causes no retransmission.
 */
class MrcSackLossDetector
{
  public:
    /// Parameters (MrcSelectiveRecovery's attributes).
    struct Params
    {
        double cwndFactor{1.5}; //!< threshold in windows (loss_retx_factor)
        /// A PSN is declared only when a packet sent this much later has been acknowledged
        /// (the queueing-delay spread across paths; zero: any later packet).
        Time reorderWindow;
        uint32_t minPackets{5}; //!< threshold floor in full packets (min_retx_config)
        /// A PSN declared earlier in the episode is declared again when a packet sent this long
        /// after its retransmission has been acknowledged (zero: never).
        Time relossWindow;
    };

    MrcSackLossDetector();
    /// \param params the threshold parameters
    explicit MrcSackLossDetector(const Params& params);

    /**
     * \param cwnd the congestion window, bytes
     * \param maxWindow the largest window the congestion control allows, bytes
     * \param mss payload bytes of a full packet
     * \return the out-of-order count (packets) at which losses are declared
     */
    uint32_t GetThreshold(uint64_t cwnd, uint64_t maxWindow, uint32_t mss) const;

    /**
     * Apply the rule after a SACK has been processed by the send queue.
     * \param sq the send queue (acknowledged records marked)
     * \param outOfOrder the SACK's out-of-order count
     * \param cwnd the congestion window, bytes
     * \param maxWindow the largest window, bytes
     * \param mss payload bytes of a full packet
     * \return the PSNs newly declared lost, oldest first
     */
    std::vector<uint32_t> OnSack(MrcSendQueue& sq,
                                 uint32_t outOfOrder,
                                 uint64_t cwnd,
                                 uint64_t maxWindow,
                                 uint32_t mss);

    /**
     * RACK's time rule (RFC 8985) for the tail, where nothing new is left to send and the
     * out-of-order count cannot reach the threshold: an unacknowledged PSN whose last
     * transmission left before that of the latest acknowledged packet is lost once an RTT plus
     * the reorder window have passed since it was sent.
     * \param sq the send queue (OnSack called for the last SACK)
     * \param now the current time
     * \param rtt the RTT to allow (RACK: the latest packet's; with spraying, the longest lately)
     * \param[out] next when the next PSN sent before that packet becomes lost (negative: none)
     * \return the PSNs lost now, oldest first
     */
    std::vector<uint32_t> OnTail(MrcSendQueue& sq, Time now, Time rtt, Time& next) const;

    /// \param window the reorder window from now on (Params::reorderWindow)
    void SetReorderWindow(Time window);
    /// \return the reorder window (Params::reorderWindow)
    Time GetReorderWindow() const;
    /**
     * \param windowOf the reorder window of a packet by its EV, in place of
     *        Params::reorderWindow (empty: Params::reorderWindow for every packet)
     */
    void SetReorderWindowOf(std::function<Time(uint32_t ev)> windowOf);

    /// \return the latest send time among the acknowledged packets (negative: none yet)
    Time GetLatestDelivered() const;

    /// \return true during a loss-recovery episode
    bool InRecovery() const;
    /// \return loss-recovery episodes entered so far
    uint64_t GetEpisodes() const;

  private:
    /**
     * Declare lost the unacknowledged PSNs from the cumulative PSN on.
     * \param sq the send queue
     * \param cwnd the congestion window, bytes
     * \param mss payload bytes of a full packet
     * \return the PSNs declared lost
     */
    std::vector<uint32_t> Collect(MrcSendQueue& sq, uint64_t cwnd, uint32_t mss);

    Params m_params;                          //!< threshold parameters
    std::function<Time(uint32_t)> m_windowOf; //!< per-EV reorder window (empty: m_params')
    bool m_inRecovery{false};                 //!< in a loss-recovery episode
    uint32_t m_recoveryPsn{0};          //!< the episode ends when the cumulative PSN reaches this
    uint32_t m_episodeStart{0};         //!< the cumulative PSN when the episode began
    boost::dynamic_bitset<> m_declared; //!< PSNs declared in the episode, from m_episodeStart
    uint64_t m_episodes{0};             //!< episodes entered
    Time m_latestDelivered{Time(-1)};   //!< latest send time among the acknowledged packets
};

} // namespace ns3

#endif /* MRC_SACK_LOSS_DETECTOR_H */
