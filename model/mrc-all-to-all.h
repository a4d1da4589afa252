/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ALL_TO_ALL_H
#define MRC_ALL_TO_ALL_H

#include "mrc-collective.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief All-to-all: every rank writes chunk j of its S bytes (MrcLineRateModel::Chunks) to
 * every other rank j.
 *
 * Rank r sends to r + 1, r + 2, ... (mod n) in that order (staggered, so that not every rank
 * starts on the same receiver). Concurrency limits the writes a rank has outstanding (0: all at
 * once); the next one is posted when one is acknowledged at the rank.
 *
 * Ideal: Serialize((n - 1) x ceil(S / n)) + Latency(L) (MrcLineRateModel::AllToAll).
 */
class MrcAllToAll : public MrcCollective
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
    std::vector<std::pair<uint32_t, uint32_t>> GetPeerPairs() const override;
    uint32_t GetTransferCount() const override;
    void DoStart() override;
    void OnSendComplete(uint32_t index) override;

  private:
    /// \param rank post its next write
    void PostNext(uint32_t rank);

    uint32_t m_concurrency{0};    //!< Concurrency attribute
    std::vector<uint32_t> m_next; //!< per rank: next peer offset (1..n-1)
};

} // namespace ns3

#endif /* MRC_ALL_TO_ALL_H */
