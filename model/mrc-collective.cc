/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-collective.h"

#include "mrc-rank-locality.h"
#include "mrc-wire-size.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcCollective");

NS_OBJECT_ENSURE_REGISTERED(MrcCollective);

namespace
{
/// Header bytes of an MRC data packet on a path of one carrier (no SRH: the smaller
/// overhead, so the ideal stays a bound).
constexpr uint32_t kDataOverhead = MrcDataWireBytes(0);
/// Receiver virtual address of every pair's region (VerifyData).
constexpr uint64_t kRegionVa = 0x100000;
/// Numbers per transfer in a run record: post, acknowledgement, delivery, corrupt.
constexpr size_t kRecordFields = 4;
} // namespace

TypeId
MrcCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcCollective")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddAttribute("MessageSize",
                          "The collective's size S in bytes (per rank; see the subclass).",
                          UintegerValue(1 << 20),
                          MakeUintegerAccessor(&MrcCollective::m_size),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("QpsPerPeer",
                          "Queue pairs per ordered rank pair (0: the MrcHelper's default, "
                          "SetRoceV2Baseline's qpsPerPeer or 1).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcCollective::m_qpsPerPeer),
                          MakeUintegerChecker<uint32_t>(0, 1024))
            .AddAttribute("StartTime",
                          "Delay of ScheduleStart().",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcCollective::m_startDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("VerifyData",
                          "Carry real bytes: every WRITE holds a pattern of its run and index, "
                          "written into a region registered at the receiver, and is checked "
                          "byte for byte on delivery (GetCorruptTransfers). Costs memory.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcCollective::m_verifyData),
                          MakeBooleanChecker())
            .AddTraceSource("TransferComplete",
                            "A transfer was delivered whole: ranks, bytes, completion time.",
                            MakeTraceSourceAccessor(&MrcCollective::m_transferTrace),
                            "ns3::MrcCollective::TransferTracedCallback")
            .AddTraceSource("Done",
                            "A run ended: duration, failed.",
                            MakeTraceSourceAccessor(&MrcCollective::m_doneTrace),
                            "ns3::MrcCollective::DoneTracedCallback");
    return tid;
}

MrcCollective::MrcCollective()
{
    NS_LOG_FUNCTION(this);
}

MrcCollective::~MrcCollective()
{
    NS_LOG_FUNCTION(this);
}

void
MrcCollective::DoDispose()
{
    m_groups.clear();
    m_doneCallback = MakeNullCallback<void, Ptr<MrcCollective>>();
    m_shareCallback = MakeNullCallback<void, Ptr<MrcCollective>, bool>();
    Object::DoDispose();
}

uint32_t
MrcCollective::GetMinRanks() const
{
    return 2;
}

void
MrcCollective::DoSetup()
{
}

