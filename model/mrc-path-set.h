/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PATH_SET_H
#define MRC_PATH_SET_H

#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * States of an entropy value (EV) in a sender's EV set (MRC brief, "Per-EV state machine").
 */
enum class MrcEvState : uint8_t
{
    GOOD,        //!< in use
    SKIP,        //!< avoided until the next rotation of its plane's active set
    ASSUMED_BAD, //!< out of the active set after a silent loss; probed
    DENIED,      //!< operator denylist: never used
};

/**
 * \param os stream
 * \param s state
 * \return the stream
 */
std::ostream& operator<<(std::ostream& os, MrcEvState s);

/**
 * \ingroup mrc
 * \brief A queue pair's EV set: per plane an active set of EVs sprayed in rotation, a backup
 * pool, and the per-EV state machine.
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
 *   TRIMMED_LASTHOP does not touch the EV.
 * - A silent loss puts an EV in ASSUMED_BAD at once and replaces it with a backup EV of the same
 *   plane, so that every plane keeps the same number of active EVs.
 * - ASSUMED_BAD EVs are probed (GetProbeCandidates); after ProbeSuccesses consecutive successes,
 *   and once the EV's hold-down has passed since it was retired, it is GOOD again and rejoins its
 *   plane's active set if it is short, else the backups. Dampening: an EV retired again within
 *   the flap window of its restoration doubles its hold-down (from the initial hold-down up to
 *   the maximum); every flap window it stays healthy halves it, so a flapping or gray path is
 *   not restored and lost over and over, and a path that healed is soon trusted again.
 * - Control packets (NextControl) rotate over the active EVs with a cursor of their own, so they
 *   do not change which EV the next data packet takes.
 * - Deny() removes an EV for good (DENIED); a plane can be disabled (its NIC port is down).
 * Every state change is reported to the change callback with its cause.
 */
class MrcPathSet
{
  public:
    /// Callback on every state change: EV, old state, new state, cause.
    using ChangeCallback =
        std::function<void(uint32_t, MrcEvState, MrcEvState, const std::string&)>;

    /**
     * \param evsPerPlane candidate EVs of each plane, in the order to use them (the caller
     *        shuffles); the first activePerPlane of each plane are active, the rest backups
     * \param activePerPlane active EVs per plane (>= 1)
     * \param probeSuccesses probe successes that restore an ASSUMED_BAD EV (>= 1)
     * \throws std::invalid_argument if a count is 0 or an EV appears twice
     */
    MrcPathSet(const std::vector<std::vector<uint32_t>>& evsPerPlane,
               uint32_t activePerPlane,
               uint32_t probeSuccesses);

    /// \param cb the state-change callback
    void SetChangeCallback(ChangeCallback cb);

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

    /// \return number of planes
    uint32_t GetPlaneCount() const;

    /**
     * \param plane a plane
     * \return the next EV to use on that plane, nothing if it has none usable
     */
    std::optional<uint32_t> Next(uint32_t plane);

    /**
     * The EV for a control packet (SACK, NACK, probe, probe reply). The brief's receiver
     * "keeps at least one reverse EV per plane for control packets": Next(plane) while the
     * plane has a usable EV, else its ASSUMED_BAD EVs in rotation, so that a QP whose every
     * EV was retired can still acknowledge and answer probes (without it, two such ends
     * deadlock: neither can restore an EV without the other's replies).
     * \param plane a plane
     * \return the EV, nothing if the plane is disabled or all its EVs are DENIED
     */
    std::optional<uint32_t> NextControl(uint32_t plane);

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
    /// \param ev an EV \return its current restoration hold-down
    Time GetHoldDown(uint32_t ev) const;
    /// \param ev an ASSUMED_BAD EV whose probe was lost
    void OnProbeFailure(uint32_t ev);

    /// \param ev an EV to put on the denylist
    void Deny(uint32_t ev);

    /**
     * \param plane a plane
     * \param enabled false when the plane cannot be used (NIC port down, here or at the peer)
     */
    void SetPlaneEnabled(uint32_t plane, bool enabled);
    /// \param plane a plane \return whether it is enabled
    bool IsPlaneEnabled(uint32_t plane) const;

    /// \return the ASSUMED_BAD EVs (to probe)
    std::vector<uint32_t> GetProbeCandidates() const;

