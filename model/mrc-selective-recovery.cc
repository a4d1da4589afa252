/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-selective-recovery.h"

#include "mrc-congestion-ops.h"
#include "mrc-nack-header.h"
#include "mrc-path-selection.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSelectiveRecovery");

NS_OBJECT_ENSURE_REGISTERED(MrcSelectiveRecovery);

TypeId
MrcSelectiveRecovery::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcSelectiveRecovery")
            .SetParent<MrcLossRecovery>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcSelectiveRecovery>()
            .AddAttribute("OutOfOrderWindows",
                          "SACK loss rule: PSNs are lost when the receiver's out-of-order count "
                          "reaches this many congestion windows (capped at the largest window) "
                          "of full packets (the UEC reference simulator's loss_retx_factor).",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&MrcSelectiveRecovery::m_oooWindows),
                          MakeDoubleChecker<double>(0.01, 64))
            .AddAttribute("OutOfOrderMinPackets",
                          "SACK loss rule: the threshold's floor in full packets (the reference "
                          "simulator's min_retx_config).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&MrcSelectiveRecovery::m_oooMinPackets),
                          MakeUintegerChecker<uint32_t>(1, 1u << 20))
            .AddAttribute("ReorderWindow",
                          "SACK loss rule: a PSN is declared only when a packet sent this much "
                          "later has been acknowledged: the spread of queueing delays across "
                          "paths, so that a packet still queued on a slower path is not resent "
                          "and its EV not retired (0: measured, the longest RTT of the last 4-8 "
                          "base RTTs minus the base RTT, at least the 0.75 base RTT target "
                          "delay) [open].",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcSelectiveRecovery::m_reorderWindowAttr),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PlaneReorderWindow",
                          "SACK loss rule with the derived ReorderWindow: allow a packet the "
                          "queueing spread of its own plane's paths (the longest recent RTT of the "
                          "plane over the base RTT, at least the target delay) instead of that of "
                          "all the queue pair's paths, so that a loss on a lightly loaded plane is "
                          "found without waiting for the most loaded plane's queues [open].",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcSelectiveRecovery::m_planeReorder),
                          MakeBooleanChecker())
            .AddAttribute("PathOrderLoss",
                          "A PSN is lost when a packet sent after it on the same EV has been "
                          "acknowledged: an EV is one FIFO path, so this needs no out-of-order "
                          "threshold (MrcPathOrderLossDetector) [open: MRC does not publish its "
                          "inference; false gives the UEC reference's SACK rule alone].",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcSelectiveRecovery::m_pathOrder),
                          MakeBooleanChecker())
            .AddAttribute("PlaneOrderLoss",
                          "A PSN is lost when a packet sent on the same plane at least that "
                          "plane's reorder window later has been acknowledged "
                          "(MrcPlaneOrderLossDetector: RACK per plane; the window is the "
                          "plane's queueing spread as PlaneReorderWindow measures it, or "
                          "ReorderWindow when set). Each plane queues on its own, so a loss on "
                          "an empty plane is not held up by a deep one [open: MRC does not "
                          "publish its inference; false gives the UEC reference's SACK rule "
                          "alone, with PathOrderLoss].",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcSelectiveRecovery::m_planeOrder),
                          MakeBooleanChecker())
            .AddAttribute("TailReorderTimer",
                          "When nothing new is left to send, a PSN sent before a packet that has "
                          "been acknowledged is lost once the longest recent RTT plus "
                          "ReorderWindow have passed since it was sent (RACK, RFC 8985, with "
                          "the windowed maximum RTT for spraying), without waiting for "
                          "the out-of-order threshold or a tail-loss probe [open: false leaves "
                          "the tail to the probe, as the UEC reference simulator does].",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcSelectiveRecovery::m_tailReorder),
                          MakeBooleanChecker())
            .AddAttribute(
                "RetiredEvSweep",
                "When a silent loss retires an EV, the packets still unacknowledged "
                "whose last transmission went on it (or on an EV of its path retired "
                "too, RetirePathEvs) are declared lost once that path's latest RTT "
                "plus a target delay (0.75 base RTT) has passed since they were sent, at "
                "most the loss timer: a path that lost one packet and is now out of use is "
                "presumed to have lost what it still holds, instead of each packet "
                "waiting for its own loss timer [open: the brief says MRC stops using "
                "the EV at once, not how its packets in flight are recovered].",
                BooleanValue(true),
                MakeBooleanAccessor(&MrcSelectiveRecovery::m_retiredEvSweep),
                MakeBooleanChecker())
            .AddAttribute(
                "RetirePathEvs",
                "A path (SRv6: the EVs with equal uSID carriers) is retired whole, each of its "
                "active EVs replaced by a backup on another path of the plane, once silent "
                "losses located on this many distinct EVs of it were of packets sent within "
                "RetirePathSpan of each other. A failed path loses what every one of its EVs "
                "had in flight; a random drop is one packet. The module puts several EVs on a "
                "path where a plane has fewer paths than EvSetSize / planes (16 per path with "
                "the defaults on 4 T1s), where in MRC an EV names one path. 0: never by this "
                "count (each EV waits for a loss of its own, or RetireSilentPath); 1: every "
                "located loss (costs random-loss goodput) [open].",
                UintegerValue(3),
                MakeUintegerAccessor(&MrcSelectiveRecovery::m_retirePathEvs),
                MakeUintegerChecker<uint32_t>(0, 1024))
            .AddAttribute(
                "RetireSilentPath",
                "When the SACK or plane-order rule's unlocated losses show a path silent "
                "(nothing heard on it since the first of them was sent, and a packet sent on it "
                "after that loss was declared is overdue too), retire every active EV that "
                "names the path, each replaced by a backup, not only the EVs whose losses "
                "showed it. A path with a deep queue when it failed excuses its losses for "
                "that queue's RTT, so RetirePathEvs rarely sees three of them within a base "
                "RTT; retired two at a time, the 16 EVs of such a path took hundreds of "
                "microseconds to leave [open: in MRC an EV names one path].",
                BooleanValue(true),
                MakeBooleanAccessor(&MrcSelectiveRecovery::m_retireSilentPath),
                MakeBooleanChecker())
            .AddAttribute("RetirePathSpan",
                          "Send-time span of the losses RetirePathEvs counts (0: one base RTT).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcSelectiveRecovery::m_retirePathSpanAttr),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TailLossProbe",
                          "Send an acknowledgement request when acknowledgements stop while PSNs "
                          "are outstanding.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcSelectiveRecovery::m_tailProbe),
                          MakeBooleanChecker())
            .AddAttribute("TailProbeDelay",
                          "Wait after the newest transmission before a tail-loss probe when "
                          "nothing new is left to send, and at least a target delay (0.75 base "
                          "RTT) after the last acknowledgement (0: base RTT + 0.75 base RTT, the "
                          "reference simulator's base RTT + target delay).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcSelectiveRecovery::m_tlpDelayAttr),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TailProbeBusyDelay",
                          "The same wait while new data waits for the window (0: 3 base RTTs, "
                          "the reference simulator's probe_first_trial_time).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcSelectiveRecovery::m_tlpBusyAttr),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TailProbeRetry",
                          "Wait before probing again when a probe got no answer (0: 5 base "
                          "RTTs, the reference simulator's probe_retry_time).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcSelectiveRecovery::m_tlpRetryAttr),
                          MakeTimeChecker(Time(0)));
    return tid;
}

