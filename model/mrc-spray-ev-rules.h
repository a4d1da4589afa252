/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SPRAY_EV_RULES_H
#define MRC_SPRAY_EV_RULES_H

#include "mrc-path-set.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief MRC's spraying rules over a queue pair's EV set: the rotation, and every EV state
 * transition of MrcSprayPathSelection (the policy owns one; a policy of another kind writes
 * its own rules, or reuses these).
 *
 * - Next(plane) returns the next GOOD EV of the plane's active set in rotation; SKIP EVs are
 *   passed over (a SKIP EV is used only if no GOOD one is left) and become GOOD again when
 *   their SKIP ends: after a time (SetSkipTime, the QP's default: one base RTT) or after their
 *   plane's rotation has come round SkipRotations times (SetSkipRotations). A rotation is as
 *   short as the GOOD EVs left in it: with one GOOD EV besides a SKIP one, it is one packet.
 * - ECN echo (SKIP_ONCE) and NACK TRIMMED put an EV in SKIP for one SKIP; an echo while the EV
 *   is in SKIP or soon after its return (within the skip memory; rotations: two SKIPs plus the
 *   last one's length) doubles its next SKIP, up to AlwaysSkipFactor SKIPs (a path that stays
 *   congested stays avoided, one whose marks stop is soon used again); an ALWAYS_SKIP echo
 *   (the receiver saw persistent marking on the EV) gives the longest SKIP at once.
 *   Escalation needs the path to be more loaded than the others (the brief: an ECN mark
 *   means "this path is more loaded than others"): the EV's recent marking rate (a moving
 *   average over its feedback, OnFeedback) must be at least SetEscalation's ratio times the
 *   mean rate of the queue pair's other active EVs. When every path is marked alike (the
 *   flows share one bottleneck set, an oversubscribed first hop), SKIPs stay one SKIP long:
 *   longer ones would only pile the load onto the few EVs left, which then overflow in turn.
 *   TRIMMED_LASTHOP does not touch the EV.
 * - A silent loss puts an EV in ASSUMED_BAD at once and replaces it with a backup EV of the same
 *   plane, so that every plane keeps the same number of active EVs.
 * - ASSUMED_BAD EVs are probed (MrcQpProber); after ProbeSuccesses consecutive successes,
 *   and once the EV's hold-down has passed since it was retired, it is GOOD again and rejoins its
 *   plane's active set if it is short, else the backups. Dampening: an EV retired again within
 *   the flap window of its restoration doubles its hold-down (from the initial hold-down up to
 *   the maximum); every flap window it stays healthy halves it, so a flapping or gray path is
 *   not restored and lost over and over, and a path that healed is soon trusted again.
 * - Deny() puts an EV on the denylist through the set, keeping the rotation in place.
 */
class MrcSprayEvRules
{
  public:
    /**
     * \param set the EV set the rules act on (outlives the rules)
     * \param probeSuccesses probe successes that restore an ASSUMED_BAD EV (>= 1)
     * \throws std::invalid_argument if probeSuccesses is 0
     */
    MrcSprayEvRules(MrcPathSet& set, uint32_t probeSuccesses);

    MrcSprayEvRules(const MrcSprayEvRules&) = delete;
    MrcSprayEvRules& operator=(const MrcSprayEvRules&) = delete;

    /// \return the EV set
    MrcPathSet& GetPathSet();
    /// \return the EV set
    const MrcPathSet& GetPathSet() const;

    /**
     * \param rotations rotations of its plane's active set that a SKIP lasts (>= 1; default 1)
     */
    void SetSkipRotations(uint32_t rotations);

    /**
     * Measure SKIPs in time instead of rotations.
     * \param one length of one SKIP (positive; zero: back to rotations)
     * \param memory an echo this soon after an EV's SKIP ended doubles its next SKIP (the
     *        time a returning flow takes to rebuild the queue that marked it, and the echo's RTT)
     */
    void SetSkipTime(Time one, Time memory);

    /// \param clock what "now" is for time-based SKIPs (default: Simulator::Now)
    void SetClock(std::function<Time()> clock);

    /**
     * \param factor an ALWAYS_SKIP echo makes the SKIP last this many times longer (>= 1)
     */
    void SetAlwaysSkipFactor(uint32_t factor);
    /**
     * \param ratio an echo escalates an EV's SKIP only if the EV's marking rate is at least
     *        this many times the mean of the queue pair's other active EVs (0: always)
     * \param gain weight of one feedback in an EV's marking rate, (0, 1]
     */
    void SetEscalation(double ratio, double gain);
    /**
     * \param ratio time-based SKIPs only: an escalated SKIP (longer than one SKIP) ends as
     *        soon as the EV's marking rate is no longer this many times the mean of the other
     *        active EVs of its plane (their marks caught up: the load it shed went onto them);
     *        0: escalated SKIPs run their course (>= 0)
     */
    void SetSkipRelease(double ratio);
    /**
     * Feedback on a packet of an EV (every SACK reflecting it; a fabric trim counts as marked).
     * \param ev the EV
     * \param marked the packet was ECN-marked
     */
    void OnFeedback(uint32_t ev, bool marked);
    /// \param ev an EV \return its marking rate (moving average of its feedback, 0..1)
    double GetMarkRate(uint32_t ev) const;

