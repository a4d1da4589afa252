/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-transfer-monitor.h"

#include "mrc-collective.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <iomanip>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcTransferMonitor");

NS_OBJECT_ENSURE_REGISTERED(MrcTransferMonitor);

TypeId
MrcTransferMonitor::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcTransferMonitor")
                            .SetParent<Object>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcTransferMonitor>()
                            .AddAttribute("Interval",
                                          "Width of one goodput interval (> 0).",
                                          TimeValue(MicroSeconds(100)),
                                          MakeTimeAccessor(&MrcTransferMonitor::m_interval),
                                          MakeTimeChecker(NanoSeconds(1)))
                            .AddAttribute("StallThreshold",
                                          "Gaps longer than this add to a flow's stalled time.",
                                          TimeValue(MicroSeconds(20)),
                                          MakeTimeAccessor(&MrcTransferMonitor::m_stallThreshold),
                                          MakeTimeChecker(Time(0)));
    return tid;
}

MrcTransferMonitor::MrcTransferMonitor()
{
    NS_LOG_FUNCTION(this);
}

void
MrcTransferMonitor::DoDispose()
{
    m_flows.clear();
    m_members.clear();
    Object::DoDispose();
}

uint32_t
MrcTransferMonitor::AddFlow(const std::string& label, const std::vector<QpPair>& qps)
{
    if (qps.empty())
    {
        throw std::invalid_argument("MrcTransferMonitor::AddFlow: flow '" + label
                                    + "' has no queue pair");
    }
    const uint32_t index = m_flows.size();
    Flow flow;
    flow.label = label;
    flow.qps = qps;
    for (const QpPair& qp : qps)
    {
        if (!qp.first || !qp.second)
        {
            throw std::invalid_argument("MrcTransferMonitor::AddFlow: flow '" + label
                                        + "' has a null queue pair");
        }
    }
    for (const QpPair& qp : qps)
    {
        const uint32_t member = m_members.size();
        m_members.push_back(Member{index});
        flow.members.push_back(member);
        qp.first->TraceConnectWithoutContext(
            "MessagePosted",
            MakeCallback(&MrcTransferMonitor::OnPosted, this).Bind(member));
        qp.second->TraceConnectWithoutContext(
            "Rx",
            MakeCallback(&MrcTransferMonitor::OnPlaced, this).Bind(member));
        qp.second->TraceConnectWithoutContext(
            "MessageDelivered",
            MakeCallback(&MrcTransferMonitor::OnDelivered, this).Bind(member));
        qp.first->TraceConnectWithoutContext(
            "MessageComplete",
            MakeCallback(&MrcTransferMonitor::OnComplete, this).Bind(member));
        qp.first->TraceConnectWithoutContext(
            "EvStateChange",
            MakeCallback(&MrcTransferMonitor::OnEvState, this).Bind(member));
    }
    m_flows.push_back(std::move(flow));
    return index;
}

uint32_t
MrcTransferMonitor::AddFlow(const std::string& label,
                            Ptr<MrcQueuePair> sender,
                            Ptr<MrcQueuePair> receiver)
{
    return AddFlow(label, std::vector<QpPair>{{sender, receiver}});
}

uint32_t
MrcTransferMonitor::GetFlowCount() const
{
    return m_flows.size();
}

void
MrcTransferMonitor::OnPosted(uint32_t member, uint32_t msn, uint64_t bytes)
{
    Member& m = m_members[member];
    if (m.messagesPosted == m.messagesCompleted)
    {
        m.dueSince = Simulator::Now();
    }
    m.messagesPosted++;
    Flow& f = m_flows[m.flow];
    f.posted += bytes;
    f.messagesPosted++;
    f.completion = Time(-1);
}

void
MrcTransferMonitor::OnPlaced(uint32_t member, Ptr<const Packet> packet, uint32_t psn, uint32_t ev)
{
    Member& m = m_members[member];
    Flow& f = m_flows[m.flow];
    const Time now = Simulator::Now();
    Progress(m, now);
    if (f.firstByte.IsStrictlyNegative())
    {
        f.firstByte = now;
    }
    f.delivered += packet->GetSize();
    const uint64_t slot = now.GetTimeStep() / m_interval.GetTimeStep();
    if (f.series.size() <= slot)
    {
        f.series.resize(slot + 1, 0);
    }
    f.series[slot] += packet->GetSize();
}

