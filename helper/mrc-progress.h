/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PROGRESS_H
#define MRC_PROGRESS_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief A one-line progress indicator for long runs: simulated time, wall time, events per
 * second and a caller-supplied status (e.g. "step 3/10"), at most once per wall-clock interval.
 *
 * It checks the wall clock from a simulation event every CheckInterval of simulated time
 * (cheap: one event per check) and prints when WallInterval has passed since the last line.
 * On a terminal the line is rewritten in place ('\\r'); otherwise each report is its own
 * line. ns-3's ShowProgress is not used because it reports speed as a ratio to real time with
 * three decimals, which reads 0.000x for packet-level fabric simulations (about 1e-4 x), and
 * has no wall time or status.
 *
 * Output goes to the given stream only (stderr in the examples), so results are unaffected.
 */
class MrcProgress
{
  public:
    /**
     * \param os where to print
     * \param wallInterval wall-clock time between lines (> 0)
     * \param checkInterval simulated time between wall-clock checks (> 0)
     */
    MrcProgress(std::ostream& os, Time wallInterval, Time checkInterval);
    ~MrcProgress();

    /// \param status returns the status text appended to each line
    void SetStatus(Callback<std::string> status);

    /// Start reporting (schedules the first check at now + checkInterval).
    void Start();

    /// Stop reporting; ends an in-place line with a newline.
    void Stop();

    /// \return the line a report would print now (without '\\r' or newline)
    std::string Format() const;

    /// \return the simulation events this reporter has executed (its checks), so that event
    ///         counts reported elsewhere can leave them out
    uint64_t GetChecks() const;

  private:
    /// Check the wall clock; print if due; reschedule.
    void Check();

    std::ostream& m_os;                            //!< output
    Time m_wallInterval;                           //!< between lines
    Time m_checkInterval;                          //!< between checks
    Callback<std::string> m_status;                //!< status text
    EventId m_event;                               //!< next check
    std::chrono::steady_clock::time_point m_start; //!< Start()
    std::chrono::steady_clock::time_point m_last;  //!< last line
    uint64_t m_startEvents{0};                     //!< event count at Start()
    bool m_inPlace{false};                         //!< rewrite the line ('\\r')
    bool m_printed{false};                         //!< a line is open
    uint64_t m_checks{0};                          //!< checks executed
};

} // namespace ns3

#endif /* MRC_PROGRESS_H */
