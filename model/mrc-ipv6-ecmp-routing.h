/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_IPV6_ECMP_ROUTING_H
#define MRC_IPV6_ECMP_ROUTING_H

#include "mrc-ecmp-flow-key.h"
#include "mrc-ecmp-route-table.h"
#include "mrc-ipv6-fabric-routing.h"

#include "ns3/ipv6-routing-protocol.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class Ipv6Route;

/**
 * \ingroup mrc
 * \brief Static IPv6 routing with per-flow ECMP, as a conventional data-centre switch runs it.
 *
 * The table (an MrcEcmpRouteTable) is written by MrcEcmpRoutingHelper from the topology and never
 * changes by itself: there is no routing protocol behind it. Each forwarded packet's next hop is
 * `active[hash(5-tuple, flow label, HashSeed) % active.size()]` of the longest matching route,
 * so every packet of a flow takes the same path. Callers (a failure or BGP model) withdraw and
 * restore next hops at given times with WithdrawNextHop() / RestoreNextHop().
 *
 * Packets to one of the switch's own addresses never reach this object (Ipv6L3Protocol delivers
 * them first). Multicast is not forwarded.
 */
class MrcIpv6EcmpRouting : public MrcIpv6FabricRouting
{
  public:
    /// Why a packet was not forwarded.
    enum class DropReason
    {
        NO_ROUTE,  //!< no route with an active next hop matches the destination
        MULTICAST, //!< multicast is not forwarded by this model
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcIpv6EcmpRouting();
    ~MrcIpv6EcmpRouting() override;

    /**
     * TracedCallback signature of the Forward trace.
     * \param packet the packet (IPv6 header removed)
     * \param header its IPv6 header
     * \param interface the outgoing IPv6 interface
     * \param hash the flow hash that selected it
     */
    typedef void (*ForwardTracedCallback)(Ptr<const Packet> packet,
                                          const Ipv6Header& header,
                                          uint32_t interface,
                                          uint32_t hash);

    /**
     * TracedCallback signature of the Drop trace.
     * \param packet the packet (IPv6 header removed)
     * \param header its IPv6 header
     * \param reason why it was dropped
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet,
                                       const Ipv6Header& header,
                                       DropReason reason);

    /**
     * TracedCallback signature of the NextHopChange trace.
     * \param interface the next hop
     * \param enabled true when restored, false when withdrawn
     * \param routesChanged how many routes changed their active group
     */
    typedef void (*NextHopChangeTracedCallback)(uint32_t interface,
                                                bool enabled,
                                                uint32_t routesChanged);

    /**
     * TracedCallback signature of the RouteChange trace.
     * \param network the route's prefix
     * \param prefixLength its length
     * \param activeNextHops how many next hops the route uses now (0: it no longer matches)
     */
    typedef void (*RouteChangeTracedCallback)(Ipv6Address network,
                                              uint8_t prefixLength,
                                              uint32_t activeNextHops);

    /**
     * Add a route (or next hops to an existing route).
     * \param network the destination prefix
     * \param prefixLength its length
     * \param interfaces the next hops (IPv6 interface indices of this node)
     */
    void AddRoute(Ipv6Address network,
                  uint8_t prefixLength,
                  const std::vector<uint32_t>& interfaces);

    /**
     * Withdraw a next hop from every ECMP group (e.g. the neighbour behind it is unreachable).
     * \param interface the IPv6 interface index
     */
    void WithdrawNextHop(uint32_t interface);

    /**
     * Restore a next hop withdrawn by WithdrawNextHop().
     * \param interface the IPv6 interface index
     */
    void RestoreNextHop(uint32_t interface);

    /**
     * Replace the next hops of one route, as a FIB update for one prefix does
     * (MrcEcmpRouteTable::SetRouteNextHops): listed members are used, the others are withdrawn from
     * this route only; an empty list makes the route stop matching (its packets are dropped and
     * counted, unless a shorter prefix matches). Giving back the original set restores the
     * original group exactly. Fires RouteChange when the active group changes.
     * \param network the route's prefix
     * \param prefixLength its length, 0..128
     * \param interfaces the next hops (IPv6 interface indices of this node) to use from now on
     * \return true if the route's active group changed
     * \throws std::invalid_argument if prefixLength > 128
     */
    bool SetRouteNextHops(Ipv6Address network,
                          uint8_t prefixLength,
                          const std::vector<uint32_t>& interfaces);

    /// \return the table (read-only)
    const MrcEcmpRouteTable& GetTable() const;

    /**
     * The next hop this switch picks for a flow, as the data path would.
     * \param key the flow key
     * \return the IPv6 interface index, or -1 if no route matches
     */
    int32_t SelectNextHop(const MrcEcmpFlowKey& key) const;

    /// \return the per-switch hash seed
    uint32_t GetHashSeed() const;

    /// \param seed the per-switch hash seed
    void SetHashSeed(uint32_t seed);

    /// \return packets forwarded so far
    uint64_t GetForwardedPackets() const;

    /// \return packets dropped for lack of a route so far
    uint64_t GetDroppedPackets() const;

    // Inherited from Ipv6RoutingProtocol
    Ptr<Ipv6Route> RouteOutput(Ptr<Packet> p,
                               const Ipv6Header& header,
                               Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr) override;
    bool RouteInput(Ptr<const Packet> p,
                    const Ipv6Header& header,
                    Ptr<const NetDevice> idev,
                    Ipv6RouteInputCbArg<UnicastForwardCallback> ucb,
                    Ipv6RouteInputCbArg<MulticastForwardCallback> mcb,
                    Ipv6RouteInputCbArg<LocalDeliverCallback> lcb,
                    Ipv6RouteInputCbArg<ErrorCallback> ecb) override;
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                           Time::Unit unit = Time::S) const override;

  private:
    MrcEcmpRouteTable m_table; //!< routes and ECMP groups
    uint32_t m_hashSeed{0};    //!< per-switch hash seed
    uint64_t m_forwarded{0};   //!< packets forwarded
    uint64_t m_dropped{0};     //!< packets dropped (no route)

    /// Trace of every forwarding decision.
    TracedCallback<Ptr<const Packet>, const Ipv6Header&, uint32_t, uint32_t> m_forwardTrace;
    /// Trace of every packet this protocol refuses to forward.
    TracedCallback<Ptr<const Packet>, const Ipv6Header&, DropReason> m_dropTrace;
    /// Trace of next-hop withdrawals and restorations.
    TracedCallback<uint32_t, bool, uint32_t> m_nextHopChangeTrace;
    /// Trace of per-route next-hop replacements.
    TracedCallback<Ipv6Address, uint8_t, uint32_t> m_routeChangeTrace;
};

/**
 * \param os output stream
 * \param reason a drop reason
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, MrcIpv6EcmpRouting::DropReason reason);

} // namespace ns3

#endif /* MRC_IPV6_ECMP_ROUTING_H */