void
MrcTransferMonitor::Progress(Member& m, Time now)
{
    const Time gap = OpenGap(m, now);
    if (gap > m.longestStall)
    {
        m.longestStall = gap;
        m.stallStart = now - gap;
    }
    if (gap > m_stallThreshold)
    {
        m.stalledTime += gap;
    }
    m.lastProgress = now;
}

void
MrcTransferMonitor::OnComplete(uint32_t member, uint32_t msn, uint64_t bytes)
{
    Member& m = m_members[member];
    Progress(m, Simulator::Now());
    m.messagesCompleted++;
}

void
MrcTransferMonitor::OnDelivered(uint32_t member, uint32_t msn, uint64_t bytes)
{
    Member& m = m_members[member];
    m.messagesDelivered++;
    Flow& f = m_flows[m.flow];
    f.messagesDelivered++;
    if (f.messagesDelivered == f.messagesPosted)
    {
        f.completion = Simulator::Now();
    }
}

void
MrcTransferMonitor::OnEvState(uint32_t member,
                              uint32_t ev,
                              MrcEvState from,
                              MrcEvState to,
                              std::string cause)
{
    Member& m = m_members[member];
    m.evStateChanges++;
    if (to == MrcEvState::ASSUMED_BAD)
    {
        m.evRetirements++;
    }
}

Time
MrcTransferMonitor::OpenGap(const Member& m, Time now)
{
    if (m.messagesPosted == m.messagesCompleted || m.dueSince.IsStrictlyNegative())
    {
        return Time(0); // nothing due
    }
    const Time since = std::max(m.lastProgress, m.dueSince);
    return now - since;
}

MrcTransferMonitor::FlowSummary
MrcTransferMonitor::GetSummary(uint32_t flow, Time end) const
{
    const Flow& f = m_flows.at(flow);
    FlowSummary s;
    s.label = f.label;
    s.bytesPosted = f.posted;
    s.bytesDelivered = f.delivered;
    s.firstByte = f.firstByte;
    s.completion = f.completion;
    for (uint32_t index : f.members)
    {
        const Member& m = m_members[index];
        if (m.longestStall > s.longestStall)
        {
            s.longestStall = m.longestStall;
            s.stallStart = m.stallStart;
        }
        s.stalledTime += m.stalledTime;
        // Still waiting for data at the report time: the open gap counts.
        const Time open = OpenGap(m, end);
        if (open > s.longestStall)
        {
            s.longestStall = open;
            s.stallStart = end - open;
        }
        if (open > m_stallThreshold)
        {
            s.stalledTime += open;
        }
        s.evStateChanges += m.evStateChanges;
        s.evRetirements += m.evRetirements;
    }
    for (const QpPair& qp : f.qps)
    {
        const MrcQpStats& tx = qp.first->GetStats();
        const MrcQpStats& rx = qp.second->GetStats();
        s.retransmissions += tx.retransmissions;
        s.bytesRetransmitted += tx.bytesRetransmitted;
        s.rtxTrimmed += tx.rtxTrimmed + tx.rtxTrimmedLastHop;
        s.rtxTimeout += tx.rtxTimeout;
        s.rtxNack += tx.rtxNoBitmap;
        s.rewinds += tx.rewindsNack + tx.rewindsTimeout;
        s.nacksReceived += tx.nacksReceived;
        s.cnpsReceived += tx.cnpsReceived;
        s.trimmedReceived += rx.trimmedReceived;
        s.failed = s.failed || qp.first->IsFailed() || qp.second->IsFailed();
    }
    return s;
}

std::vector<MrcTransferMonitor::FlowSummary>
MrcTransferMonitor::GetSummaries(Time end) const
{
    std::vector<FlowSummary> out;
    for (uint32_t i = 0; i < m_flows.size(); ++i)
    {
        out.push_back(GetSummary(i, end));
    }
    return out;
}

