/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PFC_PAUSE_HEADER_H
#define MRC_PFC_PAUSE_HEADER_H

#include "ns3/header.h"

#include <array>
#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The MAC control payload of an IEEE 802.1Qbb priority flow control (PFC) frame.
 *
 * Wire format (network byte order), the bytes after the EtherType 0x8808:
 *  - opcode, 16 bits: 0x0101 (priority-based flow control);
 *  - priority-enable vector, 16 bits: bit p (p = 0..7) set if the pause time of priority p is
 *    valid; the upper 8 bits are reserved (zero);
 *  - 8 pause times, 16 bits each, priority 0 first, in quanta of 512 bit times at the link
 *    rate; 0 means resume now (XON);
 *  - zero padding to 46 bytes, the payload of a minimum 64-byte Ethernet frame.
 *
 * Deserialize never reads beyond the bytes the iterator holds: with fewer than 46 bytes the
 * header is flagged (IsValid() false, GetError() says why), its fields are left as they were
 * and Deserialize returns 0. A wrong opcode or reserved bits set in the enable vector are
 * flagged too, but all 46 bytes are consumed.
 */
class MrcPfcPauseHeader : public Header
{
  public:
    static constexpr uint16_t kOpcode = 0x0101;      //!< PFC opcode of MAC control
    static constexpr uint16_t kEtherType = 0x8808;   //!< MAC control EtherType
    static constexpr uint32_t kPriorities = 8;       //!< IEEE 802.1p priorities
    static constexpr uint32_t kSize = 46;            //!< padded payload bytes
    static constexpr uint32_t kBitsPerQuantum = 512; //!< a pause quantum in bit times

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    MrcPfcPauseHeader();

    /**
     * Enable priority \p priority with pause time \p quanta (0: XON).
     * \param priority 0..7
     * \param quanta pause time in quanta of 512 bit times
     * \throws std::invalid_argument if priority > 7
     */
    void SetPauseTime(uint8_t priority, uint16_t quanta);

    /**
     * \param priority 0..7
     * \return the pause time of the priority in quanta (meaningful if IsEnabled(priority))
     * \throws std::invalid_argument if priority > 7
     */
    uint16_t GetPauseTime(uint8_t priority) const;

    /**
     * \param priority 0..7
     * \return true if the frame carries a pause time for the priority
     * \throws std::invalid_argument if priority > 7
     */
    bool IsEnabled(uint8_t priority) const;

    /// \return the priority-enable vector (bit p for priority p)
    uint8_t GetEnableVector() const;

    /// \return the opcode of the last frame deserialised (kOpcode when built)
    uint16_t GetOpcode() const;

    /**
     * \brief Whether the last Deserialize accepted the header.
     * \return false if Deserialize found it truncated, its opcode not PFC or reserved bits set
     */
    bool IsValid() const;

    /// \return why the last Deserialize rejected the header (empty if it did not)
    const std::string& GetError() const;

    /**
     * \param quanta pause time in quanta
     * \param bitRate link rate in bit/s (> 0)
     * \return the pause time in nanoseconds, rounded up
     */
    static uint64_t QuantaToNanoSeconds(uint16_t quanta, uint64_t bitRate);

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    uint16_t m_opcode{kOpcode};                   //!< MAC control opcode
    uint8_t m_enable{0};                          //!< priority-enable vector
    std::array<uint16_t, kPriorities> m_quanta{}; //!< pause times
    std::string m_error;                          //!< why Deserialize rejected it
};

} // namespace ns3

#endif /* MRC_PFC_PAUSE_HEADER_H */
