/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PFC_PORT_STATS_H
#define MRC_PFC_PORT_STATS_H

#include "mrc-fabric-link.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class MrcFabricTopology;

/**
 * \ingroup mrc
 * \brief The PFC counters of a fabric's ports, read from their PfcPorts at the end of a run.
 *
 * One row per port with PFC and lossless priority: both ends of every link (MrcPfcHelper installs
 * both). Ports without an MrcPfcPort give no rows, so a fabric without PFC has none.
 */
class MrcPfcPortStats
{
  public:
    /// One port's counters for one lossless priority.
    struct Row
    {
        std::string node;             //!< the port's node (ns-3 Names)
        std::string peer;             //!< the node at the other end of the link
        MrcLinkTier tier{};           //!< the link's tier
        uint32_t plane{0};            //!< the link's plane
        uint8_t priority{0};          //!< the priority
        uint64_t pausesSent{0};       //!< PAUSE frames sent (quanta > 0)
        uint64_t xonsSent{0};         //!< XON frames sent (quanta 0)
        uint64_t pausesReceived{0};   //!< PAUSE and XON frames received
        Time pausedTime{0};           //!< time this port's transmission of the priority stood
        uint64_t maxIngressBytes{0};  //!< largest ingress backlog counted for the priority
        uint64_t overflows{0};        //!< lossless arrivals beyond XOFF + headroom
        uint64_t watchdogTriggers{0}; //!< PFC watchdog firings
    };

    /// Sums over all rows.
    struct Totals
    {
        uint32_t ports{0};            //!< ports with PFC
        uint64_t pausesSent{0};       //!< PAUSE frames sent
        uint64_t xonsSent{0};         //!< XON frames sent
        Time pausedTime{0};           //!< paused time summed over ports and priorities
        Time maxPausedTime{0};        //!< the most any one port and priority was paused
        std::string maxPausedPort;    //!< which ("node->peer")
        uint64_t overflows{0};        //!< headroom overflows (a lossless class was not lossless)
        uint64_t watchdogTriggers{0}; //!< watchdog firings
    };

    /**
     * \param topo the fabric
     * \return one row per PFC port and lossless priority, in link order (lower end first)
     */
    static std::vector<Row> Collect(const MrcFabricTopology& topo);

    /**
     * \param rows rows from Collect
     * \return their sums
     */
    static Totals Sum(const std::vector<Row>& rows);

    /**
     * Write `pfc.csv`: node,peer,tier,plane,priority,pauses_sent,xons_sent,pauses_received,
     * paused_us,max_ingress_bytes,headroom_overflows,watchdog_triggers.
     * \param rows rows from Collect
     * \param os the stream
     */
    static void WriteCsv(const std::vector<Row>& rows, std::ostream& os);
};

} // namespace ns3

#endif /* MRC_PFC_PORT_STATS_H */