MrcSelectiveRecovery::MrcSelectiveRecovery() = default;

MrcSelectiveRecovery::~MrcSelectiveRecovery() = default;

void
MrcSelectiveRecovery::Start(const Context& context)
{
    MrcLossRecovery::Start(context);
    MrcSackLossDetector::Params dp;
    dp.cwndFactor = m_oooWindows;
    dp.minPackets = m_oooMinPackets;
    // A retransmission overtaken by half a base RTT of later-sent, delivered packets is lost too.
    dp.relossWindow = context.baseRtt / 2;
    dp.reorderWindow = m_reorderWindowAttr.IsZero() ? context.baseRtt * 0.75 : m_reorderWindowAttr;
    m_detector = MrcSackLossDetector(dp);
    m_planeRttMax.assign(context.paths ? context.paths->GetPathSet().GetPlaneCount() : 0,
                         {Time(0), Time(0)});
    if (m_planeReorder && m_reorderWindowAttr.IsZero())
    {
        m_detector.SetReorderWindowOf([this](uint32_t ev) {
            return GetReorderWindow(ev);
        });
    }
    m_pathOrderDetector = MrcPathOrderLossDetector();
    m_planeOrderDetector = MrcPlaneOrderLossDetector();
    const Time rtt = context.baseRtt;
    const Time target = rtt * 0.75;
    m_tlpDelay = m_tlpDelayAttr.IsZero() ? rtt + target : m_tlpDelayAttr;
    m_tlpBusy = m_tlpBusyAttr.IsZero() ? rtt * 3 : m_tlpBusyAttr;
    m_tlpRetry = m_tlpRetryAttr.IsZero() ? rtt * 5 : m_tlpRetryAttr;
    m_tlpAnswerLimit = rtt + target;
    m_tlpAckGap = target;
    m_retirePathSpan = m_retirePathSpanAttr.IsZero() ? rtt : m_retirePathSpanAttr;
}

