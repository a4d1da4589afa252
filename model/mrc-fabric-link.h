/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FABRIC_LINK_H
#define MRC_FABRIC_LINK_H

#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <ostream>

namespace ns3
{

/**
 * \ingroup mrc
 * Switch tiers of a Clos fabric, from the leaves up.
 */
enum class MrcSwitchTier : uint8_t
{
    T0 = 0, //!< leaf / top-of-rack: host-facing
    T1 = 1, //!< spine (two tiers) or aggregation (three tiers)
    T2 = 2, //!< core / super-spine (three tiers only)
};

/**
 * \ingroup mrc
 * Which pair of layers a link joins; also the key of the per-tier link parameters.
 */
enum class MrcLinkTier : uint8_t
{
    HOST_T0 = 0, //!< host NIC port to T0
    T0_T1 = 1,   //!< T0 to T1
    T1_T2 = 2,   //!< T1 to T2
};

/**
 * \ingroup mrc
 * The role of a NetDevice's port, which selects its queue disc.
 */
enum class MrcPortRole : uint8_t
{
    HOST_NIC = 0,    //!< a host's own NIC port
    HOST_FACING = 1, //!< a T0 port towards a host (the last hop)
    FABRIC = 2,      //!< a switch port towards another switch
};

/**
 * \ingroup mrc
 * One point-to-point link of the fabric. "Lower" is the host or the switch nearer the hosts.
 */
struct MrcFabricLink
{
    uint32_t id{0};                         //!< position in MrcFabricTopology::GetLinks()
    MrcLinkTier tier{MrcLinkTier::HOST_T0}; //!< which layers it joins
    uint32_t plane{0};                      //!< plane
    Ptr<Node> lower;                        //!< host or lower-tier switch
    Ptr<Node> upper;                        //!< upper-tier switch
    Ptr<NetDevice> lowerDevice;             //!< the lower end's NetDevice
    Ptr<NetDevice> upperDevice;             //!< the upper end's NetDevice
    uint32_t lowerInterface{0};             //!< IPv6 interface index of lowerDevice on lower
    uint32_t upperInterface{0};             //!< IPv6 interface index of upperDevice on upper
};

/**
 * \param os stream
 * \param tier tier
 * \return the stream
 */
inline std::ostream&
operator<<(std::ostream& os, MrcSwitchTier tier)
{
    return os << "T" << unsigned(tier);
}

/**
 * \param os stream
 * \param tier tier
 * \return the stream
 */
inline std::ostream&
operator<<(std::ostream& os, MrcLinkTier tier)
{
    switch (tier)
    {
        case MrcLinkTier::HOST_T0:
            return os << "host-T0";
        case MrcLinkTier::T0_T1:
            return os << "T0-T1";
        case MrcLinkTier::T1_T2:
            return os << "T1-T2";
    }
    return os << "?";
}

} // namespace ns3

#endif /* MRC_FABRIC_LINK_H */
