/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FABRIC_QUEUE_STATS_H
#define MRC_FABRIC_QUEUE_STATS_H

#include "ns3/node-container.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Totals over the root queue discs of a set of nodes (every NetDevice's port queue).
 */
class MrcFabricQueueStats
{
  public:
    /// The totals.
    struct Totals
    {
        uint64_t sentPackets{0};    //!< handed to NetDevices (= link traversals)
        uint64_t droppedPackets{0}; //!< dropped, for any reason
        uint64_t trimmedPackets{0}; //!< trimmed (MrcTrimmingQueueDisc only)
    };

    /**
     * \param nodes the nodes (hosts, switches or both)
     * \return the totals of their root queue discs
     */
    static Totals Sum(const NodeContainer& nodes);
};

} // namespace ns3

#endif /* MRC_FABRIC_QUEUE_STATS_H */
