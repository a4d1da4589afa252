/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CLOS_SPEC_H
#define MRC_CLOS_SPEC_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The shape of a (multi-plane) Clos fabric: two tiers (T0/T1) or three (T0/T1/T2).
 *
 * Every plane is an identical, disjoint copy of the switch fabric; every host has one NIC port
 * (NetDevice) per plane, attached to the T0 of the same position in each plane.
 *
 * Wiring, per plane:
 *  - hosts: `pods * t0PerPod * hostsPerT0`; host h sits on T0 `h / hostsPerT0`, port
 *    `h % hostsPerT0`.
 *  - T0 -> T1: each T0 has `t0Uplinks` uplinks, spread evenly over the `t1PerPod` T1s of its pod
 *    (`t0Uplinks / t1PerPod` parallel links to each).
 *  - T1 -> T2 (three tiers only): the `t2Count` T2s form `t1PerPod` groups of
 *    `t2Count / t1PerPod`; T1 number j of every pod connects to group j, its `t1Uplinks` spread
 *    evenly over the group.
 *
 * A k-ary fat-tree (FatTree()) is pods = k, t0PerPod = t1PerPod = hostsPerT0 = t0Uplinks =
 * t1Uplinks = k/2, t2Count = (k/2)^2, radix = k. A two-tier Clos (TwoTier()) is one pod.
 */
struct MrcClosSpec
{
    uint32_t planes{1};     //!< parallel planes (NIC ports per host), 1..kMaxPlanes
    uint32_t pods{1};       //!< pods; 1 for a two-tier Clos
    uint32_t t0PerPod{2};   //!< T0 (leaf) switches per pod and plane
    uint32_t hostsPerT0{2}; //!< host-facing ports per T0
    uint32_t t0Uplinks{2};  //!< uplinks per T0
    uint32_t t1PerPod{2};   //!< T1 switches per pod and plane
    uint32_t t1Uplinks{0};  //!< uplinks per T1 (three tiers only; 0 for two tiers)
    uint32_t t2Count{0};    //!< T2 (spine) switches per plane; 0 for two tiers
    uint32_t radix{0};      //!< ports per switch, 0 = unlimited (checked by Validate())

    static constexpr uint32_t kMaxPlanes = 16;         //!< largest number of planes
    static constexpr uint32_t kMaxSwitchIndex = 65535; //!< largest switch index per tier/plane

    /**
     * A two-tier multi-plane Clos.
     * \param planes number of planes
     * \param t0Count T0 switches per plane
     * \param hostsPerT0 host-facing ports per T0
     * \param t1Count T1 switches per plane
     * \param t0Uplinks uplinks per T0; 0 means hostsPerT0 (full bisection)
     * \return the spec (not yet validated)
     */
    static MrcClosSpec TwoTier(uint32_t planes,
                               uint32_t t0Count,
                               uint32_t hostsPerT0,
                               uint32_t t1Count,
                               uint32_t t0Uplinks = 0);

    /**
     * A three-tier k-ary fat-tree (k^3/4 hosts), replicated over planes.
     * \param k switch radix, even, 2..kMaxFatTreeK
     * \param planes number of planes
     * \return the spec
     * \throws std::invalid_argument if k is odd or out of range
     */
    static MrcClosSpec FatTree(uint32_t k, uint32_t planes = 1);

    static constexpr uint32_t kMaxFatTreeK = 64; //!< largest fat-tree radix accepted

    /**
     * Check that the shape can be built.
     * \throws std::invalid_argument naming the offending parameter and its accepted range
     */
    void Validate() const;

    /// \return 2 or 3
    uint32_t GetTiers() const;
    /// \return hosts in the fabric (each with `planes` NIC ports)
    uint32_t GetHostCount() const;
    /// \return T0 switches per plane
    uint32_t GetT0Count() const;
    /// \return T1 switches per plane
    uint32_t GetT1Count() const;
    /// \return parallel links between a T0 and each T1 of its pod
    uint32_t GetT0T1Parallel() const;
    /// \return T2 switches per group (three tiers)
    uint32_t GetT2GroupSize() const;
    /// \return parallel links between a T1 and each T2 of its group (three tiers)
    uint32_t GetT1T2Parallel() const;
    /// \return T1 downlinks (to T0s)
    uint32_t GetT1Downlinks() const;
    /// \return T2 downlinks (to T1s)
    uint32_t GetT2Downlinks() const;
    /// \return hostsPerT0 / t0Uplinks
    double GetT0Oversubscription() const;
    /// \return a one-line description, e.g. "fat-tree 3 tiers, 16 hosts x 1 planes, ..."
    std::string Describe() const;

    /// \return switches over all planes (T0, T1 and T2)
    uint64_t GetSwitchCount() const;
    /// \return links over all planes (host-T0, T0-T1 and T1-T2)
    uint64_t GetLinkCount() const;

    /// Default cap on GetLinkCount() for building a fabric (MrcClosTopologyHelper::SetMaxLinks,
    /// MrcClusterScenario's MaxLinks): a fat-tree of k = 64 on one plane (196,608 links) fits,
    /// k = 64 on 16 planes (3,145,728) does not. Each link is two NetDevices with their queue
    /// discs and IPv6 interfaces: about 10 kB of memory, and every switch holds routes.
    static constexpr uint64_t kDefaultMaxLinks = 262144;
    /// Above this many links, building logs a warning (NS_LOG_WARN).
    static constexpr uint64_t kWarnLinks = 65536;

    /**
     * Refuse an absurd size before anything is built.
     * \param maxLinks the cap on GetLinkCount()
     * \param knob how to raise the cap, for the message (an attribute or a setter)
     * \throws std::invalid_argument giving the hosts, switches and links, the cap and the knob
     *         if the fabric has more links than maxLinks
     */
    void CheckSize(uint64_t maxLinks, const std::string& knob) const;
};

} // namespace ns3

#endif /* MRC_CLOS_SPEC_H */
