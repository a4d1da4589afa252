/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ring-schedule.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

/// \return ceil(a / b), b > 0
uint64_t
DivUp(uint64_t a, uint64_t b)
{
    return a / b + (a % b != 0 ? 1 : 0);
}

/**
 * MrcLineRateModel::Chunks(chunk, slices)[slice], without the vector.
 * \param chunk bytes of a chunk \param slices its slices (> 0) \param slice one of them
 * \return the slice's bytes
 */
uint64_t
SliceBytes(uint64_t chunk, uint32_t slices, uint32_t slice)
{
    return chunk / slices + (slice < chunk % slices ? 1 : 0);
}

} // namespace

MrcRingSchedule::MrcRingSchedule(uint32_t ranks,
                                 uint32_t steps,
                                 uint64_t size,
                                 uint64_t chunkSize,
                                 uint64_t sliceSize)
    : m_ranks(ranks)
    , m_steps(steps)
{
    if (ranks == 0)
    {
        throw std::invalid_argument("MrcRingSchedule: ranks must be >= 1");
    }
    const auto tooMany = [&](uint64_t count, uint64_t per) {
        // count x per WRITEs, saturated: the message says "or more".
        const uint64_t writes = count > std::numeric_limits<uint64_t>::max() / per
                                    ? std::numeric_limits<uint64_t>::max()
                                    : count * per;
        return std::invalid_argument(
            "MrcRingSchedule: ChunkSize (=" + std::to_string(chunkSize)
            + " B) and SliceSize (=" + std::to_string(sliceSize) + " B) cut " + std::to_string(size)
            + " B per rank into " + std::to_string(writes) + " or more WRITEs per rank over "
            + std::to_string(steps) + " steps; at most " + std::to_string(kMaxWrites)
            + " are allowed (make them larger, or 0)");
    };
    if (steps == 0)
    {
        // A ring of one rank: nothing to write, whatever the cut.
        m_loops.push_back(Loop{0, 1, MrcLineRateModel::Chunks(size, ranks)});
        return;
    }
    // One pass unless a chunk of S / n would be larger than chunkSize.
    uint64_t loops = 1;
    uint64_t loopBytes = size;
    if (chunkSize > 0 && chunkSize < DivUp(size, ranks))
    {
        loopBytes = chunkSize * ranks; // < size + ranks: no overflow
        loops = DivUp(size, loopBytes);
    }
    if (loops > kMaxWrites / steps) // loops x steps, without overflow
    {
        throw tooMany(loops, steps);
    }
    uint64_t writes = 0;
    for (uint64_t l = 0; l < loops; ++l)
    {
        Loop loop;
        loop.first = static_cast<uint32_t>(writes);
        loop.chunk = MrcLineRateModel::Chunks(std::min(loopBytes, size - l * loopBytes), ranks);
        if (sliceSize > 0)
        {
            // Chunks differ by at most a byte: the largest sets the count, the smallest caps it.
            const uint64_t slices = std::min(DivUp(loop.chunk.front(), sliceSize),
                                             std::max<uint64_t>(loop.chunk.back(), 1));
            if (slices > kMaxWrites / steps)
            {
                throw tooMany(slices, steps);
            }
            loop.slices = static_cast<uint32_t>(std::max<uint64_t>(slices, 1));
        }
        writes += uint64_t(loop.slices) * steps;
        if (writes > kMaxWrites)
        {
            throw tooMany(writes, 1);
        }
        m_loops.push_back(std::move(loop));
    }
    m_writes = static_cast<uint32_t>(writes);
}

uint32_t
MrcRingSchedule::ChunkIndex(uint32_t rank, uint32_t step, uint32_t n)
{
    return (rank + n - step % n) % n;
}

uint32_t
MrcRingSchedule::GetLoopCount() const
{
    return m_loops.size();
}

uint32_t
MrcRingSchedule::GetWriteCount() const
{
    return m_writes;
}

uint32_t
MrcRingSchedule::GetSliceCount(uint32_t loop) const
{
    return m_loops.at(loop).slices;
}

const MrcRingSchedule::Loop&
MrcRingSchedule::LoopOf(uint32_t index) const
{
    if (index >= m_writes)
    {
        throw std::out_of_range("MrcRingSchedule: WRITE " + std::to_string(index) + " of "
                                + std::to_string(m_writes));
    }
    auto it =
        std::upper_bound(m_loops.begin(), m_loops.end(), index, [](uint32_t i, const Loop& l) {
            return i < l.first;
        });
    return *(it - 1);
}

MrcRingSchedule::Position
MrcRingSchedule::GetPosition(uint32_t index) const
{
    const Loop& loop = LoopOf(index);
    const uint32_t w = index - loop.first;
    Position p;
    p.loop = static_cast<uint32_t>(&loop - m_loops.data());
    p.step = w / loop.slices;
    p.slice = w % loop.slices;
    return p;
}

uint64_t
MrcRingSchedule::GetBytes(uint32_t rank, uint32_t index) const
{
    const Loop& loop = LoopOf(index);
    const uint32_t w = index - loop.first;
    const uint64_t chunk = loop.chunk[ChunkIndex(rank, w / loop.slices, m_ranks)];
    return SliceBytes(chunk, loop.slices, w % loop.slices);
}

uint32_t
MrcRingSchedule::GetDependency(uint32_t index) const
{
    const Loop& loop = LoopOf(index);
    return index - loop.first < loop.slices ? kNoDependency : index - loop.slices;
}

Time
MrcRingSchedule::GetIdealTime(const MrcLineRateModel& rate, uint32_t links) const
{
    if (m_writes == 0)
    {
        return Time(0);
    }
    // finish[i]: the last byte of WRITE i leaves; every rank alike, with the largest chunk.
    std::vector<Time> finish(m_writes);
    std::vector<uint64_t> bytes(m_writes);
    Time free(0);
    for (uint32_t i = 0; i < m_writes; ++i)
    {
        const Loop& loop = LoopOf(i);
        bytes[i] = SliceBytes(loop.chunk.front(), loop.slices, (i - loop.first) % loop.slices);
        Time start = free;
        const uint32_t dep = GetDependency(i);
        if (dep != kNoDependency)
        {
            start = std::max(start, finish[dep] + rate.Latency(links, bytes[dep]));
        }
        finish[i] = start + rate.Serialize(bytes[i]);
        free = finish[i];
    }
    return finish.back() + rate.Latency(links, bytes.back());
}

} // namespace ns3
