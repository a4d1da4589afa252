/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_MODEL_RECEIVER_H
#define MRC_MODEL_RECEIVER_H

#include "ns3/mrc-send-queue.h"

#include <cstdint>
#include <set>

namespace ns3
{

/**
 * The receiving end of the loss-detector tests: holds what arrived and acknowledges each
 * arrival with a SACK built as MrcQpReceiver builds it (cumulative PSN, 64-bit bitmap that
 * ends at the arrival when it is more than 64 PSNs past the cumulative PSN).
 */
struct MrcModelReceiver
{
    std::set<uint32_t> arrived; //!< PSNs held beyond the cumulative PSN
    uint32_t cum;               //!< cumulative PSN

    /// \param first the first PSN expected
    explicit MrcModelReceiver(uint32_t first)
        : cum(first)
    {
    }

    /**
     * Receive a PSN and apply its SACK to the sender's queue (AckSack; no Slide).
     * \param psn the PSN
     * \param sq the sender's queue
     * \return the out-of-order count the SACK carries
     */
    uint32_t Arrive(uint32_t psn, MrcSendQueue& sq)
    {
        arrived.insert(psn);
        while (arrived.count(cum))
        {
            arrived.erase(cum);
            ++cum;
        }
        const uint32_t base = psn - cum < 64 ? cum : psn - 63;
        uint64_t bitmap = 0;
        for (uint32_t i = 0; i < 64; ++i)
        {
            bitmap |= uint64_t(arrived.count(base + i) || base + i < cum) << i;
        }
        sq.AckSack(cum, base, bitmap);
        return static_cast<uint32_t>(arrived.size());
    }
};

} // namespace ns3

#endif /* MRC_MODEL_RECEIVER_H */
