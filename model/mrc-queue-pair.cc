/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-queue-pair.h"

#include "mrc-bth-header.h"
#include "mrc-icrc-trailer.h"
#include "mrc-l4-protocol.h"
#include "mrc-nack-header.h"
#include "mrc-probe-header.h"
#include "mrc-sack-header.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcQueuePair");

NS_OBJECT_ENSURE_REGISTERED(MrcQueuePair);

MrcQueuePair::MrcQueuePair()
    : m_rng(CreateObject<UniformRandomVariable>())
{
}

void
MrcQueuePair::DoDispose()
{
    Simulator::Cancel(m_paceEvent);
    Simulator::Cancel(m_retryEvent);
    m_receiver.reset();
    // The policies run timers of their own: dispose of them, not just forget them.
    for (Ptr<Object> policy : {Ptr<Object>(m_recovery), Ptr<Object>(m_paths), Ptr<Object>(m_cc)})
    {
        if (policy)
        {
            policy->Dispose();
        }
    }
    m_recovery = nullptr;
    m_paths = nullptr;
    m_rng = nullptr;
    m_l4 = nullptr;
    m_cc = nullptr;
    m_sendComplete = MakeNullCallback<void, uint32_t>();
    m_receive = MakeNullCallback<void, uint32_t, uint64_t, std::optional<uint32_t>>();
    m_error = MakeNullCallback<void, std::string>();
    Object::DoDispose();
}

void
MrcQueuePair::Attach(MrcL4Protocol* l4, uint32_t qpn)
{
    m_l4 = l4;
    m_qpn = qpn;
}

uint32_t
MrcQueuePair::GetQpn() const
{
    return m_qpn;
}

Ptr<Node>
MrcQueuePair::GetNode() const
{
    return m_l4 ? m_l4->GetNode() : nullptr;
}

void
MrcQueuePair::OnEvStateChange(uint32_t ev, MrcEvState from, MrcEvState to, const std::string& cause)
{
    NS_LOG_INFO("QP " << m_qpn << " EV " << ev << " " << from << " -> " << to << " (" << cause
                      << ")");
    m_evTrace(ev, from, to, cause);
}

void
MrcQueuePair::OnDelivered(uint32_t msn, uint64_t bytes, std::optional<uint32_t> imm)
{
    NS_LOG_INFO("QP " << m_qpn << " delivered message " << msn << " (" << bytes << " B)");
    m_deliveredTrace(msn, bytes);
    if (!m_receive.IsNull())
    {
        m_receive(msn, bytes, imm);
    }
}

uint32_t
MrcQueuePair::PostWrite(uint64_t bytes,
                        uint64_t remoteVa,
                        uint32_t rkey,
                        std::optional<uint32_t> immediate,
                        std::shared_ptr<const std::vector<uint8_t>> data)
{
    if (!m_sendQueue)
    {
        throw std::logic_error("MrcQueuePair::PostWrite: the QP is not connected");
    }
    const uint32_t msn = m_sendQueue->Post(bytes, remoteVa, rkey, immediate, std::move(data));
    NS_LOG_FUNCTION(this << msn << bytes);
    m_postedTrace(msn, bytes);
    if (m_failed)
    {
        Simulator::ScheduleNow([this]() {
            Fail("posted on a failed QP");
        });
        return msn;
    }
    // Asynchronous, like a doorbell: the NIC acts in the event loop (also when posted before
    // the simulation starts, when traffic control is not set up yet).
    Simulator::ScheduleNow(&MrcQueuePair::Kick, this);
    m_recovery->OnPosted();
    return msn;
}

void
MrcQueuePair::RegisterMemory(uint64_t va, std::shared_ptr<std::vector<uint8_t>> region)
{
    if (m_receiver)
    {
        m_receiver->RegisterMemory(va, std::move(region));
    }
    else
    {
        m_pendingMemory.emplace_back(va, std::move(region));
    }
}

void
MrcQueuePair::SetSendCompleteCallback(Callback<void, uint32_t> cb)
{
    m_sendComplete = cb;
}

void
MrcQueuePair::SetReceiveCallback(Callback<void, uint32_t, uint64_t, std::optional<uint32_t>> cb)
{
    m_receive = cb;
}

void
MrcQueuePair::SetErrorCallback(Callback<void, std::string> cb)
{
    m_error = cb;
}

