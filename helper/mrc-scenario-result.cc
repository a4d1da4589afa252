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
MrcScenarioResult::AddFlows(const std::vector<TransferMonitor::FlowSummary>& flows)
{
    for (const TransferMonitor::FlowSummary& f : flows)
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

CompletionStats
MrcScenarioResult::GetJobStepStats(const std::string& job, std::optional<ScenarioPhase> phase) const
{
    std::vector<Time> d;
    for (const Step& s : steps)
    {
        if (s.job == job && (!phase || s.phase == *phase))
        {
            d.push_back(s.GetDuration());
        }
    }
    return CompletionStats(d);
}

CompletionStats
MrcScenarioResult::GetStepStats(ScenarioPhase phase) const
{
    return GetJobStepStats("main", phase);
}

CompletionStats
MrcScenarioResult::GetStepStats() const
{
    return GetJobStepStats("main");
}

std::string
MrcScenarioResult::GetPhaseName(ScenarioPhase phase)
{
    switch (phase)
    {
        case ScenarioPhase::BEFORE:
            return "before";
        case ScenarioPhase::DURING:
            return "during";
        case ScenarioPhase::AFTER:
            return "after";
    }
    return "?";
}

ScenarioPhase
MrcScenarioResult::Classify(Time start, Time end) const
{
    if (failureStart.IsStrictlyNegative() || end <= failureStart)
    {
        return ScenarioPhase::BEFORE;
    }
    if (start >= failureEnd)
    {
        return ScenarioPhase::AFTER;
    }
    return ScenarioPhase::DURING;
}

CompletionStats
MrcScenarioResult::GetTcpStats() const
{
    return TcpBulkWorkload::GetCompletionStats(tcpFlows);
}

} // namespace ns3
