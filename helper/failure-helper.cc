/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "failure-helper.h"

#include "failure-schedule-parser.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/names.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <limits>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FailureHelper");

NS_OBJECT_ENSURE_REGISTERED(FailureHelper);

namespace
{

/**
 * \param origin where an entry was written ("api" for calls)
 * \return the prefix of its error messages
 */
std::string
Prefix(const std::string& origin)
{
    return (origin == "api" ? std::string("FailureHelper") : origin) + ": ";
}

} // namespace

TypeId
FailureHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FailureHelper")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddAttribute("MaxEvents",
                          "Most simulator events the failures of this helper may make (a flap "
                          "one per transition: a 1 ns period over 1 s is 2e9), checked before "
                          "anything is scheduled; raise it to run a larger schedule.",
                          UintegerValue(kDefaultMaxEvents),
                          MakeUintegerAccessor(&FailureHelper::m_maxEvents),
                          MakeUintegerChecker<uint64_t>(1))
            .AddTraceSource("Event",
                            "A failure event was applied: kind, target, parameters (the time is "
                            "Simulator::Now()).",
                            MakeTraceSourceAccessor(&FailureHelper::m_eventTrace),
                            "ns3::FailureHelper::EventTracedCallback");
    return tid;
}

FailureHelper::FailureHelper(Ptr<FabricTopology> topo)
    : m_state(topo)
{
    NS_LOG_FUNCTION(this);
}

FailureHelper::~FailureHelper()
{
    NS_LOG_FUNCTION(this);
}

// ------------------------------------------------------------------------------------------
// Scheduling calls
// ------------------------------------------------------------------------------------------

FailureHelper::Action
FailureHelper::LinkAction(FailureKind kind,
                          Time at,
                          uint32_t link,
                          LinkDirection direction,
                          Time duration)
{
    Action a;
    a.kind = kind;
    a.at = at;
    a.link = link;
    a.direction = direction;
    a.duration = duration;
    return a;
}

void
FailureHelper::LinkDown(Time at, uint32_t link, Time duration)
{
    Add(LinkAction(FailureKind::LINK_DOWN, at, link, LinkDirection::BOTH, duration));
}

void
FailureHelper::LinkUp(Time at, uint32_t link)
{
    Add(LinkAction(FailureKind::LINK_UP, at, link));
}

void
FailureHelper::Blackhole(Time at, uint32_t link, LinkDirection direction, Time duration)
{
    Add(LinkAction(FailureKind::BLACKHOLE, at, link, direction, duration));
}

void
FailureHelper::BlackholeEnd(Time at, uint32_t link, LinkDirection direction)
{
    Add(LinkAction(FailureKind::BLACKHOLE_END, at, link, direction));
}

void
FailureHelper::GrayLoss(Time at,
                        uint32_t link,
                        double probability,
                        LinkDirection direction,
                        Time duration)
{
    Action a = LinkAction(FailureKind::GRAY_LOSS, at, link, direction, duration);
    a.probability = probability;
    Add(a);
}

void
FailureHelper::GrayLossEnd(Time at, uint32_t link, LinkDirection direction)
{
    Add(LinkAction(FailureKind::GRAY_LOSS_END, at, link, direction));
}

void
FailureHelper::DegradeRate(Time at,
                           uint32_t link,
                           DataRate rate,
                           LinkDirection direction,
                           Time duration)
{
    Action a = LinkAction(FailureKind::RATE, at, link, direction, duration);
    a.rate = rate;
    Add(a);
}

void
FailureHelper::RestoreRate(Time at, uint32_t link, LinkDirection direction)
{
    Add(LinkAction(FailureKind::RATE_RESTORE, at, link, direction));
}

void
FailureHelper::Flap(Time start, uint32_t link, Time period, double duty, Time duration)
{
    Action a = LinkAction(FailureKind::FLAP, start, link, LinkDirection::BOTH, duration);
    a.period = period;
    a.duty = duty;
    Add(a);
}

