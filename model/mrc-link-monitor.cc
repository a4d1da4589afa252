/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-link-monitor.h"

#include "mrc-csv-field.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"

#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcLinkMonitor");

NS_OBJECT_ENSURE_REGISTERED(MrcLinkMonitor);

namespace
{

/**
 * \param t a time
 * \return microseconds with nanosecond resolution, fixed 3 decimals
 */
std::string
Micros(Time t)
{
    const int64_t ns = t.GetNanoSeconds();
    std::ostringstream os;
    os << (ns < 0 ? "-" : "") << std::abs(ns) / 1000 << "." << std::setw(3) << std::setfill('0')
       << std::abs(ns) % 1000;
    return os.str();
}

/**
 * \param d a direction
 * \return "up", "down" or "both"
 */
const char*
DirectionName(MrcLinkDirection d)
{
    switch (d)
    {
        case MrcLinkDirection::UP:
            return "up";
        case MrcLinkDirection::DOWN:
            return "down";
        case MrcLinkDirection::BOTH:
            return "both";
    }
    return "?";
}

} // namespace

TypeId
MrcLinkMonitor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcLinkMonitor")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcLinkMonitor>()
            .AddAttribute(
                "Interval",
                "Width of one sampling interval (> 0); fixed by Install().",
                TimeValue(MicroSeconds(100)),
                MakeTimeAccessor(&MrcLinkMonitor::SetInterval, &MrcLinkMonitor::GetInterval),
                MakeTimeChecker())
            .AddAttribute("IncludeHostLinks",
                          "Watch the host-T0 links as well as the switch-to-switch links.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcLinkMonitor::m_includeHostLinks),
                          MakeBooleanChecker());
    return tid;
}

MrcLinkMonitor::MrcLinkMonitor()
    : m_interval(MicroSeconds(100))
{
    NS_LOG_FUNCTION(this);
}

MrcLinkMonitor::~MrcLinkMonitor()
{
    NS_LOG_FUNCTION(this);
}

void
MrcLinkMonitor::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
    m_traces.DisconnectAll();
    m_watches.clear();
    m_active = false;
    Object::DoDispose();
}

void
MrcLinkMonitor::SetInterval(Time interval)
{
    if (!interval.IsStrictlyPositive())
    {
        std::ostringstream os;
        os << "MrcLinkMonitor: attribute Interval must be > 0, got " << interval.As(Time::US);
        throw std::invalid_argument(os.str());
    }
    if (m_installed)
    {
        throw std::invalid_argument(
            "MrcLinkMonitor: attribute Interval cannot change after Install");
    }
    m_interval = interval;
}

Time
MrcLinkMonitor::GetInterval() const
{
    return m_interval;
}

void
MrcLinkMonitor::Install(Ptr<MrcFabricTopology> topo, Time start, Time stop)
{
    NS_LOG_FUNCTION(this << start << stop);
    if (m_installed)
    {
        throw std::invalid_argument("MrcLinkMonitor::Install: already installed");
    }
    if (!topo)
    {
        throw std::invalid_argument("MrcLinkMonitor::Install: no fabric");
    }
    if (start < Simulator::Now())
    {
        throw std::invalid_argument("MrcLinkMonitor::Install: start is in the past");
    }
    if (stop <= start)
    {
        throw std::invalid_argument("MrcLinkMonitor::Install: stop must be later than start");
    }
    m_installed = true;
    m_start = start;
    m_stop = stop;
    for (const MrcFabricLink& l : topo->GetLinks())
    {
        if (l.tier == MrcLinkTier::HOST_T0 && !m_includeHostLinks)
        {
            continue;
        }
        for (MrcLinkDirection dir : {MrcLinkDirection::UP, MrcLinkDirection::DOWN})
        {
            const bool up = dir == MrcLinkDirection::UP;
            Watch w;
            w.info.link = l.id;
            w.info.tier = l.tier;
            w.info.plane = l.plane;
            w.info.direction = dir;
            w.info.from = up ? l.lower : l.upper;
            w.info.to = up ? l.upper : l.lower;
            w.info.fromName = MrcNodeName(w.info.from);
            w.info.toName = MrcNodeName(w.info.to);
            w.info.device = up ? l.lowerDevice : l.upperDevice;
            Ptr<TrafficControlLayer> tc = w.info.from->GetObject<TrafficControlLayer>();
            w.queue = tc ? tc->GetRootQueueDiscOnDevice(w.info.device) : nullptr;
            m_watches.push_back(std::move(w));
        }
    }
    auto connect = [this](Ptr<Object> source, const std::string& name, const CallbackBase& cb) {
        if (!m_traces.Connect(source, name, cb))
        {
            throw std::invalid_argument("MrcLinkMonitor::Install: cannot connect trace " + name);
        }
    };
    for (uint32_t d = 0; d < m_watches.size(); ++d)
    {
        const Watch& w = m_watches[d];
        connect(w.info.device,
                "PhyTxBegin",
                MakeCallback(&MrcLinkMonitor::OnTxBegin, this).Bind(d));
        connect(w.info.device, "PhyTxEnd", MakeCallback(&MrcLinkMonitor::OnTxEnd, this).Bind(d));
        if (w.queue)
        {
            connect(w.queue,
                    "BytesInQueue",
                    MakeCallback(&MrcLinkMonitor::OnQueueBytes, this).Bind(d));
        }
        else
        {
            NS_LOG_WARN("no root queue disc on " << w.info.fromName << " towards "
                                                 << w.info.toName);
        }
    }
    m_event = Simulator::Schedule(start - Simulator::Now(), &MrcLinkMonitor::Start, this);
}

