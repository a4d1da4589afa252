/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SEND_QUEUE_H
#define MRC_SEND_QUEUE_H

#include "mrc-header-types.h"

#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <boost/circular_buffer.hpp>
#include <boost/circular_buffer/space_optimized.hpp>
#include <deque>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The sending half's bookkeeping of a queue pair: posted messages, their packets and the
 * PSN window.
 *
 * Messages are cut into packets of Mss payload bytes with consecutive 24-bit PSNs (opcodes
 * FIRST / MIDDLE / LAST / ONLY, with immediate where posted); each packet in the window has a
 * record (its message, offset, length, last EV and send time, acknowledged or not, counted in
 * flight or not). Acknowledgements mark records; the window slides over acknowledged PSNs and
 * a message completes when all its packets are acknowledged. No policy lives here: which
 * packet goes next, on which EV, and when to resend are the queue pair's decisions.
 */
class MrcSendQueue
{
  public:
    /// One PSN in the window.
    struct Record
    {
        uint32_t psn{0};                         //!< PSN
        uint32_t msn{0};                         //!< its message
        uint64_t offset{0};                      //!< offset in the message
        uint32_t length{0};                      //!< payload bytes
        MrcOpcode opcode{MrcOpcode::WRITE_ONLY}; //!< opcode
        Time sentAt;                             //!< last transmission
        uint32_t ev{0};                          //!< EV of the last transmission
        uint32_t transmissions{0};               //!< times sent
        bool acked{false};                       //!< acknowledged
        bool inFlight{false};                    //!< counted in bytes in flight
        bool queued{false};                      //!< waiting for retransmission
    };

    /// A record newly acknowledged by the last AckSack / AckBefore call.
    struct Acked
    {
        uint32_t psn{0}; //!< PSN
        uint32_t ev{0};  //!< EV of its last transmission
        Time sentAt;     //!< time of its last transmission
        /// Times it was sent: above 1, which transmission arrived is unknown (Karn).
        uint32_t transmissions{1};
    };

    /// A message acknowledged whole.
    struct Completed
    {
        uint32_t msn{0};   //!< message sequence number
        uint64_t bytes{0}; //!< its size
    };

    /**
     * \param window PSN window (records kept at most)
     * \param mss payload bytes per packet
     * \param firstPsn first PSN
     */
    MrcSendQueue(uint32_t window, uint32_t mss, uint32_t firstPsn);

    /**
     * Queue a message.
     * \param bytes size
     * \param va remote virtual address
     * \param rkey remote key
     * \param immediate immediate data, if any
     * \param data its bytes (nullptr: not modelled byte by byte)
     * \return its message sequence number
     * \throws std::invalid_argument if data has another size than bytes, or bytes >= 4 GiB
     */
    uint32_t Post(uint64_t bytes,
                  uint64_t va,
                  uint32_t rkey,
                  std::optional<uint32_t> immediate,
                  std::shared_ptr<const std::vector<uint8_t>> data);

    /// \return payload bytes of the next new packet, or nothing if none may be cut now
    std::optional<uint32_t> PeekNew() const;
    /// \return the record of a new packet (PeekNew() must have returned a length)
    Record& CutNew();

    /**
     * \param psn a PSN
     * \return its record, or nullptr if outside the window
     */
    Record* Find(uint32_t psn);

    /// \param r a record: now in flight (counted in GetInFlight)
    void MarkSent(Record& r);
    /// \param r a record: no longer in flight (lost, to be resent)
    void MarkLost(Record& r);
    /**
     * \param r a record: acknowledged
     * \return its payload bytes (at least 1) if newly acknowledged, else 0
     */
    uint32_t Ack(Record& r);
    /**
     * Acknowledge every PSN before cum.
     * \param cum cumulative acknowledgement
     * \return bytes newly acknowledged
     */
    uint64_t AckBefore(uint32_t cum);

