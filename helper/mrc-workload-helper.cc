/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-workload-helper.h"

#include "fabric-topology.h"
#include "mrc-all-gather.h"
#include "mrc-all-to-all.h"
#include "mrc-reduce-scatter.h"
#include "mrc-ring-all-reduce.h"

#include "ns3/log.h"
#include "ns3/string.h"

#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcWorkloadHelper");

using Pass = MrcWorkloadFile::Pass;
using GroupKind = MrcWorkloadFile::GroupKind;
using CommType = MrcWorkloadFile::CommType;

MrcWorkloadHelper::MrcWorkloadHelper() = default;

MrcWorkloadHelper::Placement
MrcWorkloadHelper::ParsePlacement(const std::string& name)
{
    if (name == "packed")
    {
        return Placement::PACKED;
    }
    if (name == "spread")
    {
        return Placement::SPREAD;
    }
    throw std::invalid_argument("workload placement (=\"" + name
                                + "\") must be packed (rank r on host r) or spread "
                                  "(consecutive ranks under different T0s)");
}

std::vector<uint32_t>
MrcWorkloadHelper::Place(Placement placement, uint32_t ranks, uint32_t hostsPerT0, uint32_t t0s)
{
    const uint64_t hosts = uint64_t(hostsPerT0) * t0s;
    if (ranks > hosts)
    {
        throw std::invalid_argument("the workload's ranks (all_gpus = " + std::to_string(ranks)
                                    + ") exceed the fabric's hosts (" + std::to_string(hosts)
                                    + ")");
    }
    std::vector<uint32_t> out;
    for (uint32_t r = 0; r < hosts && out.size() < ranks; ++r)
    {
        out.push_back(placement == Placement::PACKED ? r : (r % t0s) * hostsPerT0 + r / t0s);
    }
    return out;
}

void
MrcWorkloadHelper::SetGpusPerServer(uint32_t gpus)
{
    if (gpus < 1)
    {
        throw std::invalid_argument("GpusPerServer (=0) must be >= 1");
    }
    m_gpusPerServer = gpus;
}

void
MrcWorkloadHelper::SetScaleUpRate(DataRate rate)
{
    if (rate.GetBitRate() == 0)
    {
        throw std::invalid_argument("ScaleUpRate must be > 0");
    }
    m_scaleUpRate = rate;
}

void
MrcWorkloadHelper::SetCommScale(double scale)
{
    if (!(scale > 0) || !std::isfinite(scale))
    {
        throw std::invalid_argument("CommScale (=" + std::to_string(scale) + ") must be > 0");
    }
    m_commScale = scale;
}

void
MrcWorkloadHelper::SetComputeScale(double scale)
{
    if (!(scale >= 0) || !std::isfinite(scale))
    {
        throw std::invalid_argument("ComputeScale (=" + std::to_string(scale) + ") must be >= 0");
    }
    m_computeScale = scale;
}

void
MrcWorkloadHelper::SetCollectiveAttribute(const std::string& name, const std::string& value)
{
    m_attributes.emplace_back(name, value);
}

Time
MrcWorkloadHelper::ScaleUpTime(CommType type, uint32_t ranks, uint64_t bytes, DataRate rate)
{
    if (ranks < 2 || type == CommType::NONE)
    {
        return Time(0);
    }
    const double share = double(ranks - 1) / ranks * (type == CommType::ALL_REDUCE ? 2 : 1);
    return NanoSeconds(std::llround(share * static_cast<double>(bytes) * 8e9
                                    / static_cast<double>(rate.GetBitRate())));
}

Ptr<MrcCollective>
MrcWorkloadHelper::GetCollective(GroupKind kind,
                                 uint32_t group,
                                 CommType type,
                                 const std::vector<uint32_t>& ranks)
{
    auto key = std::make_tuple(kind, group, type);
    auto found = m_collectives.find(key);
    if (found != m_collectives.end())
    {
        return found->second;
    }
    Ptr<MrcCollective> c;
    switch (type)
    {
        case CommType::ALL_REDUCE:
            c = CreateObject<MrcRingAllReduce>();
            break;
        case CommType::ALL_GATHER:
            c = CreateObject<MrcAllGather>();
            break;
        case CommType::REDUCE_SCATTER:
            c = CreateObject<MrcReduceScatter>();
            break;
        case CommType::ALL_TO_ALL:
        case CommType::NONE:
            c = CreateObject<MrcAllToAll>();
            break;
    }
    for (const auto& [name, value] : m_attributes)
    {
        c->SetAttribute(name, StringValue(value));
    }
    std::vector<uint32_t> hosts;
    for (uint32_t r : ranks)
    {
        hosts.push_back(m_hosts.at(r));
    }
    c->Setup(m_topo, *m_mrc, hosts);
    m_collectives[key] = c;
    return c;
}

