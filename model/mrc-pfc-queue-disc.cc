/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-pfc-queue-disc.h"

#include "mrc-packet-trimmer.h"
#include "mrc-pfc-tag.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/uinteger.h"

#include <limits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcPfcQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(MrcPfcQueueDisc);

namespace
{
constexpr uint32_t kBands = MrcPfcPauseHeader::kPriorities; //!< one FIFO per priority
} // namespace

TypeId
MrcPfcQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcPfcQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcPfcQueueDisc>()
            .AddAttribute("LossyMaxSize",
                          "Limit of each lossy priority's FIFO (bytes or packets); lossless "
                          "priorities have none (PFC bounds them).",
                          QueueSizeValue(QueueSize("512KiB")),
                          MakeQueueSizeAccessor(&MrcPfcQueueDisc::m_lossyMaxSize),
                          MakeQueueSizeChecker())
            .AddAttribute("EcnEnabled",
                          "CE-mark ECN-capable packets (DCQCN's congestion signal).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcPfcQueueDisc::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("EcnMinTh",
                          "Bytes queued in the packet's priority below which nothing is marked.",
                          UintegerValue(64 * 1024),
                          MakeUintegerAccessor(&MrcPfcQueueDisc::m_ecnMinTh),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcnMaxTh",
                          "Bytes at or above which every ECN-capable packet is marked.",
                          UintegerValue(256 * 1024),
                          MakeUintegerAccessor(&MrcPfcQueueDisc::m_ecnMaxTh),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcnMaxP",
                          "Marking probability just below EcnMaxTh.",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&MrcPfcQueueDisc::m_ecnMaxP),
                          MakeDoubleChecker<double>());
    return tid;
}

MrcPfcQueueDisc::MrcPfcQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::NO_LIMITS)
{
    NS_LOG_FUNCTION(this);
    m_uv = CreateObject<UniformRandomVariable>();
}

MrcPfcQueueDisc::~MrcPfcQueueDisc() = default;

void
MrcPfcQueueDisc::DoDispose()
{
    if (m_port)
    {
        m_port->SetResumeCallback(Callback<void>());
    }
    m_port = nullptr;
    m_node = nullptr;
    m_uv = nullptr;
    QueueDisc::DoDispose();
}

int64_t
MrcPfcQueueDisc::AssignStreams(int64_t stream)
{
    m_uv->SetStream(stream);
    return 1;
}

uint8_t
MrcPfcQueueDisc::Classify(Ptr<const QueueDiscItem> item) const
{
    const std::optional<uint8_t> dscp = MrcPacketTrimmer::GetDscp(item);
    if (!dscp)
    {
        return 0;
    }
    return m_port ? m_port->GetPriority(*dscp) : static_cast<uint8_t>(*dscp >> 3);
}

uint32_t
MrcPfcQueueDisc::GetNPackets(uint8_t priority) const
{
    if (priority >= kBands || GetNInternalQueues() != kBands)
    {
        return 0;
    }
    return GetInternalQueue(priority)->GetNPackets();
}

bool
MrcPfcQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    auto reject = [](const std::string& what) {
        throw std::invalid_argument("MrcPfcQueueDisc: " + what);
    };
    if (GetNQueueDiscClasses() > 0 || GetNPacketFilters() > 0)
    {
        reject("takes no queue disc classes and no packet filters (it classifies by DSCP)");
    }
    if (GetNInternalQueues() > 0)
    {
        reject("creates its own internal queues; do not add any");
    }
    if (m_lossyMaxSize.GetValue() == 0)
    {
        reject("LossyMaxSize must be > 0");
    }
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
    for (uint32_t b = 0; b < kBands; ++b)
    {
        // Limits are applied in DoEnqueue (they depend on whether the priority is lossless).
        auto q = CreateObject<DropTailQueue<QueueDiscItem>>();
        q->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, std::numeric_limits<uint32_t>::max()));
        AddInternalQueue(q);
    }
    return true;
}

void
MrcPfcQueueDisc::InitializeParams()
{
}

