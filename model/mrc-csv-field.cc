/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-csv-field.h"

#include "ns3/names.h"

#include <iomanip>
#include <sstream>

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

std::string
MrcMicros(Time t)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << t.GetSeconds() * 1e6;
    return os.str();
}

std::string
MrcNodeName(Ptr<Node> node)
{
    const std::string name = Names::FindName(node);
    return name.empty() ? "node-" + std::to_string(node->GetId()) : name;
}

} // namespace ns3