void
FailureHelper::Flap(Time start, uint32_t link, const std::vector<Time>& offsets)
{
    Action a = LinkAction(FailureKind::FLAP, start, link);
    a.offsets = offsets;
    Add(a);
}

void
FailureHelper::SwitchDown(Time at, Ptr<Node> node, Time duration)
{
    Action a = LinkAction(FailureKind::SWITCH_DOWN, at, 0, LinkDirection::BOTH, duration);
    a.node = node;
    Add(a);
}

void
FailureHelper::SwitchUp(Time at, Ptr<Node> node)
{
    Action a = LinkAction(FailureKind::SWITCH_UP, at, 0);
    a.node = node;
    Add(a);
}

void
FailureHelper::SwitchBlackhole(Time at, Ptr<Node> node, Time duration)
{
    Action a = LinkAction(FailureKind::SWITCH_BLACKHOLE, at, 0, LinkDirection::BOTH, duration);
    a.node = node;
    Add(a);
}

void
FailureHelper::SwitchBlackholeEnd(Time at, Ptr<Node> node)
{
    Action a = LinkAction(FailureKind::SWITCH_BLACKHOLE_END, at, 0);
    a.node = node;
    Add(a);
}

void
FailureHelper::PortDown(Time at, uint32_t host, uint32_t plane, Time duration)
{
    Action a = LinkAction(FailureKind::PORT_DOWN, at, 0, LinkDirection::BOTH, duration);
    a.host = host;
    a.plane = plane;
    Add(a);
}

void
FailureHelper::PortUp(Time at, uint32_t host, uint32_t plane)
{
    Action a = LinkAction(FailureKind::PORT_UP, at, 0);
    a.host = host;
    a.plane = plane;
    Add(a);
}

void
FailureHelper::Schedule(const FailureSpec& spec)
{
    Schedule(std::vector<FailureSpec>{spec});
}

void
FailureHelper::Schedule(const std::vector<FailureSpec>& specs)
{
    std::vector<Action> actions;
    uint64_t events = 0;
    const FailureSpec* largest = nullptr;
    uint64_t largestEvents = 0;
    for (const FailureSpec& s : specs)
    {
        actions.push_back(Resolve(s));
        Check(actions.back());
        const uint64_t n = s.GetEventCount();
        events = n > std::numeric_limits<uint64_t>::max() - events
                     ? std::numeric_limits<uint64_t>::max()
                     : events + n;
        if (!largest || n > largestEvents)
        {
            largest = &s;
            largestEvents = n;
        }
    }
    FailureScheduleParser::CheckTimeOrder(specs, [&](const FailureSpec& s) {
        return TargetKey(actions.at(&s - specs.data()));
    });
    if (largest)
    {
        CheckEventCount(events,
                        largest->origin + " (" + FailureSpec::GetKindName(largest->kind) + " of "
                            + largest->DescribeTarget() + ")",
                        largestEvents);
    }
    for (const Action& a : actions)
    {
        Add(a);
    }
}

void
FailureHelper::LoadSchedule(const std::string& path)
{
    Schedule(FailureScheduleParser::ParseFile(path));
}

// ------------------------------------------------------------------------------------------
// Names and checks
// ------------------------------------------------------------------------------------------

uint32_t
FailureHelper::FindLink(const std::string& a,
                        const std::string& b,
                        std::optional<uint32_t> index) const
{
    try
    {
        return m_state.FindLink(a, b, index);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(Prefix("api") + e.what());
    }
}

std::string
FailureHelper::DescribeLink(uint32_t link) const
{
    return m_state.DescribeLink(link);
}

