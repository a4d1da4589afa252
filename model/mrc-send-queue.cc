/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-send-queue.h"

#include "mrc-bth-header.h"
#include "mrc-icrc-trailer.h"
#include "mrc-immdt-header.h"
#include "mrc-meth-header.h"
#include "mrc-reth-header.h"
#include "mrc-tseth-header.h"

#include "ns3/assert.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

MrcSendQueue::MrcSendQueue(uint32_t window, uint32_t mss, uint32_t firstPsn)
    : m_mss(mss)
    , m_window(window)
    , m_basePsn(firstPsn & kMrcPsnMask)
    , m_nextPsn(firstPsn & kMrcPsnMask)
{
}

uint32_t
MrcSendQueue::Post(uint64_t bytes,
                   uint64_t va,
                   uint32_t rkey,
                   std::optional<uint32_t> immediate,
                   std::shared_ptr<const std::vector<uint8_t>> data)
{
    if (data && data->size() != bytes)
    {
        throw std::invalid_argument("MrcQueuePair::PostWrite: data holds "
                                    + std::to_string(data->size()) + " bytes, the message "
                                    + std::to_string(bytes));
    }
    if (bytes > 0xffffffffULL)
    {
        throw std::invalid_argument("MrcQueuePair::PostWrite: message size (="
                                    + std::to_string(bytes)
                                    + ") must be < 4 GiB (RETH DMA length)");
    }
    Message m;
    m.msn = m_nextMsn++;
    m.bytes = bytes;
    m.va = va;
    m.rkey = rkey;
    m.immediate = immediate;
    m.data = std::move(data);
    m_messages.push_back(std::move(m));
    return m_messages.back().msn;
}

const MrcSendQueue::Message*
MrcSendQueue::FindMessage(uint32_t msn) const
{
    // Unfinished messages are consecutive MSNs: only the oldest ever leaves the queue.
    if (m_messages.empty())
    {
        return nullptr;
    }
    const uint32_t index = msn - m_messages.front().msn;
    return index < m_messages.size() ? &m_messages[index] : nullptr;
}

std::optional<uint32_t>
MrcSendQueue::PeekNew() const
{
    const Message* m = FindMessage(m_cutMsn);
    if (!m || m_window.full())
    {
        return std::nullopt;
    }
    return static_cast<uint32_t>(std::min<uint64_t>(m_mss, m->bytes - m->packetized));
}

MrcSendQueue::Record&
MrcSendQueue::CutNew()
{
    Message& m = m_messages[m_cutMsn - m_messages.front().msn];
    Record rec;
    rec.psn = m_nextPsn;
    rec.msn = m.msn;
    rec.offset = m.packetized;
    rec.length = static_cast<uint32_t>(std::min<uint64_t>(m_mss, m.bytes - m.packetized));
    const bool first = m.packetized == 0;
    m.packetized += rec.length;
    const bool last = m.packetized == m.bytes;
    const bool imm = m.immediate.has_value();
    if (first && last)
    {
        rec.opcode = imm ? MrcOpcode::WRITE_ONLY_IMM : MrcOpcode::WRITE_ONLY;
    }
    else if (first)
    {
        rec.opcode = MrcOpcode::WRITE_FIRST;
    }
    else if (last)
    {
        rec.opcode = imm ? MrcOpcode::WRITE_LAST_IMM : MrcOpcode::WRITE_LAST;
    }
    else
    {
        rec.opcode = MrcOpcode::WRITE_MIDDLE;
    }
    m.fullyPacketized = last;
    m_cutMsn += last ? 1 : 0;
    m.unacked++;
    m_nextPsn = MrcPsnAdd(m_nextPsn, 1);
    m_window.push_back(rec);
    return m_window.back();
}

MrcSendQueue::Record*
MrcSendQueue::Find(uint32_t psn)
{
    const int32_t offset = MrcPsnDiff(psn, m_basePsn);
    if (offset < 0 || size_t(offset) >= m_window.size())
    {
        return nullptr;
    }
    return &m_window[offset];
}

void
MrcSendQueue::MarkSent(Record& r)
{
    if (!r.inFlight)
    {
        r.inFlight = true;
        m_inFlight += r.length;
    }
}

void
MrcSendQueue::MarkLost(Record& r)
{
    if (r.inFlight)
    {
        r.inFlight = false;
        m_inFlight -= r.length;
    }
}

uint32_t
MrcSendQueue::Ack(Record& r)
{
    if (r.acked)
    {
        return 0;
    }
    r.acked = true;
    r.queued = false;
    MarkLost(r);
    m_justAcked.push_back(Acked{r.psn, r.ev, r.sentAt, r.transmissions});
    auto [it, inserted] = m_lastAckedSend.try_emplace(r.ev, r.sentAt);
    if (!inserted && it->second < r.sentAt)
    {
        it->second = r.sentAt;
    }
    if (!m_messages.empty())
    {
        const uint32_t index = r.msn - m_messages.front().msn;
        if (index < m_messages.size())
        {
            m_messages[index].unacked--;
        }
    }
    return std::max<uint32_t>(r.length, 1);
}

