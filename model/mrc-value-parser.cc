/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcValueParser, first part: values (data rates, queue sizes, times) and the check of an
// attribute's text by its checker. Checks of values found by name (a TypeId's attribute, a
// GlobalValue, the ns-3 arguments of a command line): mrc-value-parser-command-line.cc.

#include "mrc-value-parser.h"

#include "ns3/string.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <iomanip>
#include <limits>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/**
 * \param unit a time unit
 * \return seconds per unit
 */
long double
SecondsPer(Time::Unit unit)
{
    static const std::map<Time::Unit, long double> seconds = {
        {Time::Y, 365.0L * 86400},
        {Time::D, 86400},
        {Time::H, 3600},
        {Time::MIN, 60},
        {Time::S, 1},
        {Time::MS, 1e-3L},
        {Time::US, 1e-6L},
        {Time::NS, 1e-9L},
        {Time::PS, 1e-12L},
        {Time::FS, 1e-15L},
    };
    return seconds.at(unit);
}

/**
 * \param unit a time unit
 * \return its symbol, as Time(std::string) reads it
 */
std::string
UnitSymbol(Time::Unit unit)
{
    static const std::map<Time::Unit, std::string> symbols = {
        {Time::Y, "y"},
        {Time::D, "d"},
        {Time::H, "h"},
        {Time::MIN, "min"},
        {Time::S, "s"},
        {Time::MS, "ms"},
        {Time::US, "us"},
        {Time::NS, "ns"},
        {Time::PS, "ps"},
        {Time::FS, "fs"},
    };
    return symbols.at(unit);
}

/**
 * \param value a number of units, as ns-3 reads it (a double)
 * \param unit the unit
 * \return whether Time holds it: its magnitude in steps of the current resolution fits int64
 */
bool
InTimeRange(double value, Time::Unit unit)
{
    const long double steps = std::fabs(static_cast<long double>(value)) * SecondsPer(unit)
                              / SecondsPer(Time::GetResolution());
    return std::isfinite(steps)
           && steps <= static_cast<long double>(std::numeric_limits<int64_t>::max());
}

/**
 * \param field the field
 * \param text its value as written
 * \return the message for a time beyond ns-3's range
 */
std::string
BeyondTimeRange(const std::string& field, const std::string& text)
{
    return field + " (=" + text + ") is beyond ns-3's time range: at most "
           + MrcValueParser::GetMaxTimeText();
}

/**
 * Range check of a time in the forms Time(std::string) reads: a number, then a unit
 * (seconds without one). The form must have been checked.
 * \param field the field
 * \param text the time
 * \throws std::invalid_argument if Time would wrap it
 */
void
CheckTimeRange(const std::string& field, const std::string& text)
{
    static const std::map<std::string, Time::Unit> units = {
        {"y", Time::Y},
        {"d", Time::D},
        {"h", Time::H},
        {"min", Time::MIN},
        {"s", Time::S},
        {"ms", Time::MS},
        {"us", Time::US},
        {"ns", Time::NS},
        {"ps", Time::PS},
        {"fs", Time::FS},
        {"", Time::S},
    };
    const size_t end = text.find_first_not_of("+-0123456789.eE");
    const std::string unit = end == std::string::npos ? "" : text.substr(end);
    // As Time(std::string) reads the number: a double (huge exponents become infinite here).
    const double value = std::strtod(text.substr(0, end).c_str(), nullptr);
    if (!InTimeRange(value, units.at(unit)))
    {
        throw std::invalid_argument(BeyondTimeRange(field, "\"" + text + "\""));
    }
    // In range, so Time reads it without wrapping; a value that is not 0 but holds less than
    // one step would silently become 0 (and then fail a "> 0" check with a misleading message).
    if (value != 0 && Time(text).IsZero())
    {
        const std::string resolution = "1" + UnitSymbol(Time::GetResolution());
        throw std::invalid_argument(field + " (=\"" + text + "\") is below ns-3's time resolution ("
                                    + resolution + "): it would be 0");
    }
}

/**
 * \param text digits, optionally signed
 * \param isSigned read as int64 (else uint64)
 * \return whether the value fits
 */
