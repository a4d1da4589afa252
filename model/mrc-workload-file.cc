/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-workload-file.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>

namespace ns3
{

namespace
{

/// Reports errors as "<file>:<line>: <message>".
struct Where
{
    const std::string& name; //!< file name
    uint32_t line;           //!< line (from 1)

    /**
     * \param field the field
     * \param value its text
     * \param reason what is wrong or accepted
     * \return the exception
     */
    std::invalid_argument Error(const std::string& field,
                                const std::string& value,
                                const std::string& reason) const
    {
        std::string shown;
        for (char ch : value.substr(0, 64))
        {
            shown += (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ? '?' : ch;
        }
        return std::invalid_argument(name + ":" + std::to_string(line) + ": " + field + " (=\""
                                     + shown + "\"): " + reason);
    }
};

/**
 * \param w where
 * \param field the field
 * \param text its text
 * \param max the largest value accepted
 * \return the value
 * \throws std::invalid_argument unless it is an integer in [0, max]
 */
uint64_t
ParseCount(const Where& w, const std::string& field, const std::string& text, uint64_t max)
{
    if (text.empty() || text.size() > 19
        || text.find_first_not_of("0123456789") != std::string::npos)
    {
        throw w.Error(field, text, "must be an integer in [0, " + std::to_string(max) + "]");
    }
    const unsigned long long v = std::stoull(text);
    if (v > max)
    {
        throw w.Error(field, text, "must be an integer in [0, " + std::to_string(max) + "]");
    }
    return v;
}

/**
 * \param line a line
 * \return its whitespace-separated tokens
 */
std::vector<std::string>
Tokens(const std::string& line)
{
    std::istringstream is(line);
    std::vector<std::string> out;
    std::string t;
    while (is >> t)
    {
        out.push_back(t);
    }
    return out;
}

/// Largest time or size accepted (ns or bytes): 2^53, exact in a double and far beyond a step.
constexpr uint64_t kMaxValue = uint64_t(1) << 53;

} // namespace

bool
MrcWorkloadFile::Comm::IsActive() const
{
    return type != CommType::NONE && bytes > 0;
}

std::string
MrcWorkloadFile::GetTypeName(CommType type)
{
    switch (type)
    {
        case CommType::ALL_REDUCE:
            return "ALLREDUCE";
        case CommType::ALL_GATHER:
            return "ALLGATHER";
        case CommType::REDUCE_SCATTER:
            return "REDUCESCATTER";
        case CommType::ALL_TO_ALL:
            return "ALLTOALL";
        case CommType::NONE:
            break;
    }
    return "NONE";
}

std::string
MrcWorkloadFile::GetGroupName(GroupKind kind)
{
    switch (kind)
    {
        case GroupKind::TP:
            return "tp";
        case GroupKind::DP:
            return "dp";
        case GroupKind::EP:
            return "ep";
        case GroupKind::DP_EP:
            break;
    }
    return "dp-ep";
}

MrcWorkloadFile::GroupKind
MrcWorkloadFile::GetGroupKind(const Comm& comm, Pass pass)
{
    switch (comm.group)
    {
        case Group::EP:
            return GroupKind::EP;
        case Group::DP_EP:
            return GroupKind::DP_EP;
        case Group::DEFAULT:
            break;
    }
    return pass == Pass::WEIGHT_GRADIENT ? GroupKind::DP : GroupKind::TP;
}

std::vector<std::vector<uint32_t>>
MrcWorkloadFile::GetGroups(GroupKind kind) const
{
    std::vector<std::vector<uint32_t>> groups;
    for (uint32_t stage = 0; stage < m_pp; ++stage)
    {
        for (auto& g : GetStageGroups(kind))
        {
            for (uint32_t& r : g)
            {
                r += stage * GetRanksPerStage();
            }
            groups.push_back(std::move(g));
        }
    }
    return groups;
}

std::vector<std::vector<uint32_t>>
MrcWorkloadFile::GetStageGroups(GroupKind kind) const
{
    const uint32_t tp = m_tp;
    const uint32_t dp = GetDataParallel();
    const uint32_t ep = m_ep;
    std::vector<std::vector<uint32_t>> groups;
    switch (kind)
    {
        case GroupKind::TP:
            for (uint32_t i = 0; i < dp; ++i)
            {
                groups.emplace_back();
                for (uint32_t j = 0; j < tp; ++j)
                {
                    groups.back().push_back(i * tp + j);
                }
            }
            break;
        case GroupKind::DP:
            for (uint32_t k = 0; k < tp; ++k)
            {
                groups.emplace_back();
                for (uint32_t j = 0; j < dp; ++j)
                {
                    groups.back().push_back(j * tp + k);
                }
            }
            break;
        case GroupKind::EP:
            for (uint32_t b = 0; b < dp / ep; ++b)
            {
                for (uint32_t k = 0; k < tp; ++k)
                {
                    groups.emplace_back();
                    for (uint32_t m = 0; m < ep; ++m)
                    {
                        groups.back().push_back((b * ep + m) * tp + k);
                    }
                }
            }
            break;
        case GroupKind::DP_EP:
            for (uint32_t e = 0; e < ep; ++e)
            {
                for (uint32_t k = 0; k < tp; ++k)
                {
                    groups.emplace_back();
                    for (uint32_t m = 0; m < dp / ep; ++m)
                    {
                        groups.back().push_back((e + m * ep) * tp + k);
                    }
                }
            }
            break;
    }
    return groups;
}

MrcWorkloadFile::Comm
MrcWorkloadFile::ParseCommType(const std::string& text)
{
    Comm c;
    c.text = text;
    if (text == "NONE" || text == "BROADCAST")
    {
        return c;
    }
    std::string base = text;
    for (const auto& [suffix, group] :
         {std::pair<std::string, Group>{"_DP_EP", Group::DP_EP}, {"_EP", Group::EP}})
    {
        if (base.size() > suffix.size()
            && base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0)
        {
            base.resize(base.size() - suffix.size());
            c.group = group;
            break;
        }
    }
    for (CommType t : {CommType::ALL_REDUCE,
                       CommType::ALL_GATHER,
                       CommType::REDUCE_SCATTER,
                       CommType::ALL_TO_ALL})
    {
        if (base == GetTypeName(t))
        {
            c.type = t;
            return c;
        }
    }
    throw std::invalid_argument(
        "must be NONE, BROADCAST (no communication) or ALLREDUCE, ALLGATHER, REDUCESCATTER, "
        "ALLTOALL, each optionally with _EP or _DP_EP");
}

MrcWorkloadFile
MrcWorkloadFile::ParseFile(const std::string& path)
{
    struct stat st
    {
    };

    if (stat(path.c_str(), &st) != 0)
    {
        throw std::invalid_argument(path + ": cannot read the workload file");
    }
    if (S_ISDIR(st.st_mode))
    {
        throw std::invalid_argument(path + ": is a directory, not a workload file");
    }
    if (uint64_t(st.st_size) > kMaxBytes)
    {
        throw std::invalid_argument(path + ": larger than " + std::to_string(kMaxBytes)
                                    + " bytes, the most a workload file may hold");
    }
    std::ifstream in(path);
    if (!in)
    {
        throw std::invalid_argument(path + ": cannot read the workload file");
    }
    return Parse(in, path);
}

MrcWorkloadFile
MrcWorkloadFile::Parse(std::istream& in, const std::string& name)
{
    MrcWorkloadFile f;
    f.m_name = name;
    std::string line;
    uint32_t lineNo = 0;
    auto next = [&]() {
        while (std::getline(in, line))
        {
            ++lineNo;
            if (!line.empty() && line.back() == '\r')
            {
                line.pop_back();
            }
            if (line.find_first_not_of(" \t") != std::string::npos)
            {
                return true;
            }
        }
        return false;
    };

    // Line 1: policy and parameters.
    if (!next())
    {
        throw std::invalid_argument(name
                                    + ": empty workload file (line 1 must name the "
                                      "parallelism policy, line 2 the layer count)");
    }
    const Where head{name, lineNo};
    const std::vector<std::string> h = Tokens(line);
    f.m_policyName = h[0];
    const std::map<std::string, Policy> policies{
        {"HYBRID_TRANSFORMER_FWD_IN_BCKWD", Policy::TRANSFORMER_FWD_IN_BCKWD},
        {"HYBRID_TRANSFORMER", Policy::TRANSFORMER},
        {"DATA", Policy::DATA}};
    auto p = policies.find(h[0]);
    if (p == policies.end())
    {
        throw head.Error("policy",
                         h[0],
                         "must be HYBRID_TRANSFORMER_FWD_IN_BCKWD, HYBRID_TRANSFORMER or DATA "
                         "(SimAI's MODEL, HYBRID_DATA_MODEL, HYBRID_MODEL_DATA, "
                         "HYBRID_CUSTOMIZED, HYBRID_DLRM*, MICRO and DISTRIBUTED_INFERENCE are "
                         "not supported)");
    }
    f.m_policy = p->second;
    bool haveTp = false;
    bool haveRanks = false;
    for (size_t i = 1; i < h.size();)
    {
        std::string key = h[i];
        if (!key.empty() && key.back() == ':')
        {
            key.pop_back();
        }
        const std::vector<std::string> known{"model_parallel_NPU_group",
                                             "ep",
                                             "pp",
                                             "vpp",
                                             "ga",
                                             "all_gpus",
                                             "checkpoints",
                                             "checkpoint_initiates",
                                             "pp_comm"};
        if (std::find(known.begin(), known.end(), key) == known.end())
        {
            throw head.Error("parameter",
                             h[i],
                             "unknown; accepted: model_parallel_NPU_group, ep, pp, vpp, ga, "
                             "all_gpus, checkpoints, checkpoint_initiates, pp_comm");
        }
        if (i + 1 >= h.size())
        {
            throw head.Error(key, "", "missing value");
        }
        const uint64_t v = ParseCount(head, key, h[i + 1], kMaxValue);
        i += 2;
        auto positive = [&](uint64_t max) {
            if (v < 1 || v > max)
            {
                throw head.Error(key,
                                 h[i - 1],
                                 "must be an integer in [1, " + std::to_string(max) + "]");
            }
            return uint32_t(v);
        };
        if (key == "model_parallel_NPU_group")
        {
            f.m_tp = positive(kMaxRanks);
            haveTp = true;
        }
        else if (key == "ep")
        {
            f.m_ep = positive(kMaxRanks);
        }
        else if (key == "all_gpus")
        {
            f.m_ranks = positive(kMaxRanks);
            haveRanks = true;
        }
        else if (key == "ga")
        {
            f.m_ga = positive(kMaxRanks);
        }
        else if (key == "pp")
        {
            f.m_pp = positive(kMaxRanks);
        }
        else if (key == "pp_comm")
        {
            f.m_ppBytes = v;
        }
        else if ((key == "checkpoints" || key == "checkpoint_initiates") && v != 0)
        {
            throw head.Error(key,
                             h[i - 1],
                             "must be 0: activation recomputation (checkpointing) is not "
                             "simulated");
        }
    }
    if (f.m_policy != Policy::DATA && !haveTp)
    {
        throw head.Error("model_parallel_NPU_group", "", "missing: the tensor-parallel size");
    }
    if (f.m_policy == Policy::DATA)
    {
        f.m_tp = 1;
    }
    if (!haveRanks)
    {
        throw head.Error("all_gpus", "", "missing: the number of ranks");
    }
    if (f.m_pp > 1 && f.m_policy == Policy::DATA)
    {
        throw head.Error("pp", std::to_string(f.m_pp), "must be 1 with the DATA policy");
    }
    if (f.m_ranks % (uint64_t(f.m_tp) * f.m_pp) != 0)
    {
        throw head.Error("model_parallel_NPU_group",
                         std::to_string(f.m_tp),
                         (f.m_pp > 1 ? "times pp (=" + std::to_string(f.m_pp) + ") " : "")
                             + "must divide all_gpus (=" + std::to_string(f.m_ranks) + ")");
    }
    if (f.GetDataParallel() % f.m_ep != 0)
    {
        throw head.Error("ep",
                         std::to_string(f.m_ep),
                         "must divide the data-parallel size all_gpus / (TP pp) (="
                             + std::to_string(f.GetDataParallel()) + ")");
    }
    if (f.m_pp > 1 && f.m_ppBytes == 0)
    {
        throw head.Error("pp_comm",
                         std::to_string(f.m_ppBytes),
                         "must be > 0 with pp > 1: the bytes each rank sends to the next stage "
                         "per micro-batch");
    }
    if (f.m_pp == 1 && f.m_ppBytes != 0)
    {
        throw head.Error("pp_comm",
                         std::to_string(f.m_ppBytes),
                         "must be 0 with pp = 1 (no pipeline stages to send between)");
    }

    // Line 2: the layer count.
    if (!next())
    {
        throw std::invalid_argument(name + ": line 2 must give the number of layers");
    }
    const Where countAt{name, lineNo};
    const std::vector<std::string> c = Tokens(line);
    if (c.size() != 1)
    {
        throw countAt.Error("layer count", line, "must be one integer");
    }
    const uint64_t count = ParseCount(countAt, "layer count", c[0], 1000000);

    // The layers.
    const char* fields[] = {"name",
                            "dependency",
                            "forward compute",
                            "forward comm type",
                            "forward comm size",
                            "input-gradient compute",
                            "input-gradient comm type",
                            "input-gradient comm size",
                            "weight-gradient compute",
                            "weight-gradient comm type",
                            "weight-gradient comm size",
                            "update time"};
    while (next())
    {
        const Where w{name, lineNo};
        const std::vector<std::string> t = Tokens(line);
        if (t.size() != 12)
        {
            throw w.Error("layer",
                          line,
                          "must have 12 fields (name, dependency, then compute time, comm "
                          "type and comm size of forward, input gradient and weight gradient, "
                          "then update time); it has "
                              + std::to_string(t.size()));
        }
        Layer l;
        l.name = t[0];
        l.line = lineNo;
        if (t[1] != "-1")
        {
            ParseCount(w, fields[1], t[1], kMaxValue); // an index; unused, as in SimAI
        }
        Comm* comms[] = {&l.fwd, &l.ig, &l.wg};
        uint64_t* computes[] = {&l.fwdCompute, &l.igCompute, &l.wgCompute};
        for (int k = 0; k < 3; ++k)
        {
            *computes[k] = ParseCount(w, fields[2 + 3 * k], t[2 + 3 * k], kMaxValue);
            try
            {
                *comms[k] = ParseCommType(t[3 + 3 * k]);
            }
            catch (const std::invalid_argument& e)
            {
                throw w.Error(fields[3 + 3 * k], t[3 + 3 * k], e.what());
            }
            comms[k]->bytes = ParseCount(w, fields[4 + 3 * k], t[4 + 3 * k], kMaxValue);
            f.m_broadcasts += t[3 + 3 * k] == "BROADCAST" && comms[k]->bytes > 0 ? 1 : 0;
        }
        l.updateTime = ParseCount(w, fields[11], t[11], kMaxValue);
        f.m_layers.push_back(l);
    }
    if (f.m_layers.size() != count)
    {
        throw countAt.Error("layer count",
                            c[0],
                            "the file has " + std::to_string(f.m_layers.size()) + " layer lines");
    }
    if (f.m_pp > 1)
    {
        f.FindMicroBatches();
    }
    return f;
}

void
MrcWorkloadFile::FindMicroBatches()
{
    std::vector<size_t> starts;
    for (size_t i = 0; i < m_layers.size(); ++i)
    {
        if (m_layers[i].name == kMicroBatchStart)
        {
            starts.push_back(i);
        }
    }
    const std::string why = std::string("with pp > 1 the file must hold its ga micro-batches as "
                                        "AICB writes them, each beginning with a layer named ")
                            + kMicroBatchStart + ", all alike";
    if (starts.size() != m_ga)
    {
        throw Where{m_name, 1}.Error("ga",
                                     std::to_string(m_ga),
                                     why + "; the file has " + std::to_string(starts.size()));
    }
    const size_t length = starts.size() > 1 ? starts[1] - starts[0] : m_layers.size() - starts[0];
    for (uint32_t m = 0; m < m_ga; ++m)
    {
        const size_t first = starts[0] + m * length;
        for (size_t k = 0; k < length; ++k)
        {
            if (first + k >= m_layers.size()
                || m_layers[first + k].name != m_layers[starts[0] + k].name
                || (k > 0 && m_layers[first + k].name == kMicroBatchStart))
            {
                const Layer& at = m_layers[std::min(first + k, m_layers.size() - 1)];
                throw Where{m_name, at.line}.Error("layer",
                                                   at.name,
                                                   why + " (micro-batch " + std::to_string(m + 1)
                                                       + " differs from the first)");
            }
        }
    }
    m_microBatches = MicroBatches{starts[0], length, m_ga};
}

MrcWorkloadFile::Policy
MrcWorkloadFile::GetPolicy() const
{
    return m_policy;
}

const std::string&
MrcWorkloadFile::GetPolicyName() const
{
    return m_policyName;
}

uint32_t
MrcWorkloadFile::GetTensorParallel() const
{
    return m_tp;
}

uint32_t
MrcWorkloadFile::GetExpertParallel() const
{
    return m_ep;
}

uint32_t
MrcWorkloadFile::GetRanks() const
{
    return m_ranks;
}

uint32_t
MrcWorkloadFile::GetDataParallel() const
{
    return m_ranks / (m_tp * m_pp);
}

uint32_t
MrcWorkloadFile::GetPipelineParallel() const
{
    return m_pp;
}

uint32_t
MrcWorkloadFile::GetRanksPerStage() const
{
    return m_ranks / m_pp;
}

uint64_t
MrcWorkloadFile::GetPipelineBytes() const
{
    return m_ppBytes;
}

const MrcWorkloadFile::MicroBatches&
MrcWorkloadFile::GetMicroBatches() const
{
    return m_microBatches;
}

uint32_t
MrcWorkloadFile::GetGradientAccumulation() const
{
    return m_ga;
}

const std::vector<MrcWorkloadFile::Layer>&
MrcWorkloadFile::GetLayers() const
{
    return m_layers;
}

const std::string&
MrcWorkloadFile::GetName() const
{
    return m_name;
}

uint32_t
MrcWorkloadFile::GetBroadcastCount() const
{
    return m_broadcasts;
}

} // namespace ns3
