/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_WORKLOAD_HELPER_H
#define MRC_WORKLOAD_HELPER_H

#include "mrc-training-job.h"
#include "mrc-workload-file.h"

#include "ns3/data-rate.h"
#include "ns3/ptr.h"

#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace ns3
{

class FabricTopology;
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

    MrcWorkloadHelper();

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
                                            Ptr<FabricTopology> topo,
                                            MrcHelper& mrc,
                                            const std::vector<uint32_t>& hosts,
                                            Ptr<MrcTrainingJob> job);

  private:
    /**
     * Add one pass's comm of a layer to an operation.
     * \param workload the workload
     * \param comm the comm
     * \param pass its pass
     * \param hold the layer's update time (scaled)
     * \param label the operation's label
     * \param op the operation
     */
    void AddComm(const MrcWorkloadFile& workload,
                 const MrcWorkloadFile::Comm& comm,
                 MrcWorkloadFile::Pass pass,
                 Time hold,
                 const std::string& label,
                 MrcTrainingJob::Operation& op);

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
    std::vector<std::pair<std::string, std::string>> m_attributes; //!< of collectives
    Ptr<FabricTopology> m_topo;                                    //!< during Install
    MrcHelper* m_mrc{nullptr};                                     //!< during Install
    std::vector<uint32_t> m_hosts;                                 //!< during Install
    std::map<MrcWorkloadFile::GroupKind, std::vector<std::vector<uint32_t>>> m_groups; //!< ranks
    std::map<std::tuple<MrcWorkloadFile::GroupKind, uint32_t, MrcWorkloadFile::CommType>,
             Ptr<MrcCollective>>
        m_collectives; //!< per group and type
};

} // namespace ns3

#endif /* MRC_WORKLOAD_HELPER_H */
