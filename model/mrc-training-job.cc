/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-training-job.h"

#include "mrc-rank-locality.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcTrainingJob");

NS_OBJECT_ENSURE_REGISTERED(MrcTrainingJob);

Time
MrcTrainingJob::Step::GetDuration() const
{
    return end - start;
}

MrcCompletionStats
MrcTrainingJob::Step::GetTransferStats() const
{
    return MrcCompletionStats(transferTimes);
}

TypeId
MrcTrainingJob::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcTrainingJob")
                            .SetParent<Object>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcTrainingJob>()
                            .AddAttribute("Iterations",
                                          "Training steps (1..1000000).",
                                          UintegerValue(1),
                                          MakeUintegerAccessor(&MrcTrainingJob::m_iterations),
                                          MakeUintegerChecker<uint32_t>(1, 1000000))
                            .AddAttribute("ComputeTime",
                                          "Computation before each step's collectives.",
                                          TimeValue(Time(0)),
                                          MakeTimeAccessor(&MrcTrainingJob::m_computeTime),
                                          MakeTimeChecker(Time(0)))
                            .AddAttribute("StartTime",
                                          "Delay of Start().",
                                          TimeValue(Time(0)),
                                          MakeTimeAccessor(&MrcTrainingJob::m_startTime),
                                          MakeTimeChecker(Time(0)))
                            .AddTraceSource("StepComplete",
                                            "A step ended: index, duration, line-rate ideal.",
                                            MakeTraceSourceAccessor(&MrcTrainingJob::m_stepTrace),
                                            "ns3::MrcTrainingJob::StepTracedCallback");
    return tid;
}

MrcTrainingJob::MrcTrainingJob()
{
    NS_LOG_FUNCTION(this);
}

MrcTrainingJob::~MrcTrainingJob()
{
    NS_LOG_FUNCTION(this);
}

void
MrcTrainingJob::DoDispose()
{
    m_event.Cancel();
    m_wake.Cancel();
    for (auto& [id, stream] : m_streams)
    {
        stream.analytic.Cancel();
    }
    for (auto& [id, lane] : m_lanes)
    {
        lane.compute.Cancel();
    }
    m_lanes.clear();
    m_streams.clear();
    m_streamOf.clear();
    m_ops.clear();
    m_collectives.clear();
    m_doneCallback = MakeNullCallback<void, Ptr<MrcTrainingJob>>();
    if (m_barrier)
    {
        m_barrier->Dispose();
        m_barrier = nullptr;
    }
    Object::DoDispose();
}

Time
MrcTrainingJob::ScheduleEnd(const std::vector<Operation>& ops,
                            const std::function<Time(const Comm&)>& duration)
{
    std::map<uint32_t, std::vector<uint32_t>> lanes; // lane -> its operations in order
    for (uint32_t i = 0; i < ops.size(); ++i)
    {
        for (uint32_t a : ops[i].after)
        {
            if (a >= ops.size() || a == i)
            {
                throw std::invalid_argument("MrcTrainingJob: operation " + ops[i].label
                                            + " waits for operation " + std::to_string(a)
                                            + ", which must be another of 0.."
                                            + std::to_string(ops.size() - 1));
            }
        }
        lanes[ops[i].lane].push_back(i);
    }
    std::vector<std::optional<Time>> ended(ops.size()); // per operation: its comms ended
    std::map<uint32_t, size_t> next;                    // per lane: its next operation
    std::map<uint32_t, Time> laneFree;                  // per lane: when it may go on
    std::map<uint32_t, Time> free;                      // per stream: its last comm's end
    Time end(0);
    for (size_t done = 0; done < ops.size();)
    {
        const size_t before = done;
        for (const auto& [lane, list] : lanes)
        {
            for (size_t& n = next[lane]; n < list.size(); ++n, ++done)
            {
                const Operation& op = ops[list[n]];
                Time start = laneFree[lane];
                auto waiting = std::find_if(op.after.begin(), op.after.end(), [&](uint32_t a) {
                    return !ended[a];
                });
                if (waiting != op.after.end())
                {
                    break;
                }
                for (uint32_t a : op.after)
                {
                    start = std::max(start, *ended[a]);
                }
                const Time issue = start + op.compute;
                Time opEnd = issue;
                for (const Comm& c : op.comms)
                {
                    Time& f = free[c.stream];
                    f = std::max(f, issue) + duration(c) + c.hold;
                    opEnd = std::max(opEnd, f);
                }
                ended[list[n]] = opEnd;
                end = std::max(end, opEnd);
                laneFree[lane] = op.blocking ? opEnd : issue;
            }
        }
        if (done == before)
        {
            std::string stuck;
            for (const auto& [lane, list] : lanes)
            {
                if (next[lane] < list.size())
                {
                    stuck += (stuck.empty() ? "" : ", ") + ops[list[next[lane]]].label;
                }
            }
            throw std::logic_error("MrcTrainingJob: operations wait on each other through "
                                   "`after` (a cycle): "
                                   + stuck);
        }
    }
    return end;
}