bool
FitsInteger(const std::string& text, bool isSigned)
{
    errno = 0;
    if (isSigned)
    {
        std::strtoll(text.c_str(), nullptr, 10);
    }
    else
    {
        std::strtoull(text.c_str(), nullptr, 10);
    }
    return errno == 0;
}

/**
 * \param field the field
 * \param text the value
 * \param form what is accepted
 * \return the message for a refused value
 */
std::string
Refused(const std::string& field, const std::string& text, const std::string& form)
{
    return field + " (=\"" + text + "\") must be " + form;
}

/**
 * \param checker an integer or double checker
 * \return "[min, max]" from its type information ("uint32_t 1:16")
 */
std::string
RangeOf(Ptr<const AttributeChecker> checker)
{
    const std::string info = checker->GetUnderlyingTypeInformation();
    const size_t space = info.rfind(' ');
    const size_t colon = info.find(':', space == std::string::npos ? 0 : space);
    if (space == std::string::npos || colon == std::string::npos)
    {
        return "(" + info + ")";
    }
    return "[" + info.substr(space + 1, colon - space - 1) + ", " + info.substr(colon + 1) + "]";
}

/**
 * \param field the field
 * \param checker its checker
 * \param text the value
 * \param form what is accepted, for the message
 * \throws std::invalid_argument if the checker refuses the (well-formed) text
 */
void
CheckAccepted(const std::string& field,
              Ptr<const AttributeChecker> checker,
              const std::string& text,
              const std::string& form)
{
    if (!checker->CreateValidValue(StringValue(text)))
    {
        throw std::invalid_argument(Refused(field, text, form));
    }
}

/// \copydoc CheckAccepted
void
CheckUnsigned(const std::string& field,
              Ptr<const AttributeChecker> checker,
              const std::string& text,
              const std::string& form)
{
    // istream reads "-1" as the largest value and stops at trailing text (ns-3 then aborts).
    static const std::regex digits("^\\+?[0-9]+$");
    if (!std::regex_match(text, digits) || !FitsInteger(text, false))
    {
        throw std::invalid_argument(Refused(field, text, form));
    }
    CheckAccepted(field, checker, text, form);
}

/// \copydoc CheckAccepted
void
CheckSigned(const std::string& field,
            Ptr<const AttributeChecker> checker,
            const std::string& text,
            const std::string& form)
{
    static const std::regex digits("^[+-]?[0-9]+$");
    if (!std::regex_match(text, digits) || !FitsInteger(text, true))
    {
        throw std::invalid_argument(Refused(field, text, form));
    }
    CheckAccepted(field, checker, text, form);
}

/// \copydoc CheckAccepted
void
CheckDouble(const std::string& field,
            Ptr<const AttributeChecker> checker,
            const std::string& text,
            const std::string& form)
{
    static const std::regex number("^[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?$");
    if (!std::regex_match(text, number) || !std::isfinite(std::strtod(text.c_str(), nullptr)))
    {
        throw std::invalid_argument(Refused(field, text, form));
    }
    CheckAccepted(field, checker, text, form);
}

/// \copydoc CheckAccepted
void
CheckTime(const std::string& field,
          Ptr<const AttributeChecker> checker,
          const std::string& text,
          const std::string& form)
{
    // Time(std::string): a number, then optionally a unit (seconds without one).
    static const std::regex time(
        "^[+-]?[0-9]*\\.?[0-9]+([eE][+-]?[0-9]+)?(s|ms|us|ns|ps|fs|min|h|d|y)?$");
    if (!std::regex_match(text, time))
    {
        throw std::invalid_argument(Refused(field, text, form));
    }
    CheckTimeRange(field, text);
    CheckAccepted(field, checker, text, form);
}

/**
 * A number and a unit from a table, the number times the unit's multiplier at most max.
 * \param field the field
 * \param text the value
 * \param units unit -> multiplier
 * \param bare multiplier of a number without a unit (0: a unit is required)
 * \param max the largest value
 * \param form what is accepted, for the message
 */
