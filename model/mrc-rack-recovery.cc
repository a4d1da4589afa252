/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-rack-recovery.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcRackRecovery");

NS_OBJECT_ENSURE_REGISTERED(MrcRackRecovery);

TypeId
MrcRackRecovery::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcRackRecovery")
            .SetParent<MrcSelectiveRecovery>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcRackRecovery>()
            .AddAttribute("ReorderWindowFraction",
                          "Reorder window as a fraction of the minimum RTT (RFC 8985: 1/4).",
                          DoubleValue(0.25),
                          MakeDoubleAccessor(&MrcRackRecovery::m_reorderFraction),
                          MakeDoubleChecker<double>(0, 16));
    return tid;
}

MrcRackRecovery::MrcRackRecovery() = default;

MrcRackRecovery::~MrcRackRecovery() = default;

void
MrcRackRecovery::Start(const Context& context)
{
    MrcSelectiveRecovery::Start(context);
    m_detector = MrcRackLossDetector(m_reorderFraction);
}

const MrcRackLossDetector&
MrcRackRecovery::GetDetector() const
{
    return m_detector;
}

std::vector<uint32_t>
MrcRackRecovery::DetectLosses(const MrcAckFeedback& feedback)
{
    m_detector.OnAcked(m_ctx.sendQueue->GetJustAcked(), Simulator::Now());
    return Run();
}

std::vector<uint32_t>
MrcRackRecovery::Run()
{
    std::optional<Time> next;
    std::vector<uint32_t> lost = m_detector.Detect(*m_ctx.sendQueue, Simulator::Now(), next);
    Simulator::Cancel(m_reorderEvent);
    if (next)
    {
        m_reorderEvent =
            Simulator::Schedule(*next - Simulator::Now(), &MrcRackRecovery::OnReorderTimer, this);
    }
    return lost;
}

void
MrcRackRecovery::OnReorderTimer()
{
    for (uint32_t psn : Run())
    {
        m_ctx.stats->rtxSack++;
        DeclareLost(psn, "rack");
    }
}

void
MrcRackRecovery::DoStop()
{
    MrcSelectiveRecovery::DoStop();
    Simulator::Cancel(m_reorderEvent);
}

} // namespace ns3
