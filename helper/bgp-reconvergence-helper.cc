/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bgp-reconvergence-helper.h"

namespace ns3
{

BgpReconvergenceHelper::BgpReconvergenceHelper()
{
    m_factory.SetTypeId(BgpReconvergenceModel::GetTypeId());
}

void
BgpReconvergenceHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

void
BgpReconvergenceHelper::SetAttachToDevices(bool attach)
{
    m_attach = attach;
}

Ptr<BgpReconvergenceModel>
BgpReconvergenceHelper::Install(Ptr<FabricTopology> topo) const
{
    Ptr<BgpReconvergenceModel> model = m_factory.Create<BgpReconvergenceModel>();
    model->Install(topo);
    if (m_attach)
    {
        model->AttachToDevices();
    }
    return model;
}

} // namespace ns3
