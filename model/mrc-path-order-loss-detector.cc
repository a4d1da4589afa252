/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-path-order-loss-detector.h"

namespace ns3
{

void
MrcPathOrderLossDetector::OnSent(uint32_t psn, uint32_t ev, Time sentAt)
{
    m_perEv[ev].sent.push_back(Sent{sentAt, psn});
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
        EvFifo& q = it->second;
        // Everything sent on this EV up to the acknowledged transmission is resolved: delivered,
        // retransmitted since (another entry stands for it), or lost.
        while (q.head < q.sent.size() && q.sent[q.head].sentAt <= a.sentAt)
        {
            const Sent s = q.sent[q.head++];
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
        if (q.head == q.sent.size())
        {
            q.sent.clear();
            q.head = 0;
        }
        else if (q.head * 2 >= q.sent.size())
        {
            q.sent.erase(q.sent.begin(), q.sent.begin() + q.head);
            q.head = 0;
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
