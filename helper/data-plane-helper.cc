/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "data-plane-helper.h"

#include <stdexcept>

namespace ns3
{

void
DataPlaneHelper::SetDataPlane(DataPlane plane)
{
    m_plane = plane;
}

DataPlane
DataPlaneHelper::GetDataPlane() const
{
    return m_plane;
}

DataPlane
DataPlaneHelper::Parse(const std::string& field, const std::string& text)
{
    if (text == "srv6")
    {
        return DataPlane::SRV6;
    }
    if (text == "ecmp")
    {
        return DataPlane::ECMP;
    }
    throw std::invalid_argument(field + " (=\"" + text + "\") must be srv6 or ecmp");
}

EcmpRoutingHelper&
DataPlaneHelper::GetEcmpHelper()
{
    return m_ecmp;
}

Srv6RoutingHelper&
DataPlaneHelper::GetSrv6Helper()
{
    return m_srv6;
}

void
DataPlaneHelper::Install(Ptr<FabricTopology> topo)
{
    if (m_plane == DataPlane::ECMP)
    {
        m_ecmp.Install(*topo);
    }
    else
    {
        m_srv6.Install(topo);
    }
}

std::ostream&
operator<<(std::ostream& os, DataPlane plane)
{
    return os << (plane == DataPlane::ECMP ? "ecmp" : "srv6");
}

} // namespace ns3
