/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-csv-field.h"

namespace ns3
{

std::string
MrcCsvField(const std::string& field)
{
    if (field.find_first_of(",\"\r\n") == std::string::npos)
    {
        return field;
    }
    std::string quoted = "\"";
    for (char c : field)
    {
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return quoted + "\"";
}

} // namespace ns3
