/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-qp-receiver.h"

#include "mrc-bth-header.h"
#include "mrc-icrc-trailer.h"
#include "mrc-immdt-header.h"
#include "mrc-meth-header.h"
#include "mrc-nack-header.h"
#include "mrc-reth-header.h"
#include "mrc-sack-header.h"
#include "mrc-tseth-header.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcQpReceiver");

MrcQpReceiver::MrcQpReceiver(const Config& config,
                             uint32_t firstPsn,
                             Hooks hooks,
                             MrcQpStats& stats)
    : m_config(config)
    , m_hooks(std::move(hooks))
    , m_stats(stats)
    , m_state(config.window, firstPsn)
{
    if (config.bitmapPsns < 64 || config.bitmapPsns > config.window)
    {
        throw std::invalid_argument("MrcQueuePair: ReceiveBitmapPsns (="
                                    + std::to_string(config.bitmapPsns) + ") must be in 64.."
                                    + std::to_string(config.window)
                                    + " (MaxOutstandingPsns), or 0 for the whole window");
    }
}

MrcQpReceiver::~MrcQpReceiver()
{
    Stop();
}

void
MrcQpReceiver::Stop()
{
    Simulator::Cancel(m_sackEvent);
    m_owed = false;
}

void
MrcQpReceiver::RegisterMemory(uint64_t va, std::shared_ptr<std::vector<uint8_t>> region)
{
    m_memory[va] = std::move(region);
}

uint32_t
MrcQpReceiver::GetCumulativePsn() const
{
    return m_state.GetCumulativePsn();
}

Time
MrcQpReceiver::GetLastArrival() const
{
    return m_lastArrival;
}

MrcQpReceiver::MemoryMap::const_iterator
MrcQpReceiver::FindRegion(uint64_t va, uint64_t size) const
{
    auto it = m_memory.upper_bound(va);
    if (it == m_memory.begin())
    {
        return m_memory.end();
    }
    --it;
    const uint64_t off = va - it->first; // va >= it->first
    const uint64_t room = it->second->size();
    if (off > room || size > room - off)
    {
        return m_memory.end();
    }
    return it;
}

bool
MrcQpReceiver::IsValidAccess(uint64_t va, uint64_t size) const
{
    return m_memory.empty() || size == 0 || FindRegion(va, size) != m_memory.end();
}

void
MrcQpReceiver::Write(Ptr<const Packet> packet, uint64_t va)
{
    if (packet->GetSize() == 0)
    {
        return;
    }
    const auto it = FindRegion(va, packet->GetSize());
    if (it != m_memory.end())
    {
        packet->CopyData(it->second->data() + (va - it->first), packet->GetSize());
    }
}

