/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PATH_SELECTION_H
#define MRC_PATH_SELECTION_H

#include "mrc-path-set.h"
#include "mrc-qp-prober.h"
#include "mrc-qp-stats.h"
#include "mrc-wire-path.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class MrcProbeHeader;

/**
 * \ingroup mrc
 * \brief How a queue pair chooses the entropy value (EV, hence the path) of each packet, and
 * what it learns about paths from feedback. Chosen per queue pair by TypeId (MrcQueuePair's
 * PathSelection attribute), like MrcCongestionOps.
 *
 * Every policy keeps its EVs in an MrcPathSet (GetPathSet(): states, active and backup EVs per
 * plane); a plane whose active set is empty is not used by the queue pair. The policy owns the
 * rules: which EV each data packet takes (NextData, OrderPlanes) and every state transition in
 * answer to feedback (ECN echo, trim, silent loss, probes). The defaults: data packets take the
 * plane's active EVs in turn (GOOD first, a SKIP one when no GOOD one is left), control packets
 * MrcPathSet::NextControl, and feedback changes nothing. "Writing your own policy" in doc/mrc.rst
 * shows a complete one (examples/mrc-custom-policy.cc).
 *  - MrcSprayPathSelection (default): MRC's per-packet spraying over an EV set with EV states and
 *    probes.
 *  - MrcSinglePathSelection: RoCEv2's one EV (one UDP source port) for the queue pair's life.
 */
class MrcPathSelection : public Object
{
  public:
    /// What a policy starts from (MrcQueuePair::Connect fills it from its attributes).
    struct Config
    {
        std::vector<std::vector<uint32_t>> evsPerPlane; //!< candidate EVs per plane, shuffled
        MrcPathResolver resolver;                       //!< EV -> wire path towards the peer
        uint32_t qpn{0};                                //!< the queue pair's number
        uint32_t evSetSize{128};                        //!< EvSetSize: active EVs, all planes
        uint32_t probeSuccesses{3};                     //!< ProbeSuccesses
        uint32_t skipRotations{0};                      //!< SkipRotations (0: SKIPs in time)
        Time skipTime;                                  //!< SkipTime (0: one base RTT)
        Time skipMemory;                                //!< SkipMemory (0: 8 base RTTs)
        bool skipAcrossPlanes{true};                    //!< SkipAcrossPlanes
        double planeLeadLimit{0};                       //!< PlaneLeadLimit (0: none)
        uint32_t mss{4096};                             //!< payload bytes per packet
        DataRate portRate;                              //!< one NIC port's line rate
        Time baseRtt;                                   //!< unloaded round-trip time
        Time probeInterval;                             //!< restoration probe period
        Time lossTimeout;                               //!< per-packet loss timer
        uint32_t alwaysSkipFactor{32}; //!< AlwaysSkipFactor: ALWAYS_SKIP lasts this many SKIPs
        double escalationRatio{4};     //!< SkipEscalationRatio (0: escalate on every path)
        double markRateGain{0.125};    //!< MarkRateGain: weight of one feedback in an EV's rate
        double skipReleaseRatio{2};    //!< SkipReleaseRatio (0: escalated SKIPs run their course)
        Time holdDown;                 //!< RestoreHoldDown (dampening's first hold-down)
        Time holdDownMax;              //!< RestoreHoldDownMax
        Time flapWindow;               //!< FlapWindow
        uint32_t probeBytes{0};        //!< restoration probe padding, bytes (FullSizeProbes)
        uint32_t probesPerRound{0};    //!< RestoreProbesPerRound (0: every path of retired EVs)
        uint32_t probeBackoffMax{8};   //!< RestoreProbeBackoffMax (power of two, 1..1024)
    };

    /// What a policy needs from its queue pair.
    struct Hooks
    {
        /// An EV changed state: EV, old state, new state, cause.
        std::function<void(uint32_t, MrcEvState, MrcEvState, const std::string&)> stateChange;
        /// Probe transmission, "only receiving" test and "an EV came back" (MrcQpProber).
        MrcQpProber::Hooks prober;
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcPathSelection();
    ~MrcPathSelection() override;

    /**
     * Build the EV set (called once, by MrcQueuePair::Connect).
     * \param config candidates and parameters
     * \param hooks callbacks into the queue pair
     * \param stats the queue pair's counters
     * \param rng random stream of the queue pair (probe choices)
     * \throws std::invalid_argument if the candidates are unusable
     */
    virtual void Start(const Config& config,
                       const Hooks& hooks,
                       MrcQpStats& stats,
                       Ptr<UniformRandomVariable> rng) = 0;

