/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_DSCP_H
#define MRC_DSCP_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Default DSCP codepoints of an MRC fabric.
 *
 * The MRC sources do not fix the values [open]; these are the module's defaults, used by the
 * transport and by MrcTrimmingQueueDisc, and every one is an attribute where it is used.
 */
struct MrcDscp
{
    static constexpr uint8_t kData = 26;           //!< data (AF31)
    static constexpr uint8_t kRetransmit = 30;     //!< retransmitted data (AF33), still trimmable
    static constexpr uint8_t kControl = 48;        //!< ACK/SACK/NACK/probe (CS6): priority queue
    static constexpr uint8_t kTrimmed = 36;        //!< trimmed at a fabric port (AF42)
    static constexpr uint8_t kTrimmedLastHop = 38; //!< trimmed at a host-facing port (AF43)
};

} // namespace ns3

#endif /* MRC_DSCP_H */
