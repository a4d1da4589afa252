/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CONFIG_PATH_LIST_H
#define MRC_CONFIG_PATH_LIST_H

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Attribute settings by ns-3 Config path ("/NodeList/3/DeviceList/1/Mtu", with the
 * wildcards, ranges and alternatives Config::Set takes), collected before the objects exist
 * and applied once they do, with an error for a path that matches nothing or a value an object
 * refuses (Config::Set would abort, or silently do nothing).
 *
 * \code
 *   MrcConfigPathList config;
 *   config.Add("/NodeList/7/$ns3::TrafficControlLayer/RootQueueDiscList/1/"
 *              "$ns3::MrcTrimmingQueueDisc/TrimSize", "128");
 *   // ... build the scenario ...
 *   config.Apply(); // std::invalid_argument naming the path on a miss
 * \endcode
 */
class MrcConfigPathList
{
  public:
    /**
     * Add a setting (applied in the order added).
     * \param path "/<object path>/<attribute>", as Config::Set takes it
     * \param value the value as text
     * \throws std::invalid_argument naming the path if it is not of that form
     */
    void Add(const std::string& path, const std::string& value);

    /**
     * Set every attribute on every object its path matches now.
     * \return the number of (object, attribute) settings made
     * \throws std::invalid_argument naming the path if it matches no object, or naming the
     *         matched object, attribute and value if one refuses it
     */
    uint32_t Apply() const;

    /// \return the settings, in order
    const std::vector<std::pair<std::string, std::string>>& GetSettings() const;

    /// \return true if there are none
    bool IsEmpty() const;

  private:
    std::vector<std::pair<std::string, std::string>> m_settings; //!< (path, value)
};

} // namespace ns3

#endif /* MRC_CONFIG_PATH_LIST_H */