Time
MrcSelectiveRecovery::GetTailProbeDelay() const
{
    return m_tlpDelay;
}

MrcReceiveOrder
MrcSelectiveRecovery::GetReceiveOrder() const
{
    return MrcReceiveOrder::ANY;
}

MrcSendQueue::Record*
MrcSelectiveRecovery::PeekRetransmission()
{
    // Drop retransmission entries made stale by acknowledgements.
    while (!m_rtxQueue.empty())
    {
        MrcSendQueue::Record* r = m_ctx.sendQueue->Find(m_rtxQueue.front());
        if (r && !r->acked && r->queued)
        {
            return r;
        }
        m_rtxQueue.pop_front();
    }
    return nullptr;
}

void
MrcSelectiveRecovery::PopRetransmission()
{
    m_ctx.sendQueue->Find(m_rtxQueue.front())->queued = false;
    m_rtxQueue.pop_front();
}

void
MrcSelectiveRecovery::OnSent(MrcSendQueue::Record& r, bool retransmission)
{
    m_lastSend = Simulator::Now();
    if (m_pathOrder)
    {
        m_pathOrderDetector.OnSent(r.psn, r.ev, r.sentAt);
    }
    uint32_t plane = 0;
    if (m_planeOrder && PlaneOf(r.ev, plane))
    {
        m_planeOrderDetector.OnSent(r.psn, plane, r.sentAt);
    }
    if (!m_pathSuspects.empty())
    {
        auto suspect = m_pathSuspects.find(m_ctx.paths->GetPathId(r.ev));
        if (suspect != m_pathSuspects.end() && suspect->second.nextSent.IsStrictlyNegative()
            && r.sentAt > suspect->second.sentAt)
        {
            suspect->second.nextSent = r.sentAt;
        }
    }
    m_lossQueue.emplace_back(Simulator::Now() + m_ctx.lossTimeout, r.psn);
    if (m_lossEvent.IsExpired())
    {
        ArmLossTimer();
    }
    ArmTailProbe(false);
}

std::vector<uint32_t>
MrcSelectiveRecovery::DetectLosses(const MrcAckFeedback& feedback)
{
    return m_detector.OnSack(*m_ctx.sendQueue,
                             feedback.outOfOrder,
                             m_ctx.cc->GetWindow(),
                             m_ctx.cc->GetMaxCwnd(),
                             m_ctx.mss);
}

