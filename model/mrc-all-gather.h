/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ALL_GATHER_H
#define MRC_ALL_GATHER_H

#include "mrc-ring-collective.h"

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Ring all-gather: each rank holds one chunk of S / n and ends with all S bytes, n - 1
 * ring steps (MrcRingCollective).
 *
 * Ideal: (n - 1) x Transfer(ceil(S / n), L) (MrcLineRateModel::AllGather), L the longest ring
 * hop in links, for whole chunks in one pass (with ChunkSize or SliceSize, the pipelined ring's
 * ideal: MrcRingCollective::GetIdealTime).
 */
class MrcAllGather : public MrcRingCollective
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

#endif /* MRC_ALL_GATHER_H */
