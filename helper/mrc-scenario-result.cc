/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-scenario-result.h"

namespace ns3
{

Time
MrcScenarioResult::Step::GetDuration() const
{
    return end - start;
}

void
MrcScenarioResult::AddFlows(const std::vector<MrcTransferMonitor::FlowSummary>& flows)
{
    for (const MrcTransferMonitor::FlowSummary& f : flows)
    {
        this->flows++;
        bytesPosted += f.bytesPosted;
        bytesDelivered += f.bytesDelivered;
        bytesRetransmitted += f.bytesRetransmitted;
        retransmissions += f.retransmissions;
        rtxTrimmed += f.rtxTrimmed;
        rtxTimeout += f.rtxTimeout;
        rewinds += f.rewinds;
        trimmedReceived += f.trimmedReceived;
        evRetirements += f.evRetirements;
        stalledTime += f.stalledTime;
        failedFlows += f.failed ? 1 : 0;
        if (f.longestStall > longestStall)
        {
            longestStall = f.longestStall;
            longestStallFlow = f.label;
        }
    }
}

MrcCompletionStats
MrcScenarioResult::GetJobStepStats(const std::string& job,
                                   std::optional<MrcScenarioPhase> phase) const
{
    std::vector<Time> d;
    for (const Step& s : steps)
    {
        if (s.job == job && (!phase || s.phase == *phase))
        {
            d.push_back(s.GetDuration());
        }
    }
    return MrcCompletionStats(d);
}

MrcCompletionStats
MrcScenarioResult::GetStepStats(MrcScenarioPhase phase) const
{
    return GetJobStepStats("main", phase);
}

MrcCompletionStats
MrcScenarioResult::GetStepStats() const
{
    return GetJobStepStats("main");
}

std::string
MrcScenarioResult::GetPhaseName(MrcScenarioPhase phase)
{
    switch (phase)
    {
        case MrcScenarioPhase::BEFORE:
            return "before";
        case MrcScenarioPhase::DURING:
            return "during";
        case MrcScenarioPhase::AFTER:
            return "after";
    }
    return "?";
}

MrcScenarioPhase
MrcScenarioResult::Classify(Time start, Time end) const
{
    if (failureStart.IsStrictlyNegative() || end <= failureStart)
    {
        return MrcScenarioPhase::BEFORE;
    }
    if (start >= failureEnd)
    {
        return MrcScenarioPhase::AFTER;
    }
    return MrcScenarioPhase::DURING;
}

MrcCompletionStats
MrcScenarioResult::GetTcpStats() const
{
    return MrcTcpBulkWorkload::GetCompletionStats(tcpFlows);
}

} // namespace ns3
