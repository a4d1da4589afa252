/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_IPV6_SRV6_ROUTING_H
#define MRC_IPV6_SRV6_ROUTING_H

#include "mrc-ecmp-route-table.h"
#include "mrc-ipv6-fabric-routing.h"
#include "mrc-usid-carrier.h"

#include "ns3/traced-callback.h"

#include <boost/container/flat_set.hpp>
#include <boost/container/small_vector.hpp>
#include <map>
#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief A static SRv6 uSID switch (uN shift-and-forward), as MRC's fabric runs it: no routing
 * protocol, no ECMP, tables written once.
 *
 * Two tables: the local SID table (this switch's uSIDs) and a static forwarding table
 * (longest-prefix match, one egress interface per prefix). For each packet:
 *  - destination in the uSID block whose active uSID is local: if more uSIDs follow, shift
 *    them left by 16 bits (uN); at the end of the carrier, if an SRH follows with Segments
 *    Left > 0, decrement it and copy the next segment into the destination (End); then look the
 *    new destination up and forward;
 *  - any other destination: forward by the table (ForwardUnmatched, default) or drop;
 *  - drop, counted by reason and traced: no route, unmatched, path ends at this switch, malformed
 *    SRH, multicast.
 * Nothing in the tables changes when links fail: packets whose path crosses a dead link are
 * lost, which is what MRC's transport detects and routes around.
 */
class MrcIpv6Srv6Routing : public MrcIpv6FabricRouting
{
  public:
    /// Why a packet was not forwarded.
    enum class DropReason
    {
        NO_ROUTE,       //!< the (shifted) destination matches no route
        UNMATCHED,      //!< not for a local uSID and ForwardUnmatched is false
        PATH_ENDS_HERE, //!< the path ends at this switch, which has no upper layer
        MALFORMED_SRH,  //!< an SRH that does not parse
        MULTICAST,      //!< multicast is not forwarded
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcIpv6Srv6Routing();
    ~MrcIpv6Srv6Routing() override;

    /**
     * TracedCallback signature of the Shift trace.
     * \param before destination before
     * \param after destination after
     */
    typedef void (*ShiftTracedCallback)(Ipv6Address before, Ipv6Address after);

    /**
     * TracedCallback signature of the Forward trace.
     * \param packet the packet (IPv6 header removed)
     * \param header the IPv6 header as forwarded
     * \param interface the outgoing interface
     */
    typedef void (*ForwardTracedCallback)(Ptr<const Packet> packet,
                                          const Ipv6Header& header,
                                          uint32_t interface);

    /**
     * TracedCallback signature of the Drop trace.
     * \param packet the packet (IPv6 header removed)
     * \param header its IPv6 header
     * \param reason why
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet,
                                       const Ipv6Header& header,
                                       DropReason reason);

    /// \param carrier the uSID format (block length and value)
    void SetCarrier(const MrcUsidCarrier& carrier);
    /// \return the uSID format
    const MrcUsidCarrier& GetCarrier() const;

    /// \param usid a uSID of this switch (local SID table)
    void AddLocalUsid(uint16_t usid);
    /// \return the local uSIDs
    std::set<uint16_t> GetLocalUsids() const;

    /**
     * \param network destination prefix (a neighbour's locator, a host prefix, ...)
     * \param prefixLength its length
     * \param interface egress IPv6 interface
     */
    void AddRoute(Ipv6Address network, uint8_t prefixLength, uint32_t interface);

    /// \param forward forward destinations that are not a local uSID by the table (default)
    void SetForwardUnmatched(bool forward);

    /// \return the static forwarding table
    const MrcEcmpRouteTable& GetTable() const;

    /// \return packets forwarded
    uint64_t GetForwardedPackets() const;
    /// \return uSID shifts performed
    uint64_t GetShiftedPackets() const;
    /// \return SRH End operations (next carrier copied into the destination)
    uint64_t GetSrhAdvancedPackets() const;
    /**
     * \param reason a drop reason
     * \return packets dropped for it
     */
    uint64_t GetDroppedPackets(DropReason reason) const;

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
    /**
     * Count and trace a drop.
     * \param p packet
     * \param h header
     * \param reason why
     */
    void Drop(Ptr<const Packet> p, const Ipv6Header& h, DropReason reason);

    // What every forwarded packet reads comes first, so that it shares the object's first
    // cache lines (a switch's routing is one of thousands at k = 16).
    MrcUsidCarrier m_carrier; //!< uSID format
    /// Local SID table: sorted, held in the object itself (a switch has one or a few).
    boost::container::flat_set<uint16_t, std::less<>, boost::container::small_vector<uint16_t, 4>>
        m_local;
    bool m_forwardUnmatched{true}; //!< forward non-local destinations by the table
    uint64_t m_forwarded{0};       //!< packets forwarded
    uint64_t m_shifted{0};         //!< uN shifts
    TracedCallback<Ptr<const Packet>, const Ipv6Header&, uint32_t> m_forwardTrace; //!< Forward
    TracedCallback<Ipv6Address, Ipv6Address> m_shiftTrace;                         //!< Shift
    MrcEcmpRouteTable m_table;                //!< static forwarding table (one next hop each)
    uint64_t m_srhAdvanced{0};                //!< SRH End operations
    std::map<DropReason, uint64_t> m_dropped; //!< drops by reason
    TracedCallback<Ptr<const Packet>, const Ipv6Header&, DropReason> m_dropTrace; //!< Drop
};

/**
 * \param os stream
 * \param reason drop reason
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, MrcIpv6Srv6Routing::DropReason reason);

} // namespace ns3

#endif /* MRC_IPV6_SRV6_ROUTING_H */
