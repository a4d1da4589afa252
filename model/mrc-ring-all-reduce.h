/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RING_ALL_REDUCE_H
#define MRC_RING_ALL_REDUCE_H

#include "mrc-ring-collective.h"

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Ring all-reduce of S bytes per rank: reduce-scatter then all-gather, 2 (n - 1) ring
 * steps of S / n (MrcRingCollective). Every rank receives 2 (n - 1) chunks.
 *
 * Ideal: 2 (n - 1) x Transfer(ceil(S / n), L) (MrcLineRateModel::RingAllReduce), L the longest
 * ring hop in links, for whole chunks in one pass (with ChunkSize or SliceSize, the pipelined
 * ring's ideal: MrcRingCollective::GetIdealTime).
 */
class MrcRingAllReduce : public MrcRingCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    std::string GetName() const override;
    uint32_t GetStepCount() const override;
};

} // namespace ns3

#endif /* MRC_RING_ALL_REDUCE_H */
