/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-channel.h"

#include "pfc-pause-header.h"
#include "pfc-port.h"
#include "pfc-tag.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/ppp-header.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricChannel");

NS_OBJECT_ENSURE_REGISTERED(FabricChannel);

TypeId
FabricChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricChannel")
                            .SetParent<PointToPointChannel>()
                            .SetGroupName("Mrc")
                            .AddConstructor<FabricChannel>();
    return tid;
}

FabricChannel::FabricChannel()
{
    NS_LOG_FUNCTION(this);
}

FabricChannel::~FabricChannel() = default;

uint64_t
FabricChannel::GetPauseFrames() const
{
    return m_pauseFrames;
}

bool
FabricChannel::TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime)
{
    if (GetNDevices() != 2)
    {
        return PointToPointChannel::TransmitStart(p, src, txTime);
    }
    Ptr<PointToPointNetDevice> dst =
        GetPointToPointDevice(0) == src ? GetPointToPointDevice(1) : GetPointToPointDevice(0);
    Ptr<PfcPort> srcPort = src->GetObject<PfcPort>();
    Ptr<PfcPort> dstPort = dst->GetObject<PfcPort>();
    if (!srcPort && !dstPort)
    {
        return PointToPointChannel::TransmitStart(p, src, txTime);
    }
    PfcTag tag;
    if (p->PeekPacketTag(tag) && tag.GetKind() == PfcTag::Kind::PAUSE_FRAME)
    {
        Ptr<Packet> frame = p->Copy();
        PppHeader ppp;
        frame->RemoveHeader(ppp);
        PfcPauseHeader pause;
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
                                       &PfcPort::ReceivePause,
                                       dstPort,
                                       pause);
        return true;
    }
    Ptr<Packet> copy = p->Copy();
    copy->RemovePacketTag(tag);
    if (dstPort)
    {
        copy->AddPacketTag(PfcTag(PfcTag::Kind::INGRESS, dst->GetIfIndex()));
    }
    return PointToPointChannel::TransmitStart(copy, src, txTime);
}

} // namespace ns3