void
MrcSelectiveRecovery::OnAcknowledged(const MrcAckFeedback& feedback)
{
    const Time now = Simulator::Now();
    m_lastAck = now;
    // The longest RTT seen lately (two spans of 4 base RTTs): how long a packet on the path
    // queueing most may take. Both time rules allow for it.
    if (now >= m_rttMaxStart + m_ctx.baseRtt * 4)
    {
        m_rttMaxPrev = m_rttMaxCur;
        m_rttMaxCur = Time(0);
        m_rttMaxStart = now;
        for (auto& [cur, prev] : m_planeRttMax)
        {
            prev = cur;
            cur = Time(0);
        }
    }
    for (const MrcSendQueue::Acked& a : m_ctx.sendQueue->GetJustAcked())
    {
        if (a.transmissions == 1)
        {
            m_rttMaxCur = std::max(m_rttMaxCur, now - a.sentAt);
            // Per plane only when a plane rule uses it (two EV lookups per packet).
            uint32_t plane = 0;
            if ((m_planeReorder || m_planeOrder) && PlaneOf(a.ev, plane))
            {
                if (plane < m_planeRttMax.size())
                {
                    Time& cur = m_planeRttMax[plane].first;
                    cur = std::max(cur, now - a.sentAt);
                }
                if (m_planeOrder)
                {
                    m_planeOrderDetector.OnAcked(a, plane);
                }
            }
            auto [it, fresh] =
                m_lastAckOnPath.try_emplace(m_ctx.paths->GetPathId(a.ev), a.sentAt, now);
            if (!fresh && it->second.first < a.sentAt)
            {
                it->second = {a.sentAt, now};
            }
        }
    }
    if (m_pathOrder)
    {
        for (uint32_t psn : m_pathOrderDetector.OnSack(*m_ctx.sendQueue))
        {
            m_ctx.stats->rtxPathOrder++;
            DeclareLost(psn, "path-order");
        }
        // A packet resent on an unlocated declaration while its EV was kept: a later packet
        // of that EV delivered before it shows the transmission was lost on that path.
        for (const MrcPathOrderLossDetector::Overtaken& o : m_pathOrderDetector.GetOvertaken())
        {
            auto it = m_suspects.find(o.psn);
            if (it != m_suspects.end() && it->second == std::make_pair(o.ev, o.sentAt))
            {
                m_suspects.erase(it);
                m_ctx.stats->lossesLocatedLater++;
                m_ctx.paths->OnSilentLoss(o.ev);
                NotePathLoss(o.ev, o.sentAt);
            }
        }
    }
    for (const MrcSendQueue::Acked& a : m_ctx.sendQueue->GetJustAcked())
    {
        if (m_suspects.empty())
        {
            break; // the usual case: no hash per packet
        }
        m_suspects.erase(a.psn); // acknowledged first: the transmission may have been slow
    }
    if (m_planeOrder)
    {
        const std::vector<uint32_t> overdue =
            m_planeOrderDetector.Detect(*m_ctx.sendQueue, [this](uint32_t plane) {
                return GetPlaneReorderWindow(plane);
            });
        for (uint32_t psn : overdue)
        {
            m_ctx.stats->rtxPlaneOrder++;
            DeclareLostUnlocated(psn, "plane-order");
        }
    }
    if (m_reorderWindowAttr.IsZero())
    {
        m_detector.SetReorderWindow(SpreadWindow(std::max(m_rttMaxCur, m_rttMaxPrev)));
    }
    const std::vector<uint32_t> lost = DetectLosses(feedback);
    for (uint32_t psn : lost)
    {
        m_ctx.stats->rtxSack++;
        DeclareLostUnlocated(psn, "sack");
    }
    if (m_tailReorder)
    {
        RunTailReorder();
    }
    ArmTailProbe(true);
}

void
MrcSelectiveRecovery::RunTailReorder()
{
    Simulator::Cancel(m_reorderEvent);
    if (!m_ctx.sendQueue->IsFullyPacketized() || m_ctx.sendQueue->IsWindowEmpty())
    {
        return;
    }
    Time next;
    const Time rtt = std::max({m_rttMaxCur, m_rttMaxPrev, m_ctx.baseRtt});
    for (uint32_t psn : m_detector.OnTail(*m_ctx.sendQueue, Simulator::Now(), rtt, next))
    {
        m_ctx.stats->rtxTailReorder++;
        DeclareLostUnlocated(psn, "tail-reorder");
    }
    if (!next.IsStrictlyNegative())
    {
        m_reorderEvent = Simulator::Schedule(next - Simulator::Now(),
                                             &MrcSelectiveRecovery::RunTailReorder,
                                             this);
    }
}

