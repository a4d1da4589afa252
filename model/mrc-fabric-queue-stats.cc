/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-fabric-queue-stats.h"

#include "ns3/mrc-trimming-queue-disc.h"
#include "ns3/traffic-control-layer.h"

namespace ns3
{

MrcFabricQueueStats::Totals
MrcFabricQueueStats::Sum(const NodeContainer& nodes)
{
    Totals t;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<TrafficControlLayer> tc = (*it)->GetObject<TrafficControlLayer>();
        for (uint32_t d = 0; tc && d < (*it)->GetNDevices(); ++d)
        {
            Ptr<QueueDisc> q = tc->GetRootQueueDiscOnDevice((*it)->GetDevice(d));
            if (!q)
            {
                continue;
            }
            const QueueDisc::Stats& s = q->GetStats();
            t.sentPackets += s.nTotalSentPackets;
            t.droppedPackets += s.nTotalDroppedPackets;
            if (auto trim = DynamicCast<MrcTrimmingQueueDisc>(q))
            {
                t.trimmedPackets += trim->GetTrimStats().trimmed;
            }
        }
    }
    return t;
}

} // namespace ns3
