/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TRANSFER_EVENT_LOG_H
#define MRC_TRANSFER_EVENT_LOG_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief What an MrcTransferMonitor was told, event by event, in a form that crosses MPI ranks.
 *
 * On several ranks of ns-3's MPI engine a flow's sender posts and completes messages on one
 * rank and its receiver places packets on another, while the monitor's stalls need both on
 * one timeline. Each rank's monitor records its own events in a log; rank 0 gathers the logs
 * (Serialize, Deserialize, Append) and replays them in time order
 * (MrcTransferMonitor::Replay), which gives what one process would have computed.
 *
 * Events at equal times are replayed by kind (posts, placements, completions, deliveries, EV
 * changes), then by member, then in the order they were added: whichever order one process
 * ran them in, each gap is counted once and the same messages are found delivered.
 */
class MrcTransferEventLog
{
  public:
    /// What happened.
    enum class Kind : uint8_t
    {
        POSTED = 0,    //!< a sender posted a message (value: its bytes)
        PLACED = 1,    //!< a receiver placed a packet for the first time (value: payload bytes)
        COMPLETE = 2,  //!< a sender saw a message acknowledged whole (value: its bytes)
        DELIVERED = 3, //!< a receiver delivered a message (value: its bytes)
        EV_STATE = 4,  //!< a sender's EV changed state (value: 1 if to ASSUMED_BAD, else 0)
    };

    /// One event.
    struct Event
    {
        int64_t time{0};         //!< simulation time, in time steps
        uint32_t member{0};      //!< the monitor's member queue pair
        Kind kind{Kind::POSTED}; //!< what happened
        uint64_t value{0};       //!< bytes, or the retirement flag of EV_STATE
    };

    /**
     * Record an event.
     * \param time when
     * \param member the member queue pair
     * \param kind what
     * \param value its value (see Kind)
     */
    void Add(Time time, uint32_t member, Kind kind, uint64_t value);

    /// \return the events, in the order added (or sorted, after Sort())
    const std::vector<Event>& GetEvents() const;

    /// \return number of events
    size_t GetSize() const;

    /// Forget every event.
    void Clear();

    /**
     * Add another log's events after this one's.
     * \param other the log
     */
    void Append(const MrcTransferEventLog& other);

    /// Sort by time, then kind, then member; events equal in all three keep their order.
    void Sort();

    /// \return the events as bytes (21 per event, little-endian), for an MPI message
    std::string Serialize() const;

    /**
     * \param bytes what Serialize() wrote
     * \return the log
     * \throws std::invalid_argument if the length is not a whole number of events or an event
     *         has an unknown kind
     */
    static MrcTransferEventLog Deserialize(const std::string& bytes);

  private:
    std::vector<Event> m_events; //!< the events
};

} // namespace ns3

#endif /* MRC_TRANSFER_EVENT_LOG_H */
