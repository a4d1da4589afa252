/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CSV_FIELD_H
#define MRC_CSV_FIELD_H

#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * A text field of the module's CSV files (RFC 4180): as is, or quoted with its double quotes
 * doubled if it holds a comma, a double quote or a line break.
 * \param field the field
 * \return it, ready to write
 */
std::string MrcCsvField(const std::string& field);

/**
 * \ingroup mrc
 * A time as the module's result files write it (CSV and JSON).
 * \param t the time
 * \return it in microseconds, fixed 3 decimals (nanosecond resolution)
 */
std::string MrcMicros(Time t);

/**
 * \ingroup mrc
 * A node as the module's result files name it.
 * \param node the node
 * \return its ns-3 name (Names), or "node-<id>" without one
 */
std::string MrcNodeName(Ptr<Node> node);

} // namespace ns3

#endif /* MRC_CSV_FIELD_H */
