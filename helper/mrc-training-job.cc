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
    m_collectives.clear();
    m_doneCallback = MakeNullCallback<void, Ptr<MrcTrainingJob>>();
    Object::DoDispose();
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
}

void
MrcTrainingJob::Start()
{
    if (m_collectives.empty())
    {
        throw std::logic_error("MrcTrainingJob: Start without collectives");
    }
    m_event = Simulator::Schedule(m_startTime, &MrcTrainingJob::BeginStep, this);
}

void
MrcTrainingJob::BeginStep()
{
    Step step;
    step.start = Simulator::Now();
    Time ideal(0);
    for (const auto& c : m_collectives)
    {
        ideal = std::max(ideal, c->GetIdealTime());
    }
    step.ideal = m_computeTime + ideal;
    m_steps.push_back(step);
    NS_LOG_INFO("step " << m_steps.size() - 1 << " starts");
    m_event = Simulator::Schedule(m_computeTime, &MrcTrainingJob::StartCollectives, this);
}

void
MrcTrainingJob::StartCollectives()
{
    m_pending = m_collectives.size();
    for (const auto& c : m_collectives)
    {
        c->Start();
    }
}

void
MrcTrainingJob::OnCollectiveDone(Ptr<MrcCollective> collective)
{
    if (m_steps.empty() || m_pending == 0)
    {
        return;
    }
    Step& step = m_steps.back();
    const auto times = collective->GetTransferTimes();
    step.transferTimes.insert(step.transferTimes.end(), times.begin(), times.end());
    step.failed = step.failed || collective->HasFailed();
    if (--m_pending > 0)
    {
        return;
    }
    step.end = Simulator::Now();
    const uint32_t index = m_steps.size() - 1;
    NS_LOG_INFO("step " << index << " took " << step.GetDuration().As(Time::US) << " (ideal "
                        << step.ideal.As(Time::US) << ")" << (step.failed ? ", failed" : ""));
    m_stepTrace(index, step.GetDuration(), step.ideal);
    if (step.failed || m_steps.size() == m_iterations)
    {
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

} // namespace ns3
