/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_IPV6_SRV6_HOST_ROUTING_H
#define MRC_IPV6_SRV6_HOST_ROUTING_H

#include "mrc-ipv6-fabric-routing.h"
#include "mrc-usid-carrier.h"

#include "ns3/traced-callback.h"

#include <map>
#include <set>
#include <vector>

namespace ns3
{

class Packet;

/**
 * \ingroup mrc
 * \brief A host's SRv6 endpoint: encapsulates outgoing packets on a uSID path and decapsulates
 * packets that arrive on one of its own uSIDs (End.DT6-style), so the upper layers see the inner
 * packet.
 *
 * Installed on hosts ahead of their static routing (Ipv6ListRouting); it routes nothing else.
 *
 * Decapsulation: destination in the uSID block, active uSID local, end of carrier; optionally
 * an SRH with Segments Left 0; then an inner IPv6 packet (next header 41). The outer IPv6
 * header and the SRH are removed and the inner packet is delivered locally. Anything else
 * addressed to a local uSID is dropped and counted by reason. A packet that ends here and
 * carries a transport directly (next header not 41, e.g. MRC's UDP/4791) is delivered to the
 * upper layer as addressed to the SID (RFC 8986 upper-layer header processing).
 *
 * Encapsulation (Send): inner IPv6 header (the packet's real source and destination), an SRH
 * when the path needs more than one carrier (or when asked), and an outer IPv6 header whose
 * destination is the first carrier, sent out of the NIC port of the path's plane.
 */
class MrcIpv6Srv6HostRouting : public MrcIpv6FabricRouting
{
  public:
    /// Why an arriving packet addressed to a local uSID was dropped.
    enum class DropReason
    {
        MALFORMED_SRH,   //!< an SRH that does not parse
        SEGMENTS_LEFT,   //!< an SRH with segments still to visit (hosts do not forward)
        TRUNCATED_INNER, //!< the inner IPv6 header is incomplete
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcIpv6Srv6HostRouting();
    ~MrcIpv6Srv6HostRouting() override;

    /**
     * TracedCallback signature of the Decap trace.
     * \param inner the inner packet (inner IPv6 header removed)
     * \param header the inner IPv6 header
     */
    typedef void (*DecapTracedCallback)(Ptr<const Packet> inner, const Ipv6Header& header);

    /**
     * TracedCallback signature of the Drop trace.
     * \param packet the packet (outer IPv6 header removed)
     * \param header the outer IPv6 header
     * \param reason why
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet,
                                       const Ipv6Header& header,
                                       DropReason reason);

    /// \param carrier the uSID format
    void SetCarrier(const MrcUsidCarrier& carrier);
    /// \return the uSID format
    const MrcUsidCarrier& GetCarrier() const;

    /**
     * \param usid a uSID that ends at this host
     * \param interface the IPv6 interface (NIC port) it belongs to
     */
    void AddLocalUsid(uint16_t usid, uint32_t interface);

    /**
     * Encapsulate and send.
     * \param packet the transport segment (L4 header included)
     * \param protocol its protocol number (e.g. 17)
     * \param innerSource inner IPv6 source
     * \param innerDestination inner IPv6 destination
     * \param carriers the path: carrier addresses, first to use first (1 or more)
     * \param interface IPv6 interface (NIC port) to send on
     * \param dscp DSCP of the outer and inner headers
     * \param forceSrh carry an SRH even when one carrier holds the whole path
     */
    void Send(Ptr<Packet> packet,
              uint8_t protocol,
              Ipv6Address innerSource,
              Ipv6Address innerDestination,
              const std::vector<Ipv6Address>& carriers,
              uint32_t interface,
              uint8_t dscp = 0,
              bool forceSrh = false);

    /**
     * \param destination an IPv6 destination
     * \return true if it is a carrier that ends at one of this host's uSIDs (RouteInput
     * delivers such a packet locally)
     */
    bool IsLocalSid(Ipv6Address destination) const;

    /// \return packets decapsulated
    uint64_t GetDecapsulatedPackets() const;
    /// \return packets delivered to the upper layer without decapsulation
    uint64_t GetUpperLayerPackets() const;
    /// \return packets encapsulated and sent
    uint64_t GetEncapsulatedPackets() const;
    /**
     * \param reason drop reason
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

    MrcUsidCarrier m_carrier;                 //!< uSID format
    std::map<uint16_t, uint32_t> m_local;     //!< local uSID -> interface
    uint64_t m_decapsulated{0};               //!< packets decapsulated
    uint64_t m_encapsulated{0};               //!< packets sent
    uint64_t m_deliveredUpperLayer{0};        //!< packets delivered without decapsulation
    std::map<DropReason, uint64_t> m_dropped; //!< drops by reason
    TracedCallback<Ptr<const Packet>, const Ipv6Header&> m_decapTrace;            //!< Decap
    TracedCallback<Ptr<const Packet>, const Ipv6Header&, DropReason> m_dropTrace; //!< Drop
};

/**
 * \param os stream
 * \param reason drop reason
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, MrcIpv6Srv6HostRouting::DropReason reason);

} // namespace ns3

#endif /* MRC_IPV6_SRV6_HOST_ROUTING_H */
