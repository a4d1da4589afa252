/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-pfc-port-stats.h"

#include "mrc-csv-field.h"
#include "mrc-fabric-topology.h"

#include "ns3/mrc-pfc-helper.h"
#include "ns3/mrc-pfc-pause-header.h"

namespace ns3
{

namespace
{

/**
 * Append the rows of one port.
 * \param link its link
 * \param lowerEnd the port is the link's lower end
 * \param rows where to append
 */
void
AddPort(const MrcFabricLink& link, bool lowerEnd, std::vector<MrcPfcPortStats::Row>& rows)
{
    Ptr<MrcPfcPort> port = MrcPfcHelper::GetPort(lowerEnd ? link.lowerDevice : link.upperDevice);
    if (!port)
    {
        return;
    }
    for (uint8_t p = 0; p < MrcPfcPauseHeader::kPriorities; ++p)
    {
        if (!port->IsLossless(p))
        {
            continue;
        }
        MrcPfcPortStats::Row r;
        r.node = MrcNodeName(lowerEnd ? link.lower : link.upper);
        r.peer = MrcNodeName(lowerEnd ? link.upper : link.lower);
        r.tier = link.tier;
        r.plane = link.plane;
        r.priority = p;
        r.pausesSent = port->GetPausesSent(p);
        r.xonsSent = port->GetXonsSent(p);
        r.pausesReceived = port->GetPausesReceived(p);
        r.pausedTime = port->GetPausedTime(p);
        r.maxIngressBytes = port->GetMaxIngressBytes(p);
        r.overflows = port->GetHeadroomOverflows(p);
        r.watchdogTriggers = port->GetWatchdogTriggers(p);
        rows.push_back(r);
    }
}

} // namespace

std::vector<MrcPfcPortStats::Row>
MrcPfcPortStats::Collect(const MrcFabricTopology& topo)
{
    std::vector<Row> rows;
    for (const MrcFabricLink& link : topo.GetLinks())
    {
        AddPort(link, true, rows);
        AddPort(link, false, rows);
    }
    return rows;
}

MrcPfcPortStats::Totals
MrcPfcPortStats::Sum(const std::vector<Row>& rows)
{
    Totals t;
    std::string last;
    for (const Row& r : rows)
    {
        const std::string port = r.node + "->" + r.peer;
        if (port != last)
        {
            t.ports++;
            last = port;
        }
        t.pausesSent += r.pausesSent;
        t.xonsSent += r.xonsSent;
        t.pausedTime += r.pausedTime;
        if (r.pausedTime > t.maxPausedTime)
        {
            t.maxPausedTime = r.pausedTime;
            t.maxPausedPort = port;
        }
        t.overflows += r.overflows;
        t.watchdogTriggers += r.watchdogTriggers;
    }
    return t;
}

void
MrcPfcPortStats::WriteCsv(const std::vector<Row>& rows, std::ostream& os)
{
    os << "node,peer,tier,plane,priority,pauses_sent,xons_sent,pauses_received,paused_us,"
          "max_ingress_bytes,headroom_overflows,watchdog_triggers\n";
    for (const Row& r : rows)
    {
        os << MrcCsvField(r.node) << "," << MrcCsvField(r.peer) << "," << r.tier << "," << r.plane
           << "," << unsigned(r.priority) << "," << r.pausesSent << "," << r.xonsSent << ","
           << r.pausesReceived << "," << MrcMicros(r.pausedTime) << "," << r.maxIngressBytes << ","
           << r.overflows << "," << r.watchdogTriggers << "\n";
    }
}

} // namespace ns3
