/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-strict-options.h"

#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/mrc-value-parser.h"
#include "ns3/uinteger.h"

#include <iostream>
#include <stdexcept>

namespace ns3
{

namespace
{

/**
 * \param name option name
 * \param checker the checker of the option's type and range
 * \param text its text
 * \return whether MrcValueParser accepts the text (else the reason is printed on stderr)
 */
bool
Accepted(const std::string& name, Ptr<const AttributeChecker> checker, const std::string& text)
{
    try
    {
        MrcValueParser::CheckAttributeText("--" + name, checker, text);
        return true;
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << e.what() << std::endl;
        return false;
    }
}

/// Parse an unsigned option of type T. \copydetails MrcStrictOptions::Parse
template<class T>
bool
ParseUnsigned(const std::string& name, const std::string& text, T& value)
{
    if (!Accepted(name, MakeUintegerChecker<T>(), text))
    {
        return false;
    }
    value = static_cast<T>(std::stoull(text));
    return true;
}

/// Parse a signed option of type T. \copydetails MrcStrictOptions::Parse
template<class T>
bool
ParseSigned(const std::string& name, const std::string& text, T& value)
{
    if (!Accepted(name, MakeIntegerChecker<T>(), text))
    {
        return false;
    }
    value = static_cast<T>(std::stoll(text));
    return true;
}

} // namespace

bool
MrcStrictOptions::Parse(const std::string& name, const std::string& text, uint64_t& value)
{
    return ParseUnsigned(name, text, value);
}

bool
MrcStrictOptions::Parse(const std::string& name, const std::string& text, uint32_t& value)
{
    return ParseUnsigned(name, text, value);
}

bool
MrcStrictOptions::Parse(const std::string& name, const std::string& text, uint16_t& value)
{
    return ParseUnsigned(name, text, value);
}

bool
MrcStrictOptions::Parse(const std::string& name, const std::string& text, uint8_t& value)
{
    return ParseUnsigned(name, text, value);
}

bool
MrcStrictOptions::Parse(const std::string& name, const std::string& text, int64_t& value)
{
    return ParseSigned(name, text, value);
}

bool
MrcStrictOptions::Parse(const std::string& name, const std::string& text, int32_t& value)
{
    return ParseSigned(name, text, value);
}

bool
MrcStrictOptions::Parse(const std::string& name, const std::string& text, double& value)
{
    if (!Accepted(name, MakeDoubleChecker<double>(), text))
    {
        return false;
    }
    value = std::stod(text);
    return true;
}

} // namespace ns3
