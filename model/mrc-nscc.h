/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_NSCC_H
#define MRC_NSCC_H

#include "mrc-congestion-ops.h"

namespace ns3
{

/**
 * \ingroup mrc
 * \brief NSCC, the sender-based congestion control of Ultra Ethernet that MRC uses: a window
 * driven by queueing delay (RTT - base RTT) and ECN, in four quadrants.
 *
 * Per acknowledgement (acked bytes A, delay d, its moving average d_avg with weight DelayAlpha):
 * (d is the delay sample: from the exact send time the queue pair keeps; an acknowledgement
 * without a sample counts as the average delay, and an unmarked sample above the target counts
 * as a quarter base RTT, as in the reference simulator's update_delay.)
 * - no ECN, d below the target: proportional increase, inc += alpha * A * (target - d)
 *   (capped at A * Pi if Pi > 0);
 * - no ECN, d above the target: fair increase, inc += fi * A;
 * - ECN, d above the target: multiplicative decrease, cwnd *= max(1 - gamma (d_avg - target) /
 *   d_avg, 0.5), at most once per base RTT and, with DecreaseOncePerRtt, at most once per RTT of
 *   the marked packet (Swift's rule);
 * - ECN, d below the target: hold.
 *
 * Every AdjustMtus full packets acknowledged (or once per base RTT) the increments are applied,
 * cwnd += inc / cwnd, plus eta once per base RTT. Fast increase: once a whole window has been
 * acknowledged with delays under FastIncreaseThreshold, every such acknowledgement adds
 * FastIncreaseFactor x a x acked bytes at once (the proportional increase is skipped meanwhile).
 * Quick adapt: on a NACK, or when d_avg exceeds QuickAdaptFactor x target, cwnd becomes the
 * bytes acknowledged over the last (base RTT + target), at most once per such period and only if
 * they are below MaxWindow / 2^QuickAdaptGate; afterwards ECN-marked feedback is ignored until
 * as many bytes as were in flight have been acknowledged. A trigger older than one period (an
 * idle queue pair) is dropped, not acted on. NACKed bytes otherwise come off the window, as do
 * the bytes of a packet presumed lost (OnLoss), without a quick adapt: a silent loss is a path
 * failure, not congestion. The base RTT is the smaller of the configured one and the smallest
 * RTT seen; the maximum window follows it (MaxWindowFactor x BDP). The window stays between one
 * MTU and the maximum window.
 *
 * Defaults follow the public UEC reference simulator: target = 0.75 x base RTT (fabric with
 * trimming), max window 1.5 BDP, initial window = max window, gamma 0.8, alpha =
 * 4 MSS a b / target, fi = 5 MSS a, eta = 0.15 MSS a with a = BDP / (100 Gb/s x 12 us) and
 * b = target / 12 us. The brief's proportional-increase cap A x Pi has no published value [open]:
 * Pi defaults to 0 (no cap), as in the reference simulator.
 */
class MrcNscc : public MrcCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    void Init(uint32_t mss, uint32_t mtu, DataRate linkRate, Time baseRtt) override;
    void OnAck(Time now, uint32_t ackedBytes, Time rtt, bool ecn) override;
    void OnNack(Time now, uint32_t nackedBytes, bool lastHop) override;
    void OnLoss(Time now, uint32_t lostBytes) override;
    uint64_t GetCwnd() const override;
    uint64_t GetMaxCwnd() const override;

    /// \return the base RTT in use (configured, or the smallest seen if smaller)
    Time GetBaseRtt() const;

    /// \return the target queueing delay in use
    Time GetTarget() const;
    /// \return the moving average of the queueing delay
    Time GetAverageDelay() const;
    /// \return alpha (bytes per second)
    double GetAlpha() const;
    /// \return fi (bytes)
    double GetFairIncrease() const;
    /// \return eta (bytes)
    double GetEta() const;
    /// \return the maximum window (bytes)
    double GetMaxWindow() const;

