/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_BGP_PATH_VECTOR_H
#define MRC_BGP_PATH_VECTOR_H

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The routing state of a set of eBGP speakers, one per switch, and the decision process
 * a data-centre fabric runs (RFC 7938): shortest AS path, multipath over every neighbour with
 * an equally short path (as with "multipath relax"), AS-path loop prevention. Pure logic: no
 * time, no simulator; the caller carries UPDATEs between speakers when it chooses.
 *
 * Speakers own an ASN and may originate one prefix (prefixes are numbered 0..n-1). Sessions
 * join two speakers (a parallel link is a separate session). Each end of a session keeps what
 * the other end last advertised (Adj-RIB-In); a speaker's best routes (Loc-RIB) per prefix are
 * the sessions whose path is loop-free (does not contain the speaker's ASN) and shortest. The
 * speaker advertises its own ASN prepended to the path of the first of those sessions (lowest
 * session number: a deterministic tie-break), and re-advertises only when that path changes
 * (a shrinking ECMP group with an unchanged path sends nothing). Paths are interned: a path id
 * names an AS sequence, 0 means no path (a withdrawal).
 */
class MrcBgpPathVector
{
  public:
    /// An UPDATE: (prefix, path id) pairs; path id 0 withdraws the prefix.
    using Update = std::vector<std::pair<uint32_t, uint32_t>>;

    /// What a decision changed at one speaker for one prefix.
    struct Decision
    {
        uint32_t prefix;           //!< the prefix
        bool nextHopsChanged;      //!< its best sessions changed (the FIB must change)
        bool advertisementChanged; //!< its advertised path changed (neighbours must hear)
    };

    /**
     * \param prefixes number of prefixes
     */
    explicit MrcBgpPathVector(uint32_t prefixes);

    /**
     * \param asn the speaker's AS number
     * \param origin the prefix it originates, if any
     * \return the speaker's number (0, 1, ... in call order)
     * \throws std::invalid_argument if origin >= the number of prefixes
     */
    uint32_t AddSpeaker(uint32_t asn, std::optional<uint32_t> origin = std::nullopt);

    /**
     * \param a one speaker (end 0)
     * \param b another speaker (end 1)
     * \return the session's number (0, 1, ... in call order); it starts up, with nothing learnt
     * \throws std::invalid_argument if a or b is unknown or a == b
     */
    uint32_t AddSession(uint32_t a, uint32_t b);

    /**
     * Reach the steady state of the current sessions at once: every speaker sends its whole
     * table (withdrawals included) on every up session and every UPDATE is delivered, first
     * sent first delivered, until nothing changes. Used for the initial state (and by tests).
     */
    void Converge();

    /**
     * Take a session down: both ends forget what they learnt over it and decide again.
     * \param session the session
     * \return the changed decisions at end 0 and at end 1
     */
    std::array<std::vector<Decision>, 2> SessionDown(uint32_t session);

    /**
     * Bring a session up (with nothing learnt yet: the caller delivers each end's
     * GetAllAdvertisements() to the other).
     * \param session the session
     */
    void SessionUp(uint32_t session);

    /**
     * Deliver an UPDATE to one end of a session (ignored if the session is down).
     * \param session the session
     * \param toEnd the receiving end, 0 or 1
     * \param update what the other end advertises
     * \return the changed decisions at the receiver
     * \throws std::out_of_range for an unknown session, end, prefix or path
     */
    std::vector<Decision> Receive(uint32_t session, uint32_t toEnd, const Update& update);

    /**
     * \param speaker a speaker
     * \param prefixes prefixes
     * \return its current advertisement of each (path id 0: withdrawn)
     */
    Update GetAdvertisements(uint32_t speaker, const std::vector<uint32_t>& prefixes) const;

    /**
     * \param speaker a speaker
     * \return its advertisement of every prefix it has a path for (what a new session gets)
     */
    Update GetAllAdvertisements(uint32_t speaker) const;

    /**
     * \param speaker a speaker
     * \param prefix a prefix
     * \return the sessions it uses towards the prefix (empty: none, or it originates it)
     */
    const std::vector<uint32_t>& GetBestSessions(uint32_t speaker, uint32_t prefix) const;

    /**
     * \param speaker a speaker
     * \param prefix a prefix
     * \return the path id it advertises (0: none)
     */
    uint32_t GetAdvertisedPath(uint32_t speaker, uint32_t prefix) const;

    /**
     * \param pathId a path id
     * \return its AS sequence, nearest AS first (empty for 0)
     */
    const std::vector<uint32_t>& GetPath(uint32_t pathId) const;

    /**
     * \param session a session
     * \param end 0 or 1
     * \return the speaker at that end
     */
    uint32_t GetSpeaker(uint32_t session, uint32_t end) const;

    /**
     * \param speaker a speaker
     * \return (session, end of the session that is this speaker) for each of its sessions,
     *         session order
     */
    const std::vector<std::pair<uint32_t, uint32_t>>& GetSessions(uint32_t speaker) const;

    /// \param session a session \return whether it is up
    bool IsSessionUp(uint32_t session) const;

    /// \param speaker a speaker \return its ASN
    uint32_t GetAsn(uint32_t speaker) const;

    /// \return number of prefixes
    uint32_t GetNPrefixes() const;

  private:
    /// One speaker's state.
    struct Speaker
    {
        uint32_t asn;                                        //!< AS number
        std::optional<uint32_t> origin;                      //!< originated prefix
        std::vector<std::pair<uint32_t, uint32_t>> sessions; //!< (session, own end)
        std::vector<std::vector<uint32_t>> best;             //!< per prefix: best sessions
        std::vector<uint32_t> advertised;                    //!< per prefix: advertised path
    };

    /// One session's state.
    struct Session
    {
        std::array<uint32_t, 2> speakers;           //!< speaker at each end
        bool up{true};                              //!< session established
        std::array<std::vector<uint32_t>, 2> ribIn; //!< per end, per prefix: path learnt
    };

    /**
     * Run the decision process of one speaker for one prefix.
     * \param speaker the speaker
     * \param prefix the prefix
     * \return what changed
     */
    Decision Decide(uint32_t speaker, uint32_t prefix);

    /**
     * \param path an AS sequence
     * \return its id (interned)
     */
    uint32_t Intern(const std::vector<uint32_t>& path);

    /**
     * \param asn an AS number
     * \param pathId a path
     * \return the id of asn followed by that path
     */
    uint32_t Prepend(uint32_t asn, uint32_t pathId);

    /**
     * \param session a session number
     * \return it
     * \throws std::out_of_range if unknown
     */
    const Session& CheckedSession(uint32_t session) const;

    /**
     * \param speaker a speaker number
     * \return it
     * \throws std::out_of_range if unknown
     */
    const Speaker& CheckedSpeaker(uint32_t speaker) const;

    uint32_t m_prefixes;                                           //!< number of prefixes
    std::vector<Speaker> m_speakers;                               //!< speakers
    std::vector<Session> m_sessions;                               //!< sessions
    std::vector<std::vector<uint32_t>> m_paths;                    //!< path id -> AS sequence
    std::map<std::vector<uint32_t>, uint32_t> m_ids;               //!< AS sequence -> path id
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_prepended; //!< (asn, path) -> path
};

} // namespace ns3

#endif /* MRC_BGP_PATH_VECTOR_H */
