/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_L4_PROTOCOL_H
#define MRC_L4_PROTOCOL_H

#include "mrc-nic-port.h"
#include "mrc-wire-path.h"

#include "ns3/address.h"
#include "ns3/ipv6-header.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "ns3/traffic-control-layer.h"

#include <map>
#include <vector>

namespace ns3
{

class Ipv6EndPoint;
class Ipv6Interface;
class Ipv6L3Protocol;
class MrcQueuePair;
class Node;

/**
 * \ingroup mrc
 * \brief The MRC transport of one host (its NIC): queue pairs, NIC ports, and the wire.
 *
 * Aggregated to a host node by MrcHelper, like ns-3's UDP and TCP. MRC travels as RoCEv2 does,
 * over UDP port 4791: outer IPv6 (destination: the EV's uSID path, or the peer's address in ECMP
 * mode; flow label EV[31:16]) / [SRH] / UDP (source port EV[15:0], destination port 4791) / BTH /
 * MRC extension headers / payload / ICRC.
 *
 * Coexistence with ns-3's UdpL4Protocol: MRC receives through UdpL4Protocol's demultiplexer, as an
 * endpoint bound to port 4791 (any address), so ns-3 UDP sockets keep every other port. It builds
 * the outer IPv6 header itself (UdpL4Protocol and Ipv6L3Protocol::Send cannot set a flow label
 * or a per-packet source port) and hands each packet to the NIC port's Ipv6Interface, hence to
 * the traffic-control layer and the NetDevice: Ipv6L3Protocol's Tx trace does not see MRC packets
 * (this object's Tx trace, the queue discs and pcap do), nor does ns-3's Ipv6FlowProbe
 * (MrcFlowProbe, installed by MrcFlowMonitorHelper, gives FlowMonitor the MRC flows from this
 * object's TxPath and Rx traces).
 *
 * Arriving packets are parsed (BTH) and handed to the queue pair their destination QP number
 * names; malformed packets and packets for unknown queue pairs are dropped and counted.
 */
class MrcL4Protocol : public Object
{
  public:
    /// Why an arriving packet was dropped before reaching a queue pair.
    enum class DropReason
    {
        MALFORMED,  //!< the BTH does not parse (truncated, unknown opcode)
        UNKNOWN_QP, //!< no queue pair with that number
        PORT_DOWN,  //!< arrived on a port that is down
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcL4Protocol();
    ~MrcL4Protocol() override;

    /**
     * TracedCallback signature of the Tx and Rx traces.
     * \param packet the IPv6 payload (UDP header onwards)
     * \param header the outer IPv6 header
     * \param plane the NIC port
     */
    typedef void (*PacketTracedCallback)(Ptr<const Packet> packet,
                                         const Ipv6Header& header,
                                         uint32_t plane);

    /**
     * TracedCallback signature of the TxPath trace.
     * \param packet the IPv6 payload (SRH if any, UDP header onwards)
     * \param header the outer IPv6 header
     * \param path the wire path (EV, plane, carriers, and the peer's address on that plane)
     */
    typedef void (*PathTracedCallback)(Ptr<const Packet> packet,
                                       const Ipv6Header& header,
                                       const MrcWirePath& path);

    /**
     * Declare a NIC port (done by MrcHelper for each plane of the host).
     * \param plane plane
     * \param interface IPv6 interface of the port
     * \param rate line rate
     */
    void AddPort(uint32_t plane, uint32_t interface, DataRate rate);
    /// \param plane plane \return its port
    Ptr<MrcNicPort> GetPort(uint32_t plane) const;
    /// \return number of ports
    uint32_t GetPortCount() const;

    /**
     * Take a port down or up. Queue pairs stop using the plane and tell their peers in SACKs.
     * Called automatically when the port's NetDevice reports a link change (carrier lost or
     * back: NetDevice::AddLinkChangeCallback); call it directly to model a NIC port fault.
     * \param plane plane
     * \param up new state
     */
    void SetPortUp(uint32_t plane, bool up);
    /// \return bit p set = port p is down
    uint8_t GetPortStateBitmap() const;

    /// \return a new queue pair with the next free QP number (1, 2, ...)
    Ptr<MrcQueuePair> CreateQueuePair();
    /// \param qpn a QP number \return that queue pair, or nullptr
    Ptr<MrcQueuePair> GetQueuePair(uint32_t qpn) const;

