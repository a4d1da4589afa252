/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_DATA_PLANE_HELPER_H
#define MRC_DATA_PLANE_HELPER_H

#include "mrc-ecmp-routing-helper.h"
#include "mrc-srv6-routing-helper.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * The switch data plane of a fabric.
 */
enum class MrcDataPlane : uint8_t
{
    ECMP, //!< static per-flow ECMP (MrcIpv6EcmpRouting): the conventional baseline
    SRV6, //!< static SRv6 uSID source routing (MrcIpv6Srv6Routing): MRC's fabric
};

/**
 * \ingroup mrc
 * \brief Installs the data plane a scenario chooses, so that switching between MRC's SRv6
 * fabric and the ECMP baseline is one setting.
 */
class MrcDataPlaneHelper
{
  public:
    /// \param plane the data plane (default SRV6)
    void SetDataPlane(MrcDataPlane plane);
    /// \return the data plane
    MrcDataPlane GetDataPlane() const;

    /**
     * \param field option name, for the message
     * \param text "srv6" or "ecmp"
     * \return the data plane
     * \throws std::invalid_argument otherwise
     */
    static MrcDataPlane Parse(const std::string& field, const std::string& text);

    /// \return the ECMP helper (configure before Install)
    MrcEcmpRoutingHelper& GetEcmpHelper();
    /// \return the SRv6 helper (configure before Install; maps EVs to paths after)
    MrcSrv6RoutingHelper& GetSrv6Helper();

    /**
     * \param topo the fabric
     */
    void Install(Ptr<MrcFabricTopology> topo);

  private:
    MrcDataPlane m_plane{MrcDataPlane::SRV6}; //!< the choice
    MrcEcmpRoutingHelper m_ecmp;              //!< ECMP tables
    MrcSrv6RoutingHelper m_srv6;              //!< SRv6 tables
};

/**
 * \param os stream
 * \param plane data plane
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, MrcDataPlane plane);

} // namespace ns3

#endif /* MRC_DATA_PLANE_HELPER_H */