void
MrcSelectiveRecovery::DeclareLost(uint32_t psn, const std::string& cause)
{
    MrcSendQueue::Record* r = m_ctx.sendQueue->Find(psn);
    if (!r || r->acked || r->queued)
    {
        return;
    }
    if (m_ctx.sendQueue->GetLastAckedSend(r->ev) > r->sentAt)
    {
        m_ctx.stats->lossesOnLiveEv++;
    }
    // "Not trimmed but actually lost": MRC stops using that EV immediately.
    m_ctx.paths->OnSilentLoss(r->ev);
    const uint32_t ev = r->ev;
    NotePathLoss(ev, r->sentAt);
    Queue(*r, cause);
    ScheduleSweep(ev);
}

void
MrcSelectiveRecovery::NotePathLoss(uint32_t ev, Time sentAt)
{
    if (m_retirePathEvs == 0)
    {
        return;
    }
    // Where the path is not known (ECMP) each EV is its own path: one EV never counts twice.
    std::deque<std::pair<Time, uint32_t>>& losses = m_pathLosses[m_ctx.paths->GetPathId(ev)];
    losses.emplace_back(sentAt, ev);
    // Keep the losses within a span of the newest (packets are judged roughly in send order).
    Time newest = sentAt;
    for (const auto& l : losses)
    {
        newest = std::max(newest, l.first);
    }
    losses.erase(std::remove_if(losses.begin(),
                                losses.end(),
                                [this, newest](const std::pair<Time, uint32_t>& l) {
                                    return l.first + m_retirePathSpan < newest;
                                }),
                 losses.end());
    std::vector<uint32_t> evs;
    for (const auto& l : losses)
    {
        if (std::find(evs.begin(), evs.end(), l.second) == evs.end())
        {
            evs.push_back(l.second);
        }
    }
    if (evs.size() >= m_retirePathEvs)
    {
        NS_LOG_LOGIC("losses on " << evs.size() << " EVs of one path: retire it");
        losses.clear();
        m_ctx.paths->OnPathLoss(ev);
    }
}

void
MrcSelectiveRecovery::ScheduleSweep(uint32_t ev)
{
    auto pending = m_sweeps.find(ev);
    if (!m_retiredEvSweep || (pending != m_sweeps.end() && !pending->second.IsExpired()))
    {
        return; // the pending sweep covers everything sent on the EV before now
    }
    const Time rtt = std::max(m_ctx.baseRtt, GetLatestRtt(ev).value_or(Time(0)));
    const Time wait = std::min(rtt + m_ctx.baseRtt * 0.75, m_ctx.lossTimeout);
    // What was sent on the path that long ago is overdue already (the loss was found late, by
    // the SACK rule or the loss timer): now, not each packet at its own loss timer.
    SweepRetiredEv(ev, Simulator::Now() - wait);
    m_sweeps[ev] = Simulator::Schedule(wait,
                                       &MrcSelectiveRecovery::SweepRetiredEv,
                                       this,
                                       ev,
                                       Simulator::Now());
}

Time
MrcSelectiveRecovery::GetReorderWindow(uint32_t ev) const
{
    uint32_t plane = 0;
    if (!m_planeReorder || !PlaneOf(ev, plane))
    {
        return m_detector.GetReorderWindow();
    }
    return GetPlaneReorderWindow(plane);
}

Time
MrcSelectiveRecovery::GetPlaneReorderWindow(uint32_t plane) const
{
    if (!m_reorderWindowAttr.IsZero())
    {
        return m_reorderWindowAttr;
    }
    const Time longest = plane < m_planeRttMax.size()
                             ? std::max(m_planeRttMax[plane].first, m_planeRttMax[plane].second)
                             : Time(0);
    // Nothing heard on the plane lately: the queue pair's window.
    return longest.IsZero() ? m_detector.GetReorderWindow() : SpreadWindow(longest);
}

bool
MrcSelectiveRecovery::PlaneOf(uint32_t ev, uint32_t& plane) const
{
    const MrcPathSet& set = m_ctx.paths->GetPathSet();
    if (!set.Contains(ev))
    {
        return false;
    }
    plane = set.GetPlane(ev);
    return true;
}

Time
MrcSelectiveRecovery::SpreadWindow(Time longestRtt) const
{
    // The queueing spread across paths: the longest recent RTT over the base RTT, at least the
    // target delay.
    return std::max(m_ctx.baseRtt * 0.75, longestRtt - m_ctx.baseRtt);
}

