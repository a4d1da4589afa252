/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-progress.h"

#include "ns3/simulator.h"

#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace ns3
{

MrcProgress::MrcProgress(std::ostream& os, Time wallInterval, Time checkInterval)
    : m_os(os)
    , m_wallInterval(wallInterval)
    , m_checkInterval(checkInterval)
{
    if (!wallInterval.IsStrictlyPositive() || !checkInterval.IsStrictlyPositive())
    {
        throw std::invalid_argument("MrcProgress: wallInterval and checkInterval must be > 0");
    }
    m_inPlace = &os == &std::cerr && isatty(fileno(stderr));
}

MrcProgress::~MrcProgress()
{
    Stop();
}

void
MrcProgress::SetStatus(Callback<std::string> status)
{
    m_status = status;
}

void
MrcProgress::Start()
{
    m_start = std::chrono::steady_clock::now();
    m_last = m_start;
    m_startEvents = Simulator::GetEventCount();
    m_event = Simulator::Schedule(m_checkInterval, &MrcProgress::Check, this);
}

void
MrcProgress::Stop()
{
    m_event.Cancel();
    if (m_printed && m_inPlace)
    {
        m_os << "\n";
    }
    m_printed = false;
}

std::string
MrcProgress::Format() const
{
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    const double events = Simulator::GetEventCount() - m_startEvents;
    std::ostringstream os;
    os << std::fixed << "[progress] sim " << std::setprecision(3)
       << Simulator::Now().GetSeconds() * 1e3 << " ms, wall " << std::setprecision(1) << wall
       << " s, " << std::setprecision(2) << (wall > 0 ? events / wall / 1e6 : 0.0) << " M events/s";
    if (!m_status.IsNull())
    {
        os << ", " << m_status();
    }
    return os.str();
}

uint64_t
MrcProgress::GetChecks() const
{
    return m_checks;
}

void
MrcProgress::Check()
{
    m_checks++;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - m_last).count() >= m_wallInterval.GetSeconds())
    {
        m_last = now;
        m_os << (m_inPlace ? "\r" : "") << Format() << (m_inPlace ? "\033[K" : "\n") << std::flush;
        m_printed = true;
    }
    m_event = Simulator::Schedule(m_checkInterval, &MrcProgress::Check, this);
}

} // namespace ns3