void
MrcQueuePair::DenyEv(uint32_t ev)
{
    m_paths->Deny(ev);
}

const MrcPathSet&
MrcQueuePair::GetPathSet() const
{
    if (!m_paths)
    {
        throw std::logic_error("MrcQueuePair::GetPathSet: the QP is not connected");
    }
    return m_paths->GetPathSet();
}

const MrcQueuePair::Stats&
MrcQueuePair::GetStats() const
{
    return m_stats;
}

bool
MrcQueuePair::IsFailed() const
{
    return m_failed;
}

uint32_t
MrcQueuePair::GetPendingMessages() const
{
    return m_sendQueue ? m_sendQueue->GetPendingMessages() : 0;
}

Ptr<MrcCongestionOps>
MrcQueuePair::GetCongestionControl() const
{
    return m_cc;
}

Ptr<MrcPathSelection>
MrcQueuePair::GetPathSelection() const
{
    return m_paths;
}

Ptr<MrcLossRecovery>
MrcQueuePair::GetLossRecovery() const
{
    return m_recovery;
}

void
MrcQueuePair::Kick()
{
    if (!m_l4 || m_failed)
    {
        return;
    }
    // The first port to take the window's next packet decides its plane: offer it in the
    // policy's order (asking plane 0 first every time would give it every packet of a window
    // that opens one packet at a time).
    // (A port beyond the QP's planes has nothing to take from it: PullPacket says so.)
    const uint32_t ports = m_l4->GetPortCount();
    m_paths->OrderPlanes(m_planeOrder);
    for (uint32_t p : m_planeOrder)
    {
        if (p < ports)
        {
            m_l4->GetPort(p)->Request(this);
        }
    }
}

void
MrcQueuePair::RetryPassedPorts()
{
    std::vector<uint32_t> passed;
    passed.swap(m_passedPorts);
    const uint32_t ports = m_l4 ? m_l4->GetPortCount() : 0;
    for (uint32_t p : passed)
    {
        if (p < ports && !m_failed)
        {
            m_l4->GetPort(p)->Request(this);
        }
    }
}

std::optional<std::pair<uint32_t, bool>>
MrcQueuePair::NextLength()
{
    const TxRecord* rtx = m_recovery->PeekRetransmission();
    const std::optional<uint32_t> length =
        rtx ? std::optional<uint32_t>(rtx->length) : m_sendQueue->PeekNew();
    const uint64_t inFlight = m_sendQueue->GetInFlight();
    if (!length || (inFlight > 0 && inFlight + *length > m_cc->GetWindow()))
    {
        return std::nullopt;
    }
    const Time now = Simulator::Now();
    if (m_cc->GetPacingRate() && now < m_nextSendTime)
    {
        if (m_paceEvent.IsExpired())
        {
            m_paceEvent = Simulator::Schedule(m_nextSendTime - now, &MrcQueuePair::Kick, this);
        }
        return std::nullopt;
    }
    return std::make_pair(*length, rtx != nullptr);
}

uint8_t
MrcQueuePair::GetNextDscp()
{
    return m_recovery && m_recovery->PeekRetransmission() ? m_rtxDscp : m_dataDscp;
}

