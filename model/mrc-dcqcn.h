/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_DCQCN_H
#define MRC_DCQCN_H

#include "mrc-congestion-ops.h"
#include "mrc-dcqcn-rate-state.h"

#include "ns3/event-id.h"
#include "ns3/traced-value.h"

#include <optional>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM
 * 2015), RoCEv2's congestion control, as a rate-based MrcCongestionOps.
 *
 * Notification point (the receiving end): a CE-marked data packet makes the queue pair's receiver
 * send a CNP (BTH opcode 0x81), at most one per CnpInterval. Reaction point (the sending end):
 * the rate logic is MrcDcqcnRateState; this class owns its clocks and paces the queue pair at the
 * current rate Rc, as an NVIDIA ConnectX NIC does (its documented DCQCN parameters, and the
 * HPCC simulator's model of it):
 *  - CNPs make rate cuts, at most one per RateDecreaseInterval (the CNPs of an interval make
 *    one cut, at its end); a cut restarts the rate-increase timer and the byte counter;
 *  - alpha is updated once per AlphaTimer period, on a clock that starts at the first CNP and
 *    runs freely: up if a CNP arrived in the period, down otherwise;
 *  - every IncreaseTimer (and every ByteCounter bytes sent, if set): one stage of fast
 *    recovery, additive or hyper increase (FastRecoverySteps, RateAi, RateHai);
 *  - the target rate follows the current rate at a cut only as ClampTargetRate and
 *    ClampTargetRateAfterTimeIncrease say.
 * The reaction point starts at the queue pair's first CNP with alpha = 1 (NICs allocate a flow's
 * rate limiter on its first CNP; ConnectX's initial_alpha_value is 1023/1024). Back at line rate
 * no event runs and nothing is paced; alpha is computed lazily on its period grid, so it is
 * exact without an event per period.
 *
 * ACKs, NACKs and losses do not change the rate (DCQCN reacts to CNPs only); the window is a cap
 * only (Window, default none: MaxOutstandingPsns alone limits what is in flight).
 *
 * Defaults: the ConnectX NIC's behaviour and timers (NVIDIA "DCQCN CC Parameters": dce_tcp_g
 * 1019 so g = 5/1024, dce_tcp_rtt 1 us, rate_reduce_monitor_period 4 us; the firmware's values
 * as mlxconfig reports them: rpg_time_reset 300 us, rpg_threshold 1, clamp_tgt_rate 0,
 * clamp_tgt_rate_after_time_inc 1, min_time_between_cnps 4 us), with the increase steps and the
 * floor of the HPCC simulator's DCQCN setting (R_AI 5 Mb/s and R_HAI 50 Mb/s per 25 Gb/s of
 * line rate, MinRate 1 Gb/s) instead of the firmware's fixed 5 and 50 Mb/s and 1 Mb/s floor,
 * with which a 400G flow cut to its floor under an incast took 33 ms to recover (measured;
 * set RateAi=5Mbps, RateHai=50Mbps, MinRate=1Mbps for the firmware's). The byte counter is off
 * [open: rpg_byte_reset's unit is not documented; the HPCC model has none]. rpg_min_dec_fac
 * (50 %) needs no code: alpha <= 1 never cuts more than half.
 * The DCQCN paper's set: G 1/256, AlphaTimer 55 us, RateDecreaseInterval 0, IncreaseTimer
 * 55 us, ByteCounter 10 MB, FastRecoverySteps 5, RateAi 40 Mb/s, RateHai 400 Mb/s, MinRate
 * 100 Mb/s, ClampTargetRate true, CnpInterval 50 us (MrcDcqcnRateState::Params::Paper).
 */
class MrcDcqcn : public MrcCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcDcqcn();
    ~MrcDcqcn() override;

    /**
     * \copydoc MrcCongestionOps::Init
     * \throws std::invalid_argument if a parameter is out of range (MrcDcqcnRateState names it)
     */
    void Init(uint32_t mss, uint32_t mtu, DataRate linkRate, Time baseRtt) override;
    void OnAck(Time now, uint32_t ackedBytes, Time rtt, bool ecn) override;
    void OnNack(Time now, uint32_t nackedBytes, bool lastHop) override;
    void OnLoss(Time now, uint32_t lostBytes) override;
    uint64_t GetCwnd() const override;
    std::optional<DataRate> GetPacingRate() const override;
    void OnCongestionNotification(Time now) override;
    void OnDataSent(Time now, uint32_t wireBytes) override;
    std::optional<Time> GetCnpInterval() const override;

    /// \return the current rate Rc in bit/s (line rate before the first CNP)
    double GetRate() const;
    /// \return the target rate Rt in bit/s
    double GetTargetRate() const;
    /// \return alpha
    double GetAlpha() const;
    /// \return the line rate in bit/s
    double GetLineRate() const;
    /// \return true while the rate is below line rate (the timers run)
    bool IsLimited() const;

    /// Window when the Window attribute is 0: large enough never to limit.
    static constexpr uint64_t kNoWindow = uint64_t(1) << 50;

  protected:
    void DoDispose() override;

  private:
    /**
     * \param now the current time
     * \return the alpha periods that ended before now since the last update (0: none, or no
     *         CNP yet)
     */
    int64_t EndedAlphaPeriods(Time now) const;
    /**
     * Apply ended alpha periods to a rate state.
     * \param state the state
     * \param cnpInFirst a CNP arrived in the first of them
     * \param periods how many ended (>= 1)
     */
    static void ApplyAlphaPeriods(MrcDcqcnRateState& state, bool cnpInFirst, int64_t periods);
    /**
     * Apply the alpha periods that ended before now.
     * \param now the current time
     */
    void AdvanceAlpha(Time now);
    /**
     * One rate cut.
     * \param now the current time
     */
    void Cut(Time now);
    /// The end of a rate-decrease interval with CNPs in it.
    void OnDecreaseDue();
    /// The rate-increase timer expired.
    void OnIncreaseTimer();
    /// Copy the state into the traces; stop the increase timer once back at line rate.
    void Update();

    // Attributes
    DataRate m_minRate;        //!< MinRate
    double m_g;                //!< G
    Time m_alphaPeriod;        //!< AlphaTimer (K)
    Time m_decreasePeriod;     //!< RateDecreaseInterval
    Time m_increasePeriod;     //!< IncreaseTimer (T)
    uint64_t m_byteCounter;    //!< ByteCounter (B)
    uint32_t m_fastRecovery;   //!< FastRecoverySteps (F)
    DataRate m_rateAi;         //!< RateAi
    DataRate m_rateHai;        //!< RateHai
    bool m_clampTarget;        //!< ClampTargetRate
    bool m_clampAfterIncrease; //!< ClampTargetRateAfterTimeIncrease
    Time m_cnpInterval;        //!< CnpInterval (N)
    uint64_t m_windowAttr;     //!< Window (0: none)

    std::optional<MrcDcqcnRateState> m_state; //!< reaction point
    double m_lineRate{0};                     //!< line rate, bit/s
    Time m_alphaStart{-1};       //!< start of the current alpha period (-1: no CNP yet)
    bool m_cnpInPeriod{false};   //!< a CNP arrived in the current alpha period
    Time m_lastCut{-1};          //!< last rate cut (-1: none)
    EventId m_decreaseEvent;     //!< a cut due at the end of the decrease interval
    EventId m_increaseEvent;     //!< rate-increase timer
    TracedValue<double> m_rate;  //!< Rate trace (bit/s)
    TracedValue<double> m_alpha; //!< Alpha trace
};

} // namespace ns3

#endif /* MRC_DCQCN_H */