void
MrcCollective::Setup(Ptr<MrcFabricTopology> topo,
                     MrcHelper& mrc,
                     const std::vector<uint32_t>& hosts)
{
    NS_LOG_FUNCTION(this);
    if (hosts.size() < GetMinRanks())
    {
        throw std::invalid_argument(GetName() + ": hosts must hold at least "
                                    + std::to_string(GetMinRanks()) + " ranks, got "
                                    + std::to_string(hosts.size()));
    }
    std::set<uint32_t> seen;
    for (uint32_t h : hosts)
    {
        if (h >= topo->GetHostCount())
        {
            throw std::invalid_argument(GetName() + ": host " + std::to_string(h)
                                        + " out of range 0.."
                                        + std::to_string(topo->GetHostCount() - 1));
        }
        if (!seen.insert(h).second)
        {
            throw std::invalid_argument(GetName() + ": host " + std::to_string(h)
                                        + " appears twice in hosts");
        }
    }
    if (!m_groups.empty())
    {
        throw std::logic_error(GetName() + ": Setup called twice");
    }
    m_hosts = hosts;
    DoSetup();
    const std::optional<uint32_t> qps =
        m_qpsPerPeer == 0 ? std::nullopt : std::optional<uint32_t>(m_qpsPerPeer);
    for (auto [src, dst] : GetPeerPairs())
    {
        const uint32_t index = m_groups.size();
        Ptr<MrcQpGroup> group = mrc.ConnectGroup(m_hosts.at(src), m_hosts.at(dst), qps);
        group->SetSendCompleteCallback(
            MakeCallback(&MrcCollective::OnGroupComplete, this).Bind(index));
        group->SetReceiveCallback(MakeCallback(&MrcCollective::OnGroupReceive, this).Bind(index));
        for (uint32_t i = 0; i < group->GetSize(); ++i)
        {
            group->GetSender(i)->SetErrorCallback(MakeCallback(&MrcCollective::OnError, this));
            group->GetReceiver(i)->SetErrorCallback(MakeCallback(&MrcCollective::OnError, this));
        }
        if (m_verifyData)
        {
            m_regions.push_back(std::make_shared<std::vector<uint8_t>>());
            group->RegisterMemory(kRegionVa, m_regions.back());
        }
        m_groups.push_back(group);
        m_pairs.emplace_back(src, dst);
        m_pairIndex[{src, dst}] = index;
        m_links.push_back(topo->GetSwitchHops(m_hosts[src], m_hosts[dst]) + 1);
        m_maxLinks = std::max(m_maxLinks, m_links.back());
    }
    DataRateValue rate;
    topo->GetHostDevice(m_hosts[0], 0)->GetAttribute("DataRate", rate);
    TimeValue delay;
    topo->GetHostDevice(m_hosts[0], 0)->GetChannel()->GetAttribute("Delay", delay);
    UintegerValue mss(4096);
    if (!m_groups.empty())
    {
        m_groups[0]->GetSender(0)->GetAttribute("Mss", mss);
    }
    m_lineRate.emplace(static_cast<double>(rate.Get().GetBitRate()),
                       topo->GetSpec().planes,
                       delay.Get(),
                       mss.Get(),
                       kDataOverhead);
}

void
MrcCollective::ScheduleStart()
{
    Simulator::Schedule(m_startDelay, &MrcCollective::Start, this);
}

void
MrcCollective::Start()
{
    NS_LOG_FUNCTION(this);
    if (!m_lineRate)
    {
        throw std::logic_error(GetName() + ": Start before Setup");
    }
    if (m_running && !IsShareDelivered())
    {
        throw std::logic_error(GetName() + ": Start while a run is in progress");
    }
    m_transfers.clear();
    m_inFlight.clear();
    m_delivered = 0;
    m_acked = 0;
    m_corrupt = 0;
    m_cursor.assign(m_groups.size(), 0);
    m_pairSeq.assign(m_groups.size(), 0);
    m_run++;
    m_running = true;
    m_done = false;
    m_failed = false;
    m_failure.clear();
    m_start = Simulator::Now();
    m_end = Time(0);
    m_distributed = MrcRankLocality::IsDistributed();
    m_deliveriesHere = GetTransferCount();
    if (m_distributed)
    {
        ExpectRemoteTransfers();
    }
    ReportShareIfDelivered(); // this rank's hosts expect nothing
    DoStart();
    if (m_running && m_deliveriesHere == 0 && (!m_distributed || m_sendsHere == 0))
    {
        End(false);
    }
}

std::vector<std::vector<MrcCollective::PlannedTransfer>>
MrcCollective::GetPlan() const
{
    std::vector<std::vector<PlannedTransfer>> plan;
    for (auto [src, dst] : m_pairs)
    {
        plan.push_back(GetPlannedTransfers(src, dst));
    }
    return plan;
}

std::vector<MrcCollective::PlannedTransfer>
MrcCollective::GetPlannedTransfers(uint32_t src, uint32_t dst) const
{
    throw std::logic_error(GetName()
                           + " does not say which transfers it posts on a rank pair "
                             "(GetPlannedTransfers), so it cannot run on several ranks");
}