std::optional<MrcQueuePair::TxPacket>
MrcQueuePair::PullPacket(uint32_t plane)
{
    if (m_failed || !m_sendQueue || plane >= m_peerPlaneDown.size() || m_peerPlaneDown[plane]
        || m_localPlaneDown[plane])
    {
        return std::nullopt;
    }
    const std::optional<std::pair<uint32_t, bool>> next = NextLength();
    if (!next)
    {
        return std::nullopt;
    }
    // The EV is chosen now, when the packet leaves.
    const std::optional<uint32_t> ev = m_paths->NextData(plane);
    if (!ev)
    {
        NS_LOG_LOGIC("QP " << m_qpn << ": no usable EV on plane " << plane);
        if (m_planeLeadLimit > 0
            && std::find(m_passedPorts.begin(), m_passedPorts.end(), plane) == m_passedPorts.end())
        {
            m_passedPorts.push_back(plane);
        }
        return std::nullopt;
    }
    if (!m_passedPorts.empty() && m_retryEvent.IsExpired())
    {
        // A port passed over for this plane's share may take the packet after this one.
        m_retryEvent = Simulator::ScheduleNow(&MrcQueuePair::RetryPassedPorts, this);
    }
    const bool rtx = next->second;
    TxRecord* r = nullptr;
    if (rtx)
    {
        r = m_recovery->PeekRetransmission();
        m_recovery->PopRetransmission();
        m_stats.retransmissions++;
        m_stats.bytesRetransmitted += r->length;
    }
    else
    {
        r = &m_sendQueue->CutNew();
        m_stats.dataPacketsSent++;
        if (r->offset == 0)
        {
            m_firstSentTrace(r->msn, r->length);
        }
    }
    const Time now = Simulator::Now();
    const MrcWirePath& path = m_paths->GetWirePath(*ev);
    r->ev = *ev;
    r->sentAt = now;
    r->transmissions++;
    m_sendQueue->MarkSent(*r);
    m_recovery->OnSent(*r, rtx);
    Ptr<Packet> p = m_sendQueue->Build(*r, m_remoteQpn, MrcSendQueue::WireTimestamp(now));
    m_txTrace(p, r->psn, *ev, rtx);
    const uint32_t wire = MrcL4Protocol::GetWireSize(p->GetSize(), path);
    if (const std::optional<DataRate> rate = m_cc->GetPacingRate())
    {
        m_nextSendTime = now + rate->CalculateBytesTxTime(wire);
    }
    m_cc->OnDataSent(now, wire);
    return TxPacket{p, path, rtx ? m_rtxDscp : m_dataDscp};
}

void
MrcQueuePair::Slide()
{
    for (const MrcSendQueue::Completed& m : m_sendQueue->Slide())
    {
        NS_LOG_INFO("QP " << m_qpn << " message " << m.msn << " (" << m.bytes
                          << " B) acknowledged");
        m_completeTrace(m.msn, m.bytes);
        if (!m_sendComplete.IsNull())
        {
            m_sendComplete(m.msn);
        }
    }
}

void
MrcQueuePair::Receive(Ptr<Packet> packet,
                      const MrcBthHeader& bth,
                      const Ipv6Header& outer,
                      uint32_t ev,
                      uint32_t plane)
{
    if (m_failed || !m_sendQueue)
    {
        return;
    }
    const MrcOpcode op = bth.GetOpcode();
    if (IsDataOpcode(op))
    {
        m_receiver->OnData(packet, bth, outer, ev, plane);
    }
    else if (op == MrcOpcode::SACK)
    {
        OnSack(packet, ev);
    }
    else if (op == MrcOpcode::NACK)
    {
        OnNack(packet);
    }
    else if (op == MrcOpcode::PROBE)
    {
        OnProbe(packet, plane, outer.GetDscp());
    }
    else if (op == MrcOpcode::CNP)
    {
        OnCnp(ev);
    }
    else
    {
        m_stats.malformedReceived++;
    }
}

MrcBthHeader
MrcQueuePair::ControlBth(MrcOpcode opcode) const
{
    MrcBthHeader bth;
    bth.SetOpcode(opcode);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(m_receiver ? m_receiver->GetCumulativePsn() : 0);
    return bth;
}

bool
MrcQueuePair::OnlyReceiving() const
{
    const Time last = m_receiver->GetLastArrival();
    return m_sendQueue->IsWindowEmpty() && !last.IsStrictlyNegative()
           && Simulator::Now() - last <= m_baseRtt * 4;
}

void
MrcQueuePair::SendProbe(uint32_t ev, Ptr<Packet> body)
{
    body->AddHeader(ControlBth(MrcOpcode::PROBE));
    SendOnPath(body, m_paths->GetWirePath(ev));
}

void
MrcQueuePair::SendTailProbe(uint32_t sequence)
{
    // On the data EVs, one plane after the other, like the data it stands for.
    const uint32_t planes = m_paths->GetPathSet().GetPlaneCount();
    for (uint32_t i = 0; i < planes; ++i)
    {
        const uint32_t p = (m_tailProbePlane + i) % planes;
        if (m_peerPlaneDown[p] || m_localPlaneDown[p])
        {
            continue;
        }
        const std::optional<uint32_t> ev = m_paths->NextControl(p);
        if (!ev)
        {
            continue;
        }
        m_tailProbePlane = p + 1;
        MrcProbeHeader probe;
        probe.SetSequence(sequence);
        probe.SetEv(*ev);
        probe.SetAckRequest(true);
        Ptr<Packet> body = Create<Packet>();
        body->AddHeader(probe);
        body->AddHeader(ControlBth(MrcOpcode::PROBE));
        // In the data class, behind the data it stands for: its delay is the data's queueing.
        SendOnPath(body, m_paths->GetWirePath(*ev), m_dataDscp);
        return;
    }
    NS_LOG_WARN("QP " << m_qpn << ": no path for a tail-loss probe");
}

