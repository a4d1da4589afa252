/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-pfc-port.h"

#include "mrc-fabric-channel.h"
#include "mrc-header-types.h"
#include "mrc-index-list.h"
#include "mrc-pfc-tag.h"

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcPfcPort");

NS_OBJECT_ENSURE_REGISTERED(MrcPfcPort);

namespace
{
/// PPP header bytes on every frame.
constexpr uint32_t kPppBytes = 2;
} // namespace

MrcPfcPort::MrcPfcPort()
{
    NS_LOG_FUNCTION(this);
}

MrcPfcPort::~MrcPfcPort() = default;

void
MrcPfcPort::DoDispose()
{
    for (uint32_t p = 0; p < N; ++p)
    {
        m_refresh[p].Cancel();
        m_expiry[p].Cancel();
        m_watchdog[p].Cancel();
        m_restore[p].Cancel();
    }
    m_device = nullptr;
    m_buffer = nullptr;
    m_resume = Callback<void>();
    Object::DoDispose();
}

void
MrcPfcPort::DoInitialize()
{
    Configure();
    Object::DoInitialize();
}

void
MrcPfcPort::CheckPriority(uint8_t priority)
{
    if (priority >= N)
    {
        throw std::invalid_argument("MrcPfcPort: priority (=" + std::to_string(priority)
                                    + ") must be in 0..7");
    }
}

std::bitset<MrcPfcPauseHeader::kPriorities>
MrcPfcPort::ParsePriorities(const std::string& list)
{
    const auto values = MrcParseIndexList(list, N - 1);
    if (!values)
    {
        throw std::invalid_argument("MrcPfcPort: LosslessPriorities (=\"" + list
                                    + "\") must be a comma-separated list of priorities "
                                      "in 0..7");
    }
    std::bitset<N> set;
    for (uint32_t v : *values)
    {
        set.set(v);
    }
    return set;
}

std::array<uint8_t, 64>
MrcPfcPort::ParseDscpMap(const std::string& text)
{
    std::array<uint8_t, 64> map;
    for (uint32_t d = 0; d < map.size(); ++d)
    {
        map[d] = static_cast<uint8_t>(d >> 3);
    }
    const auto fail = [&text]() {
        return std::invalid_argument("MrcPfcPort: PriorityOfDscp (=\"" + text
                                     + "\") must be comma-separated dscp:priority pairs, DSCP in "
                                       "0..63, priority in 0..7 (e.g. \"26:3,48:6\")");
    };
    if (text.find_first_not_of(' ') == std::string::npos)
    {
        return map; // empty: the class-selector map
    }
    std::istringstream in(text);
    std::string pair;
    while (std::getline(in, pair, ','))
    {
        const size_t colon = pair.find(':');
        if (colon == std::string::npos)
        {
            throw fail();
        }
        const auto dscp = MrcParseIndexList(pair.substr(0, colon), 63);
        const auto prio = MrcParseIndexList(pair.substr(colon + 1), 7);
        if (!dscp || !prio || dscp->size() != 1 || prio->size() != 1)
        {
            throw fail();
        }
        map[dscp->front()] = static_cast<uint8_t>(prio->front());
    }
    if (!text.empty() && text.back() == ',')
    {
        throw fail();
    }
    return map;
}

uint8_t
MrcPfcPort::GetPriority(uint8_t dscp) const
{
    return m_configured ? m_priorityOfDscp[dscp & 63] : static_cast<uint8_t>((dscp & 63) >> 3);
}

void
MrcPfcPort::Configure()
{
    m_lossless = ParsePriorities(m_losslessText);
    m_priorityOfDscp = ParseDscpMap(m_dscpMapText);
    m_thresholds = MrcPfcThresholds::ParseMode(m_modeText) == MrcPfcThresholdMode::STATIC
                       ? MrcPfcThresholds::Static(m_xoffThreshold, m_xonThreshold)
                       : MrcPfcThresholds::Dynamic(m_alpha, m_xonOffset);
    if (m_pauseQuanta == 0)
    {
        throw std::invalid_argument("MrcPfcPort: PauseQuanta (=0) must be in 1..65535");
    }
    if (m_responseDelay.IsStrictlyNegative())
    {
        throw std::invalid_argument("MrcPfcPort: ResponseDelay must be >= 0");
    }
    if (m_watchdogTime.IsStrictlyNegative())
    {
        std::ostringstream os;
        os << "MrcPfcPort: WatchdogTime (=" << m_watchdogTime.As() << ") must be >= 0 (0: off)";
        throw std::invalid_argument(os.str());
    }
    if (!m_watchdogRestore.IsStrictlyPositive())
    {
        std::ostringstream os;
        os << "MrcPfcPort: WatchdogRestoreTime (=" << m_watchdogRestore.As() << ") must be > 0";
        throw std::invalid_argument(os.str());
    }
    m_configured = true;
}

