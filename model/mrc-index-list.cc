/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-index-list.h"

#include <sstream>

namespace ns3
{

std::optional<std::vector<uint32_t>>
MrcParseIndexList(const std::string& list, uint32_t max)
{
    std::vector<uint32_t> values;
    std::stringstream ss(list);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        if (item.find_first_not_of(' ') == std::string::npos)
        {
            continue;
        }
        size_t used = 0;
        int value = -1;
        try
        {
            value = std::stoi(item, &used);
        }
        catch (const std::exception&)
        {
            used = 0;
        }
        if (used == 0 || item.find_first_not_of(' ', used) != std::string::npos || value < 0
            || static_cast<uint32_t>(value) > max)
        {
            return std::nullopt;
        }
        values.push_back(static_cast<uint32_t>(value));
    }
    return values;
}

} // namespace ns3
