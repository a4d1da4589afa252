/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-single-path-selection.h"

#include "ns3/log.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSinglePathSelection");

NS_OBJECT_ENSURE_REGISTERED(MrcSinglePathSelection);

TypeId
MrcSinglePathSelection::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcSinglePathSelection")
                            .SetParent<MrcPathSelection>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcSinglePathSelection>();
    return tid;
}

MrcSinglePathSelection::MrcSinglePathSelection() = default;

MrcSinglePathSelection::~MrcSinglePathSelection() = default;

void
MrcSinglePathSelection::Start(const Config& config,
                              const Hooks& hooks,
                              MrcQpStats& stats,
                              Ptr<UniformRandomVariable> rng)
{
    SetResolver(config.resolver);
    const uint32_t planes = config.evsPerPlane.size();
    // The QP's port: plane QPN mod planes, or the next plane that has a candidate.
    for (uint32_t i = 0; i < planes; ++i)
    {
        const uint32_t plane = (config.qpn + i) % planes;
        if (config.evsPerPlane[plane].empty())
        {
            continue;
        }
        m_ev = config.evsPerPlane[plane].front();
        std::vector<std::vector<uint32_t>> one(planes);
        one[plane].push_back(m_ev);
        MakePathSet(one, 1, hooks.stateChange);
        NS_LOG_INFO("QP " << config.qpn << ": EV " << m_ev << " on plane " << plane);
        return;
    }
    throw std::invalid_argument("MrcSinglePathSelection: no candidate EV towards the peer");
}

uint32_t
MrcSinglePathSelection::GetEv() const
{
    return m_ev;
}

} // namespace ns3
