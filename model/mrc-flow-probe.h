/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FLOW_PROBE_H
#define MRC_FLOW_PROBE_H

#include "mrc-wire-path.h"

#include "ns3/flow-probe.h"
#include "ns3/ipv6-flow-classifier.h"
#include "ns3/ipv6-header.h"

namespace ns3
{

class MrcL4Protocol;
class Node;
class Packet;

/**
 * \ingroup mrc
 * \brief A FlowMonitor probe for the MRC datagrams of one host.
 *
 * ns-3's Ipv6FlowProbe watches Ipv6L3Protocol's traces, which MRC datagrams do not pass:
 * MrcL4Protocol builds their IPv6 header itself and hands them to the NIC port's interface, and
 * MrcHostPipeline delivers arriving ones without Ipv6L3Protocol. Without this probe a
 * FlowMonitor has no MRC flow at all. This probe connects to the host's MrcL4Protocol instead:
 *  - TxPath (a packet leaves a NIC port): classifies the packet with the FlowMonitor's
 *    Ipv6FlowClassifier, reports its first transmission, and tags it (MrcFlowProbeTag);
 *  - Rx (a packet arrives, before the transport parses it): a tagged packet of full size is
 *    received (FlowMonitor's rx counters and delay); a tagged packet shorter than it was sent
 *    was trimmed on the way, and is reported dropped with reason DROP_TRIMMED at the receiving
 *    host (the sender retransmits its data as a new packet).
 *
 * A flow is one queue pair's traffic towards its peer on one plane. The five-tuple handed to
 * the classifier is: the sending NIC port's address; the peer's NIC port address on that plane
 * (MrcWirePath::destination: for SRv6 the address the uSID carriers lead to, not the carrier);
 * UDP; as source port the destination QP number's low 16 bits (on the wire MRC puts the EV
 * there, which would make every EV a flow); destination port 4791. Data packets and the
 * control packets of the other direction (SACK, NACK, CNP, probes) are flows of their own, as
 * a TCP connection's two directions are. Every transmission is a packet of its own, so a
 * retransmitted PSN counts twice in txPackets, once per transmission.
 *
 * Bytes are the IPv6 datagram's as sent (header and SRH included). Packets lost in the fabric
 * (queue drops, link faults, routing drops) are not reported where they are lost: they stay
 * tracked until FlowMonitor counts them lost (FlowMonitor::CheckForLostPackets, after
 * ns3::FlowMonitor::MaxPerHopDelay; MrcFabricDropMonitor says where and why).
 *
 * MrcFlowMonitorHelper installs one on each host with MrcL4Protocol.
 */
class MrcFlowProbe : public FlowProbe
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /// Reason codes of the drops this probe reports (FlowMonitor's per-flow packetsDropped).
    enum DropReason : uint32_t
    {
        DROP_TRIMMED = 0, //!< the payload was trimmed on the way (a header arrived)
    };

    /**
     * Connect to a host's MrcL4Protocol and register with the monitor.
     * \param monitor the FlowMonitor
     * \param classifier the classifier of the monitor's IPv6 flows
     * \param node a host with MrcL4Protocol
     * \throws std::invalid_argument if an argument is null or the node has no MrcL4Protocol
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
    Ptr<MrcL4Protocol> m_l4;              //!< the watched transport
};

} // namespace ns3

#endif /* MRC_FLOW_PROBE_H */
