/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_WIRE_PATH_H
#define MRC_WIRE_PATH_H

#include "ns3/ipv6-address.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * Where an MRC packet sent on one EV goes: the NIC port (plane) it leaves by and its outer IPv6
 * addressing. SRv6: the uSID carriers of the EV's path (an SRH follows when there are several);
 * ECMP: one "carrier", the destination NIC's address, and the switches hash the EV (UDP source
 * port = EV[15:0], flow label = EV[31:16]).
 */
struct MrcWirePath
{
    uint32_t ev{0};    //!< entropy value
    uint32_t plane{0}; //!< plane / NIC port
    uint32_t interface {
        0
    };                                 //!< IPv6 interface of that port
    Ipv6Address source;                //!< outer source: the port's address
    std::vector<Ipv6Address> carriers; //!< outer destination(s), first first
    /// The carriers name the whole path (SRv6): EVs with equal carriers take the same path.
    /// False where switches choose (ECMP): which EVs share a path is unknown to the sender.
    bool sourceRouted{false};
    /// The address of the peer's NIC port on this plane, where the packet is delivered (for
    /// SRv6 the carriers lead there; for ECMP it equals the carrier). Not put on the wire: it
    /// names the flow for MrcFlowProbe. "::" when the resolver does not know it.
    Ipv6Address destination;
};

/// Maps an EV to its wire path (provided by MrcHelper from the data plane).
using MrcPathResolver = std::function<MrcWirePath(uint32_t ev)>;

} // namespace ns3

#endif /* MRC_WIRE_PATH_H */
