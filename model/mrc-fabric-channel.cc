/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-fabric-channel.h"

#include "mrc-arrival-order.h"
#include "mrc-fabric-net-device.h"
#include "mrc-pfc-pause-header.h"
#include "mrc-pfc-port.h"
#include "mrc-pfc-tag.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/ppp-header.h"
#include "ns3/simulator.h"

#ifdef NS3_MPI
#    include "ns3/mpi-interface.h"
#    include "ns3/mpi-receiver.h"
#endif

#include <functional>

namespace ns3
{

#ifdef NS3_MPI
namespace
{
/// ns-3's MAX_MPI_MSG_SIZE (granted-time-window-mpi-interface.h, not installed; the same
/// in ns-3.37 and ns-3-dev): the receive buffer of one message between ranks.
constexpr uint32_t kMpiMessageBytes = 2000;
/// What ns-3's SendPacket puts before the packet: receive time, node, device.
constexpr uint32_t kMpiEnvelopeBytes = 16;
} // namespace
#endif

NS_LOG_COMPONENT_DEFINE("MrcFabricChannel");

NS_OBJECT_ENSURE_REGISTERED(MrcFabricChannel);

TypeId
MrcFabricChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcFabricChannel")
            .SetParent<PointToPointChannel>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcFabricChannel>()
            .AddAttribute(
                "OrderArrivals",
                "Deliver the frames that reach a node in one time step "
                "by receiving interface (MrcArrivalOrder), not in the "
                "order their events were created, so that one process "
                "and any number of MPI ranks give the same results. "
                "Costs an event per frame and one per node and time "
                "step more (PAUSE frames are ordered too). The channel's TxRxPointToPoint "
                "trace does not fire for frames it orders.",
                BooleanValue(false),
                MakeBooleanAccessor(&MrcFabricChannel::m_orderArrivals),
                MakeBooleanChecker());
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
    m_endsKnown = false;
    m_pfcPorts = {};
    m_fabricEnds = {nullptr, nullptr};
}

void
MrcFabricChannel::UpdateEnds()
{
    if (!m_endsKnown)
    {
        for (unsigned end = 0; end < 2; ++end)
        {
            Ptr<PointToPointNetDevice> device = GetPointToPointDevice(end);
            m_pfcPorts[end] = device->GetObject<MrcPfcPort>();
            m_fabricEnds[end] = dynamic_cast<MrcFabricNetDevice*>(PeekPointer(device));
        }
        m_endsKnown = true;
    }
}

Ptr<MrcPfcPort>
MrcFabricChannel::GetPfcPort(Ptr<const NetDevice> device)
{
    if (GetNDevices() != 2)
    {
        return nullptr;
    }
    UpdateEnds();
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
    m_arrivalOrder = {};
    PointToPointChannel::DoDispose();
}

void
MrcFabricChannel::SetUpRanks()
{
#ifdef NS3_MPI
    if (GetNDevices() != 2 || !MpiInterface::IsEnabled())
    {
        return;
    }
    const uint32_t self = MpiInterface::GetSystemId();
    for (unsigned end = 0; end < 2; ++end)
    {
        m_remoteEnd[end] = GetPointToPointDevice(end)->GetNode()->GetSystemId() != self;
    }
    if (m_remoteEnd[0] == m_remoteEnd[1])
    {
        m_remoteEnd = {false, false}; // both here, or neither: no frame crosses ranks
        return;
    }
    for (unsigned end = 0; end < 2; ++end)
    {
        Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
        receiver->SetReceiveCallback(
            MakeCallback(&MrcFabricChannel::ReceiveFromRank, this).Bind(end));
        GetPointToPointDevice(end)->AggregateObject(receiver);
    }
    NS_LOG_INFO("link crosses ranks: nodes " << GetPointToPointDevice(0)->GetNode()->GetId()
                                             << " and "
                                             << GetPointToPointDevice(1)->GetNode()->GetId());
#endif
}

uint64_t
MrcFabricChannel::GetForeignFrames() const
{
    return m_foreignFrames;
}

