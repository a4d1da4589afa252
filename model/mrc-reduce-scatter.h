/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_REDUCE_SCATTER_H
#define MRC_REDUCE_SCATTER_H

#include "mrc-ring-collective.h"

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Ring reduce-scatter: each rank holds S bytes and ends with its reduced chunk of S / n,
 * n - 1 ring steps (MrcRingCollective).
 *
 * In step k rank r sends the partial sum of chunk (r - k) mod n to its successor, which adds
 * its own contribution before forwarding it in step k + 1: on the wire the same writes and
 * dependencies as MrcAllGather (the reduction is computation, not modelled). It is the first
 * half of MrcRingAllReduce, as NCCL runs it, and what ZeRO / distributed optimizers use for
 * gradients.
 *
 * Ideal: (n - 1) x Transfer(ceil(S / n), L) (MrcLineRateModel::AllGather), L the longest ring
 * hop in links, for whole chunks in one pass (with ChunkSize or SliceSize, the pipelined ring's
 * ideal: MrcRingCollective::GetIdealTime).
 */
class MrcReduceScatter : public MrcRingCollective
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

#endif /* MRC_REDUCE_SCATTER_H */