    /**
     * Restoration dampening (all zero: none, an EV comes back after its probe successes).
     * \param initial hold-down of an EV retired again soon after its restoration
     * \param maximum largest hold-down
     * \param flapWindow a retirement this soon after a restoration is a flap; each such span
     *        healthy halves the hold-down
     */
    void SetDampening(Time initial, Time maximum, Time flapWindow);

    /**
     * \param key names the path an EV takes (EVs with the same key share a path); a silent loss
     *        then replaces its EV with a backup on another path when the plane has one
     */
    void SetPathKey(std::function<uint64_t(uint32_t)> key);
    /**
     * Retire the active EVs whose path key is ev's (the module's several EVs on one
     * source-routed path fail together), each replaced by a backup on another path, while the
     * plane has one.
     * \param ev an EV of the path \param now the current time (dampening)
     */
    void RetirePath(uint32_t ev, Time now = Time(0));
    /**
     * \param a an EV \param b another
     * \return true when both name the same path (by the path key)
     */
    bool IsSamePath(uint32_t a, uint32_t b) const;
    /// \param ev an EV \return its path key (the EV itself without a key function)
    uint64_t GetPathKey(uint32_t ev) const;

    /**
     * \param plane a plane
     * \return the next EV to use on that plane, nothing if it has none usable
     */
    std::optional<uint32_t> Next(uint32_t plane);

    /**
     * \param ev an EV whose packet was ECN-marked
     * \param persistent the receiver echoed ALWAYS_SKIP (not SKIP_ONCE)
     */
    void OnEcn(uint32_t ev, bool persistent = false);
    /// \param ev an EV whose packet was trimmed in the fabric (NACK TRIMMED)
    void OnTrimmed(uint32_t ev);
    /**
     * \param ev an EV whose packet vanished (SACK rule, tail-loss probe, loss timer)
     * \param now the current time (dampening)
     * \return the backup that replaced it in the active set, if any
     */
    std::optional<uint32_t> OnSilentLoss(uint32_t ev, Time now = Time(0));
    /**
     * \param ev an ASSUMED_BAD EV whose probe came back
     * \param now the current time (dampening)
     * \return true if the EV is GOOD again
     */
    bool OnProbeSuccess(uint32_t ev, Time now = Time(0));
    /// \param ev an ASSUMED_BAD EV whose probe was lost
    void OnProbeFailure(uint32_t ev);
    /// \param ev an EV \return its current restoration hold-down
    Time GetHoldDown(uint32_t ev) const;
    /// \param ev an EV to put on the denylist
    void Deny(uint32_t ev);

    /**
     * \param plane a plane
     * \return true if the plane is enabled and one of its active EVs is GOOD, or in a SKIP
     *         that is over (the next data packet of the plane would not need a SKIP EV)
     */
    bool HasGood(uint32_t plane) const;
    /**
     * \param plane a plane
     * \return its active EVs that are GOOD or in a SKIP that is over (0 if it is disabled)
     */
    uint32_t GetGoodCount(uint32_t plane) const;

  private:
    /**
     * Retire one EV: ASSUMED_BAD, dampening, a backup of its plane in its place.
     * \param ev the EV \param now the current time \param cause the state change's cause
     * \return the backup that replaced it in the active set, if any
     */
    std::optional<uint32_t> Retire(uint32_t ev, Time now, const std::string& cause);

    /// What the rules remember of an EV.
    struct Entry
    {
        uint64_t skipUntil{0};      //!< plane rotation at which SKIP ends (rotations)
        Time skipEnd;               //!< when SKIP ends (time)
        uint32_t skipLength{0};     //!< the last ECN SKIP, in SKIPs (1, 2, 4, ...)
        uint32_t probeSuccesses{0}; //!< consecutive probe successes
        Time retiredAt;             //!< last retirement
        Time restoredAt{Time(-1)};  //!< last restoration (negative: never)
        Time holdDown;              //!< current restoration hold-down
        double markRate{0};         //!< moving average of its feedback's marks (0..1)
    };

    /// A plane's data rotation.
    struct Rotation
    {
        size_t cursor{0};     //!< next position in the active set
        uint64_t rotation{0}; //!< completed rotations
    };

    /**
     * \param ev an EV of the set
     * \return its entry (created on first use)
     */
    Entry& Get(uint32_t ev);
    /**
     * \param ev an EV of the set
     * \return its entry, or a fresh one if the rules have not seen it
     */
    const Entry& Peek(uint32_t ev) const;

    /**
     * \param ev EV to take out of its plane's active set (if there), keeping the rotation
     * \return true if it was active
     */
    bool RemoveActive(uint32_t ev);
    /**
     * \param plane a plane
     * \param index position an EV had in its active set before it was removed
     */
    void OnRemoved(uint32_t plane, std::optional<size_t> index);

