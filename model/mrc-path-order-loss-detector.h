/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PATH_ORDER_LOSS_DETECTOR_H
#define MRC_PATH_ORDER_LOSS_DETECTOR_H

#include "mrc-send-queue.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Loss detection by the order of one path: a PSN is lost when a packet sent after it
 * on the same EV has been acknowledged. Pure logic over a send queue, no timers.
 *
 * Each EV names one source-routed path (SRv6) or one hashed path (ECMP), and every hop of a
 * path serves a traffic class first in, first out: two packets on one EV cannot overtake each
 * other. When the SACKs show a later packet of an EV delivered, an earlier one of that EV still
 * unacknowledged was dropped (a trimmed packet is NACKed instead), whatever the reordering
 * across EVs. This is the per-path form of the "later packet delivered" inference of RACK
 * (RFC 8985) and of the dupack rule of multipath TCP's subflows, with a reordering window of
 * zero because the path is FIFO. It sees a loss one rotation of the EV set plus one RTT after
 * it happened, without the SACK rule's out-of-order threshold; the SACK rule and the tail-loss
 * probe still cover EVs that delivered nothing later (a dead path, the tail of a message).
 *
 * An acknowledged packet that was sent more than once is no evidence (Karn's rule): the copy that
 * arrived may have travelled on another EV.
 *
 * The order breaks where a path changes under an EV (an ECMP switch rehashing after a failure,
 * a NIC port down remapping EVs): the cost is a spurious retransmission, which the receiver
 * discards as a duplicate.
 */
class MrcPathOrderLossDetector
{
  public:
    /**
     * Record a transmission.
     * \param psn its PSN
     * \param ev its EV
     * \param sentAt its send time
     */
    void OnSent(uint32_t psn, uint32_t ev, Time sentAt);

    /**
     * Apply the rule after a SACK has been processed by the send queue.
     * \param sq the send queue (the records it just acknowledged: GetJustAcked)
     * \return the PSNs newly found lost, in the order found
     */
    std::vector<uint32_t> OnSack(MrcSendQueue& sq);

    /// A transmission overtaken on its EV after its packet had been queued or sent again.
    struct Overtaken
    {
        uint32_t psn{0}; //!< PSN
        uint32_t ev{0};  //!< EV of that transmission
        Time sentAt;     //!< its send time
    };

    /**
     * \return the transmissions the last OnSack found overtaken on their EV by an acknowledged
     *         later packet while their packet, already queued or resent for another reason
     *         (another rule declared it), was still unacknowledged: that transmission was lost
     *         on its path all the same. Not resent again; evidence against the EV.
     */
    const std::vector<Overtaken>& GetOvertaken() const;

    /// \return transmissions remembered (a bound on the detector's memory)
    std::size_t GetSize() const;

  private:
    /// A transmission on an EV.
    struct Sent
    {
        Time sentAt;     //!< send time
        uint32_t psn{0}; //!< PSN
    };

    /**
     * One EV's transmissions in send order: the entries from head on. The consumed prefix is
     * dropped once it is half the vector (amortised O(1) per entry), and an emptied FIFO keeps
     * its storage for the EV's next packets: an EV carries a few packets at a time, and a
     * std::deque per EV cost a 512-byte block each time one started (12 % of a k = 16
     * permutation's heap, and as much allocator traffic).
     */
    struct EvFifo
    {
        std::vector<Sent> sent; //!< transmissions, the first head of them resolved
        std::size_t head{0};    //!< first unresolved entry
    };

    /// Per EV, its transmissions in send order (acknowledged ones dropped lazily).
    std::unordered_map<uint32_t, EvFifo> m_perEv;
    std::size_t m_size{0};              //!< entries over every EV
    std::vector<Overtaken> m_overtaken; //!< found by the last OnSack
};

} // namespace ns3

#endif /* MRC_PATH_ORDER_LOSS_DETECTOR_H */
