/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-loss-recovery.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcLossRecovery");

NS_OBJECT_ENSURE_REGISTERED(MrcLossRecovery);

TypeId
MrcLossRecovery::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcLossRecovery").SetParent<Object>().SetGroupName("Mrc");
    return tid;
}

MrcLossRecovery::MrcLossRecovery() = default;

MrcLossRecovery::~MrcLossRecovery() = default;

void
MrcLossRecovery::Start(const Context& context)
{
    m_ctx = context;
    m_lastCumulative = context.sendQueue->GetBasePsn();
}

void
MrcLossRecovery::Stop()
{
    Simulator::Cancel(m_qpEvent);
    DoStop();
}

void
MrcLossRecovery::OnPosted()
{
    if (m_qpEvent.IsExpired())
    {
        m_lastCumulative = m_ctx.sendQueue->GetBasePsn();
        m_qpEvent = Simulator::Schedule(m_ctx.qpTimeout, &MrcLossRecovery::OnQpTimer, this);
    }
}

void
MrcLossRecovery::OnQpTimer()
{
    const MrcSendQueue& sq = *m_ctx.sendQueue;
    if (sq.GetPendingMessages() == 0)
    {
        m_qpTimeouts = 0;
        return; // idle: rearmed by the next PostWrite
    }
    const uint32_t base = sq.GetBasePsn();
    if (base == m_lastCumulative && !sq.IsWindowEmpty())
    {
        ++m_qpTimeouts;
        NS_LOG_WARN("QP timeout " << m_qpTimeouts << " of " << m_ctx.retryCount + 1);
        if (m_qpTimeouts > m_ctx.retryCount)
        {
            m_ctx.fail("no acknowledgement progress for " + std::to_string(m_ctx.retryCount + 1)
                       + " QP timeouts");
            return;
        }
    }
    else
    {
        m_qpTimeouts = 0;
    }
    m_lastCumulative = base;
    m_qpEvent = Simulator::Schedule(m_ctx.qpTimeout, &MrcLossRecovery::OnQpTimer, this);
}

void
MrcLossRecovery::OnTailProbeAnswer(uint32_t sequence)
{
}

void
MrcLossRecovery::DoDispose()
{
    Stop();
    m_ctx = Context();
    Object::DoDispose();
}

} // namespace ns3
