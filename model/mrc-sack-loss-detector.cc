/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-sack-loss-detector.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

MrcSackLossDetector::MrcSackLossDetector()
    : MrcSackLossDetector(Params{})
{
}

MrcSackLossDetector::MrcSackLossDetector(const Params& params)
    : m_params(params)
{
}

uint32_t
MrcSackLossDetector::GetThreshold(uint64_t cwnd, uint64_t maxWindow, uint32_t mss) const
{
    const double bytes = std::max(std::min(m_params.cwndFactor * double(cwnd), double(maxWindow)),
                                  double(m_params.minPackets) * mss);
    return static_cast<uint32_t>(std::ceil(bytes / std::max<uint32_t>(mss, 1)));
}

std::vector<uint32_t>
MrcSackLossDetector::OnSack(MrcSendQueue& sq,
                            uint32_t outOfOrder,
                            uint64_t cwnd,
                            uint64_t maxWindow,
                            uint32_t mss)
{
    for (const MrcSendQueue::Acked& a : sq.GetJustAcked())
    {
        m_latestDelivered = std::max(m_latestDelivered, a.sentAt);
    }
    const uint32_t cum = sq.GetBasePsn();
    if (m_inRecovery && !MrcPsnLess(cum, m_recoveryPsn))
    {
        m_inRecovery = false;
    }
    if (!m_inRecovery)
    {
        if (outOfOrder < GetThreshold(cwnd, maxWindow, mss) || sq.IsWindowEmpty())
        {
            return {};
        }
        m_inRecovery = true;
        m_recoveryPsn = sq.GetNextPsn();
        ++m_episodes;
        // A new episode may declare again what an old one declared (it was lost again).
        m_episodeStart = cum;
        m_declared.clear();
        m_declared.resize(static_cast<size_t>(std::max(0, MrcPsnDiff(m_recoveryPsn, cum))));
    }
    return Collect(sq, cwnd, mss);
}

std::vector<uint32_t>
MrcSackLossDetector::Collect(MrcSendQueue& sq, uint64_t cwnd, uint32_t mss)
{
    const uint32_t cum = sq.GetBasePsn();
    // At most a window past the cumulative PSN: later PSNs were sent too recently to be judged.
    const uint32_t span = static_cast<uint32_t>(std::max<uint64_t>(1, cwnd / std::max(mss, 1u)));
    const uint32_t limit =
        MrcPsnDiff(m_recoveryPsn, MrcPsnAdd(cum, span)) < 0 ? m_recoveryPsn : MrcPsnAdd(cum, span);
    std::vector<uint32_t> lost;
    for (uint32_t psn = cum; MrcPsnLess(psn, limit); psn = MrcPsnAdd(psn, 1))
    {
        const MrcSendQueue::Record* r = sq.Find(psn);
        if (!r || r->acked || r->queued || r->transmissions == 0)
        {
            continue;
        }
        const int32_t index = MrcPsnDiff(psn, m_episodeStart);
        const bool inEpisode = index >= 0 && size_t(index) < m_declared.size();
        const bool again = inEpisode && m_declared.test(size_t(index));
        // Declared before: judged by the reloss window (zero: never again); otherwise by the
        // reorder window, whether this is the first transmission or one after a trim's NACK.
        const bool old = again
                             ? (m_params.relossWindow.IsStrictlyPositive()
                                && r->sentAt + m_params.relossWindow < m_latestDelivered)
                             : r->sentAt + (m_windowOf ? m_windowOf(r->ev) : m_params.reorderWindow)
                                   < m_latestDelivered;
        if (old)
        {
            lost.push_back(psn);
            if (inEpisode)
            {
                m_declared.set(size_t(index));
            }
        }
    }
    return lost;
}

std::vector<uint32_t>
MrcSackLossDetector::OnTail(MrcSendQueue& sq, Time now, Time rtt, Time& next) const
{
    next = Time(-1);
    std::vector<uint32_t> lost;
    for (const MrcSendQueue::Record& r : sq.GetWindow())
    {
        if (r.acked || r.queued || r.transmissions == 0 || r.sentAt >= m_latestDelivered)
        {
            continue;
        }
        const Time due = r.sentAt + rtt + m_params.reorderWindow;
        if (due <= now)
        {
            lost.push_back(r.psn);
        }
        else if (next.IsStrictlyNegative() || due < next)
        {
            next = due;
        }
    }
    return lost;
}

Time
MrcSackLossDetector::GetReorderWindow() const
{
    return m_params.reorderWindow;
}

void
MrcSackLossDetector::SetReorderWindowOf(std::function<Time(uint32_t ev)> windowOf)
{
    m_windowOf = std::move(windowOf);
}

void
MrcSackLossDetector::SetReorderWindow(Time window)
{
    m_params.reorderWindow = window;
}

Time
MrcSackLossDetector::GetLatestDelivered() const
{
    return m_latestDelivered;
}

bool
MrcSackLossDetector::InRecovery() const
{
    return m_inRecovery;
}

uint64_t
MrcSackLossDetector::GetEpisodes() const
{
    return m_episodes;
}

} // namespace ns3
