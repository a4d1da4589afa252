/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ipv6-receive-takeover.h"

#include "mrc-header-types.h"

#include "ns3/ipv4.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/loopback-net-device.h"
#include "ns3/traffic-control-layer.h"

namespace ns3
{

bool
MrcIpv6ReceiveTakeover::IsPossible(Ptr<Node> node)
{
    return node && !node->GetObject<Ipv4>() && node->GetObject<Ipv6L3Protocol>()
           && node->GetObject<TrafficControlLayer>();
}

std::vector<bool>
MrcIpv6ReceiveTakeover::Apply(Ptr<Node> node,
                              Node::ProtocolHandler handler,
                              const PortCallback& onPort)
{
    NS_ASSERT_MSG(IsPossible(node), "MrcIpv6ReceiveTakeover: needs IPv6 and traffic control");
    Ptr<Ipv6L3Protocol> ipv6 = node->GetObject<Ipv6L3Protocol>();
    const auto tcReceive =
        MakeCallback(&TrafficControlLayer::Receive, node->GetObject<TrafficControlLayer>());
    std::vector<bool> served(node->GetNDevices(), false);
    for (uint32_t i = 0; i < ipv6->GetNInterfaces(); ++i)
    {
        Ptr<Ipv6Interface> interface = ipv6->GetInterface(i);
        Ptr<NetDevice> device = interface->GetDevice();
        if (DynamicCast<LoopbackNetDevice>(device) || device->GetIfIndex() >= node->GetNDevices())
        {
            continue;
        }
        node->UnregisterProtocolHandler(tcReceive);
        served[device->GetIfIndex()] = true;
        if (!device->NeedsArp())
        {
            onPort(i, interface);
        }
    }
    node->RegisterProtocolHandler(handler, kMrcIpv6EtherType, nullptr);
    return served;
}

} // namespace ns3