const std::vector<uint64_t>&
MrcTransferMonitor::GetSeries(uint32_t flow) const
{
    return m_flows.at(flow).series;
}

std::vector<uint64_t>
MrcTransferMonitor::GetTotalSeries() const
{
    std::vector<uint64_t> total;
    for (const Flow& f : m_flows)
    {
        if (total.size() < f.series.size())
        {
            total.resize(f.series.size(), 0);
        }
        for (size_t i = 0; i < f.series.size(); ++i)
        {
            total[i] += f.series[i];
        }
    }
    return total;
}

Time
MrcTransferMonitor::GetInterval() const
{
    return m_interval;
}

void
MrcTransferMonitor::WriteSeriesCsv(std::ostream& os) const
{
    os << "time_us,flow,label,bytes,gbps\n";
    const double seconds = m_interval.GetSeconds();
    size_t slots = 0;
    for (const Flow& f : m_flows)
    {
        slots = std::max(slots, f.series.size());
    }
    for (size_t i = 0; i < slots; ++i)
    {
        for (uint32_t k = 0; k < m_flows.size(); ++k)
        {
            const auto& series = m_flows[k].series;
            const uint64_t bytes = i < series.size() ? series[i] : 0;
            os << std::fixed << std::setprecision(3) << (m_interval * int64_t(i)).GetMicroSeconds()
               << "," << k << "," << m_flows[k].label << "," << bytes << ","
               << bytes * 8e-9 / seconds << "\n";
        }
    }
}

void
MrcTransferMonitor::WriteSummaryCsv(std::ostream& os, Time end) const
{
    os << "flow,label,bytes_posted,bytes_delivered,retransmissions,bytes_retransmitted,"
          "first_byte_us,completion_us,longest_stall_us,stall_start_us,failed,stalled_us,"
          "rtx_trimmed,rtx_timeout,rtx_nack,rewinds,nacks,trimmed_received,cnps,ev_changes,"
          "ev_retired\n";
    auto us = [](Time t) {
        return t.IsStrictlyNegative() ? -1.0 : t.GetSeconds() * 1e6;
    };
    for (uint32_t k = 0; k < m_flows.size(); ++k)
    {
        const FlowSummary s = GetSummary(k, end);
        os << std::fixed << std::setprecision(3) << k << "," << s.label << "," << s.bytesPosted
           << "," << s.bytesDelivered << "," << s.retransmissions << "," << s.bytesRetransmitted
           << "," << us(s.firstByte) << "," << us(s.completion) << "," << us(s.longestStall) << ","
           << us(s.stallStart) << "," << (s.failed ? 1 : 0) << "," << us(s.stalledTime) << ","
           << s.rtxTrimmed << "," << s.rtxTimeout << "," << s.rtxNack << "," << s.rewinds << ","
           << s.nacksReceived << "," << s.trimmedReceived << "," << s.cnpsReceived << ","
           << s.evStateChanges << "," << s.evRetirements << "\n";
    }
}

void
MrcTransferMonitor::AddCollectives(const std::vector<Ptr<MrcCollective>>& collectives)
{
    for (uint32_t c = 0; c < collectives.size(); ++c)
    {
        const Ptr<MrcCollective>& coll = collectives[c];
        const std::string name = coll->GetName();
        const std::string prefix = name == "ring-all-reduce" ? "ring"
                                   : name == "all-to-all"    ? "a2a" + std::to_string(c)
                                                             : name + std::to_string(c);
        for (const auto& [src, dst] : coll->GetPairs())
        {
            Ptr<MrcQpGroup> group = coll->GetGroup(src, dst);
            std::vector<MrcTransferMonitor::QpPair> members;
            for (uint32_t q = 0; q < group->GetSize(); ++q)
            {
                members.emplace_back(group->GetSender(q), group->GetReceiver(q));
            }
            AddFlow(prefix + ":h" + std::to_string(coll->GetHost(src)) + "->h"
                        + std::to_string(coll->GetHost(dst)),
                    members);
        }
    }
}

} // namespace ns3
