/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_QP_RECEIVER_H
#define MRC_QP_RECEIVER_H

#include "mrc-header-types.h"
#include "mrc-loss-recovery.h"
#include "mrc-qp-stats.h"
#include "mrc-receive-state.h"

#include "ns3/event-id.h"
#include "ns3/ipv6-header.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace ns3
{

class MrcBthHeader;

/**
 * \ingroup mrc
 * \brief The receiving half of an MRC queue pair: places data packets on arrival and answers
 * them with SACKs and NACKs.
 *
 * - Placement: every data packet carries its own RETH, so it is written where it belongs in any
 *   order (no reorder buffer); MrcReceiveState accepts each PSN once, so every byte is placed
 *   exactly once, and reports a message when its last byte (and its immediate) is in.
 * - SACK coalescing: a SACK (cumulative PSN, 64-bit bitmap at an offset that follows the packet,
 *   reflected EV and timestamp, ECN echo, CC block, port-state bitmap) goes out once SackBytes
 *   payload bytes have been placed since the last one, and at once for a packet that is
 *   ECN-marked (so that its EV is echoed), a duplicate, one with the BTH ack-request flag, or
 *   one that completes a message. A SACK owed for fewer bytes leaves after SackDelay, so a
 *   sender that has stopped is never left waiting. Every arrival is reported by at least one
 *   SACK: when the bitmap of the SACK that would answer a packet could not also report the
 *   packets already waiting for it (a retransmission arriving more than 63 PSNs behind new
 *   data, or the reverse), their SACK leaves first (the intent of the UEC reference
 *   simulator's sackBitmapBaseIdeal), so that the sender's per-EV order rule never takes an
 *   arrived but unreported packet for a lost one.
 * - NACKs: TRIMMED or TRIMMED_LASTHOP for a trimmed packet (from its DSCP), NO_BITMAP for a PSN
 *   beyond the receive bitmap (BitmapPsns, smaller than the PSN window when the NIC's tracking
 *   state is the limit), PSN_OOR_WINDOW for a PSN beyond the PSN window.
 * - In-order mode (MrcReceiveOrder::IN_ORDER, go-back-N): only the expected PSN is accepted; a
 *   packet ahead of it is dropped and the first of each gap is answered with NACK SEQUENCE_ERROR
 *   carrying the expected PSN; a trimmed packet is NACKed only if it is the expected one.
 * - CNPs: when the queue pair's congestion control asks for them (cnpInterval), a CE-marked data
 *   packet makes the receiver send a CNP (16 reserved bytes after the BTH, as RoCEv2's), at most
 *   one per cnpInterval.
 *
 * Control packets leave through the Hooks::sendControl callback, which adds the BTH and ICRC
 * and picks the reverse EV.
 */
class MrcQpReceiver
{
  public:
    /// Fixed parameters (from the queue pair's attributes).
    struct Config
    {
        uint32_t window{1024};                       //!< PSN window (MaxOutstandingPsns)
        uint32_t bitmapPsns{1024};                   //!< PSNs the receive bitmap tracks (<= window)
        uint32_t sackBytes{16384};                   //!< bytes placed per SACK (0: every packet)
        Time sackDelay;                              //!< longest wait of a coalesced SACK
        uint8_t windowPenalty{0};                    //!< receiver window penalty advertised
        uint8_t trimmedDscp{0};                      //!< DSCP of a fabric-trimmed packet
        uint8_t trimmedLastHopDscp{0};               //!< DSCP of a last-hop-trimmed packet
        MrcReceiveOrder order{MrcReceiveOrder::ANY}; //!< what arrives out of order
        std::optional<Time> cnpInterval;             //!< CNP spacing (none: no CNPs)
        uint32_t alwaysSkipMarks{
            2}; //!< CE marks in a row on one EV that make ALWAYS_SKIP (0: never)
    };

    /// What the receiver needs from its queue pair.
    struct Hooks
    {
        /// Send a control packet (the part after the BTH) towards the peer, preferably on plane,
        /// and on the path of the EV the triggering data packet took, if given.
        std::function<void(Ptr<Packet> body,
                           MrcOpcode opcode,
                           uint32_t plane,
                           std::optional<uint32_t> dataEv)>
            sendControl;
        /// The local NIC's port-state bitmap (bit p set: port p is down).
        std::function<uint8_t()> portState;
        /// A new data packet was placed (payload, PSN, EV).
        std::function<void(Ptr<const Packet>, uint32_t, uint32_t)> placed;
        /// A message arrived whole (MSN, bytes, immediate).
        std::function<void(uint32_t, uint64_t, std::optional<uint32_t>)> delivered;
        /// A CNP is being sent for a CE-marked packet (its EV).
        std::function<void(uint32_t)> cnpSent;
    };

    /**
     * \param config parameters
     * \param firstPsn the first PSN the peer sends
     * \param hooks callbacks into the queue pair
     * \param stats the queue pair's counters (receiver fields are updated)
     * \throws std::invalid_argument if bitmapPsns is not in 64..window
     */
    MrcQpReceiver(const Config& config, uint32_t firstPsn, Hooks hooks, MrcQpStats& stats);
    ~MrcQpReceiver();

    MrcQpReceiver(const MrcQpReceiver&) = delete;
    MrcQpReceiver& operator=(const MrcQpReceiver&) = delete;

    /**
     * Register local memory that the peer's WRITEs land in.
     * \param va its virtual address
     * \param region the bytes (written in place)
     */
    void RegisterMemory(uint64_t va, std::shared_ptr<std::vector<uint8_t>> region);

    /**
     * A data packet arrived.
     * \param packet the packet after the BTH (extension headers, payload, ICRC)
     * \param bth its BTH
     * \param outer its outer IPv6 header (DSCP, ECN)
     * \param ev its EV
     * \param plane the port it arrived on
     */
    void OnData(Ptr<Packet> packet,
                const MrcBthHeader& bth,
                const Ipv6Header& outer,
                uint32_t ev,
                uint32_t plane);

    /// \return the cumulative PSN (carried in the BTH of control packets)
    /**
     * Answer a tail-loss probe: a SACK of everything held now (bitmap from the cumulative PSN),
     * reflecting the probe's EV and travelling back on its path.
     * \param ev the probe's EV
     * \param plane the port it arrived on
     */
    void SendSackNow(uint32_t ev, uint32_t plane);

    uint32_t GetCumulativePsn() const;
    /// \return when the last data packet arrived (negative: never)
    Time GetLastArrival() const;
    /// Cancel the SACK timer (the queue pair failed or is disposed).
    void Stop();

  private:
    /// The packet a coalesced SACK answers.
    struct Pending
    {
        uint32_t psn{0};       //!< its PSN
        uint32_t ev{0};        //!< its EV
        uint16_t timestamp{0}; //!< its TSETH timestamp
        uint32_t plane{0};     //!< its arrival port
    };

    /**
     * \param code NACK code
     * \param psn the PSN it is about
     * \param ev the packet's EV
     * \param timestamp the packet's timestamp
     * \param plane arrival port
     */
    void SendNack(MrcNackCode code, uint32_t psn, uint32_t ev, uint16_t timestamp, uint32_t plane);
    /**
     * \param about the packet the SACK answers
     * \param mark the ECN mark to echo (NONE, SKIP_ONCE or ALWAYS_SKIP)
     */
    void SendSack(const Pending& about, MrcSackMark mark);
    /**
     * \param ev a data packet's EV
     * \param ce whether it was CE-marked
     * \return the mark its SACK echoes: SKIP_ONCE for a CE mark, ALWAYS_SKIP when the EV's last
     *         alwaysSkipMarks data packets were all CE-marked (persistent congestion), else NONE
     */
    MrcSackMark MarkFor(uint32_t ev, bool ce);
    /// The coalescing timer expired.
    void OnSackTimer();
    /**
     * \param about the packet a SACK would answer
     * \return true if that SACK (cumulative PSN and the bitmap its base gives) would report
     *         every packet placed since the last SACK
     */
    bool BatchFits(uint32_t about) const;
    /**
     * In-order mode: may this packet be placed? Drops and NACKs the others.
     * \param psn its PSN
     * \param trimmed it was trimmed (its DSCP says so)
     * \param ev its EV
     * \param timestamp its timestamp
     * \param plane arrival port
     * \return true if it continues down the normal path
     */
    bool InSequence(uint32_t psn, bool trimmed, uint32_t ev, uint16_t timestamp, uint32_t plane);
    /**
     * A CE-marked data packet arrived: send a CNP unless one left less than cnpInterval ago.
     * \param ev its EV
     * \param plane arrival port
     */
    void MaybeSendCnp(uint32_t ev, uint32_t plane);
    /// Registered memory: virtual address -> region.
    using MemoryMap = std::map<uint64_t, std::shared_ptr<std::vector<uint8_t>>>;
    /**
     * \param va a virtual address
     * \param size bytes from it, > 0
     * \return the registered region holding all of [va, va + size), or m_memory.end() (the
     *         bound is checked without overflow: a va near 2^64 must not wrap into a region)
     */
    MemoryMap::const_iterator FindRegion(uint64_t va, uint64_t size) const;
    /**
     * \param va a RETH's virtual address
     * \param size the payload's bytes
     * \return false if memory is registered and the payload does not fit in one region: an
     *         invalid remote access, dropped as malformed
     */
    bool IsValidAccess(uint64_t va, uint64_t size) const;
    /**
     * Copy a packet's payload into the registered region holding va, if any.
     * \param packet payload
     * \param va its virtual address
     */
    void Write(Ptr<const Packet> packet, uint64_t va);

    Config m_config;                      //!< parameters
    Hooks m_hooks;                        //!< queue pair hooks
    MrcQpStats& m_stats;                  //!< counters
    MrcReceiveState m_state;              //!< PSNs and messages
    MemoryMap m_memory;                   //!< va -> region
    uint64_t m_unsackedBytes{0};          //!< bytes placed since the last SACK
    Pending m_pending;                    //!< the packet a coalesced SACK answers
    bool m_owed{false};                   //!< a SACK is owed
    std::vector<uint32_t> m_batch;        //!< PSNs placed since the last SACK
    EventId m_sackEvent;                  //!< coalescing timer
    Time m_lastArrival{-1};               //!< last data arrival
    bool m_gapNacked{false};              //!< in-order mode: the current gap was NACKed
    std::optional<Time> m_lastCnp;        //!< when the last CNP left
    std::map<uint32_t, uint32_t> m_ceRun; //!< EV -> CE-marked data packets in a row on it
};

} // namespace ns3

#endif /* MRC_QP_RECEIVER_H */