void
MrcTrainingJob::AddCollective(Ptr<MrcCollective> collective)
{
    if (!collective)
    {
        throw std::invalid_argument("MrcTrainingJob: collective must not be null");
    }
    if (std::find(m_collectives.begin(), m_collectives.end(), collective) != m_collectives.end())
    {
        throw std::invalid_argument("MrcTrainingJob: collective " + collective->GetName()
                                    + " added twice");
    }
    collective->SetDoneCallback(MakeCallback(&MrcTrainingJob::OnCollectiveDone, this));
    m_collectives.push_back(collective);
    m_simple = true;
}

void
MrcTrainingJob::AddOperation(const Operation& op)
{
    for (const Comm& c : op.comms)
    {
        const std::string where = "MrcTrainingJob: operation " + op.label + ", comm " + c.label;
        if (!c.collective)
        {
            if (c.duration.IsStrictlyNegative())
            {
                throw std::invalid_argument(where + ": duration must be >= 0");
            }
            continue;
        }
        if (c.bytes && *c.bytes == 0)
        {
            throw std::invalid_argument(where + ": bytes must be >= 1");
        }
        auto lane = m_laneOfStream.emplace(c.stream, op.lane).first;
        if (lane->second != op.lane)
        {
            throw std::invalid_argument(where + ": stream " + std::to_string(c.stream) + " is lane "
                                        + std::to_string(lane->second) + "'s, not lane "
                                        + std::to_string(op.lane)
                                        + "'s (a stream belongs to one lane)");
        }
        auto known = m_streamOf.find(c.collective);
        if (known == m_streamOf.end())
        {
            if (std::find(m_collectives.begin(), m_collectives.end(), c.collective)
                != m_collectives.end())
            {
                throw std::invalid_argument(where + ": collective already added by AddCollective");
            }
            m_streamOf[c.collective] = c.stream;
            c.collective->SetDoneCallback(MakeCallback(&MrcTrainingJob::OnCollectiveDone, this));
            m_collectives.push_back(c.collective);
        }
        else if (known->second != c.stream)
        {
            throw std::invalid_argument(
                where + ": its collective runs on stream " + std::to_string(known->second)
                + ", not " + std::to_string(c.stream) + " (a collective is one communicator)");
        }
    }
    if (std::find(op.after.begin(), op.after.end(), m_ops.size()) != op.after.end())
    {
        throw std::invalid_argument("MrcTrainingJob: operation " + op.label
                                    + " waits for itself (after)");
    }
    m_ops.push_back(op);
}

void
MrcTrainingJob::Start()
{
    const bool program = !m_simple;
    if (m_simple && !m_ops.empty())
    {
        throw std::logic_error("MrcTrainingJob: AddCollective and AddOperation both used; a "
                               "job is either a set of collectives or a program");
    }
    if (m_simple)
    {
        // One operation: ComputeTime, then every collective at once (a stream each).
        Operation op;
        op.label = "step";
        op.compute = m_computeTime;
        for (uint32_t i = 0; i < m_collectives.size(); ++i)
        {
            Comm c;
            c.label = m_collectives[i]->GetName();
            c.collective = m_collectives[i];
            c.stream = i;
            m_streamOf[c.collective] = i;
            op.comms.push_back(c);
        }
        m_ops.push_back(op);
        m_simple = false;
    }
    if (m_ops.empty())
    {
        throw std::logic_error("MrcTrainingJob: Start without collectives or operations");
    }
    if (MrcRankLocality::IsDistributed())
    {
        SetUpRanks(program);
    }
    // The program is the same every step: its line-rate ideal once. Nothing runs yet, so
    // setting the collectives' sizes for it disturbs nothing (each comm sets its own again).
    m_ideal = ScheduleEnd(m_ops, [this](const Comm& c) {
        return IdealOf(c);
    });
    m_lanes.clear();
    for (uint32_t i = 0; i < m_ops.size(); ++i)
    {
        m_lanes[m_ops[i].lane].ops.push_back(i);
    }
    m_event = Simulator::Schedule(m_startTime, &MrcTrainingJob::BeginStep, this);
}