    /**
     * Put a packet on the wire (called by a NIC port).
     * \param packet the MRC payload (BTH ... ICRC)
     * \param path where it goes
     * \param dscp DSCP
     * \param ect ECN-capable
     */
    void Transmit(Ptr<Packet> packet, const MrcWirePath& path, uint8_t dscp, bool ect);

    /**
     * \param mrcBytes bytes of the MRC payload (BTH ... ICRC)
     * \param path where it goes
     * \return bytes on the wire: + UDP + SRH + IPv6 + link framing
     */
    static uint32_t GetWireSize(uint32_t mrcBytes, const MrcWirePath& path);

    /// \param reason a drop reason \return packets dropped for it
    uint64_t GetDroppedPackets(DropReason reason) const;

    /// \return the node
    Ptr<Node> GetNode() const;

    /**
     * An arriving datagram: the UDP endpoint's receive callback, also called by
     * MrcHostPipeline.
     * \param packet UDP payload
     * \param header outer IPv6 header
     * \param sport UDP source port (EV[15:0])
     * \param interface arrival interface
     */
    void Receive(Ptr<Packet> packet,
                 Ipv6Header header,
                 uint16_t sport,
                 Ptr<Ipv6Interface> interface);

  protected:
    void NotifyNewAggregate() override;
    void DoDispose() override;

  private:
    /**
     * A port's NetDevice reported a link change.
     * \param plane the port
     */
    void OnDeviceLinkChange(uint32_t plane);

    /**
     * \param packet packet
     * \param header header
     * \param reason why
     */
    void Drop(Ptr<const Packet> packet, const Ipv6Header& header, DropReason reason);

    /// What Transmit needs of an outgoing interface, looked up once.
    struct TxInterface
    {
        Ptr<Ipv6Interface> interface; //!< the interface
        Ptr<NetDevice> device;        //!< its device
        Address broadcast;            //!< the device's broadcast address
        /// A device without neighbour discovery, not the loopback: ns-3's Ipv6Interface::Send
        /// would hand its packets to the traffic-control layer as they are.
        bool direct{false};
    };

    /**
     * \param index an IPv6 interface index
     * \return the interface's TxInterface (made on first use)
     */
    const TxInterface& GetTxInterface(uint32_t index);

    /**
     * \param interface an interface
     * \param address an address
     * \return true if the interface has that address
     */
    static bool HasAddress(const Ptr<Ipv6Interface>& interface, const Ipv6Address& address);

    Ptr<Node> m_node;           //!< the host
    Ptr<Ipv6L3Protocol> m_ipv6; //!< its IPv6
    /// Copied for each packet sent: ns-3's Ipv6Header constructor parses "::" twice.
    const Ipv6Header m_blankHeader;
    Ipv6EndPoint* m_endPoint{nullptr};               //!< UDP/4791 endpoint
    Ptr<TrafficControlLayer> m_tc;                   //!< the node's traffic control
    std::vector<TxInterface> m_txInterfaces;         //!< by interface index, GetTxInterface
    std::vector<Ptr<MrcNicPort>> m_ports;            //!< by plane
    std::map<uint32_t, uint32_t> m_planeOfInterface; //!< interface -> plane
    std::map<uint32_t, Ptr<MrcQueuePair>> m_qps;     //!< by QP number
    uint32_t m_nextQpn{1};                           //!< next QP number
    std::map<DropReason, uint64_t> m_dropped;        //!< drops by reason
    TracedCallback<Ptr<const Packet>, const Ipv6Header&, uint32_t> m_txTrace; //!< Tx
    TracedCallback<Ptr<const Packet>, const Ipv6Header&, uint32_t> m_rxTrace; //!< Rx
    TracedCallback<Ptr<const Packet>, const Ipv6Header&, const MrcWirePath&>
        m_txPathTrace;                                                            //!< TxPath
    TracedCallback<Ptr<const Packet>, const Ipv6Header&, DropReason> m_dropTrace; //!< Drop
};

/**
 * \param os stream
 * \param r reason
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, MrcL4Protocol::DropReason r);

} // namespace ns3

#endif /* MRC_L4_PROTOCOL_H */
