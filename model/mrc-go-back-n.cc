/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-go-back-n.h"

#include "mrc-congestion-ops.h"
#include "mrc-nack-header.h"
#include "mrc-path-selection.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcGoBackN");

NS_OBJECT_ENSURE_REGISTERED(MrcGoBackN);

TypeId
MrcGoBackN::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcGoBackN")
            .SetParent<MrcLossRecovery>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcGoBackN>()
            .AddAttribute("RetransmitTimeout",
                          "Retransmission timeout: no advance of the cumulative acknowledgement "
                          "for this long while packets are outstanding rewinds to the first "
                          "unacknowledged PSN (0: the NIC's Local ACK Timeout, 4.096 us x "
                          "2^LocalAckTimeout).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcGoBackN::m_timeoutAttr),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("LocalAckTimeout",
                          "The QP's Local ACK Timeout exponent t (InfiniBand/RoCEv2 RC: "
                          "4.096 us x 2^t, also the QP's retry timer: RetryCount timeouts in a "
                          "row without progress fail the QP). Default 18 (1.07 s), NCCL's "
                          "NCCL_IB_TIMEOUT default; older NCCL releases used 14 (67 ms).",
                          UintegerValue(18),
                          MakeUintegerAccessor(&MrcGoBackN::m_localAckTimeout),
                          MakeUintegerChecker<uint32_t>(1, 31));
    return tid;
}

MrcGoBackN::MrcGoBackN() = default;

MrcGoBackN::~MrcGoBackN() = default;

void
MrcGoBackN::Start(const Context& context)
{
    MrcLossRecovery::Start(context);
    m_timeout = m_timeoutAttr.IsZero() ? NanoSeconds(4096) * int64_t(1ULL << m_localAckTimeout)
                                       : m_timeoutAttr;
    // An RC QP's retry timer is its Local ACK Timeout: the QP fails after RetryCount + 1 of
    // them without progress, never before its first retransmission.
    m_ctx.qpTimeout = std::max(m_ctx.qpTimeout, m_timeout);
    m_lastBase = context.sendQueue->GetBasePsn();
}

Time
MrcGoBackN::GetRetransmitTimeout() const
{
    return m_timeout;
}

MrcReceiveOrder
MrcGoBackN::GetReceiveOrder() const
{
    return MrcReceiveOrder::IN_ORDER;
}

MrcSendQueue::Record*
MrcGoBackN::PeekRetransmission()
{
    if (!m_resending)
    {
        return nullptr;
    }
    MrcSendQueue& sq = *m_ctx.sendQueue;
    if (MrcPsnLess(m_cursor, sq.GetBasePsn()))
    {
        m_cursor = sq.GetBasePsn(); // acknowledged meanwhile
    }
    for (;;)
    {
        MrcSendQueue::Record* r = sq.Find(m_cursor);
        if (!r)
        {
            m_resending = false; // caught up with the new packets
            return nullptr;
        }
        if (!r->acked)
        {
            return r;
        }
        m_cursor = MrcPsnAdd(m_cursor, 1);
    }
}

void
MrcGoBackN::PopRetransmission()
{
    m_cursor = MrcPsnAdd(m_cursor, 1);
}

void
MrcGoBackN::OnSent(MrcSendQueue::Record& r, bool retransmission)
{
    if (m_timer.IsExpired())
    {
        ArmTimer();
    }
}

void
MrcGoBackN::OnAcknowledged(const MrcAckFeedback& feedback)
{
    const uint32_t base = m_ctx.sendQueue->GetBasePsn();
    if (base == m_lastBase)
    {
        return;
    }
    m_lastBase = base;
    Simulator::Cancel(m_timer);
    if (!m_ctx.sendQueue->IsWindowEmpty())
    {
        ArmTimer();
    }
}

void
MrcGoBackN::OnNack(const MrcNackHeader& nack)
{
    switch (nack.GetCode())
    {
        case MrcNackCode::TRIMMED:
        case MrcNackCode::TRIMMED_LASTHOP:
            if (const MrcSendQueue::Record* r = m_ctx.sendQueue->Find(nack.GetPsn()))
            {
                m_ctx.cc->OnNack(Simulator::Now(),
                                 r->length,
                                 nack.GetCode() == MrcNackCode::TRIMMED_LASTHOP);
            }
            m_ctx.stats->rewindsNack++;
            Rewind("gbn-nack-trimmed");
            break;
        case MrcNackCode::SEQUENCE_ERROR:
        case MrcNackCode::NO_BITMAP:
        case MrcNackCode::PSN_OOR_WINDOW:
            m_ctx.stats->rewindsNack++;
            Rewind("gbn-nack-sequence");
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
MrcGoBackN::Rewind(const std::string& cause)
{
    MrcSendQueue& sq = *m_ctx.sendQueue;
    if (sq.IsWindowEmpty())
    {
        return;
    }
    NS_LOG_INFO("go back to PSN " << sq.GetBasePsn() << " (" << cause << ")");
    for (MrcSendQueue::Record& r : sq.GetWindow())
    {
        // Records a rewind in progress has not resent yet are already out of flight.
        if (!r.acked && r.inFlight)
        {
            sq.MarkLost(r);
            m_ctx.retransmit(r.psn, r.ev, cause);
        }
    }
    m_resending = true;
    m_cursor = sq.GetBasePsn();
    ArmTimer();
    m_ctx.kick();
}

void
MrcGoBackN::ArmTimer()
{
    Simulator::Cancel(m_timer);
    m_timer = Simulator::Schedule(m_timeout, &MrcGoBackN::OnTimeout, this);
}

void
MrcGoBackN::OnTimeout()
{
    MrcSendQueue& sq = *m_ctx.sendQueue;
    if (sq.IsWindowEmpty())
    {
        return;
    }
    m_ctx.stats->rewindsTimeout++;
    m_ctx.cc->OnLoss(Simulator::Now(), sq.Find(sq.GetBasePsn())->length);
    Rewind("gbn-timeout");
}

void
MrcGoBackN::OnPortDown(uint32_t plane)
{
    for (const MrcSendQueue::Record& r : m_ctx.sendQueue->GetWindow())
    {
        if (!r.acked && r.inFlight && m_ctx.paths->GetPathSet().GetPlane(r.ev) == plane)
        {
            Rewind("port-down");
            return;
        }
    }
}

void
MrcGoBackN::DoStop()
{
    Simulator::Cancel(m_timer);
}

} // namespace ns3