Time
MrcTrainingJob::IdealOf(const Comm& comm) const
{
    if (!comm.collective)
    {
        return comm.duration;
    }
    if (comm.bytes)
    {
        comm.collective->SetAttribute("MessageSize", UintegerValue(*comm.bytes));
    }
    return comm.collective->GetIdealTime();
}

void
MrcTrainingJob::BeginStep()
{
    Step step;
    // A step starts where the previous one ended (on ranks that end was learnt a lookahead ago).
    step.start = m_steps.empty() ? Simulator::Now() : m_steps.back().end;
    step.ideal = m_ideal;
    m_steps.push_back(step);
    NS_LOG_INFO("step " << m_steps.size() - 1 << " starts");
    m_opState.assign(m_ops.size(), OpState{});
    m_issuedOps = 0;
    m_stepEnd = step.start;
    for (auto& [id, lane] : m_lanes)
    {
        lane.next = 0;
        lane.busy = false;
        lane.freeAt = step.start;
    }
    RunLanes();
}

void
MrcTrainingJob::RunLanes()
{
    for (auto& [id, lane] : m_lanes)
    {
        if (lane.busy || lane.next == lane.ops.size())
        {
            continue;
        }
        const uint32_t op = lane.ops[lane.next];
        const auto& after = m_ops[op].after;
        if (std::any_of(after.begin(), after.end(), [this](uint32_t a) {
                return !m_opState[a].issued || m_opState[a].pending > 0;
            }))
        {
            continue;
        }
        lane.busy = true;
        // The operation starts computing when its lane became free and its `after` operations
        // ended: now in one process; on ranks, an end is learnt a lookahead after it happened.
        Time ready = lane.freeAt;
        for (uint32_t a : after)
        {
            ready = std::max(ready, m_opState[a].done);
        }
        const Time at = ready + m_ops[op].compute;
        lane.compute = Simulator::Schedule(std::max(at - Simulator::Now(), Time(0)),
                                           &MrcTrainingJob::IssueComms,
                                           this,
                                           op,
                                           at);
    }
}

void
MrcTrainingJob::NoteLateStart(const CommRecord& rec, Time at)
{
    const Time late = Simulator::Now() - at;
    if (!late.IsStrictlyPositive())
    {
        return;
    }
    // Only on ranks: one process handles every end when it happens.
    ++m_lateness.starts;
    m_lateness.total += late;
    m_lateness.longest = std::max(m_lateness.longest, late);
    NS_LOG_INFO("comm " << rec.label << " due at " << at.As(Time::US) << " starts "
                        << late.As(Time::NS) << " late (an end learnt from the other ranks)");
}

void
MrcTrainingJob::ReleaseLane(uint32_t op, Time at)
{
    Lane& lane = m_lanes[m_ops[op].lane];
    lane.busy = false;
    lane.freeAt = at;
    ++lane.next;
}

void
MrcTrainingJob::IssueComms(uint32_t index, Time at)
{
    const Operation& op = m_ops[index];
    Step& step = m_steps.back();
    m_opState[index].issued = true;
    m_opState[index].pending = op.comms.size();
    m_opState[index].done = at;
    m_stepEnd = std::max(m_stepEnd, at);
    ++m_issuedOps;
    for (uint32_t j = 0; j < op.comms.size(); ++j)
    {
        const Comm& c = op.comms[j];
        CommRecord rec;
        rec.label = c.label;
        rec.kind = c.collective ? c.collective->GetName() : "analytic";
        rec.issued = Simulator::Now();
        step.comms.push_back(rec);
        m_streams[c.stream].queue.push_back(Issued{index, j, uint32_t(step.comms.size() - 1)});
    }
    for (const Comm& c : op.comms)
    {
        StartNext(c.stream, at);
        if (m_done || step.failed)
        {
            return; // a comm failed at once (a step ends on a fresh event, never in here)
        }
    }
    if (!op.blocking || m_opState[index].pending == 0)
    {
        ReleaseLane(index, at);
    }
    RunLanes();
    MaybeEndStep();
}

