/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_VALUE_PARSER_H
#define MRC_VALUE_PARSER_H

#include "ns3/attribute.h"
#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/queue-size.h"
#include "ns3/type-id.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Parses user-supplied strings (command line, scenario files, Python) into ns-3 values.
 *
 * ns-3's own string constructors of DataRate and Time, and the string readers of most
 * attribute values, abort the program on a malformed string (integers and doubles on any
 * trailing text); times beyond ns-3's range wrap silently. These throw std::invalid_argument
 * naming the field and the accepted form or range instead.
 */
class MrcValueParser
{
  public:
    /**
     * \param field name of the parameter, for the message
     * \param text e.g. "100Gbps", "400Gb/s"
     * \return the rate, > 0
     * \throws std::invalid_argument if text is not a positive data rate
     */
    static DataRate ParseDataRate(const std::string& field, const std::string& text);

    /**
     * \param field name of the parameter, for the message
     * \param text e.g. "512KiB", "100p"
     * \return the size, > 0 (QueueSize's own constructor aborts on a malformed string)
     * \throws std::invalid_argument naming field if text is not a positive queue size
     */
    static QueueSize ParseQueueSize(const std::string& field, const std::string& text);

    /**
     * \param field name of the parameter, for the message
     * \param text e.g. "1us", "2.5ms", "0s"
     * \return the time, >= 0
     * \throws std::invalid_argument if text is not a non-negative time with a unit, or is
     *         beyond ns-3's time range (GetMaxTimeText)
     */
    static Time ParseTime(const std::string& field, const std::string& text);

    /**
     * A time given as a number of units (a command-line option in microseconds, say).
     * \param field name of the parameter, for the message
     * \param value the number, >= 0
     * \param unit its unit
     * \return the time
     * \throws std::invalid_argument if value is negative, not finite, or beyond ns-3's time
     *         range (where Time would wrap)
     */
    static Time ToTime(const std::string& field, double value, Time::Unit unit);

    /// \return ns-3's largest time at the current resolution, as text ("9223372036.854775807s")
    static std::string GetMaxTimeText();

    /**
     * Check attribute text before ns-3 reads it: ns-3 aborts the program on a malformed
     * integer, double, time, data rate, queue size or address (any trailing text), reads an
     * unsigned "-1" as its largest value and wraps a time beyond its range. Checked by the
     * checker's value type: UintegerValue, IntegerValue, DoubleValue, BooleanValue, EnumValue,
     * TimeValue, DataRateValue, QueueSizeValue, Ipv4AddressValue, Ipv4MaskValue,
     * Ipv6AddressValue, Ipv6PrefixValue, Mac48AddressValue and AddressValue, then against the
     * checker itself (its range). Other types are left to ns-3. Call before SetAttribute /
     * Config::Set / SetDefault with a StringValue.
     * \param field the attribute, for the message
     * \param checker its checker
     * \param text the value
     * \throws std::invalid_argument naming the field and the accepted form or range if ns-3
     *         would abort on the text or refuse it
     */
    static void CheckAttributeText(const std::string& field,
                                   Ptr<const AttributeChecker> checker,
                                   const std::string& text);

    /**
     * CheckAttributeText for an attribute known by type and name.
     * \param typeId the type, e.g. "ns3::MrcQueuePair"
     * \param attribute its attribute name
     * \param text the value
     * \throws std::invalid_argument as CheckAttributeText (an unknown type or attribute passes:
     *         ns-3 refuses it itself)
     */
    static void CheckAttributeText(TypeId typeId,
                                   const std::string& attribute,
                                   const std::string& text);

    /**
     * CheckAttributeText for a GlobalValue (RngRun, RngSeed, ...).
     * \param name the global value's name
     * \param text the value
     * \throws std::invalid_argument as CheckAttributeText (an unknown name passes)
     */
    static void CheckGlobalValueText(const std::string& name, const std::string& text);

    /**
     * Check the ns-3 arguments of a command line before CommandLine::Parse reads them:
     * `--ns3::<Type>::<Attribute>=<value>` and `--<GlobalValue>=<value>`. The program's own
     * options are CommandLine's to check.
     * \param args the arguments, the program name first (as argv)
     * \throws std::invalid_argument naming the argument and the accepted form or range
     */
    static void CheckCommandLine(const std::vector<std::string>& args);

    /**
     * CheckCommandLine, then cmd.Parse. On a refused value, print "<program>: <reason>" on
     * stderr and exit with status 1, as CommandLine does for a value it refuses itself.
     * \param cmd the command line
     * \param argc argument count
     * \param argv arguments
     */
    static void ParseCommandLine(CommandLine& cmd, int argc, char* argv[]);
};

} // namespace ns3

#endif /* MRC_VALUE_PARSER_H */
