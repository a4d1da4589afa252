/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PERMUTATION_H
#define MRC_PERMUTATION_H

#include "mrc-collective.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Permutation traffic: every rank writes S bytes to one other rank, every rank
 * receives from exactly one (a derangement).
 *
 * The derangement is SetDestinations(), or else rank r -> r + Shift (mod n) (Shift 0: a random
 * derangement, MrcPermutationHelper::Derangement, drawn at Setup from stream Stream).
 * With 2 ranks and Shift 1 this is a pair of bulk transfers; MrcBulkTransfer is one way only.
 *
 * Ideal: Transfer(S, L) (every host link busy once, the fabric assumed non-blocking).
 */
class MrcPermutation : public MrcCollective
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
     * \param destinations rank r writes to destinations[r] (call before Setup)
     * \throws std::invalid_argument if it is not a derangement
     */
    void SetDestinations(const std::vector<uint32_t>& destinations);
    /// \return the destinations (after Setup)
    const std::vector<uint32_t>& GetDestinations() const;

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
    uint32_t m_shift{0};                  //!< Shift attribute
    int64_t m_stream{0};                  //!< Stream attribute
    std::vector<uint32_t> m_destinations; //!< rank -> destination rank
};

} // namespace ns3

#endif /* MRC_PERMUTATION_H */
