/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_BGP_FABRIC_RIB_H
#define MRC_BGP_FABRIC_RIB_H

#include "mrc-fabric-topology.h"

#include "ns3/mrc-bgp-path-vector.h"

#include <array>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The eBGP speakers of a fabric, laid out as RFC 7938 describes, in the fabric's terms:
 * switches, links (MrcFabricLink::id), IPv6 interfaces and T0 indices. No time:
 * MrcBgpReconvergenceModel decides when each step happens.
 *
 * Per plane one MrcBgpPathVector: a speaker per switch (T0 `t` originates `fd00:p:t::/48`, prefix
 * number `t`), a session per switch-to-switch link (parallel links are separate sessions).
 * ASNs are private 4-byte ASNs (RFC 6996): each T0 its own, the T1s of one pod one (RFC 7938's
 * "Tier-2 cluster"; in a two-tier Clos all T1s of a plane), the T2s of a plane one. With AS-path
 * loop prevention this admits exactly the up-down (valley-free) paths that do not re-enter a
 * pod, so in a healthy fabric the steady state is the shortest-path ECMP of MrcEcmpRoutingHelper.
 * Session ends: 0 is the link's lower switch, 1 its upper switch.
 */
class MrcBgpFabricRib
{
  public:
    /**
     * Build the speakers and sessions and converge (every session up).
     * \param topo the fabric
     */
    explicit MrcBgpFabricRib(Ptr<MrcFabricTopology> topo);

    /// \return number of switches (all planes), indexed plane by plane, tier by tier
    uint32_t GetNSwitches() const;

    /// \param sw switch index \return its node
    Ptr<Node> GetNode(uint32_t sw) const;

    /// \param sw switch index \return its plane
    uint32_t GetPlane(uint32_t sw) const;

    /// \param node a node \return its switch index, if it is a switch of the fabric
    std::optional<uint32_t> FindSwitch(Ptr<const Node> node) const;

    /// \param sw switch index \return its ASN
    uint32_t GetAsn(uint32_t sw) const;

    /// \param linkId a link id \return whether it carries a BGP session (switch to switch)
    bool HasSession(uint32_t linkId) const;

    /**
     * \param linkId a switch-to-switch link
     * \param end 0 (lower) or 1 (upper)
     * \return the switch index at that end
     */
    uint32_t GetSwitch(uint32_t linkId, uint32_t end) const;

    /**
     * \param sw switch index
     * \param interface one of its IPv6 interfaces
     * \return the switch-to-switch link behind it, if any
     */
    std::optional<uint32_t> FindLink(uint32_t sw, uint32_t interface) const;

    /// \param linkId a switch-to-switch link \return whether its session is up
    bool IsSessionUp(uint32_t linkId) const;

    /**
     * \param linkId a switch-to-switch link
     * \return the changed decisions at its lower (0) and upper (1) switch
     */
    std::array<std::vector<MrcBgpPathVector::Decision>, 2> SessionDown(uint32_t linkId);

    /// \param linkId a switch-to-switch link whose session comes up (nothing learnt yet)
    void SessionUp(uint32_t linkId);

    /**
     * \param linkId a switch-to-switch link
     * \param toEnd receiving end
     * \param update what the other end advertises
     * \return the changed decisions at the receiver (prefix = T0 index)
     */
    std::vector<MrcBgpPathVector::Decision> Receive(uint32_t linkId,
                                                    uint32_t toEnd,
                                                    const MrcBgpPathVector::Update& update);

    /**
     * \param sw switch index
     * \param t0s T0 indices
     * \return its advertisement of each
     */
    MrcBgpPathVector::Update GetAdvertisements(uint32_t sw, const std::vector<uint32_t>& t0s) const;

    /// \param sw switch index \return its advertisement of every prefix it has a path for
    MrcBgpPathVector::Update GetAllAdvertisements(uint32_t sw) const;

    /**
     * \param sw switch index
     * \return (link id, the switch's end) of each of its sessions that is up
     */
    std::vector<std::pair<uint32_t, uint32_t>> GetUpSessions(uint32_t sw) const;

    /**
     * \param sw switch index
     * \param t0 T0 index (within the switch's plane)
     * \return the IPv6 interfaces of the switch's best sessions towards that T0, sorted
     */
    std::vector<uint32_t> GetNextHops(uint32_t sw, uint32_t t0) const;

  private:
    /// One switch.
    struct Switch
    {
        Ptr<Node> node;   //!< the switch
        uint32_t plane;   //!< its plane
        uint32_t speaker; //!< its speaker in the plane
    };

    /// One switch-to-switch link.
    struct Link
    {
        uint32_t plane;                     //!< plane
        uint32_t session;                   //!< session in the plane
        std::array<uint32_t, 2> switches;   //!< switch at each end
        std::array<uint32_t, 2> interfaces; //!< IPv6 interface at each end
    };

    /**
     * \param linkId a link id
     * \return its link
     * \throws std::out_of_range unless it is a switch-to-switch link
     */
    const Link& CheckedLink(uint32_t linkId) const;

    /**
     * \param topo the fabric
     * \param pos a switch's position
     * \return its ASN
     */
    static uint32_t ComputeAsn(const MrcFabricTopology& topo,
                               const MrcFabricTopology::SwitchPosition& pos);

    std::vector<MrcBgpPathVector> m_planes;                         //!< per plane
    std::vector<Switch> m_switches;                                 //!< switches
    std::map<uint32_t, uint32_t> m_switchByNode;                    //!< node id -> switch
    std::vector<std::optional<Link>> m_links;                       //!< by link id
    std::vector<std::vector<uint32_t>> m_sessionLink;               //!< [plane][session] -> link
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_linkByPort; //!< (switch, if) -> link
};

} // namespace ns3

#endif /* MRC_BGP_FABRIC_RIB_H */
