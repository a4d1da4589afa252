/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SEND_RECV_H
#define MRC_SEND_RECV_H

#include "mrc-collective.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Point-to-point send/recv between two sets of ranks: with 2n ranks, rank i (< n)
 * writes S bytes to rank n + i, and nothing flows back. This is what two neighbouring stages
 * of a pipeline-parallel job exchange per micro-batch (each rank's activations, or their
 * gradients, to the rank at the same place of the next, or previous, stage), as NCCL's
 * ncclSend/ncclRecv do.
 * Ideal: Transfer(S, L) (every sender's host link busy once, the fabric assumed non-blocking).
 */
class MrcSendRecv : public MrcCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    std::string GetName() const override;
    Time GetIdealTime() const override;

    /**
     * \param src sending rank \param dst receiving rank
     * \return the transfers a run posts on that pair, in order (none if it uses no such pair)
     */
    std::vector<PlannedTransfer> GetPlannedTransfers(uint32_t src, uint32_t dst) const override;

  protected:
    void DoSetup() override;
    std::vector<std::pair<uint32_t, uint32_t>> GetPeerPairs() const override;
    uint32_t GetTransferCount() const override;
    void DoStart() override;
};

} // namespace ns3

#endif /* MRC_SEND_RECV_H */
