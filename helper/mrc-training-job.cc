/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-training-job.h"

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

CompletionStats
MrcTrainingJob::Step::GetTransferStats() const
{
    return CompletionStats(transferTimes);
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
    for (auto& [id, stream] : m_streams)
    {
        stream.analytic.Cancel();
    }
    m_streams.clear();
    m_streamOf.clear();
    m_ops.clear();
    m_collectives.clear();
    m_doneCallback = MakeNullCallback<void, Ptr<MrcTrainingJob>>();
    Object::DoDispose();
}

Time
MrcTrainingJob::ScheduleEnd(const std::vector<Operation>& ops,
                            const std::function<Time(const Comm&)>& duration)
{
    Time now(0);
    Time end(0);
    std::map<uint32_t, Time> free; // per stream: when its last comm ends
    for (const Operation& op : ops)
    {
        now += op.compute;
        Time opEnd = now;
        for (const Comm& c : op.comms)
        {
            Time& f = free[c.stream];
            f = std::max(f, now) + duration(c) + c.hold;
            opEnd = std::max(opEnd, f);
        }
        end = std::max(end, opEnd);
        if (op.blocking)
        {
            now = opEnd;
        }
    }
    return std::max(end, now);
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
    m_ops.push_back(op);
}

void
MrcTrainingJob::Start()
{
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
    // The program is the same every step: its line-rate ideal once. Nothing runs yet, so
    // setting the collectives' sizes for it disturbs nothing (each comm sets its own again).
    m_ideal = ScheduleEnd(m_ops, [this](const Comm& c) {
        return IdealOf(c);
    });
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
    step.start = Simulator::Now();
    step.ideal = m_ideal;
    m_steps.push_back(step);
    NS_LOG_INFO("step " << m_steps.size() - 1 << " starts");
    m_op = 0;
    m_issuedAll = false;
    RunOperation();
}

void
MrcTrainingJob::RunOperation()
{
    if (m_op == m_ops.size())
    {
        m_issuedAll = true;
        MaybeEndStep();
        return;
    }
    m_event = Simulator::Schedule(m_ops[m_op].compute, &MrcTrainingJob::IssueComms, this);
}

void
MrcTrainingJob::IssueComms()
{
    const Operation& op = m_ops[m_op];
    Step& step = m_steps.back();
    m_opPending = op.blocking ? op.comms.size() : 0;
    for (uint32_t j = 0; j < op.comms.size(); ++j)
    {
        const Comm& c = op.comms[j];
        CommRecord rec;
        rec.label = c.label;
        rec.kind = c.collective ? c.collective->GetName() : "analytic";
        rec.issued = Simulator::Now();
        step.comms.push_back(rec);
        m_streams[c.stream].queue.push_back(Issued{m_op, j, uint32_t(step.comms.size() - 1)});
    }
    const uint32_t op0 = m_op;
    for (const Comm& c : op.comms)
    {
        StartNext(c.stream);
        if (m_done || m_op != op0 || m_steps.back().failed)
        {
            return; // a comm failed at once, or ended the operation
        }
    }
    if (m_opPending == 0)
    {
        ++m_op;
        RunOperation();
    }
}

void
MrcTrainingJob::StartNext(uint32_t id)
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
    rec.start = Simulator::Now();
    if (!c.collective)
    {
        rec.ideal = c.duration;
        stream.analytic =
            Simulator::Schedule(c.duration + c.hold, &MrcTrainingJob::OnCommDone, this, id);
        return;
    }
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
    auto s = m_streamOf.find(collective);
    if (m_done || m_steps.empty() || s == m_streamOf.end())
    {
        return;
    }
    Step& step = m_steps.back();
    const auto times = collective->GetTransferTimes();
    step.transferTimes.insert(step.transferTimes.end(), times.begin(), times.end());
    if (collective->HasFailed())
    {
        step.failed = true;
        step.end = Simulator::Now();
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
    step.comms[stream.running->record].end = Simulator::Now();
    if (c.hold.IsStrictlyPositive())
    {
        stream.analytic = Simulator::Schedule(c.hold, &MrcTrainingJob::OnCommDone, this, s->second);
        return;
    }
    OnCommDone(s->second);
}

void
MrcTrainingJob::OnCommDone(uint32_t id)
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
        rec.end = Simulator::Now() - m_ops[done.op].comms[done.comm].hold; // analytic
    }
    const bool opDone = done.op == m_op && m_ops[m_op].blocking && --m_opPending == 0;
    StartNext(id);
    if (opDone)
    {
        ++m_op;
        // Not from inside the transport's callback: the next operation starts on a fresh event.
        m_event = Simulator::ScheduleNow(&MrcTrainingJob::RunOperation, this);
        return;
    }
    MaybeEndStep();
}

void
MrcTrainingJob::MaybeEndStep()
{
    Step& step = m_steps.back();
    if (!step.failed)
    {
        if (!m_issuedAll)
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
        step.end = Simulator::Now();
    }
    const uint32_t index = m_steps.size() - 1;
    NS_LOG_INFO("step " << index << " took " << step.GetDuration().As(Time::US) << " (ideal "
                        << step.ideal.As(Time::US) << ")" << (step.failed ? ", failed" : ""));
    m_stepTrace(index, step.GetDuration(), step.ideal);
    if (step.failed || m_steps.size() == m_iterations)
    {
        m_event.Cancel();
        for (auto& [id, stream] : m_streams)
        {
            stream.analytic.Cancel();
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

} // namespace ns3
