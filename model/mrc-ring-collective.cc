/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ring-collective.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcRingCollective");

NS_OBJECT_ENSURE_REGISTERED(MrcRingCollective);

TypeId
MrcRingCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcRingCollective")
            .SetParent<MrcCollective>()
            .SetGroupName("Mrc")
            .AddAttribute("WaitForAck",
                          "A rank posts a WRITE that forwards its predecessor's data (a step "
                          "k > 0) only once its own WRITE of the same slice in step k - 1 is "
                          "acknowledged (else as soon as its predecessor's arrived).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcRingCollective::m_waitForAck),
                          MakeBooleanChecker())
            .AddAttribute("ChunkSize",
                          "Largest chunk a ring step moves, bytes (NCCL's chunkSize): S runs "
                          "round the ring in passes of at most n x ChunkSize bytes, one after "
                          "another. 0: one pass, chunks of S / n.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcRingCollective::m_chunkSize),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("SliceSize",
                          "Largest slice of a chunk, bytes (NCCL's slices; one WRITE each): a "
                          "slice goes on as soon as it has arrived, not the whole chunk. "
                          "0: whole chunks.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcRingCollective::m_sliceSize),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

uint32_t
MrcRingCollective::ChunkIndex(uint32_t rank, uint32_t step, uint32_t n)
{
    return MrcRingSchedule::ChunkIndex(rank, step, n);
}

uint32_t
MrcRingCollective::GetChunkIndex(uint32_t rank, uint32_t step) const
{
    return ChunkIndex(rank, step, GetRankCount());
}

MrcRingSchedule
MrcRingCollective::GetSchedule() const
{
    try
    {
        return MrcRingSchedule(GetRankCount(), GetStepCount(), m_size, m_chunkSize, m_sliceSize);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(GetName() + ": " + e.what());
    }
}

Time
MrcRingCollective::GetIdealTime() const
{
    return GetSchedule().GetIdealTime(GetLineRate(), GetMaxLinks());
}

uint64_t
MrcRingCollective::GetExpectedReceivedBytes(uint32_t rank) const
{
    const uint32_t n = GetRankCount();
    const uint32_t pred = (rank + n - 1) % n;
    const MrcRingSchedule schedule = GetSchedule();
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < schedule.GetWriteCount(); ++i)
    {
        bytes += schedule.GetBytes(pred, i);
    }
    return bytes;
}

std::vector<std::pair<uint32_t, uint32_t>>
MrcRingCollective::GetPeerPairs() const
{
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    const uint32_t n = GetRankCount();
    for (uint32_t r = 0; r < n; ++r)
    {
        pairs.emplace_back(r, (r + 1) % n);
    }
    return pairs;
}

uint32_t
MrcRingCollective::GetTransferCount() const
{
    return GetRankCount() * GetSchedule().GetWriteCount();
}

void
MrcRingCollective::DoSetup()
{
    GetSchedule(); // ChunkSize and SliceSize that cut S too fine fail here, not at Start
}

void
MrcRingCollective::DoStart()
{
    const uint32_t n = GetRankCount();
    m_schedule.emplace(GetSchedule());
    const uint32_t writes = m_schedule->GetWriteCount();
    m_next.assign(n, 0);
    m_sent.assign(n, std::vector<bool>(writes, false));
    m_received.assign(n, std::vector<bool>(writes, false));
    for (uint32_t r = 0; r < n; ++r)
    {
        Advance(r);
    }
}

void
MrcRingCollective::Advance(uint32_t rank)
{
    // Without WaitForAck a predecessor running ahead may already have sent the next slices.
    const uint32_t n = GetRankCount();
    while (m_next[rank] < m_schedule->GetWriteCount())
    {
        const uint32_t index = m_next[rank];
        const uint32_t dep = m_schedule->GetDependency(index);
        if (dep != MrcRingSchedule::kNoDependency
            && (!m_received[rank][dep] || (m_waitForAck && !m_sent[rank][dep])))
        {
            return;
        }
        m_next[rank]++;
        Post(rank, (rank + 1) % n, m_schedule->GetBytes(rank, index), index);
    }
}

void
MrcRingCollective::OnSendComplete(uint32_t index)
{
    const Transfer& t = GetTransfers()[index];
    m_sent[t.src][t.tag] = true;
    Advance(t.src);
}

void
MrcRingCollective::OnDelivered(uint32_t index)
{
    const Transfer& t = GetTransfers()[index];
    m_received[t.dst][t.tag] = true;
    Advance(t.dst);
}

std::vector<MrcCollective::PlannedTransfer>
MrcRingCollective::GetPlannedTransfers(uint32_t src, uint32_t dst) const
{
    const uint32_t n = GetRankCount();
    std::vector<PlannedTransfer> plan;
    if (src < n && dst == (src + 1) % n)
    {
        const MrcRingSchedule schedule = GetSchedule();
        for (uint32_t i = 0; i < schedule.GetWriteCount(); ++i)
        {
            plan.push_back({schedule.GetBytes(src, i), i});
        }
    }
    return plan;
}

} // namespace ns3
