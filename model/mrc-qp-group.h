/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_QP_GROUP_H
#define MRC_QP_GROUP_H

#include "mrc-qp-stats.h"
#include "mrc-queue-pair.h"

#include "ns3/callback.h"
#include "ns3/object.h"

#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Several queue pairs between the same two hosts used as one connection: each message is
 * striped across them (QP scaling, as operators of single-path RoCEv2 do to spread a host pair's
 * traffic over several ECMP paths).
 *
 * MrcHelper::ConnectGroup builds it; messages posted on the group go from its sending ends to
 * its receiving ends. A message of B bytes over n members is cut into at most n parts of
 * ceil(B / n) bytes rounded up to whole packets (Mss), each written by one member at its offset
 * (the same remote address space, so the receiver sees one contiguous write); member choice
 * rotates from message to message so that small messages spread too. A WRITE with immediate
 * carries the immediate on the part that holds the message's last byte. The group reports a
 * message complete when every part is acknowledged, and delivered when every part has arrived.
 *
 * The group takes over its members' send-completion and receive callbacks; the members stay
 * usable on their own otherwise (their traces, stats and error callbacks). The group must
 * outlive the simulation run (its members call back into it).
 */
class MrcQpGroup : public Object
{
  public:
    /// One part of a striped message.
    struct Part
    {
        uint32_t member{0}; //!< member index
        uint64_t offset{0}; //!< offset in the message
        uint64_t bytes{0};  //!< length
    };

    /// Group-level counters.
    struct Stats
    {
        uint64_t messagesPosted{0};    //!< messages posted on the group
        uint64_t messagesCompleted{0}; //!< messages acknowledged whole
        uint64_t messagesDelivered{0}; //!< messages arrived whole at the receiver
        uint64_t bytesPosted{0};       //!< bytes posted
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcQpGroup();
    ~MrcQpGroup() override;

    /**
     * Add a connected queue pair (MrcHelper::ConnectGroup does this).
     * \param sender its end on the sending host
     * \param receiver its end on the receiving host
     */
    void AddMember(Ptr<MrcQueuePair> sender, Ptr<MrcQueuePair> receiver);

    /**
     * Post an RDMA WRITE (or WRITE with immediate), striped across the members.
     * \param bytes message size (0 allowed: one empty part)
     * \param remoteVa virtual address at the receiver
     * \param rkey the receiver's memory key
     * \param immediate immediate data, if any
     * \param data the bytes (nullptr: not modelled byte by byte)
     * \return the group's message number (0, 1, ...)
     * \throws std::logic_error if the group has no member; std::invalid_argument as
     *         MrcQueuePair::PostWrite
     */
    uint32_t PostWrite(uint64_t bytes,
                       uint64_t remoteVa = 0,
                       uint32_t rkey = 0,
                       std::optional<uint32_t> immediate = std::nullopt,
                       std::shared_ptr<const std::vector<uint8_t>> data = nullptr);

    /**
     * The receiving side of a WRITE posted on this group by another rank (a distributed run,
     * where this process simulates the receiving host but not the sending one): the group
     * stripes it as PostWrite does on the sending rank and takes the same message number, so
     * the receive callback reports it whole. Call it once per message, in the order the
     * sending rank posts them, for a group whose members are used only through the group.
     * \param bytes message size
     * \param immediate the immediate data it carries, if any
     * \return the group's message number (0, 1, ...)
     * \throws std::logic_error if the group has no member or this process simulates the
     *         sending host (PostWrite then covers both ends)
     */
    uint32_t ExpectWrite(uint64_t bytes, std::optional<uint32_t> immediate = std::nullopt);

    /**
     * Register receiver memory on every receiving member.
     * \param va its virtual address
     * \param region the bytes (written in place)
     */
    void RegisterMemory(uint64_t va, std::shared_ptr<std::vector<uint8_t>> region);

    /// \param cb called with the group's message number when every part is acknowledged
    void SetSendCompleteCallback(Callback<void, uint32_t> cb);
    /// \param cb called with message number, bytes and immediate when every part has arrived
    void SetReceiveCallback(Callback<void, uint32_t, uint64_t, std::optional<uint32_t>> cb);

    /// \return the number of members
    uint32_t GetSize() const;
    /// \param i a member \return its sending end
    Ptr<MrcQueuePair> GetSender(uint32_t i) const;
    /// \param i a member \return its receiving end
    Ptr<MrcQueuePair> GetReceiver(uint32_t i) const;
    /// \return the group's counters
    const Stats& GetGroupStats() const;
    /// \return the counters of the sending ends, added up
    MrcQpStats GetSenderStats() const;
    /// \return the counters of the receiving ends, added up
    MrcQpStats GetReceiverStats() const;

    /**
     * How a message is striped.
     * \param bytes message size
     * \param members number of members (>= 1)
     * \param mss payload bytes per packet (parts are whole packets but the last)
     * \param first member of the first part
     * \return the parts, in offset order (one empty part for an empty message)
     */
    static std::vector<Part> Stripe(uint64_t bytes, uint32_t members, uint32_t mss, uint32_t first);

  protected:
    void DoDispose() override;

  private:
    /// A message in flight.
    struct Message
    {
        uint64_t bytes{0};                 //!< size
        std::optional<uint32_t> immediate; //!< immediate data
        uint32_t unacknowledged{0};        //!< parts not yet acknowledged
        uint32_t undelivered{0};           //!< parts not yet arrived
    };

    /**
     * \param member the member
     * \param msn its message sequence number
     */
    void OnPartComplete(uint32_t member, uint32_t msn);
    /**
     * \param member the member
     * \param msn its message sequence number
     * \param bytes the part's size
     * \param immediate its immediate
     */
    void OnPartDelivered(uint32_t member,
                         uint32_t msn,
                         uint64_t bytes,
                         std::optional<uint32_t> immediate);
    /// \return the parts of the next message (its number is m_nextId) \param bytes its size
    std::vector<Part> NextStripe(uint64_t bytes) const;
    /// \param id a message whose parts are all accounted for on both ends: forget it
    void Forget(uint32_t id);

    std::vector<std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>>> m_members; //!< (sender, receiver)
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_sendParts; //!< (member, MSN) -> message
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_recvParts; //!< (member, MSN) -> message
    std::map<uint32_t, Message> m_messages;                        //!< messages in flight
    uint32_t m_nextId{0};                                          //!< next message number
    std::vector<uint32_t> m_expectedMsn;     //!< per member: next MSN of ExpectWrite
    Stats m_stats;                           //!< counters
    Callback<void, uint32_t> m_sendComplete; //!< completion callback
    Callback<void, uint32_t, uint64_t, std::optional<uint32_t>> m_receive; //!< receive callback
};

} // namespace ns3

#endif /* MRC_QP_GROUP_H */
