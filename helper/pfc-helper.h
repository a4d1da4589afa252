/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PFC_HELPER_H
#define MRC_PFC_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-port.h"
#include "ns3/traffic-control-helper.h"

#include <string>

namespace ns3
{

class FabricTopology;

/**
 * \ingroup mrc
 * \brief Turns on IEEE 802.1Qbb priority flow control on fabric devices.
 *
 * Install() aggregates a PfcPort (configured from SetPortAttribute) to each device and gives
 * it the node's PfcSharedBuffer (aggregated to the node on first need, configured from
 * SetBufferAttribute). A device must be a PointToPointNetDevice on a FabricChannel with a
 * PfcDeviceQueue transmit queue (ClosTopologyHelper builds links so), and PFC must be on at
 * both ends of a link. The egress queue discs must be PfcQueueDisc (QueueDiscHelper()) for
 * pauses to be honoured and ingress backlog to be counted; install PFC before the simulation
 * starts.
 */
class PfcHelper
{
  public:
    PfcHelper();

    /**
     * \param name a PfcPort attribute
     * \param value its value
     */
    void SetPortAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \param name a PfcSharedBuffer attribute
     * \param value its value
     */
    void SetBufferAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \param device a fabric device
     * \return its new PfcPort
     * \throws std::invalid_argument if the device is not on a FabricChannel with a
     *         PfcDeviceQueue, or already has a PfcPort
     */
    Ptr<PfcPort> Install(Ptr<NetDevice> device) const;

    /**
     * \param devices fabric devices
     */
    void Install(const NetDeviceContainer& devices) const;

    /**
     * PFC on both ends of every link of a fabric: hosts' NIC ports and every switch port.
     * The topology's queue discs should be PfcQueueDisc (ClosTopologyHelper::SetPfcQueues).
     * \param topo a fabric built by ClosTopologyHelper
     * \return the number of PfcPorts installed (2 per link)
     */
    uint32_t Install(const FabricTopology& topo) const;

    /**
     * \param lossyMaxSize limit of each lossy priority, e.g. "512KiB"
     * \param ecn EcnEnabled (false on a host's NIC port, which marks nothing)
     * \return a TrafficControlHelper whose root queue disc is a PfcQueueDisc
     * \throws std::invalid_argument if lossyMaxSize is not a positive queue size
     */
    static TrafficControlHelper QueueDiscHelper(const std::string& lossyMaxSize = "512KiB",
                                                bool ecn = true);

    /**
     * \param device a device
     * \return its PfcPort, or nullptr without PFC
     */
    static Ptr<PfcPort> GetPort(Ptr<NetDevice> device);

  private:
    ObjectFactory m_port;   //!< PfcPort
    ObjectFactory m_buffer; //!< PfcSharedBuffer
};

} // namespace ns3

#endif /* MRC_PFC_HELPER_H */