uint32_t
MrcLinkMonitor::QueueBytes(const Watch& w)
{
    return w.queue ? w.queue->GetNBytes() : 0;
}

void
MrcLinkMonitor::OnTxBegin(uint32_t d, Ptr<const Packet> packet)
{
    Watch& w = m_watches[d];
    w.busySince = Simulator::Now();
    if (m_active)
    {
        w.bytes += packet->GetSize();
    }
}

void
MrcLinkMonitor::OnTxEnd(uint32_t d, Ptr<const Packet> packet)
{
    Watch& w = m_watches[d];
    if (m_active && !w.busySince.IsStrictlyNegative())
    {
        w.busy += Simulator::Now() - w.busySince;
    }
    w.busySince = Time(-1);
}

void
MrcLinkMonitor::OnQueueBytes(uint32_t d, uint32_t oldValue, uint32_t newValue)
{
    if (m_active)
    {
        Watch& w = m_watches[d];
        w.peak = std::max(w.peak, newValue);
    }
}

void
MrcLinkMonitor::Start()
{
    NS_LOG_FUNCTION(this);
    const Time now = Simulator::Now();
    m_active = true;
    m_intervalStart = now;
    for (Watch& w : m_watches)
    {
        // A frame already on its way counts from now on (its bytes belong to the past).
        if (!w.busySince.IsStrictlyNegative())
        {
            w.busySince = now;
        }
        w.bytes = 0;
        w.busy = Time(0);
        w.peak = QueueBytes(w);
    }
    m_event = Simulator::Schedule(std::min(m_interval, m_stop - now),
                                  &MrcLinkMonitor::CloseInterval,
                                  this);
}

void
MrcLinkMonitor::CloseInterval()
{
    NS_LOG_FUNCTION(this);
    const Time now = Simulator::Now();
    const Time width = now - m_intervalStart;
    for (Watch& w : m_watches)
    {
        if (!w.busySince.IsStrictlyNegative())
        {
            w.busy += now - w.busySince;
            w.busySince = now;
        }
        Sample s;
        s.start = m_intervalStart;
        s.end = now;
        s.bytes = w.bytes;
        s.utilisation = double(w.busy.GetTimeStep()) / double(width.GetTimeStep());
        DataRateValue rate;
        if (w.info.device->GetAttributeFailSafe("DataRate", rate))
        {
            s.rate = rate.Get();
        }
        s.queueBytes = QueueBytes(w);
        s.peakQueueBytes = std::max(w.peak, s.queueBytes);
        w.series.push_back(s);
        w.bytes = 0;
        w.busy = Time(0);
        w.peak = s.queueBytes;
    }
    m_intervals++;
    m_intervalStart = now;
    // The k-th boundary is start + k x Interval, computed exactly in time steps.
    const Time next = std::min(m_start + m_interval * int64_t(m_intervals + 1), m_stop);
    if (now < m_stop)
    {
        m_event = Simulator::Schedule(next - now, &MrcLinkMonitor::CloseInterval, this);
    }
    else
    {
        m_active = false;
    }
}