    /**
     * Default: the plane's active EVs in turn, GOOD first, a SKIP one if no GOOD one is left.
     * \param plane the NIC port that can send
     * \return the EV of the next data packet on that plane, if any
     */
    virtual std::optional<uint32_t> NextData(uint32_t plane);
    /**
     * The order in which the queue pair offers its next data packet to the NIC ports (the
     * first port free to send takes it, so this decides the plane whenever several are free).
     * Default: round robin, from the plane after the last data packet's.
     * \param[out] order the planes, every one once
     */
    virtual void OrderPlanes(std::vector<uint32_t>& order);
    /**
     * \param plane a plane
     * \return the EV for a control packet (SACK, NACK, CNP, probe response) on that plane, if any
     */
    virtual std::optional<uint32_t> NextControl(uint32_t plane);

    /**
     * Every SACK's feedback on the EV it reflects. The default passes a marked one on to
     * OnEcnEcho; a policy that weighs marks against the unmarked feedback overrides this.
     * \param ev the EV the SACK reflects
     * \param ecn the packet came back ECN-marked (an echo, SKIP_ONCE or ALWAYS_SKIP)
     * \param persistent the echo was ALWAYS_SKIP (persistent marking on the EV)
     */
    virtual void OnAckFeedback(uint32_t ev, bool ecn, bool persistent);
    /**
     * \param ev an EV whose packet came back ECN-marked (SACK echo)
     * \param persistent the echo was ALWAYS_SKIP (persistent marking on the EV)
     */
    virtual void OnEcnEcho(uint32_t ev, bool persistent);
    /// \param ev an EV whose packet was trimmed in the fabric (NACK TRIMMED)
    virtual void OnTrimmed(uint32_t ev);
    /// \param ev an EV whose packet vanished (loss timer)
    virtual void OnSilentLoss(uint32_t ev);
    /**
     * Silent losses on several EVs of one path (MrcSelectiveRecovery::RetirePathEvs): the path
     * failed, retire the EVs that name it.
     * \param ev an EV of the path
     */
    virtual void OnPathLoss(uint32_t ev);
    /**
     * \param lost an EV retired by a silent loss
     * \param other an EV
     * \return true if other is lost's EV, or retired and naming the same source-routed path:
     *         its packets in flight are as likely lost
     */
    virtual bool IsRetiredWith(uint32_t lost, uint32_t other) const;
    /**
     * \param ev an EV
     * \return the path it takes as far as the sender knows: equal for EVs naming one
     *         source-routed path (SRv6), the EV itself where switches choose (ECMP)
     */
    virtual uint64_t GetPathId(uint32_t ev) const;
    /// A data packet arrived from the peer.
    virtual void OnDataArrival();
    /// \param response a probe response from the peer
    virtual void OnProbeResponse(const MrcProbeHeader& response);
    /// Cancel every timer (the queue pair failed or is disposed).
    virtual void Stop();

    /**
     * \param plane a plane
     * \param enabled false while the local or the peer's NIC port of that plane is down
     */
    virtual void SetPlaneEnabled(uint32_t plane, bool enabled);
    /// \param ev put on the operator denylist (default: MrcPathSet::Deny)
    virtual void Deny(uint32_t ev);
    /// \return the EV set (Start must have been called)
    const MrcPathSet& GetPathSet() const;
    /// \param plane a plane \return true if the queue pair sends on it (it has EVs there)
    bool UsesPlane(uint32_t plane) const;
    /**
     * \param ev an EV
     * \return its wire path (resolved once, then cached)
     */
    const MrcWirePath& GetWirePath(uint32_t ev);
    /**
     * \param ev an EV
     * \return the route its wire path names, worked out when the path is resolved: equal for
     *         EVs whose carriers are equal (source-routed, MrcWirePath::sourceRouted); where
     *         switches choose, every EV its own (top bit set, the EV below)
     */
    uint64_t GetRouteKey(uint32_t ev);

  protected:
    void DoDispose() override;

    /**
     * Create the EV set and connect its state-change callback.
     * \param evsPerPlane EVs per plane, active ones first
     * \param activePerPlane active EVs per plane
     * \param stateChange the state-change hook
     */
    void MakePathSet(const std::vector<std::vector<uint32_t>>& evsPerPlane,
                     uint32_t activePerPlane,
                     MrcPathSet::ChangeCallback stateChange);
    /// \param resolver EV -> wire path (every Start sets it)
    void SetResolver(MrcPathResolver resolver);

    std::unique_ptr<MrcPathSet> m_pathSet; //!< the EVs
    uint32_t m_lastDataPlane{0};           //!< plane of the last data packet

  private:
    /// A resolved EV: its wire path and the route key worked out from it once.
    struct Resolved
    {
        MrcWirePath wire; //!< the wire path
        uint64_t route;   //!< GetRouteKey
    };

    /// \param ev an EV \return its entry, resolving it on first use
    const Resolved& Resolve(uint32_t ev);

    std::vector<size_t> m_dataCursor;                  //!< per plane: the default NextData's turn
    MrcPathResolver m_resolver;                        //!< EV -> wire path
    std::unordered_map<uint32_t, Resolved> m_resolved; //!< resolved EVs (stable refs)
};

} // namespace ns3

#endif /* MRC_PATH_SELECTION_H */
