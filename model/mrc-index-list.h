/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_INDEX_LIST_H
#define MRC_INDEX_LIST_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * Read a comma-separated list of small non-negative integers ("1, 3,5"), as the DSCP and
 * priority list attributes take them. Empty items (and an empty list) are skipped; each item
 * must be a whole decimal number, spaces around it allowed.
 * \param list the text
 * \param max the largest value accepted
 * \return the values in list order, or nothing if an item is not a number in 0..max (the
 *         caller names its attribute and range in the error)
 */
std::optional<std::vector<uint32_t>> MrcParseIndexList(const std::string& list, uint32_t max);

} // namespace ns3

#endif /* MRC_INDEX_LIST_H */
