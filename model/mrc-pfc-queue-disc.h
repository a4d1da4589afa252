/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PFC_QUEUE_DISC_H
#define MRC_PFC_QUEUE_DISC_H

#include "mrc-pfc-port.h"
#include "mrc-red-ecn-marker.h"

#include "ns3/node.h"
#include "ns3/queue-disc.h"
#include "ns3/random-variable-stream.h"

#include <optional>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The egress queue of a port on a PFC (lossless) fabric: eight priority FIFOs served by
 * strict priority (7 first), skipping the priorities the peer has paused.
 *
 * Classification: the device's MrcPfcPort maps the DSCP to a priority (PriorityOfDscp; by default
 * DSCP >> 3, the class selector, the default DSCP-to-traffic-class map of common switches:
 * RoCEv2 data, DSCP 26, is priority 3; CNPs, DSCP 48, priority 6; without an MrcPfcPort, DSCP >>
 * 3); packets without an IP header go to priority 0.
 *
 * The device's MrcPfcPort (aggregated to the NetDevice, found on first use through the
 * NetDeviceQueueInterface) says which priorities are lossless and which are paused. A
 * lossless priority is never dropped here: PFC bounds it (MrcPfcPort::GetHeadroomOverflows
 * counts the cases where the configuration does not). A lossy priority is drop-tail at
 * LossyMaxSize per priority. A packet that arrived on a PFC port of the same node (MrcFabricChannel
 * tags it, MrcPfcTag INGRESS) is charged to that port while it waits here
 * (MrcPfcPort::NotifyIngress, NotifyEgress), which drives the port's PAUSE and XON frames. Without
 * an MrcPfcPort the queue disc is a plain eight-priority strict-priority queue and nothing is
 * lossless.
 *
 * A paused priority is only held here: a packet already handed to the device's transmit
 * queue (MrcPfcDeviceQueue, one frame by default) is still sent; MrcPfcPort's headroom counts it.
 *
 * PFC watchdog: while the MrcPfcPort holds a priority stuck with WatchdogAction "drop", its
 * queued packets are dropped when the watchdog fires and its arrivals are dropped (reason
 * kDropWatchdog), their ingress bytes released.
 *
 * ECN: ECN-capable packets are CE-marked at enqueue with MrcRedEcnMarker's probability over the
 * bytes queued in their priority (EcnMinTh, EcnMaxTh, EcnMaxP), as DCQCN expects.
 */
class MrcPfcQueueDisc : public QueueDisc
{
  public:
    /// Drop reason: a lossy priority's FIFO is full.
    static constexpr const char* kDropLossyFull = "Lossy priority full";
    /// Drop reason: the PFC watchdog declared the priority stuck (WatchdogAction "drop").
    static constexpr const char* kDropWatchdog = "PFC watchdog";
    /// Mark reason: ECN congestion experienced.
    static constexpr const char* kMarkEcn = "ECN mark";

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcPfcQueueDisc();
    ~MrcPfcQueueDisc() override;

    /**
     * \param item a packet
     * \return its priority (the MrcPfcPort's GetPriority of its DSCP, DSCP >> 3 without a
     * MrcPfcPort; 0 without an IP header)
     */
    uint8_t Classify(Ptr<const QueueDiscItem> item) const;

    /**
     * \param priority 0..7
     * \return packets queued in the priority
     */
    uint32_t GetNPackets(uint8_t priority) const;

    /**
     * Assign a fixed random variable stream number to the random variables used by this model.
     * \param stream first stream index to use
     * \return the number of stream indices assigned
     */
    int64_t AssignStreams(int64_t stream);

    using QueueDisc::GetNPackets;

  protected:
    void DoDispose() override;

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    Ptr<const QueueDiscItem> DoPeek() override;
    bool CheckConfig() override;
    void InitializeParams() override;

    /// Find the device's MrcPfcPort and node (once, on first use).
    void Bind();

    /// A paused priority resumed (or was declared stuck): drop what the watchdog discards, serve.
    void OnResume();

    /**
     * \param priority a priority
     * \return true if the watchdog holds it stuck with WatchdogAction "drop"
     */
    bool IsDropping(uint8_t priority) const;

    /**
     * \param item a queued or leaving item
     * \return the MrcPfcPort of the port the item arrived on, if it is one of this node's
     */
    Ptr<MrcPfcPort> IngressPort(Ptr<const QueueDiscItem> item) const;

    /// \return the highest priority with a packet that is not paused, or -1
    int NextBand() const;

    // Attributes
    QueueSize m_lossyMaxSize; //!< per lossy priority
    bool m_ecnEnabled;        //!< mark ECN-capable packets
    uint32_t m_ecnMinTh;      //!< bytes
    uint32_t m_ecnMaxTh;      //!< bytes
    double m_ecnMaxP;         //!< probability at EcnMaxTh

    // State
    bool m_bound{false};                     //!< Bind() done
    Ptr<MrcPfcPort> m_port;                  //!< this device's PFC (cleared on dispose: no cycle)
    Node* m_node{nullptr};                   //!< the node (ingress ports); no reference: no cycle
    std::optional<MrcRedEcnMarker> m_marker; //!< marking law
    Ptr<UniformRandomVariable> m_uv;         //!< marking draws
};

} // namespace ns3

#endif /* MRC_PFC_QUEUE_DISC_H */