  private:
    /**
     * Quick adapt.
     * \param now current time
     * \param loss called for a NACK or a loss
     * \return true if the window was reset (pending increments are dropped then)
     */
    bool QuickAdapt(Time now, bool loss);

    /**
     * After a quick adapt, the feedback on what was in flight is ignored.
     * \param bytes bytes this feedback is about
     * \return true if it is ignored (and counted as such)
     */
    bool Ignoring(uint32_t bytes, bool ecn);

    /**
     * Fold a delay sample into the moving average (the reference simulator's update_delay).
     * \param delay the sample, seconds
     * \param ecn whether the packet was marked
     */
    void UpdateDelay(double delay, bool ecn);

    /**
     * Fast increase.
     * \param ackedBytes bytes acknowledged
     * \param delay the delay sample, seconds
     * \return true if the window grew fast (the proportional increase is skipped)
     */
    bool FastIncrease(uint32_t ackedBytes, double delay);

    /// Clamp the window to [MTU, max window].
    void Bound();

    // Attributes
    Time m_targetAttr;         //!< TargetDelay (0: 0.75 x base RTT)
    double m_maxWindowFactor;  //!< MaxWindowFactor (x BDP)
    uint64_t m_initialWindow;  //!< InitialWindow (0: the max window)
    double m_gamma;            //!< Gamma
    bool m_decreaseOncePerRtt; //!< DecreaseOncePerRtt
    double m_delayAlpha;       //!< DelayAlpha
    double m_alphaFactor;      //!< AlphaFactor
    double m_fiFactor;         //!< FairIncreaseFactor
    double m_etaFactor;        //!< EtaFactor
    double m_pi;               //!< Pi (proportional-increase cap per acked byte; 0: none)
    uint32_t m_adjustMtus;     //!< AdjustMtus
    bool m_quickAdapt;         //!< QuickAdapt
    double m_qaFactor;         //!< QuickAdaptFactor
    uint32_t m_qaGate;         //!< QuickAdaptGate
    double m_fastFactor;       //!< FastIncreaseFactor (x a)
    Time m_fastThreshold;      //!< FastIncreaseThreshold
    DataRate m_refRate;        //!< ReferenceRate
    Time m_refRtt;             //!< ReferenceRtt

    // State
    uint32_t m_mtu{0};             //!< wire bytes of a full packet
    DataRate m_linkRate;           //!< the sender's line rate
    Time m_configuredRtt;          //!< base RTT given at Init (the network RTT)
    Time m_baseRtt;                //!< base RTT in use
    double m_fastScale{0};         //!< fast increase per acked byte
    uint64_t m_fastCount{0};       //!< bytes acknowledged in a row under the threshold
    bool m_increasing{false};      //!< fast increase under way
    Time m_target;                 //!< target queueing delay
    double m_cwnd{0};              //!< window, bytes
    double m_maxWnd{0};            //!< max window, bytes
    double m_alpha{0};             //!< bytes per second
    double m_fi{0};                //!< bytes
    double m_eta{0};               //!< bytes
    double m_avgDelay{0};          //!< seconds
    double m_inc{0};               //!< pending increase, bytes^2
    uint64_t m_received{0};        //!< bytes acked since the last adjustment
    uint64_t m_achieved{0};        //!< bytes acked in the current quick-adapt period
    Time m_lastAdjust;             //!< last adjustment
    Time m_lastEta;                //!< last eta
    Time m_lastDecrease{Time(-1)}; //!< last multiplicative decrease
    Time m_qaEnd;                  //!< end of the current quick-adapt period
    bool m_qaTrigger{false};       //!< a NACK/loss is pending for quick adapt
    uint64_t m_bytesToIgnore{0};   //!< feedback bytes ignored after a quick adapt
    uint64_t m_bytesIgnored{0};    //!< of which ignored so far
};

} // namespace ns3

#endif /* MRC_NSCC_H */
