/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-trimming-queue-disc.h"

#include "mrc-dscp.h"
#include "mrc-index-list.h"
#include "mrc-packet-trimmer.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <limits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcTrimmingQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(MrcTrimmingQueueDisc);

TypeId
MrcTrimmingQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcTrimmingQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcTrimmingQueueDisc>()
            .AddAttribute("DataMaxSize",
                          "Limit of the data queue (bytes or packets).",
                          QueueSizeValue(QueueSize("512KiB")),
                          MakeQueueSizeAccessor(&MrcTrimmingQueueDisc::m_dataMaxSize),
                          MakeQueueSizeChecker())
            .AddAttribute("PriorityMaxSize",
                          "Limit of the priority queue (control packets and trimmed headers). "
                          "Switches give it a share of the shared buffer; 1 MiB holds the "
                          "headers of a 64-to-1 line-rate incast of 200 KB per sender.",
                          QueueSizeValue(QueueSize("1MiB")),
                          MakeQueueSizeAccessor(&MrcTrimmingQueueDisc::m_priorityMaxSize),
                          MakeQueueSizeChecker())
            .AddAttribute("TrimmingEnabled",
                          "Trim data packets that do not fit (true) or drop them (false).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcTrimmingQueueDisc::m_trimmingEnabled),
                          MakeBooleanChecker())
            .AddAttribute("TrimSize",
                          "Bytes a trimmed packet keeps, counting the IP header (SONiC's minimum "
                          "is 256, SAI's default 128). At least 48 (IPv6 + UDP).",
                          UintegerValue(256),
                          MakeUintegerAccessor(&MrcTrimmingQueueDisc::m_trimSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ControlDscp",
                          "DSCP of control packets (ACK, SACK, NACK, probes): priority queue.",
                          UintegerValue(MrcDscp::kControl),
                          MakeUintegerAccessor(&MrcTrimmingQueueDisc::m_controlDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("TrimmedDscp",
                          "DSCP written on packets trimmed at this port (fabric port).",
                          UintegerValue(MrcDscp::kTrimmed),
                          MakeUintegerAccessor(&MrcTrimmingQueueDisc::m_trimmedDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("TrimmedLastHopDscp",
                          "DSCP written on packets trimmed at a host-facing port (LastHop).",
                          UintegerValue(MrcDscp::kTrimmedLastHop),
                          MakeUintegerAccessor(&MrcTrimmingQueueDisc::m_trimmedLastHopDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("LastHop",
                          "This port faces a host: trims are marked TrimmedLastHopDscp.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcTrimmingQueueDisc::m_lastHop),
                          MakeBooleanChecker())
            .AddAttribute("TrimmableDscps",
                          "Comma-separated DSCPs (0..63) of the traffic classes that are "
                          "trimmed on overflow, or \"*\" for every class; others are dropped. "
                          "Default: MrcQueuePair's DataDscp and RetransmitDscp (26, 30), so "
                          "other transports (TCP, UDP) see drops, as on a switch that trims only "
                          "the trimming-aware class.",
                          StringValue("26,30"),
                          MakeStringAccessor(&MrcTrimmingQueueDisc::m_trimmable),
                          MakeStringChecker())
            .AddAttribute("NonTrimmableDscps",
                          "Comma-separated DSCPs (0..63) that are dropped, never trimmed.",
                          StringValue(""),
                          MakeStringAccessor(&MrcTrimmingQueueDisc::m_nonTrimmable),
                          MakeStringChecker())
            .AddAttribute("VictimTrimProbability",
                          "Probability that a full data queue trims its tail packet and admits "
                          "the arrival, instead of trimming the arrival (NDP uses 0.5).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&MrcTrimmingQueueDisc::m_victimProbability),
                          MakeDoubleChecker<double>())
            .AddAttribute("StrictPriority",
                          "Serve the priority queue first (true) or by weighted round robin.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcTrimmingQueueDisc::m_strictPriority),
                          MakeBooleanChecker())
            .AddAttribute("PriorityWeight",
                          "Weighted round robin: packets served from the priority queue per turn.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MrcTrimmingQueueDisc::m_priorityWeight),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("DataWeight",
                          "Weighted round robin: packets served from the data queue per turn.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MrcTrimmingQueueDisc::m_dataWeight),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcnEnabled",
                          "CE-mark ECN-capable data packets (false on MRC's last hop).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcTrimmingQueueDisc::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("EcnMinTh",
                          "Data queue bytes below which nothing is marked.",
                          UintegerValue(64 * 1024),
                          MakeUintegerAccessor(&MrcTrimmingQueueDisc::m_ecnMinTh),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcnMaxTh",
                          "Data queue bytes at or above which every ECN-capable packet is marked.",
                          UintegerValue(256 * 1024),
                          MakeUintegerAccessor(&MrcTrimmingQueueDisc::m_ecnMaxTh),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcnMaxP",
                          "Marking probability just below EcnMaxTh.",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&MrcTrimmingQueueDisc::m_ecnMaxP),
                          MakeDoubleChecker<double>())
            .AddAttribute("MarkAtDequeue",
                          "Mark when a packet leaves (true) instead of when it arrives.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcTrimmingQueueDisc::m_markAtDequeue),
                          MakeBooleanChecker())
            .AddTraceSource("Trim",
                            "A packet was trimmed: original, trimmed, whether it was a victim.",
                            MakeTraceSourceAccessor(&MrcTrimmingQueueDisc::m_trimTrace),
                            "ns3::MrcTrimmingQueueDisc::TrimTracedCallback");
    return tid;
}

MrcTrimmingQueueDisc::MrcTrimmingQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::NO_LIMITS)
{
    NS_LOG_FUNCTION(this);
    m_uv = CreateObject<UniformRandomVariable>();
}

MrcTrimmingQueueDisc::~MrcTrimmingQueueDisc() = default;

void
MrcTrimmingQueueDisc::DoDispose()
{
    m_uv = nullptr;
    m_priorityQueue = nullptr;
    m_dataQueue = nullptr;
    m_substitute.clear();
    QueueDisc::DoDispose();
}

const MrcTrimmingQueueDisc::TrimStats&
MrcTrimmingQueueDisc::GetTrimStats() const
{
    return m_trimStats;
}

int64_t
MrcTrimmingQueueDisc::AssignStreams(int64_t stream)
{
    m_uv->SetStream(stream);
    return 1;
}

std::bitset<64>
MrcTrimmingQueueDisc::ParseDscpList(const std::string& field, const std::string& list)
{
    std::bitset<64> set;
    const size_t first = list.find_first_not_of(' ');
    if (first != std::string::npos && list[first] == '*'
        && list.find_first_not_of(' ', first + 1) == std::string::npos)
    {
        return set.set(); // every DSCP
    }
    const auto values = MrcParseIndexList(list, 63);
    if (!values)
    {
        throw std::invalid_argument("MrcTrimmingQueueDisc: " + field + " (=\"" + list
                                    + "\") must be a comma-separated list of DSCPs in 0..63"
                                    + (field == "TrimmableDscps" ? " or *" : ""));
    }
    for (uint32_t v : *values)
    {
        set.set(v);
    }
    return set;
}

bool
MrcTrimmingQueueDisc::IsTrimmable(std::optional<uint8_t> dscp) const
{
    return dscp && m_trimmableSet.test(*dscp) && !m_nonTrimmableSet.test(*dscp);
}

bool
MrcTrimmingQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    auto reject = [](const std::string& what) {
        throw std::invalid_argument("MrcTrimmingQueueDisc: " + what);
    };
    if (GetNQueueDiscClasses() > 0 || GetNPacketFilters() > 0)
    {
        reject("takes no queue disc classes and no packet filters (it classifies by DSCP)");
    }
    if (GetNInternalQueues() > 0)
    {
        reject("creates its own internal queues; do not add any");
    }
    if (m_dataMaxSize.GetValue() == 0)
    {
        reject("DataMaxSize must be > 0");
    }
    if (m_priorityMaxSize.GetValue() == 0)
    {
        reject("PriorityMaxSize must be > 0");
    }
    if (m_trimSize < MrcPacketTrimmer::kMinTrimSize || m_trimSize > 65535)
    {
        reject("TrimSize (=" + std::to_string(m_trimSize) + ") must be in "
               + std::to_string(MrcPacketTrimmer::kMinTrimSize) + "..65535 (IPv6 + UDP headers)");
    }
    if (!(m_victimProbability >= 0.0 && m_victimProbability <= 1.0))
    {
        reject("VictimTrimProbability (=" + std::to_string(m_victimProbability)
               + ") must be in [0, 1]");
    }
    if (!m_strictPriority && (m_priorityWeight == 0 || m_dataWeight == 0))
    {
        reject("PriorityWeight and DataWeight must be >= 1 for weighted round robin");
    }
    m_trimmableSet = ParseDscpList("TrimmableDscps", m_trimmable);
    m_nonTrimmableSet = ParseDscpList("NonTrimmableDscps", m_nonTrimmable);
    m_marker.reset();
    if (m_ecnEnabled)
    {
        try
        {
            m_marker.emplace(m_ecnMinTh, m_ecnMaxTh, m_ecnMaxP);
        }
        catch (const std::invalid_argument& e)
        {
            reject(e.what());
        }
    }
    // The priority queue's limit counts trimmed packets at their trimmed size (see
    // EnqueuePriority), so the internal queue itself is unbounded.
    auto priority = CreateObject<DropTailQueue<QueueDiscItem>>();
    priority->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, std::numeric_limits<uint32_t>::max()));
    AddInternalQueue(priority);
    m_priorityQueue = priority;
    m_dataQueue = CreateObject<MrcTrimmingDataQueue>();
    m_dataQueue->SetMaxSize(m_dataMaxSize);
    AddInternalQueue(m_dataQueue);
    return true;
}

void
MrcTrimmingQueueDisc::InitializeParams()
{
    m_wrrCredit = m_priorityWeight;
    m_wrrServingPriority = true;
}

bool
MrcTrimmingQueueDisc::IsPriority(std::optional<uint8_t> dscp) const
{
    return dscp
           && (*dscp == m_controlDscp || *dscp == m_trimmedDscp || *dscp == m_trimmedLastHopDscp);
}

bool
MrcTrimmingQueueDisc::Fits(Ptr<InternalQueue> queue, Ptr<const QueueDiscItem> item)
{
    const QueueSize max = queue->GetMaxSize();
    if (max.GetUnit() == QueueSizeUnit::PACKETS)
    {
        return queue->GetNPackets() + 1 <= max.GetValue();
    }
    return queue->GetNBytes() + item->GetSize() <= max.GetValue();
}

void
MrcTrimmingQueueDisc::MaybeMark(Ptr<QueueDiscItem> item)
{
    if (m_marker && m_uv->GetValue() < m_marker->GetProbability(m_dataQueue->GetNBytes()))
    {
        // Mark() only succeeds on ECN-capable packets; it counts under kMarkEcn when it does.
        Mark(item, kMarkEcn);
    }
}

bool
MrcTrimmingQueueDisc::PriorityFits(uint32_t bytes) const
{
    if (m_priorityMaxSize.GetUnit() == QueueSizeUnit::PACKETS)
    {
        return m_priorityPackets + 1 <= m_priorityMaxSize.GetValue();
    }
    return m_priorityBytes + bytes <= m_priorityMaxSize.GetValue();
}

Ptr<const QueueDiscItem>
MrcTrimmingQueueDisc::Content(Ptr<const QueueDiscItem> item) const
{
    auto it = m_substitute.find(PeekPointer(item));
    return it == m_substitute.end() ? item : Ptr<const QueueDiscItem>(it->second);
}

bool
MrcTrimmingQueueDisc::EnqueuePriority(Ptr<QueueDiscItem> item, Ptr<QueueDiscItem> substitute)
{
    const uint32_t bytes = (substitute ? substitute : item)->GetSize();
    if (!PriorityFits(bytes))
    {
        NS_LOG_LOGIC("priority queue full");
        DropBeforeEnqueue(item, kDropPriorityFull);
        return false;
    }
    if (substitute)
    {
        m_substitute[PeekPointer(item)] = substitute;
    }
    m_priorityBytes += bytes;
    m_priorityPackets++;
    return m_priorityQueue->Enqueue(item);
}

bool
MrcTrimmingQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    const std::optional<uint8_t> dscp = MrcPacketTrimmer::GetDscp(item);
    if (IsPriority(dscp))
    {
        return EnqueuePriority(item, nullptr);
    }
    if (Fits(m_dataQueue, item))
    {
        if (!m_markAtDequeue)
        {
            MaybeMark(item);
        }
        return m_dataQueue->Enqueue(item);
    }
    if (!m_trimmingEnabled || !IsTrimmable(dscp))
    {
        DropBeforeEnqueue(item, kDropNotTrimmable);
        return false;
    }
    const uint8_t trimmedDscp = m_lastHop ? m_trimmedLastHopDscp : m_trimmedDscp;
    // QueueDisc requires every received packet to be enqueued or dropped whole, so trims are
    // done by substitution: the queued item keeps its size in the queue disc's counters and
    // the packet that leaves is its substitute.
    if (m_victimProbability > 0 && !m_dataQueue->IsEmpty()
        && m_uv->GetValue() < m_victimProbability)
    {
        // NDP: the most recent queued packet is trimmed and its header goes first; the arrival
        // takes its place in the data queue.
        Ptr<QueueDiscItem> tail = ConstCast<QueueDiscItem>(m_dataQueue->PeekTail());
        Ptr<const QueueDiscItem> content = Content(tail);
        const auto tailDscp = MrcPacketTrimmer::GetDscp(content);
        Ptr<QueueDiscItem> header = MrcPacketTrimmer::Trim(content, m_trimSize, trimmedDscp);
        if (header && IsTrimmable(tailDscp) && PriorityFits(header->GetSize()))
        {
            m_trimStats.trimmed++;
            m_trimStats.victims++;
            m_trimStats.bytesRemoved += content->GetSize() - header->GetSize();
            m_trimTrace(content, header, true);
            m_substitute[PeekPointer(tail)] = item;
            return EnqueuePriority(item, header);
        }
    }
    Ptr<QueueDiscItem> header = MrcPacketTrimmer::Trim(item, m_trimSize, trimmedDscp);
    if (!header)
    {
        DropBeforeEnqueue(item, kDropNotTrimmable); // not an IP packet
        return false;
    }
    if (!PriorityFits(header->GetSize()))
    {
        DropBeforeEnqueue(item, kDropPriorityFull);
        return false;
    }
    m_trimStats.trimmed++;
    m_trimStats.bytesRemoved += item->GetSize() - header->GetSize();
    m_trimTrace(item, header, false);
    NS_LOG_LOGIC("trimmed " << item->GetSize() << " -> " << header->GetSize() << " B, DSCP "
                            << unsigned(trimmedDscp));
    return EnqueuePriority(item, header);
}

