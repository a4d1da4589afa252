/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_HEADER_TYPES_H
#define MRC_HEADER_TYPES_H

#include <cstdint>
#include <ostream>

/**
 * \file
 * \ingroup mrc
 * Wire-format constants of the MRC transport: BTH opcodes, NACK codes, the SACK mark, the
 * RoCEv2 UDP port and 24-bit PSN arithmetic.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * \brief BTH opcodes used by MRC (RC RDMA WRITE family plus MRC control packets).
 */
enum class MrcOpcode : uint8_t
{
    WRITE_FIRST = 0xC6,    //!< first packet of a multi-packet WRITE (carries RETH)
    WRITE_MIDDLE = 0xC7,   //!< middle packet of a multi-packet WRITE
    WRITE_LAST = 0xC8,     //!< last packet of a multi-packet WRITE
    WRITE_LAST_IMM = 0xC9, //!< last packet of a WRITE with immediate (carries ImmDt)
    WRITE_ONLY = 0xCA,     //!< single-packet WRITE (carries RETH)
    WRITE_ONLY_IMM = 0xCB, //!< single-packet WRITE with immediate (carries RETH and ImmDt)
    ACK = 0xD1,            //!< plain acknowledgement
    SACK = 0xDC,           //!< selective acknowledgement (MrcSackHeader follows the BTH)
    NACK = 0xDD,           //!< negative acknowledgement (MrcNackHeader follows the BTH)
    PROBE = 0xDE,          //!< reliability / path probe (MrcProbeHeader follows the BTH)
    CNP = 0x81,            //!< RoCEv2 congestion notification (16 reserved bytes follow the BTH)
};

/**
 * \ingroup mrc
 * \brief NACK codes carried in MrcNackHeader.
 *
 * TRIMMED (0x01) and TRIMMED_LASTHOP (0x02) are the values the MRC sources give. The sources
 * name NO_BITMAP, PSN_OOR_WINDOW and UNEXP_EVENT without values: 0x03..0x05 are this module's
 * choice. SEQUENCE_ERROR (0x06, the module's value) is the go-back-N receiver's NACK, InfiniBand's
 * "PSN sequence error" NAK: its PSN is the one the receiver expects, and it acknowledges every
 * PSN before it.
 */
enum class MrcNackCode : uint8_t
{
    TRIMMED = 0x01,         //!< packet trimmed at a fabric port: penalise the EV, retransmit
    TRIMMED_LASTHOP = 0x02, //!< packet trimmed at the host-facing port (incast): retransmit only
    NO_BITMAP = 0x03,       //!< receiver has no bitmap space for the PSN (module's value)
    PSN_OOR_WINDOW = 0x04,  //!< PSN outside the receiver's window (module's value)
    UNEXP_EVENT = 0x05,     //!< unexpected event, fatal for the QP (module's value)
    SEQUENCE_ERROR = 0x06,  //!< go-back-N: a PSN arrived out of order; resend from the PSN carried
};

/**
 * \ingroup mrc
 * \brief The 2-bit mark M of a SACK, telling the sender what to do with the EV of the packet
 * that triggered it.
 */
enum class MrcSackMark : uint8_t
{
    NONE = 0,        //!< nothing to do
    SKIP_ONCE = 1,   //!< ECN echo: skip the EV for a while
    ALWAYS_SKIP = 2, //!< stop using the EV
};

/// UDP destination port of RoCEv2 (and so of MRC).
inline constexpr uint16_t kMrcUdpPort = 4791;
/// IANA protocol number of UDP (ns-3 deprecates UdpL4Protocol::PROT_NUMBER from 3.49 on).
inline constexpr uint8_t kMrcUdpProtocolNumber = 17;
/// EtherType of IPv6 (ns-3 deprecates Ipv6L3Protocol::PROT_NUMBER from 3.49 on).
inline constexpr uint16_t kMrcIpv6EtherType = 0x86DD;
/// Width of a packet sequence number in bits.
inline constexpr uint32_t kMrcPsnBits = 24;
/// Mask of a packet sequence number.
inline constexpr uint32_t kMrcPsnMask = 0xffffff;

/**
 * \brief Test whether a raw byte is one of the MrcOpcode values.
 * \param raw the opcode byte
 * \return true if raw is one of MrcOpcode
 */
inline constexpr bool
MrcIsKnownOpcode(uint8_t raw)
{
    return (raw >= 0xC6 && raw <= 0xCB) || raw == 0xD1 || raw == 0xDC || raw == 0xDD || raw == 0xDE
           || raw == 0x81;
}

/**
 * \brief Test whether a raw byte is one of the MrcNackCode values.
 * \param raw the code byte
 * \return true if raw is one of MrcNackCode
 */
inline constexpr bool
MrcIsKnownNackCode(uint8_t raw)
{
    return raw >= 0x01 && raw <= 0x06;
}

/**
 * \brief Test whether an opcode is a data (RDMA WRITE) opcode.
 * \param op the opcode
 * \return true for WRITE_FIRST .. WRITE_ONLY_IMM
 */
inline constexpr bool
IsDataOpcode(MrcOpcode op)
{
    return op >= MrcOpcode::WRITE_FIRST && op <= MrcOpcode::WRITE_ONLY_IMM;
}

/**
 * \brief Test whether packets with this opcode carry a RETH.
 * \param op the opcode
 * \return true for WRITE_FIRST, WRITE_ONLY and WRITE_ONLY_IMM
 */
