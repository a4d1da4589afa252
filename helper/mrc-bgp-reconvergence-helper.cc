/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-bgp-reconvergence-helper.h"

namespace ns3
{

MrcBgpReconvergenceHelper::MrcBgpReconvergenceHelper()
{
    m_factory.SetTypeId(MrcBgpReconvergenceModel::GetTypeId());
}

void
MrcBgpReconvergenceHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

void
MrcBgpReconvergenceHelper::SetAttachToDevices(bool attach)
{
    m_attach = attach;
}

Ptr<MrcBgpReconvergenceModel>
MrcBgpReconvergenceHelper::Install(Ptr<MrcFabricTopology> topo) const
{
    Ptr<MrcBgpReconvergenceModel> model = m_factory.Create<MrcBgpReconvergenceModel>();
    model->Install(topo);
    if (m_attach)
    {
        model->AttachToDevices();
    }
    return model;
}

} // namespace ns3