bool
MrcFabricChannel::Carry(Ptr<const Packet> p,
                        Ptr<PointToPointNetDevice> src,
                        unsigned dstEnd,
                        Time txTime)
{
    // Ordered arrivals are staged one time step early: the frame must take at least that long.
    NS_ABORT_MSG_IF(m_orderArrivals && txTime + GetDelay() < MrcArrivalOrder::Lead(),
                    "MrcFabricChannel: OrderArrivals needs a frame's serialisation time plus the "
                    "link's Delay to be at least one time step ("
                        << MrcArrivalOrder::Lead() << "); got " << txTime + GetDelay());
#ifdef NS3_MPI
    if (m_remoteEnd[dstEnd])
    {
        Ptr<PointToPointNetDevice> dst = GetPointToPointDevice(dstEnd);
        // ns-3's MPI interfaces receive into buffers of MAX_MPI_MSG_SIZE (2000) bytes: the
        // serialised packet (its real bytes, headers, tags) and 16 bytes of time and address.
        // A longer message would abort MPI itself (MPI_ERR_TRUNCATE) with nothing to say why.
        NS_ABORT_MSG_IF(p->GetSerializedSize() + kMpiEnvelopeBytes > kMpiMessageBytes,
                        "MrcFabricChannel: a frame of "
                            << p->GetSize() << " B serialises to " << p->GetSerializedSize()
                            << " B, more than ns-3's MPI interface carries between ranks ("
                            << kMpiMessageBytes - kMpiEnvelopeBytes
                            << " B: MAX_MPI_MSG_SIZE less time and address). Payload bytes that "
                               "a model carries for real (MrcCollective::VerifyData, "
                               "application data) count in full: use a smaller "
                               "ns3::MrcQueuePair::Mss (1024 fits) or run on one rank");
        // Ordered: it reaches the other rank's MrcArrivalOrder one step before it arrives,
        // not earlier than txTime + Delay - 1 step >= Delay, the lookahead, if txTime >= 1 step.
        NS_ABORT_MSG_IF(m_orderArrivals && txTime < MrcArrivalOrder::Lead(),
                        "MrcFabricChannel: OrderArrivals on a link between ranks needs every "
                        "frame's serialisation time to be at least one time step");
        MpiInterface::SendPacket(p->Copy(),
                                 Simulator::Now() + txTime + GetDelay()
                                     - (m_orderArrivals ? MrcArrivalOrder::Lead() : Time(0)),
                                 dst->GetNode()->GetId(),
                                 dst->GetIfIndex());
        return true;
    }
#endif
    if (m_orderArrivals)
    {
        Ptr<PointToPointNetDevice> dst = GetPointToPointDevice(dstEnd);
        Simulator::ScheduleWithContext(dst->GetNode()->GetId(),
                                       txTime + GetDelay() - MrcArrivalOrder::Lead(),
                                       &MrcArrivalOrder::Stage,
                                       GetArrivalOrder(dstEnd),
                                       dst,
                                       p->Copy());
        return true;
    }
    return PointToPointChannel::TransmitStart(p, src, txTime);
}

Ptr<MrcArrivalOrder>
MrcFabricChannel::GetArrivalOrder(unsigned end)
{
    if (!m_arrivalOrder[end])
    {
        m_arrivalOrder[end] = MrcArrivalOrder::Get(GetPointToPointDevice(end)->GetNode());
    }
    return m_arrivalOrder[end];
}

