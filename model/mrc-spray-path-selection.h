/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SPRAY_PATH_SELECTION_H
#define MRC_SPRAY_PATH_SELECTION_H

#include "mrc-path-selection.h"
#include "mrc-spray-ev-rules.h"

namespace ns3
{

/**
 * \ingroup mrc
 * \brief MRC's path selection (the default): every packet takes the next EV of its plane's active
 * set, in rotation, and feedback drives the per-EV state machine (MrcSprayEvRules, over the
 * policy's MrcPathSet).
 *
 * EvSetSize active EVs are split equally across planes, the other candidates are backups. An
 * ECN echo or a fabric trim puts the EV in SKIP for SkipRotations rotations; a silent loss retires
 * it (ASSUMED_BAD, replaced by a backup of the same plane); MrcQpProber probes retired EVs back
 * and checks the reverse EVs of a queue pair that only receives.
 */
class MrcSprayPathSelection : public MrcPathSelection
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcSprayPathSelection();
    ~MrcSprayPathSelection() override;

    void Start(const Config& config,
               const Hooks& hooks,
               MrcQpStats& stats,
               Ptr<UniformRandomVariable> rng) override;
    void OnAckFeedback(uint32_t ev, bool ecn, bool persistent) override;
    void OnEcnEcho(uint32_t ev, bool persistent) override;
    void OnTrimmed(uint32_t ev) override;
    void OnSilentLoss(uint32_t ev) override;
    bool IsRetiredWith(uint32_t lost, uint32_t other) const override;
    void OnPathLoss(uint32_t ev) override;
    uint64_t GetPathId(uint32_t ev) const override;
    void OnDataArrival() override;
    void OnProbeResponse(const MrcProbeHeader& response) override;
    void Stop() override;
    void SetPlaneEnabled(uint32_t plane, bool enabled) override;
    void Deny(uint32_t ev) override;
    /**
     * \param plane the NIC port that can send
     * \return the plane's next EV; none while the plane has only SKIP EVs and another plane
     *         has a GOOD one (SkipAcrossPlanes, SKIPs in time)
     */
    std::optional<uint32_t> NextData(uint32_t plane) override;
    /**
     * Smooth weighted round robin over the planes, each weighted by its GOOD EVs (all its
     * active EVs when no plane has one): as a rotation over the queue pair's whole EV set that
     * passes over SKIP EVs would, a plane gets a share of the packets in proportion to its
     * GOOD EVs when several ports are free.
     * \param[out] order the planes, the most owed first
     */
    void OrderPlanes(std::vector<uint32_t>& order) override;

  private:
    /**
     * Fill m_weight with every plane's weight in the round robin.
     * \return the weights' sum (0: no plane can take a packet)
     */
    int64_t UpdateWeights();

    std::unique_ptr<MrcSprayEvRules> m_rules; //!< rotation and EV state transitions
    std::unique_ptr<MrcQpProber> m_prober;    //!< restoration and liveness probes
    bool m_skipAcrossPlanes{false};           //!< SkipAcrossPlanes in effect
    double m_leadLimit{0};                    //!< PlaneLeadLimit (0: none)
    std::vector<int64_t> m_credit;            //!< per plane: smooth weighted round robin credit
    std::vector<int64_t> m_weight;            //!< per plane: this packet's weights (scratch)
};

} // namespace ns3

#endif /* MRC_SPRAY_PATH_SELECTION_H */