FailureHelper::Action
FailureHelper::Resolve(const FailureSpec& spec) const
{
    Action a;
    a.kind = spec.kind;
    a.at = spec.at;
    a.origin = spec.origin.empty() ? std::string("api") : spec.origin;
    a.direction = spec.direction;
    a.probability = spec.probability;
    a.rate = spec.rate;
    a.duration = spec.duration;
    a.period = spec.period;
    a.duty = spec.duty;
    a.offsets = spec.offsets;
    try
    {
        switch (FailureSpec::GetTarget(spec.kind))
        {
            case FailureTarget::LINK:
                a.link = spec.linkId ? *spec.linkId
                                     : m_state.FindLink(spec.nodeA, spec.nodeB, spec.index);
                break;
            case FailureTarget::SWITCH: {
                a.node = Names::Find<Node>(spec.switchName);
                if (!a.node || !m_state.GetTopology()->GetSwitchPosition(a.node))
                {
                    throw std::invalid_argument(
                        "no switch named '" + spec.switchName
                        + "' in this fabric (switches are named p<plane>-t<tier>-<index>)");
                }
                break;
            }
            case FailureTarget::HOST_PORT:
                a.host = spec.host;
                a.plane = spec.plane;
                break;
        }
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(Prefix(a.origin) + e.what());
    }
    return a;
}

void
FailureHelper::Check(const Action& a) const
{
    Ptr<FabricTopology> topo = m_state.GetTopology();
    auto fail = [&a](const std::string& reason) {
        throw std::invalid_argument(Prefix(a.origin) + reason);
    };
    if (a.at < Simulator::Now())
    {
        fail("at (=" + FailureSpec::FormatTime(a.at) + ") is before the current simulation time ("
             + FailureSpec::FormatTime(Simulator::Now()) + ")");
    }
    if (a.duration.IsStrictlyNegative())
    {
        fail("duration (=" + FailureSpec::FormatTime(a.duration)
             + ") must be >= 0 (0: no automatic end)");
    }
    switch (FailureSpec::GetTarget(a.kind))
    {
        case FailureTarget::LINK:
            if (a.link >= topo->GetLinks().size())
            {
                fail("link id (=" + std::to_string(a.link) + ") must be in 0.."
                     + std::to_string(topo->GetLinks().size() - 1));
            }
            break;
        case FailureTarget::SWITCH:
            if (!a.node || !topo->GetSwitchPosition(a.node))
            {
                fail("the node is not a switch of this fabric");
            }
            break;
        case FailureTarget::HOST_PORT:
            if (a.host >= topo->GetHostCount())
            {
                fail("host (=" + std::to_string(a.host) + ") must be in 0.."
                     + std::to_string(topo->GetHostCount() - 1));
            }
            if (a.plane >= topo->GetSpec().planes)
            {
                fail("plane (=" + std::to_string(a.plane) + ") must be in 0.."
                     + std::to_string(topo->GetSpec().planes - 1));
            }
            break;
    }
    if (a.kind == FailureKind::GRAY_LOSS && !(a.probability >= 0 && a.probability <= 1))
    {
        fail("probability (=" + FailureSpec::FormatNumber(a.probability) + ") must be in [0, 1]");
    }
    if (a.kind == FailureKind::RATE && a.rate.GetBitRate() == 0)
    {
        fail("rate must be > 0 bit/s");
    }
    if (a.kind == FailureKind::FLAP)
    {
        if (a.offsets.empty())
        {
            if (!a.period.IsStrictlyPositive() || !a.duration.IsStrictlyPositive())
            {
                fail("a flap's period and duration must be > 0");
            }
            if (!(a.duty > 0 && a.duty < 1))
            {
                fail("duty (=" + FailureSpec::FormatNumber(a.duty)
                     + ") must be in (0, 1): the fraction of each period the link is down");
            }
        }
        for (size_t i = 0; i < a.offsets.size(); ++i)
        {
            if (a.offsets[i].IsStrictlyNegative() || (i > 0 && a.offsets[i] <= a.offsets[i - 1]))
            {
                fail("flap offsets must be >= 0 and increase strictly");
            }
        }
    }
}

std::string
FailureHelper::TargetKey(const Action& a)
{
    switch (FailureSpec::GetTarget(a.kind))
    {
        case FailureTarget::LINK:
            return "link " + std::to_string(a.link);
        case FailureTarget::SWITCH:
            return "switch " + std::to_string(a.node->GetId());
        case FailureTarget::HOST_PORT:
            break;
    }
    return "host " + std::to_string(a.host) + " plane " + std::to_string(a.plane);
}

