/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PATH_SET_H
#define MRC_PATH_SET_H

#include <boost/container/flat_map.hpp>
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
 * \brief A queue pair's EV set: per plane an active set of EVs (the ones data is sprayed
 * over), a backup pool and whether the plane can be used; per EV its state. It holds what the
 * path-selection policy decided and reports every state change, but decides nothing itself:
 * which EV the next packet takes, when an EV is skipped, retired, replaced or restored is the
 * policy's (MrcPathSelection and its subclasses; MRC's spraying rules are MrcSprayEvRules).
 *
 * Two mechanisms every policy shares live here:
 * - NextControl(plane): the EV of a control packet (the default of
 *   MrcPathSelection::NextControl), with cursors of its own so that control packets do not
 *   move a policy's data rotation;
 * - Deny(ev): the operator denylist (DENIED for good; the plane's first backup takes its place).
 */
class MrcPathSet
{
  public:
    /// Callback on every state change: EV, old state, new state, cause.
    using ChangeCallback =
        std::function<void(uint32_t, MrcEvState, MrcEvState, const std::string&)>;

    /**
     * \param evsPerPlane candidate EVs of each plane, in the order to use them (the caller
     *        shuffles); the first activePerPlane of each plane are active, the rest backups,
     *        all GOOD
     * \param activePerPlane active EVs per plane (>= 1)
     * \throws std::invalid_argument if activePerPlane is 0 or an EV appears twice
     */
    MrcPathSet(const std::vector<std::vector<uint32_t>>& evsPerPlane, uint32_t activePerPlane);

    /// \param cb the state-change callback
    void SetChangeCallback(ChangeCallback cb);

    /// \return number of planes
    uint32_t GetPlaneCount() const;
    /// \return the active EVs per plane the set was built with
    uint32_t GetActiveTarget() const;

    /**
     * Change an EV's state (no-op if it is already in it); the change callback hears of it.
     * \param ev an EV of the set
     * \param to new state
     * \param cause why (reported to the callback)
     */
    void SetState(uint32_t ev, MrcEvState to, const std::string& cause);

    /**
     * \param ev an EV
     * \return the position it had in its plane's active set, nothing if it was not active
     */
    std::optional<size_t> RemoveActive(uint32_t ev);
    /// \param ev an EV of the set, in neither list: append it to its plane's active set
    void AddActive(uint32_t ev);
    /**
     * \param ev an EV of the set, in neither list
     * \param front put it first (the next backup taken) instead of last
     */
    void AddBackup(uint32_t ev, bool front = false);
    /**
     * Take a backup out of the pool (the caller makes it active or drops it).
     * \param plane a plane
     * \param index its position among the plane's backups (< GetBackups(plane).size())
     * \return the EV
     */
    uint32_t TakeBackup(uint32_t plane, size_t index);

    /**
     * The plane's active EVs in turn: GOOD first, a SKIP one if no GOOD one is left (the
     * default data rotation of MrcPathSelection::NextData, and NextControl's first choice).
     * \param plane a plane
     * \param[in,out] cursor where the turn stands; moved past every EV looked at
     * \return the EV, nothing if the plane is disabled or has no GOOD or SKIP active EV
     */
    std::optional<uint32_t> NextInTurn(uint32_t plane, size_t& cursor) const;

    /**
     * The EV for a control packet (SACK, NACK, probe, probe reply). The brief's receiver
     * "keeps at least one reverse EV per plane for control packets": the plane's active EVs
     * in turn (GOOD first, a SKIP one if no GOOD one is left), else its ASSUMED_BAD EVs in
     * turn, so that a QP whose every EV was retired can still acknowledge and answer probes
     * (without it, two such ends deadlock: neither can restore an EV without the other's
     * replies).
     * \param plane a plane
     * \return the EV, nothing if the plane is disabled or all its EVs are DENIED
     */
    std::optional<uint32_t> NextControl(uint32_t plane);

    /**
     * Put an EV on the operator denylist: DENIED for good, out of the active set and the
     * backups; if it was active, the plane's first backup takes its place.
     * \param ev an EV (unknown or already DENIED: nothing happens)
     * \return the position it had in the active set, nothing if it was not active
     */
    std::optional<size_t> Deny(uint32_t ev);

    /**
     * \param plane a plane
     * \param enabled false when the plane cannot be used (NIC port down, here or at the peer)
     */
    void SetPlaneEnabled(uint32_t plane, bool enabled);
    /// \param plane a plane \return whether it is enabled
    bool IsPlaneEnabled(uint32_t plane) const;

    /// \return the ASSUMED_BAD EVs of enabled planes (to probe), in EV order
    std::vector<uint32_t> GetProbeCandidates() const;
    /**
     * \param plane a plane
     * \param state a state
     * \return the plane's EVs in that state, in EV order
     */
    std::vector<uint32_t> GetEvsInState(uint32_t plane, MrcEvState state) const;

    /// \param ev an EV \return its state (throws std::out_of_range for an unknown EV)
    MrcEvState GetState(uint32_t ev) const;
    /// \param ev an EV \return whether it belongs to this set
    bool Contains(uint32_t ev) const;
    /// \param ev an EV \return its plane
    uint32_t GetPlane(uint32_t ev) const;
    /// \param plane a plane \return its active EVs in rotation order
    const std::vector<uint32_t>& GetActive(uint32_t plane) const;
    /**
     * \return a number that changes whenever an EV's state, a plane's active EVs or whether a
     *         plane is enabled changes (for callers that cache what they derive from these)
     */
    uint64_t GetVersion() const;
    /// \param plane a plane \return its backup EVs
    const std::vector<uint32_t>& GetBackups(uint32_t plane) const;

  private:
    /// Per-EV bookkeeping.
    struct Entry
    {
        uint32_t plane{0};                  //!< plane
        MrcEvState state{MrcEvState::GOOD}; //!< state
    };

    /// Per-plane bookkeeping.
    struct Plane
    {
        std::vector<uint32_t> active;  //!< active EVs (rotation order)
        std::vector<uint32_t> backups; //!< backups
        size_t controlCursor{0};       //!< next ASSUMED_BAD EV for control packets
        size_t activeControlCursor{0}; //!< next active EV for control packets
        bool enabled{true};            //!< usable
    };

    /// EV -> entry: a sorted vector (lookups on every packet, in EV order when listed; entries
    /// are only added when the set is built).
    boost::container::flat_map<uint32_t, Entry> m_entries;
    std::vector<Plane> m_planes; //!< planes
    uint32_t m_target;           //!< active EVs per plane
    ChangeCallback m_onChange;   //!< state-change callback
    uint64_t m_version{0};       //!< see GetVersion()
};

} // namespace ns3

#endif /* MRC_PATH_SET_H */