MrcCollective::Transfer
MrcCollective::NewTransfer(uint32_t pair, uint32_t seq, uint64_t bytes, uint32_t tag) const
{
    Transfer t;
    std::tie(t.src, t.dst) = m_pairs[pair];
    t.bytes = bytes;
    t.tag = tag;
    t.seq = seq;
    t.ideal = m_lineRate->Transfer(bytes, m_links[pair]);
    return t;
}

bool
MrcCollective::IsSenderHere(uint32_t pair) const
{
    return MrcRankLocality::IsLocal(m_groups[pair]->GetSender(0)->GetNode());
}

bool
MrcCollective::IsReceiverHere(uint32_t pair) const
{
    return MrcRankLocality::IsLocal(m_groups[pair]->GetReceiver(0)->GetNode());
}

uint64_t
MrcCollective::Reserve(uint32_t pair, uint64_t bytes)
{
    const uint64_t offset = m_cursor[pair];
    m_cursor[pair] += bytes;
    if (m_verifyData && bytes > 0)
    {
        auto& region = m_regions[pair];
        if (region->size() < m_cursor[pair])
        {
            region->resize(m_cursor[pair]);
        }
        std::fill(region->begin() + offset, region->begin() + offset + bytes, 0);
    }
    return offset;
}

void
MrcCollective::ExpectRemoteTransfers()
{
    m_plan = GetPlan();
    m_deliveriesHere = 0;
    m_sendsHere = 0;
    for (uint32_t pair = 0; pair < m_groups.size(); ++pair)
    {
        const bool sender = IsSenderHere(pair);
        const bool receiver = IsReceiverHere(pair);
        m_sendsHere += sender ? m_plan[pair].size() : 0;
        m_deliveriesHere += receiver ? m_plan[pair].size() : 0;
        if (sender || !receiver)
        {
            continue; // posted here (Post), or neither end is this rank's
        }
        for (uint32_t seq = 0; seq < m_plan[pair].size(); ++seq)
        {
            Transfer t = NewTransfer(pair, seq, m_plan[pair][seq].bytes, m_plan[pair][seq].tag);
            t.offset = Reserve(pair, t.bytes);
            m_inFlight[{pair, m_groups[pair]->ExpectWrite(t.bytes)}] = m_transfers.size();
            m_transfers.push_back(t);
        }
    }
    NS_LOG_INFO(GetName() << " on rank " << MrcRankLocality::GetRank() << ": " << m_sendsHere
                          << " transfers to post, " << m_deliveriesHere << " to receive");
}

uint32_t
MrcCollective::Post(uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag)
{
    auto it = m_pairIndex.find({src, dst});
    NS_ABORT_MSG_IF(it == m_pairIndex.end(),
                    GetName() << ": ranks " << src << " -> " << dst << " not connected");
    const uint32_t pair = it->second;
    const uint32_t seq = m_pairSeq[pair]++;
    if (m_distributed)
    {
        const auto& plan = m_plan[pair];
        NS_ABORT_MSG_IF(seq >= plan.size() || plan[seq].bytes != bytes || plan[seq].tag != tag,
                        GetName() << ": transfer " << seq << " of ranks " << src << " -> " << dst
                                  << " (" << bytes << " B, tag " << tag
                                  << ") is not the one GetPlannedTransfers announced");
        if (!IsSenderHere(pair))
        {
            return std::numeric_limits<uint32_t>::max(); // the sending host's rank posts it
        }
    }
    Transfer t = NewTransfer(pair, seq, bytes, tag);
    t.isPosted = true;
    t.posted = Simulator::Now();
    t.offset = Reserve(pair, bytes);
    const uint32_t index = m_transfers.size();
    m_transfers.push_back(t);
    std::shared_ptr<std::vector<uint8_t>> data;
    if (m_verifyData && bytes > 0)
    {
        data = Pattern(index);
    }
    const uint32_t msg =
        m_groups[pair]->PostWrite(bytes, kRegionVa + t.offset, 0, std::nullopt, data);
    m_inFlight[{pair, msg}] = index;
    NS_LOG_LOGIC(GetName() << " rank " << src << " -> " << dst << ": " << bytes << " B (tag " << tag
                           << ")");
    return index;
}

