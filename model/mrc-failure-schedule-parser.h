/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FAILURE_SCHEDULE_PARSER_H
#define MRC_FAILURE_SCHEDULE_PARSER_H

#include "mrc-failure-spec.h"

#include <functional>
#include <istream>
#include <map>
#include <optional>
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

    /// \return every field a schedule entry may have, in documentation order
    static const std::vector<std::string>& FieldNames();

    /**
     * \param s text
     * \return it with every byte that is not printable ASCII written as \\xNN, so that a message
     *         shows it (a NUL would end the C string what() returns)
     */
    static std::string Escape(const std::string& s);

    /**
     * \param field field name
     * \param text its value
     * \throws std::invalid_argument showing the value escaped if it holds a control character,
     *         or (other than a comment, which may be any UTF-8 text) a byte that is not
     *         printable ASCII
     */
    static void CheckBytes(const std::string& field, const std::string& text);

    /**
     * \param record a record
     * \return the entry it describes
     * \throws std::invalid_argument if it does not describe one
     */
    static MrcFailureSpec Interpret(const Record& record);

    /**
     * Check the record's fields (known names, their bytes), its kind and that every field
     * applies to that kind.
     * \param record a record
     * \return its kind
     * \throws std::invalid_argument naming the field or the kind otherwise
     */
    static MrcFailureKind InterpretKind(const Record& record);

    /**
     * \param record a record
     * \param field a field name
     * \return the field's value, if the record has it
     */
    static std::optional<std::string> GetField(const Record& record, const std::string& field);

    /**
     * \param record a record whose kind InterpretKind accepted
     * \param field a field name
     * \return the field's value
     * \throws std::invalid_argument naming the fields of the record's kind if it is missing
     */
    static std::string RequireField(const Record& record, const std::string& field);

    /**
     * Set the entry's target (link, switch or host port) from the record.
     * \param record a record whose kind InterpretKind accepted
     * \param spec the entry, its kind set
     * \throws std::invalid_argument if the target's fields are missing or malformed
     */
    static void InterpretTarget(const Record& record, MrcFailureSpec& spec);

    /**
     * Set the entry's link (an id, or two node names and an optional index) from the record.
     * \param record a record of a kind that targets a link
     * \param spec the entry
     * \throws std::invalid_argument if the link fields are missing or malformed
     */
    static void InterpretLink(const Record& record, MrcFailureSpec& spec);

    /**
     * Set the entry's direction from the record's optional direction field.
     * \param record a record
     * \param spec the entry
     * \throws std::invalid_argument unless the direction is both, up or down
     */
    static void InterpretDirection(const Record& record, MrcFailureSpec& spec);

    /**
     * \param record a gray-loss record
     * \return its loss probability
     * \throws std::invalid_argument if it is missing or not a number in [0, 1]
     */
    static double InterpretProbability(const Record& record);

    /**
     * Set a flap's timing: its offsets (times), or its period, duty and duration.
     * \param record a flap record
     * \param spec the entry
     * \throws std::invalid_argument if the record has both forms or neither, or a value is
     *         malformed or out of range (offsets must increase strictly)
     */
    static void InterpretFlap(const Record& record, MrcFailureSpec& spec);

    /**
     * \param spec an entry, fully interpreted
     * \throws std::invalid_argument if its end (at + duration, or at + the last flap offset)
     *         is beyond ns-3's time range
     */
    static void CheckTimeSpan(const MrcFailureSpec& spec);
};

} // namespace ns3

#endif /* MRC_FAILURE_SCHEDULE_PARSER_H */
