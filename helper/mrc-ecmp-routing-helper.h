/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ECMP_ROUTING_HELPER_H
#define MRC_ECMP_ROUTING_HELPER_H

#include "ns3/mrc-ecmp-flow-key.h"
#include "ns3/mrc-fabric-topology.h"
#include "ns3/mrc-ipv6-ecmp-routing.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Installs static per-flow ECMP routing (MrcIpv6EcmpRouting) on every switch of a fabric.
 *
 * Tables are computed from the topology, not learnt: per plane, a breadth-first search
 * (Boost.Graph) from every T0 gives each switch's distance to it, and a switch's ECMP group
 * towards that T0's hosts (`fd00:p:t::/48`) is every link to a neighbour one hop closer
 * (parallel links count separately). A T0 routes each attached host's `/64` out of its port.
 *
 * Hash seeds: each switch gets its own seed derived from the base seed and its node id, so
 * tiers make independent choices. SetPerSwitchSeeds(false) gives every switch the base seed,
 * which reproduces ECMP polarisation.
 */
class MrcEcmpRoutingHelper
{
  public:
    MrcEcmpRoutingHelper() = default;

    /// \param seed the base hash seed (the scenario's seed)
    void SetBaseSeed(uint32_t seed);

    /// \param perSwitch true (default): a distinct seed per switch; false: one seed for all
    void SetPerSwitchSeeds(bool perSwitch);

    /**
     * Replace every switch's routing protocol by an MrcIpv6EcmpRouting holding its static table.
     * \param topo the fabric
     */
    void Install(const MrcFabricTopology& topo) const;

    /**
     * \param node a switch
     * \return its MrcIpv6EcmpRouting, or nullptr if it has none
     */
    static Ptr<MrcIpv6EcmpRouting> GetRouting(Ptr<Node> node);

    /**
     * Walk the path the data plane would give a flow, without sending anything.
     * \param topo the fabric
     * \param srcHost source host index
     * \param plane plane (the NIC port the host sends on)
     * \param key the flow key (its destination must be a host address of that plane)
     * \return the nodes visited, source host first, destination host last; empty if the walk
     *         ends in a switch without a route
     */
    static std::vector<Ptr<Node>> TracePath(const MrcFabricTopology& topo,
                                            uint32_t srcHost,
                                            uint32_t plane,
                                            const MrcEcmpFlowKey& key);

  private:
    uint32_t m_baseSeed{1};      //!< base hash seed
    bool m_perSwitchSeeds{true}; //!< derive a seed per switch
};

} // namespace ns3

#endif /* MRC_ECMP_ROUTING_HELPER_H */