// ------------------------------------------------------------------------------------------
// Applying events
// ------------------------------------------------------------------------------------------

FailureSpec
FailureHelper::Timing(const Action& a)
{
    FailureSpec s;
    s.kind = a.kind;
    s.at = a.at;
    s.duration = a.duration;
    s.period = a.period;
    s.duty = a.duty;
    s.offsets = a.offsets;
    return s;
}

void
FailureHelper::CheckEventCount(uint64_t events,
                               const std::string& largest,
                               uint64_t largestEvents) const
{
    const uint64_t total = events > std::numeric_limits<uint64_t>::max() - m_events
                               ? std::numeric_limits<uint64_t>::max()
                               : m_events + events;
    const std::string detail =
        std::to_string(events) + " simulator events (" + std::to_string(largestEvents) + " from "
        + largest + ")"
        + (m_events > 0 ? " on top of " + std::to_string(m_events) + " already scheduled"
                        : std::string());
    if (total > m_maxEvents)
    {
        throw std::invalid_argument(
            "FailureHelper: the failures would make " + detail
            + ", more than MaxEvents (=" + std::to_string(m_maxEvents)
            + "); a flap makes two per period: lengthen its period or shorten its duration, or "
              "raise ns3::FailureHelper::MaxEvents (e.g. "
              "--ns3::FailureHelper::MaxEvents="
            + std::to_string(total) + ") to run it anyway");
    }
    if (total > kWarnEvents && m_events <= kWarnEvents)
    {
        NS_LOG_WARN("FailureHelper: the failures make " << detail << ", more than " << kWarnEvents
                                                        << " (MaxEvents " << m_maxEvents << ")");
    }
}

void
FailureHelper::Add(const Action& a)
{
    Check(a);
    const FailureSpec timing = Timing(a);
    const uint64_t events = timing.GetEventCount();
    CheckEventCount(events, a.origin + " (" + FailureSpec::GetKindName(a.kind) + ")", events);
    m_events += events;
    const Time now = Simulator::Now();
    if (a.kind == FailureKind::FLAP)
    {
        const std::vector<Time> times = timing.GetFlapTimes();
        for (size_t i = 0; i < times.size(); ++i)
        {
            Action t = a;
            t.kind = i % 2 == 0 ? FailureKind::LINK_DOWN : FailureKind::LINK_UP;
            t.at = times[i];
            t.by = "flap";
            t.duration = Time(0);
            Simulator::Schedule(t.at - now, &FailureHelper::Apply, Ptr<FailureHelper>(this), t);
        }
        return;
    }
    Simulator::Schedule(a.at - now, &FailureHelper::Apply, Ptr<FailureHelper>(this), a);
    if (a.duration.IsStrictlyPositive() && FailureSpec::TakesDuration(a.kind))
    {
        Action end = a;
        end.kind = FailureSpec::GetEndKind(a.kind);
        end.at = a.at + a.duration;
        end.by = "duration";
        end.duration = Time(0);
        Simulator::Schedule(end.at - now, &FailureHelper::Apply, Ptr<FailureHelper>(this), end);
    }
}

