/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CLUSTER_FABRIC_HELPER_H
#define MRC_CLUSTER_FABRIC_HELPER_H

#include "mrc-clos-topology-helper.h"
#include "mrc-data-plane-helper.h"

#include "ns3/ptr.h"

#include <cstdint>
#include <string>

namespace ns3
{

struct MrcClosSpec;
class MrcFabricTopology;
class MrcHelper;

/**
 * \ingroup mrc
 * The fabrics compared: transport, data plane and switch queues.
 */
enum class MrcClusterFabric : uint8_t
{
    MRC_SRV6,  //!< "mrc-srv6": MRC queue pairs over static SRv6, trimming switches
    MRC_ECMP,  //!< "mrc-ecmp": MRC queue pairs over per-flow ECMP + BGP, trimming switches
    ROCE_ECMP, //!< "roce-ecmp": RoCEv2-style QPs over per-flow ECMP + BGP, ECN switches
    ROCE_PFC,  //!< "roce-pfc": the same over a lossless fabric (PFC on every port, ECN)
};

/**
 * \ingroup mrc
 * \brief Builds one of the compared fabrics the same way for the flagship scenario and the
 * examples: the switch queues of its kind (trimming for MRC, ECN marking for RoCEv2, PFC
 * queues and PFC on every port for roce-pfc), the data plane (static SRv6 or per-flow ECMP)
 * and, through ConfigureTransport, the queue pairs (RoCEv2 baseline for the RoCE fabrics).
 *
 * Link rates, delays and limits are set on GetTopologyHelper() before Build(); BGP and
 * failures are installed by the caller on the topology Build() returns.
 *
 * \code
 *   MrcClusterFabricHelper fabric(MrcClusterFabricHelper::Parse("roce-pfc"));
 *   fabric.GetTopologyHelper().SetLinkRate(MrcLinkTier::HOST_T0, DataRate("400Gbps"));
 *   Ptr<MrcFabricTopology> topo = fabric.Build(spec);
 *   MrcHelper mrc(topo, fabric.GetDataPlane());
 *   fabric.ConfigureTransport(mrc, 1);
 *   mrc.Install();
 * \endcode
 */
class MrcClusterFabricHelper
{
  public:
    /// \param fabric the fabric to build
    explicit MrcClusterFabricHelper(MrcClusterFabric fabric);

    /**
     * \param name "mrc-srv6", "mrc-ecmp", "roce-ecmp" or "roce-pfc"
     * \param what the name of the setting, for the error message
     * \return the fabric
     * \throws std::invalid_argument naming the accepted values
     */
    static MrcClusterFabric Parse(const std::string& name,
                                  const std::string& what = "MrcClusterScenario: Fabric");

    /**
     * \param fabric a fabric
     * \return its name ("mrc-srv6", ...)
     */
    static std::string GetName(MrcClusterFabric fabric);

    /// \return the fabric this helper builds
    MrcClusterFabric GetFabric() const;
    /// \return true for the RoCEv2 fabrics (go-back-N, DCQCN, one path per QP)
    bool IsRoce() const;
    /// \return true when the data plane is per-flow ECMP (so BGP reconverges it)
    bool IsEcmp() const;
    /// \return true for the lossless fabric
    bool IsPfc() const;

    /// \return the topology helper, for link rates, delays and limits before Build()
    MrcClosTopologyHelper& GetTopologyHelper();

    /// \return the data plane helper (installed by Build(); MrcHelper keeps a reference)
    MrcDataPlaneHelper& GetDataPlane();

    /**
     * Build the fabric: the topology with the switch queues of the fabric's kind, PFC on
     * every port for roce-pfc, and the data plane.
     * \param spec the Clos
     * \return the topology
     */
    Ptr<MrcFabricTopology> Build(const MrcClosSpec& spec);

    /**
     * Configure the queue pairs of the fabric's kind: the RoCEv2 baseline for the RoCE
     * fabrics (nothing for MRC). Call before MrcHelper::Install.
     * \param mrc the transport helper
     * \param qpsPerPeer RoCEv2 queue pairs per peer
     */
    void ConfigureTransport(MrcHelper& mrc, uint32_t qpsPerPeer) const;

  private:
    MrcClusterFabric m_fabric;        //!< the fabric
    MrcClosTopologyHelper m_topology; //!< builds the topology
    MrcDataPlaneHelper m_dataPlane;   //!< installs the data plane
};

} // namespace ns3

#endif /* MRC_CLUSTER_FABRIC_HELPER_H */
