/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_BULK_TRANSFER_H
#define MRC_BULK_TRANSFER_H

#include "mrc-collective.h"

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Point-to-point bulk transfer: rank 0 writes S bytes to rank 1 (exactly two ranks),
 * as Messages WRITEs of S / Messages bytes each (MrcLineRateModel::Chunks), all posted at once.
 *
 * Ideal: Transfer(S, L).
 */
class MrcBulkTransfer : public MrcCollective
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

  private:
    uint32_t m_messages{1}; //!< Messages attribute
};

} // namespace ns3

#endif /* MRC_BULK_TRANSFER_H */
