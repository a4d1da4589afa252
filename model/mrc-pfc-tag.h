/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PFC_TAG_H
#define MRC_PFC_TAG_H

#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Packet tag of the PFC model (not on the wire).
 *
 * Two uses, told apart by GetKind():
 *  - PAUSE_FRAME: the packet is a PFC PAUSE frame (its payload an MrcPfcPauseHeader). The sending
 *    device's MrcPfcDeviceQueue sends it ahead of data and MrcFabricChannel hands it to the peer's
 *    MrcPfcPort instead of the peer's receive path;
 *  - INGRESS: MrcFabricChannel records on every frame it delivers to a PFC-enabled device the
 *    device's interface index, so that the switch's egress queue disc can charge the bytes to
 *    the ingress port (MrcPfcPort ingress accounting) while the packet waits.
 */
class MrcPfcTag : public Tag
{
  public:
    /// What the tag says.
    enum class Kind : uint8_t
    {
        PAUSE_FRAME = 1, //!< the packet is a PAUSE frame
        INGRESS = 2,     //!< the packet arrived on the device with this interface index
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    MrcPfcTag();

    /**
     * \param kind what the tag says
     * \param ifIndex interface index of the ingress device (INGRESS), else 0
     */
    MrcPfcTag(Kind kind, uint32_t ifIndex);

    /// \return what the tag says
    Kind GetKind() const;

    /// \return the ingress device's interface index (INGRESS)
    uint32_t GetIfIndex() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

  private:
    Kind m_kind{Kind::INGRESS}; //!< what the tag says
    uint32_t m_ifIndex{0};      //!< ingress interface index
};

} // namespace ns3

#endif /* MRC_PFC_TAG_H */
