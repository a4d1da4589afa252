/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-workload-helper.h"

#include "ns3/log.h"
#include "ns3/mrc-all-gather.h"
#include "ns3/mrc-all-to-all.h"
#include "ns3/mrc-fabric-topology.h"
#include "ns3/mrc-reduce-scatter.h"
#include "ns3/mrc-ring-all-reduce.h"
#include "ns3/mrc-send-recv.h"
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

MrcWorkloadHelper::PipelineSchedule
MrcWorkloadHelper::ParsePipelineSchedule(const std::string& name)
{
    if (name == "1f1b")
    {
        return PipelineSchedule::ONE_F_ONE_B;
    }
    if (name == "gpipe")
    {
        return PipelineSchedule::GPIPE;
    }
    throw std::invalid_argument("pipeline schedule (=\"" + name
                                + "\") must be 1f1b (one forward, one backward) or gpipe (every "
                                  "forward, then every backward)");
}

void
MrcWorkloadHelper::SetPipelineSchedule(PipelineSchedule schedule)
{
    m_schedule = schedule;
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
    SetUp(c, ranks);
    m_collectives[key] = c;
    return c;
}

void
MrcWorkloadHelper::SetUp(Ptr<MrcCollective> c, const std::vector<uint32_t>& ranks) const
{
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
}