void
CheckQuantity(const std::string& field,
              const std::string& text,
              const std::map<std::string, long double>& units,
              long double bare,
              long double max,
              const std::string& form)
{
    // DataRate and QueueSize read the number up to the first character not in "0123456789."
    // and compare the rest with their units; a rate without a unit is an integer in bit/s.
    static const std::regex quantity("^([0-9]+\\.?[0-9]*|\\.[0-9]+)([A-Za-z/]*)$");
    std::smatch m;
    if (!std::regex_match(text, m, quantity))
    {
        throw std::invalid_argument(Refused(field, text, form));
    }
    const std::string unit = m[2];
    const auto it = units.find(unit);
    const bool known =
        unit.empty() ? bare > 0 && text.find('.') == std::string::npos : it != units.end();
    if (!known)
    {
        throw std::invalid_argument(Refused(field, text, form));
    }
    const long double value =
        std::strtold(std::string(m[1]).c_str(), nullptr) * (unit.empty() ? bare : it->second);
    if (!(value <= max))
    {
        std::ostringstream os;
        os << std::fixed << std::setprecision(0) << max;
        throw std::invalid_argument(field + " (=\"" + text + "\") is beyond the largest value, "
                                    + os.str() + (bare > 0 ? " bit/s" : " bytes or packets"));
    }
}

/// \return DataRate's units -> bit/s
const std::map<std::string, long double>&
DataRateUnits()
{
    static const std::map<std::string, long double> units = [] {
        std::map<std::string, long double> u;
        const std::map<std::string, long double> prefixes = {
            {"", 1},
            {"k", 1e3L},
            {"K", 1e3L},
            {"Ki", 1024.0L},
            {"M", 1e6L},
            {"Mi", 1048576.0L},
            {"G", 1e9L},
            {"Gi", 1073741824.0L},
        };
        for (const auto& [prefix, factor] : prefixes)
        {
            for (const auto& [unit, bits] : std::map<std::string, long double>{{"b", 1}, {"B", 8}})
            {
                u[prefix + unit + "/s"] = factor * bits;
                if (prefix.find('i') == std::string::npos)
                {
                    u[prefix + unit + "ps"] = factor * bits; // ns-3 has no "Kibps"
                }
            }
        }
        return u;
    }();
    return units;
}

/**
 * \param field the field
 * \param text a data rate
 * \param form what is accepted, for the message
 * \throws std::invalid_argument unless DataRate reads it without aborting or wrapping
 */
void
CheckDataRateForm(const std::string& field, const std::string& text, const std::string& form)
{
    CheckQuantity(field,
                  text,
                  DataRateUnits(),
                  1,
                  static_cast<long double>(std::numeric_limits<uint64_t>::max()),
                  form);
}

/// \copydoc CheckAccepted
void
CheckDataRate(const std::string& field,
              Ptr<const AttributeChecker> checker,
              const std::string& text,
              const std::string& form)
{
    CheckDataRateForm(field, text, form);
    CheckAccepted(field, checker, text, form);
}

/// \copydoc CheckAccepted
void
CheckQueueSize(const std::string& field,
               Ptr<const AttributeChecker> checker,
               const std::string& text,
               const std::string& form)
{
    static const std::map<std::string, long double> units = {
        {"B", 1},
        {"kB", 1e3L},
        {"KB", 1e3L},
        {"KiB", 1024.0L},
        {"MB", 1e6L},
        {"MiB", 1048576.0L},
        {"p", 1},
        {"kp", 1e3L},
        {"Kp", 1e3L},
        {"Kip", 1024.0L},
        {"Mp", 1e6L},
        {"Mip", 1048576.0L},
    };
    CheckQuantity(field,
                  text,
                  units,
                  0,
                  static_cast<long double>(std::numeric_limits<uint32_t>::max()),
                  form);
    CheckAccepted(field, checker, text, form);
}

/**
 * \param checker a checker
 * \return its value type's name without "ns3::" (ns-3.37 names ATTRIBUTE_HELPER types without
 *         it: "DataRateValue", but "ns3::TimeValue")
 */
std::string
ValueTypeOf(Ptr<const AttributeChecker> checker)
{
    const std::string name = checker->GetValueTypeName();
    return name.compare(0, 5, "ns3::") == 0 ? name.substr(5) : name;
}

