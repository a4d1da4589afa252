/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RANK_BARRIER_H
#define MRC_RANK_BARRIER_H

#include "ns3/callback.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Agreement, inside a distributed simulation, on when an activity that every rank takes
 * part in ended (a collective of a training step: each rank sees only its own hosts' part).
 *
 * Each rank posts its share of an activity (a key) once, when its part ends, or when it fails.
 * The post reaches every rank, itself included, GetDelay() later: a message through ns-3's
 * MPI interface (MpiInterface::SendPacket, an MrcRankBarrierHeader) to a control endpoint of
 * each rank, one Node per rank (system id = the rank) with one SimpleNetDevice that no link
 * touches; this rank's endpoint takes the messages (an MpiReceiver). The outcome callback then
 * fires on every rank, with the same arguments:
 *  - ended at the latest end of the shares, once every rank's end has arrived, unless
 *  - a failure came first: failed at the earliest failure, once its post has arrived (posts
 *    take the same time to every rank, so an earlier failure or end would have arrived too).
 *
 * Every rank thus learns the outcome of an activity that ended at T at T + GetDelay(), the
 * same instant everywhere. GetDelay() is the run's lookahead: ns-3's distributed simulator
 * (granted time windows) needs a message sent at t to arrive no earlier than t + lookahead,
 * and takes its lookahead from the delays of the links between ranks; the barrier uses, of
 * each rank's least link delay, the largest. A caller that reacts to an outcome after a gap of
 * at least GetDelay() (a training step's computation) reacts at the same simulated time as one
 * process, which learns it at T.
 *
 * Without MPI, or on one rank, nothing crosses a process: GetDelay() is 0 and the outcome is
 * learnt at T. SetRanks wires barriers by hand (the tests join two in one process).
 */
class MrcRankBarrier : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcRankBarrier();
    ~MrcRankBarrier() override;

    /**
     * Join the ranks of the run: without MPI, one rank and no delay; with MPI, create the
     * control endpoints (every rank must call it at the same point of the program, so that node
     * ids match, after the links between ranks exist: they give the delay).
     * \throws std::logic_error if several ranks share no link (no lookahead to send with)
     */
    void Setup();

    /**
     * Wire the barrier by hand (Setup does it from MPI).
     * \param ranks how many ranks take part (at least 1)
     * \param self this barrier's rank (below ranks)
     * \param delay how long a post takes to reach every rank
     * \param send carries a post (a packet holding an MrcRankBarrierHeader) to another rank's
     *        barrier, to arrive `delay` later (its Receive)
     * \throws std::invalid_argument if ranks is 0 or self is not below it
     */
    void SetRanks(uint32_t ranks,
                  uint32_t self,
                  Time delay,
                  Callback<void, uint32_t, Ptr<Packet>> send);

    /// \return how long after a post every rank learns it (0 on one rank)
    Time GetDelay() const;
    /// \return the number of ranks
    uint32_t GetRanks() const;

    /**
     * This rank's share of an activity ended (failed false) or failed, now.
     * \param key the activity (the same on every rank)
     * \param failed true: a failure (it may follow an end: a late failure of the same share)
     */
    void Post(uint64_t key, bool failed);

    /// \param cb called on every rank with (key, when, failed) once an activity's outcome is
    ///        known (see the class description)
    void SetOutcomeCallback(Callback<void, uint64_t, Time, bool> cb);

    /// \param p a post from another rank (an MrcRankBarrierHeader; a malformed one is dropped
    ///        and counted)
    void Receive(Ptr<Packet> p);

    /// \return posts from other ranks dropped as malformed or from an unknown rank
    uint64_t GetMalformed() const;

  protected:
    void DoDispose() override;

  private:
    /// What has arrived of one activity.
    struct Shares
    {
        std::vector<bool> ended;     //!< per rank: its end arrived
        uint32_t endedCount{0};      //!< ranks whose end arrived
        Time latest;                 //!< the latest end so far
        std::optional<Time> failure; //!< the earliest failure so far
        bool evaluating{false};      //!< an evaluation is scheduled
        bool decided{false};         //!< the outcome was given
    };

    /**
     * A post arrived (from this rank or another).
     * \param key activity \param rank its rank \param when its time \param failed kind
     */
    void Learn(uint64_t key, uint32_t rank, Time when, bool failed);
    /// \param key an activity: give its outcome if it is known
    void Evaluate(uint64_t key);
    /**
     * Send a post to another rank's barrier through MPI (Setup's transport).
     * \param rank the rank \param p the post
     */
    void SendToRank(uint32_t rank, Ptr<Packet> p);

    uint32_t m_ranks{1};                            //!< ranks taking part
    uint32_t m_self{0};                             //!< this rank
    Time m_delay;                                   //!< post delay
    Callback<void, uint32_t, Ptr<Packet>> m_send;   //!< carries a post to a rank
    Callback<void, uint64_t, Time, bool> m_outcome; //!< outcome callback
    std::map<uint64_t, Shares> m_shares;            //!< activity -> what arrived
    std::vector<Ptr<Node>> m_endpoints;             //!< per rank: its control endpoint
    uint64_t m_malformed{0};                        //!< posts dropped
};

} // namespace ns3

#endif /* MRC_RANK_BARRIER_H */
