/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_DATA_PLANE_HELPER_H
#define MRC_DATA_PLANE_HELPER_H

#include "ecmp-routing-helper.h"
#include "srv6-routing-helper.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * The switch data plane of a fabric.
 */
enum class DataPlane : uint8_t
{
    ECMP, //!< static per-flow ECMP (Ipv6EcmpRouting): the conventional baseline
    SRV6, //!< static SRv6 uSID source routing (Ipv6Srv6Routing): MRC's fabric
};

/**
 * \ingroup mrc
 * \brief Installs the data plane a scenario chooses, so that switching between MRC's SRv6
 * fabric and the ECMP baseline is one setting.
 */
class DataPlaneHelper
{
  public:
    /// \param plane the data plane (default SRV6)
    void SetDataPlane(DataPlane plane);
    /// \return the data plane
    DataPlane GetDataPlane() const;

    /**
     * \param field option name, for the message
     * \param text "srv6" or "ecmp"
     * \return the data plane
     * \throws std::invalid_argument otherwise
     */
    static DataPlane Parse(const std::string& field, const std::string& text);

    /// \return the ECMP helper (configure before Install)
    EcmpRoutingHelper& GetEcmpHelper();
    /// \return the SRv6 helper (configure before Install; maps EVs to paths after)
    Srv6RoutingHelper& GetSrv6Helper();

    /**
     * \param topo the fabric
     */
    void Install(Ptr<FabricTopology> topo);

  private:
    DataPlane m_plane{DataPlane::SRV6}; //!< the choice
    EcmpRoutingHelper m_ecmp;           //!< ECMP tables
    Srv6RoutingHelper m_srv6;           //!< SRv6 tables
};

/**
 * \param os stream
 * \param plane data plane
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, DataPlane plane);

} // namespace ns3

#endif /* MRC_DATA_PLANE_HELPER_H */
