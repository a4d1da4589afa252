/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FABRIC_TOPOLOGY_H
#define MRC_FABRIC_TOPOLOGY_H

#include "mrc-clos-spec.h"
#include "mrc-fabric-link.h"

#include "ns3/ipv6-address.h"
#include "ns3/node-container.h"
#include "ns3/simple-ref-count.h"

#include <map>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief A built Clos fabric: its hosts, switches and links, as MrcClosTopologyHelper made them.
 *
 * Accessors throw std::out_of_range with the parameter name and range when an index is invalid.
 * Node names (ns-3 Names): hosts `host-<i>`, switches `p<plane>-t<tier>-<index>`, optionally
 * behind a prefix, so Config paths read e.g. `/Names/p0-t1-3/DeviceList/2/...`.
 */
class MrcFabricTopology : public SimpleRefCount<MrcFabricTopology>
{
  public:
    /// Where a switch sits.
    struct SwitchPosition
    {
        MrcSwitchTier tier; //!< tier
        uint32_t plane;     //!< plane
        uint32_t index;     //!< index within tier and plane
    };

    /**
     * \param spec the (validated) shape
     */
    explicit MrcFabricTopology(const MrcClosSpec& spec);

    /// \return the shape
    const MrcClosSpec& GetSpec() const;

    /// \return every host, index order
    const NodeContainer& GetHosts() const;
    /// \param host host index \return that host
    Ptr<Node> GetHost(uint32_t host) const;
    /// \return number of hosts
    uint32_t GetHostCount() const;

    /**
     * \param tier tier
     * \param plane plane
     * \param index index within tier and plane
     * \return the switch
     */
    Ptr<Node> GetSwitch(MrcSwitchTier tier, uint32_t plane, uint32_t index) const;

    /**
     * \param tier tier
     * \param plane plane
     * \return every switch of that tier and plane, index order
     */
    const NodeContainer& GetSwitches(MrcSwitchTier tier, uint32_t plane) const;

    /// \return every switch of every tier and plane
    NodeContainer GetAllSwitches() const;

    /**
     * \param node a node
     * \return its position if it is a switch of this fabric
     */
    std::optional<SwitchPosition> GetSwitchPosition(Ptr<const Node> node) const;

    /**
     * \param node a node
     * \return its host index if it is a host of this fabric
     */
    std::optional<uint32_t> GetHostIndex(Ptr<const Node> node) const;

    /**
     * \param host host index
     * \param plane plane
     * \return the host's NIC port (NetDevice) on that plane
     */
    Ptr<NetDevice> GetHostDevice(uint32_t host, uint32_t plane) const;

    /**
     * \param host host index
     * \param plane plane
     * \return the IPv6 interface index of that NIC port
     */
    uint32_t GetHostInterface(uint32_t host, uint32_t plane) const;

    /**
     * \param host host index
     * \param plane plane
     * \return the host's address on that plane (MrcFabricAddressPlan)
     */
    Ipv6Address GetHostAddress(uint32_t host, uint32_t plane) const;

    /**
     * \param host host index
     * \return the index (within each plane) of the T0 the host is attached to
     */
    uint32_t GetHostT0(uint32_t host) const;

    /**
     * \param src a host
     * \param dst another host
     * \return switches on a shortest path between them: 1 under one T0, 3 within a pod (or a
     *         two-tier Clos), 5 across pods
     */
    uint32_t GetSwitchHops(uint32_t src, uint32_t dst) const;

    /**
     * \param address an address
     * \return the host that owns it, if any
     */
    std::optional<uint32_t> FindHostByAddress(Ipv6Address address) const;

    /// \return every link, in creation order (MrcFabricLink::id is the position)
    const std::vector<MrcFabricLink>& GetLinks() const;

    /**
     * \param a one node
     * \param b another node
     * \return the links between them (several where links are parallel), in either orientation
     */
    std::vector<MrcFabricLink> GetLinksBetween(Ptr<const Node> a, Ptr<const Node> b) const;

    /**
     * \param node a node
     * \return every link with an end on that node
     */
    std::vector<MrcFabricLink> GetLinksOf(Ptr<const Node> node) const;

    /// \name Construction (used by MrcClosTopologyHelper)
    /// @{
    /**
     * \param node the host's node
     */
    void AddHost(Ptr<Node> node);
    /**
     * \param tier tier
     * \param plane plane
     * \param node the switch node (indices are assigned in call order)
     */
    void AddSwitch(MrcSwitchTier tier, uint32_t plane, Ptr<Node> node);
    /**
     * \param link the link (its id is overwritten)
     * \return the link as stored
     */
    const MrcFabricLink& AddLink(MrcFabricLink link);
    /// @}

  private:
    MrcClosSpec m_spec;                                        //!< shape
    NodeContainer m_hosts;                                     //!< hosts
    std::vector<std::vector<NodeContainer>> m_switches;        //!< [tier][plane]
    std::vector<MrcFabricLink> m_links;                        //!< every link
    std::vector<std::vector<uint32_t>> m_hostLinks;            //!< [host][plane] -> link id
    std::map<uint32_t, SwitchPosition> m_switchByNodeId;       //!< node id -> position
    std::map<uint32_t, uint32_t> m_hostByNodeId;               //!< node id -> host index
    std::map<uint32_t, std::vector<uint32_t>> m_linksByNodeId; //!< node id -> link ids
};

} // namespace ns3

#endif /* MRC_FABRIC_TOPOLOGY_H */
