/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-config-path-list.h"

#include "ns3/config.h"
#include "ns3/log.h"
#include "ns3/mrc-value-parser.h"
#include "ns3/object.h"
#include "ns3/string.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcConfigPathList");

namespace
{

/**
 * \param path a Config path
 * \return (object path, attribute name)
 * \throws std::invalid_argument naming the path if it has no object path or no attribute
 */
std::pair<std::string, std::string>
Split(const std::string& path)
{
    const size_t slash = path.rfind('/');
    if (path.empty() || path[0] != '/' || slash == 0 || slash + 1 == path.size())
    {
        throw std::invalid_argument("Config path (=\"" + path
                                    + "\") must be /<object path>/<attribute>, e.g. "
                                      "/NodeList/*/DeviceList/*/Mtu");
    }
    return {path.substr(0, slash), path.substr(slash + 1)};
}

} // namespace

void
MrcConfigPathList::Add(const std::string& path, const std::string& value)
{
    Split(path);
    m_settings.emplace_back(path, value);
}

uint32_t
MrcConfigPathList::Apply() const
{
    uint32_t made = 0;
    for (const auto& [path, value] : m_settings)
    {
        const auto [objects, attribute] = Split(path);
        Config::MatchContainer matches = Config::LookupMatches(objects);
        if (matches.GetN() == 0)
        {
            throw std::invalid_argument("Config path (=\"" + path + "\") matches no object");
        }
        for (std::size_t i = 0; i < matches.GetN(); ++i)
        {
            try
            {
                MrcValueParser::CheckAttributeText(matches.Get(i)->GetInstanceTypeId(),
                                                   attribute,
                                                   value);
            }
            catch (const std::invalid_argument& e)
            {
                throw std::invalid_argument("Config path (=\"" + path + "\"): " + e.what());
            }
            if (!matches.Get(i)->SetAttributeFailSafe(attribute, StringValue(value)))
            {
                throw std::invalid_argument(
                    "Config path (=\"" + path + "\"): " + matches.GetMatchedPath(i) + " ("
                    + matches.Get(i)->GetInstanceTypeId().GetName() + ") has no attribute "
                    + attribute + " that accepts \"" + value + "\"");
            }
            ++made;
        }
        NS_LOG_INFO(path << " = " << value << " on " << matches.GetN() << " objects");
    }
    return made;
}

const std::vector<std::pair<std::string, std::string>>&
MrcConfigPathList::GetSettings() const
{
    return m_settings;
}

bool
MrcConfigPathList::IsEmpty() const
{
    return m_settings.empty();
}

} // namespace ns3
