/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CSV_FIELD_H
#define MRC_CSV_FIELD_H

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

} // namespace ns3

#endif /* MRC_CSV_FIELD_H */
