/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SRV6_ROUTING_HELPER_H
#define MRC_SRV6_ROUTING_HELPER_H

#include "ns3/mrc-fabric-topology.h"
#include "ns3/mrc-ipv6-srv6-host-routing.h"
#include "ns3/mrc-ipv6-srv6-routing.h"
#include "ns3/mrc-usid-carrier.h"
#include "ns3/mrc-usid-plan.h"

#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * One source-routed path through the fabric, as an entropy value (EV) names it.
 */
struct MrcSrv6Path
{
    uint32_t ev{0};    //!< the EV
    uint32_t plane{0}; //!< plane (NIC port)
    uint32_t interface {
        0
    };                                 //!< source host's IPv6 interface on that plane
    std::vector<uint16_t> usids;       //!< uSIDs, first switch first, host port last
    std::vector<Ipv6Address> carriers; //!< the uSIDs packed into carrier addresses
    std::vector<Ptr<Node>> switches;   //!< the switches the path crosses, in order
};

/**
 * \ingroup mrc
 * \brief Installs MRC's static SRv6 data plane on a fabric and maps entropy values to paths.
 *
 * Install(): uSIDs from MrcUsidPlan; on every switch an MrcIpv6Srv6Routing with its uSIDs (all
 * variants) and a static table: each neighbour's locator per parallel link (variant v -> the
 * v-th link), the host-facing ports' uSIDs (T0), and, for plain IPv6 traffic, one
 * shortest-path route per T0 prefix. On every host an MrcIpv6Srv6HostRouting (ahead of its static
 * routing) owning the uSID of each of its NIC ports.
 *
 * EVs (32 bits): bits 31..28 the plane, bits 27..0 the path choice c within the plane:
 *  - same T0: c = 0 (one path);
 *  - same pod (two-tier: any pair): c < t0Uplinks: the source T0's uplink u = c goes to T1
 *    u % t1PerPod over its (u / t1PerPod)-th parallel link, and the path comes down over the
 *    same parallel index;
 *  - across pods (three tiers): c < t0Uplinks * t1Uplinks: u1 = c % t0Uplinks as above,
 *    u2 = c / t0Uplinks picks the T1's uplink (T2 u2 % groupSize of its group, parallel index
 *    u2 / groupSize); down through the destination pod's T1 of the same group.
 * A choice c at or beyond the number of paths P of the pair names path c mod P: a sender whose
 * EV set is larger than the pair's paths (few T1s, or EvSetSize large) holds several EVs per
 * path, as an MRC NIC does when its EVs outnumber the paths (the EV is hashed onto the paths),
 * and still has backups. Each EV is retired, probed and restored on its own.
 * The path's uSIDs are source T0, [T1, [T2, T1'],] destination T0, destination port: the
 * per-destination template with the EV's plane written in every uSID and its uplink choices in
 * the T1/T2 uSIDs. They are packed into carriers of UsidsPerCarrier uSIDs (default: as many as
 * fit, 6 with a 32-bit block); a path that needs more than one carrier travels with an SRH.
 */
class MrcSrv6RoutingHelper
{
  public:
    MrcSrv6RoutingHelper();

    /**
     * \param blockBits locator block length (16, 32, 48, 64)
     * \param block block value (default fcbb:bb00::/32)
     */
    void SetBlock(uint32_t blockBits, uint64_t block);
    /// \param n uSIDs per carrier, 1..capacity (fewer than fit forces several carriers + SRH)
    void SetUsidsPerCarrier(uint32_t n);
    /// \param force carry an SRH even when one carrier holds the whole path
    void SetForceSrh(bool force);
    /// \param forward switches forward non-SRv6 packets by their table (true) or drop them
    void SetForwardUnmatched(bool forward);

    /**
     * Install the data plane.
     * \param topo the fabric
     * \throws std::invalid_argument if the fabric does not fit the uSID plan
     */
    void Install(Ptr<MrcFabricTopology> topo);

    /// \return the uSID plan (after Install)
    const MrcUsidPlan& GetPlan() const;
    /// \return the uSID format
    const MrcUsidCarrier& GetCarrier() const;

    /**
     * \param src source host
     * \param dst destination host
     * \return distinct paths per plane between them
     */
    uint32_t GetPathCount(uint32_t src, uint32_t dst) const;

    /**
     * \param src source host
     * \param dst destination host
     * \param plane plane
     * \param minimum at least this many EVs (several per path when the pair has fewer paths)
     * \return max(paths, minimum) EVs from src to dst on that plane, choices 0, 1, ...: every
     *         path once before any twice
     */
    std::vector<uint32_t> GetEvs(uint32_t src,
                                 uint32_t dst,
                                 uint32_t plane,
                                 uint32_t minimum = 0) const;

    /**
     * \param src source host
     * \param dst destination host (!= src)
     * \param ev entropy value
     * \return the path the EV names
     * \throws std::invalid_argument naming the EV field out of range
     */
    MrcSrv6Path GetPath(uint32_t src, uint32_t dst, uint32_t ev) const;
    /**
     * GetPath without the switches: what a sender puts on the wire (MrcHelper's resolvers, one
     * per EV a queue pair uses, and Send), without touching every switch node on the way.
     * \param src source host
     * \param dst destination host (!= src)
     * \param ev entropy value
     * \return the path the EV names, its switches empty
     * \throws std::invalid_argument naming the EV field out of range
     */
    MrcSrv6Path GetCarriers(uint32_t src, uint32_t dst, uint32_t ev) const;

    /**
     * Send a transport segment from src to dst on the path an EV names.
     * \param src source host
     * \param dst destination host
     * \param ev entropy value
     * \param packet the segment (transport header included)
     * \param protocol its protocol number
     * \param dscp DSCP
     */
    void Send(uint32_t src,
              uint32_t dst,
              uint32_t ev,
              Ptr<Packet> packet,
              uint8_t protocol,
              uint8_t dscp = 0) const;

    /**
     * \param node a switch
     * \return its MrcIpv6Srv6Routing, or nullptr
     */
    static Ptr<MrcIpv6Srv6Routing> GetSwitchRouting(Ptr<Node> node);

    /**
     * \param node a host
     * \return its MrcIpv6Srv6HostRouting, or nullptr
     */
    static Ptr<MrcIpv6Srv6HostRouting> GetHostRouting(Ptr<Node> node);

  private:
    /**
     * \param src source host
     * \param dst destination host (!= src)
     * \param ev entropy value
     * \param withSwitches list the switches too (GetPath) or not (GetCarriers)
     * \return the path the EV names
     */
    MrcSrv6Path BuildPath(uint32_t src, uint32_t dst, uint32_t ev, bool withSwitches) const;

    MrcUsidCarrier m_carrier;                         //!< uSID format
    uint32_t m_usidsPerCarrier{0};                    //!< 0: as many as fit
    bool m_forceSrh{false};                           //!< always carry an SRH
    bool m_forwardUnmatched{true};                    //!< switch attribute
    Ptr<MrcFabricTopology> m_topo;                    //!< the fabric (after Install)
    std::optional<MrcUsidPlan> m_plan;                //!< uSID plan (after Install)
    std::vector<Ptr<MrcIpv6Srv6HostRouting>> m_hosts; //!< host endpoints by host index
};

} // namespace ns3

#endif /* MRC_SRV6_ROUTING_HELPER_H */
