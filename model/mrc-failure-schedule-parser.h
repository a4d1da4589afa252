/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FAILURE_SCHEDULE_PARSER_H
#define MRC_FAILURE_SCHEDULE_PARSER_H

#include "mrc-failure-spec.h"

#include <functional>
#include <istream>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Reads a failure schedule file (JSON or CSV) into MrcFailureSpec entries, checking
 * everything that can be checked without a fabric.
 *
 * Both formats carry the same fields (see doc/mrc.rst, "Failure injection"):
 *  - JSON (Boost.PropertyTree): `{"events": [ {"at": "100us", "kind": "link-down",
 *    "link": "p0-t0-0 p0-t1-1", "duration": "50us"}, ... ]}`; numbers may be written as JSON
 *    numbers or strings; flap offsets as an array of times or one space-separated string.
 *  - CSV: a header line naming the columns (any order; `at` and `kind` required), then one
 *    event per line; an empty cell is an absent field; `#` starts a comment line; no quoting
 *    (no value contains a comma); flap offsets space-separated in one cell.
 *
 * Limits, checked before parsing: kMaxBytes of text, kMaxJsonDepth levels of JSON nesting.
 *
 * Errors throw std::invalid_argument: "<file>:<line>: <reason>" for CSV (and JSON syntax
 * errors), "<file>: events[<i>]: <reason>" for JSON entries; the reason names the field, the
 * value and what is accepted. Checked: syntax, unknown or missing fields, unknown kinds, value
 * forms and ranges (times >= 0 with a unit, durations and periods > 0, probability in [0, 1],
 * duty in (0, 1), positive rates, integers >= 0), and that the entries of one target are in
 * time order. Whether named nodes, links, hosts and planes exist is MrcFailureHelper's check.
 */
class MrcFailureScheduleParser
{
  public:
    /// File formats.
    enum class Format : uint8_t
    {
        JSON, //!< .json
        CSV,  //!< .csv
    };

    /// Largest schedule read, in bytes (checked before parsing).
    static constexpr uint64_t kMaxBytes = 16 * 1024 * 1024;
    /// Deepest JSON nesting read (a schedule needs 4: {"events": [{"times": [...]}]}); the
    /// JSON reader recurses per level, so deeper text is refused before it is parsed.
    static constexpr uint32_t kMaxJsonDepth = 32;

    /**
     * \param path a schedule file, .json or .csv
     * \return its entries, in file order
     * \throws std::invalid_argument if it cannot be read, has another extension, is larger
     *         than kMaxBytes, or is malformed or inconsistent
     */
    static std::vector<MrcFailureSpec> ParseFile(const std::string& path);

    /**
     * \param in the text
     * \param name the file name to use in messages and MrcFailureSpec::origin
     * \param format its format
     * \return the entries, in order
     * \throws std::invalid_argument if the text is longer than kMaxBytes, nested deeper than
     *         kMaxJsonDepth (JSON), or malformed or inconsistent
     */
    static std::vector<MrcFailureSpec> Parse(std::istream& in,
                                             const std::string& name,
                                             Format format);

    /**
     * \param path a file name
     * \return its format, by extension
     * \throws std::invalid_argument unless it ends in .json or .csv
     */
    static Format GetFormat(const std::string& path);

    /**
     * Check that the entries of each target are in time order (a flap counts at its start).
     * \param specs entries, in the order they were written
     * \param key maps an entry to its target (equal keys: same target)
     * \throws std::invalid_argument naming both entries otherwise
     */
    static void CheckTimeOrder(const std::vector<MrcFailureSpec>& specs,
                               const std::function<std::string(const MrcFailureSpec&)>& key);

    /// \return every field name, comma-separated, for messages
    static std::string GetFieldNames();

  private:
    /**
     * \param in text
     * \param name file name
     * \return the text, at most kMaxBytes
     * \throws std::invalid_argument naming the limit if there is more
     */
    static std::string ReadLimited(std::istream& in, const std::string& name);

    /**
     * \param text JSON text
     * \param name file name
     * \throws std::invalid_argument naming the line and the limit if arrays and objects nest
     *         deeper than kMaxJsonDepth
     */
    static void CheckJsonDepth(const std::string& text, const std::string& name);

    /// One entry before interpretation: field name -> value (lists space-separated).
    struct Record
    {
        std::string where;                        //!< "plan.csv:7" or "plan.json: events[3]"
        std::map<std::string, std::string> field; //!< present fields
    };

    /**
     * \param in text
     * \param name file name
     * \return the records
     */
    static std::vector<Record> ReadJson(std::istream& in, const std::string& name);

    /**
     * \param in text
     * \param name file name
     * \return the records
     */
    static std::vector<Record> ReadCsv(std::istream& in, const std::string& name);

    /**
     * \param record a record
     * \return the entry it describes
     * \throws std::invalid_argument if it does not describe one
     */
    static MrcFailureSpec Interpret(const Record& record);
};

} // namespace ns3

#endif /* MRC_FAILURE_SCHEDULE_PARSER_H */
