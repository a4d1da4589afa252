/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-pfc-helper.h"

#include "ns3/boolean.h"
#include "ns3/mrc-fabric-channel.h"
#include "ns3/mrc-fabric-topology.h"
#include "ns3/mrc-pfc-device-queue.h"
#include "ns3/mrc-pfc-queue-disc.h"
#include "ns3/mrc-pfc-shared-buffer.h"
#include "ns3/mrc-value-parser.h"
#include "ns3/node.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-size.h"

#include <stdexcept>

namespace ns3
{

MrcPfcHelper::MrcPfcHelper()
{
    m_port.SetTypeId(MrcPfcPort::GetTypeId());
    m_buffer.SetTypeId(MrcPfcSharedBuffer::GetTypeId());
}

void
MrcPfcHelper::SetPortAttribute(const std::string& name, const AttributeValue& value)
{
    m_port.Set(name, value);
}

void
MrcPfcHelper::SetBufferAttribute(const std::string& name, const AttributeValue& value)
{
    m_buffer.Set(name, value);
}

Ptr<MrcPfcPort>
MrcPfcHelper::Install(Ptr<NetDevice> device) const
{
    Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(device);
    if (!p2p || !DynamicCast<MrcFabricChannel>(p2p->GetChannel())
        || !DynamicCast<MrcPfcDeviceQueue>(p2p->GetQueue()))
    {
        throw std::invalid_argument(
            "MrcPfcHelper: PFC needs a point-to-point device on a "
            "MrcFabricChannel with an MrcPfcDeviceQueue (as MrcClosTopologyHelper "
            "builds them)");
    }
    if (device->GetObject<MrcPfcPort>())
    {
        throw std::invalid_argument("MrcPfcHelper: the device already has an MrcPfcPort");
    }
    Ptr<Node> node = device->GetNode();
    Ptr<MrcPfcSharedBuffer> buffer = node->GetObject<MrcPfcSharedBuffer>();
    if (!buffer)
    {
        buffer = m_buffer.Create<MrcPfcSharedBuffer>();
        node->AggregateObject(buffer);
    }
    Ptr<MrcPfcPort> port = m_port.Create<MrcPfcPort>();
    port->Initialize(); // reject invalid attributes now, naming them
    port->SetSharedBuffer(buffer);
    device->AggregateObject(port);
    return port;
}

void
MrcPfcHelper::Install(const NetDeviceContainer& devices) const
{
    for (auto it = devices.Begin(); it != devices.End(); ++it)
    {
        Install(*it);
    }
}

uint32_t
MrcPfcHelper::Install(const MrcFabricTopology& topo) const
{
    uint32_t ports = 0;
    for (const MrcFabricLink& link : topo.GetLinks())
    {
        Install(link.lowerDevice);
        Install(link.upperDevice);
        ports += 2;
    }
    return ports;
}

TrafficControlHelper
MrcPfcHelper::QueueDiscHelper(const std::string& lossyMaxSize, std::optional<bool> ecn)
{
    const QueueSize size =
        MrcValueParser::ParseQueueSize("MrcPfcHelper: LossyMaxSize", lossyMaxSize);
    TrafficControlHelper tch;
    if (ecn)
    {
        tch.SetRootQueueDisc("ns3::MrcPfcQueueDisc",
                             "LossyMaxSize",
                             QueueSizeValue(size),
                             "EcnEnabled",
                             BooleanValue(*ecn));
    }
    else
    {
        // The attribute's default (true unless a script changed it).
        tch.SetRootQueueDisc("ns3::MrcPfcQueueDisc", "LossyMaxSize", QueueSizeValue(size));
    }
    return tch;
}

Ptr<MrcPfcPort>
MrcPfcHelper::GetPort(Ptr<NetDevice> device)
{
    return device ? device->GetObject<MrcPfcPort>() : nullptr;
}

} // namespace ns3