std::optional<Time>
MrcSelectiveRecovery::GetLatestRtt(uint32_t ev) const
{
    auto heard = m_lastAckOnPath.find(m_ctx.paths->GetPathId(ev));
    if (heard == m_lastAckOnPath.end())
    {
        return std::nullopt;
    }
    return heard->second.second - heard->second.first;
}

void
MrcSelectiveRecovery::SweepRetiredEv(uint32_t ev, Time retiredAt)
{
    for (MrcSendQueue::Record& r : m_ctx.sendQueue->GetWindow())
    {
        if (!r.acked && !r.queued && r.transmissions > 0 && r.sentAt <= retiredAt
            && m_ctx.paths->IsRetiredWith(ev, r.ev))
        {
            m_ctx.stats->rtxRetiredEv++;
            Queue(r, "retired-ev");
        }
    }
}

void
MrcSelectiveRecovery::DeclareLostUnlocated(uint32_t psn, const std::string& cause)
{
    MrcSendQueue::Record* r = m_ctx.sendQueue->Find(psn);
    if (!r || r->acked || r->queued)
    {
        return;
    }
    if (!IsOverdueOnPath(r->ev, r->sentAt))
    {
        m_ctx.stats->lossesOnDeliveringEv++;
        if (m_pathOrder)
        {
            m_suspects[psn] = {r->ev, r->sentAt};
        }
        if (LocateBySilence(*r))
        {
            DeclareLost(psn, cause);
            return;
        }
        Queue(*r, cause);
        return;
    }
    DeclareLost(psn, cause);
}

bool
MrcSelectiveRecovery::IsOverdueOnPath(uint32_t ev, Time sentAt) const
{
    const std::optional<Time> rtt = GetLatestRtt(ev);
    if (!rtt)
    {
        return true; // the path never delivered anything
    }
    uint32_t plane = 0;
    const Time window =
        m_planeOrder && PlaneOf(ev, plane) ? GetPlaneReorderWindow(plane) : GetReorderWindow(ev);
    return Simulator::Now() >= sentAt + *rtt + window;
}

bool
MrcSelectiveRecovery::LocateBySilence(const MrcSendQueue::Record& r)
{
    // A dead path delivers nothing, so the per-EV order rule never locates its losses, and a
    // time rule faster than the path's own RTT plus reorder window finds them before they are
    // overdue on it: each is resent, the EV kept, and the path keeps taking packets. A later
    // such loss on the path locates the first and itself once the path is silent.
    const uint64_t path = m_ctx.paths->GetPathId(r.ev);
    auto heard = m_lastAckOnPath.find(path);
    const Time lastHeard = heard == m_lastAckOnPath.end() ? Time(-1) : heard->second.first;
    auto [it, fresh] = m_pathSuspects.try_emplace(path, PathSuspect{r.sentAt, r.ev, Time(-1)});
    PathSuspect& first = it->second;
    if (fresh || r.sentAt <= first.sentAt)
    {
        return false;
    }
    if (lastHeard >= first.sentAt)
    {
        first = PathSuspect{r.sentAt, r.ev, Time(-1)}; // the path delivered since: a new first
        return false;
    }
    // Silent, not idle: the first packet sent on the path after the first loss was declared
    // (OnSent) is overdue too. A queue holds back what is behind the first loss as well; an
    // idle path delivers nothing because nothing was sent. A later declared loss is no such
    // evidence: its retransmission makes its acknowledgement ambiguous (Karn), so the path
    // would look silent while it delivers.
    if (first.nextSent.IsStrictlyNegative() || !IsOverdueOnPath(first.ev, first.nextSent))
    {
        return false;
    }
    const uint32_t firstEv = first.ev;
    const Time firstSent = first.sentAt;
    m_pathSuspects.erase(it);
    m_ctx.stats->lossesLocatedLater++;
    if (m_retireSilentPath)
    {
        // The silence is the path's, not one EV's: every EV that names the path is as dead.
        m_ctx.paths->OnPathLoss(firstEv);
    }
    if (firstEv != r.ev)
    {
        m_ctx.paths->OnSilentLoss(firstEv);
        NotePathLoss(firstEv, firstSent);
        ScheduleSweep(firstEv);
    }
    return true;
}

