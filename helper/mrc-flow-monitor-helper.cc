/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-flow-monitor-helper.h"

#include "ns3/flow-monitor.h"
#include "ns3/ipv6-flow-classifier.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/mrc-flow-probe.h"
#include "ns3/mrc-l4-protocol.h"
#include "ns3/node-list.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcFlowMonitorHelper");

MrcFlowMonitorHelper::MrcFlowMonitorHelper() = default;

MrcFlowMonitorHelper::~MrcFlowMonitorHelper() = default;

bool
MrcFlowMonitorHelper::HasMrc(Ptr<Node> node)
{
    return node && node->GetObject<MrcL4Protocol>();
}

void
MrcFlowMonitorHelper::InstallMrcProbe(Ptr<Node> node)
{
    if (node && node->GetObject<Ipv6L3Protocol>() && m_probed.insert(node->GetId()).second)
    {
        NS_LOG_LOGIC("MrcFlowProbe on node " << node->GetId());
        // The monitor keeps the probe (FlowMonitor::AddProbe, from FlowProbe's constructor).
        CreateObject<MrcFlowProbe>(GetMonitor(),
                                   DynamicCast<Ipv6FlowClassifier>(GetClassifier6()),
                                   node);
    }
}

Ptr<FlowMonitor>
MrcFlowMonitorHelper::Install(NodeContainer nodes)
{
    if (std::none_of(nodes.Begin(), nodes.End(), &MrcFlowMonitorHelper::HasMrc))
    {
        throw std::invalid_argument(
            "MrcFlowMonitorHelper::Install: none of the " + std::to_string(nodes.GetN())
            + " nodes has MrcL4Protocol (install MRC first, MrcHelper::Install; for other "
              "traffic alone use FlowMonitorHelper)");
    }
    Ptr<FlowMonitor> monitor = FlowMonitorHelper::Install(nodes);
    std::for_each(nodes.Begin(), nodes.End(), [this](Ptr<Node> n) {
        InstallMrcProbe(n);
    });
    return monitor;
}

Ptr<FlowMonitor>
MrcFlowMonitorHelper::Install(Ptr<Node> node)
{
    if (!HasMrc(node))
    {
        throw std::invalid_argument(std::string("MrcFlowMonitorHelper::Install: ")
                                    + (node ? "node " + std::to_string(node->GetId())
                                                  + " has no MrcL4Protocol (install "
                                                    "MRC first, MrcHelper::Install)"
                                            : "the node is null"));
    }
    Ptr<FlowMonitor> monitor = FlowMonitorHelper::Install(node);
    InstallMrcProbe(node);
    return monitor;
}

Ptr<FlowMonitor>
MrcFlowMonitorHelper::InstallAll()
{
    if (std::none_of(NodeList::Begin(), NodeList::End(), &MrcFlowMonitorHelper::HasMrc))
    {
        throw std::invalid_argument(
            "MrcFlowMonitorHelper::InstallAll: no node has MrcL4Protocol (install MRC first, "
            "MrcHelper::Install; for other traffic alone use FlowMonitorHelper)");
    }
    Ptr<FlowMonitor> monitor = FlowMonitorHelper::InstallAll();
    std::for_each(NodeList::Begin(), NodeList::End(), [this](Ptr<Node> n) {
        InstallMrcProbe(n);
    });
    return monitor;
}

uint32_t
MrcFlowMonitorHelper::GetMrcProbeCount() const
{
    return static_cast<uint32_t>(m_probed.size());
}

} // namespace ns3