void
MrcLinkMonitor::Finish()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
    const Time now = Simulator::Now();
    if (m_active && now > m_intervalStart)
    {
        m_stop = now;
        CloseInterval(); // at m_stop: schedules nothing and clears m_active
    }
    m_active = false;
}

uint32_t
MrcLinkMonitor::GetDirectionCount() const
{
    return m_watches.size();
}

const MrcLinkMonitor::DirectionInfo&
MrcLinkMonitor::GetDirectionInfo(uint32_t direction) const
{
    return m_watches.at(direction).info;
}

std::optional<uint32_t>
MrcLinkMonitor::FindDirection(uint32_t link, MrcLinkDirection direction) const
{
    for (uint32_t d = 0; d < m_watches.size(); ++d)
    {
        if (m_watches[d].info.link == link && m_watches[d].info.direction == direction)
        {
            return d;
        }
    }
    return std::nullopt;
}

uint32_t
MrcLinkMonitor::GetIntervalCount() const
{
    return m_intervals;
}

const std::vector<MrcLinkMonitor::Sample>&
MrcLinkMonitor::GetSeries(uint32_t direction) const
{
    return m_watches.at(direction).series;
}

std::vector<uint64_t>
MrcLinkMonitor::ExportCounts(uint32_t intervals) const
{
    std::vector<uint64_t> out;
    out.reserve(size_t(3) * intervals * m_watches.size());
    for (const Watch& w : m_watches)
    {
        for (uint32_t i = 0; i < intervals; ++i)
        {
            const Sample& s = w.series.at(i);
            out.push_back(s.bytes);
            out.push_back(s.queueBytes);
            out.push_back(s.peakQueueBytes);
        }
    }
    return out;
}

std::vector<double>
MrcLinkMonitor::ExportUtilisation(uint32_t intervals) const
{
    std::vector<double> out;
    out.reserve(size_t(intervals) * m_watches.size());
    for (const Watch& w : m_watches)
    {
        for (uint32_t i = 0; i < intervals; ++i)
        {
            out.push_back(w.series.at(i).utilisation);
        }
    }
    return out;
}

void
MrcLinkMonitor::ImportSamples(uint32_t intervals,
                              const std::vector<uint64_t>& counts,
                              const std::vector<double>& utilisation)
{
    const size_t samples = size_t(intervals) * m_watches.size();
    if (intervals > m_intervals || counts.size() != 3 * samples || utilisation.size() != samples)
    {
        throw std::invalid_argument("MrcLinkMonitor::ImportSamples: " + std::to_string(intervals)
                                    + " intervals (accepted: 0.." + std::to_string(m_intervals)
                                    + "), " + std::to_string(counts.size()) + " counts and "
                                    + std::to_string(utilisation.size())
                                    + " utilisations (accepted: " + std::to_string(3 * samples)
                                    + " and " + std::to_string(samples) + ")");
    }
    size_t k = 0;
    for (Watch& w : m_watches)
    {
        w.series.resize(intervals);
        for (Sample& s : w.series)
        {
            s.bytes = counts[3 * k];
            s.queueBytes = static_cast<uint32_t>(counts[3 * k + 1]);
            s.peakQueueBytes = static_cast<uint32_t>(counts[3 * k + 2]);
            s.utilisation = utilisation[k];
            ++k;
        }
    }
    m_intervals = intervals;
}

MrcLinkMonitor::Summary
MrcLinkMonitor::GetSummary(uint32_t direction) const
{
    const Watch& w = m_watches.at(direction);
    Summary s;
    double busy = 0;
    double sampled = 0;
    for (const Sample& x : w.series)
    {
        const double width = double((x.end - x.start).GetTimeStep());
        s.bytes += x.bytes;
        busy += x.utilisation * width;
        sampled += width;
        s.peakUtilisation = std::max(s.peakUtilisation, x.utilisation);
        s.peakQueueBytes = std::max(s.peakQueueBytes, x.peakQueueBytes);
    }
    s.meanUtilisation = sampled > 0 ? busy / sampled : 0.0;
    return s;
}

