/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FAILURE_LOG_H
#define MRC_FAILURE_LOG_H

#include "ns3/nstime.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The failure events that happened, in the order they happened (MrcFailureHelper).
 *
 * CSV form (WriteCsv), one header line then one line per event:
 *
 *   time_ns,kind,target,parameters,origin
 *   100000,link-down,link p0-t0-0 p0-t1-1,,plan.json: events[0]
 *   150000,link-up,link p0-t0-0 p0-t1-1,by=duration,plan.json: events[0]
 *
 * time_ns: simulation time in nanoseconds; kind: an MrcFailureKind name (a flap appears as its
 * link-down and link-up transitions); target: "link <node> <node>[ index <i>]",
 * "switch <node>" or "host <i> plane <p>"; parameters: space-separated key=value pairs
 * (direction, probability, rate, links, by=duration|flap for transitions a schedule entry
 * implied); origin: the schedule entry ("<file>:<line>", "<file>: events[<i>]" or "api").
 * A field containing a comma or a double quote is quoted, RFC 4180 style.
 */
class MrcFailureLog
{
  public:
    /// One event.
    struct Entry
    {
        Time time;              //!< when it happened
        std::string kind;       //!< MrcFailureKind name
        std::string target;     //!< what it acted on
        std::string parameters; //!< key=value pairs
        std::string origin;     //!< which schedule entry
    };

    /**
     * \param entry an event (appended)
     */
    void Add(const Entry& entry);

    /// \return every event, in order
    const std::vector<Entry>& GetEntries() const;

    /// \return the CSV header line (without newline)
    static std::string GetCsvHeader();

    /**
     * \param os stream to write the CSV form to
     */
    void WriteCsv(std::ostream& os) const;

    /**
     * \param path file to write the CSV form to
     * \throws std::invalid_argument if it cannot be written
     */
    void WriteCsv(const std::string& path) const;

  private:
    std::vector<Entry> m_entries; //!< events
};

} // namespace ns3

#endif /* MRC_FAILURE_LOG_H */