void
MrcCollective::OnGroupComplete(uint32_t pair, uint32_t msg)
{
    auto it = m_inFlight.find({pair, msg});
    if (!m_running || it == m_inFlight.end())
    {
        return;
    }
    const uint32_t index = it->second;
    Transfer& t = m_transfers[index];
    t.acked = Simulator::Now();
    t.isAcked = true;
    m_acked++;
    if (t.isDelivered)
    {
        m_inFlight.erase(it);
    }
    OnSendComplete(index);
    if (m_running && m_distributed && m_delivered == m_deliveriesHere && m_acked == m_sendsHere)
    {
        End(false);
    }
}

void
MrcCollective::OnGroupReceive(uint32_t pair,
                              uint32_t msg,
                              uint64_t bytes,
                              std::optional<uint32_t> imm)
{
    auto it = m_inFlight.find({pair, msg});
    if (!m_running || it == m_inFlight.end())
    {
        return;
    }
    const uint32_t index = it->second;
    Transfer& t = m_transfers[index];
    t.delivered = Simulator::Now();
    t.isDelivered = true;
    if (t.isAcked)
    {
        m_inFlight.erase(it);
    }
    m_delivered++;
    if (m_verifyData && t.bytes > 0)
    {
        const auto expected = Pattern(index);
        const auto& region = *m_regions[pair];
        if (!std::equal(expected->begin(), expected->end(), region.begin() + t.offset))
        {
            t.isCorrupt = true;
            m_corrupt++;
            NS_LOG_WARN(GetName() << ": transfer " << index << " (rank " << t.src << " -> " << t.dst
                                  << ") delivered wrong bytes");
        }
    }
    if (!m_distributed)
    {
        m_transferTrace(t.src, t.dst, t.bytes, t.delivered - t.posted);
    }
    OnDelivered(index);
    ReportShareIfDelivered();
    if (m_running && m_delivered == m_deliveriesHere && (!m_distributed || m_acked == m_sendsHere))
    {
        End(false);
    }
}

void
MrcCollective::OnError(std::string reason)
{
    NS_LOG_WARN(GetName() << ": queue pair error: " << reason);
    if (m_running)
    {
        m_failure = reason;
        End(true);
        if (m_distributed && !m_shareCallback.IsNull())
        {
            m_shareCallback(this, true);
        }
    }
}

void
MrcCollective::End(bool failed)
{
    m_running = false;
    m_done = true;
    m_failed = failed;
    m_end = Simulator::Now();
    NS_LOG_INFO(GetName() << " run ended after " << (m_end - m_start).As(Time::US)
                          << (failed ? " (failed)" : ""));
    if (m_distributed)
    {
        return; // this rank's share only: MrcDistributed::GatherCollective has the run
    }
    m_doneTrace(m_end - m_start, failed);
    if (!m_doneCallback.IsNull())
    {
        m_doneCallback(this);
    }
}

std::shared_ptr<std::vector<uint8_t>>
MrcCollective::Pattern(uint32_t index) const
{
    const Transfer& t = m_transfers[index];
    const uint32_t pair = m_pairIndex.at({t.src, t.dst});
    auto data = std::make_shared<std::vector<uint8_t>>(t.bytes);
    // xorshift32 seeded by run, pair and number: cheap, differs from transfer to transfer, and
    // the same on the sending and the receiving rank of a distributed run.
    uint32_t x = (m_run * 2654435761U) ^ (pair * 40503U + 0x9e3779b9U) ^ (t.seq * 69069U);
    x = (x == 0) ? 1 : x;
    for (auto& byte : *data)
    {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        byte = static_cast<uint8_t>(x);
    }
    return data;
}

