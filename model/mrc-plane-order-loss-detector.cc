/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-plane-order-loss-detector.h"

#include <algorithm>

namespace ns3
{

void
MrcPlaneOrderLossDetector::Reserve(uint32_t plane)
{
    if (plane >= m_perPlane.size())
    {
        m_perPlane.resize(plane + 1);
        m_latest.resize(plane + 1, Time(-1));
    }
}

void
MrcPlaneOrderLossDetector::OnSent(uint32_t psn, uint32_t plane, Time sentAt)
{
    Reserve(plane);
    m_perPlane[plane].push_back(Sent{sentAt, psn});
    ++m_size;
}

void
MrcPlaneOrderLossDetector::OnAcked(const MrcSendQueue::Acked& acked, uint32_t plane)
{
    if (acked.transmissions != 1)
    {
        return;
    }
    Reserve(plane);
    m_latest[plane] = std::max(m_latest[plane], acked.sentAt);
}

std::vector<uint32_t>
MrcPlaneOrderLossDetector::Detect(MrcSendQueue& sq, const WindowOf& windowOf)
{
    std::vector<uint32_t> lost;
    for (uint32_t plane = 0; plane < m_perPlane.size(); ++plane)
    {
        std::deque<Sent>& q = m_perPlane[plane];
        if (q.empty() || m_latest[plane].IsStrictlyNegative())
        {
            continue;
        }
        const Time window = windowOf(plane);
        while (!q.empty())
        {
            const Sent s = q.front();
            const MrcSendQueue::Record* r = sq.Find(s.psn);
            // Acknowledged, or sent again since (its newer transmission has an entry of its own).
            const bool resolved = !r || r->acked || r->sentAt != s.sentAt;
            if (!resolved && s.sentAt + window >= m_latest[plane])
            {
                break; // not overdue; everything behind it on the plane was sent later
            }
            q.pop_front();
            --m_size;
            if (!resolved && !r->queued)
            {
                lost.push_back(s.psn);
            }
        }
    }
    return lost;
}

Time
MrcPlaneOrderLossDetector::GetLatestDelivered(uint32_t plane) const
{
    return plane < m_latest.size() ? m_latest[plane] : Time(-1);
}

std::size_t
MrcPlaneOrderLossDetector::GetSize() const
{
    return m_size;
}

} // namespace ns3
