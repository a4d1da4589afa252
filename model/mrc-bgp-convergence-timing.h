/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_BGP_CONVERGENCE_TIMING_H
#define MRC_BGP_CONVERGENCE_TIMING_H

#include "ns3/nstime.h"

#include <cstdint>
#include <ostream>

namespace ns3
{

/**
 * \ingroup mrc
 * What happened to a link, which decides what can notice it.
 */
enum class MrcLinkFailureKind : uint8_t
{
    CARRIER_LOSS, //!< the link loses carrier (cut fibre, dead optic, switch power loss)
    BLACKHOLE,    //!< frames vanish but the carrier stays up (gray failure, corrupt ASIC path)
};

/**
 * \ingroup mrc
 * The mechanism that tells a switch a BGP session is down.
 */
enum class MrcFailureDetector : uint8_t
{
    NONE,       //!< nothing notices: the session stays up, the routes stay in place
    CARRIER,    //!< loss of carrier on the port (fast external fall-over)
    BFD,        //!< Bidirectional Forwarding Detection: detect multiplier x interval
    HOLD_TIMER, //!< the BGP hold timer expires (no KEEPALIVE received for the hold time)
};

/**
 * \ingroup mrc
 * \brief The timing of BGP reconvergence in a data-centre fabric: failure detection, per-hop
 * propagation of UPDATEs and FIB programming. Pure arithmetic, no simulator state.
 *
 * The fields are the attributes of MrcBgpReconvergenceModel (same names, same defaults, sources in
 * doc/mrc.rst, "BGP reconvergence model"). Validate() checks them.
 *
 * - Detection: a CARRIER_LOSS failure is seen by the carrier detector, and by BFD and the hold
 *   timer if they are enabled, whichever is fastest. A BLACKHOLE keeps the carrier up: only BFD
 *   or the hold timer (when enabled) detect it; with neither it is never detected.
 * - Propagation: every BGP hop costs PerHopDelay + Mrai.
 * - FIB programming: FibBaseTime + FibPerRouteTime x routes per batch, batches of one switch
 *   one after the other.
 */
struct MrcBgpConvergenceTiming
{
    Time carrierDetectionDelay{MilliSeconds(2)}; //!< CarrierDetectionDelay, >= 0
    bool bfdEnabled{false};                      //!< BfdEnabled
    Time bfdInterval{MilliSeconds(300)};         //!< BfdInterval, > 0
    uint32_t bfdDetectMultiplier{3};             //!< BfdDetectMultiplier, 1..255
    bool holdTimerDetection{false};              //!< HoldTimerDetection
    Time holdTime{Seconds(9)};                   //!< HoldTime, 0 (off) or 3..65535 s
    Time sessionEstablishDelay{Seconds(0)};      //!< SessionEstablishDelay, >= 0
    Time perHopDelay{MilliSeconds(1)};           //!< PerHopDelay, >= 0
    Time mrai{Seconds(0)};                       //!< Mrai, >= 0
    Time fibBaseTime{Seconds(0)};                //!< FibBaseTime, >= 0
    Time fibPerRouteTime{MicroSeconds(1300)};    //!< FibPerRouteTime, >= 0

    /**
     * \throws std::invalid_argument naming the first out-of-range field (by its attribute
     *         name) and its accepted range
     */
    void Validate() const;

    /// \return the BFD detection time, BfdDetectMultiplier x BfdInterval
    Time GetBfdDetectionTime() const;

    /**
     * \param kind what happened to the link
     * \return the fastest enabled detector that can see it (ties: carrier, BFD, hold timer), or
     *         NONE
     */
    MrcFailureDetector GetDetector(MrcLinkFailureKind kind) const;

    /**
     * \param detector a detector other than NONE
     * \return the time from the failure to the session going down at both ends
     * \throws std::invalid_argument for NONE
     */
    Time GetDetectionDelay(MrcFailureDetector detector) const;

    /**
     * Time from the repair of a link whose failure this detector had reported to the session
     * being up again at both ends: the carrier is debounced like its loss, BFD needs about a
     * detection time to come Up, a hold-timer failure is over as soon as packets flow; plus
     * SessionEstablishDelay in every case.
     * \param detector a detector other than NONE
     * \return the delay
     * \throws std::invalid_argument for NONE
     */
    Time GetRestoreDelay(MrcFailureDetector detector) const;

    /// \return the cost of one BGP hop, PerHopDelay + Mrai
    Time GetHopDelay() const;

    /**
     * \param routes routes changed in one batch
     * \return FibBaseTime + FibPerRouteTime x routes
     */
    Time GetFibProgrammingTime(uint32_t routes) const;

    /**
     * When one switch finishes a FIB batch: its FIB is programmed one batch at a time.
     * \param ready when the batch is ready (the routes were decided)
     * \param busyUntil when the switch's previous batch finishes
     * \param routes routes in the batch
     * \return max(ready, busyUntil) + GetFibProgrammingTime(routes)
     */
    Time GetFibBatchEnd(Time ready, Time busyUntil, uint32_t routes) const;

    /**
     * The closed form for one switch that has nothing else to program: detection at
     * the nearest switch adjacent to the failure, then `hops` BGP hops, then one FIB batch.
     * \param detector the detector (not NONE)
     * \param hops BGP hops from the detecting switch
     * \param routes routes the switch changes
     * \return time from the failure to the switch's FIB being programmed
     */
    Time GetSwitchConvergenceTime(MrcFailureDetector detector,
                                  uint32_t hops,
                                  uint32_t routes) const;
};

/**
 * \param os stream
 * \param kind failure kind
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, MrcLinkFailureKind kind);

/**
 * \param os stream
 * \param detector detector
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, MrcFailureDetector detector);

} // namespace ns3

#endif /* MRC_BGP_CONVERGENCE_TIMING_H */
