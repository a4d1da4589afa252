/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FABRIC_ADDRESS_PLAN_H
#define MRC_FABRIC_ADDRESS_PLAN_H

#include "ns3/ipv6-address.h"
#include "ns3/mrc-usid-carrier.h"

#include <cstdint>
#include <optional>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The IPv6 addressing plan of a fabric built by MrcClosTopologyHelper.
 *
 * Hosts (unique local addresses; note that ns-3 refuses to forward 2001:db8::/32):
 *  - host NIC port on plane p, attached to T0 number t (0-based, counted over all pods of the
 *    plane) at port h: `fd00:p:t:h::1`, on the link prefix `fd00:p:t:h::/64`;
 *  - every host behind T0 t of plane p: `fd00:p:t::/48` (one route per T0 at T1 and T2);
 *  - everything on plane p: `fd00:p::/32` (one route per plane at the host).
 * Switch-to-switch links carry link-local addresses only: the fabric is routed by interface.
 *
 * SRv6 (reserved here, used by the SRv6 data plane): the uSID block `fcbb:bb00::/32`; each
 * switch gets a 16-bit uSID, i.e. the locator `fcbb:bb00:<uSID>::/48`.
 */
class MrcFabricAddressPlan
{
  public:
    /// Where a host address points.
    struct HostLocation
    {
        uint32_t plane; //!< plane
        uint32_t t0;    //!< T0 index within the plane
        uint32_t port;  //!< T0 host-facing port
    };

    static constexpr uint16_t kHostBlock = 0xfd00; //!< first 16 bits of every host address
    /// 32-bit SRv6 uSID block (MrcUsidCarrier's default)
    static constexpr uint32_t kUsidBlock = MrcUsidCarrier::kDefaultBlock;

    /**
     * \param plane plane
     * \param t0 T0 index within the plane
     * \param port T0 host-facing port
     * \return the host's address on that plane
     */
    static Ipv6Address HostAddress(uint32_t plane, uint32_t t0, uint32_t port);

    /**
     * \param plane plane
     * \param t0 T0 index within the plane
     * \param port T0 host-facing port
     * \return the /64 prefix of that host link
     */
    static Ipv6Address HostLinkPrefix(uint32_t plane, uint32_t t0, uint32_t port);

    /// Length of HostLinkPrefix()
    static constexpr uint8_t kHostLinkPrefixLength = 64;

    /**
     * \param plane plane
     * \param t0 T0 index within the plane
     * \return the /48 prefix of every host behind that T0
     */
    static Ipv6Address T0Prefix(uint32_t plane, uint32_t t0);

    /// Length of T0Prefix()
    static constexpr uint8_t kT0PrefixLength = 48;

    /**
     * \param plane plane
     * \return the /32 prefix of the plane
     */
    static Ipv6Address PlanePrefix(uint32_t plane);

    /// Length of PlanePrefix()
    static constexpr uint8_t kPlanePrefixLength = 32;

    /**
     * \param address an address
     * \return where a host address of this plan points, or nothing if it is not one
     */
    static std::optional<HostLocation> ParseHostAddress(Ipv6Address address);

  private:
    /**
     * \param w0 first 16-bit word
     * \param w1 second
     * \param w2 third
     * \param w3 fourth
     * \param last last 16-bit word
     * \return the address w0:w1:w2:w3::last
     */
    static Ipv6Address Make(uint16_t w0, uint16_t w1, uint16_t w2, uint16_t w3, uint16_t last);
};

} // namespace ns3

#endif /* MRC_FABRIC_ADDRESS_PLAN_H */