/**
 * \param family AF_INET or AF_INET6
 * \param text an address
 * \return whether inet_pton reads it
 */
bool
IsInetAddress(int family, const std::string& text)
{
    unsigned char buf[16];
    return inet_pton(family, text.c_str(), buf) == 1;
}

/// \copydoc CheckAccepted
void
CheckAddress(const std::string& field,
             Ptr<const AttributeChecker> checker,
             const std::string& text,
             const std::string& form)
{
    const std::string type = ValueTypeOf(checker);
    bool ok = false;
    if (type == "Ipv4AddressValue")
    {
        ok = IsInetAddress(AF_INET, text);
    }
    else if (type == "Ipv4MaskValue")
    {
        static const std::regex length("^/([0-9]|[12][0-9]|3[0-2])$");
        ok = std::regex_match(text, length) || IsInetAddress(AF_INET, text);
    }
    else if (type == "Ipv6AddressValue" || type == "Ipv6PrefixValue")
    {
        ok = IsInetAddress(AF_INET6, text);
    }
    else if (type == "Mac48AddressValue")
    {
        static const std::regex mac("^([0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}$");
        ok = std::regex_match(text, mac);
    }
    else if (type == "AddressValue")
    {
        // Address's text form: type-length-bytes, in hex ("07-06-00:00:00:00:00:01").
        static const std::regex address(
            "^[0-9A-Fa-f]{2}-([0-9A-Fa-f]{2})-[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2})*$");
        std::smatch m;
        ok = std::regex_match(text, m, address)
             && std::stoul(std::string(m[1]), nullptr, 16) == (text.size() - 5) / 3
             && (text.size() - 5) / 3 <= 20;
    }
    if (!ok)
    {
        throw std::invalid_argument(Refused(field, text, form));
    }
    CheckAccepted(field, checker, text, form);
}

/// A value type's check and the accepted form, for messages.
struct TypeCheck
{
    /// the check
    std::function<void(const std::string&,
                       Ptr<const AttributeChecker>,
                       const std::string&,
                       const std::string&)>
        check;
    /// the accepted form, given the checker
    std::function<std::string(Ptr<const AttributeChecker>)> form;
};

/**
 * \param text a fixed description
 * \return a form function returning it
 */
std::function<std::string(Ptr<const AttributeChecker>)>
Fixed(const std::string& text)
{
    return [text](Ptr<const AttributeChecker>) {
        return text;
    };
}

/// \return the checks, by the checker's value type name
const std::map<std::string, TypeCheck>&
TypeChecks()
{
    static const std::map<std::string, TypeCheck> checks = {
        {"UintegerValue",
         {CheckUnsigned,
          [](Ptr<const AttributeChecker> c) {
              return "an integer in " + RangeOf(c);
          }}},
        {"IntegerValue",
         {CheckSigned,
          [](Ptr<const AttributeChecker> c) {
              return "an integer in " + RangeOf(c);
          }}},
        {"DoubleValue",
         {CheckDouble,
          [](Ptr<const AttributeChecker> c) {
              return "a number in " + RangeOf(c);
          }}},
        {"BooleanValue", {CheckAccepted, Fixed("true or false (also 1, 0, t, f)")}},
        {"EnumValue",
         {CheckAccepted,
          [](Ptr<const AttributeChecker> c) {
              return "one of: "
                     + std::regex_replace(c->GetUnderlyingTypeInformation(),
                                          std::regex("\\|"),
                                          ", ");
          }}},
        {"TimeValue",
         {CheckTime,
          Fixed("a time: a number and a unit (s, ms, us, ns, ...) such as \"1us\", within the "
                "attribute's range")}},
        {"DataRateValue",
         {CheckDataRate,
          Fixed("a data rate: a number and a unit (bps, kbps, Mbps, Gbps, Bps, ..., or b/s, "
                "Gb/s, GiB/s, ...) such as \"100Gbps\"")}},
        {"QueueSizeValue",
         {CheckQueueSize,
          Fixed("a queue size: a number and a unit (p, kp, Mp, B, kB, MB, KiB, MiB, ...) such "
                "as \"100p\"")}},
        {"Ipv4AddressValue", {CheckAddress, Fixed("an IPv4 address such as \"10.0.0.1\"")}},
        {"Ipv4MaskValue",
         {CheckAddress, Fixed("an IPv4 mask such as \"255.255.255.0\" or \"/24\"")}},
        {"Ipv6AddressValue", {CheckAddress, Fixed("an IPv6 address such as \"2001:db8::1\"")}},
        {"Ipv6PrefixValue",
         {CheckAddress, Fixed("an IPv6 prefix mask such as \"ffff:ffff:ffff:ffff::\"")}},
        {"Mac48AddressValue", {CheckAddress, Fixed("a MAC address such as \"00:00:00:00:00:01\"")}},
        {"AddressValue",
         {CheckAddress,
          Fixed("an address as ns-3 writes it: type-length-bytes in hex, such as "
                "\"07-06-00:00:00:00:00:01\"")}},
    };
    return checks;
}

} // namespace

