/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_DCQCN_H
#define MRC_DCQCN_H

#include "dcqcn-rate-state.h"
#include "mrc-congestion-ops.h"

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
 * the rate logic is DcqcnRateState; this class owns its clocks and paces the queue pair at the
 * current rate Rc:
 *  - a CNP cuts the rate (Rt = Rc, Rc = Rc (1 - alpha / 2), alpha = (1 - g) alpha + g) and
 *    restarts the alpha timer, the rate-increase timer and the byte counter;
 *  - every AlphaTimer without a CNP: alpha = (1 - g) alpha;
 *  - every IncreaseTimer, and every ByteCounter bytes sent: one stage of fast recovery, additive
 *    or hyper increase (FastRecoverySteps, RateAi, RateHai).
 * The reaction point starts at the queue pair's first CNP with alpha = 1 (NICs allocate a flow's
 * rate limiter on its first CNP); its timers run only while the rate is below line rate. Back at
 * line rate no event runs and nothing is paced; the alpha decays missed meanwhile are applied at
 * the next CNP, so alpha follows the paper's timer exactly.
 *
 * ACKs, NACKs and losses do not change the rate (DCQCN reacts to CNPs only); the window is a cap
 * only (Window, default none: MaxOutstandingPsns alone limits what is in flight).
 *
 * Defaults follow the DCQCN paper: g = 1/256, K (AlphaTimer) = 55 us, B (ByteCounter) = 10 MB,
 * F = 5, R_AI = 40 Mb/s, N (CnpInterval) = 50 us; T (IncreaseTimer) = 55 us like K [open:
 * public DCQCN simulators use 50-55 us]; R_HAI = 400 Mb/s and the 100 Mb/s floor are the
 * module's choice. NIC firmware ships other values (NVIDIA's rate-increase period
 * rpg_time_reset is 300 us, for example): set the attributes to model a given NIC.
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
     * \throws std::invalid_argument if a parameter is out of range (DcqcnRateState names it)
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
    /// The alpha timer expired.
    void OnAlphaTimer();
    /// The rate-increase timer expired.
    void OnIncreaseTimer();
    /// Copy the state into the traces; stop the timers once back at line rate.
    void Update();

    // Attributes
    DataRate m_minRate;      //!< MinRate
    double m_g;              //!< G
    Time m_alphaPeriod;      //!< AlphaTimer (K)
    Time m_increasePeriod;   //!< IncreaseTimer (T)
    uint64_t m_byteCounter;  //!< ByteCounter (B)
    uint32_t m_fastRecovery; //!< FastRecoverySteps (F)
    DataRate m_rateAi;       //!< RateAi
    DataRate m_rateHai;      //!< RateHai
    Time m_cnpInterval;      //!< CnpInterval (N)
    uint64_t m_windowAttr;   //!< Window (0: none)

    std::optional<DcqcnRateState> m_state; //!< reaction point
    double m_lineRate{0};                  //!< line rate, bit/s
    std::optional<Time> m_lastAlphaTick;   //!< last alpha timer expiry or CNP (none: no CNP yet)
    EventId m_alphaEvent;                  //!< alpha timer
    EventId m_increaseEvent;               //!< rate-increase timer
    TracedValue<double> m_rate;            //!< Rate trace (bit/s)
    TracedValue<double> m_alpha;           //!< Alpha trace
};

} // namespace ns3

#endif /* MRC_DCQCN_H */