void
MrcQpReceiver::OnData(Ptr<Packet> packet,
                      const MrcBthHeader& bth,
                      const Ipv6Header& outer,
                      uint32_t ev,
                      uint32_t plane)
{
    m_lastArrival = Simulator::Now();
    const uint8_t dscp = outer.GetDscp();
    const uint32_t psn = bth.GetPsn();
    const bool trimmed = dscp == m_config.trimmedDscp || dscp == m_config.trimmedLastHopDscp;
    MrcMethHeader meth;
    MrcTsethHeader tseth;
    MrcRethHeader reth;
    packet->RemoveHeader(meth);
    if (meth.IsValid())
    {
        packet->RemoveHeader(tseth);
    }
    if (meth.IsValid() && tseth.IsValid())
    {
        packet->RemoveHeader(reth);
    }
    if (!meth.IsValid() || !tseth.IsValid() || !reth.IsValid())
    {
        if (!trimmed)
        {
            m_stats.malformedReceived++;
            return;
        }
        // A switch may trim to as little as the BTH: the PSN is all a NACK needs. The send
        // timestamp is gone with the TSETH (the NACK reflects 0; the sender then takes no RTT
        // sample from it).
        if (!tseth.IsValid())
        {
            tseth.SetTimestamp(0);
        }
    }
    if (outer.GetEcn() == Ipv6Header::ECN_CE)
    {
        MaybeSendCnp(ev, plane);
    }
    if (m_config.order == MrcReceiveOrder::IN_ORDER
        && !InSequence(psn, trimmed, ev, tseth.GetTimestamp(), plane))
    {
        return;
    }
    if (trimmed)
    {
        // Trimmed: the headers that survived tell which PSN lost its payload.
        m_stats.trimmedReceived++;
        SendNack(dscp == m_config.trimmedDscp ? MrcNackCode::TRIMMED : MrcNackCode::TRIMMED_LASTHOP,
                 psn,
                 ev,
                 tseth.GetTimestamp(),
                 plane);
        return;
    }
    std::optional<uint32_t> immediate;
    if (CarriesImmediate(bth.GetOpcode()))
    {
        MrcImmDtHeader imm;
        packet->RemoveHeader(imm);
        if (!imm.IsValid())
        {
            m_stats.malformedReceived++;
            return;
        }
        immediate = imm.GetImmediateData();
    }
    MrcIcrcTrailer icrc;
    if (packet->GetSize() < icrc.GetSerializedSize())
    {
        m_stats.malformedReceived++;
        return;
    }
    packet->RemoveTrailer(icrc);
    if (!IsValidAccess(reth.GetVirtualAddress(), packet->GetSize()))
    {
        // An invalid remote access (RoCE answers it with a Remote Access Error NAK; MRC has
        // no such NACK code): drop it before it is accepted, and count it.
        NS_LOG_WARN("PSN " << psn << ": " << packet->GetSize() << " B at va 0x" << std::hex
                           << reth.GetVirtualAddress() << std::dec
                           << " are outside registered memory; dropped");
        m_stats.malformedReceived++;
        return;
    }
    const int32_t ahead = MrcPsnDiff(psn, m_state.GetCumulativePsn());
    if (ahead >= int32_t(m_config.bitmapPsns) && ahead < int32_t(m_config.window))
    {
        // Within the PSN window, but the NIC has no tracking state that far ahead.
        m_stats.noBitmapReceived++;
        SendNack(MrcNackCode::NO_BITMAP, psn, ev, tseth.GetTimestamp(), plane);
        return;
    }
    const MrcReceiveState::Verdict v = m_state.Accept(psn);
    if (v == MrcReceiveState::Verdict::OUT_OF_WINDOW)
    {
        m_stats.outOfWindowReceived++;
        SendNack(MrcNackCode::PSN_OOR_WINDOW, psn, ev, tseth.GetTimestamp(), plane);
        return;
    }
    bool now = bth.GetAckRequest() || v == MrcReceiveState::Verdict::DUPLICATE;
    if (v == MrcReceiveState::Verdict::DUPLICATE)
    {
        m_stats.duplicatesReceived++;
    }
    else
    {
        m_stats.dataPacketsReceived++;
        m_hooks.placed(packet, psn, ev);
        Write(packet, reth.GetVirtualAddress());
        m_unsackedBytes += std::max<uint32_t>(packet->GetSize(), 1);
        auto done = m_state.Place(meth.GetMsn(),
                                  reth.GetDmaLength(),
                                  packet->GetSize(),
                                  immediate,
                                  CarriesImmediate(bth.GetOpcode()));
        if (done)
        {
            NS_LOG_INFO("delivered message " << done->msn << " (" << done->length << " B)");
            m_hooks.delivered(done->msn, done->length, done->immediate);
            now = true;
        }
    }
    // Every arrival is reported by a SACK at least once: when the SACK that would answer this
    // packet cannot also report those waiting for it (its 64-PSN bitmap follows this packet),
    // theirs leaves first. A retransmission arriving far behind the new data, or new data far
    // ahead of a retransmission, would otherwise go unreported until the cumulative PSN passes.
    if (m_owed && !BatchFits(psn))
    {
        SendSack(m_pending, MrcSackMark::NONE);
    }
    m_batch.push_back(psn);
    const bool ce = outer.GetEcn() == Ipv6Header::ECN_CE;
    const MrcSackMark mark = MarkFor(ev, ce);
    m_pending = Pending{psn, ev, tseth.GetTimestamp(), plane};
    if (now || ce || m_unsackedBytes >= m_config.sackBytes)
    {
        SendSack(m_pending, mark);
        return;
    }
    m_owed = true;
    if (m_sackEvent.IsExpired())
    {
        m_sackEvent = Simulator::Schedule(m_config.sackDelay, &MrcQpReceiver::OnSackTimer, this);
    }
}

