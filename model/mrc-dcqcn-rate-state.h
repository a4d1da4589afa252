/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_DCQCN_RATE_STATE_H
#define MRC_DCQCN_RATE_STATE_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The reaction point of DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA
 * Deployments", SIGCOMM 2015) as pure logic: current rate Rc, target rate Rt, alpha, and the
 * timer and byte-counter stages that drive the rate back up.
 *
 * - Cut (a rate decrease): the target is clamped to the current rate (Rt = Rc) when
 *   clampTargetRate is set (the paper: every cut), or when clampAfterTimeIncrease is set and a
 *   timer stage has passed since the last cut (NVIDIA ConnectX NICs: clamp_tgt_rate 0,
 *   clamp_tgt_rate_after_time_inc 1); then Rc = max(min rate, Rc (1 - alpha / 2)); the stages
 *   restart.
 * - Alpha, once per alpha period: alpha = (1 - g) alpha + g if a CNP arrived in the period,
 *   (1 - g) alpha otherwise (UpdateAlpha, DecayAlpha).
 * - Rate-increase timer (every T) and byte counter (every B bytes sent, if B > 0) each advance
 *   their stage and raise the rate, then Rc = (Rt + Rc) / 2, within [min rate, line rate].
 *   With a byte counter (the paper): fast recovery while both stages are below F, hyper
 *   increase once both exceed F (Rt += (min stage - F) R_HAI), additive increase otherwise
 *   (Rt += R_AI). Without one (B = 0, as NIC models without it): the timer stage alone, counted
 *   from 0 before the event: below F fast recovery, F additive, above F hyper (Rt += R_HAI).
 *
 * The caller owns the clocks (MrcDcqcn schedules them); rates are in bit/s.
 */
class MrcDcqcnRateState
{
  public:
    /// Parameters (defaults: the ConnectX firmware's, at 100 Gb/s; Paper(): the DCQCN paper's).
    struct Params
    {
        double lineRate{100e9};            //!< NIC line rate, bit/s
        double minRate{1e6};               //!< lowest rate, bit/s
        double g{5.0 / 1024};              //!< alpha gain
        uint64_t byteCounter{0};           //!< B: bytes per byte-counter stage (0: none)
        uint32_t fastRecoverySteps{1};     //!< F
        double additiveIncrease{5e6};      //!< R_AI, bit/s
        double hyperIncrease{50e6};        //!< R_HAI, bit/s
        bool clampTargetRate{false};       //!< Rt = Rc at every cut
        bool clampAfterTimeIncrease{true}; //!< Rt = Rc at a cut after a timer stage

        /**
         * \param lineRate the NIC line rate, bit/s
         * \return the DCQCN paper's parameters: g = 1/256, B = 10 MB, F = 5, R_AI = 40 Mb/s,
         *         R_HAI = 400 Mb/s, min rate 100 Mb/s, the target clamped at every cut
         */
        static Params Paper(double lineRate);
    };

    /**
     * \param params parameters
     * \throws std::invalid_argument naming the parameter and its range if one is invalid
     */
    explicit MrcDcqcnRateState(const Params& params);

    /// Cut the rate (one rate decrease; the caller decides when, e.g. at most once per 4 us).
    void Cut();

    /**
     * One alpha period ended.
     * \param congested a CNP arrived in the period
     */
    void UpdateAlpha(bool congested);

    /**
     * Alpha periods ended without a CNP.
     * \param periods how many
     */
    void DecayAlpha(uint64_t periods);

    /// The rate-increase timer expired.
    void OnIncreaseTimer();

    /**
     * \param bytes bytes just sent (the byte counter, if any, may complete a stage)
     */
    void OnBytesSent(uint64_t bytes);

    /// \return the current rate Rc, bit/s
    double GetRate() const;

    /// \return the target rate Rt, bit/s
    double GetTargetRate() const;

    /// \return alpha
    double GetAlpha() const;

    /// \return the timer stage T
    uint32_t GetTimerStage() const;

    /// \return the byte-counter stage BC
    uint32_t GetByteStage() const;

    /// \return true once the rate is back at line rate (nothing left to recover)
    bool IsAtLineRate() const;

  private:
    /// Raise the rate after a timer or byte-counter stage.
    void Increase();

    Params m_params;     //!< parameters
    double m_rc;         //!< current rate
    double m_rt;         //!< target rate
    double m_alpha{1.0}; //!< alpha
    uint32_t m_t{0};     //!< timer stage
    uint32_t m_bc{0};    //!< byte-counter stage
    uint64_t m_bytes{0}; //!< bytes towards the next byte-counter stage
};

} // namespace ns3

#endif /* MRC_DCQCN_RATE_STATE_H */
