/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-path-order-loss-detector.h"

namespace ns3
{

void
MrcPathOrderLossDetector::OnSent(uint32_t psn, uint32_t ev, Time sentAt)
{
    m_perEv[ev].push_back(Sent{sentAt, psn});
    ++m_size;
}

std::vector<uint32_t>
MrcPathOrderLossDetector::OnSack(MrcSendQueue& sq)
{
    std::vector<uint32_t> lost;
    m_overtaken.clear();
    for (const MrcSendQueue::Acked& a : sq.GetJustAcked())
    {
        auto it = m_perEv.find(a.ev);
        // A packet sent more than once: the acknowledgement may be for an earlier copy on
        // another EV, so it says nothing about this EV (Karn's rule).
        if (it == m_perEv.end() || a.transmissions > 1)
        {
            continue;
        }
        std::deque<Sent>& q = it->second;
        // Everything sent on this EV up to the acknowledged transmission is resolved: delivered,
        // retransmitted since (another entry stands for it), or lost.
        while (!q.empty() && q.front().sentAt <= a.sentAt)
        {
            const Sent s = q.front();
            q.pop_front();
            --m_size;
            if (s.sentAt == a.sentAt && s.psn == a.psn)
            {
                continue;
            }
            MrcSendQueue::Record* r = sq.Find(s.psn);
            // Still this transmission (not sent again since), not acknowledged, not queued.
            if (!r || r->acked || s.sentAt >= a.sentAt)
            {
                continue;
            }
            if (!r->queued && r->ev == a.ev && r->sentAt == s.sentAt)
            {
                lost.push_back(s.psn);
            }
            else
            {
                m_overtaken.push_back(Overtaken{s.psn, a.ev, s.sentAt});
            }
        }
        if (q.empty())
        {
            m_perEv.erase(it);
        }
    }
    return lost;
}

const std::vector<MrcPathOrderLossDetector::Overtaken>&
MrcPathOrderLossDetector::GetOvertaken() const
{
    return m_overtaken;
}

std::size_t
MrcPathOrderLossDetector::GetSize() const
{
    return m_size;
}

} // namespace ns3