bool
MrcQpReceiver::InSequence(uint32_t psn,
                          bool trimmed,
                          uint32_t ev,
                          uint16_t timestamp,
                          uint32_t plane)
{
    const int32_t ahead = MrcPsnDiff(psn, m_state.GetCumulativePsn());
    if (ahead < 0)
    {
        if (trimmed)
        {
            m_stats.trimmedReceived++; // a late copy of a PSN already placed: nothing to do
            return false;
        }
        return true; // a duplicate: acknowledged again below
    }
    if (ahead > 0)
    {
        m_stats.outOfSequenceDropped++;
        m_stats.trimmedReceived += trimmed ? 1 : 0;
        if (!m_gapNacked)
        {
            m_gapNacked = true;
            SendNack(MrcNackCode::SEQUENCE_ERROR, m_state.GetCumulativePsn(), ev, timestamp, plane);
        }
        return false;
    }
    // The expected PSN. Trimmed: NACK it (below) and count the gap as NACKed.
    m_gapNacked = trimmed;
    return true;
}

void
MrcQpReceiver::MaybeSendCnp(uint32_t ev, uint32_t plane)
{
    if (!m_config.cnpInterval)
    {
        return;
    }
    const Time now = Simulator::Now();
    if (m_lastCnp && now - *m_lastCnp < *m_config.cnpInterval)
    {
        return;
    }
    m_lastCnp = now;
    m_stats.cnpsSent++;
    m_hooks.cnpSent(ev);
    // RoCEv2's CNP: BTH (opcode 0x81), 16 reserved bytes, ICRC.
    m_hooks.sendControl(Create<Packet>(16), MrcOpcode::CNP, plane, std::nullopt);
}

void
MrcQpReceiver::OnSackTimer()
{
    if (m_owed)
    {
        SendSack(m_pending, MrcSackMark::NONE);
    }
}

MrcSackMark
MrcQpReceiver::MarkFor(uint32_t ev, bool ce)
{
    if (!ce)
    {
        m_ceRun.erase(ev);
        return MrcSackMark::NONE;
    }
    const uint32_t run = ++m_ceRun[ev];
    return m_config.alwaysSkipMarks > 0 && run >= m_config.alwaysSkipMarks
               ? MrcSackMark::ALWAYS_SKIP
               : MrcSackMark::SKIP_ONCE;
}

bool
MrcQpReceiver::BatchFits(uint32_t about) const
{
    const uint32_t cum = m_state.GetCumulativePsn();
    const uint32_t base = m_state.GetSackBase(about);
    for (uint32_t psn : m_batch)
    {
        const int32_t offset = MrcPsnDiff(psn, base);
        if (!MrcPsnLess(psn, cum) && (offset < 0 || offset >= 64))
        {
            return false;
        }
    }
    return true;
}

void
MrcQpReceiver::SendSackNow(uint32_t ev, uint32_t plane)
{
    if (m_owed && !BatchFits(m_state.GetCumulativePsn()))
    {
        SendSack(m_pending, MrcSackMark::NONE);
    }
    SendSack(Pending{m_state.GetCumulativePsn(), ev, 0, plane}, MrcSackMark::NONE);
}

void
MrcQpReceiver::SendSack(const Pending& about, MrcSackMark mark)
{
    const bool ce = mark != MrcSackMark::NONE;
    Simulator::Cancel(m_sackEvent);
    m_owed = false;
    m_batch.clear();
    m_unsackedBytes = 0;
    MrcSackHeader sack;
    sack.SetCumulativeAckPsn(m_state.GetCumulativePsn());
    const uint32_t base = m_state.GetSackBase(about.psn);
    sack.SetBitmapBasePsn(base);
    sack.SetBitmap(m_state.GetBitmap(base));
    sack.SetReflectedEv(about.ev);
    sack.SetEcnEcho(ce);
    sack.SetMark(mark);
    sack.SetReflectedTimestamp(about.timestamp);
    sack.SetOutOfOrderCount(
        static_cast<uint16_t>(std::min<uint32_t>(m_state.GetOutOfOrderCount(), 0xffff)));
    sack.SetWindowPenalty(m_config.windowPenalty);
    sack.SetReceivedBytes(static_cast<uint32_t>(m_state.GetBytesPlaced()));
    sack.SetPortStateBitmap(m_hooks.portState());
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(sack);
    m_stats.sacksSent++;
    m_hooks.sendControl(p, MrcOpcode::SACK, about.plane, about.ev);
}

void
MrcQpReceiver::SendNack(MrcNackCode code,
                        uint32_t psn,
                        uint32_t ev,
                        uint16_t timestamp,
                        uint32_t plane)
{
    MrcNackHeader nack;
    nack.SetCode(code);
    nack.SetPsn(psn);
    nack.SetReflectedEv(ev);
    nack.SetReflectedTimestamp(timestamp);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(nack);
    m_stats.nacksSent++;
    m_hooks.sendControl(p, MrcOpcode::NACK, plane, ev);
}

} // namespace ns3
