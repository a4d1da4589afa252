/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RING_SCHEDULE_H
#define MRC_RING_SCHEDULE_H

#include "mrc-line-rate-model.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * The WRITEs one rank of a ring collective makes to its successor, in posting order, as NCCL's
 * ring runs them.
 *
 * The S bytes of each rank go round the ring in passes ("loops", NCCL's name) of at most
 * n x chunkSize bytes, one after another; chunkSize 0 makes one pass. A pass of B bytes is cut
 * into n chunks (MrcLineRateModel::Chunks(B, n)); in step k of a pass rank r writes chunk
 * ChunkIndex(r, k, n). Each chunk goes as slices of at most about sliceSize bytes, one WRITE
 * each (sliceSize 0: the whole chunk in one WRITE; every chunk of a pass has the same number
 * of slices, and none is cut below one byte). Order: pass, then step, then slice. A slice of
 * step k > 0 depends on the same slice of step k - 1 arriving from the predecessor (its data
 * is that slice, reduced or copied), which is how NCCL pipelines a ring.
 *
 * Pure logic: the collective (MrcRingCollective) posts and tracks the WRITEs.
 */
class MrcRingSchedule
{
  public:
    /// GetDependency of a WRITE that depends on nothing (step 0 of a pass).
    static constexpr uint32_t kNoDependency = std::numeric_limits<uint32_t>::max();
    /// The most WRITEs a rank may make in one run.
    static constexpr uint32_t kMaxWrites = 1U << 20;

    /// Where one WRITE of a rank sits in the schedule.
    struct Position
    {
        uint32_t loop{0};  //!< pass
        uint32_t step{0};  //!< ring step within the pass
        uint32_t slice{0}; //!< slice of the step's chunk
    };

    /**
     * \param ranks n (>= 1)
     * \param steps ring steps of a pass (0 for a ring of one rank)
     * \param size S, bytes per rank
     * \param chunkSize largest chunk of a pass (0: one pass, chunks of S / n)
     * \param sliceSize largest slice of a chunk (0: whole chunks)
     * \throws std::invalid_argument if ranks is 0, or the schedule would need more than
     *         kMaxWrites WRITEs per rank (the message names chunkSize and sliceSize)
     */
    MrcRingSchedule(uint32_t ranks,
                    uint32_t steps,
                    uint64_t size,
                    uint64_t chunkSize,
                    uint64_t sliceSize);

    /**
     * The ring schedule: in step k rank r writes chunk (r - k) mod n.
     * \param rank a rank (< n)
     * \param step a step
     * \param n ranks (>= 1)
     * \return the chunk index
     */
    static uint32_t ChunkIndex(uint32_t rank, uint32_t step, uint32_t n);

    /// \return the number of passes
    uint32_t GetLoopCount() const;
    /// \return the WRITEs each rank makes in a run (the same for every rank)
    uint32_t GetWriteCount() const;
    /// \param loop a pass \return the slices of each of its chunks
    uint32_t GetSliceCount(uint32_t loop) const;
    /// \param index a WRITE (< GetWriteCount()) \return its pass, step and slice
    Position GetPosition(uint32_t index) const;
    /// \param rank a rank \param index a WRITE \return its bytes
    uint64_t GetBytes(uint32_t rank, uint32_t index) const;
    /**
     * \param index a WRITE of a rank
     * \return the predecessor's WRITE whose arrival it waits for (the same pass and slice, one
     *         step earlier; the same index in the predecessor's schedule), or kNoDependency
     */
    uint32_t GetDependency(uint32_t index) const;

    /**
     * The run's line-rate ideal: every rank sends its WRITEs back to back as soon as their
     * dependencies have arrived, each of the largest chunk's slices, at the aggregate rate of
     * the planes (MrcLineRateModel::Serialize), a slice arriving MrcLineRateModel::Latency after
     * its last byte left. Unsliced and in one pass this is steps x Transfer(largest chunk),
     * MrcLineRateModel::RingAllReduce and AllGather.
     * \param rate the line-rate model
     * \param links links of the longest rank-to-successor path
     * \return the ideal time (zero for no steps)
     */
    Time GetIdealTime(const MrcLineRateModel& rate, uint32_t links) const;

  private:
    /// One pass.
    struct Loop
    {
        uint32_t first{0};           //!< index of its first WRITE
        uint32_t slices{1};          //!< slices per chunk
        std::vector<uint64_t> chunk; //!< bytes of chunk c
    };

    /// \param index a WRITE \return the pass holding it
    const Loop& LoopOf(uint32_t index) const;

    uint32_t m_ranks;          //!< n
    uint32_t m_steps;          //!< steps per pass
    std::vector<Loop> m_loops; //!< the passes, in order
    uint32_t m_writes{0};      //!< WRITEs per rank
};

} // namespace ns3

#endif /* MRC_RING_SCHEDULE_H */