DataRate
MrcValueParser::ParseDataRate(const std::string& field, const std::string& text)
{
    CheckDataRateForm(field, text, "a positive data rate such as \"100Gbps\"");
    std::istringstream is(text);
    DataRate rate;
    is >> rate; // sets failbit on a malformed rate (DataRate's constructor would abort)
    if (is.fail() || !is.eof() || rate.GetBitRate() == 0)
    {
        throw std::invalid_argument(field + " (=\"" + text
                                    + "\") must be a positive data rate such as \"100Gbps\"");
    }
    return rate;
}

QueueSize
MrcValueParser::ParseQueueSize(const std::string& field, const std::string& text)
{
    // QueueSizeValue aborts on trailing text: the attribute-text check refuses it first.
    CheckAttributeText(field, MakeQueueSizeChecker(), text);
    QueueSizeValue value;
    if (!value.DeserializeFromString(text, MakeQueueSizeChecker()) || value.Get().GetValue() == 0)
    {
        throw std::invalid_argument(field + " (=\"" + text
                                    + "\") must be a positive queue size such as \"512KiB\" or "
                                      "\"100p\"");
    }
    return value.Get();
}

Time
MrcValueParser::ParseTime(const std::string& field, const std::string& text)
{
    // The forms Time(std::string) accepts; anything else would abort inside ns-3.
    static const std::regex form(
        "^[0-9]*\\.?[0-9]+([eE][+-]?[0-9]+)?(s|ms|us|ns|ps|fs|min|h|d|y)$");
    if (!std::regex_match(text, form))
    {
        throw std::invalid_argument(field + " (=\"" + text
                                    + "\") must be a non-negative time with a unit (s, ms, us, "
                                      "ns, ...) such as \"1us\"");
    }
    CheckTimeRange(field, text);
    return Time(text);
}

Time
MrcValueParser::ToTime(const std::string& field, double value, Time::Unit unit)
{
    std::ostringstream text;
    text << value << " " << UnitSymbol(unit);
    if (!(value >= 0) || !std::isfinite(value))
    {
        throw std::invalid_argument(field + " (=" + text.str() + ") must be a time >= 0");
    }
    if (!InTimeRange(value, unit))
    {
        throw std::invalid_argument(BeyondTimeRange(field, text.str()));
    }
    return Time::FromDouble(value, unit);
}

std::string
MrcValueParser::GetMaxTimeText()
{
    const long double seconds =
        std::numeric_limits<int64_t>::max() * SecondsPer(Time::GetResolution());
    std::ostringstream os;
    os << std::fixed << std::setprecision(0) << std::floor(seconds) << "s (about "
       << std::floor(seconds / SecondsPer(Time::Y)) << " years)";
    return os.str();
}

void
MrcValueParser::CheckAttributeText(const std::string& field,
                                   Ptr<const AttributeChecker> checker,
                                   const std::string& text)
{
    if (!checker)
    {
        return;
    }
    const auto it = TypeChecks().find(ValueTypeOf(checker));
    if (it != TypeChecks().end())
    {
        it->second.check(field, checker, text, it->second.form(checker));
    }
}

} // namespace ns3
