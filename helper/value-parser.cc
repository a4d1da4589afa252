/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "value-parser.h"

#include <regex>
#include <sstream>
#include <stdexcept>

namespace ns3
{

DataRate
ValueParser::ParseDataRate(const std::string& field, const std::string& text)
{
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

Time
ValueParser::ParseTime(const std::string& field, const std::string& text)
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
    return Time(text);
}

void
ValueParser::CheckAttributeText(const std::string& field,
                                Ptr<const AttributeChecker> checker,
                                const std::string& text)
{
    const std::string type = checker ? checker->GetValueTypeName() : "";
    if (type == "ns3::TimeValue")
    {
        // Time(std::string): a number, then optionally a unit (seconds without one).
        static const std::regex form(
            "^[+-]?[0-9]*\\.?[0-9]+([eE][+-]?[0-9]+)?(s|ms|us|ns|ps|fs|min|h|d|y)?$");
        if (!std::regex_match(text, form))
        {
            throw std::invalid_argument(field + " (=\"" + text
                                        + "\") must be a time: a number and a unit (s, ms, us, "
                                          "ns, ...) such as \"1us\"");
        }
    }
}

void
ValueParser::CheckAttributeText(TypeId typeId,
                                const std::string& attribute,
                                const std::string& text)
{
    TypeId::AttributeInformation info;
    if (typeId.LookupAttributeByName(attribute, &info))
    {
        CheckAttributeText(attribute, info.checker, text);
    }
}

} // namespace ns3
