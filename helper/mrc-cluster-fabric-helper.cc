/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-cluster-fabric-helper.h"

#include "mrc-helper.h"
#include "mrc-pfc-helper.h"

#include "ns3/mrc-clos-spec.h"
#include "ns3/mrc-fabric-topology.h"

#include <stdexcept>

namespace ns3
{

MrcClusterFabricHelper::MrcClusterFabricHelper(MrcClusterFabric fabric)
    : m_fabric(fabric)
{
}

MrcClusterFabric
MrcClusterFabricHelper::Parse(const std::string& name, const std::string& what)
{
    for (MrcClusterFabric f : {MrcClusterFabric::MRC_SRV6,
                               MrcClusterFabric::MRC_ECMP,
                               MrcClusterFabric::ROCE_ECMP,
                               MrcClusterFabric::ROCE_PFC})
    {
        if (name == GetName(f))
        {
            return f;
        }
    }
    throw std::invalid_argument(what + " (=" + name
                                + ") must be mrc-srv6, mrc-ecmp, roce-ecmp or roce-pfc");
}

std::string
MrcClusterFabricHelper::GetName(MrcClusterFabric fabric)
{
    switch (fabric)
    {
        case MrcClusterFabric::MRC_SRV6:
            return "mrc-srv6";
        case MrcClusterFabric::MRC_ECMP:
            return "mrc-ecmp";
        case MrcClusterFabric::ROCE_ECMP:
            return "roce-ecmp";
        case MrcClusterFabric::ROCE_PFC:
            return "roce-pfc";
    }
    return "?";
}

MrcClusterFabric
MrcClusterFabricHelper::GetFabric() const
{
    return m_fabric;
}

bool
MrcClusterFabricHelper::IsRoce() const
{
    return m_fabric == MrcClusterFabric::ROCE_ECMP || m_fabric == MrcClusterFabric::ROCE_PFC;
}

bool
MrcClusterFabricHelper::IsEcmp() const
{
    return m_fabric != MrcClusterFabric::MRC_SRV6;
}

bool
MrcClusterFabricHelper::IsPfc() const
{
    return m_fabric == MrcClusterFabric::ROCE_PFC;
}

MrcClosTopologyHelper&
MrcClusterFabricHelper::GetTopologyHelper()
{
    return m_topology;
}

MrcDataPlaneHelper&
MrcClusterFabricHelper::GetDataPlane()
{
    return m_dataPlane;
}

Ptr<MrcFabricTopology>
MrcClusterFabricHelper::Build(const MrcClosSpec& spec)
{
    if (IsPfc())
    {
        m_topology.SetPfcQueues();
    }
    else if (IsRoce())
    {
        m_topology.SetEcnQueues();
    }
    else
    {
        m_topology.SetTrimmingQueues();
    }
    Ptr<MrcFabricTopology> topo = m_topology.Build(spec);
    if (IsPfc())
    {
        MrcPfcHelper().Install(*topo);
    }
    m_dataPlane.SetDataPlane(IsEcmp() ? MrcDataPlane::ECMP : MrcDataPlane::SRV6);
    m_dataPlane.Install(topo);
    return topo;
}

void
MrcClusterFabricHelper::ConfigureTransport(MrcHelper& mrc, uint32_t qpsPerPeer) const
{
    if (IsRoce())
    {
        mrc.SetRoceV2Baseline(qpsPerPeer);
    }
}

} // namespace ns3
