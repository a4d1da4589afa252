/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ECMP_ROUTE_TABLE_H
#define MRC_ECMP_ROUTE_TABLE_H

#include "ns3/ipv6-address.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Longest-prefix-match table of ECMP groups, as a switch's FIB holds it.
 *
 * Each route maps an IPv6 prefix to a group of next hops (outgoing IPv6 interface indices;
 * a parallel link is a separate member). A next hop can be withdrawn from every group at once
 * (what a switch does when a neighbour's session goes down) or from one route only (what a
 * withdrawal of one prefix does). A route whose group has no member left no longer matches, so a
 * shorter prefix (if any) takes over, as in a real FIB.
 *
 * Lookup is exact-match per prefix length, longest first: O(number of distinct lengths). It
 * reads a compiled copy of the table (a switch's FIB as hardware holds it): one open-addressing
 * array of the routes that have an active next hop, keyed by prefix length and masked address,
 * rebuilt on the first lookup after any change. A lookup then reads a slot or two of one array
 * per length instead of a tree node per length, a bucket and a chained node: at a fat-tree's
 * scale, where a switch's table is rarely in the processor's cache, these reads are the cost.
 */
class MrcEcmpRouteTable
{
  public:
    /// A route as listed by GetRoutes().
    struct Route
    {
        Ipv6Address network;           //!< network address (masked)
        uint8_t prefixLength;          //!< prefix length, 0..128
        std::vector<uint32_t> members; //!< every configured next hop, in insertion order
        std::vector<uint32_t> active;  //!< next hops currently in use
    };

    /**
     * Add a route, or add next hops to an existing route with the same prefix.
     * \param network network address (host bits are ignored)
     * \param prefixLength prefix length, 0..128
     * \param interfaces next hops (IPv6 interface indices), at least one
     * \throws std::invalid_argument if prefixLength > 128 or interfaces is empty
     */
    void AddRoute(Ipv6Address network,
                  uint8_t prefixLength,
                  const std::vector<uint32_t>& interfaces);

    /**
     * Remove a route entirely.
     * \param network network address
     * \param prefixLength prefix length
     * \return true if the route existed
     */
    bool RemoveRoute(Ipv6Address network, uint8_t prefixLength);

    /**
     * Withdraw (or restore) one next hop from every route.
     * \param interface the next hop
     * \param enabled false to withdraw, true to restore
     * \return the number of routes whose active group changed
     */
    uint32_t SetNextHopEnabled(uint32_t interface, bool enabled);

    /**
     * Withdraw (or restore) one next hop from one route.
     * \param network network address of the route
     * \param prefixLength prefix length of the route
     * \param interface the next hop
     * \param enabled false to withdraw, true to restore
     * \return true if the route exists and has that next hop as a member
     */
    bool SetNextHopEnabled(Ipv6Address network,
                           uint8_t prefixLength,
                           uint32_t interface,
                           bool enabled);

    /**
     * Replace the next hops one route uses (what a FIB update for one prefix does): members
     * listed in interfaces are used (unless withdrawn from every route by SetNextHopEnabled),
     * the other members are withdrawn from this route only, and listed interfaces that are not
     * members yet are appended. The members keep their order, so giving back the original set
     * restores the original group exactly (same hash choices). An empty list withdraws every
     * member: the route stops matching (a shorter prefix, if any, takes over).
     * \param network network address of the route (host bits are ignored)
     * \param prefixLength prefix length, 0..128
     * \param interfaces the next hops the route uses from now on
     * \return true if the route's active group changed (a missing route is created when
     *         interfaces is not empty)
     * \throws std::invalid_argument if prefixLength > 128
     */
    bool SetRouteNextHops(Ipv6Address network,
                          uint8_t prefixLength,
                          const std::vector<uint32_t>& interfaces);

    /**
     * \param network network address of the route (host bits are ignored)
     * \param prefixLength prefix length
     * \return the route, if the table has it (whether or not it has an active next hop)
     */
    std::optional<Route> GetRoute(Ipv6Address network, uint8_t prefixLength) const;

    /**
     * \param interface a next hop
     * \return false if the next hop is withdrawn from every route
     */
    bool IsNextHopEnabled(uint32_t interface) const;

    /**
     * Longest-prefix match over routes that still have an active next hop.
     * \param destination the destination address
     * \return the active next hops of the matching route, or nullptr if none matches
     */
    const std::vector<uint32_t>* Lookup(Ipv6Address destination) const;

    /**
     * Longest-prefix match as Lookup, for callers that use one next hop (static SRv6 tables):
     * the compiled table keeps each route's first active next hop beside its key, so the
     * answer reads no further memory.
     * \param destination the destination address
     * \return the first active next hop of the matching route, or nullopt if none matches
     */
    std::optional<uint32_t> LookupFirst(Ipv6Address destination) const;

    /// \return the number of routes
    uint32_t GetNRoutes() const;

    /// \return every route, sorted by prefix length (longest first) then address
    std::vector<Route> GetRoutes() const;

  private:
    /// 128-bit key of a masked prefix.
    struct Key
    {
        uint64_t hi; //!< first 64 bits
        uint64_t lo; //!< last 64 bits

        /**
         * \param o other key
         * \return equality
         */
        bool operator==(const Key& o) const
        {
            return hi == o.hi && lo == o.lo;
        }
    };

    /// Hash of a Key.
    struct KeyHash
    {
        /**
         * \param k the key
         * \return its hash
         */
        size_t operator()(const Key& k) const
        {
            return std::hash<uint64_t>()(k.hi * 0x9e3779b97f4a7c15ULL ^ k.lo);
        }
    };

    /// One route's group.
    struct Group
    {
        std::vector<uint32_t> members; //!< configured next hops
        std::set<uint32_t> withdrawn;  //!< next hops withdrawn from this route only
        std::vector<uint32_t> active;  //!< members minus withdrawn (here and globally)
    };

    /**
     * \param address an address
     * \param prefixLength a prefix length
     * \return the masked key
     */
    static Key MakeKey(Ipv6Address address, uint8_t prefixLength);

    /**
     * \param key a key
     * \param prefixLength a prefix length (128 or more keeps every bit)
     * \return the key with the bits after the prefix cleared
     */
    static Key Mask(Key key, uint8_t prefixLength);

    /**
     * \param key a masked prefix
     * \return its address
     */
    static Ipv6Address ToAddress(const Key& key);

    /**
     * Recompute a group's active next hops.
     * \param group the group
     * \return true if the active set changed
     */
    bool Refresh(Group& group) const;

    /// One slot of the compiled table.
    struct Slot
    {
        Key key;                             //!< masked address
        const std::vector<uint32_t>* active; //!< the group's active next hops (null: free)
        uint32_t first;                      //!< active->front(), kept here for LookupFirst
        uint8_t prefixLength;                //!< the route's prefix length
    };

    /**
     * \param destination the destination address
     * \return the slot of the longest matching route with an active next hop, or nullptr
     */
    const Slot* Find(Ipv6Address destination) const;

    /**
     * \param key a masked key
     * \param prefixLength its prefix length
     * \return the key's home slot index in the compiled table (before the size mask)
     */
    static uint64_t SlotHash(const Key& key, uint8_t prefixLength);

    /// Rebuild m_slots and m_levels from m_routes.
    void Compile() const;

    /// Most distinct first-32-bit values a Level lists (more: the level is probed always).
    static constexpr uint8_t kLevelTops = 3;
    /// Level::tops of a level probed always.
    static constexpr uint8_t kNoFilter = kLevelTops + 1;

    /**
     * One prefix length of the compiled table, with the first 32 bits of its routes where
     * they take at most kLevelTops values: a destination outside them cannot match, and Find
     * skips the probe (a random slot, a cache miss) without reading the table. A T0 switch's
     * host-link routes and its uSID locators differ there, so a uSID carrier probes one level.
     */
    struct Level
    {
        uint8_t length;                         //!< the prefix length
        uint8_t tops;                           //!< values in top (or kNoFilter)
        std::array<uint32_t, kLevelTops> top{}; //!< the routes' first 32 bits

        /**
         * \param first the first 32 bits of an address
         * \return false if no route of this level starts so (the filter is on and lacks them)
         */
        bool MayMatch(uint32_t first) const
        {
            return tops == kNoFilter
                   || std::find(top.begin(), top.begin() + tops, first) != top.begin() + tops;
        }
    };

    // What lookups read comes first (it shares a cache line with its owner's hot members).
    /// Compiled table: routes with an active next hop, open addressing, a power-of-two size.
    mutable std::vector<Slot> m_slots;
    mutable std::vector<Level> m_levels; //!< prefix lengths in m_slots, longest first
    mutable bool m_stale{true};          //!< m_routes changed since the last Compile()
    /// Routes by prefix length, longest first.
    std::map<uint8_t, std::unordered_map<Key, Group, KeyHash>, std::greater<>> m_routes;
    std::set<uint32_t> m_withdrawn; //!< next hops withdrawn from every route
};

} // namespace ns3

#endif /* MRC_ECMP_ROUTE_TABLE_H */
