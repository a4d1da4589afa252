/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_BGP_RECONVERGENCE_HELPER_H
#define MRC_BGP_RECONVERGENCE_HELPER_H

#include "ns3/mrc-bgp-reconvergence-model.h"
#include "ns3/mrc-fabric-topology.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Puts an MrcBgpReconvergenceModel on a fabric that runs the ECMP data plane.
 *
 * \code
 *   Ptr<MrcFabricTopology> fabric = MrcClosTopologyHelper().Build(MrcClosSpec::FatTree(4));
 *   MrcEcmpRoutingHelper().Install(*fabric);
 *   MrcBgpReconvergenceHelper bgp;
 *   bgp.SetAttribute("BfdEnabled", BooleanValue(true));
 *   Ptr<MrcBgpReconvergenceModel> model = bgp.Install(fabric);
 *   Simulator::Schedule(MilliSeconds(10), &MrcBgpReconvergenceModel::LinkFailed, model,
 *                       fabric->GetLinksBetween(t0, t1).at(0), MrcLinkFailureKind::CARRIER_LOSS);
 * \endcode
 */
class MrcBgpReconvergenceHelper
{
  public:
    MrcBgpReconvergenceHelper();

    /**
     * \param name an attribute of ns3::MrcBgpReconvergenceModel
     * \param value its value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \param attach follow the NetDevices' carrier (MrcBgpReconvergenceModel::AttachToDevices);
     *        default true
     */
    void SetAttachToDevices(bool attach);

    /**
     * \param topo the fabric, with MrcEcmpRoutingHelper's tables installed and every link up
     * \return the model
     * \throws std::invalid_argument as MrcBgpReconvergenceModel::Install
     */
    Ptr<MrcBgpReconvergenceModel> Install(Ptr<MrcFabricTopology> topo) const;

  private:
    ObjectFactory m_factory; //!< makes the model
    bool m_attach{true};     //!< attach to device carrier callbacks
};

} // namespace ns3

#endif /* MRC_BGP_RECONVERGENCE_HELPER_H */