void
MrcPfcQueueDisc::Bind()
{
    if (m_bound)
    {
        return;
    }
    m_bound = true;
    Ptr<NetDeviceQueueInterface> ndqi = GetNetDeviceQueueInterface();
    if (!ndqi)
    {
        return;
    }
    Ptr<NetDevice> device = ndqi->GetObject<NetDevice>();
    m_node = device ? PeekPointer(device->GetNode()) : nullptr;
    m_port = ndqi->GetObject<MrcPfcPort>();
    if (m_port)
    {
        m_port->SetResumeCallback(MakeCallback(&MrcPfcQueueDisc::OnResume, this));
    }
}

void
MrcPfcQueueDisc::OnResume()
{
    NS_LOG_FUNCTION(this);
    for (uint8_t b = 0; b < kBands; ++b)
    {
        while (IsDropping(b) && !GetInternalQueue(b)->IsEmpty())
        {
            Ptr<QueueDiscItem> item = GetInternalQueue(b)->Dequeue();
            if (Ptr<MrcPfcPort> in = IngressPort(item))
            {
                in->NotifyEgress(b, item->GetSize());
            }
            DropAfterDequeue(item, kDropWatchdog);
        }
    }
    Run();
}

bool
MrcPfcQueueDisc::IsDropping(uint8_t priority) const
{
    return m_port && m_port->IsStuck(priority)
           && m_port->GetWatchdogAction() == MrcPfcPort::WatchdogAction::DROP;
}

Ptr<MrcPfcPort>
MrcPfcQueueDisc::IngressPort(Ptr<const QueueDiscItem> item) const
{
    MrcPfcTag tag;
    if (!m_node || !item->GetPacket()->PeekPacketTag(tag)
        || tag.GetKind() != MrcPfcTag::Kind::INGRESS || tag.GetIfIndex() >= m_node->GetNDevices())
    {
        return nullptr;
    }
    return m_node->GetDevice(tag.GetIfIndex())->GetObject<MrcPfcPort>();
}

bool
MrcPfcQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    Bind();
    const uint8_t priority = Classify(item);
    Ptr<InternalQueue> queue = GetInternalQueue(priority);
    if (IsDropping(priority))
    {
        DropBeforeEnqueue(item, kDropWatchdog);
        return false;
    }
    const bool lossless = m_port && m_port->IsLossless(priority);
    if (!lossless)
    {
        const bool full = m_lossyMaxSize.GetUnit() == QueueSizeUnit::PACKETS
                              ? queue->GetNPackets() + 1 > m_lossyMaxSize.GetValue()
                              : queue->GetNBytes() + item->GetSize() > m_lossyMaxSize.GetValue();
        if (full)
        {
            DropBeforeEnqueue(item, kDropLossyFull);
            return false;
        }
    }
    if (m_marker && m_uv->GetValue() < m_marker->GetProbability(queue->GetNBytes()))
    {
        Mark(item, kMarkEcn); // only ECN-capable packets; counted when it succeeds
    }
    if (!queue->Enqueue(item))
    {
        return false; // unbounded: does not happen
    }
    if (Ptr<MrcPfcPort> in = IngressPort(item))
    {
        in->NotifyIngress(priority, item->GetSize());
    }
    return true;
}

int
MrcPfcQueueDisc::NextBand() const
{
    for (int b = kBands - 1; b >= 0; --b)
    {
        if (!GetInternalQueue(b)->IsEmpty() && !(m_port && m_port->IsPaused(b)))
        {
            return b;
        }
    }
    return -1;
}

Ptr<QueueDiscItem>
MrcPfcQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    Bind();
    const int band = NextBand();
    if (band < 0)
    {
        return nullptr;
    }
    Ptr<QueueDiscItem> item = GetInternalQueue(band)->Dequeue();
    if (Ptr<MrcPfcPort> in = IngressPort(item))
    {
        in->NotifyEgress(static_cast<uint8_t>(band), item->GetSize());
    }
    return item;
}

Ptr<const QueueDiscItem>
MrcPfcQueueDisc::DoPeek()
{
    const int band = NextBand();
    return band < 0 ? nullptr : GetInternalQueue(band)->Peek();
}

} // namespace ns3