void
MrcWorkloadHelper::AddComm(const MrcWorkloadFile& workload,
                           const MrcWorkloadFile::Comm& comm,
                           Pass pass,
                           Time hold,
                           const std::string& label,
                           MrcTrainingJob::Operation& op)
{
    if (!comm.IsActive())
    {
        return;
    }
    const GroupKind kind = MrcWorkloadFile::GetGroupKind(comm, pass);
    auto groups = m_groups.find(kind);
    if (groups == m_groups.end())
    {
        groups = m_groups.emplace(kind, workload.GetGroups(kind)).first;
    }
    const uint64_t bytes =
        std::max<uint64_t>(1, std::llround(static_cast<double>(comm.bytes) * m_commScale));
    for (uint32_t g = 0; g < groups->second.size(); ++g)
    {
        const std::vector<uint32_t>& ranks = groups->second[g];
        if (ranks.size() < 2)
        {
            continue;
        }
        MrcTrainingJob::Comm c;
        c.label = label + " " + MrcWorkloadFile::GetGroupName(kind) + std::to_string(g);
        c.stream = static_cast<uint32_t>(kind) * MrcWorkloadFile::kMaxRanks + g;
        c.hold = hold;
        const bool scaleUp = ranks.front() / m_gpusPerServer == ranks.back() / m_gpusPerServer
                             && m_gpusPerServer > 1;
        if (scaleUp)
        {
            c.duration = ScaleUpTime(comm.type, ranks.size(), bytes, m_scaleUpRate);
        }
        else
        {
            c.collective = GetCollective(kind, g, comm.type, ranks);
            c.bytes = bytes;
        }
        op.comms.push_back(c);
    }
}

std::vector<Ptr<MrcCollective>>
MrcWorkloadHelper::Install(const MrcWorkloadFile& workload,
                           Ptr<FabricTopology> topo,
                           MrcHelper& mrc,
                           const std::vector<uint32_t>& hosts,
                           Ptr<MrcTrainingJob> job)
{
    if (hosts.size() < workload.GetRanks())
    {
        throw std::invalid_argument(
            workload.GetName() + ": all_gpus (=" + std::to_string(workload.GetRanks())
            + ") exceeds the hosts given (" + std::to_string(hosts.size()) + ")");
    }
    m_topo = topo;
    m_mrc = &mrc;
    m_hosts = hosts;
    m_groups.clear();
    m_collectives.clear();
    auto scaled = [this](uint64_t ns) {
        return NanoSeconds(std::llround(static_cast<double>(ns) * m_computeScale));
    };
    const auto& layers = workload.GetLayers();
    const bool data = workload.GetPolicy() == MrcWorkloadFile::Policy::DATA;
    auto name = [&layers](size_t i) {
        return "L" + std::to_string(i) + ":" + layers[i].name;
    };
    for (size_t i = 0; i < layers.size(); ++i)
    {
        MrcTrainingJob::Operation op;
        op.label = name(i) + "/fwd";
        op.compute = scaled(layers[i].fwdCompute);
        if (!data)
        {
            AddComm(workload,
                    layers[i].fwd,
                    Pass::FORWARD,
                    scaled(layers[i].updateTime),
                    op.label,
                    op);
        }
        job->AddOperation(op);
    }
    for (size_t i = layers.size(); i-- > 0;)
    {
        const Time hold = scaled(layers[i].updateTime);
        if (!data)
        {
            MrcTrainingJob::Operation ig;
            ig.label = name(i) + "/ig";
            ig.compute = scaled(layers[i].igCompute);
            AddComm(workload, layers[i].ig, Pass::INPUT_GRADIENT, hold, ig.label, ig);
            job->AddOperation(ig);
        }
        MrcTrainingJob::Operation wg;
        wg.label = name(i) + "/wg";
        wg.compute = scaled(layers[i].wgCompute);
        wg.blocking = false;
        AddComm(workload, layers[i].wg, Pass::WEIGHT_GRADIENT, hold, wg.label, wg);
        job->AddOperation(wg);
        if (data && i > 0)
        {
            // DATA (SimAI's iterate_data_parallel): the input-gradient compute follows the
            // weight-gradient comm's issue (and overlaps it); layer 0 has none.
            MrcTrainingJob::Operation ig;
            ig.label = name(i) + "/ig";
            ig.compute = scaled(layers[i].igCompute);
            job->AddOperation(ig);
        }
    }
    std::vector<Ptr<MrcCollective>> out;
    for (const auto& [key, c] : m_collectives)
    {
        out.push_back(c);
    }
    NS_LOG_INFO(workload.GetName()
                << ": " << layers.size() << " layers, " << job->GetOperations().size()
                << " operations, " << out.size() << " fabric collectives");
    m_topo = nullptr;
    m_mrc = nullptr;
    return out;
}

} // namespace ns3