void
MrcSelectiveRecovery::Queue(MrcSendQueue::Record& r, const std::string& cause)
{
    if (r.acked || r.queued)
    {
        return;
    }
    NS_LOG_LOGIC("resend PSN " << r.psn << " (" << cause << ")");
    m_ctx.sendQueue->MarkLost(r);
    r.queued = true;
    m_rtxQueue.push_back(r.psn);
    m_ctx.retransmit(r.psn, r.ev, cause);
    m_ctx.kick();
}

void
MrcSelectiveRecovery::OnNack(const MrcNackHeader& nack)
{
    MrcSendQueue::Record* r = m_ctx.sendQueue->Find(nack.GetPsn());
    const bool pending = r && !r->acked && !r->queued;
    switch (nack.GetCode())
    {
        case MrcNackCode::TRIMMED:
        case MrcNackCode::TRIMMED_LASTHOP: {
            const bool lastHop = nack.GetCode() == MrcNackCode::TRIMMED_LASTHOP;
            if (!lastHop)
            {
                m_ctx.paths->OnTrimmed(nack.GetReflectedEv());
            }
            if (pending)
            {
                (lastHop ? m_ctx.stats->rtxTrimmedLastHop : m_ctx.stats->rtxTrimmed)++;
                m_ctx.cc->OnNack(Simulator::Now(), r->length, lastHop);
                Queue(*r, lastHop ? "nack-trimmed-lasthop" : "nack-trimmed");
            }
            break;
        }
        case MrcNackCode::NO_BITMAP:
        case MrcNackCode::PSN_OOR_WINDOW:
        case MrcNackCode::SEQUENCE_ERROR:
            // The receiver refused the packet: resend it, without blaming the path.
            if (pending)
            {
                m_ctx.stats->rtxNoBitmap++;
                Queue(*r,
                      nack.GetCode() == MrcNackCode::NO_BITMAP        ? "nack-no-bitmap"
                      : nack.GetCode() == MrcNackCode::PSN_OOR_WINDOW ? "nack-oor-window"
                                                                      : "nack-sequence-error");
            }
            break;
        case MrcNackCode::UNEXP_EVENT:
            m_ctx.fail("peer reported an unexpected event (NACK UNEXP_EVENT)");
            break;
        default:
            m_ctx.stats->malformedReceived++;
            break;
    }
    ArmTailProbe(true);
}

void
MrcSelectiveRecovery::ArmLossTimer()
{
    Simulator::Cancel(m_lossEvent);
    // An entry whose packet is acknowledged or released can never fire (acknowledgement is
    // final): drop it here, so that the timer waits for the oldest packet still in flight
    // rather than waking once per packet sent, to find it acknowledged.
    while (!m_lossQueue.empty())
    {
        const MrcSendQueue::Record* r = m_ctx.sendQueue->Find(m_lossQueue.front().second);
        if (r && !r->acked)
        {
            break;
        }
        m_lossQueue.pop_front();
    }
    if (!m_lossQueue.empty())
    {
        m_lossEvent =
            Simulator::Schedule(std::max(Time(0), m_lossQueue.front().first - Simulator::Now()),
                                &MrcSelectiveRecovery::OnLossTimer,
                                this);
    }
}

void
MrcSelectiveRecovery::OnLossTimer()
{
    const Time now = Simulator::Now();
    while (!m_lossQueue.empty() && m_lossQueue.front().first <= now)
    {
        const uint32_t psn = m_lossQueue.front().second;
        m_lossQueue.pop_front();
        MrcSendQueue::Record* r = m_ctx.sendQueue->Find(psn);
        // Only the last transmission of a still-unacknowledged packet counts.
        if (!r || r->acked || r->queued || r->sentAt + m_ctx.lossTimeout > now)
        {
            continue;
        }
        m_ctx.stats->rtxTimeout++;
        m_ctx.cc->OnLoss(now, r->length);
        DeclareLost(psn, "loss-timer");
    }
    ArmLossTimer();
}

