/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-failure-log.h"

#include "mrc-csv-field.h"

#include <fstream>
#include <stdexcept>

namespace ns3
{

void
MrcFailureLog::Add(const Entry& entry)
{
    m_entries.push_back(entry);
}

const std::vector<MrcFailureLog::Entry>&
MrcFailureLog::GetEntries() const
{
    return m_entries;
}

std::string
MrcFailureLog::GetCsvHeader()
{
    return "time_ns,kind,target,parameters,origin";
}

void
MrcFailureLog::WriteCsv(std::ostream& os) const
{
    os << GetCsvHeader() << "\n";
    for (const Entry& e : m_entries)
    {
        os << e.time.GetNanoSeconds() << "," << MrcCsvField(e.kind) << "," << MrcCsvField(e.target)
           << "," << MrcCsvField(e.parameters) << "," << MrcCsvField(e.origin) << "\n";
    }
}

void
MrcFailureLog::WriteCsv(const std::string& path) const
{
    std::ofstream out(path);
    if (!out)
    {
        throw std::invalid_argument(path + ": cannot write the failure log");
    }
    WriteCsv(out);
    if (!out)
    {
        throw std::invalid_argument(path + ": error while writing the failure log");
    }
}

} // namespace ns3
