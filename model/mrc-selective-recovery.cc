/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-selective-recovery.h"

#include "mrc-congestion-ops.h"
#include "mrc-nack-header.h"
#include "mrc-path-selection.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSelectiveRecovery");

NS_OBJECT_ENSURE_REGISTERED(MrcSelectiveRecovery);

TypeId
MrcSelectiveRecovery::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcSelectiveRecovery")
                            .SetParent<MrcLossRecovery>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcSelectiveRecovery>();
    return tid;
}

MrcSelectiveRecovery::MrcSelectiveRecovery() = default;

MrcSelectiveRecovery::~MrcSelectiveRecovery() = default;

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
    m_lossQueue.emplace_back(Simulator::Now() + m_ctx.lossTimeout, r.psn);
    if (m_lossEvent.IsExpired())
    {
        ArmLossTimer();
    }
}

void
MrcSelectiveRecovery::OnAcknowledged()
{
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
}

void
MrcSelectiveRecovery::ArmLossTimer()
{
    Simulator::Cancel(m_lossEvent);
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
        // A silent loss retires its EV, unless a packet sent later on the same EV was
        // acknowledged: the path works, and this packet (or its SACK) was lost on its own.
        if (m_ctx.sendQueue->GetLastAckedSend(r->ev) > r->sentAt)
        {
            m_ctx.stats->lossesOnLiveEv++;
        }
        else
        {
            m_ctx.paths->OnSilentLoss(r->ev);
        }
        m_ctx.cc->OnLoss(now, r->length);
        Queue(*r, "loss-timer");
    }
    ArmLossTimer();
}

void
MrcSelectiveRecovery::OnPortDown(uint32_t plane)
{
    // Packets in flight on the dead port are lost: resend them on the other planes.
    for (MrcSendQueue::Record& r : m_ctx.sendQueue->GetWindow())
    {
        if (!r.acked && r.inFlight && m_ctx.paths->GetPathSet().GetPlane(r.ev) == plane)
        {
            Queue(r, "port-down");
        }
    }
}

void
MrcSelectiveRecovery::DoStop()
{
    Simulator::Cancel(m_lossEvent);
}

} // namespace ns3