MrcLinkMonitor::TierTotals
MrcLinkMonitor::GetTierTotals(MrcLinkTier tier, MrcLinkDirection direction) const
{
    TierTotals t;
    for (uint32_t d = 0; d < m_watches.size(); ++d)
    {
        const DirectionInfo& info = m_watches[d].info;
        if (info.tier != tier
            || (direction != MrcLinkDirection::BOTH && info.direction != direction))
        {
            continue;
        }
        const uint64_t bytes = GetSummary(d).bytes;
        t.total += bytes;
        t.largest = std::max(t.largest, bytes);
        t.directions++;
    }
    return t;
}

double
MrcLinkMonitor::GetBalance(MrcLinkTier tier, MrcLinkDirection direction) const
{
    const TierTotals t = GetTierTotals(tier, direction);
    return t.total == 0 ? 0.0 : double(t.largest) * t.directions / double(t.total);
}

void
MrcLinkMonitor::WriteSeriesCsv(std::ostream& os) const
{
    const std::ios::fmtflags flags = os.flags();
    const std::streamsize precision = os.precision();
    os << "interval,start_us,end_us,dir_index,link,tier,plane,direction,from,to,bytes,"
          "utilisation,rate_gbps,queue_bytes,peak_queue_bytes\n";
    for (uint32_t i = 0; i < m_intervals; ++i)
    {
        for (uint32_t d = 0; d < m_watches.size(); ++d)
        {
            const DirectionInfo& info = m_watches[d].info;
            const Sample& s = m_watches[d].series.at(i);
            os << i << "," << Micros(s.start) << "," << Micros(s.end) << "," << d << ","
               << info.link << "," << info.tier << "," << info.plane << ","
               << DirectionName(info.direction) << "," << info.fromName << "," << info.toName << ","
               << s.bytes << "," << std::fixed << std::setprecision(6) << s.utilisation << ","
               << std::setprecision(3) << s.rate.GetBitRate() * 1e-9 << "," << s.queueBytes << ","
               << s.peakQueueBytes << "\n";
        }
    }
    os.flags(flags);
    os.precision(precision);
}

void
MrcLinkMonitor::WriteSummaryCsv(std::ostream& os) const
{
    const std::ios::fmtflags flags = os.flags();
    const std::streamsize precision = os.precision();
    os << "dir_index,link,tier,plane,direction,from,to,bytes,mean_utilisation,peak_utilisation,"
          "peak_queue_bytes,intervals\n";
    for (uint32_t d = 0; d < m_watches.size(); ++d)
    {
        const DirectionInfo& info = m_watches[d].info;
        const Summary s = GetSummary(d);
        os << d << "," << info.link << "," << info.tier << "," << info.plane << ","
           << DirectionName(info.direction) << "," << info.fromName << "," << info.toName << ","
           << s.bytes << "," << std::fixed << std::setprecision(6) << s.meanUtilisation << ","
           << s.peakUtilisation << "," << s.peakQueueBytes << "," << m_watches[d].series.size()
           << "\n";
    }
    os.flags(flags);
    os.precision(precision);
}

void
MrcLinkMonitor::WriteBalanceCsv(std::ostream& os) const
{
    const std::ios::fmtflags flags = os.flags();
    const std::streamsize precision = os.precision();
    os << "tier,direction,directions,total_bytes,mean_bytes,max_bytes,balance\n";
    for (MrcLinkTier tier : {MrcLinkTier::HOST_T0, MrcLinkTier::T0_T1, MrcLinkTier::T1_T2})
    {
        for (MrcLinkDirection dir :
             {MrcLinkDirection::UP, MrcLinkDirection::DOWN, MrcLinkDirection::BOTH})
        {
            const TierTotals t = GetTierTotals(tier, dir);
            if (t.directions == 0)
            {
                continue;
            }
            os << tier << "," << DirectionName(dir) << "," << t.directions << "," << t.total << ","
               << std::fixed << std::setprecision(3) << double(t.total) / t.directions << ","
               << t.largest << "," << std::setprecision(6) << GetBalance(tier, dir) << "\n";
        }
    }
    os.flags(flags);
    os.precision(precision);
}

} // namespace ns3
