/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RING_COLLECTIVE_H
#define MRC_RING_COLLECTIVE_H

#include "mrc-collective.h"
#include "mrc-ring-schedule.h"

#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief A ring collective: ranks in a ring, S cut into n chunks (MrcLineRateModel::Chunks), a
 * fixed number of steps in each of which every rank writes one chunk to its successor.
 *
 * In step k rank r writes chunk (r - k) mod n to rank r + 1 (mod n). Rank r posts step k + 1
 * when its predecessor's step-k chunk has arrived (the data dependency of reduce-scatter and
 * all-gather: the chunk it forwards next is the one it just received) and, with WaitForAck
 * (the default), its own step-k write has been acknowledged (one send buffer per peer). Both
 * are events at rank r's host. WaitForAck costs about one base RTT per step; without it a rank
 * can have two steps' writes outstanding.
 *
 * By default each step's chunk is one WRITE and the run is one pass of the ring. SliceSize and
 * ChunkSize make it NCCL's pipelined ring (MrcRingSchedule): passes of at most n x ChunkSize
 * bytes, each chunk in slices of at most about SliceSize bytes, one WRITE each; the dependency
 * and WaitForAck then hold slice by slice (slice j of step k + 1 waits for slice j of step k).
 * Transfers are tagged with their index in MrcRingSchedule (the step, when unsliced in one pass).
 */
class MrcRingCollective : public MrcCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \return the number of ring steps of a run (of a pass, with ChunkSize)
    virtual uint32_t GetStepCount() const = 0;

    /**
     * \return the WRITEs a rank makes in a run, from the attributes and the ranks (after Setup)
     * \throws std::invalid_argument if ChunkSize and SliceSize cut a rank's S into more than
     *         MrcRingSchedule::kMaxWrites WRITEs
     */
    MrcRingSchedule GetSchedule() const;

    /**
     * The line-rate ideal of MrcRingSchedule::GetIdealTime (for one pass of whole chunks:
     * GetStepCount() x Transfer(largest chunk)).
     * \return the ideal time of one run
     */
    Time GetIdealTime() const override;

    /**
     * \param rank a rank
     * \param step a step
     * \return the index of the chunk the rank writes in that step
     */
    uint32_t GetChunkIndex(uint32_t rank, uint32_t step) const;

    /**
     * The ring schedule: in step k rank r writes chunk (r - k) mod n
     * (MrcRingSchedule::ChunkIndex).
     * \param rank a rank (< n)
     * \param step a step
     * \param n ranks (>= 1)
     * \return the chunk index
     */
    static uint32_t ChunkIndex(uint32_t rank, uint32_t step, uint32_t n);

    /**
     * \param rank a rank
     * \return the bytes it receives in a run (the sum of its predecessor's chunks)
     */
    uint64_t GetExpectedReceivedBytes(uint32_t rank) const;

    /**
     * \param src sending rank \param dst receiving rank
     * \return the transfers a run posts on that pair, in order (none if it uses no such pair)
     */
    std::vector<PlannedTransfer> GetPlannedTransfers(uint32_t src, uint32_t dst) const override;

  protected:
    std::vector<std::pair<uint32_t, uint32_t>> GetPeerPairs() const override;
    uint32_t GetTransferCount() const override;
    void DoSetup() override;
    void DoStart() override;
    void OnSendComplete(uint32_t index) override;
    void OnDelivered(uint32_t index) override;

  private:
    /// \param rank post its next WRITEs, as far as their dependencies allow
    void Advance(uint32_t rank);

    bool m_waitForAck{true};                   //!< WaitForAck attribute
    uint64_t m_chunkSize{0};                   //!< ChunkSize attribute
    uint64_t m_sliceSize{0};                   //!< SliceSize attribute
    std::optional<MrcRingSchedule> m_schedule; //!< the run's WRITEs (from Start)
    std::vector<uint32_t> m_next;              //!< per rank: its next WRITE to post
    std::vector<std::vector<bool>> m_sent;     //!< [rank][write] own write acknowledged
    std::vector<std::vector<bool>> m_received; //!< [rank][write] predecessor's write arrived
};

} // namespace ns3

#endif /* MRC_RING_COLLECTIVE_H */