void
MrcQueuePair::SendOnPath(Ptr<Packet> packet, const MrcWirePath& path)
{
    SendOnPath(packet, path, m_controlDscp);
}

void
MrcQueuePair::SendOnPath(Ptr<Packet> packet, const MrcWirePath& path, uint8_t dscp)
{
    packet->AddTrailer(MrcIcrcTrailer());
    m_l4->GetPort(path.plane)->SendControl(packet, path, dscp);
}

void
MrcQueuePair::SendControl(Ptr<Packet> packet, uint32_t plane)
{
    // Prefer the plane the triggering packet came on; any usable plane otherwise.
    const uint32_t planes = m_paths->GetPathSet().GetPlaneCount();
    for (uint32_t i = 0; i < planes; ++i)
    {
        const uint32_t p = (plane + i) % planes;
        if (m_peerPlaneDown[p] || m_localPlaneDown[p])
        {
            continue;
        }
        const std::optional<uint32_t> ev = m_paths->NextControl(p);
        if (!ev)
        {
            continue;
        }
        SendOnPath(packet, m_paths->GetWirePath(*ev));
        return;
    }
    NS_LOG_WARN("QP " << m_qpn << ": no path for a control packet");
}

void
MrcQueuePair::OnSack(Ptr<Packet> packet, uint32_t ev)
{
    MrcSackHeader sack;
    packet->RemoveHeader(sack);
    if (!sack.IsValid())
    {
        m_stats.malformedReceived++;
        return;
    }
    m_stats.sacksReceived++;
    NS_LOG_LOGIC("QP " << m_qpn << " SACK cum " << sack.GetCumulativeAckPsn() << " base "
                       << sack.GetBitmapBasePsn() << " ooo " << sack.GetOutOfOrderCount() << " ev "
                       << ev);
    const uint64_t acked =
        m_sendQueue->AckSack(sack.GetCumulativeAckPsn(), sack.GetBitmapBasePsn(), sack.GetBitmap());
    const Time rtt = AckedRtt(sack.GetReflectedEv(), sack.GetReflectedTimestamp());
    Slide();
    m_cc->SetBytesInFlight(m_sendQueue->GetInFlight());
    MrcAckFeedback feedback;
    feedback.outOfOrder = sack.GetOutOfOrderCount();
    m_recovery->OnAcknowledged(feedback);
    if (rtt.IsStrictlyPositive())
    {
        m_rttTrace(rtt);
    }
    // Congestion control and path health from the acknowledged packet's EV.
    const bool ecn = sack.GetEcnEcho() || sack.GetMark() != MrcSackMark::NONE;
    m_paths->OnAckFeedback(sack.GetReflectedEv(), ecn, sack.GetMark() == MrcSackMark::ALWAYS_SKIP);
    m_cc->SetReceiverPenalty(sack.GetWindowPenalty());
    if (acked > 0)
    {
        m_cc->OnAck(Simulator::Now(), static_cast<uint32_t>(acked), rtt, ecn);
    }
    m_cwnd = m_cc->GetWindow();
    for (uint32_t p = 0; p < m_peerPlaneDown.size() && p < 8; ++p)
    {
        const bool down = sack.GetPortStateBitmap() >> p & 1;
        if (down != m_peerPlaneDown[p])
        {
            m_peerPlaneDown[p] = down;
            m_paths->SetPlaneEnabled(p, !down && !m_localPlaneDown[p]);
        }
    }
    Kick();
}

Time
MrcQueuePair::AckedRtt(uint32_t ev, uint16_t timestamp) const
{
    // From the send time kept here (the wire carries only 16 bits of microseconds); the packet
    // must be among those the acknowledgement just acknowledged.
    const std::optional<Time> sentAt = m_sendQueue->FindJustAckedSend(ev, timestamp);
    return sentAt ? Simulator::Now() - *sentAt : Time(0);
}

