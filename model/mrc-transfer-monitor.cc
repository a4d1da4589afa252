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
    Record(member, MrcTransferEventLog::Kind::POSTED, bytes);
}

void
MrcTransferMonitor::OnPlaced(uint32_t member, Ptr<const Packet> packet, uint32_t psn, uint32_t ev)
{
    Record(member, MrcTransferEventLog::Kind::PLACED, packet->GetSize());
}

void
MrcTransferMonitor::OnComplete(uint32_t member, uint32_t msn, uint64_t bytes)
{
    Record(member, MrcTransferEventLog::Kind::COMPLETE, bytes);
}

void
MrcTransferMonitor::OnDelivered(uint32_t member, uint32_t msn, uint64_t bytes)
{
    Record(member, MrcTransferEventLog::Kind::DELIVERED, bytes);
}

void
MrcTransferMonitor::OnEvState(uint32_t member,
                              uint32_t ev,
                              MrcEvState from,
                              MrcEvState to,
                              std::string cause)
{
    Record(member, MrcTransferEventLog::Kind::EV_STATE, to == MrcEvState::ASSUMED_BAD ? 1 : 0);
}

void
MrcTransferMonitor::Record(uint32_t member, MrcTransferEventLog::Kind kind, uint64_t value)
{
    const Time now = Simulator::Now();
    if (m_recording)
    {
        m_log.Add(now, member, kind, value);
    }
    Apply(member, kind, value, now);
}

void
MrcTransferMonitor::Apply(uint32_t member, MrcTransferEventLog::Kind kind, uint64_t value, Time now)
{
    Member& m = m_members.at(member);
    Flow& f = m_flows[m.flow];
    switch (kind)
    {
        case MrcTransferEventLog::Kind::POSTED:
            if (m.messagesPosted == m.messagesCompleted)
            {
                m.dueSince = now;
            }
            m.messagesPosted++;
            f.posted += value;
            f.messagesPosted++;
            f.completion = Time(-1);
            break;
        case MrcTransferEventLog::Kind::PLACED: {
            Progress(m, now);
            if (f.firstByte.IsStrictlyNegative())
            {
                f.firstByte = now;
            }
            f.delivered += value;
            const uint64_t slot = now.GetTimeStep() / m_interval.GetTimeStep();
            if (f.series.size() <= slot)
            {
                f.series.resize(slot + 1, 0);
            }
            f.series[slot] += value;
            break;
        }
        case MrcTransferEventLog::Kind::COMPLETE:
            Progress(m, now);
            m.messagesCompleted++;
            break;
        case MrcTransferEventLog::Kind::DELIVERED:
            m.messagesDelivered++;
            f.messagesDelivered++;
            if (f.messagesDelivered == f.messagesPosted)
            {
                f.completion = now;
            }
            break;
        case MrcTransferEventLog::Kind::EV_STATE:
            m.evStateChanges++;
            m.evRetirements += value != 0 ? 1 : 0;
            break;
    }
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
MrcTransferMonitor::SetRecording(bool recording)
{
    m_recording = recording;
}

const MrcTransferEventLog&
MrcTransferMonitor::GetEventLog() const
{
    return m_log;
}

void
MrcTransferMonitor::Replay(MrcTransferEventLog log)
{
    NS_LOG_FUNCTION(this << log.GetSize());
    for (Flow& f : m_flows)
    {
        Flow fresh;
        fresh.label = std::move(f.label);
        fresh.qps = std::move(f.qps);
        fresh.members = std::move(f.members);
        f = std::move(fresh);
    }
    for (Member& m : m_members)
    {
        m = Member{m.flow};
    }
    log.Sort();
    for (const MrcTransferEventLog::Event& e : log.GetEvents())
    {
        if (e.member >= m_members.size())
        {
            throw std::invalid_argument("MrcTransferMonitor::Replay: event of member "
                                        + std::to_string(e.member) + " (accepted: 0.."
                                        + std::to_string(m_members.size() - 1) + ")");
        }
        Apply(e.member, e.kind, e.value, TimeStep(e.time));
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
    const uint64_t* c = nullptr;
    std::vector<uint64_t> local;
    if (m_counters.empty())
    {
        local = GetFlowCounters(flow);
        c = local.data();
    }
    else
    {
        c = &m_counters[size_t(flow) * kCounters];
    }
    s.retransmissions = c[0];
    s.bytesRetransmitted = c[1];
    s.rtxTrimmed = c[2];
    s.rtxTimeout = c[3];
    s.rtxNack = c[4];
    s.rewinds = c[5];
    s.nacksReceived = c[6];
    s.cnpsReceived = c[7];
    s.trimmedReceived = c[8];
    s.failed = c[9] != 0;
    return s;
}

std::vector<uint64_t>
MrcTransferMonitor::GetFlowCounters(uint32_t flow) const
{
    std::vector<uint64_t> c(kCounters, 0);
    for (const QpPair& qp : m_flows.at(flow).qps)
    {
        const MrcQpStats& tx = qp.first->GetStats();
        const MrcQpStats& rx = qp.second->GetStats();
        c[0] += tx.retransmissions;
        c[1] += tx.bytesRetransmitted;
        c[2] += tx.rtxTrimmed + tx.rtxTrimmedLastHop;
        c[3] += tx.rtxTimeout;
        c[4] += tx.rtxNoBitmap;
        c[5] += tx.rewindsNack + tx.rewindsTimeout;
        c[6] += tx.nacksReceived;
        c[7] += tx.cnpsReceived;
        c[8] += rx.trimmedReceived;
        c[9] += (qp.first->IsFailed() || qp.second->IsFailed()) ? 1 : 0;
    }
    return c;
}

std::vector<uint64_t>
MrcTransferMonitor::GetCounters() const
{
    std::vector<uint64_t> all;
    all.reserve(m_flows.size() * kCounters);
    for (uint32_t k = 0; k < m_flows.size(); ++k)
    {
        const std::vector<uint64_t> c = GetFlowCounters(k);
        all.insert(all.end(), c.begin(), c.end());
    }
    return all;
}

void
MrcTransferMonitor::SetCounters(std::vector<uint64_t> counters)
{
    if (!counters.empty() && counters.size() != m_flows.size() * kCounters)
    {
        throw std::invalid_argument(
            "MrcTransferMonitor::SetCounters: " + std::to_string(counters.size())
            + " values (accepted: " + std::to_string(m_flows.size() * kCounters)
            + ", GetCounters() of a monitor with the same flows, or none)");
    }
    m_counters = std::move(counters);
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
