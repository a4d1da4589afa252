/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ring-collective.h"

#include "ns3/boolean.h"
#include "ns3/log.h"

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
                          "A rank posts its next step only once its previous write is "
                          "acknowledged (else as soon as its predecessor's chunk arrives).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcRingCollective::m_waitForAck),
                          MakeBooleanChecker());
    return tid;
}

uint32_t
MrcRingCollective::ChunkIndex(uint32_t rank, uint32_t step, uint32_t n)
{
    return (rank + n - step % n) % n;
}

uint32_t
MrcRingCollective::GetChunkIndex(uint32_t rank, uint32_t step) const
{
    return ChunkIndex(rank, step, GetRankCount());
}

uint64_t
MrcRingCollective::GetExpectedReceivedBytes(uint32_t rank) const
{
    const uint32_t n = GetRankCount();
    const auto chunks = MrcLineRateModel::Chunks(m_size, n);
    const uint32_t pred = (rank + n - 1) % n;
    uint64_t bytes = 0;
    for (uint32_t k = 0; k < GetStepCount(); ++k)
    {
        bytes += chunks[GetChunkIndex(pred, k)];
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
    return GetRankCount() * GetStepCount();
}

void
MrcRingCollective::DoStart()
{
    const uint32_t n = GetRankCount();
    m_step.assign(n, 0);
    m_sent.assign(n, std::vector<bool>(GetStepCount(), false));
    m_received.assign(n, std::vector<bool>(GetStepCount(), false));
    if (GetStepCount() == 0)
    {
        return;
    }
    for (uint32_t r = 0; r < n; ++r)
    {
        PostStep(r);
    }
}

void
MrcRingCollective::PostStep(uint32_t rank)
{
    const uint32_t n = GetRankCount();
    const auto chunks = MrcLineRateModel::Chunks(m_size, n);
    const uint32_t step = m_step[rank];
    Post(rank, (rank + 1) % n, chunks[GetChunkIndex(rank, step)], step);
}

void
MrcRingCollective::Advance(uint32_t rank)
{
    // Without WaitForAck a predecessor running ahead may already have sent the next chunks.
    while (m_step[rank] + 1 < GetStepCount() && (m_sent[rank][m_step[rank]] || !m_waitForAck)
           && m_received[rank][m_step[rank]])
    {
        m_step[rank]++;
        PostStep(rank);
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
        const auto chunks = MrcLineRateModel::Chunks(m_size, n);
        for (uint32_t step = 0; step < GetStepCount(); ++step)
        {
            plan.push_back({chunks[GetChunkIndex(src, step)], step});
        }
    }
    return plan;
}

} // namespace ns3