void
FailureHelper::Apply(Action a)
{
    NS_LOG_FUNCTION(this << a.kind);
    using End = FabricFailureState::LinkEnd;
    using Down = FabricFailureState::DownCause;
    const bool start = FailureSpec::TakesDuration(a.kind);
    const std::string direction = "direction=" + FailureSpec::GetDirectionName(a.direction);
    std::string target;
    std::string params;
    switch (FailureSpec::GetTarget(a.kind))
    {
        case FailureTarget::LINK:
            target = m_state.DescribeLink(a.link);
            break;
        case FailureTarget::SWITCH:
            target = "switch " + Names::FindName(a.node);
            break;
        case FailureTarget::HOST_PORT:
            target = "host " + std::to_string(a.host) + " plane " + std::to_string(a.plane);
            break;
    }
    switch (a.kind)
    {
        case FailureKind::LINK_DOWN:
        case FailureKind::LINK_UP:
            m_state.SetDown(a.link, Down::LINK, start);
            break;
        case FailureKind::BLACKHOLE:
        case FailureKind::BLACKHOLE_END:
            for (End end : FabricFailureState::GetEnds(a.direction, true))
            {
                m_state.SetBlackhole(a.link, end, FabricFailureState::BlackholeCause::LINK, start);
            }
            params = direction;
            break;
        case FailureKind::GRAY_LOSS:
        case FailureKind::GRAY_LOSS_END:
            for (End end : FabricFailureState::GetEnds(a.direction, true))
            {
                m_state.SetLossProbability(a.link, end, start ? a.probability : 0);
            }
            params = (start ? "probability=" + FailureSpec::FormatNumber(a.probability) + " " : "")
                     + direction;
            break;
        case FailureKind::RATE:
        case FailureKind::RATE_RESTORE: {
            std::optional<DataRate> rate;
            for (End end : FabricFailureState::GetEnds(a.direction, false))
            {
                if (start)
                {
                    m_state.DegradeRate(a.link, end, a.rate);
                    rate = a.rate;
                }
                else if (auto restored = m_state.RestoreRate(a.link, end))
                {
                    rate = restored;
                }
            }
            params = (rate ? "rate=" + FailureSpec::FormatRate(*rate) + " " : "") + direction;
            break;
        }
        case FailureKind::SWITCH_DOWN:
        case FailureKind::SWITCH_UP:
        case FailureKind::SWITCH_BLACKHOLE:
        case FailureKind::SWITCH_BLACKHOLE_END: {
            const std::vector<FabricLink> links = m_state.GetTopology()->GetLinksOf(a.node);
            const bool down =
                a.kind == FailureKind::SWITCH_DOWN || a.kind == FailureKind::SWITCH_UP;
            for (const FabricLink& l : links)
            {
                const bool lower = l.lower == a.node;
                if (down)
                {
                    m_state.SetDown(l.id, lower ? Down::LOWER_SWITCH : Down::UPPER_SWITCH, start);
                }
                else
                {
                    m_state.SetBlackhole(l.id,
                                         lower ? End::LOWER : End::UPPER,
                                         FabricFailureState::BlackholeCause::SWITCH,
                                         start);
                }
            }
            params = "links=" + std::to_string(links.size());
            break;
        }
        case FailureKind::PORT_DOWN:
        case FailureKind::PORT_UP:
            m_state.SetDown(m_state.GetHostLink(a.host, a.plane), Down::PORT, start);
            break;
        case FailureKind::FLAP:
            NS_ABORT_MSG("a flap is applied as its transitions");
            break;
    }
    if (!a.by.empty())
    {
        params += (params.empty() ? "by=" : " by=") + a.by;
    }
    const std::string kind = FailureSpec::GetKindName(a.kind);
    m_log.Add({Simulator::Now(), kind, target, params, a.origin});
    m_eventTrace(kind, target, params);
}

// ------------------------------------------------------------------------------------------
// Results
// ------------------------------------------------------------------------------------------

uint64_t
FailureHelper::GetScheduledEvents() const
{
    return m_events;
}

const FailureLog&
FailureHelper::GetLog() const
{
    return m_log;
}

uint64_t
FailureHelper::GetLostPackets(FabricLossCause cause) const
{
    return m_state.GetLostPackets(cause);
}

uint64_t
FailureHelper::GetLostPackets() const
{
    uint64_t n = 0;
    for (uint32_t c = 0; c < kFabricLossCauses; ++c)
    {
        n += GetLostPackets(static_cast<FabricLossCause>(c));
    }
    return n;
}

uint64_t
FailureHelper::GetLinkLostPackets(uint32_t link, FabricLossCause cause) const
{
    return m_state.GetLinkLostPackets(link, cause);
}

const FabricFailureState&
FailureHelper::GetState() const
{
    return m_state;
}

int64_t
FailureHelper::AssignStreams(int64_t stream)
{
    return m_state.AssignStreams(stream);
}

} // namespace ns3
