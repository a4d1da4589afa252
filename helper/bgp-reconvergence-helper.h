/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_BGP_RECONVERGENCE_HELPER_H
#define MRC_BGP_RECONVERGENCE_HELPER_H

#include "bgp-reconvergence-model.h"
#include "fabric-topology.h"

#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Puts a BgpReconvergenceModel on a fabric that runs the ECMP data plane.
 *
 * \code
 *   Ptr<FabricTopology> fabric = ClosTopologyHelper().Build(ClosSpec::FatTree(4));
 *   EcmpRoutingHelper().Install(*fabric);
 *   BgpReconvergenceHelper bgp;
 *   bgp.SetAttribute("BfdEnabled", BooleanValue(true));
 *   Ptr<BgpReconvergenceModel> model = bgp.Install(fabric);
 *   Simulator::Schedule(MilliSeconds(10), &BgpReconvergenceModel::LinkFailed, model,
 *                       fabric->GetLinksBetween(t0, t1).at(0), LinkFailureKind::CARRIER_LOSS);
 * \endcode
 */
class BgpReconvergenceHelper
{
  public:
    BgpReconvergenceHelper();

    /**
     * \param name an attribute of ns3::BgpReconvergenceModel
     * \param value its value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \param attach follow the NetDevices' carrier (BgpReconvergenceModel::AttachToDevices);
     *        default true
     */
    void SetAttachToDevices(bool attach);

    /**
     * \param topo the fabric, with EcmpRoutingHelper's tables installed and every link up
     * \return the model
     * \throws std::invalid_argument as BgpReconvergenceModel::Install
     */
    Ptr<BgpReconvergenceModel> Install(Ptr<FabricTopology> topo) const;

  private:
    ObjectFactory m_factory; //!< makes the model
    bool m_attach{true};     //!< attach to device carrier callbacks
};

} // namespace ns3

#endif /* MRC_BGP_RECONVERGENCE_HELPER_H */
