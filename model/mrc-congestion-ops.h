/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CONGESTION_OPS_H
#define MRC_CONGESTION_OPS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <optional>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Congestion control of an MRC queue pair: a window of bytes in flight, updated from
 * acknowledgements, NACKs and losses. Chosen per queue pair by TypeId (MrcQueuePair's
 * CongestionControl attribute), in the spirit of ns-3's TcpCongestionOps.
 *
 * Time is passed in explicitly so that a window policy is a pure function of its inputs. A
 * rate-based policy (MrcDcqcn) also paces the queue pair (GetPacingRate), reacts to RoCEv2
 * congestion notification packets (OnCongestionNotification) and may run its own timers; it asks
 * the queue pair's receiving end for CNPs through GetCnpInterval.
 */
class MrcCongestionOps : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * Called once when the queue pair starts.
     * \param mss payload bytes of a full packet
     * \param mtu wire bytes of a full packet
     * \param linkRate the sender's line rate (all the NIC's ports together)
     * \param baseRtt the unloaded round-trip time of the path
     */
    virtual void Init(uint32_t mss, uint32_t mtu, DataRate linkRate, Time baseRtt) = 0;

    /**
     * \param now current time
     * \param ackedBytes bytes newly acknowledged
     * \param rtt the RTT sample of the acknowledged packet
     * \param ecn the acknowledged packet was CE-marked
     */
    virtual void OnAck(Time now, uint32_t ackedBytes, Time rtt, bool ecn) = 0;

    /**
     * \param now current time
     * \param nackedBytes bytes of the trimmed packet
     * \param lastHop trimmed at the last hop (incast), not in the fabric
     */
    virtual void OnNack(Time now, uint32_t nackedBytes, bool lastHop) = 0;

    /**
     * \param now current time
     * \param lostBytes bytes of a packet declared lost by its loss timer
     */
    virtual void OnLoss(Time now, uint32_t lostBytes) = 0;

    /**
     * \param penalty receiver window penalty from a SACK, 0..127 (0: none)
     */
    virtual void SetReceiverPenalty(uint8_t penalty);

    /// \return the window in bytes, after the receiver penalty
    uint64_t GetWindow() const;

    /// \return the congestion window in bytes
    virtual uint64_t GetCwnd() const = 0;

    /**
     * \return the largest window the policy may grow to, bytes (loss detection scales its
     *         reordering threshold with it). Default: the current window.
     */
    virtual uint64_t GetMaxCwnd() const;

    /**
     * \param bytes bytes in flight now (the queue pair sets it before feeding feedback)
     */
    void SetBytesInFlight(uint64_t bytes);

    /**
     * \return the rate the queue pair paces its data packets at (bytes on the wire), or nothing:
     *         no pacing, the NIC ports send at line rate as the window allows (the default)
     */
    virtual std::optional<DataRate> GetPacingRate() const;

    /**
     * A RoCEv2 congestion notification packet (CNP) arrived for this queue pair. Default: ignored.
     * \param now current time
     */
    virtual void OnCongestionNotification(Time now);

    /**
     * A data packet left (new or retransmitted). Default: ignored.
     * \param now current time
     * \param wireBytes its size on the wire
     */
    virtual void OnDataSent(Time now, uint32_t wireBytes);

    /**
     * \return the shortest interval between two CNPs that the queue pair's receiving end sends
     *         for CE-marked data, or nothing: it sends no CNPs (the default; MRC and NSCC use the
     *         ECN echo in SACKs instead)
     */
    virtual std::optional<Time> GetCnpInterval() const;

  protected:
    uint64_t m_bytesInFlight{0}; //!< bytes in flight (SetBytesInFlight)
    uint8_t m_penalty{0}; //!< receiver window penalty (window scaled by (128 - penalty) / 128)
};

} // namespace ns3

#endif /* MRC_CONGESTION_OPS_H */
