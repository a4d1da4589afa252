/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcPfcPort's TypeId (attributes and trace sources) and the accessors of its attributes and
// counters; the port's behaviour is in mrc-pfc-port.cc.

#include "mrc-pfc-port.h"

#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

TypeId
MrcPfcPort::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcPfcPort")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcPfcPort>()
            .AddAttribute(
                "LosslessPriorities",
                "Comma-separated priorities (0..7) that PFC keeps lossless: paused, "
                "never dropped. Default: RoCEv2's priority 3 (DSCP 26 >> 3).",
                StringValue("3"),
                MakeStringAccessor(&MrcPfcPort::SetLosslessText, &MrcPfcPort::GetLosslessText),
                MakeStringChecker())
            .AddAttribute(
                "PriorityOfDscp",
                "Comma-separated dscp:priority pairs (DSCP 0..63, priority 0..7) that "
                "override the class-selector map, priority = DSCP >> 3, for the port's "
                "queue disc and for the PAUSE check of a host NIC. Set it alike on every "
                "port (Config::SetDefault): PAUSE frames name priorities. Default: "
                "empty (RoCEv2 data, DSCP 26, in priority 3; CNPs, DSCP 48, in 6).",
                StringValue(""),
                MakeStringAccessor(&MrcPfcPort::SetDscpMapText, &MrcPfcPort::GetDscpMapText),
                MakeStringChecker())
            .AddAttribute("ThresholdMode",
                          "\"static\": XoffThreshold/XonThreshold bytes; \"dynamic\": XOFF = "
                          "DynamicAlpha x free shared buffer, XON = XOFF - XonOffset.",
                          StringValue("static"),
                          MakeStringAccessor(&MrcPfcPort::SetModeText, &MrcPfcPort::GetModeText),
                          MakeStringChecker())
            .AddAttribute(
                "XoffThreshold",
                "Static mode: backlog of a lossless priority (bytes) above which the "
                "upstream port is paused.",
                UintegerValue(64 * 1024),
                MakeUintegerAccessor(&MrcPfcPort::SetXoffThreshold, &MrcPfcPort::GetXoffThreshold),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "XonThreshold",
                "Static mode: backlog (bytes) at or below which the upstream port is "
                "resumed; at most XoffThreshold.",
                UintegerValue(48 * 1024),
                MakeUintegerAccessor(&MrcPfcPort::SetXonThreshold, &MrcPfcPort::GetXonThreshold),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "DynamicAlpha",
                "Dynamic mode: XOFF as a fraction of the free shared buffer, in "
                "(0, 64].",
                DoubleValue(0.125),
                MakeDoubleAccessor(&MrcPfcPort::SetDynamicAlpha, &MrcPfcPort::GetDynamicAlpha),
                MakeDoubleChecker<double>())
            .AddAttribute(
                "XonOffset",
                "Dynamic mode: XON is this many bytes below XOFF.",
                UintegerValue(2 * 9000),
                MakeUintegerAccessor(&MrcPfcPort::SetXonOffset, &MrcPfcPort::GetXonOffset),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute("PauseQuanta",
                          "Pause time sent in PAUSE frames, in quanta of 512 bit times (1..65535).",
                          UintegerValue(0xffff),
                          MakeUintegerAccessor(&MrcPfcPort::m_pauseQuanta),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("ResponseDelay",
                          "Time the peer takes to act on a PAUSE (headroom computation).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&MrcPfcPort::m_responseDelay),
                          MakeTimeChecker())
            .AddAttribute("WatchdogTime",
                          "PFC watchdog: a priority paused continuously this long is declared "
                          "stuck (deadlock, PAUSE storm) and its PAUSE frames are ignored; 0 "
                          "turns the watchdog off (the default). Must be >= 0.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcPfcPort::m_watchdogTime),
                          MakeTimeChecker())
            .AddAttribute("WatchdogRestoreTime",
                          "PFC watchdog: a stuck priority honours PAUSE frames again once this "
                          "long passes without a PAUSE frame for it. Must be > 0.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&MrcPfcPort::m_watchdogRestore),
                          MakeTimeChecker())
            .AddAttribute("WatchdogAction",
                          "PFC watchdog: what happens to the packets of a stuck priority: "
                          "\"drop\" (the egress MrcPfcQueueDisc drops those it holds and those "
                          "that arrive) or \"forward\" (they are sent, ignoring PAUSE frames).",
                          StringValue("drop"),
                          MakeStringAccessor(&MrcPfcPort::SetWatchdogActionText,
                                             &MrcPfcPort::GetWatchdogActionText),
                          MakeStringChecker())
            .AddTraceSource("PauseSent",
                            "A PAUSE (quanta > 0) or XON (0) frame was sent: priority, quanta.",
                            MakeTraceSourceAccessor(&MrcPfcPort::m_pauseSentTrace),
                            "ns3::MrcPfcPort::PauseTracedCallback")
            .AddTraceSource("PauseReceived",
                            "A PAUSE or XON frame arrived for a priority: priority, quanta.",
                            MakeTraceSourceAccessor(&MrcPfcPort::m_pauseReceivedTrace),
                            "ns3::MrcPfcPort::PauseTracedCallback")
            .AddTraceSource("PauseStateChange",
                            "Transmission of a priority stopped (true) or resumed (false).",
                            MakeTraceSourceAccessor(&MrcPfcPort::m_pauseStateTrace),
                            "ns3::MrcPfcPort::PauseStateTracedCallback")
            .AddTraceSource("HeadroomOverflow",
                            "A lossless arrival found the backlog above XOFF + headroom "
                            "(misconfiguration): priority, backlog bytes.",
                            MakeTraceSourceAccessor(&MrcPfcPort::m_overflowTrace),
                            "ns3::MrcPfcPort::OverflowTracedCallback")
            .AddTraceSource("WatchdogTrigger",
                            "The PFC watchdog declared a priority stuck (true) or restored it "
                            "(false): priority, stuck.",
                            MakeTraceSourceAccessor(&MrcPfcPort::m_watchdogTrace),
                            "ns3::MrcPfcPort::WatchdogTracedCallback");
    return tid;
}

bool
MrcPfcPort::IsStuck(uint8_t priority) const
{
    return priority < N && m_stuck[priority];
}

MrcPfcPort::WatchdogAction
MrcPfcPort::GetWatchdogAction() const
{
    return m_action;
}

void
MrcPfcPort::SetWatchdogActionText(std::string text)
{
    if (text == "drop")
    {
        m_action = WatchdogAction::DROP;
    }
    else if (text == "forward")
    {
        m_action = WatchdogAction::FORWARD;
    }
    else
    {
        throw std::invalid_argument("MrcPfcPort: WatchdogAction (=\"" + text
                                    + "\") must be \"drop\" or \"forward\"");
    }
}

std::string
MrcPfcPort::GetWatchdogActionText() const
{
    return m_action == WatchdogAction::DROP ? "drop" : "forward";
}

template<typename T>
void
MrcPfcPort::SetAndReconfigure(T& field, const T& value)
{
    // Before Initialize the value waits for Configure (which checks them all together); after,
    // it takes effect at once, or is refused and the port keeps its configuration.
    const T old = field;
    field = value;
    if (!m_configured)
    {
        return;
    }
    try
    {
        Configure();
    }
    catch (...)
    {
        field = old;
        Configure();
        throw;
    }
}

void
MrcPfcPort::SetLosslessText(std::string text)
{
    SetAndReconfigure(m_losslessText, text);
}

std::string
MrcPfcPort::GetLosslessText() const
{
    return m_losslessText;
}

void
MrcPfcPort::SetDscpMapText(std::string text)
{
    SetAndReconfigure(m_dscpMapText, text);
}

std::string
MrcPfcPort::GetDscpMapText() const
{
    return m_dscpMapText;
}

void
MrcPfcPort::SetModeText(std::string text)
{
    SetAndReconfigure(m_modeText, text);
}

std::string
MrcPfcPort::GetModeText() const
{
    return m_modeText;
}

void
MrcPfcPort::SetXoffThreshold(uint32_t bytes)
{
    SetAndReconfigure(m_xoffThreshold, bytes);
}

uint32_t
MrcPfcPort::GetXoffThreshold() const
{
    return m_xoffThreshold;
}

void
MrcPfcPort::SetXonThreshold(uint32_t bytes)
{
    SetAndReconfigure(m_xonThreshold, bytes);
}

uint32_t
MrcPfcPort::GetXonThreshold() const
{
    return m_xonThreshold;
}

void
MrcPfcPort::SetDynamicAlpha(double alpha)
{
    SetAndReconfigure(m_alpha, alpha);
}

double
MrcPfcPort::GetDynamicAlpha() const
{
    return m_alpha;
}

void
MrcPfcPort::SetXonOffset(uint32_t bytes)
{
    SetAndReconfigure(m_xonOffset, bytes);
}

uint32_t
MrcPfcPort::GetXonOffset() const
{
    return m_xonOffset;
}

uint64_t
MrcPfcPort::GetWatchdogTriggers(uint8_t priority) const
{
    CheckPriority(priority);
    return m_watchdogTriggers[priority];
}

uint64_t
MrcPfcPort::GetIngressBytes(uint8_t priority) const
{
    CheckPriority(priority);
    return m_ingress[priority];
}

uint64_t
MrcPfcPort::GetMaxIngressBytes(uint8_t priority) const
{
    CheckPriority(priority);
    return m_maxIngress[priority];
}

uint64_t
MrcPfcPort::GetPausesSent(uint8_t priority) const
{
    CheckPriority(priority);
    return m_pausesSent[priority];
}

uint64_t
MrcPfcPort::GetXonsSent(uint8_t priority) const
{
    CheckPriority(priority);
    return m_xonsSent[priority];
}

uint64_t
MrcPfcPort::GetPausesReceived(uint8_t priority) const
{
    CheckPriority(priority);
    return m_pausesReceived[priority];
}

Time
MrcPfcPort::GetPausedTime(uint8_t priority) const
{
    CheckPriority(priority);
    Time total = m_pausedTotal[priority];
    if (m_paused[priority])
    {
        total += Simulator::Now() - m_pausedSince[priority];
    }
    return total;
}

uint64_t
MrcPfcPort::GetHeadroomOverflows(uint8_t priority) const
{
    CheckPriority(priority);
    return m_overflows[priority];
}

} // namespace ns3