Time
MrcSendQueue::GetLastAckedSend(uint32_t ev) const
{
    auto it = m_lastAckedSend.find(ev);
    return it == m_lastAckedSend.end() ? Time(-1) : it->second;
}

uint64_t
MrcSendQueue::AckBefore(uint32_t cum)
{
    m_justAcked.clear();
    return AckUpTo(cum);
}

uint64_t
MrcSendQueue::AckUpTo(uint32_t cum)
{
    uint64_t acked = 0;
    while (!m_window.empty() && MrcPsnLess(m_window.front().psn, cum))
    {
        acked += Ack(m_window.front());
        m_window.pop_front();
        m_basePsn = MrcPsnAdd(m_basePsn, 1);
    }
    return acked;
}

uint64_t
MrcSendQueue::AckSack(uint32_t cum, uint32_t bitmapBase, uint64_t bitmap)
{
    m_justAcked.clear();
    uint64_t acked = AckUpTo(cum);
    for (uint32_t i = 0; i < 64; ++i)
    {
        Record* r = (bitmap >> i & 1) ? Find(MrcPsnAdd(bitmapBase, i)) : nullptr;
        acked += r ? Ack(*r) : 0;
    }
    return acked;
}

std::vector<MrcSendQueue::Completed>
MrcSendQueue::Slide()
{
    while (!m_window.empty() && m_window.front().acked)
    {
        m_window.pop_front();
        m_basePsn = MrcPsnAdd(m_basePsn, 1);
    }
    std::vector<Completed> done;
    while (!m_messages.empty() && m_messages.front().fullyPacketized
           && m_messages.front().unacked == 0)
    {
        done.push_back(Completed{m_messages.front().msn, m_messages.front().bytes});
        m_messages.pop_front();
    }
    return done;
}

Ptr<Packet>
MrcSendQueue::Build(const Record& r, uint32_t remoteQpn, uint16_t timestamp) const
{
    const Message* m = FindMessage(r.msn);
    NS_ASSERT_MSG(m, "a record's message is unfinished, hence still queued");
    Ptr<Packet> p =
        m->data ? Create<Packet>(m->data->data() + r.offset, r.length) : Create<Packet>(r.length);
    if (CarriesImmediate(r.opcode))
    {
        MrcImmDtHeader imm;
        imm.SetImmediateData(*m->immediate);
        p->AddHeader(imm);
    }
    MrcRethHeader reth;
    reth.SetVirtualAddress(m->va + r.offset);
    reth.SetRkey(m->rkey);
    reth.SetDmaLength(static_cast<uint32_t>(m->bytes));
    p->AddHeader(reth);
    MrcTsethHeader tseth;
    tseth.SetTimestamp(timestamp);
    p->AddHeader(tseth);
    MrcMethHeader meth;
    meth.SetMsn(r.msn);
    p->AddHeader(meth);
    MrcBthHeader bth;
    bth.SetOpcode(r.opcode);
    bth.SetDestQp(remoteQpn);
    bth.SetPsn(r.psn);
    // Ask for an immediate SACK at a message's end (RoCE's AckReq); otherwise SACKs coalesce.
    bth.SetAckRequest(r.opcode == MrcOpcode::WRITE_LAST || r.opcode == MrcOpcode::WRITE_LAST_IMM
                      || r.opcode == MrcOpcode::WRITE_ONLY
                      || r.opcode == MrcOpcode::WRITE_ONLY_IMM);
    p->AddHeader(bth);
    p->AddTrailer(MrcIcrcTrailer());
    return p;
}

uint64_t
MrcSendQueue::GetInFlight() const
{
    return m_inFlight;
}

uint32_t
MrcSendQueue::GetBasePsn() const
{
    return m_basePsn;
}

bool
MrcSendQueue::IsWindowEmpty() const
{
    return m_window.empty();
}

uint32_t
MrcSendQueue::GetPendingMessages() const
{
    return m_messages.size();
}

boost::circular_buffer_space_optimized<MrcSendQueue::Record>&
MrcSendQueue::GetWindow()
{
    return m_window;
}

uint32_t
MrcSendQueue::GetNextPsn() const
{
    return m_nextPsn;
}

bool
MrcSendQueue::IsFullyPacketized() const
{
    return FindMessage(m_cutMsn) == nullptr;
}

uint32_t
MrcSendQueue::GetCapacity() const
{
    return static_cast<uint32_t>(m_window.capacity().capacity());
}

const std::vector<MrcSendQueue::Acked>&
MrcSendQueue::GetJustAcked() const
{
    return m_justAcked;
}

std::optional<Time>
MrcSendQueue::FindJustAckedSend(uint32_t ev, uint16_t timestamp) const
{
    // The latest match: two sends on one EV within the same microsecond are a packet time apart.
    std::optional<Time> found;
    for (const Acked& a : m_justAcked)
    {
        if (a.ev == ev && WireTimestamp(a.sentAt) == timestamp && (!found || a.sentAt > *found))
        {
            found = a.sentAt;
        }
    }
    return found;
}

uint16_t
MrcSendQueue::WireTimestamp(Time t)
{
    return static_cast<uint16_t>(t.GetMicroSeconds() & 0xffff);
}

} // namespace ns3
