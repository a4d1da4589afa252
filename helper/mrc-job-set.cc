/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-job-set.h"

#include "ns3/boolean.h"
#include "ns3/mrc-value-parser.h"
#include "ns3/object-factory.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

const std::string MrcJobSet::kMain = "main";

void
MrcJobSet::SetCollectiveDefaults(uint32_t qpsPerPeer, bool verifyData)
{
    m_qpsPerPeer = qpsPerPeer;
    m_verifyData = verifyData;
}

Ptr<MrcCollective>
MrcJobSet::Create(const Collective& c) const
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(c.typeId, &tid) || !tid.IsChildOf(MrcCollective::GetTypeId())
        || !tid.HasConstructor())
    {
        throw std::invalid_argument("MrcClusterScenario::AddCollective: " + c.typeId
                                    + " is not an MrcCollective type (e.g. ns3::MrcRingAllReduce, "
                                      "ns3::MrcAllGather, ns3::MrcReduceScatter, "
                                      "ns3::MrcAllToAll, ns3::MrcPermutation, ns3::MrcIncast, "
                                      "ns3::MrcBulkTransfer)");
    }
    ObjectFactory factory;
    factory.SetTypeId(tid);
    Ptr<MrcCollective> coll = factory.Create<MrcCollective>();
    coll->SetAttribute("QpsPerPeer", UintegerValue(m_qpsPerPeer));
    coll->SetAttribute("VerifyData", BooleanValue(m_verifyData));
    for (const auto& [name, value] : c.attributes)
    {
        try
        {
            MrcValueParser::CheckAttributeText(tid, name, value);
        }
        catch (const std::invalid_argument& e)
        {
            throw std::invalid_argument("MrcClusterScenario::AddCollective: " + c.typeId + ": "
                                        + e.what());
        }
        if (!coll->SetAttributeFailSafe(name, StringValue(value)))
        {
            throw std::invalid_argument("MrcClusterScenario::AddCollective: " + c.typeId
                                        + " has no attribute " + name + " that accepts " + value);
        }
    }
    return coll;
}

MrcJobSet::Job&
MrcJobSet::Find(const std::string& job)
{
    auto found = std::find_if(m_others.begin(), m_others.end(), [&job](const Job& j) {
        return j.name == job;
    });
    if (found != m_others.end())
    {
        return *found;
    }
    if (job.size() > 64
        || job.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX"
                                 "YZ0123456789-_")
               != std::string::npos)
    {
        throw std::invalid_argument("MrcClusterScenario: job name (=\"" + job.substr(0, 64)
                                    + "\") must be 1 to 64 letters, digits, '-' or '_'");
    }
    m_others.push_back(Job{job, std::nullopt, std::nullopt, Time(0), {}});
    return m_others.back();
}

void
MrcJobSet::AddCollective(const std::string& job, const Collective& c)
{
    Create(c); // check the type and the attributes now, where the caller can see them
    if (job.empty() || job == kMain)
    {
        m_main.push_back(c);
        return;
    }
    Find(job).collectives.push_back(c);
}

void
MrcJobSet::SetJob(const std::string& job, uint32_t iterations, Time computeTime, Time startTime)
{
    if (job.empty() || job == kMain)
    {
        throw std::invalid_argument("MrcClusterScenario::SetJob: the main job takes the "
                                    "scenario's Iterations and ComputeTime");
    }
    if (iterations < 1 || iterations > 1000000)
    {
        throw std::invalid_argument("MrcClusterScenario::SetJob: " + job + ": iterations (="
                                    + std::to_string(iterations) + ") must be in [1, 1000000]");
    }
    if (computeTime.IsStrictlyNegative() || startTime.IsStrictlyNegative())
    {
        throw std::invalid_argument("MrcClusterScenario::SetJob: " + job
                                    + ": compute and start times must be >= 0");
    }
    Job& j = Find(job);
    j.iterations = iterations;
    j.computeTime = computeTime;
    j.startTime = startTime;
}

const std::vector<MrcJobSet::Collective>&
MrcJobSet::GetMainCollectives() const
{
    return m_main;
}

const std::vector<MrcJobSet::Job>&
MrcJobSet::GetOtherJobs() const
{
    return m_others;
}

std::vector<Ptr<MrcCollective>>
MrcJobSet::MakeCollectives(const std::vector<Collective>& collectives,
                           Ptr<MrcFabricTopology> topo,
                           MrcHelper& mrc,
                           const std::vector<uint32_t>& allHosts) const
{
    std::vector<Ptr<MrcCollective>> out;
    for (const Collective& c : collectives)
    {
        Ptr<MrcCollective> coll = Create(c);
        coll->Setup(topo, mrc, c.hosts.empty() ? allHosts : c.hosts);
        out.push_back(coll);
    }
    return out;
}

void
MrcJobSet::AppendSteps(const std::string& name, const MrcTrainingJob& job, MrcScenarioResult& r)
{
    for (uint32_t i = 0; i < job.GetSteps().size(); ++i)
    {
        const MrcTrainingJob::Step& s = job.GetSteps()[i];
        if (s.end.IsZero() && !s.failed)
        {
            break; // still running at StopTime
        }
        MrcScenarioResult::Step step;
        step.job = name;
        step.index = i;
        step.start = s.start;
        step.end = s.end;
        step.ideal = s.ideal;
        step.failed = s.failed;
        step.phase = r.Classify(s.start, s.end);
        const MrcCompletionStats st = s.GetTransferStats();
        step.transfers = st.GetCount();
        step.transferMin = st.GetMin();
        step.transferP50 = st.GetMedian();
        step.transferP99 = st.GetPercentile(99);
        step.transferMax = st.GetMax();
        step.comms = s.comms;
        r.steps.push_back(step);
    }
}

} // namespace ns3
