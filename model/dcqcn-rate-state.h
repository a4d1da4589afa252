/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DCQCN_RATE_STATE_H
#define DCQCN_RATE_STATE_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The reaction point of DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA
 * Deployments", SIGCOMM 2015) as pure logic: current rate Rc, target rate Rt, alpha, and the
 * timer and byte-counter stages that drive the rate back up.
 *
 * - CNP: Rt = Rc; Rc = Rc (1 - alpha / 2); alpha = (1 - g) alpha + g; timer and byte-counter
 *   stages reset.
 * - Alpha timer (every K without a CNP): alpha = (1 - g) alpha.
 * - Rate-increase timer (every T) and byte counter (every B bytes sent) each advance their
 *   stage and raise the rate: fast recovery while both stages are below F (Rc = (Rt + Rc) / 2),
 *   hyper increase once both exceed F (Rt += (min stage - F) x R_HAI), additive increase
 *   otherwise (Rt += R_AI), then Rc = (Rt + Rc) / 2; rates stay within [min rate, line rate].
 *
 * The caller owns the clocks (MrcDcqcn schedules the timers); rates are in bit/s.
 */
class DcqcnRateState
{
  public:
    /// Parameters (defaults: the DCQCN paper's, for a 100 Gb/s NIC).
    struct Params
    {
        double lineRate{100e9};           //!< NIC line rate, bit/s
        double minRate{100e6};            //!< lowest rate, bit/s
        double g{1.0 / 256};              //!< alpha gain
        uint64_t byteCounter{10'000'000}; //!< B: bytes per byte-counter stage
        uint32_t fastRecoverySteps{5};    //!< F
        double additiveIncrease{40e6};    //!< R_AI, bit/s
        double hyperIncrease{400e6};      //!< R_HAI, bit/s
    };

    /**
     * \param params parameters
     * \throws std::invalid_argument naming the parameter and its range if one is invalid
     */
    explicit DcqcnRateState(const Params& params);

    /// A CNP arrived: cut the rate.
    void OnCnp();
    /// The alpha timer expired without a CNP in its period: alpha decays.
    void OnAlphaTimer();
    /// The rate-increase timer expired.
    void OnIncreaseTimer();
    /**
     * \param bytes bytes just sent (the byte counter may complete a stage)
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

#endif /* DCQCN_RATE_STATE_H */
