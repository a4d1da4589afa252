/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PFC_HELPER_H
#define MRC_PFC_HELPER_H

#include "ns3/mrc-pfc-port.h"
#include "ns3/net-device-container.h"
#include "ns3/object-factory.h"
#include "ns3/traffic-control-helper.h"

#include <optional>
#include <string>

namespace ns3
{

class MrcFabricTopology;

/**
 * \ingroup mrc
 * \brief Turns on IEEE 802.1Qbb priority flow control on fabric devices.
 *
 * Install() aggregates an MrcPfcPort (configured from SetPortAttribute) to each device and gives
 * it the node's MrcPfcSharedBuffer (aggregated to the node on first need, configured from
 * SetBufferAttribute). A device must be a PointToPointNetDevice on an MrcFabricChannel with a
 * MrcPfcDeviceQueue transmit queue (MrcClosTopologyHelper builds links so), and PFC must be on at
 * both ends of a link. The egress queue discs must be MrcPfcQueueDisc (QueueDiscHelper()) for
 * pauses to be honoured and ingress backlog to be counted; install PFC before the simulation
 * starts.
 */
class MrcPfcHelper
{
  public:
    MrcPfcHelper();

    /**
     * \param name an MrcPfcPort attribute
     * \param value its value
     */
    void SetPortAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \param name an MrcPfcSharedBuffer attribute
     * \param value its value
     */
    void SetBufferAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \param device a fabric device
     * \return its new MrcPfcPort
     * \throws std::invalid_argument if the device is not on an MrcFabricChannel with a
     *         MrcPfcDeviceQueue, or already has an MrcPfcPort
     */
    Ptr<MrcPfcPort> Install(Ptr<NetDevice> device) const;

    /**
     * \param devices fabric devices
     */
    void Install(const NetDeviceContainer& devices) const;

    /**
     * PFC on both ends of every link of a fabric: hosts' NIC ports and every switch port.
     * The topology's queue discs should be MrcPfcQueueDisc (MrcClosTopologyHelper::SetPfcQueues).
     * \param topo a fabric built by MrcClosTopologyHelper
     * \return the number of PfcPorts installed (2 per link)
     */
    uint32_t Install(const MrcFabricTopology& topo) const;

    /**
     * \param lossyMaxSize limit of each lossy priority, e.g. "512KiB"
     * \param ecn EcnEnabled (false on a host's NIC port, which marks nothing); nothing: the
     *        attribute's default, so that Config::SetDefault and --ns3::MrcPfcQueueDisc::EcnEnabled
     *        apply
     * \return a TrafficControlHelper whose root queue disc is an MrcPfcQueueDisc
     * \throws std::invalid_argument if lossyMaxSize is not a positive queue size
     */
    static TrafficControlHelper QueueDiscHelper(const std::string& lossyMaxSize = "512KiB",
                                                std::optional<bool> ecn = std::nullopt);

    /**
     * \param device a device
     * \return its MrcPfcPort, or nullptr without PFC
     */
    static Ptr<MrcPfcPort> GetPort(Ptr<NetDevice> device);

  private:
    ObjectFactory m_port;   //!< MrcPfcPort
    ObjectFactory m_buffer; //!< MrcPfcSharedBuffer
};

} // namespace ns3

#endif /* MRC_PFC_HELPER_H */
