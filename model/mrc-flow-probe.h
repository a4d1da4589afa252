/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FLOW_PROBE_H
#define MRC_FLOW_PROBE_H

#include "mrc-fabric-fault-error-model.h"
#include "mrc-trace-connections.h"
#include "mrc-wire-path.h"

#include "ns3/flow-probe.h"
#include "ns3/ipv6-flow-classifier.h"
#include "ns3/ipv6-header.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/queue-item.h"

#include <utility>

namespace ns3
{

class MrcL4Protocol;
class Node;
class Packet;
class QueueDiscItem;

/**
 * \ingroup mrc
 * \brief A FlowMonitor probe for MRC datagrams on one node: sent and received on a host, dropped
 * wherever it sits.
 *
 * ns-3's Ipv6FlowProbe watches Ipv6L3Protocol's traces, which MRC datagrams do not pass:
 * MrcL4Protocol builds their IPv6 header itself and hands them to the NIC port's interface, and
 * MrcHostPipeline and MrcSwitchPipeline take them past Ipv6L3Protocol. Without this probe a
 * FlowMonitor has no MRC flow at all. On a node with MrcL4Protocol it connects to that:
 *  - TxPath (a packet leaves a NIC port): classifies the packet with the FlowMonitor's
 *    Ipv6FlowClassifier, reports its first transmission, and tags it (MrcFlowProbeTag);
 *  - Rx (a packet arrives, before the transport parses it): a tagged packet of full size is
 *    received (FlowMonitor's rx counters and delay); a tagged packet shorter than it was sent
 *    was trimmed on the way, and is reported dropped with reason DROP_TRIMMED at the receiving
 *    host (the sender retransmits its data as a new packet).
 * On every node (host or switch) it reports a tagged packet dropped where it is lost:
 *  - DROP_QUEUE_DISC: the Drop trace of each root queue disc (full, not trimmable, a full
 *    priority queue, PFC headroom overflow, ...);
 *  - DROP_DEVICE: PointToPointNetDevice's MacTxDrop (a send refused: no carrier, full queue) and
 *    PhyRxDrop (a receive error model: MrcFabricFaultErrorModel's black holes, random loss and
 *    frames in flight when a link fell, or any model of one's own), and MrcFabricNetDevice's
 *    FaultDrop (also frames a port discards when it loses its carrier);
 *  - DROP_ROUTING: the Drop traces of the fabric routing (MrcIpv6EcmpRouting, MrcIpv6Srv6Routing,
 *    MrcIpv6Srv6HostRouting), of MrcSwitchPipeline, and of Ipv6L3Protocol (with the pipelines
 *    off).
 * Where one loss fires two of these traces in a row (FaultDrop then PhyRxDrop or MacTxDrop; a
 * routing protocol's Drop then the pipeline's or Ipv6L3Protocol's), it is reported once, under the
 * first.
 * On a switch it reports each forwarding of a tagged packet (FlowMonitor's timesForwarded, and
 * this probe's own per-flow packets, bytes and delay since the first transmission): the Forward
 * traces of MrcIpv6EcmpRouting and MrcIpv6Srv6Routing, which fire with the lean MrcSwitchPipeline
 * and with ns-3's Ipv6L3Protocol forwarding alike. A received packet's timesForwarded is the
 * number of switches it crossed (3 between two T0s of a two-tier Clos, 1 under one T0); the
 * bytes are the datagram's at that hop (a header trimmed upstream counts as a header).
 *
 * A flow is one queue pair's traffic towards its peer on one plane. The five-tuple handed to
 * the classifier is: the sending NIC port's address; the peer's NIC port address on that plane
 * (MrcWirePath::destination: for SRv6 the address the uSID carriers lead to, not the carrier);
 * UDP; as source port the destination QP number's low 16 bits (on the wire MRC puts the EV
 * there, which would make every EV a flow); destination port 4791. Data packets and the
 * control packets of the other direction (SACK, NACK, CNP, probes) are flows of their own, as
 * a TCP connection's two directions are. Every transmission is a packet of its own, so a
 * retransmitted PSN counts twice in txPackets, once per transmission. Bytes are the IPv6
 * datagram's as sent (header and SRH included).
 *
 * MrcFlowMonitorHelper installs one on each node with IPv6.
 */
class MrcFlowProbe : public FlowProbe
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /// Reason codes of the drops this probe reports (FlowMonitor's per-flow packetsDropped).
    enum DropReason : uint32_t
    {
        DROP_TRIMMED = 0,    //!< the payload was trimmed on the way (a header arrived)
        DROP_QUEUE_DISC = 1, //!< a root queue disc dropped it
        DROP_DEVICE = 2,     //!< a NetDevice lost it (link fault, error model, refused send)
        DROP_ROUTING = 3,    //!< the routing or a forwarding pipeline refused it
    };

