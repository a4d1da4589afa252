/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_INCAST_H
#define MRC_INCAST_H

#include "mrc-collective.h"

namespace ns3
{

/**
 * \ingroup mrc
 * \brief N-to-1 incast, with an optional unrelated "victim" flow.
 *
 * Ranks: rank 0 is the receiver, every other rank writes S bytes to it, all at once. If
 * VictimSize is not zero the last two ranks are not incast senders but a victim pair: the
 * second-to-last writes VictimSize bytes to the last, at the same time (place them so that
 * they share fabric links, not the incast receiver's last hop, to see whether congestion
 * control hurts an innocent flow). Victim transfers carry tag 1, incast ones tag 0.
 *
 * Ideal: max(Serialize(N x S) + Latency(Lmin, S), Transfer(S, Lmax), Transfer(VictimSize, L)),
 * Lmin and Lmax the senders' shortest and longest paths (MrcLineRateModel::Incast): the
 * receiver's links are the bottleneck.
 */
class MrcIncast : public MrcCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    std::string GetName() const override;
    Time GetIdealTime() const override;

    /// \return the number of incast senders N
    uint32_t GetSenderCount() const;
    /// \return true if the collective has a victim pair
    bool HasVictim() const;
    /// \return the victim's completion time in the last run (zero if none or not delivered)
    Time GetVictimTime() const;
    /// \return the incast senders' completion times in the last run
    std::vector<Time> GetIncastTimes() const;

    /**
     * \param src sending rank \param dst receiving rank
     * \return the transfers a run posts on that pair, in order (none if it uses no such pair)
     */
    std::vector<PlannedTransfer> GetPlannedTransfers(uint32_t src, uint32_t dst) const override;

  protected:
    uint32_t GetMinRanks() const override;
    std::vector<std::pair<uint32_t, uint32_t>> GetPeerPairs() const override;
    uint32_t GetTransferCount() const override;
    void DoStart() override;

  private:
    uint64_t m_victimSize{0}; //!< VictimSize attribute
};

} // namespace ns3

#endif /* MRC_INCAST_H */
