/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-workload-application.h"

#include "ns3/log.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcWorkloadApplication");

NS_OBJECT_ENSURE_REGISTERED(MrcWorkloadApplication);

MrcWorkloadApplication::Launch::Launch(std::string name,
                                       uint32_t ranks,
                                       std::function<void()> start)
    : m_name(std::move(name))
    , m_ranks(ranks)
    , m_start(std::move(start))
{
    if (ranks == 0)
    {
        throw std::invalid_argument("MrcWorkloadApplication: a workload needs >= 1 rank");
    }
    if (!m_start)
    {
        throw std::invalid_argument("MrcWorkloadApplication: no workload to start");
    }
}

void
MrcWorkloadApplication::Launch::Arrive()
{
    if (m_begun)
    {
        return;
    }
    ++m_arrived;
    NS_LOG_INFO(m_name << ": " << m_arrived << " of " << m_ranks << " ranks started");
    if (m_arrived == m_ranks)
    {
        m_begun = true;
        m_start();
    }
}

void
MrcWorkloadApplication::Launch::Leave()
{
    if (!m_begun && m_arrived > 0)
    {
        --m_arrived;
    }
}

bool
MrcWorkloadApplication::Launch::HasBegun() const
{
    return m_begun;
}

uint32_t
MrcWorkloadApplication::Launch::GetArrived() const
{
    return m_arrived;
}

uint32_t
MrcWorkloadApplication::Launch::GetRanks() const
{
    return m_ranks;
}

const std::string&
MrcWorkloadApplication::Launch::GetName() const
{
    return m_name;
}

TypeId
MrcWorkloadApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcWorkloadApplication")
            .SetParent<Application>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcWorkloadApplication>()
            .AddTraceSource("RankStarted",
                            "The rank's application started: rank, whether the workload "
                            "began with it (the last rank to arrive).",
                            MakeTraceSourceAccessor(&MrcWorkloadApplication::m_rankStarted),
                            "ns3::MrcWorkloadApplication::RankStartedTracedCallback");
    return tid;
}

MrcWorkloadApplication::MrcWorkloadApplication() = default;

MrcWorkloadApplication::~MrcWorkloadApplication() = default;

void
MrcWorkloadApplication::Setup(Ptr<Launch> launch, uint32_t rank)
{
    m_launch = launch;
    m_rank = rank;
}

uint32_t
MrcWorkloadApplication::GetRank() const
{
    return m_rank;
}

Ptr<MrcWorkloadApplication::Launch>
MrcWorkloadApplication::GetLaunch() const
{
    return m_launch;
}

void
MrcWorkloadApplication::StartApplication()
{
    if (!m_launch)
    {
        throw std::logic_error("MrcWorkloadApplication: started without a workload (use "
                               "MrcWorkloadHelper::Install)");
    }
    if (m_arrived || m_launch->HasBegun())
    {
        return;
    }
    m_arrived = true;
    m_launch->Arrive();
    m_rankStarted(m_rank, m_launch->HasBegun());
}

void
MrcWorkloadApplication::StopApplication()
{
    if (m_arrived && m_launch && !m_launch->HasBegun())
    {
        NS_LOG_INFO(m_launch->GetName() << ": rank " << m_rank << " withdrawn before the start");
        m_launch->Leave();
        m_arrived = false;
    }
}

void
MrcWorkloadApplication::DoDispose()
{
    m_launch = nullptr;
    Application::DoDispose();
}

} // namespace ns3
