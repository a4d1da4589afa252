/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FABRIC_SHORTEST_PATHS_H
#define MRC_FABRIC_SHORTEST_PATHS_H

#include "mrc-fabric-topology.h"

#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Shortest-path next hops of every switch of one plane towards every T0, computed from
 * the topology with a breadth-first search per T0 (Boost.Graph).
 *
 * A switch's next hops towards a T0 are its ports to neighbours one hop closer to it; each
 * parallel link is a separate port. Used to write static tables: all of them (ECMP) or one
 * (SRv6 fallback forwarding).
 */
class MrcFabricShortestPaths
{
  public:
    /**
     * \param topo the fabric
     * \param plane the plane
     */
    MrcFabricShortestPaths(const MrcFabricTopology& topo, uint32_t plane);

    /**
     * \param node a switch of the plane
     * \param t0 index of the destination T0 within the plane
     * \return the IPv6 interfaces of node leading one hop closer to that T0 (empty for the T0
     *         itself)
     */
    const std::vector<uint32_t>& GetNextHops(Ptr<const Node> node, uint32_t t0) const;

  private:
    /// node id -> destination T0 -> next-hop interfaces
    std::map<uint32_t, std::vector<std::vector<uint32_t>>> m_nextHops;
};

} // namespace ns3

#endif /* MRC_FABRIC_SHORTEST_PATHS_H */
