/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-helper.h"

#include "fabric-topology.h"
#include "value-parser.h"

#include "ns3/boolean.h"
#include "ns3/fabric-channel.h"
#include "ns3/node.h"
#include "ns3/pfc-device-queue.h"
#include "ns3/pfc-queue-disc.h"
#include "ns3/pfc-shared-buffer.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-size.h"

#include <stdexcept>

namespace ns3
{

PfcHelper::PfcHelper()
{
    m_port.SetTypeId(PfcPort::GetTypeId());
    m_buffer.SetTypeId(PfcSharedBuffer::GetTypeId());
}

void
PfcHelper::SetPortAttribute(const std::string& name, const AttributeValue& value)
{
    m_port.Set(name, value);
}

void
PfcHelper::SetBufferAttribute(const std::string& name, const AttributeValue& value)
{
    m_buffer.Set(name, value);
}

Ptr<PfcPort>
PfcHelper::Install(Ptr<NetDevice> device) const
{
    Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(device);
    if (!p2p || !DynamicCast<FabricChannel>(p2p->GetChannel())
        || !DynamicCast<PfcDeviceQueue>(p2p->GetQueue()))
    {
        throw std::invalid_argument("PfcHelper: PFC needs a point-to-point device on a "
                                    "FabricChannel with a PfcDeviceQueue (as ClosTopologyHelper "
                                    "builds them)");
    }
    if (device->GetObject<PfcPort>())
    {
        throw std::invalid_argument("PfcHelper: the device already has a PfcPort");
    }
    Ptr<Node> node = device->GetNode();
    Ptr<PfcSharedBuffer> buffer = node->GetObject<PfcSharedBuffer>();
    if (!buffer)
    {
        buffer = m_buffer.Create<PfcSharedBuffer>();
        node->AggregateObject(buffer);
    }
    Ptr<PfcPort> port = m_port.Create<PfcPort>();
    port->Initialize(); // reject invalid attributes now, naming them
    port->SetSharedBuffer(buffer);
    device->AggregateObject(port);
    return port;
}

void
PfcHelper::Install(const NetDeviceContainer& devices) const
{
    for (auto it = devices.Begin(); it != devices.End(); ++it)
    {
        Install(*it);
    }
}

uint32_t
PfcHelper::Install(const FabricTopology& topo) const
{
    uint32_t ports = 0;
    for (const FabricLink& link : topo.GetLinks())
    {
        Install(link.lowerDevice);
        Install(link.upperDevice);
        ports += 2;
    }
    return ports;
}

TrafficControlHelper
PfcHelper::QueueDiscHelper(const std::string& lossyMaxSize, bool ecn)
{
    const QueueSize size = ValueParser::ParseQueueSize("PfcHelper: LossyMaxSize", lossyMaxSize);
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::PfcQueueDisc",
                         "LossyMaxSize",
                         QueueSizeValue(size),
                         "EcnEnabled",
                         BooleanValue(ecn));
    return tch;
}

Ptr<PfcPort>
PfcHelper::GetPort(Ptr<NetDevice> device)
{
    return device ? device->GetObject<PfcPort>() : nullptr;
}

} // namespace ns3