void
MrcTrainingJob::StartNext(uint32_t id, Time at)
{
    Stream& stream = m_streams[id];
    if (stream.running || stream.queue.empty())
    {
        return;
    }
    const Issued next = stream.queue.front();
    stream.queue.pop_front();
    stream.running = next;
    const Comm& c = m_ops[next.op].comms[next.comm];
    CommRecord& rec = m_steps.back().comms[next.record];
    if (!c.collective)
    {
        // Nothing on the fabric: it runs from when it was due, even if that was learnt late.
        rec.start = at;
        rec.ideal = c.duration;
        const Time end = at + c.duration + c.hold;
        stream.analytic = Simulator::Schedule(std::max(end - Simulator::Now(), Time(0)),
                                              &MrcTrainingJob::OnCommDone,
                                              this,
                                              id,
                                              end);
        return;
    }
    NoteLateStart(rec, at); // a collective starts now
    rec.start = Simulator::Now();
    if (c.bytes)
    {
        c.collective->SetAttribute("MessageSize", UintegerValue(*c.bytes));
    }
    rec.bytes = c.collective->GetMessageSize();
    rec.ranks = c.collective->GetRankCount();
    rec.ideal = c.collective->GetIdealTime();
    c.collective->Start();
}

void
MrcTrainingJob::OnCollectiveDone(Ptr<MrcCollective> collective)
{
    EndCollective(collective, Simulator::Now(), collective->HasFailed());
}

void
MrcTrainingJob::EndCollective(Ptr<MrcCollective> collective, Time end, bool failed)
{
    auto s = m_streamOf.find(collective);
    if (m_done || m_steps.empty() || s == m_streamOf.end())
    {
        return;
    }
    Step& step = m_steps.back();
    const auto times = collective->GetTransferTimes();
    step.transferTimes.insert(step.transferTimes.end(), times.begin(), times.end());
    if (failed)
    {
        step.failed = true;
        step.end = end;
        m_streams[s->second].running.reset();
        MaybeEndStep();
        return;
    }
    Stream& stream = m_streams[s->second];
    if (!stream.running)
    {
        return;
    }
    const Comm& c = m_ops[stream.running->op].comms[stream.running->comm];
    step.comms[stream.running->record].end = end;
    const Time done = end + c.hold;
    if (done > Simulator::Now())
    {
        stream.analytic = Simulator::Schedule(done - Simulator::Now(),
                                              &MrcTrainingJob::OnCommDone,
                                              this,
                                              s->second,
                                              done);
        return;
    }
    OnCommDone(s->second, done);
}

void
MrcTrainingJob::SetUpRanks(bool program)
{
    m_barrier = CreateObject<MrcRankBarrier>();
    m_barrier->Setup();
    // A program's comms may be due the instant another ends (GetLateness counts them).
    if (!program && m_computeTime < m_barrier->GetDelay())
    {
        throw std::invalid_argument(
            "MrcTrainingJob: ComputeTime " + std::to_string(m_computeTime.GetNanoSeconds())
            + " ns is shorter than the distributed run's lookahead ("
            + std::to_string(m_barrier->GetDelay().GetNanoSeconds())
            + " ns, the least delay of the links between ranks): a rank learns that a step "
              "ended that much later, so ComputeTime must be at least it (or run on one process)");
    }
    m_barrier->SetOutcomeCallback(MakeCallback(&MrcTrainingJob::OnBarrierOutcome, this));
    for (const Ptr<MrcCollective>& c : m_collectives)
    {
        c->SetRankShareCallback(MakeCallback(&MrcTrainingJob::OnRankShare, this));
    }
}

void
MrcTrainingJob::OnRankShare(Ptr<MrcCollective> collective, bool failed)
{
    auto s = m_streamOf.find(collective);
    if (m_done || m_steps.empty() || s == m_streamOf.end() || !m_streams[s->second].running)
    {
        return;
    }
    // The run is the step's record-th comm: the same numbers on every rank.
    const uint32_t record = m_streams[s->second].running->record;
    m_barrier->Post((uint64_t(m_steps.size() - 1) << 32) | record, failed);
}

void
MrcTrainingJob::OnBarrierOutcome(uint64_t key, Time end, bool failed)
{
    const uint64_t step = key >> 32;
    const uint32_t record = static_cast<uint32_t>(key & 0xffffffffU);
    if (m_done || step + 1 != m_steps.size())
    {
        return;
    }
    for (const auto& [id, stream] : m_streams)
    {
        if (stream.running && stream.running->record == record)
        {
            Ptr<MrcCollective> collective =
                m_ops[stream.running->op].comms[stream.running->comm].collective;
            m_records.resize(m_steps.size());
            m_records[step].resize(m_steps[step].comms.size());
            m_records[step][record] = {collective, collective->GetRunRecord(end)};
            EndCollective(collective, end, failed);
            return;
        }
    }
}