void
MrcSelectiveRecovery::ArmTailProbe(bool restart)
{
    if (!m_tailProbe)
    {
        return;
    }
    if (m_ctx.sendQueue->IsWindowEmpty())
    {
        Simulator::Cancel(m_tlpEvent);
        return;
    }
    if (!restart && !m_tlpEvent.IsExpired())
    {
        return;
    }
    Simulator::Cancel(m_tlpEvent);
    // Due a probe delay after the newest transmission (the last packet's acknowledgement is
    // overdue then), and not while acknowledgements still flow (a target delay after the last).
    const Time wait = m_ctx.sendQueue->IsFullyPacketized() ? m_tlpDelay : m_tlpBusy;
    const Time due = std::max(m_lastSend + wait, m_lastAck + m_tlpAckGap);
    m_tlpEvent = Simulator::Schedule(std::max(Time(0), due - Simulator::Now()),
                                     &MrcSelectiveRecovery::OnTailProbeTimer,
                                     this);
}

void
MrcSelectiveRecovery::OnTailProbeTimer()
{
    if (m_ctx.sendQueue->IsWindowEmpty())
    {
        return;
    }
    ++m_tlpSequence;
    m_tlpSentAt = Simulator::Now();
    m_ctx.stats->tailProbesSent++;
    NS_LOG_LOGIC("tail-loss probe "
                 << m_tlpSequence << ", base PSN " << m_ctx.sendQueue->GetBasePsn() << ", next PSN "
                 << m_ctx.sendQueue->GetNextPsn() << ", in flight "
                 << m_ctx.sendQueue->GetInFlight() << " B, window " << m_ctx.cc->GetWindow()
                 << " B, " << m_rtxQueue.size() << " to resend");
    m_ctx.sendTailProbe(m_tlpSequence);
    m_tlpEvent = Simulator::Schedule(m_tlpRetry, &MrcSelectiveRecovery::OnTailProbeTimer, this);
}

void
MrcSelectiveRecovery::OnTailProbeAnswer(uint32_t sequence)
{
    if (sequence != m_tlpSequence || m_tlpSentAt.IsStrictlyNegative())
    {
        return; // an answer to an older probe
    }
    const Time rtt = Simulator::Now() - m_tlpSentAt;
    const Time probeSent = m_tlpSentAt;
    m_tlpSentAt = Time(-1);
    if (rtt > m_tlpAnswerLimit)
    {
        NS_LOG_LOGIC("tail-loss probe answered after " << rtt.As(Time::US) << ": not empty");
        return; // queues are long: what is missing may still be on its way
    }
    // The SACK sent before the answer reported all the peer holds, and the path is empty:
    // whatever was sent before the probe and is still unacknowledged is lost.
    std::vector<uint32_t> lost;
    for (const MrcSendQueue::Record& r : m_ctx.sendQueue->GetWindow())
    {
        if (!r.acked && !r.queued && r.transmissions > 0 && r.sentAt < probeSent)
        {
            lost.push_back(r.psn);
        }
    }
    for (uint32_t psn : lost)
    {
        m_ctx.stats->rtxTailProbe++;
        DeclareLost(psn, "tail-probe");
    }
}

void
MrcSelectiveRecovery::OnPortDown(uint32_t plane)
{
    // Packets in flight on the dead port are lost: resend them on the other planes.
    std::vector<uint32_t> lost;
    for (MrcSendQueue::Record& r : m_ctx.sendQueue->GetWindow())
    {
        if (!r.acked && r.inFlight && m_ctx.paths->GetPathSet().GetPlane(r.ev) == plane)
        {
            lost.push_back(r.psn);
        }
    }
    for (uint32_t psn : lost)
    {
        if (MrcSendQueue::Record* r = m_ctx.sendQueue->Find(psn))
        {
            Queue(*r, "port-down");
        }
    }
}

void
MrcSelectiveRecovery::DoStop()
{
    Simulator::Cancel(m_lossEvent);
    Simulator::Cancel(m_tlpEvent);
    Simulator::Cancel(m_reorderEvent);
    for (auto& [ev, event] : m_sweeps)
    {
        Simulator::Cancel(event);
    }
    m_sweeps.clear();
}

} // namespace ns3