std::vector<int64_t>
MrcCollective::GetRunRecord(Time until) const
{
    // Time plus one, or 0 if not seen here or after `until`.
    auto stamp = [until](bool seen, Time at) -> int64_t {
        return seen && at <= until ? at.GetTimeStep() + 1 : 0;
    };
    const auto plan = GetPlan();
    std::vector<size_t> base;
    size_t count = 0;
    for (const auto& transfers : plan)
    {
        base.push_back(count);
        count += transfers.size();
    }
    std::vector<int64_t> record(count * kRecordFields + 2, 0);
    for (const Transfer& t : m_transfers)
    {
        const uint32_t pair = m_pairIndex.at({t.src, t.dst});
        if (t.seq >= plan[pair].size())
        {
            continue; // not announced: MergeRunRecords would not know it either
        }
        int64_t* r = &record[(base[pair] + t.seq) * kRecordFields];
        r[0] = stamp(t.isPosted, t.posted);
        r[1] = stamp(t.isAcked, t.acked);
        r[2] = stamp(t.isDelivered, t.delivered);
        r[3] = t.isCorrupt && r[2] > 0 ? 1 : 0;
    }
    // The earliest failure wins the maximum.
    const bool failed = m_failed && m_end <= until;
    record[count * kRecordFields] = failed ? 1 : 0;
    record[count * kRecordFields + 1] =
        failed ? std::numeric_limits<int64_t>::max() - m_end.GetTimeStep() : 0;
    return record;
}

void
MrcCollective::MergeRunRecords(const std::vector<int64_t>& merged)
{
    const auto plan = GetPlan();
    size_t count = 0;
    for (const auto& transfers : plan)
    {
        count += transfers.size();
    }
    if (merged.size() != count * kRecordFields + 2)
    {
        throw std::invalid_argument(GetName() + ": MergeRunRecords: the record holds "
                                    + std::to_string(merged.size()) + " numbers, this run's "
                                    + std::to_string(count * kRecordFields + 2));
    }
    std::vector<Transfer> all;
    const int64_t* r = merged.data();
    for (uint32_t pair = 0; pair < plan.size(); ++pair)
    {
        uint64_t offset = 0;
        for (uint32_t seq = 0; seq < plan[pair].size(); ++seq, r += kRecordFields)
        {
            Transfer t = NewTransfer(pair, seq, plan[pair][seq].bytes, plan[pair][seq].tag);
            t.offset = offset;
            offset += t.bytes;
            t.isPosted = r[0] > 0;
            t.posted = TimeStep(std::max<int64_t>(r[0] - 1, 0));
            t.isAcked = r[1] > 0;
            t.acked = TimeStep(std::max<int64_t>(r[1] - 1, 0));
            t.isDelivered = r[2] > 0;
            t.delivered = TimeStep(std::max<int64_t>(r[2] - 1, 0));
            t.isCorrupt = r[3] > 0;
            all.push_back(t);
        }
    }
    // Post order, as one process records them (same-time posts: by pair, then number).
    std::stable_sort(all.begin(), all.end(), [](const Transfer& a, const Transfer& b) {
        return std::make_pair(!a.isPosted, a.posted) < std::make_pair(!b.isPosted, b.posted);
    });
    m_transfers = std::move(all);
    m_inFlight.clear();
    m_delivered = 0;
    m_acked = 0;
    m_corrupt = 0;
    Time last(0);
    for (const Transfer& t : m_transfers)
    {
        m_delivered += t.isDelivered ? 1 : 0;
        m_acked += t.isAcked ? 1 : 0;
        m_corrupt += t.isCorrupt ? 1 : 0;
        last = t.isDelivered ? std::max(last, t.delivered) : last;
    }
    const bool failed = merged[count * kRecordFields] > 0;
    m_running = false;
    m_failed = failed;
    m_done = failed || m_delivered == m_transfers.size();
    if (failed)
    {
        m_end = TimeStep(std::numeric_limits<int64_t>::max() - merged[count * kRecordFields + 1]);
        if (m_failure.empty())
        {
            m_failure = "a queue pair error on another rank (see that rank's log)";
        }
    }
    else
    {
        m_end = m_done ? last : Time(0);
    }
}

