/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_LINE_RATE_MODEL_H
#define MRC_LINE_RATE_MODEL_H

#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Line-rate ideal times of transfers and collectives on a fabric without contention.
 *
 * A host has `planes` NIC ports of `portRate` each; a message of B bytes is cut into packets of
 * `mss` payload bytes, each carrying `overhead` bytes of headers on the wire. The ideal of one
 * transfer over a path of L links (L = switches + 1, every link with propagation delay d):
 *
 *   Transfer(B, L)   = Serialize(B) + Latency(L, B)
 *   Serialize(B)     = (B + ceil(B / mss) x overhead) x 8 / (planes x portRate)
 *   Latency(L, B)    = L x d + (L - 1) x (last(B) + overhead) x 8 / portRate
 *
 * with last(B) the size of B's last packet (B - (ceil(B / mss) - 1) x mss): the message leaves
 * the host at the aggregate rate of all planes; its last packet then pays the propagation of
 * every link and the store-and-forward of every switch. Collectives of n
 * ranks and S bytes (the collective's message size; chunks of S / n, Chunks()):
 *  - ring all-reduce: 2 (n - 1) x Transfer(ceil(S / n), L), each step waits for the previous;
 *  - all-gather (ring): (n - 1) x Transfer(ceil(S / n), L);
 *  - all-to-all: Serialize((n - 1) x ceil(S / n)) + Latency(L, ceil(S / n)) (every host link
 *    busy at once, the fabric assumed non-blocking);
 *  - N-to-1 incast of S per sender: Serialize(N x S) + Latency(Lmin, S) (the receiver's links,
 *    from the nearest sender's latency on), at least Transfer(S, L) (the farthest sender's);
 *  - permutation and point-to-point: Transfer(S, L).
 * L is the longest path the collective uses. A lower bound: no congestion control ramp, no
 * acknowledgements, no ECMP collisions.
 */
class MrcLineRateModel
{
  public:
    /**
     * \param portRateBps rate of one NIC port, bit/s (> 0)
     * \param planes NIC ports (planes) per host (>= 1)
     * \param linkDelay propagation delay of every link (>= 0)
     * \param mss payload bytes per packet (>= 1)
     * \param overhead header bytes per packet on the wire
     * \throws std::invalid_argument naming the parameter out of range
     */
    MrcLineRateModel(double portRateBps,
                     uint32_t planes,
                     Time linkDelay,
                     uint32_t mss,
                     uint32_t overhead);

    /// \param bytes message size \return its serialization at the host's aggregate rate
    Time Serialize(uint64_t bytes) const;
    /// \param links links on the path (>= 1) \return propagation and store-and-forward of a
    /// full packet
    Time Latency(uint32_t links) const;
    /**
     * \param links links on the path (>= 1)
     * \param bytes message size
     * \return propagation and store-and-forward of the message's last packet
     */
    Time Latency(uint32_t links, uint64_t bytes) const;
    /// \param bytes message size \param links links on the path \return Serialize + Latency
    Time Transfer(uint64_t bytes, uint32_t links) const;

    /// \param n ranks \param size S \param links longest ring hop \return ring all-reduce ideal
    Time RingAllReduce(uint32_t n, uint64_t size, uint32_t links) const;
    /// \param n ranks \param size S \param links longest ring hop \return ring all-gather ideal
    Time AllGather(uint32_t n, uint64_t size, uint32_t links) const;
    /// \param n ranks \param size S \param links longest path \return all-to-all ideal
    Time AllToAll(uint32_t n, uint64_t size, uint32_t links) const;
    /// \param senders N \param size bytes per sender \param links every sender's path
    /// \return incast ideal (Incast(senders, size, links, links))
    Time Incast(uint32_t senders, uint64_t size, uint32_t links) const;
    /**
     * Incast ideal when the senders are at different distances: the receiver's links carry all
     * N x S bytes after the nearest sender's latency, and the farthest sender's S bytes need
     * their own transfer: max(Serialize(N x S) + Latency(nearest, S), Transfer(S, farthest)).
     * \param senders N
     * \param size S, bytes per sender
     * \param nearest links on the shortest sender's path (>= 1)
     * \param farthest links on the longest sender's path (>= nearest)
     * \return incast ideal
     * \throws std::invalid_argument if farthest < nearest
     */
    Time Incast(uint32_t senders, uint64_t size, uint32_t nearest, uint32_t farthest) const;

    /**
     * Cut S bytes into n chunks: the first S mod n chunks get one byte more than S / n.
     * \param total S
     * \param n chunks (>= 1)
     * \return the chunk sizes, summing to S
     * \throws std::invalid_argument if n is 0
     */
    static std::vector<uint64_t> Chunks(uint64_t total, uint32_t n);

  private:
    double m_portRateBps; //!< one port's rate
    uint32_t m_planes;    //!< ports per host
    Time m_linkDelay;     //!< per-link delay
    uint32_t m_mss;       //!< payload per packet
    uint32_t m_overhead;  //!< headers per packet
};

} // namespace ns3

#endif /* MRC_LINE_RATE_MODEL_H */
