/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_QP_PROBER_H
#define MRC_QP_PROBER_H

#include "mrc-qp-stats.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"

#include <functional>
#include <map>

namespace ns3
{

class MrcPathSet;
class MrcSprayEvRules;
class MrcProbeHeader;

/**
 * \ingroup mrc
 * \brief The probes of a queue pair's EV set: restoring retired EVs, and checking the reverse
 * EVs of a queue pair that only receives.
 *
 * - Restoration: while any EV is ASSUMED_BAD, every RestoreInterval each path of such EVs is
 *   probed once (on one of its retired EVs; MrcSprayEvRules::GetPathKey: under SRv6
 *   several EVs may name one path, and their probes would only repeat each other) with a probe
 *   padded to restoreProbeBytes (full-size by default, so that a path that loses or trims large
 *   packets fails its probes as it fails data), at most restoreProbesPerRound a round. An EV whose
 * probes keep failing is probed only every 2, 4, ... restoreBackoffMax rounds (default 8; a dead
 * path would otherwise fill the NIC with full-size probes), while the other retired EVs of its path
 * stand in for it in the rounds between, so a repaired path is found within a few rounds. An
 * answered probe counts a success for every retired EV of its path
 * (MrcSprayEvRules::OnProbeSuccess, which brings each back after enough of them and its hold-down);
 * a probe unanswered by the next round counts a failure for the EV probed.
 * - Reverse-path liveness: a queue pair that sends no data learns nothing about its EVs from
 *   SACKs, yet its own SACKs and NACKs travel on them. While it only receives, it probes one
 *   random active EV every LivenessInterval (one base RTT); a probe unanswered after
 *   LivenessTimeout retires its EV as a silent loss (ASSUMED_BAD, replaced from the same plane's
 *   backups), so control packets stop using a dead reverse path.
 */
class MrcQpProber
{
  public:
    /// Timing (from the queue pair's attributes and base RTT).
    struct Config
    {
        Time restoreInterval;              //!< period of the restoration probes
        Time livenessInterval;             //!< period of the reverse-path liveness probes
        Time livenessTimeout;              //!< a liveness probe unanswered this long fails its EV
        uint32_t restoreProbeBytes{0};     //!< padding of a restoration probe (full-size: the MSS)
        uint32_t restoreProbesPerRound{0}; //!< restoration probes per round at most (0: all)
        uint32_t restoreBackoffMax{8};     //!< most rounds between probes of a failing path
    };

    /// What the prober needs from its queue pair.
    struct Hooks
    {
        /// Send a probe (the part after the BTH) on an EV.
        std::function<void(uint32_t ev, Ptr<Packet> body)> sendProbe;
        /// True while the queue pair receives data but has none of its own in flight.
        std::function<bool()> onlyReceiving;
        /// An EV came back: let the queue pair send again.
        std::function<void()> restored;
    };

    /**
     * \param rules the rules of the EV set probed (outlive the prober)
     * \param config timing
     * \param hooks callbacks into the queue pair
     * \param stats the queue pair's counters (probesSent)
     * \param rng picks the liveness probe's EV
     */
    MrcQpProber(MrcSprayEvRules& rules,
                const Config& config,
                Hooks hooks,
                MrcQpStats& stats,
                Ptr<UniformRandomVariable> rng);
    ~MrcQpProber();

    MrcQpProber(const MrcQpProber&) = delete;
    MrcQpProber& operator=(const MrcQpProber&) = delete;

    /// An EV was retired: start the restoration rounds if they are not running.
    void OnEvRetired();
    /// A data packet arrived: start the liveness rounds if they are not running.
    void OnDataArrival();
    /// \param response a probe response from the peer
    void OnResponse(const MrcProbeHeader& response);
    /// Cancel every timer (the queue pair failed or is disposed).
    void Stop();

  private:
    /// A probe waiting for its response.
    struct Outstanding
    {
        uint32_t ev{0};       //!< EV probed
        bool liveness{false}; //!< liveness (true) or restoration (false)
        Time sentAt;          //!< when
    };

    /// Restoration round.
    void OnRestoreTimer();
    /// Liveness round.
    void OnLivenessTimer();
    /**
     * \param ev EV to probe
     * \param liveness probe kind
     */
    void Send(uint32_t ev, bool liveness);

    MrcSprayEvRules& m_rules;                 //!< the EV set's rules
    const MrcPathSet& m_paths;                //!< the EV set
    Config m_config;                          //!< timing
    Hooks m_hooks;                            //!< queue pair hooks
    MrcQpStats& m_stats;                      //!< counters
    Ptr<UniformRandomVariable> m_rng;         //!< EV choice
    std::map<uint32_t, Outstanding> m_probes; //!< sequence -> probe
    uint32_t m_nextSeq{0};                    //!< next probe sequence number
    EventId m_restoreEvent;                   //!< restoration timer
    EventId m_livenessEvent;                  //!< liveness timer
    size_t m_restoreCursor{0};                //!< next candidate to probe

    /// Restoration probe backoff of one EV.
    struct Backoff
    {
        uint32_t failures{0};  //!< failed rounds in a row (at most 6)
        uint64_t nextRound{0}; //!< next round it is probed in
    };

    std::map<uint32_t, Backoff> m_backoff; //!< EV -> backoff
    uint64_t m_round{0};                   //!< restoration rounds so far
};

} // namespace ns3

#endif /* MRC_QP_PROBER_H */
