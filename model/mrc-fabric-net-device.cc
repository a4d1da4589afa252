/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-fabric-net-device.h"

#include "mrc-device-tx-queue.h"
#include "mrc-fabric-channel.h"
#include "mrc-pfc-device-queue.h"

#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/pointer.h"
#include "ns3/queue.h"

#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcFabricNetDevice");

NS_OBJECT_ENSURE_REGISTERED(MrcFabricNetDevice);

TypeId
MrcFabricNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcFabricNetDevice")
            .SetParent<PointToPointNetDevice>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcFabricNetDevice>()
            .AddTraceSource("FaultDrop",
                            "A packet was lost to a link fault (carrier down, in flight when it "
                            "fell, black hole, random loss): packet, cause.",
                            MakeTraceSourceAccessor(&MrcFabricNetDevice::m_faultDropTrace),
                            "ns3::MrcFabricNetDevice::FaultDropTracedCallback")
            .AddTraceSource("ReceiveFaultChange",
                            "The receive side's fault changed (black hole on/off, random loss "
                            "probability): blackhole, lossProbability.",
                            MakeTraceSourceAccessor(&MrcFabricNetDevice::m_receiveFaultTrace),
                            "ns3::MrcFabricNetDevice::ReceiveFaultTracedCallback");
    return tid;
}

MrcFabricNetDevice::MrcFabricNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
MrcFabricNetDevice::DoInitialize()
{
    // Here, not in the constructor: the helper aggregates the queue interface after it, and
    // the traces are found by the object's TypeId, set after the constructor.
    Ptr<NetDeviceQueueInterface> ndqi = GetObject<NetDeviceQueueInterface>();
    if (ndqi && ndqi->GetNTxQueues() == 1)
    {
        // Not a Ptr: the queue holds this device (and the queue interface the queue).
        m_txQueue = dynamic_cast<MrcDeviceTxQueue*>(PeekPointer(ndqi->GetTxQueue(0)));
    }
    m_channelAnnounces = m_txQueue && DynamicCast<MrcFabricChannel>(GetChannel());
    if (m_channelAnnounces)
    {
        // The channel announces each frame start with its duration (NotifyFrameStart); the
        // interframe gap follows the serialisation before TransmitComplete.
        TimeValue gap;
        GetAttribute("InterframeGap", gap);
        m_interframeGap = gap.Get();
    }
    else if (m_txQueue)
    {
        // Another channel: TransmitComplete's PhyTxEnd announces the dequeue and the frame
        // start that follow it, PhyTxBegin the start.
        TraceConnectWithoutContext("PhyTxEnd",
                                   MakeCallback(&MrcFabricNetDevice::OnTransmitEnd, this));
        TraceConnectWithoutContext("PhyTxBegin",
                                   MakeCallback(&MrcFabricNetDevice::OnTransmitBegin, this));
    }
    PointToPointNetDevice::DoInitialize();
}

void
MrcFabricNetDevice::NotifyFrameStart(Time txTime)
{
    if (m_channelAnnounces)
    {
        m_txQueue->NotifyFrameStarted(txTime + m_interframeGap);
    }
}

void
MrcFabricNetDevice::OnTransmitEnd(Ptr<const Packet> /* packet */)
{
    m_txQueue->SetFrameStartFollows(true);
}

void
MrcFabricNetDevice::OnTransmitBegin(Ptr<const Packet> /* packet */)
{
    m_txQueue->NotifyFrameStarted();
}

MrcFabricNetDevice::~MrcFabricNetDevice()
{
    NS_LOG_FUNCTION(this);
}

bool
MrcFabricNetDevice::IsLinkUp() const
{
    return m_carrier && PointToPointNetDevice::IsLinkUp();
}

void
MrcFabricNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    // The base class fires its own list when the device is attached; this list fires on
    // carrier changes.
    PointToPointNetDevice::AddLinkChangeCallback(callback);
    m_linkChange.ConnectWithoutContext(callback);
}

bool
MrcFabricNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    if (!m_carrier)
    {
        NotifyLoss(packet, MrcFabricLossCause::LINK_DOWN);
        // The base class sees IsLinkUp() false: MacTxDrop trace, and false returned.
    }
    if (!m_txQueue)
    {
        return PointToPointNetDevice::Send(std::move(packet), dest, protocolNumber);
    }
    // A READY device dequeues what it enqueued and starts it at once.
    m_txQueue->SetFrameStartFollows(true);
    const bool sent = PointToPointNetDevice::Send(std::move(packet), dest, protocolNumber);
    m_txQueue->SetFrameStartFollows(false);
    return sent;
}

Ptr<PointToPointNetDevice>
MrcFabricNetDevice::GetPeer() const
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
MrcFabricNetDevice::SetLinkUp(bool up)
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
        if (auto pfc = DynamicCast<MrcPfcDeviceQueue>(queue))
        {
            pfc->ClearControl(); // PAUSE frames are not data: not counted as lost
        }
        if (m_txQueue)
        {
            m_txQueue->SetDiscarding(true); // no frame follows these dequeues
        }
        while (queue && !queue->IsEmpty())
        {
            Ptr<Packet> p = queue->Dequeue();
            if (p)
            {
                NotifyLoss(p, MrcFabricLossCause::LINK_DOWN);
            }
        }
        if (m_txQueue)
        {
            m_txQueue->SetDiscarding(false);
            m_txQueue->FlushPendingWake();
        }
    }
    m_linkChange();
}

void
MrcFabricNetDevice::SetReceiveBlackhole(bool blackhole)
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
MrcFabricNetDevice::IsReceiveBlackhole() const
{
    return m_blackhole;
}

double
MrcFabricNetDevice::GetReceiveLossProbability() const
{
    return m_lossProbability;
}

void
MrcFabricNetDevice::SetReceiveLossProbability(double probability)
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

Ptr<MrcFabricFaultErrorModel>
MrcFabricNetDevice::GetFaultModel()
{
    if (!m_fault)
    {
        m_fault = CreateObject<MrcFabricFaultErrorModel>();
        m_fault->TraceConnectWithoutContext("Drop",
                                            MakeCallback(&MrcFabricNetDevice::OnReceiveDrop, this));
    }
    return m_fault;
}

void
MrcFabricNetDevice::InstallFaultModel()
{
    Ptr<MrcFabricFaultErrorModel> fault = GetFaultModel();
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
MrcFabricNetDevice::AssignStreams(int64_t stream)
{
    return GetFaultModel()->AssignStreams(stream);
}

uint64_t
MrcFabricNetDevice::GetLostPackets(MrcFabricLossCause cause) const
{
    return m_txLost.at(uint32_t(cause)) + (m_fault ? m_fault->GetDropped(cause) : 0);
}

void
MrcFabricNetDevice::OnReceiveDrop(Ptr<const Packet> packet, MrcFabricLossCause cause)
{
    m_faultDropTrace(packet, cause);
}

void
MrcFabricNetDevice::NotifyLoss(Ptr<const Packet> packet, MrcFabricLossCause cause)
{
    m_txLost[uint32_t(cause)]++;
    m_faultDropTrace(packet, cause);
}

} // namespace ns3