std::vector<int64_t>
MrcTrainingJob::GetRunRecord() const
{
    std::vector<int64_t> all;
    for (const auto& perStep : m_records)
    {
        for (const auto& [collective, record] : perStep)
        {
            all.insert(all.end(), record.begin(), record.end());
        }
    }
    return all;
}

void
MrcTrainingJob::MergeRunRecords(const std::vector<int64_t>& merged)
{
    const size_t size = GetRunRecord().size();
    if (merged.size() != size)
    {
        throw std::invalid_argument("MrcTrainingJob: MergeRunRecords: the record holds "
                                    + std::to_string(merged.size()) + " numbers, this job's "
                                    + std::to_string(size));
    }
    auto r = merged.begin();
    for (size_t step = 0; step < m_records.size() && step < m_steps.size(); ++step)
    {
        std::vector<Time> times;
        for (const auto& [collective, record] : m_records[step])
        {
            const size_t n = record.size();
            if (n == 0)
            {
                continue; // analytic, or not ended in this step (a failure ended the step)
            }
            collective->MergeRunRecords(std::vector<int64_t>(r, r + n));
            r += n;
            const auto t = collective->GetTransferTimes();
            times.insert(times.end(), t.begin(), t.end());
        }
        m_steps[step].transferTimes = times;
    }
}

void
MrcTrainingJob::OnCommDone(uint32_t id, Time end)
{
    Stream& stream = m_streams[id];
    if (!stream.running)
    {
        return;
    }
    const Issued done = *stream.running;
    stream.running.reset();
    CommRecord& rec = m_steps.back().comms[done.record];
    if (rec.end.IsZero())
    {
        rec.end = end - m_ops[done.op].comms[done.comm].hold; // analytic
    }
    OpState& op = m_opState[done.op];
    op.done = std::max(op.done, end);
    m_stepEnd = std::max(m_stepEnd, end);
    StartNext(id, end);
    if (--op.pending == 0)
    {
        if (m_ops[done.op].blocking)
        {
            ReleaseLane(done.op, op.done);
        }
        // Not from inside the transport's callback: operations start on a fresh event.
        m_wake.Cancel();
        m_wake = Simulator::ScheduleNow(&MrcTrainingJob::RunLanes, this);
    }
    MaybeEndStep();
}

void
MrcTrainingJob::MaybeEndStep()
{
    Step& step = m_steps.back();
    if (!step.failed)
    {
        if (m_issuedOps < m_ops.size())
        {
            return;
        }
        for (const auto& [id, stream] : m_streams)
        {
            if (stream.running || !stream.queue.empty())
            {
                return;
            }
        }
        step.end = m_stepEnd;
    }
    const uint32_t index = m_steps.size() - 1;
    NS_LOG_INFO("step " << index << " took " << step.GetDuration().As(Time::US) << " (ideal "
                        << step.ideal.As(Time::US) << ")" << (step.failed ? ", failed" : ""));
    m_stepTrace(index, step.GetDuration(), step.ideal);
    m_wake.Cancel();
    if (step.failed || m_steps.size() == m_iterations)
    {
        m_event.Cancel();
        for (auto& [id, stream] : m_streams)
        {
            stream.analytic.Cancel();
        }
        for (auto& [id, lane] : m_lanes)
        {
            lane.compute.Cancel();
        }
        m_done = true;
        m_failed = step.failed;
        if (!m_doneCallback.IsNull())
        {
            m_doneCallback(this);
        }
        return;
    }
    // Not from inside the transport's callback: the next step starts on a fresh event.
    m_event = Simulator::ScheduleNow(&MrcTrainingJob::BeginStep, this);
}

void
MrcTrainingJob::SetDoneCallback(Callback<void, Ptr<MrcTrainingJob>> cb)
{
    m_doneCallback = cb;
}

const std::vector<MrcTrainingJob::Step>&
MrcTrainingJob::GetSteps() const
{
    return m_steps;
}

bool
MrcTrainingJob::IsDone() const
{
    return m_done;
}

bool
MrcTrainingJob::HasFailed() const
{
    return m_failed;
}

const std::vector<Ptr<MrcCollective>>&
MrcTrainingJob::GetCollectives() const
{
    return m_collectives;
}

const std::vector<MrcTrainingJob::Operation>&
MrcTrainingJob::GetOperations() const
{
    return m_ops;
}

MrcTrainingJob::Lateness
MrcTrainingJob::GetLateness() const
{
    return m_lateness;
}

} // namespace ns3
