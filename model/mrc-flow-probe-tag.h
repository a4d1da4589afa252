/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FLOW_PROBE_TAG_H
#define MRC_FLOW_PROBE_TAG_H

#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Packet tag of MrcFlowProbe (not on the wire): which FlowMonitor flow and packet an MRC
 * datagram is, and its sizes when it left the sender.
 *
 * A packet tag, not a byte tag as ns-3's Ipv6FlowProbe uses, so that it survives trimming (a
 * trimming switch keeps the headers and cuts the payload, and byte tags go with the bytes they
 * cover); the receiver tells a trimmed arrival by its size.
 */
class MrcFlowProbeTag : public Tag
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    MrcFlowProbeTag();
    /**
     * \param flowId the FlowMonitor flow
     * \param packetId the packet within the flow
     * \param ipBytes the IPv6 datagram's size as sent (header, extension headers, payload)
     * \param mrcBytes the MRC payload's size as sent (BTH ... ICRC)
     */
    MrcFlowProbeTag(uint32_t flowId, uint32_t packetId, uint32_t ipBytes, uint32_t mrcBytes);

    /// \return the FlowMonitor flow
    uint32_t GetFlowId() const;
    /// \return the packet within the flow
    uint32_t GetPacketId() const;
    /// \return the IPv6 datagram's size as sent
    uint32_t GetIpBytes() const;
    /// \return the MRC payload's size as sent (BTH ... ICRC)
    uint32_t GetMrcBytes() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

  private:
    uint32_t m_flowId{0};   //!< flow
    uint32_t m_packetId{0}; //!< packet within the flow
    uint32_t m_ipBytes{0};  //!< IPv6 datagram size as sent
    uint32_t m_mrcBytes{0}; //!< MRC payload size as sent
};

} // namespace ns3

#endif /* MRC_FLOW_PROBE_TAG_H */
