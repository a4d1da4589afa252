/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-net-device.h"

#include "pfc-device-queue.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/pointer.h"
#include "ns3/queue.h"

#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricNetDevice");

NS_OBJECT_ENSURE_REGISTERED(FabricNetDevice);

TypeId
FabricNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricNetDevice")
            .SetParent<PointToPointNetDevice>()
            .SetGroupName("Mrc")
            .AddConstructor<FabricNetDevice>()
            .AddTraceSource("FaultDrop",
                            "A packet was lost to a link fault (carrier down, in flight when it "
                            "fell, black hole, random loss): packet, cause.",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_faultDropTrace),
                            "ns3::FabricNetDevice::FaultDropTracedCallback")
            .AddTraceSource("ReceiveFaultChange",
                            "The receive side's fault changed (black hole on/off, random loss "
                            "probability): blackhole, lossProbability.",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_receiveFaultTrace),
                            "ns3::FabricNetDevice::ReceiveFaultTracedCallback");
    return tid;
}

FabricNetDevice::FabricNetDevice()
{
    NS_LOG_FUNCTION(this);
}

FabricNetDevice::~FabricNetDevice()
{
    NS_LOG_FUNCTION(this);
}

bool
FabricNetDevice::IsLinkUp() const
{
    return m_carrier && PointToPointNetDevice::IsLinkUp();
}

void
FabricNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    // The base class fires its own list when the device is attached; this list fires on
    // carrier changes.
    PointToPointNetDevice::AddLinkChangeCallback(callback);
    m_linkChange.ConnectWithoutContext(callback);
}

bool
FabricNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    if (!m_carrier)
    {
        NotifyLoss(packet, FabricLossCause::LINK_DOWN);
        // The base class sees IsLinkUp() false: MacTxDrop trace, and false returned.
    }
    return PointToPointNetDevice::Send(std::move(packet), dest, protocolNumber);
}

Ptr<PointToPointNetDevice>
FabricNetDevice::GetPeer() const
{
    Ptr<PointToPointChannel> channel = DynamicCast<PointToPointChannel>(GetChannel());
    if (!channel || channel->GetNDevices() != 2)
    {
        return nullptr;
    }
    Ptr<PointToPointNetDevice> a = channel->GetPointToPointDevice(0);
    return a == this ? channel->GetPointToPointDevice(1) : a;
}

void
FabricNetDevice::SetLinkUp(bool up)
{
    NS_LOG_FUNCTION(this << up);
    if (up == m_carrier)
    {
        return;
    }
    m_carrier = up;
    // What arrives from now on was sent by the peer at its rate, over the channel's delay.
    TimeValue delay;
    DataRateValue rate;
    Ptr<PointToPointNetDevice> peer = GetPeer();
    if (peer)
    {
        GetChannel()->GetAttribute("Delay", delay);
        peer->GetAttribute("DataRate", rate);
    }
    InstallFaultModel();
    m_fault->NotifyCarrier(up, delay.Get(), rate.Get());
    if (!up)
    {
        // A port that loses its carrier discards what waits in it. Dequeuing wakes the queue
        // disc, whose backlog then meets the refusing Send().
        Ptr<Queue<Packet>> queue = GetQueue();
        if (auto pfc = DynamicCast<PfcDeviceQueue>(queue))
        {
            pfc->ClearControl(); // PAUSE frames are not data: not counted as lost
        }
        while (queue && !queue->IsEmpty())
        {
            Ptr<Packet> p = queue->Dequeue();
            if (p)
            {
                NotifyLoss(p, FabricLossCause::LINK_DOWN);
            }
        }
    }
    m_linkChange();
}

void
FabricNetDevice::SetReceiveBlackhole(bool blackhole)
{
    NS_LOG_FUNCTION(this << blackhole);
    InstallFaultModel();
    m_fault->SetBlackhole(blackhole);
    if (blackhole != m_blackhole)
    {
        m_blackhole = blackhole;
        m_receiveFaultTrace(m_blackhole, m_lossProbability);
    }
}

bool
FabricNetDevice::IsReceiveBlackhole() const
{
    return m_blackhole;
}

double
FabricNetDevice::GetReceiveLossProbability() const
{
    return m_lossProbability;
}

void
FabricNetDevice::SetReceiveLossProbability(double probability)
{
    NS_LOG_FUNCTION(this << probability);
    InstallFaultModel();
    m_fault->SetLossProbability(probability);
    if (probability != m_lossProbability)
    {
        m_lossProbability = probability;
        m_receiveFaultTrace(m_blackhole, m_lossProbability);
    }
}

Ptr<FabricFaultErrorModel>
FabricNetDevice::GetFaultModel()
{
    if (!m_fault)
    {
        m_fault = CreateObject<FabricFaultErrorModel>();
        m_fault->TraceConnectWithoutContext("Drop",
                                            MakeCallback(&FabricNetDevice::OnReceiveDrop, this));
    }
    return m_fault;
}

void
FabricNetDevice::InstallFaultModel()
{
    Ptr<FabricFaultErrorModel> fault = GetFaultModel();
    PointerValue current;
    GetAttribute("ReceiveErrorModel", current);
    Ptr<ErrorModel> installed = current.Get<ErrorModel>();
    if (installed != fault)
    {
        fault->SetInner(installed);
        SetReceiveErrorModel(fault);
    }
}

int64_t
FabricNetDevice::AssignStreams(int64_t stream)
{
    return GetFaultModel()->AssignStreams(stream);
}

uint64_t
FabricNetDevice::GetLostPackets(FabricLossCause cause) const
{
    return m_txLost.at(uint32_t(cause)) + (m_fault ? m_fault->GetDropped(cause) : 0);
}

void
FabricNetDevice::OnReceiveDrop(Ptr<const Packet> packet, FabricLossCause cause)
{
    m_faultDropTrace(packet, cause);
}

void
FabricNetDevice::NotifyLoss(Ptr<const Packet> packet, FabricLossCause cause)
{
    m_txLost[uint32_t(cause)]++;
    m_faultDropTrace(packet, cause);
}

} // namespace ns3
