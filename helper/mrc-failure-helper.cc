/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-failure-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mrc-failure-schedule-parser.h"
#include "ns3/names.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <limits>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcFailureHelper");

NS_OBJECT_ENSURE_REGISTERED(MrcFailureHelper);

namespace
{

/**
 * \param origin where an entry was written ("api" for calls)
 * \return the prefix of its error messages
 */
std::string
Prefix(const std::string& origin)
{
    return (origin == "api" ? std::string("MrcFailureHelper") : origin) + ": ";
}

} // namespace

TypeId
MrcFailureHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcFailureHelper")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddAttribute("MaxEvents",
                          "Most simulator events the failures of this helper may make (a flap "
                          "one per transition: a 1 ns period over 1 s is 2e9), checked before "
                          "anything is scheduled; raise it to run a larger schedule.",
                          UintegerValue(kDefaultMaxEvents),
                          MakeUintegerAccessor(&MrcFailureHelper::m_maxEvents),
                          MakeUintegerChecker<uint64_t>(1))
            .AddTraceSource("Event",
                            "A failure event was applied: kind, target, parameters (the time is "
                            "Simulator::Now()).",
                            MakeTraceSourceAccessor(&MrcFailureHelper::m_eventTrace),
                            "ns3::MrcFailureHelper::EventTracedCallback");
    return tid;
}

MrcFailureHelper::MrcFailureHelper(Ptr<MrcFabricTopology> topo)
    : m_state(topo)
{
    NS_LOG_FUNCTION(this);
}

MrcFailureHelper::~MrcFailureHelper()
{
    NS_LOG_FUNCTION(this);
}

// ------------------------------------------------------------------------------------------
// Scheduling calls
// ------------------------------------------------------------------------------------------