    /// \param ev an EV \return its state (throws std::out_of_range for an unknown EV)
    MrcEvState GetState(uint32_t ev) const;
    /// \param ev an EV \return whether it belongs to this set
    bool Contains(uint32_t ev) const;
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
    /// \param ev an EV \return its plane
    uint32_t GetPlane(uint32_t ev) const;
    /// \param plane a plane \return its active EVs in rotation order
    const std::vector<uint32_t>& GetActive(uint32_t plane) const;
    /// \param plane a plane \return its backup EVs
    const std::vector<uint32_t>& GetBackups(uint32_t plane) const;

    /// Per-EV bookkeeping.
    struct Entry
    {
        uint32_t plane{0};                  //!< plane
        MrcEvState state{MrcEvState::GOOD}; //!< state
        uint64_t skipUntil{0};              //!< plane rotation at which SKIP ends (rotations)
        Time skipEnd;                       //!< when SKIP ends (time)
        uint32_t skipLength{0};             //!< the last ECN SKIP, in SKIPs (1, 2, 4, ...)
        uint32_t probeSuccesses{0};         //!< consecutive probe successes
        Time retiredAt;                     //!< last retirement
        Time restoredAt{Time(-1)};          //!< last restoration (negative: never)
        Time holdDown;                      //!< current restoration hold-down
    };

  private:
    /// Per-plane bookkeeping.
    struct Plane
    {
        std::vector<uint32_t> active;  //!< active EVs (rotation order)
        std::vector<uint32_t> backups; //!< backups
        size_t cursor{0};              //!< next rotation position
        size_t controlCursor{0};       //!< next ASSUMED_BAD EV for control packets
        size_t activeControlCursor{0}; //!< next active EV for control packets
        uint64_t rotation{0};          //!< completed rotations
        bool enabled{true};            //!< usable
    };

    /**
     * \param pl a plane (path keys set)
     * \return its active EVs per path key
     */
    std::map<uint64_t, uint32_t> CountActivePerPath(const Plane& pl) const;

    /**
     * The active EV a restored EV replaces when the plane's active set is full: the last active
     * EV of the path with the most active EVs, if that path has at least two more than the
     * restored EV's (none without path keys).
     * \param pl the plane
     * \param ev the restored EV
     * \return the stand-in to demote to the backups, if any
     */
    std::optional<uint32_t> FindStandIn(const Plane& pl, uint32_t ev) const;

    /**
     * \param ev EV
     * \param to new state
     * \param cause why
     */
    void Change(uint32_t ev, MrcEvState to, const std::string& cause);

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
     * \param pl its plane
     * \return its SKIP is over
     */
    bool SkipOver(const Entry& e, const Plane& pl) const;

    /**
     * \param e an EV
     * \param pl its plane
     * \return its SKIP ended recently enough that a new echo doubles the next one
     */
    bool SkipRecent(const Entry& e, const Plane& pl) const;

    /**
     * \param e an EV
     * \param pl its plane
     * \return it is GOOD, or in a SKIP that is over (Next turns it GOOD when it reaches it)
     */
    bool IsGoodNow(const Entry& e, const Plane& pl) const;

    /**
     * \param ev EV to take out of its plane's active set (if there)
     * \return true if it was active
     */
    bool RemoveActive(uint32_t ev);

    std::map<uint32_t, Entry> m_entries;         //!< EV -> entry
    std::vector<Plane> m_planes;                 //!< planes
    uint32_t m_target;                           //!< active EVs per plane
    uint32_t m_probeSuccesses;                   //!< successes to restore an EV
    uint32_t m_skipRotations{1};                 //!< rotations a SKIP lasts
    Time m_skipTime;                             //!< > 0: time a SKIP lasts (else rotations)
    Time m_skipMemory;                           //!< time mode: echo memory after a SKIP
    std::function<Time()> m_clock;               //!< now (time mode)
    uint32_t m_alwaysSkipFactor{32};             //!< ALWAYS_SKIP: SKIP this many times longer
    Time m_holdDownInitial;                      //!< dampening: first hold-down of a flapping EV
    Time m_holdDownMax;                          //!< dampening: largest hold-down
    Time m_flapWindow;                           //!< dampening: flap window
    ChangeCallback m_onChange;                   //!< state-change callback
    std::function<uint64_t(uint32_t)> m_pathKey; //!< EV -> path (none: unknown)
};

} // namespace ns3

#endif /* MRC_PATH_SET_H */
