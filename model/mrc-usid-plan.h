/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_USID_PLAN_H
#define MRC_USID_PLAN_H

#include "mrc-clos-spec.h"
#include "mrc-fabric-link.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Allocation of 16-bit SRv6 uSIDs to the switches and host ports of a Clos fabric.
 *
 * uSID = plane (4 bits) | id (12 bits), so a packet's EV writes its plane into every uSID of a
 * per-destination template:
 *  - switches: ids 0x001 .. 0xdff, allocated T0s first, then T1s, then T2s. A switch has one
 *    uSID per *variant*: variant v means "reach this switch over the v-th of the parallel links
 *    from the previous hop" (one variant where links are not parallel), so a path can name
 *    each link it takes;
 *  - host-facing T0 ports: id 0xe00 + port, a local uSID (the same value at every T0, meaning
 *    "out of my port"), which is also the host's own SID on that plane.
 * Shapes that need more ids (too many switches per plane, more than 512 hosts per T0) are
 * refused with a message giving the numbers.
 */
class MrcUsidPlan
{
  public:
    static constexpr uint16_t kPortBase = 0xe00;    //!< first host-port id
    static constexpr uint16_t kMaxSwitchId = 0xdff; //!< last switch id
    static constexpr uint32_t kMaxPlanes = 16;      //!< planes that 4 bits can name

    /**
     * \param spec the (validated) fabric shape
     * \throws std::invalid_argument if the fabric does not fit the 16-bit uSID space
     */
    explicit MrcUsidPlan(const MrcClosSpec& spec);

    /**
     * \param tier tier
     * \return number of variants (parallel-link multiplicity into that tier)
     */
    uint32_t GetVariants(MrcSwitchTier tier) const;

    /**
     * \param tier tier
     * \param plane plane
     * \param index switch index within tier and plane
     * \param variant 0..GetVariants(tier)-1
     * \return the uSID
     */
    uint16_t GetSwitchUsid(MrcSwitchTier tier,
                           uint32_t plane,
                           uint32_t index,
                           uint32_t variant) const;

    /**
     * \param plane plane
     * \param port host-facing port of a T0 (host index % hostsPerT0)
     * \return the uSID of that port (and of the host behind it)
     */
    uint16_t GetPortUsid(uint32_t plane, uint32_t port) const;

    /**
     * \param usid a uSID
     * \return a readable description ("p1 T1[3] v0", "p0 port 5", "unallocated")
     */
    std::string Describe(uint16_t usid) const;

  private:
    MrcClosSpec m_spec;     //!< the shape
    uint32_t m_variants[3]; //!< variants per tier
    uint32_t m_base[3];     //!< first id of each tier
    uint32_t m_end;         //!< one past the last switch id
};

} // namespace ns3

#endif /* MRC_USID_PLAN_H */