MrcFailureHelper::Action
MrcFailureHelper::LinkAction(MrcFailureKind kind,
                             Time at,
                             uint32_t link,
                             MrcLinkDirection direction,
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
MrcFailureHelper::LinkDown(Time at, uint32_t link, Time duration)
{
    Add(LinkAction(MrcFailureKind::LINK_DOWN, at, link, MrcLinkDirection::BOTH, duration));
}

void
MrcFailureHelper::LinkUp(Time at, uint32_t link)
{
    Add(LinkAction(MrcFailureKind::LINK_UP, at, link));
}

void
MrcFailureHelper::Blackhole(Time at, uint32_t link, MrcLinkDirection direction, Time duration)
{
    Add(LinkAction(MrcFailureKind::BLACKHOLE, at, link, direction, duration));
}

void
MrcFailureHelper::BlackholeEnd(Time at, uint32_t link, MrcLinkDirection direction)
{
    Add(LinkAction(MrcFailureKind::BLACKHOLE_END, at, link, direction));
}

void
MrcFailureHelper::GrayLoss(Time at,
                           uint32_t link,
                           double probability,
                           MrcLinkDirection direction,
                           Time duration)
{
    Action a = LinkAction(MrcFailureKind::GRAY_LOSS, at, link, direction, duration);
    a.probability = probability;
    Add(a);
}

void
MrcFailureHelper::GrayLossEnd(Time at, uint32_t link, MrcLinkDirection direction)
{
    Add(LinkAction(MrcFailureKind::GRAY_LOSS_END, at, link, direction));
}

void
MrcFailureHelper::DegradeRate(Time at,
                              uint32_t link,
                              DataRate rate,
                              MrcLinkDirection direction,
                              Time duration)
{
    Action a = LinkAction(MrcFailureKind::RATE, at, link, direction, duration);
    a.rate = rate;
    Add(a);
}

void
MrcFailureHelper::RestoreRate(Time at, uint32_t link, MrcLinkDirection direction)
{
    Add(LinkAction(MrcFailureKind::RATE_RESTORE, at, link, direction));
}

void
MrcFailureHelper::Flap(Time start, uint32_t link, Time period, double duty, Time duration)
{
    Action a = LinkAction(MrcFailureKind::FLAP, start, link, MrcLinkDirection::BOTH, duration);
    a.period = period;
    a.duty = duty;
    Add(a);
}

void
MrcFailureHelper::Flap(Time start, uint32_t link, const std::vector<Time>& offsets)
{
    Action a = LinkAction(MrcFailureKind::FLAP, start, link);
    a.offsets = offsets;
    Add(a);
}

void
MrcFailureHelper::SwitchDown(Time at, Ptr<Node> node, Time duration)
{
    Action a = LinkAction(MrcFailureKind::SWITCH_DOWN, at, 0, MrcLinkDirection::BOTH, duration);
    a.node = node;
    Add(a);
}

void
MrcFailureHelper::SwitchUp(Time at, Ptr<Node> node)
{
    Action a = LinkAction(MrcFailureKind::SWITCH_UP, at, 0);
    a.node = node;
    Add(a);
}

void
MrcFailureHelper::SwitchBlackhole(Time at, Ptr<Node> node, Time duration)
{
    Action a =
        LinkAction(MrcFailureKind::SWITCH_BLACKHOLE, at, 0, MrcLinkDirection::BOTH, duration);
    a.node = node;
    Add(a);
}

void
MrcFailureHelper::SwitchBlackholeEnd(Time at, Ptr<Node> node)
{
    Action a = LinkAction(MrcFailureKind::SWITCH_BLACKHOLE_END, at, 0);
    a.node = node;
    Add(a);
}

void
MrcFailureHelper::PortDown(Time at, uint32_t host, uint32_t plane, Time duration)
{
    Action a = LinkAction(MrcFailureKind::PORT_DOWN, at, 0, MrcLinkDirection::BOTH, duration);
    a.host = host;
    a.plane = plane;
    Add(a);
}

void
MrcFailureHelper::PortUp(Time at, uint32_t host, uint32_t plane)
{
    Action a = LinkAction(MrcFailureKind::PORT_UP, at, 0);
    a.host = host;
    a.plane = plane;
    Add(a);
}

void
MrcFailureHelper::Schedule(const MrcFailureSpec& spec)
{
    Schedule(std::vector<MrcFailureSpec>{spec});
}

void
MrcFailureHelper::Schedule(const std::vector<MrcFailureSpec>& specs)
{
    std::vector<Action> actions;
    uint64_t events = 0;
    const MrcFailureSpec* largest = nullptr;
    uint64_t largestEvents = 0;
    for (const MrcFailureSpec& s : specs)
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
    MrcFailureScheduleParser::CheckTimeOrder(specs, [&](const MrcFailureSpec& s) {
        return TargetKey(actions.at(&s - specs.data()));
    });
    if (largest)
    {
        CheckEventCount(events,
                        largest->origin + " (" + MrcFailureSpec::GetKindName(largest->kind) + " of "
                            + largest->DescribeTarget() + ")",
                        largestEvents);
    }
    for (const Action& a : actions)
    {
        Add(a);
    }
}

void
MrcFailureHelper::LoadSchedule(const std::string& path)
{
    Schedule(MrcFailureScheduleParser::ParseFile(path));
}

// ------------------------------------------------------------------------------------------
// Names and checks
// ------------------------------------------------------------------------------------------

uint32_t
MrcFailureHelper::FindLink(const std::string& a,
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
MrcFailureHelper::DescribeLink(uint32_t link) const
{
    return m_state.DescribeLink(link);
}

MrcFailureHelper::Action
MrcFailureHelper::Resolve(const MrcFailureSpec& spec) const
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
        switch (MrcFailureSpec::GetTarget(spec.kind))
        {
            case MrcFailureTarget::LINK:
                a.link = spec.linkId ? *spec.linkId
                                     : m_state.FindLink(spec.nodeA, spec.nodeB, spec.index);
                break;
            case MrcFailureTarget::SWITCH: {
                a.node = Names::Find<Node>(spec.switchName);
                if (!a.node || !m_state.GetTopology()->GetSwitchPosition(a.node))
                {
                    throw std::invalid_argument(
                        "no switch named '" + spec.switchName
                        + "' in this fabric (switches are named p<plane>-t<tier>-<index>)");
                }
                break;
            }
            case MrcFailureTarget::HOST_PORT:
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
MrcFailureHelper::Check(const Action& a) const
{
    Ptr<MrcFabricTopology> topo = m_state.GetTopology();
    auto fail = [&a](const std::string& reason) {
        throw std::invalid_argument(Prefix(a.origin) + reason);
    };
    if (a.at < Simulator::Now())
    {
        fail("at (=" + MrcFailureSpec::FormatTime(a.at)
             + ") is before the current simulation time ("
             + MrcFailureSpec::FormatTime(Simulator::Now()) + ")");
    }
    if (a.duration.IsStrictlyNegative())
    {
        fail("duration (=" + MrcFailureSpec::FormatTime(a.duration)
             + ") must be >= 0 (0: no automatic end)");
    }
    switch (MrcFailureSpec::GetTarget(a.kind))
    {
        case MrcFailureTarget::LINK:
            if (a.link >= topo->GetLinks().size())
            {
                fail("link id (=" + std::to_string(a.link) + ") must be in 0.."
                     + std::to_string(topo->GetLinks().size() - 1));
            }
            break;
        case MrcFailureTarget::SWITCH:
            if (!a.node || !topo->GetSwitchPosition(a.node))
            {
                fail("the node is not a switch of this fabric");
            }
            break;
        case MrcFailureTarget::HOST_PORT:
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
    if (a.kind == MrcFailureKind::GRAY_LOSS && !(a.probability >= 0 && a.probability <= 1))
    {
        fail("probability (=" + MrcFailureSpec::FormatNumber(a.probability)
             + ") must be in [0, 1]");
    }
    if (a.kind == MrcFailureKind::RATE && a.rate.GetBitRate() == 0)
    {
        fail("rate must be > 0 bit/s");
    }
    if (a.kind == MrcFailureKind::FLAP)
    {
        if (a.offsets.empty())
        {
            if (!a.period.IsStrictlyPositive() || !a.duration.IsStrictlyPositive())
            {
                fail("a flap's period and duration must be > 0");
            }
            if (!(a.duty > 0 && a.duty < 1))
            {
                fail("duty (=" + MrcFailureSpec::FormatNumber(a.duty)
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
MrcFailureHelper::TargetKey(const Action& a)
{
    switch (MrcFailureSpec::GetTarget(a.kind))
    {
        case MrcFailureTarget::LINK:
            return "link " + std::to_string(a.link);
        case MrcFailureTarget::SWITCH:
            return "switch " + std::to_string(a.node->GetId());
        case MrcFailureTarget::HOST_PORT:
            break;
    }
    return "host " + std::to_string(a.host) + " plane " + std::to_string(a.plane);
}

// ------------------------------------------------------------------------------------------
// Applying events
// ------------------------------------------------------------------------------------------

MrcFailureSpec
MrcFailureHelper::Timing(const Action& a)
{
    MrcFailureSpec s;
    s.kind = a.kind;
    s.at = a.at;
    s.duration = a.duration;
    s.period = a.period;
    s.duty = a.duty;
    s.offsets = a.offsets;
    return s;
}

void
MrcFailureHelper::CheckEventCount(uint64_t events,
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
            "MrcFailureHelper: the failures would make " + detail
            + ", more than MaxEvents (=" + std::to_string(m_maxEvents)
            + "); a flap makes two per period: lengthen its period or shorten its duration, or "
              "raise ns3::MrcFailureHelper::MaxEvents (e.g. "
              "--ns3::MrcFailureHelper::MaxEvents="
            + std::to_string(total) + ") to run it anyway");
    }
    if (total > kWarnEvents && m_events <= kWarnEvents)
    {
        NS_LOG_WARN("MrcFailureHelper: the failures make "
                    << detail << ", more than " << kWarnEvents << " (MaxEvents " << m_maxEvents
                    << ")");
    }
}

void
MrcFailureHelper::Add(const Action& a)
{
    Check(a);
    const MrcFailureSpec timing = Timing(a);
    const uint64_t events = timing.GetEventCount();
    CheckEventCount(events, a.origin + " (" + MrcFailureSpec::GetKindName(a.kind) + ")", events);
    m_events += events;
    const Time now = Simulator::Now();
    if (a.kind == MrcFailureKind::FLAP)
    {
        const std::vector<Time> times = timing.GetFlapTimes();
        for (size_t i = 0; i < times.size(); ++i)
        {
            Action t = a;
            t.kind = i % 2 == 0 ? MrcFailureKind::LINK_DOWN : MrcFailureKind::LINK_UP;
            t.at = times[i];
            t.by = "flap";
            t.duration = Time(0);
            Simulator::Schedule(t.at - now,
                                &MrcFailureHelper::Apply,
                                Ptr<MrcFailureHelper>(this),
                                t);
        }
        return;
    }
    Simulator::Schedule(a.at - now, &MrcFailureHelper::Apply, Ptr<MrcFailureHelper>(this), a);
    if (a.duration.IsStrictlyPositive() && MrcFailureSpec::TakesDuration(a.kind))
    {
        Action end = a;
        end.kind = MrcFailureSpec::GetEndKind(a.kind);
        end.at = a.at + a.duration;
        end.by = "duration";
        end.duration = Time(0);
        Simulator::Schedule(end.at - now,
                            &MrcFailureHelper::Apply,
                            Ptr<MrcFailureHelper>(this),
                            end);
    }
}

void
MrcFailureHelper::Apply(Action a)
{
    NS_LOG_FUNCTION(this << a.kind);
    using End = MrcFabricFailureState::LinkEnd;
    using Down = MrcFabricFailureState::DownCause;
    const bool start = MrcFailureSpec::TakesDuration(a.kind);
    const std::string direction = "direction=" + MrcFailureSpec::GetDirectionName(a.direction);
    std::string target;
    std::string params;
    switch (MrcFailureSpec::GetTarget(a.kind))
    {
        case MrcFailureTarget::LINK:
            target = m_state.DescribeLink(a.link);
            break;
        case MrcFailureTarget::SWITCH:
            target = "switch " + Names::FindName(a.node);
            break;
        case MrcFailureTarget::HOST_PORT:
            target = "host " + std::to_string(a.host) + " plane " + std::to_string(a.plane);
            break;
    }
    switch (a.kind)
    {
        case MrcFailureKind::LINK_DOWN:
        case MrcFailureKind::LINK_UP:
            m_state.SetDown(a.link, Down::LINK, start);
            break;
        case MrcFailureKind::BLACKHOLE:
        case MrcFailureKind::BLACKHOLE_END:
            for (End end : MrcFabricFailureState::GetEnds(a.direction, true))
            {
                m_state.SetBlackhole(a.link,
                                     end,
                                     MrcFabricFailureState::BlackholeCause::LINK,
                                     start);
            }
            params = direction;
            break;
        case MrcFailureKind::GRAY_LOSS:
        case MrcFailureKind::GRAY_LOSS_END:
            for (End end : MrcFabricFailureState::GetEnds(a.direction, true))
            {
                m_state.SetLossProbability(a.link, end, start ? a.probability : 0);
            }
            params =
                (start ? "probability=" + MrcFailureSpec::FormatNumber(a.probability) + " " : "")
                + direction;
            break;
        case MrcFailureKind::RATE:
        case MrcFailureKind::RATE_RESTORE: {
            std::optional<DataRate> rate;
            for (End end : MrcFabricFailureState::GetEnds(a.direction, false))
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
            params = (rate ? "rate=" + MrcFailureSpec::FormatRate(*rate) + " " : "") + direction;
            break;
        }
        case MrcFailureKind::SWITCH_DOWN:
        case MrcFailureKind::SWITCH_UP:
        case MrcFailureKind::SWITCH_BLACKHOLE:
        case MrcFailureKind::SWITCH_BLACKHOLE_END: {
            const std::vector<MrcFabricLink> links = m_state.GetTopology()->GetLinksOf(a.node);
            const bool down =
                a.kind == MrcFailureKind::SWITCH_DOWN || a.kind == MrcFailureKind::SWITCH_UP;
            for (const MrcFabricLink& l : links)
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
                                         MrcFabricFailureState::BlackholeCause::SWITCH,
                                         start);
                }
            }
            params = "links=" + std::to_string(links.size());
            break;
        }
        case MrcFailureKind::PORT_DOWN:
        case MrcFailureKind::PORT_UP:
            m_state.SetDown(m_state.GetHostLink(a.host, a.plane), Down::PORT, start);
            break;
        case MrcFailureKind::FLAP:
            NS_ABORT_MSG("a flap is applied as its transitions");
            break;
    }
    if (!a.by.empty())
    {
        params += (params.empty() ? "by=" : " by=") + a.by;
    }
    const std::string kind = MrcFailureSpec::GetKindName(a.kind);
    m_log.Add({Simulator::Now(), kind, target, params, a.origin});
    m_eventTrace(kind, target, params);
}

// ------------------------------------------------------------------------------------------
// Results
// ------------------------------------------------------------------------------------------

uint64_t
MrcFailureHelper::GetScheduledEvents() const
{
    return m_events;
}

const MrcFailureLog&
MrcFailureHelper::GetLog() const
{
    return m_log;
}

uint64_t
MrcFailureHelper::GetLostPackets(MrcFabricLossCause cause) const
{
    return m_state.GetLostPackets(cause);
}

uint64_t
MrcFailureHelper::GetLostPackets() const
{
    uint64_t n = 0;
    for (uint32_t c = 0; c < kMrcFabricLossCauses; ++c)
    {
        n += GetLostPackets(static_cast<MrcFabricLossCause>(c));
    }
    return n;
}

uint64_t
MrcFailureHelper::GetLinkLostPackets(uint32_t link, MrcFabricLossCause cause) const
{
    return m_state.GetLinkLostPackets(link, cause);
}

const MrcFabricFailureState&
MrcFailureHelper::GetState() const
{
    return m_state;
}

int64_t
MrcFailureHelper::AssignStreams(int64_t stream)
{
    return m_state.AssignStreams(stream);
}

} // namespace ns3
