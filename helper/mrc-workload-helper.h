/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_WORKLOAD_HELPER_H
#define MRC_WORKLOAD_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/mrc-training-job.h"
#include "ns3/mrc-workload-file.h"
#include "ns3/ptr.h"

#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace ns3
{

class MrcFabricTopology;
class MrcHelper;

/**
 * \ingroup mrc
 * \brief Turns an imported training workload (MrcWorkloadFile) into the program of an
 * MrcTrainingJob: its parallel groups onto ranks and hosts, its collectives onto the module's
 * collectives, its compute times onto gaps.
 *
 * One training step, as SimAI runs a HYBRID_TRANSFORMER(_FWD_IN_BCKWD) file: the layers in
 * order, each its forward compute then its forward comm (blocking); then the layers in reverse,
 * each its input-gradient compute and comm (blocking), then its weight-gradient compute and
 * comm, issued without waiting (it overlaps the layers before it; weight-gradient comms of one
 * group run one after another). Every comm of a layer holds its group for the layer's update
 * time after it ends. DATA files: forward compute only, then per layer in reverse its
 * weight-gradient compute and comm (not waited for), then its input-gradient compute (none for
 * layer 0). The step ends when every comm has.
 *
 * A comm runs once per group of its kind (MrcWorkloadFile::GetGroups), all groups at once;
 * each group is one stream (communicator) of the job. Over the fabric a comm is the module's
 * collective (MrcRingAllReduce, MrcAllGather, MrcReduceScatter, MrcAllToAll) on the group's
 * hosts, one collective object per group and type (queue pairs set up once). A group whose
 * ranks all sit in one server (rank / GpusPerServer equal) communicates over the server's
 * scale-up network, not simulated: it takes its bus bytes at ScaleUpRate (all-reduce
 * 2 (n - 1) / n S, the others (n - 1) / n S), as an analytic comm. A group of one rank, a
 * NONE comm and a size of 0 communicate nothing.
 *
 * Pipeline parallelism (pp > 1), which SimAI only estimates (an analytic exposed-time and
 * bubble formula), is simulated: the ranks form pp stages (MrcWorkloadFile::GetGroups), each
 * stage a lane of the job running the file's layers (AICB writes one stage's step; every stage
 * runs it) on its own groups. The file's ga micro-batches (MrcWorkloadFile::GetMicroBatches)
 * run in the order of the PipelineSchedule: 1F1B (Megatron-LM's non-interleaved schedule:
 * pp - 1 - s warm-up forwards at stage s, then one forward and one backward in turn, then the
 * remaining backwards) or GPipe (every forward, then every backward in reverse). A micro-batch's
 * forward at stage s > 0 starts when stage s - 1 has sent its activations: every rank of stage
 * s - 1 writes pp_comm bytes to the rank at the same place of stage s (MrcSendRecv; within
 * one server, at ScaleUpRate, analytic); its backward at stage s < pp - 1 starts when stage
 * s + 1 has sent the gradients back the same way. A send does not hold its stage (isend). The
 * prologue (layers before the first micro-batch) runs forward first; the epilogue (after the
 * last), forward then backward, follows the micro-batches; the prologue's backward (the
 * data-parallel gradient reduction) ends the step. The interleaved schedule (vpp) is not
 * modelled (AICB writes vpp as the layers per stage, not as virtual stages).
 *
 * CommScale and ComputeScale multiply every size and time of the file (SimAI's comm_scale and
 * compute_scale): a packet simulation of a full-size step of a large model takes hours.
 */
class MrcWorkloadHelper
{
  public:
    /// How ranks are placed on the fabric's hosts.
    enum class Placement : uint8_t
    {
        PACKED, //!< rank r on host r: consecutive ranks under the same T0
        SPREAD, //!< consecutive ranks under different T0s (MrcClusterScenario's rank order)
    };

    /// The order of micro-batches in a pipeline stage.
    enum class PipelineSchedule : uint8_t
    {
        ONE_F_ONE_B, //!< "1f1b": Megatron-LM's non-interleaved one-forward-one-backward
        GPIPE,       //!< "gpipe": every forward, then every backward (reverse order)
    };

    /// Streams (MrcTrainingJob::Comm::stream) of pipeline sends start at this many times
    /// MrcWorkloadFile::kMaxRanks (group streams are kind x kMaxRanks + group).
    static constexpr uint32_t kPipelineStream = 4;

    MrcWorkloadHelper();

    /**
     * \param name "1f1b" or "gpipe"
     * \return the schedule
     * \throws std::invalid_argument naming the accepted values
     */
    static PipelineSchedule ParsePipelineSchedule(const std::string& name);

    /**
     * The order of forward (true) and backward (false) micro-batch passes of a stage.
     * \param schedule the schedule
     * \param stages pipeline stages (>= 1)
     * \param stage this stage (< stages)
     * \param microBatches micro-batches
     * \return (forward, micro-batch) in order
     */
    static std::vector<std::pair<bool, uint32_t>> PipelineOrder(PipelineSchedule schedule,
                                                                uint32_t stages,
                                                                uint32_t stage,
                                                                uint32_t microBatches);

    /// \param schedule the order of micro-batches with pp > 1 (default 1F1B)
    void SetPipelineSchedule(PipelineSchedule schedule);

    /**
     * \param name "packed" or "spread"
     * \return the placement
     * \throws std::invalid_argument naming the accepted values
     */
    static Placement ParsePlacement(const std::string& name);

    /**
     * \param placement a placement
     * \param ranks ranks to place (at most hostsPerT0 x t0s)
     * \param hostsPerT0 hosts under each T0
     * \param t0s T0 switches (host h sits under T0 h / hostsPerT0)
     * \return rank -> host
     * \throws std::invalid_argument if there are more ranks than hosts
     */
    static std::vector<uint32_t> Place(Placement placement,
                                       uint32_t ranks,
                                       uint32_t hostsPerT0,
                                       uint32_t t0s);

    /// \param gpus GPUs per server sharing a scale-up network (1: none; >= 1)
    void SetGpusPerServer(uint32_t gpus);
    /// \param rate scale-up bandwidth per GPU and direction (> 0)
    void SetScaleUpRate(DataRate rate);
    /// \param scale multiplies every comm size (> 0; a size > 0 stays >= 1 byte)
    void SetCommScale(double scale);
    /// \param scale multiplies every compute and update time (>= 0)
    void SetComputeScale(double scale);
    /**
     * \param name an attribute of MrcCollective set on every collective made (QpsPerPeer,
     *        VerifyData, ...)
     * \param value its value as text
     */
    void SetCollectiveAttribute(const std::string& name, const std::string& value);

    /**
     * The analytic time of a collective on the scale-up network.
     * \param type the collective
     * \param ranks its ranks (>= 1)
     * \param bytes its size S
     * \param rate ScaleUpRate
     * \return its bus bytes at rate
     */
    static Time ScaleUpTime(MrcWorkloadFile::CommType type,
                            uint32_t ranks,
                            uint64_t bytes,
                            DataRate rate);

    /**
     * Make the collectives of the workload and add one step's program to the job.
     * \param workload the workload
     * \param topo the fabric
     * \param mrc the transport (installed)
     * \param hosts rank -> host (at least workload.GetRanks() entries; Place)
     * \param job the job (no AddCollective)
     * \return the fabric collectives made
     * \throws std::invalid_argument if there are too few hosts for the ranks
     */
    std::vector<Ptr<MrcCollective>> Install(const MrcWorkloadFile& workload,
                                            Ptr<MrcFabricTopology> topo,
                                            MrcHelper& mrc,
                                            const std::vector<uint32_t>& hosts,
                                            Ptr<MrcTrainingJob> job);

  private:
    /**
     * Add one pass's comm of a layer to an operation: one comm per group of its kind in the
     * operation's stage (its lane).
     * \param workload the workload
     * \param comm the comm
     * \param pass its pass
     * \param hold the layer's update time (scaled)
     * \param op the operation (label and lane set)
     */
    void AddComm(const MrcWorkloadFile& workload,
                 const MrcWorkloadFile::Comm& comm,
                 MrcWorkloadFile::Pass pass,
                 Time hold,
                 MrcTrainingJob::Operation& op);

    /**
     * Give a new collective the collective attributes and its ranks' hosts (Setup).
     * \param c the collective
     * \param ranks its ranks, in its rank order
     */
    void SetUp(Ptr<MrcCollective> c, const std::vector<uint32_t>& ranks) const;
    /// \param ns a time of the file \return it times ComputeScale
    Time Scaled(uint64_t ns) const;
    /**
     * \param workload the workload
     * \param stage a stage
     * \param what an operation's name
     * \return its label ("s<stage>/" first with pp > 1)
     */
    static std::string Label(const MrcWorkloadFile& workload,
                             uint32_t stage,
                             const std::string& what);
    /**
     * Append a layer's forward operation to the program.
     * \param workload the workload
     * \param i the layer
     * \param stage its stage (lane)
     * \return its index in the program
     */
    uint32_t AddForward(const MrcWorkloadFile& workload, size_t i, uint32_t stage);
    /**
     * Append a layer's backward operations (input gradient, weight gradient) to the program.
     * \param workload the workload
     * \param i the layer
     * \param stage its stage (lane)
     * \return the index of the first in the program
     */
    uint32_t AddBackward(const MrcWorkloadFile& workload, size_t i, uint32_t stage);
    /**
     * Append a pipeline send to the program: every rank of a stage writes pp_comm bytes to
     * the rank at the same place of the next stage (forward) or of the previous (backward).
     * \param workload the workload
     * \param stage the sending stage
     * \param forward activations to stage + 1 (else gradients to stage - 1)
     * \param microBatch its micro-batch
     * \return its index in the program
     */
    uint32_t AddSend(const MrcWorkloadFile& workload,
                     uint32_t stage,
                     bool forward,
                     uint32_t microBatch);
    /// \param workload a workload with pp > 1: build every stage's program
    void BuildPipeline(const MrcWorkloadFile& workload);

    /**
     * \param kind a group kind
     * \param group a group's index
     * \param type a collective
     * \param ranks its ranks
     * \return the collective of that group and type (made and set up on first use)
     */
    Ptr<MrcCollective> GetCollective(MrcWorkloadFile::GroupKind kind,
                                     uint32_t group,
                                     MrcWorkloadFile::CommType type,
                                     const std::vector<uint32_t>& ranks);

    uint32_t m_gpusPerServer{1};                                   //!< GpusPerServer
    DataRate m_scaleUpRate{"3600Gbps"};                            //!< ScaleUpRate
    double m_commScale{1};                                         //!< CommScale
    double m_computeScale{1};                                      //!< ComputeScale
    PipelineSchedule m_schedule{PipelineSchedule::ONE_F_ONE_B};    //!< with pp > 1
    std::vector<std::pair<std::string, std::string>> m_attributes; //!< of collectives
    Ptr<MrcFabricTopology> m_topo;                                 //!< during Install
    MrcHelper* m_mrc{nullptr};                                     //!< during Install
    std::vector<uint32_t> m_hosts;                                 //!< during Install
    std::map<MrcWorkloadFile::GroupKind, std::vector<std::vector<uint32_t>>> m_groups; //!< ranks
    std::map<std::tuple<MrcWorkloadFile::GroupKind, uint32_t, MrcWorkloadFile::CommType>,
             Ptr<MrcCollective>>
        m_collectives; //!< per group and type
    std::map<std::pair<uint32_t, uint32_t>, Ptr<MrcCollective>>
        m_sendRecv;                                   //!< per sending stage and direction
    std::vector<MrcTrainingJob::Operation> m_program; //!< during Install
};

} // namespace ns3

#endif /* MRC_WORKLOAD_HELPER_H */