void
MrcFabricChannel::DeliverPause(Ptr<const Packet> frame, unsigned dstEnd, Time delay)
{
    Ptr<Packet> copy = frame->Copy();
    PppHeader ppp;
    copy->RemoveHeader(ppp);
    MrcPfcPauseHeader pause;
    copy->RemoveHeader(pause);
    const Ptr<MrcPfcPort>& dstPort = m_pfcPorts[dstEnd];
    if (!pause.IsValid() || !dstPort)
    {
        NS_LOG_WARN("PAUSE frame dropped: " << (dstPort ? pause.GetError() : "peer has no PFC"));
        return;
    }
    m_pauseFrames++;
    Ptr<PointToPointNetDevice> dst = GetPointToPointDevice(dstEnd);
    if (m_orderArrivals)
    {
        // Among the step's arrivals, in its interface's place.
        NS_ABORT_MSG_IF(delay < MrcArrivalOrder::Lead(),
                        "MrcFabricChannel: OrderArrivals needs a PAUSE frame's serialisation "
                        "time plus the link's Delay to be at least one time step; got "
                            << delay);
        std::function<void()> deliver = [dstPort, pause]() {
            dstPort->ReceivePause(pause);
        };
        if (delay == MrcArrivalOrder::Lead())
        {
            // Staged now (a frame from another rank arrives here one step early).
            GetArrivalOrder(dstEnd)->StageCall(dst->GetIfIndex(), deliver);
            return;
        }
        Simulator::ScheduleWithContext(dst->GetNode()->GetId(),
                                       delay - MrcArrivalOrder::Lead(),
                                       &MrcArrivalOrder::StageCall,
                                       GetArrivalOrder(dstEnd),
                                       dst->GetIfIndex(),
                                       deliver);
        return;
    }
    Simulator::ScheduleWithContext(dst->GetNode()->GetId(),
                                   delay,
                                   &MrcPfcPort::ReceivePause,
                                   dstPort,
                                   pause);
}

void
MrcFabricChannel::ReceiveFromRank(unsigned dstEnd, Ptr<Packet> p)
{
    MrcPfcTag tag;
    if (p->PeekPacketTag(tag) && tag.GetKind() == MrcPfcTag::Kind::PAUSE_FRAME)
    {
        UpdateEnds();
        // It has crossed the wire already (sent to arrive one step early if ordered).
        DeliverPause(p, dstEnd, m_orderArrivals ? MrcArrivalOrder::Lead() : Time(0));
        return;
    }
    if (m_orderArrivals)
    {
        GetArrivalOrder(dstEnd)->Stage(GetPointToPointDevice(dstEnd), p);
        return;
    }
    GetPointToPointDevice(dstEnd)->Receive(p);
}

bool
MrcFabricChannel::TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime)
{
    // The device calls this from its TransmitStart, BUSY with the frame: its flow control may
    // run the queue disc now (in place of its PhyTxBegin trace, a traced callback per hop).
    if (GetNDevices() != 2)
    {
        if (auto* device = dynamic_cast<MrcFabricNetDevice*>(PeekPointer(src)))
        {
            device->NotifyFrameStart(txTime);
        }
        return PointToPointChannel::TransmitStart(p, src, txTime);
    }
    const unsigned srcEnd = GetPointToPointDevice(0) == src ? 0 : 1;
    const unsigned dstEnd = 1 - srcEnd;
    UpdateEnds();
    if (m_fabricEnds[srcEnd])
    {
        m_fabricEnds[srcEnd]->NotifyFrameStart(txTime);
    }
    if (m_remoteEnd[srcEnd])
    {
        // The copy of a node that another rank simulates sent it (an ns-3 model started a
        // timer on every copy, e.g. IPv6 router solicitations): it must not reach a node this
        // rank simulates, which gets that node's real frames from the other rank.
        m_foreignFrames++;
        NS_LOG_LOGIC("frame from a node of another rank dropped at the rank border");
        return true;
    }
    const Ptr<MrcPfcPort>& srcPort = m_pfcPorts[srcEnd];
    const Ptr<MrcPfcPort>& dstPort = m_pfcPorts[dstEnd];
    if (!srcPort && !dstPort)
    {
        return Carry(p, src, dstEnd, txTime);
    }
    MrcPfcTag tag;
    if (p->PeekPacketTag(tag) && tag.GetKind() == MrcPfcTag::Kind::PAUSE_FRAME)
    {
        if (m_remoteEnd[dstEnd])
        {
            return Carry(p, src, dstEnd, txTime); // parsed and counted where it arrives
        }
        DeliverPause(p, dstEnd, txTime + GetDelay());
        return true; // it occupied the wire all the same
    }
    Ptr<Packet> copy = p->Copy();
    copy->RemovePacketTag(tag);
    if (dstPort)
    {
        copy->AddPacketTag(
            MrcPfcTag(MrcPfcTag::Kind::INGRESS, GetPointToPointDevice(dstEnd)->GetIfIndex()));
    }
    return Carry(copy, src, dstEnd, txTime);
}

} // namespace ns3
