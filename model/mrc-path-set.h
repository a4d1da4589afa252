/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PATH_SET_H
#define MRC_PATH_SET_H

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
 *   passed over and become GOOD again once their plane's rotation has come round
 *   SkipRotations times (a SKIP EV is used only if no GOOD one is left).
 * - ECN echo (SKIP_ONCE) and NACK TRIMMED put an EV in SKIP; TRIMMED_LASTHOP does not touch it.
 * - A silent loss puts an EV in ASSUMED_BAD at once and replaces it with a backup EV of the same
 *   plane, so that every plane keeps the same number of active EVs.
 * - ASSUMED_BAD EVs are probed (GetProbeCandidates); after ProbeSuccesses consecutive successes
 *   an EV is GOOD again and rejoins its plane's active set if it is short, else the backups.
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

    /// \param ev an EV whose packet was ECN-marked (SACK mark SKIP_ONCE)
    void OnEcn(uint32_t ev);
    /// \param ev an EV whose packet was trimmed in the fabric (NACK TRIMMED)
    void OnTrimmed(uint32_t ev);
    /**
     * \param ev an EV whose packet vanished (loss timer)
     * \return the backup that replaced it in the active set, if any
     */
    std::optional<uint32_t> OnSilentLoss(uint32_t ev);
    /// \param ev an ASSUMED_BAD EV whose probe came back
    void OnProbeSuccess(uint32_t ev);
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
    /// \param ev an EV \return its plane
    uint32_t GetPlane(uint32_t ev) const;
    /// \param plane a plane \return its active EVs in rotation order
    const std::vector<uint32_t>& GetActive(uint32_t plane) const;
    /// \param plane a plane \return its backup EVs
    const std::vector<uint32_t>& GetBackups(uint32_t plane) const;

  private:
    /// Per-EV bookkeeping.
    struct Entry
    {
        uint32_t plane{0};                  //!< plane
        MrcEvState state{MrcEvState::GOOD}; //!< state
        uint64_t skipRotation{0};           //!< plane rotation at which SKIP began
        uint32_t probeSuccesses{0};         //!< consecutive probe successes
    };

    /// Per-plane bookkeeping.
    struct Plane
    {
        std::vector<uint32_t> active;  //!< active EVs (rotation order)
        std::vector<uint32_t> backups; //!< backups
        size_t cursor{0};              //!< next rotation position
        size_t controlCursor{0};       //!< next ASSUMED_BAD EV for control packets
        uint64_t rotation{0};          //!< completed rotations
        bool enabled{true};            //!< usable
    };

    /**
     * \param ev EV
     * \param to new state
     * \param cause why
     */
    void Change(uint32_t ev, MrcEvState to, const std::string& cause);

    /**
     * \param ev EV to take out of its plane's active set (if there)
     * \return true if it was active
     */
    bool RemoveActive(uint32_t ev);

    std::map<uint32_t, Entry> m_entries; //!< EV -> entry
    std::vector<Plane> m_planes;         //!< planes
    uint32_t m_target;                   //!< active EVs per plane
    uint32_t m_probeSuccesses;           //!< successes to restore an EV
    uint32_t m_skipRotations{1};         //!< rotations a SKIP lasts
    ChangeCallback m_onChange;           //!< state-change callback
};

} // namespace ns3

#endif /* MRC_PATH_SET_H */