    /**
     * Connect to a node's traces and register with the monitor. Install it after the node's
     * queue discs, routing and MRC (MrcHelper::Install): what is added later is not watched.
     * \param monitor the FlowMonitor
     * \param classifier the classifier of the monitor's IPv6 flows
     * \param node a node with IPv6 (a host with MrcL4Protocol, or a switch)
     * \throws std::invalid_argument if an argument is null or the node has no IPv6
     */
    MrcFlowProbe(Ptr<FlowMonitor> monitor, Ptr<Ipv6FlowClassifier> classifier, Ptr<Node> node);
    ~MrcFlowProbe() override;

    // Delete copy constructor and assignment operator to avoid misuse
    MrcFlowProbe(const MrcFlowProbe&) = delete;
    MrcFlowProbe& operator=(const MrcFlowProbe&) = delete;

  protected:
    void DoDispose() override;

  private:
    /**
     * Report a tagged packet dropped, unless it is the packet this probe reported last.
     * \param packet the packet (untagged: ignored)
     * \param reason why
     */
    void ReportDrop(Ptr<const Packet> packet, DropReason reason);

    /**
     * The Forward trace of a fabric routing protocol: report a tagged packet forwarded by this
     * node (untagged: ignored).
     * \tparam Rest the trace's further arguments (MrcIpv6Srv6Routing: the outgoing interface;
     *         MrcIpv6EcmpRouting: the interface and the flow hash), unused
     * \param packet the packet (SRH if any, UDP onwards)
     * \param header its IPv6 header as sent on
     */
    template<typename... Rest>
    void ForwardLogger(Ptr<const Packet> packet, const Ipv6Header& header, Rest...);
    /**
     * A root queue disc's Drop trace.
     * \param item the dropped item
     */
    void QueueDiscDropLogger(Ptr<const QueueDiscItem> item);
    /**
     * A device's MacTxDrop or PhyRxDrop trace.
     * \param packet the frame
     */
    void DeviceDropLogger(Ptr<const Packet> packet);
    /**
     * MrcFabricNetDevice's FaultDrop trace.
     * \param packet the frame
     * \param cause the fault
     */
    void FaultDropLogger(Ptr<const Packet> packet, MrcFabricLossCause cause);
    /**
     * The Drop trace of a fabric routing protocol or of MrcSwitchPipeline.
     * \tparam Reason the protocol's drop reason type
     * \param packet the packet
     * \param header its IPv6 header
     * \param reason why
     */
    template<typename Reason>
    void RoutingDropLogger(Ptr<const Packet> packet, const Ipv6Header& header, Reason reason);
    /**
     * Ipv6L3Protocol's Drop trace.
     * \param header the IPv6 header
     * \param packet the packet
     * \param reason why
     * \param ipv6 the protocol
     * \param interface the interface
     */
    void Ipv6DropLogger(const Ipv6Header& header,
                        Ptr<const Packet> packet,
                        Ipv6L3Protocol::DropReason reason,
                        Ptr<Ipv6> ipv6,
                        uint32_t interface);

    /**
     * Check the constructor's arguments before FlowProbe registers this probe with the monitor.
     * \param monitor the FlowMonitor
     * \param classifier the classifier
     * \param node the host
     * \return monitor
     * \throws std::invalid_argument as the constructor says
     */
    static Ptr<FlowMonitor> CheckArguments(Ptr<FlowMonitor> monitor,
                                           Ptr<Ipv6FlowClassifier> classifier,
                                           Ptr<Node> node);

    /**
     * MrcL4Protocol's TxPath trace.
     * \param packet the IPv6 payload (SRH if any, UDP onwards)
     * \param header the outer IPv6 header
     * \param path its wire path
     */
    void TxLogger(Ptr<const Packet> packet, const Ipv6Header& header, const MrcWirePath& path);
    /**
     * MrcL4Protocol's Rx trace.
     * \param packet the packet from its BTH on
     * \param header the outer IPv6 header
     * \param plane the arrival port
     */
    void RxLogger(Ptr<const Packet> packet, const Ipv6Header& header, uint32_t plane);

    Ptr<Ipv6FlowClassifier> m_classifier; //!< the monitor's IPv6 classifier
    Ptr<MrcL4Protocol> m_l4;              //!< the watched transport (hosts)
    MrcTraceConnections m_traces;         //!< every connected trace
    /// (flow, packet) of the last drop reported: one loss that fires two traces counts once
    std::pair<uint32_t, uint32_t> m_lastDrop{0, 0};
};

} // namespace ns3

#endif /* MRC_FLOW_PROBE_H */