Ptr<QueueDiscItem>
MrcTrimmingQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    // m_priorityPackets is the priority queue's length: an empty one is not read (a cache miss
    // per packet on a busy fabric, where it is nearly always empty).
    NS_ASSERT(m_priorityPackets == m_priorityQueue->GetNPackets());
    Ptr<QueueDiscItem> item;
    bool fromPriority = false;
    if (m_strictPriority)
    {
        fromPriority = m_priorityPackets > 0;
        item = fromPriority ? m_priorityQueue->Dequeue() : m_dataQueue->Dequeue();
    }
    else
    {
        // Weighted round robin in packets; an empty queue yields its turn.
        for (int attempt = 0; attempt < 2 && !item; ++attempt)
        {
            if (m_wrrServingPriority)
            {
                item = m_priorityPackets > 0 ? m_priorityQueue->Dequeue() : nullptr;
            }
            else
            {
                item = m_dataQueue->Dequeue();
            }
            fromPriority = item && m_wrrServingPriority;
            if (item && --m_wrrCredit > 0)
            {
                break;
            }
            m_wrrServingPriority = !m_wrrServingPriority;
            m_wrrCredit = m_wrrServingPriority ? m_priorityWeight : m_dataWeight;
        }
    }
    if (!item)
    {
        return nullptr;
    }
    Ptr<QueueDiscItem> out = item;
    if (!m_substitute.empty())
    {
        auto it = m_substitute.find(PeekPointer(item));
        if (it != m_substitute.end())
        {
            out = it->second;
            m_substitute.erase(it);
        }
    }
    if (fromPriority)
    {
        m_priorityBytes -= out->GetSize();
        m_priorityPackets--;
    }
    else if (m_markAtDequeue)
    {
        MaybeMark(out);
    }
    return out;
}

} // namespace ns3
