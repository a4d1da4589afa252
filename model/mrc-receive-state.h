/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RECEIVE_STATE_H
#define MRC_RECEIVE_STATE_H

#include <boost/dynamic_bitset.hpp>
#include <cstdint>
#include <map>
#include <optional>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief What the receiving end of a queue pair knows: which PSNs arrived (a cumulative PSN and a
 * window bitmap, boost::dynamic_bitset) and how many bytes of each message are in place.
 *
 * Every data packet is placed on arrival, in any order (MRC has no reorder buffer); a PSN is
 * accepted once only, so every byte is placed exactly once, and a message is complete when all
 * its bytes are in (and, for WRITE with immediate, its immediate has arrived).
 */
class MrcReceiveState
{
  public:
    /// What to do with an arriving PSN.
    enum class Verdict
    {
        NEW,           //!< first arrival: place it
        DUPLICATE,     //!< already received: acknowledge again, place nothing
        OUT_OF_WINDOW, //!< beyond the window: NACK PSN_OOR_WINDOW
    };

    /// A message whose last byte just arrived.
    struct Completed
    {
        uint32_t msn{0};                   //!< message sequence number
        uint64_t length{0};                //!< bytes
        std::optional<uint32_t> immediate; //!< immediate data (WRITE with immediate)
    };

    /**
     * \param window PSNs tracked beyond the cumulative PSN (>= 64)
     * \param firstPsn the first PSN the peer sends
     */
    MrcReceiveState(uint32_t window, uint32_t firstPsn);

    /**
     * \param psn an arriving data PSN
     * \return the verdict; NEW marks it received and advances the cumulative PSN
     */
    Verdict Accept(uint32_t psn);

    /// \return the cumulative PSN: every PSN before it has arrived
    uint32_t GetCumulativePsn() const;

    /**
     * \param base first PSN of the bitmap, at or after the cumulative PSN
     * \return 64 bits: bit i set = PSN base + i has arrived
     */
    uint64_t GetBitmap(uint32_t base) const;

    /**
     * The bitmap base a SACK for a packet should use: the cumulative PSN while the packet is
     * within 64 PSNs of it, else the 64 PSNs ending at the packet (the "offset" of the SACK
     * bitmap), so that every arriving packet is acknowledged however far the cumulative PSN
     * lags behind a hole.
     * \param psn the PSN that triggers the SACK
     * \return the base
     */
    uint32_t GetSackBase(uint32_t psn) const;

    /// \return PSNs received beyond the cumulative PSN
    uint32_t GetOutOfOrderCount() const;

    /**
     * Account a newly placed packet of a message.
     * \param msn the message
     * \param length the message's length (from RETH)
     * \param bytes payload bytes placed
     * \param immediate the immediate data, if this packet carries it
     * \param immediateExpected the message is a WRITE with immediate
     * \return the message if it is now complete
     */
    std::optional<Completed> Place(uint32_t msn,
                                   uint64_t length,
                                   uint32_t bytes,
                                   std::optional<uint32_t> immediate,
                                   bool immediateExpected);

    /// \return bytes placed in total
    uint64_t GetBytesPlaced() const;

  private:
    /// A message being received.
    struct Message
    {
        uint64_t length{0};                //!< total bytes
        uint64_t placed{0};                //!< bytes placed
        bool immediateExpected{false};     //!< WRITE with immediate
        std::optional<uint32_t> immediate; //!< immediate data seen
    };

    uint32_t m_window;                      //!< PSNs tracked
    uint32_t m_cum;                         //!< cumulative PSN
    uint32_t m_base{0};                     //!< bit index of m_cum
    uint32_t m_outOfOrder{0};               //!< bits set beyond m_cum
    boost::dynamic_bitset<> m_bits;         //!< received PSNs from m_cum on (circular)
    std::map<uint32_t, Message> m_messages; //!< incomplete messages
    uint64_t m_bytes{0};                    //!< bytes placed
};

} // namespace ns3

#endif /* MRC_RECEIVE_STATE_H */