void
MrcWorkloadHelper::AddComm(const MrcWorkloadFile& workload,
                           const MrcWorkloadFile::Comm& comm,
                           Pass pass,
                           Time hold,
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
        if (ranks.size() < 2 || ranks.front() / workload.GetRanksPerStage() != op.lane)
        {
            continue; // nothing to send, or another pipeline stage's group
        }
        MrcTrainingJob::Comm c;
        c.label = op.label + " " + MrcWorkloadFile::GetGroupName(kind) + std::to_string(g);
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

Time
MrcWorkloadHelper::Scaled(uint64_t ns) const
{
    return NanoSeconds(std::llround(static_cast<double>(ns) * m_computeScale));
}

std::string
MrcWorkloadHelper::Label(const MrcWorkloadFile& workload, uint32_t stage, const std::string& what)
{
    return workload.GetPipelineParallel() > 1 ? "s" + std::to_string(stage) + "/" + what : what;
}

uint32_t
MrcWorkloadHelper::AddForward(const MrcWorkloadFile& workload, size_t i, uint32_t stage)
{
    const MrcWorkloadFile::Layer& layer = workload.GetLayers()[i];
    MrcTrainingJob::Operation op;
    op.lane = stage;
    op.label = Label(workload, stage, "L" + std::to_string(i) + ":" + layer.name + "/fwd");
    op.compute = Scaled(layer.fwdCompute);
    if (workload.GetPolicy() != MrcWorkloadFile::Policy::DATA)
    {
        AddComm(workload, layer.fwd, Pass::FORWARD, Scaled(layer.updateTime), op);
    }
    m_program.push_back(op);
    return m_program.size() - 1;
}

uint32_t
MrcWorkloadHelper::AddBackward(const MrcWorkloadFile& workload, size_t i, uint32_t stage)
{
    const MrcWorkloadFile::Layer& layer = workload.GetLayers()[i];
    const bool data = workload.GetPolicy() == MrcWorkloadFile::Policy::DATA;
    const std::string name = "L" + std::to_string(i) + ":" + layer.name;
    const Time hold = Scaled(layer.updateTime);
    const uint32_t first = m_program.size();
    MrcTrainingJob::Operation ig;
    ig.lane = stage;
    ig.label = Label(workload, stage, name + "/ig");
    ig.compute = Scaled(layer.igCompute);
    if (!data)
    {
        AddComm(workload, layer.ig, Pass::INPUT_GRADIENT, hold, ig);
        m_program.push_back(ig);
    }
    MrcTrainingJob::Operation wg;
    wg.lane = stage;
    wg.label = Label(workload, stage, name + "/wg");
    wg.compute = Scaled(layer.wgCompute);
    wg.blocking = false;
    AddComm(workload, layer.wg, Pass::WEIGHT_GRADIENT, hold, wg);
    m_program.push_back(wg);
    if (data && i > 0)
    {
        // DATA (SimAI's iterate_data_parallel): the input-gradient compute follows the
        // weight-gradient comm's issue (and overlaps it); layer 0 has none.
        m_program.push_back(ig);
    }
    return first;
}

uint32_t
MrcWorkloadHelper::AddSend(const MrcWorkloadFile& workload,
                           uint32_t stage,
                           bool forward,
                           uint32_t microBatch)
{
    const uint32_t to = forward ? stage + 1 : stage - 1;
    const uint32_t perStage = workload.GetRanksPerStage();
    const uint64_t bytes = std::max<uint64_t>(
        1,
        std::llround(static_cast<double>(workload.GetPipelineBytes()) * m_commScale));
    MrcTrainingJob::Operation op;
    op.lane = stage;
    op.label =
        Label(workload, stage, "mb" + std::to_string(microBatch) + (forward ? "/act" : "/grad"));
    op.blocking = false; // the stage computes on while its send is in flight (isend)
    const uint32_t boundary = std::min(stage, to);
    const uint32_t dir = forward ? 0 : 1;
    std::vector<uint32_t> senders;
    std::vector<uint32_t> receivers;
    bool scaleUp = false;
    for (uint32_t k = 0; k < perStage; ++k)
    {
        const uint32_t src = stage * perStage + k;
        const uint32_t dst = to * perStage + k;
        if (m_gpusPerServer > 1 && src / m_gpusPerServer == dst / m_gpusPerServer)
        {
            scaleUp = true; // inside one server: NVLink, analytic
            continue;
        }
        senders.push_back(src);
        receivers.push_back(dst);
    }
    const std::string group = " pp" + std::to_string(boundary);
    if (scaleUp)
    {
        MrcTrainingJob::Comm c;
        c.label = op.label + group;
        c.stream = (kPipelineStream + 2 + dir) * MrcWorkloadFile::kMaxRanks + stage;
        c.duration = NanoSeconds(std::llround(static_cast<double>(bytes) * 8e9
                                              / static_cast<double>(m_scaleUpRate.GetBitRate())));
        op.comms.push_back(c);
    }
    if (!senders.empty())
    {
        auto key = std::make_pair(stage, dir);
        auto found = m_sendRecv.find(key);
        if (found == m_sendRecv.end())
        {
            Ptr<MrcCollective> c = CreateObject<MrcSendRecv>();
            std::vector<uint32_t> ranks = senders; // MrcSendRecv: the senders, then receivers
            ranks.insert(ranks.end(), receivers.begin(), receivers.end());
            SetUp(c, ranks);
            found = m_sendRecv.emplace(key, c).first;
        }
        MrcTrainingJob::Comm c;
        c.label = op.label + group;
        c.stream = (kPipelineStream + dir) * MrcWorkloadFile::kMaxRanks + stage;
        c.collective = found->second;
        c.bytes = bytes;
        op.comms.push_back(c);
    }
    m_program.push_back(op);
    return m_program.size() - 1;
}

std::vector<std::pair<bool, uint32_t>>
MrcWorkloadHelper::PipelineOrder(PipelineSchedule schedule,
                                 uint32_t stages,
                                 uint32_t stage,
                                 uint32_t microBatches)
{
    std::vector<std::pair<bool, uint32_t>> order;
    if (schedule == PipelineSchedule::GPIPE)
    {
        for (uint32_t m = 0; m < microBatches; ++m)
        {
            order.emplace_back(true, m);
        }
        for (uint32_t m = microBatches; m-- > 0;)
        {
            order.emplace_back(false, m);
        }
        return order;
    }
    const uint32_t warmup = std::min(stages - 1 - stage, microBatches);
    for (uint32_t m = 0; m < warmup; ++m)
    {
        order.emplace_back(true, m);
    }
    for (uint32_t i = 0; i + warmup < microBatches; ++i)
    {
        order.emplace_back(true, warmup + i);
        order.emplace_back(false, i);
    }
    for (uint32_t m = microBatches - warmup; m < microBatches; ++m)
    {
        order.emplace_back(false, m);
    }
    return order;
}

void
MrcWorkloadHelper::BuildPipeline(const MrcWorkloadFile& workload)
{
    const uint32_t stages = workload.GetPipelineParallel();
    const MrcWorkloadFile::MicroBatches& mb = workload.GetMicroBatches();
    const size_t layers = workload.GetLayers().size();
    const size_t epilogue = mb.first + mb.count * mb.length;
    // Per stage and micro-batch: its send of activations (forward) and of gradients.
    std::vector<std::vector<uint32_t>> sendAct(stages, std::vector<uint32_t>(mb.count));
    std::vector<std::vector<uint32_t>> sendGrad(stages, std::vector<uint32_t>(mb.count));

    struct Wait
    {
        uint32_t op;   //!< the waiting operation
        bool forward;  //!< for activations (else gradients)
        uint32_t from; //!< the sending stage
        uint32_t m;    //!< the micro-batch
    };

    std::vector<Wait> waits;
    for (uint32_t s = 0; s < stages; ++s)
    {
        for (size_t i = 0; i < mb.first; ++i)
        {
            AddForward(workload, i, s);
        }
        for (const auto& [forward, m] : PipelineOrder(m_schedule, stages, s, mb.count))
        {
            const size_t first = mb.first + size_t(m) * mb.length;
            if (forward)
            {
                for (size_t i = first; i < first + mb.length; ++i)
                {
                    const uint32_t op = AddForward(workload, i, s);
                    if (i == first && s > 0)
                    {
                        waits.push_back(Wait{op, true, s - 1, m});
                    }
                }
                if (s + 1 < stages)
                {
                    sendAct[s][m] = AddSend(workload, s, true, m);
                }
                continue;
            }
            for (size_t i = first + mb.length; i-- > first;)
            {
                const uint32_t op = AddBackward(workload, i, s);
                if (i + 1 == first + mb.length && s + 1 < stages)
                {
                    waits.push_back(Wait{op, false, s + 1, m});
                }
            }
            if (s > 0)
            {
                sendGrad[s][m] = AddSend(workload, s, false, m);
            }
        }
        for (size_t i = epilogue; i < layers; ++i)
        {
            AddForward(workload, i, s);
        }
        for (size_t i = layers; i-- > epilogue;)
        {
            AddBackward(workload, i, s);
        }
        for (size_t i = mb.first; i-- > 0;)
        {
            AddBackward(workload, i, s);
        }
    }
    for (const Wait& w : waits)
    {
        m_program[w.op].after.push_back(w.forward ? sendAct[w.from][w.m] : sendGrad[w.from][w.m]);
    }
}

std::vector<Ptr<MrcCollective>>
MrcWorkloadHelper::Install(const MrcWorkloadFile& workload,
                           Ptr<MrcFabricTopology> topo,
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
    m_sendRecv.clear();
    m_program.clear();
    if (workload.GetPipelineParallel() > 1)
    {
        BuildPipeline(workload);
    }
    else
    {
        const size_t layers = workload.GetLayers().size();
        for (size_t i = 0; i < layers; ++i)
        {
            AddForward(workload, i, 0);
        }
        for (size_t i = layers; i-- > 0;)
        {
            AddBackward(workload, i, 0);
        }
    }
    for (const MrcTrainingJob::Operation& op : m_program)
    {
        job->AddOperation(op);
    }
    std::vector<Ptr<MrcCollective>> out;
    for (const auto& [key, c] : m_collectives)
    {
        out.push_back(c);
    }
    for (const auto& [key, c] : m_sendRecv)
    {
        out.push_back(c);
    }
    NS_LOG_INFO(workload.GetName()
                << ": " << workload.GetLayers().size() << " layers, "
                << workload.GetPipelineParallel() << " stages, " << m_program.size()
                << " operations, " << out.size() << " fabric collectives");
    m_program.clear();
    m_topo = nullptr;
    m_mrc = nullptr;
    return out;
}

} // namespace ns3