uint32_t
MrcCollective::GetCorruptTransfers() const
{
    return m_corrupt;
}

void
MrcCollective::OnSendComplete(uint32_t index)
{
}

void
MrcCollective::OnDelivered(uint32_t index)
{
}

bool
MrcCollective::IsShareDelivered() const
{
    return m_distributed && m_delivered == m_deliveriesHere;
}

void
MrcCollective::ReportShareIfDelivered()
{
    if (IsShareDelivered() && !m_shareCallback.IsNull())
    {
        m_shareCallback(this, false);
    }
}

void
MrcCollective::SetRankShareCallback(Callback<void, Ptr<MrcCollective>, bool> cb)
{
    m_shareCallback = cb;
}

void
MrcCollective::SetDoneCallback(Callback<void, Ptr<MrcCollective>> cb)
{
    m_doneCallback = cb;
}

uint32_t
MrcCollective::GetRankCount() const
{
    return m_hosts.size();
}

uint32_t
MrcCollective::GetHost(uint32_t rank) const
{
    return m_hosts.at(rank);
}

uint64_t
MrcCollective::GetMessageSize() const
{
    return m_size;
}

bool
MrcCollective::IsRunning() const
{
    return m_running;
}

bool
MrcCollective::IsDone() const
{
    return m_done;
}

bool
MrcCollective::HasFailed() const
{
    return m_failed;
}

std::string
MrcCollective::GetFailure() const
{
    return m_failure;
}

Time
MrcCollective::GetStartTime() const
{
    return m_start;
}

Time
MrcCollective::GetEndTime() const
{
    return m_end;
}

Time
MrcCollective::GetDuration() const
{
    return m_done ? m_end - m_start : Time(0);
}

const std::vector<MrcCollective::Transfer>&
MrcCollective::GetTransfers() const
{
    return m_transfers;
}

std::vector<Time>
MrcCollective::GetTransferTimes() const
{
    std::vector<Time> times;
    for (const auto& t : m_transfers)
    {
        if (t.isDelivered)
        {
            times.push_back(t.delivered - t.posted);
        }
    }
    return times;
}

uint64_t
MrcCollective::GetReceivedBytes(uint32_t rank) const
{
    uint64_t bytes = 0;
    for (const auto& t : m_transfers)
    {
        bytes += (t.dst == rank && t.isDelivered) ? t.bytes : 0;
    }
    return bytes;
}

uint64_t
MrcCollective::GetSentBytes(uint32_t rank) const
{
    uint64_t bytes = 0;
    for (const auto& t : m_transfers)
    {
        bytes += (t.src == rank && t.isAcked) ? t.bytes : 0;
    }
    return bytes;
}

const MrcLineRateModel&
MrcCollective::GetLineRate() const
{
    if (!m_lineRate)
    {
        throw std::logic_error(GetName() + ": line rate asked before Setup");
    }
    return *m_lineRate;
}

uint32_t
MrcCollective::GetMaxLinks() const
{
    return m_maxLinks;
}

uint32_t
MrcCollective::GetLinks(uint32_t src, uint32_t dst) const
{
    auto it = m_pairIndex.find({src, dst});
    if (it == m_pairIndex.end())
    {
        throw std::out_of_range(GetName() + ": ranks " + std::to_string(src) + " and "
                                + std::to_string(dst) + " are not connected");
    }
    return m_links[it->second];
}

Ptr<MrcQpGroup>
MrcCollective::GetGroup(uint32_t src, uint32_t dst) const
{
    auto it = m_pairIndex.find({src, dst});
    return it == m_pairIndex.end() ? nullptr : m_groups[it->second];
}

std::vector<std::pair<uint32_t, uint32_t>>
MrcCollective::GetPairs() const
{
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (const auto& [pair, index] : m_pairIndex)
    {
        pairs.push_back(pair);
    }
    return pairs;
}

} // namespace ns3