void
MrcQueuePair::OnNack(Ptr<Packet> packet)
{
    MrcNackHeader nack;
    packet->RemoveHeader(nack);
    if (!nack.IsValid())
    {
        m_stats.malformedReceived++;
        return;
    }
    m_stats.nacksReceived++;
    NS_LOG_LOGIC("QP " << m_qpn << " NACK " << nack.GetCode() << " PSN " << nack.GetPsn());
    m_nackTrace(nack.GetPsn(), nack.GetCode());
    m_cc->SetBytesInFlight(m_sendQueue->GetInFlight());
    if (nack.GetCode() == MrcNackCode::SEQUENCE_ERROR)
    {
        // Like InfiniBand's PSN sequence error NAK, it acknowledges every PSN before its own.
        const uint64_t acked = m_sendQueue->AckBefore(nack.GetPsn());
        const Time rtt = AckedRtt(nack.GetReflectedEv(), nack.GetReflectedTimestamp());
        Slide();
        m_cc->SetBytesInFlight(m_sendQueue->GetInFlight());
        if (acked > 0)
        {
            m_cc->OnAck(Simulator::Now(), static_cast<uint32_t>(acked), rtt, false);
        }
        m_recovery->OnAcknowledged(MrcAckFeedback{});
    }
    m_recovery->OnNack(nack);
    m_cwnd = m_cc->GetWindow();
}

void
MrcQueuePair::OnCnp(uint32_t ev)
{
    m_stats.cnpsReceived++;
    m_cnpReceivedTrace(ev);
    m_cc->OnCongestionNotification(Simulator::Now());
    m_cwnd = m_cc->GetWindow();
}

void
MrcQueuePair::OnProbe(Ptr<Packet> packet, uint32_t plane, uint8_t dscp)
{
    MrcProbeHeader probe;
    packet->RemoveHeader(probe);
    if (!probe.IsValid())
    {
        m_stats.malformedReceived++;
        return;
    }
    if (probe.GetResponse())
    {
        if (probe.GetAckRequest())
        {
            m_recovery->OnTailProbeAnswer(probe.GetSequence());
        }
        else
        {
            m_paths->OnProbeResponse(probe);
        }
        return;
    }
    if (probe.GetAckRequest())
    {
        if (dscp == m_trimmedDscp || dscp == m_trimmedLastHopDscp)
        {
            // A trimmed tail-loss probe met a full queue: the data it stands for is queued, not
            // lost. No answer; the sender probes again.
            m_stats.tailProbesTrimmed++;
            return;
        }
        // A tail-loss probe: first a SACK of everything held, on the probe's path, so that the
        // sender has processed it when the response (on the same path) arrives.
        m_receiver->SendSackNow(probe.GetEv(), plane);
    }
    MrcProbeHeader reply = probe;
    reply.SetResponse(true);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(reply);
    p->AddHeader(ControlBth(MrcOpcode::PROBE));
    if (!SendOnMirror(p, probe.GetEv()))
    {
        SendControl(p, plane);
    }
}

bool
MrcQueuePair::SendOnMirror(Ptr<Packet> packet, uint32_t ev)
{
    const MrcPathSet& set = m_paths->GetPathSet();
    if (!set.Contains(ev) || set.GetState(ev) == MrcEvState::DENIED)
    {
        return false;
    }
    const MrcWirePath& path = m_paths->GetWirePath(ev);
    if (m_peerPlaneDown[path.plane] || m_localPlaneDown[path.plane])
    {
        return false;
    }
    SendOnPath(packet, path);
    return true;
}

void
MrcQueuePair::Fail(const std::string& reason)
{
    if (m_failed)
    {
        return;
    }
    m_failed = true;
    NS_LOG_WARN("QP " << m_qpn << " failed: " << reason);
    Simulator::Cancel(m_paceEvent);
    Simulator::Cancel(m_retryEvent);
    m_recovery->Stop();
    m_paths->Stop();
    m_receiver->Stop();
    m_errorTrace(reason);
    if (!m_error.IsNull())
    {
        m_error(reason);
    }
}

void
MrcQueuePair::NotifyLocalPortState(uint32_t plane, bool up)
{
    if (!m_sendQueue || plane >= m_localPlaneDown.size())
    {
        return;
    }
    m_localPlaneDown[plane] = !up;
    m_paths->SetPlaneEnabled(plane, up && !m_peerPlaneDown[plane]);
    if (!up)
    {
        m_recovery->OnPortDown(plane);
    }
    Kick();
}

} // namespace ns3
