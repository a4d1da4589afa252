/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-data-plane-helper.h"

#include <stdexcept>

namespace ns3
{

void
MrcDataPlaneHelper::SetDataPlane(MrcDataPlane plane)
{
    m_plane = plane;
}

MrcDataPlane
MrcDataPlaneHelper::GetDataPlane() const
{
    return m_plane;
}

MrcDataPlane
MrcDataPlaneHelper::Parse(const std::string& field, const std::string& text)
{
    if (text == "srv6")
    {
        return MrcDataPlane::SRV6;
    }
    if (text == "ecmp")
    {
        return MrcDataPlane::ECMP;
    }
    throw std::invalid_argument(field + " (=\"" + text + "\") must be srv6 or ecmp");
}

MrcEcmpRoutingHelper&
MrcDataPlaneHelper::GetEcmpHelper()
{
    return m_ecmp;
}

MrcSrv6RoutingHelper&
MrcDataPlaneHelper::GetSrv6Helper()
{
    return m_srv6;
}

void
MrcDataPlaneHelper::Install(Ptr<MrcFabricTopology> topo)
{
    if (m_plane == MrcDataPlane::ECMP)
    {
        m_ecmp.Install(*topo);
    }
    else
    {
        m_srv6.Install(topo);
    }
}

std::ostream&
operator<<(std::ostream& os, MrcDataPlane plane)
{
    return os << (plane == MrcDataPlane::ECMP ? "ecmp" : "srv6");
}

} // namespace ns3