    /**
     * \param plane a plane (path keys set)
     * \return its active EVs per path key
     */
    std::map<uint64_t, uint32_t> CountActivePerPath(uint32_t plane) const;

    /**
     * The active EV a restored EV replaces when the plane's active set is full: the last active
     * EV of the path with the most active EVs, if that path has at least two more than the
     * restored EV's (none without path keys).
     * \param plane the plane
     * \param ev the restored EV
     * \return the stand-in to demote to the backups, if any
     */
    std::optional<uint32_t> FindStandIn(uint32_t plane, uint32_t ev) const;

    /**
     * Put a GOOD or SKIP EV in SKIP.
     * \param ev EV
     * \param skips how long, in SKIPs (rotations or time)
     * \param cause why
     */
    void Skip(uint32_t ev, uint32_t skips, const std::string& cause);

    /// \return now, by the clock (SetClock; default Simulator::Now)
    Time Now() const;

    /**
     * \param e an EV in SKIP
     * \param plane its plane
     * \return its SKIP is over
     */
    bool SkipOver(const Entry& e, uint32_t plane) const;

    /**
     * \param ev an EV
     * \param e its entry
     * \return its SKIP ended recently enough that a new echo doubles the next one
     */
    bool SkipRecent(uint32_t ev, const Entry& e) const;

    /**
     * \param ev an EV
     * \return it is GOOD, or in a SKIP that is over (Next turns it GOOD when it reaches it)
     */
    bool IsGoodNow(uint32_t ev) const;
    /**
     * \param ev an EV of the set
     * \param e its entry
     * \return its marking rate is at least the escalation ratio times the mean of the other
     *         active EVs of the enabled planes (true without a ratio or without other EVs)
     */
    bool MoreMarkedThanOthers(uint32_t ev, const Entry& e) const;
    /**
     * Add the marking rates of a plane's active EVs to a running sum, in the set's order.
     * \param plane a plane \param except an EV left out (none: every one)
     * \param sum the sum \param count the number of rates summed
     */
    void AddMarkRates(uint32_t plane,
                      std::optional<uint32_t> except,
                      double& sum,
                      size_t& count) const;
    /**
     * \param e the entry of an active EV in an escalated SKIP
     * \param plane its plane
     * \return its marking rate is still at least the release ratio times the mean of the
     *         other active EVs of its plane (their sum is taken again at most once per SKIP time)
     */
    bool StillMoreMarked(const Entry& e, uint32_t plane) const;

    /// Per plane: what GetGoodCount and HasGood take from the set, kept until the set changes
    /// (they are asked for every plane on every data packet).
    struct PlaneStates
    {
        uint64_t version{std::numeric_limits<uint64_t>::max()}; //!< the set's version of it
        uint32_t good{0};                                       //!< active EVs in GOOD
        std::vector<uint32_t> skipping; //!< active EVs in SKIP (whether over: asked each time)
    };

    /**
     * \param plane a plane
     * \return its active EVs' states, as of the set's current version
     */
    const PlaneStates& StatesOf(uint32_t plane) const;

    MrcPathSet& m_set;                              //!< the EV set
    std::unordered_map<uint32_t, Entry> m_entries;  //!< EV -> what the rules remember (stable refs)
    const Entry m_fresh{};                          //!< what the rules know of an unseen EV
    std::vector<Rotation> m_rotations;              //!< per plane: data rotation
    uint32_t m_probeSuccesses;                      //!< successes to restore an EV
    uint32_t m_skipRotations{1};                    //!< rotations a SKIP lasts
    Time m_skipTime;                                //!< > 0: time a SKIP lasts (else rotations)
    Time m_skipMemory;                              //!< time mode: echo memory after a SKIP
    std::function<Time()> m_clock;                  //!< now (time mode)
    uint32_t m_alwaysSkipFactor{32};                //!< ALWAYS_SKIP: SKIP this many times longer
    double m_escalationRatio{4};                    //!< escalation: marking rate over the mean
    double m_markRateGain{0.125};                   //!< weight of one feedback in a marking rate
    double m_releaseRatio{2};                       //!< escalated SKIP ends below this x others
    mutable Time m_marksAt{Time(-1)};               //!< when m_markSum was last taken
    mutable std::vector<double> m_markSum;          //!< per plane: its active EVs' marking rates
    mutable std::vector<size_t> m_markCount;        //!< per plane: active EVs in m_markSum
    Time m_holdDownInitial;                         //!< dampening: first hold-down of a flapping EV
    Time m_holdDownMax;                             //!< dampening: largest hold-down
    Time m_flapWindow;                              //!< dampening: flap window
    std::function<uint64_t(uint32_t)> m_pathKey;    //!< EV -> path (none: unknown)
    mutable std::vector<PlaneStates> m_planeStates; //!< per plane (sized once): see StatesOf()
};

} // namespace ns3

#endif /* MRC_SPRAY_EV_RULES_H */
