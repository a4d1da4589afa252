/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_WORKLOAD_FILE_H
#define MRC_WORKLOAD_FILE_H

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief A training workload in the SimAI / AICB text format ("workload files" of
 * aliyun/SimAI's example/ directory, written by aliyun/aicb), read and checked.
 *
 * Line 1: the parallelism policy, then `key: value` pairs: `model_parallel_NPU_group` (tensor
 * parallel size, TP), `ep`, `pp`, `vpp`, `ga`, `all_gpus` (ranks), `checkpoints`,
 * `checkpoint_initiates`, `pp_comm` (the colon is optional). Line 2: the number of layers.
 * Then one layer per line, 12 whitespace-separated fields: name, dependency (unused, -1),
 * forward compute (ns), forward comm type, forward comm size (bytes), input-gradient compute,
 * its comm type and size, weight-gradient compute, its comm type and size, and the update time
 * (ns a layer waits after each of its comms ends).
 *
 * Comm types: ALLREDUCE, ALLGATHER, REDUCESCATTER, ALLTOALL, optionally suffixed _EP (the
 * expert-parallel group) or _DP_EP (the data-parallel group of one expert); NONE and BROADCAST
 * (which SimAI runs as no communication, as here) mean none. Sizes follow nccl-tests: the
 * per-rank buffer (all-gather: the gathered output; all-to-all: the whole send buffer).
 *
 * Read as SimAI reads it, with what SimAI would silently misread refused instead: a policy
 * other than HYBRID_TRANSFORMER_FWD_IN_BCKWD, HYBRID_TRANSFORMER or DATA; a missing
 * model_parallel_NPU_group or all_gpus; TP or EP that does not divide all_gpus (or EP the
 * data-parallel size); with pp above 1, pp_comm 0 or micro-batches not as AICB writes them
 * (see GetMicroBatches), and pp_comm above 0 with pp 1; checkpoints (activation recomputation is
 * not simulated); a layer count that differs from the lines; a line with other than 12 fields; a
 * time or size that is not a non-negative integer; an unknown comm type. Each error is a
 * std::invalid_argument
 * "<file>:<line>: <field> (=<value>): <reason>".
 */
class MrcWorkloadFile
{
  public:
    /// The parallelism policy of line 1.
    enum class Policy : uint8_t
    {
        TRANSFORMER_FWD_IN_BCKWD, //!< HYBRID_TRANSFORMER_FWD_IN_BCKWD (what AICB writes)
        TRANSFORMER,              //!< HYBRID_TRANSFORMER (the same order)
        DATA,                     //!< DATA: forward compute, then weight-gradient comms only
    };

    /// A collective of a layer's pass.
    enum class CommType : uint8_t
    {
        NONE,           //!< no communication
        ALL_REDUCE,     //!< ALLREDUCE
        ALL_GATHER,     //!< ALLGATHER
        REDUCE_SCATTER, //!< REDUCESCATTER
        ALL_TO_ALL,     //!< ALLTOALL
    };

    /// The group of ranks a comm runs over.
    enum class Group : uint8_t
    {
        DEFAULT, //!< no suffix: TP for forward and input gradient, DP for weight gradient
        EP,      //!< _EP: the expert-parallel group
        DP_EP,   //!< _DP_EP: the data-parallel group of one expert
    };

    /// A kind of parallel group (communicator).
    enum class GroupKind : uint8_t
    {
        TP,    //!< tensor parallel: TP consecutive ranks
        DP,    //!< data parallel: the ranks at the same place of every TP group
        EP,    //!< expert parallel: the same place of EP consecutive TP groups
        DP_EP, //!< data parallel of an expert: the same place of every EP-th TP group
    };

    /// The passes of a layer.
    enum class Pass : uint8_t
    {
        FORWARD,         //!< forward
        INPUT_GRADIENT,  //!< backward, input gradient
        WEIGHT_GRADIENT, //!< backward, weight gradient
    };

    /// One comm of a layer's pass.
    struct Comm
    {
        CommType type{CommType::NONE}; //!< the collective
        Group group{Group::DEFAULT};   //!< its group
        uint64_t bytes{0};             //!< per-rank buffer (bytes)
        std::string text;              //!< as written (e.g. "REDUCESCATTER_DP_EP")

        /// \return true if it moves data (a type other than NONE and bytes > 0)
        bool IsActive() const;
    };

    /// One layer line.
    struct Layer
    {
        std::string name;       //!< field 1
        uint32_t line{0};       //!< its line in the file (from 1)
        uint64_t fwdCompute{0}; //!< forward compute (ns)
        Comm fwd;               //!< forward comm
        uint64_t igCompute{0};  //!< input-gradient compute (ns)
        Comm ig;                //!< input-gradient comm
        uint64_t wgCompute{0};  //!< weight-gradient compute (ns)
        Comm wg;                //!< weight-gradient comm
        uint64_t updateTime{0}; //!< wait after each comm of the layer ends (ns)
    };

    /// Where the micro-batches of a pipeline-parallel file are (AICB unrolls the ga
    /// micro-batches of a step into layers): micro-batch m is layers [first + m length,
    /// first + (m + 1) length); layers before `first` are the step's prologue, those after the
    /// last micro-batch its epilogue.
    struct MicroBatches
    {
        size_t first{0};   //!< index of the first micro-batch's first layer
        size_t length{0};  //!< layers per micro-batch
        uint32_t count{0}; //!< micro-batches (ga); 0 when pp = 1 (not looked for)
    };

    /// The layer name that begins a micro-batch in AICB's files.
    static constexpr const char* kMicroBatchStart = "embedding_layer";

    /// Largest file read, in bytes (checked before parsing).
    static constexpr uint64_t kMaxBytes = 64 * 1024 * 1024;
    /// Most ranks accepted (all_gpus).
    static constexpr uint32_t kMaxRanks = 1 << 20;

    /**
     * \param path a workload file
     * \return it, parsed
     * \throws std::invalid_argument if it cannot be read, is larger than kMaxBytes or is
     *         malformed (see the class)
     */
    static MrcWorkloadFile ParseFile(const std::string& path);

    /**
     * \param in the text
     * \param name the file name for messages
     * \return it, parsed
     * \throws std::invalid_argument if it is malformed (see the class)
     */
    static MrcWorkloadFile Parse(std::istream& in, const std::string& name);

    /**
     * \param text a comm type as written (e.g. "ALLGATHER_DP_EP")
     * \return the type and group (bytes 0)
     * \throws std::invalid_argument naming the accepted types
     */
    static Comm ParseCommType(const std::string& text);

    /// \param type a comm type \return its name in the format ("ALLREDUCE", ...)
    static std::string GetTypeName(CommType type);
    /// \param kind a group kind \return its name ("tp", "dp", "ep", "dp-ep")
    static std::string GetGroupName(GroupKind kind);

    /**
     * As SimAI forms its groups: no suffix is TP in the forward and input-gradient passes and
     * DP in the weight-gradient pass; _EP is EP and _DP_EP is DP_EP in every pass.
     * \param comm a comm
     * \param pass its pass
     * \return the kind of group it runs over
     */
    static GroupKind GetGroupKind(const Comm& comm, Pass pass);

    /**
     * Groups are formed inside each pipeline stage (Megatron-LM's rank order, pipeline
     * outermost): stage s holds ranks [s n / pp, (s + 1) n / pp), and its groups are those of
     * a pp = 1 job of n / pp ranks, offset; groups are listed stage by stage.
     * \param kind a group kind
     * \return its groups, each a list of ranks in ring order; every rank is in exactly one
     */
    std::vector<std::vector<uint32_t>> GetGroups(GroupKind kind) const;

    /// \return the policy
    Policy GetPolicy() const;
    /// \return the policy as written
    const std::string& GetPolicyName() const;
    /// \return the tensor-parallel size (model_parallel_NPU_group)
    uint32_t GetTensorParallel() const;
    /// \return the expert-parallel size (ep; 1 if absent)
    uint32_t GetExpertParallel() const;
    /// \return the ranks (all_gpus)
    uint32_t GetRanks() const;
    /// \return the data-parallel size: all_gpus / (TP pp)
    uint32_t GetDataParallel() const;
    /// \return the pipeline-parallel size (pp; 1 if absent): the stages
    uint32_t GetPipelineParallel() const;
    /// \return ranks per pipeline stage: all_gpus / pp
    uint32_t GetRanksPerStage() const;
    /// \return pp_comm: bytes each rank sends to its peer of the next stage per micro-batch
    ///         (and its gradient back); 0 when pp = 1
    uint64_t GetPipelineBytes() const;
    /**
     * With pp > 1 the layers are a step of one stage as AICB writes it: a prologue, then ga
     * micro-batches, each beginning with a layer named kMicroBatchStart and holding the same
     * sequence of layers, then an epilogue. Parse checks it.
     * \return where the micro-batches are (count 0 when pp = 1)
     */
    const MicroBatches& GetMicroBatches() const;
    /// \return the gradient-accumulation steps (ga; informative: AICB unrolls them into layers)
    uint32_t GetGradientAccumulation() const;
    /// \return the layers, in file order
    const std::vector<Layer>& GetLayers() const;
    /// \return the file name given to Parse
    const std::string& GetName() const;
    /// \return comms written BROADCAST (run as none, as SimAI does)
    uint32_t GetBroadcastCount() const;

  private:
    /// \param kind a group kind \return its groups in stage 0
    std::vector<std::vector<uint32_t>> GetStageGroups(GroupKind kind) const;
    /// Find and check the micro-batches (pp > 1). \throws std::invalid_argument
    void FindMicroBatches();

    std::string m_name;                                //!< file name
    Policy m_policy{Policy::TRANSFORMER_FWD_IN_BCKWD}; //!< line 1 policy
    std::string m_policyName;                          //!< as written
    uint32_t m_tp{1};                                  //!< model_parallel_NPU_group
    uint32_t m_ep{1};                                  //!< ep
    uint32_t m_ranks{1};                               //!< all_gpus
    uint32_t m_ga{1};                                  //!< ga
    uint32_t m_pp{1};                                  //!< pp
    uint64_t m_ppBytes{0};                             //!< pp_comm
    MicroBatches m_microBatches;                       //!< with pp > 1
    uint32_t m_broadcasts{0};                          //!< BROADCAST comms
    std::vector<Layer> m_layers;                       //!< layers
};

} // namespace ns3

#endif /* MRC_WORKLOAD_FILE_H */