    /**
     * \param ev an EV
     * \return the send time of the latest-sent packet on that EV that has been acknowledged
     *         (negative: none). A loss of an earlier packet on the EV then does not mean the
     *         path is dead: a later one got through.
     */
    Time GetLastAckedSend(uint32_t ev) const;
    /**
     * Acknowledge what a SACK reports: every PSN before cum, then the bitmap's PSNs.
     * \param cum cumulative acknowledgement
     * \param bitmapBase PSN of the bitmap's bit 0
     * \param bitmap bit i set: PSN bitmapBase + i arrived
     * \return bytes newly acknowledged
     */
    uint64_t AckSack(uint32_t cum, uint32_t bitmapBase, uint64_t bitmap);
    /// \return the messages completed by the acknowledgements so far (the window slides)
    std::vector<Completed> Slide();

    /**
     * \param r a record
     * \param remoteQpn destination QP
     * \param timestamp TSETH timestamp
     * \return its packet: BTH, METH, TSETH, RETH, [ImmDt], payload, ICRC
     */
    Ptr<Packet> Build(const Record& r, uint32_t remoteQpn, uint16_t timestamp) const;

    /// \return bytes in flight
    uint64_t GetInFlight() const;
    /// \return oldest unacknowledged PSN
    uint32_t GetBasePsn() const;
    /// \return true if no PSN is outstanding
    bool IsWindowEmpty() const;
    /// \return messages posted and not yet acknowledged
    uint32_t GetPendingMessages() const;
    /// \return the PSN the next new packet gets (one past the highest PSN sent)
    uint32_t GetNextPsn() const;
    /// \return true if the posted messages are all cut into packets (nothing new to send)
    bool IsFullyPacketized() const;
    /// \return the PSN window's capacity (MaxOutstandingPsns)
    uint32_t GetCapacity() const;
    /// \return the records of the window, oldest first
    boost::circular_buffer_space_optimized<Record>& GetWindow();
    /// \return the records newly acknowledged by the last AckSack or AckBefore call
    const std::vector<Acked>& GetJustAcked() const;
    /**
     * The send time of the packet a SACK or NACK was about, exactly: the wire carries only a
     * 16-bit microsecond timestamp (TSETH), the sender keeps the full time.
     * \param ev the EV the acknowledgement reflects
     * \param timestamp the timestamp it reflects
     * \return the send time of the newly acknowledged transmission with that EV and timestamp,
     *         or nothing (the packet was acknowledged before)
     */
    std::optional<Time> FindJustAckedSend(uint32_t ev, uint16_t timestamp) const;

    /**
     * \param t a time
     * \return its 16-bit microsecond wire timestamp (TSETH)
     */
    static uint16_t WireTimestamp(Time t);

  private:
    std::unordered_map<uint32_t, Time> m_lastAckedSend; //!< EV -> latest acked send time

    /// A message being sent.
    struct Message
    {
        uint32_t msn{0};                                  //!< message sequence number
        uint64_t bytes{0};                                //!< size
        uint64_t va{0};                                   //!< remote address
        uint32_t rkey{0};                                 //!< remote key
        std::optional<uint32_t> immediate;                //!< immediate data
        std::shared_ptr<const std::vector<uint8_t>> data; //!< bytes (optional)
        uint64_t packetized{0};                           //!< bytes cut into packets
        uint32_t unacked{0};                              //!< packets not yet acknowledged
        bool fullyPacketized{false};                      //!< last packet created
    };

    /**
     * Acknowledge every PSN before cum, adding to the records just acknowledged.
     * \param cum cumulative acknowledgement
     * \return bytes newly acknowledged
     */
    uint64_t AckUpTo(uint32_t cum);

    /**
     * \param msn a message sequence number
     * \return the unfinished message, or nullptr (constant time)
     */
    const Message* FindMessage(uint32_t msn) const;

    uint32_t m_mss;                                          //!< payload bytes per packet
    std::deque<Message> m_messages;                          //!< unfinished messages, by MSN
    uint32_t m_nextMsn{0};                                   //!< next MSN
    uint32_t m_cutMsn{0};                                    //!< MSN of the next message to cut
    boost::circular_buffer_space_optimized<Record> m_window; //!< PSNs from m_basePsn on
    std::vector<Acked> m_justAcked; //!< newly acknowledged by the last AckSack / AckBefore
    uint32_t m_basePsn;             //!< oldest unacknowledged PSN
    uint32_t m_nextPsn;             //!< next new PSN
    uint64_t m_inFlight{0};         //!< bytes in flight
};

} // namespace ns3

#endif /* MRC_SEND_QUEUE_H */