inline constexpr bool
CarriesReth(MrcOpcode op)
{
    return op == MrcOpcode::WRITE_FIRST || op == MrcOpcode::WRITE_ONLY
           || op == MrcOpcode::WRITE_ONLY_IMM;
}

/**
 * \brief Test whether packets with this opcode carry immediate data (ImmDt).
 * \param op the opcode
 * \return true for WRITE_LAST_IMM and WRITE_ONLY_IMM
 */
inline constexpr bool
CarriesImmediate(MrcOpcode op)
{
    return op == MrcOpcode::WRITE_LAST_IMM || op == MrcOpcode::WRITE_ONLY_IMM;
}

/**
 * \brief Add to a PSN modulo 2^24.
 * \param psn a PSN (bits above 24 are ignored)
 * \param n the increment
 * \return (psn + n) mod 2^24
 */
inline constexpr uint32_t
MrcPsnAdd(uint32_t psn, uint32_t n)
{
    return (psn + n) & kMrcPsnMask;
}

/**
 * \brief Signed distance a - b on the 24-bit PSN circle.
 * \param a a PSN (bits above 24 are ignored)
 * \param b a PSN (bits above 24 are ignored)
 * \return the d in -2^23 .. 2^23-1 with b + d == a modulo 2^24 (a distance of exactly 2^23 is
 *         reported as -2^23)
 */
inline constexpr int32_t
MrcPsnDiff(uint32_t a, uint32_t b)
{
    const uint32_t d = (a - b) & kMrcPsnMask;
    return d >= (1u << (kMrcPsnBits - 1))
               ? static_cast<int32_t>(d) - static_cast<int32_t>(1u << kMrcPsnBits)
               : static_cast<int32_t>(d);
}

/**
 * \brief Order of PSNs across the 24-bit wrap.
 * \param a a PSN
 * \param b a PSN
 * \return true if a comes before b, that is MrcPsnDiff(a, b) < 0
 */
inline constexpr bool
MrcPsnLess(uint32_t a, uint32_t b)
{
    return MrcPsnDiff(a, b) < 0;
}

/**
 * \brief Print an opcode by name (unknown values as "MrcOpcode(0x..)").
 * \param os the stream
 * \param op the opcode
 * \return the stream
 */
inline std::ostream&
operator<<(std::ostream& os, MrcOpcode op)
{
    switch (op)
    {
        case MrcOpcode::WRITE_FIRST:
            return os << "WRITE_FIRST";
        case MrcOpcode::WRITE_MIDDLE:
            return os << "WRITE_MIDDLE";
        case MrcOpcode::WRITE_LAST:
            return os << "WRITE_LAST";
        case MrcOpcode::WRITE_LAST_IMM:
            return os << "WRITE_LAST_IMM";
        case MrcOpcode::WRITE_ONLY:
            return os << "WRITE_ONLY";
        case MrcOpcode::WRITE_ONLY_IMM:
            return os << "WRITE_ONLY_IMM";
        case MrcOpcode::ACK:
            return os << "ACK";
        case MrcOpcode::SACK:
            return os << "SACK";
        case MrcOpcode::NACK:
            return os << "NACK";
        case MrcOpcode::PROBE:
            return os << "PROBE";
        case MrcOpcode::CNP:
            return os << "CNP";
    }
    const auto v = static_cast<uint8_t>(op);
    return os << "MrcOpcode(0x"
              << "0123456789abcdef"[v >> 4] << "0123456789abcdef"[v & 0xf] << ")";
}

/**
 * \brief Print a NACK code by name (unknown values as "MrcNackCode(0x..)").
 * \param os the stream
 * \param code the code
 * \return the stream
 */
inline std::ostream&
operator<<(std::ostream& os, MrcNackCode code)
{
    switch (code)
    {
        case MrcNackCode::TRIMMED:
            return os << "TRIMMED";
        case MrcNackCode::TRIMMED_LASTHOP:
            return os << "TRIMMED_LASTHOP";
        case MrcNackCode::NO_BITMAP:
            return os << "NO_BITMAP";
        case MrcNackCode::PSN_OOR_WINDOW:
            return os << "PSN_OOR_WINDOW";
        case MrcNackCode::UNEXP_EVENT:
            return os << "UNEXP_EVENT";
        case MrcNackCode::SEQUENCE_ERROR:
            return os << "SEQUENCE_ERROR";
    }
    const auto v = static_cast<uint8_t>(code);
    return os << "MrcNackCode(0x"
              << "0123456789abcdef"[v >> 4] << "0123456789abcdef"[v & 0xf] << ")";
}

/**
 * \brief Print a SACK mark by name (unknown values as "MrcSackMark(n)").
 * \param os the stream
 * \param mark the mark
 * \return the stream
 */
inline std::ostream&
operator<<(std::ostream& os, MrcSackMark mark)
{
    switch (mark)
    {
        case MrcSackMark::NONE:
            return os << "NONE";
        case MrcSackMark::SKIP_ONCE:
            return os << "SKIP_ONCE";
        case MrcSackMark::ALWAYS_SKIP:
            return os << "ALWAYS_SKIP";
    }
    return os << "MrcSackMark(" << unsigned(static_cast<uint8_t>(mark)) << ")";
}

} // namespace ns3

#endif /* MRC_HEADER_TYPES_H */
