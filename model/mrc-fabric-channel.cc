/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-fabric-channel.h"

#include "mrc-pfc-pause-header.h"
#include "mrc-pfc-port.h"
#include "mrc-pfc-tag.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/ppp-header.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcFabricChannel");

NS_OBJECT_ENSURE_REGISTERED(MrcFabricChannel);

TypeId
MrcFabricChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcFabricChannel")
                            .SetParent<PointToPointChannel>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcFabricChannel>();
    return tid;
}

MrcFabricChannel::MrcFabricChannel()
{
    NS_LOG_FUNCTION(this);
}

MrcFabricChannel::~MrcFabricChannel() = default;

uint64_t
MrcFabricChannel::GetPauseFrames() const
{
    return m_pauseFrames;
}

void
MrcFabricChannel::RefreshPfcPorts()
{
    m_pfcPortsKnown = false;
    m_pfcPorts = {};
}

void
MrcFabricChannel::UpdatePfcPorts()
{
    if (!m_pfcPortsKnown)
    {
        m_pfcPorts = {GetPointToPointDevice(0)->GetObject<MrcPfcPort>(),
                      GetPointToPointDevice(1)->GetObject<MrcPfcPort>()};
        m_pfcPortsKnown = true;
    }
}

Ptr<MrcPfcPort>
MrcFabricChannel::GetPfcPort(Ptr<const NetDevice> device)
{
    if (GetNDevices() != 2)
    {
        return nullptr;
    }
    UpdatePfcPorts();
    for (unsigned end = 0; end < 2; ++end)
    {
        if (PeekPointer(GetPointToPointDevice(end)) == PeekPointer(device))
        {
            return m_pfcPorts[end];
        }
    }
    return nullptr;
}

void
MrcFabricChannel::DoDispose()
{
    RefreshPfcPorts();
    PointToPointChannel::DoDispose();
}

bool
MrcFabricChannel::TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime)
{
    if (GetNDevices() != 2)
    {
        return PointToPointChannel::TransmitStart(p, src, txTime);
    }
    UpdatePfcPorts();
    const unsigned srcEnd = GetPointToPointDevice(0) == src ? 0 : 1;
    Ptr<PointToPointNetDevice> dst = GetPointToPointDevice(1 - srcEnd);
    const Ptr<MrcPfcPort>& srcPort = m_pfcPorts[srcEnd];
    const Ptr<MrcPfcPort>& dstPort = m_pfcPorts[1 - srcEnd];
    if (!srcPort && !dstPort)
    {
        return PointToPointChannel::TransmitStart(p, src, txTime);
    }
    MrcPfcTag tag;
    if (p->PeekPacketTag(tag) && tag.GetKind() == MrcPfcTag::Kind::PAUSE_FRAME)
    {
        Ptr<Packet> frame = p->Copy();
        PppHeader ppp;
        frame->RemoveHeader(ppp);
        MrcPfcPauseHeader pause;
        frame->RemoveHeader(pause);
        if (!pause.IsValid() || !dstPort)
        {
            NS_LOG_WARN(
                "PAUSE frame dropped: " << (dstPort ? pause.GetError() : "peer has no PFC"));
            return true; // it occupied the wire all the same
        }
        m_pauseFrames++;
        Simulator::ScheduleWithContext(dst->GetNode()->GetId(),
                                       txTime + GetDelay(),
                                       &MrcPfcPort::ReceivePause,
                                       dstPort,
                                       pause);
        return true;
    }
    Ptr<Packet> copy = p->Copy();
    copy->RemovePacketTag(tag);
    if (dstPort)
    {
        copy->AddPacketTag(MrcPfcTag(MrcPfcTag::Kind::INGRESS, dst->GetIfIndex()));
    }
    return PointToPointChannel::TransmitStart(copy, src, txTime);
}

} // namespace ns3