void
MrcPfcPort::NotifyNewAggregate()
{
    if (!m_device)
    {
        m_device = PeekPointer(GetObject<PointToPointNetDevice>());
    }
    if (m_device)
    {
        if (auto channel = DynamicCast<MrcFabricChannel>(m_device->GetChannel()))
        {
            channel->RefreshPfcPorts(); // it caches which of its ends have a port
        }
    }
    Object::NotifyNewAggregate();
}

void
MrcPfcPort::SetSharedBuffer(Ptr<MrcPfcSharedBuffer> buffer)
{
    m_buffer = buffer;
}

void
MrcPfcPort::SetResumeCallback(Callback<void> callback)
{
    m_resume = callback;
}

bool
MrcPfcPort::IsLossless(uint8_t priority) const
{
    CheckPriority(priority);
    if (!m_configured)
    {
        return ParsePriorities(m_losslessText).test(priority);
    }
    return m_lossless.test(priority);
}

bool
MrcPfcPort::IsPaused(uint8_t priority) const
{
    return priority < N && m_paused[priority];
}

uint64_t
MrcPfcPort::GetBitRate() const
{
    DataRateValue rate;
    if (m_device)
    {
        m_device->GetAttribute("DataRate", rate);
    }
    return rate.Get().GetBitRate();
}

void
MrcPfcPort::ReceivePause(const MrcPfcPauseHeader& header)
{
    NS_LOG_FUNCTION(this << header);
    const uint64_t bitRate = GetBitRate();
    for (uint8_t p = 0; p < N; ++p)
    {
        if (!header.IsEnabled(p))
        {
            continue;
        }
        const uint16_t quanta = header.GetPauseTime(p);
        m_pausesReceived[p]++;
        m_pauseReceivedTrace(p, quanta);
        if (m_stuck[p])
        {
            // Ignored; a PAUSE (not an XON) postpones the restore.
            if (quanta > 0)
            {
                m_restore[p].Cancel();
                m_restore[p] =
                    Simulator::Schedule(m_watchdogRestore, &MrcPfcPort::WatchdogRestore, this, p);
            }
            continue;
        }
        if (quanta == 0 || bitRate == 0)
        {
            Resume(p);
            continue;
        }
        if (!m_paused[p])
        {
            m_paused[p] = true;
            m_pausedSince[p] = Simulator::Now();
            m_pauseStateTrace(p, true);
            if (m_watchdogTime.IsStrictlyPositive())
            {
                m_watchdog[p] =
                    Simulator::Schedule(m_watchdogTime, &MrcPfcPort::WatchdogFire, this, p);
            }
        }
        m_expiry[p].Cancel();
        const Time duration = NanoSeconds(MrcPfcPauseHeader::QuantaToNanoSeconds(quanta, bitRate));
        m_expiry[p] = Simulator::Schedule(duration, &MrcPfcPort::Resume, this, p);
    }
}

void
MrcPfcPort::WatchdogFire(uint8_t priority)
{
    if (!m_paused[priority])
    {
        return;
    }
    NS_LOG_WARN("PFC watchdog: priority " << unsigned(priority) << " paused for "
                                          << (Simulator::Now() - m_pausedSince[priority]).As()
                                          << " (WatchdogTime " << m_watchdogTime.As()
                                          << "): declared stuck, PAUSE frames ignored ("
                                          << GetWatchdogActionText() << ")");
    m_stuck[priority] = true;
    m_watchdogTriggers[priority]++;
    m_restore[priority].Cancel();
    m_restore[priority] =
        Simulator::Schedule(m_watchdogRestore, &MrcPfcPort::WatchdogRestore, this, priority);
    m_watchdogTrace(priority, true);
    Resume(priority); // the queue disc runs (and drops, with WatchdogAction "drop")
}

void
MrcPfcPort::WatchdogRestore(uint8_t priority)
{
    if (!m_stuck[priority])
    {
        return;
    }
    NS_LOG_WARN("PFC watchdog: priority " << unsigned(priority) << " restored after "
                                          << m_watchdogRestore.As() << " without PAUSE");
    m_stuck[priority] = false;
    m_watchdogTrace(priority, false);
}

void
MrcPfcPort::Resume(uint8_t priority)
{
    m_expiry[priority].Cancel();
    m_watchdog[priority].Cancel();
    if (!m_paused[priority])
    {
        return;
    }
    NS_LOG_FUNCTION(this << unsigned(priority));
    m_paused[priority] = false;
    m_pausedTotal[priority] += Simulator::Now() - m_pausedSince[priority];
    m_pauseStateTrace(priority, false);
    if (!m_resume.IsNull())
    {
        m_resume();
    }
}

