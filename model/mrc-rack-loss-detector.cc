/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-rack-loss-detector.h"

namespace ns3
{

MrcRackLossDetector::MrcRackLossDetector(double reorderFraction)
    : m_reorderFraction(reorderFraction)
{
}

void
MrcRackLossDetector::OnAcked(const std::vector<MrcSendQueue::Acked>& acked, Time now)
{
    for (const MrcSendQueue::Acked& a : acked)
    {
        const Time rtt = now - a.sentAt;
        if (m_minRtt.IsZero() || rtt < m_minRtt)
        {
            m_minRtt = rtt;
        }
        if (a.sentAt > m_xmitTs)
        {
            m_xmitTs = a.sentAt;
            m_rtt = rtt;
        }
    }
}

Time
MrcRackLossDetector::GetReorderWindow() const
{
    return m_minRtt * m_reorderFraction;
}

Time
MrcRackLossDetector::GetMinRtt() const
{
    return m_minRtt;
}

std::vector<uint32_t>
MrcRackLossDetector::Detect(MrcSendQueue& sq, Time now, std::optional<Time>& nextDue) const
{
    nextDue.reset();
    std::vector<uint32_t> lost;
    if (m_xmitTs.IsStrictlyNegative())
    {
        return lost;
    }
    const Time wait = m_rtt + GetReorderWindow();
    for (const MrcSendQueue::Record& r : sq.GetWindow())
    {
        if (r.acked || r.queued || !r.inFlight || r.sentAt >= m_xmitTs)
        {
            continue;
        }
        const Time due = r.sentAt + wait;
        if (due <= now)
        {
            lost.push_back(r.psn);
        }
        else if (!nextDue || due < *nextDue)
        {
            nextDue = due;
        }
    }
    return lost;
}

} // namespace ns3