uint64_t
MrcPfcPort::GetHeadroom() const
{
    if (!m_device)
    {
        return 0;
    }
    Ptr<PointToPointChannel> channel = DynamicCast<PointToPointChannel>(m_device->GetChannel());
    const uint32_t frame = m_device->GetMtu() + kPppBytes;
    uint32_t peerFrames = 1;
    TimeValue delay;
    if (channel)
    {
        channel->GetAttribute("Delay", delay);
        for (std::size_t i = 0; i < channel->GetNDevices(); ++i)
        {
            Ptr<PointToPointNetDevice> peer = channel->GetPointToPointDevice(i);
            if (PeekPointer(peer) != m_device && peer->GetQueue())
            {
                const QueueSize max = peer->GetQueue()->GetMaxSize();
                peerFrames = max.GetUnit() == QueueSizeUnit::PACKETS
                                 ? max.GetValue()
                                 : (max.GetValue() + frame - 1) / frame;
            }
        }
    }
    // One frame on the wire at each end, plus what waits in the peer's device queue.
    return MrcPfcThresholds::Headroom(GetBitRate(),
                                      delay.Get(),
                                      frame,
                                      2 + peerFrames,
                                      m_responseDelay);
}

uint64_t
MrcPfcPort::GetXoff() const
{
    return m_thresholds.GetXoff(m_buffer ? m_buffer->GetFree() : 0);
}

uint64_t
MrcPfcPort::GetXon() const
{
    return m_thresholds.GetXon(m_buffer ? m_buffer->GetFree() : 0);
}

void
MrcPfcPort::NotifyIngress(uint8_t priority, uint32_t bytes)
{
    if (!m_configured)
    {
        Initialize();
    }
    if (priority >= N || !m_lossless.test(priority))
    {
        return;
    }
    m_ingress[priority] += bytes;
    m_maxIngress[priority] = std::max(m_maxIngress[priority], m_ingress[priority]);
    if (m_buffer)
    {
        m_buffer->Add(bytes);
    }
    const uint64_t xoff = GetXoff();
    if (!m_xoff[priority] && m_ingress[priority] > xoff)
    {
        m_xoff[priority] = true;
        Refresh(priority);
    }
    if (m_ingress[priority] > xoff + GetHeadroom())
    {
        m_overflows[priority]++;
        m_overflowTrace(priority, m_ingress[priority]);
        NS_LOG_WARN("PFC headroom overflow on priority "
                    << unsigned(priority) << ": backlog " << m_ingress[priority] << " B > XOFF "
                    << xoff << " B + headroom " << GetHeadroom()
                    << " B; the class is not lossless with this configuration");
    }
}

void
MrcPfcPort::NotifyEgress(uint8_t priority, uint32_t bytes)
{
    if (priority >= N || !m_lossless.test(priority))
    {
        return;
    }
    const uint64_t released = std::min<uint64_t>(bytes, m_ingress[priority]);
    m_ingress[priority] -= released;
    if (m_buffer)
    {
        m_buffer->Release(static_cast<uint32_t>(released));
    }
    if (m_xoff[priority] && m_ingress[priority] <= GetXon())
    {
        m_xoff[priority] = false;
        m_refresh[priority].Cancel();
        SendPause(priority, 0);
    }
}

void
MrcPfcPort::Refresh(uint8_t priority)
{
    if (!m_xoff[priority])
    {
        return;
    }
    SendPause(priority, m_pauseQuanta);
    const uint64_t bitRate = GetBitRate();
    if (bitRate > 0)
    {
        // Re-send at half the pause time so that the peer never resumes while above XON.
        const uint64_t ns = MrcPfcPauseHeader::QuantaToNanoSeconds(m_pauseQuanta, bitRate);
        m_refresh[priority] = Simulator::Schedule(NanoSeconds(std::max<uint64_t>(1, ns / 2)),
                                                  &MrcPfcPort::Refresh,
                                                  this,
                                                  priority);
    }
}

void
MrcPfcPort::SendPause(uint8_t priority, uint16_t quanta)
{
    NS_LOG_FUNCTION(this << unsigned(priority) << quanta);
    if (!m_device || !m_device->IsLinkUp())
    {
        return; // nothing to pause over a dead link; the refresh resends if it comes back
    }
    MrcPfcPauseHeader header;
    header.SetPauseTime(priority, quanta);
    Ptr<Packet> frame = Create<Packet>();
    frame->AddHeader(header);
    frame->AddPacketTag(MrcPfcTag(MrcPfcTag::Kind::PAUSE_FRAME, 0));
    (quanta > 0 ? m_pausesSent : m_xonsSent)[priority]++;
    m_pauseSentTrace(priority, quanta);
    // The EtherType only fills the PPP header: IPv6's, as every other frame on the link.
    m_device->Send(frame, m_device->GetBroadcast(), kMrcIpv6EtherType);
}

} // namespace ns3
