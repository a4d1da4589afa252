/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_BTH_HEADER_H
#define MRC_BTH_HEADER_H

#include "mrc-header-types.h"

#include "ns3/header.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The InfiniBand Base Transport Header (BTH, 12 bytes) as RoCEv2 carries it after
 * UDP/4791; every MRC packet starts with one.
 *
 * \verbatim
   0                   1                   2                   3
   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
  |    OpCode     |S|M|Pad|  TVer |         Partition Key         |
  |   Reserved    |         Destination QP (24 bits)              |
  |A|  Reserved   |       Packet Sequence Number (24 bits)        |
   \endverbatim
 *
 * S = solicited event, M = migration request, Pad = pad count (0..3), TVer = transport header
 * version (0), A = acknowledge request. Reserved bits are written as zero and ignored when read.
 *
 * Deserialize never reads beyond the bytes the iterator holds. Fewer than 12 bytes: the header
 * is flagged (IsValid() false, GetError() says why), its fields are left as they were and
 * Deserialize returns 0. An opcode byte that is not one of MrcOpcode is flagged too ("unknown
 * opcode 0x.."), but all 12 bytes are read and 12 is returned, so GetOpcode() reports the raw
 * value.
 */
class MrcBthHeader : public Header
{
  public:
    /// Size of the header in bytes.
    static constexpr uint32_t kSize = 12;
    /// Default partition key (the full-membership default partition).
    static constexpr uint16_t kDefaultPartitionKey = 0xffff;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    /**
     * \brief Get the most derived TypeId.
     * \return the object TypeId
     */
    TypeId GetInstanceTypeId() const override;

    /// \brief A valid header: opcode WRITE_ONLY, P_Key 0xffff, every other field zero.
    MrcBthHeader();

    /**
     * \brief Set the opcode.
     * \param opcode the opcode
     * \throws std::invalid_argument if opcode is not one of MrcOpcode
     */
    void SetOpcode(MrcOpcode opcode);
    /**
     * \brief Get the opcode.
     * \return the opcode (possibly an unknown value if Deserialize flagged it)
     */
    MrcOpcode GetOpcode() const;
    /**
     * \brief Set the solicited event bit (SE).
     * \param se the bit
     */
    void SetSolicitedEvent(bool se);
    /**
     * \brief Get the solicited event bit (SE).
     * \return the bit
     */
    bool GetSolicitedEvent() const;
    /**
     * \brief Set the migration request bit (M).
     * \param m the bit
     */
    void SetMigReq(bool m);
    /**
     * \brief Get the migration request bit (M).
     * \return the bit
     */
    bool GetMigReq() const;
    /**
     * \brief Set the pad count (bytes of padding before the ICRC).
     * \param pad 0..3
     * \throws std::invalid_argument if pad > 3
     */
    void SetPadCount(uint8_t pad);
    /**
     * \brief Get the pad count.
     * \return 0..3
     */
    uint8_t GetPadCount() const;
    /**
     * \brief Set the transport header version (TVer).
     * \param version 0..15 (0 for RoCEv2)
     * \throws std::invalid_argument if version > 15
     */
    void SetTransportVersion(uint8_t version);
    /**
     * \brief Get the transport header version (TVer).
     * \return 0..15
     */
    uint8_t GetTransportVersion() const;
    /**
     * \brief Set the partition key (P_Key).
     * \param pkey the key (default 0xffff)
     */
    void SetPartitionKey(uint16_t pkey);
    /**
     * \brief Get the partition key (P_Key).
     * \return the key
     */
    uint16_t GetPartitionKey() const;
    /**
     * \brief Set the destination queue pair number.
     * \param qp 0 .. 2^24-1
     * \throws std::invalid_argument if qp >= 2^24
     */
    void SetDestQp(uint32_t qp);
    /**
     * \brief Get the destination queue pair number.
     * \return 0 .. 2^24-1
     */
    uint32_t GetDestQp() const;
    /**
     * \brief Set the acknowledge request bit (A).
     * \param ackReq the bit
     */
    void SetAckRequest(bool ackReq);
    /**
     * \brief Get the acknowledge request bit (A).
     * \return the bit
     */
    bool GetAckRequest() const;
    /**
     * \brief Set the packet sequence number.
     * \param psn 0 .. 2^24-1
     * \throws std::invalid_argument if psn >= 2^24
     */
    void SetPsn(uint32_t psn);
    /**
     * \brief Get the packet sequence number.
     * \return 0 .. 2^24-1
     */
    uint32_t GetPsn() const;

    /**
     * \brief Whether the last Deserialize accepted the header.
     * \return false if Deserialize found the header truncated or its opcode unknown
     */
    bool IsValid() const;
    /**
     * \brief Why the header is malformed.
     * \return the reason ("" if valid)
     */
    const std::string& GetError() const;

    /**
     * \brief Get the serialized size.
     * \return 12
     */
    uint32_t GetSerializedSize() const override;
    /**
     * \brief Write the header.
     * \param start where to write the 12 bytes
     */
    void Serialize(Buffer::Iterator start) const override;
    /**
     * \brief Read the header.
     * \param start where to read from
     * \return 12, or 0 if fewer than 12 bytes are present
     */
    uint32_t Deserialize(Buffer::Iterator start) override;
    /**
     * \brief Print the header.
     * \param os the stream
     */
    void Print(std::ostream& os) const override;

  private:
    uint8_t m_opcode{static_cast<uint8_t>(MrcOpcode::WRITE_ONLY)}; //!< opcode (raw byte)
    bool m_solicitedEvent{false};                                  //!< SE bit
    bool m_migReq{false};                                          //!< M bit
    uint8_t m_padCount{0};                                         //!< pad count 0..3
    uint8_t m_transportVersion{0};                                 //!< TVer 0..15
    uint16_t m_partitionKey{kDefaultPartitionKey};                 //!< P_Key
    uint32_t m_destQp{0};                                          //!< destination QP (24 bits)
    bool m_ackRequest{false};                                      //!< A bit
    uint32_t m_psn{0};                                             //!< PSN (24 bits)
    std::string m_error;                                           //!< why Deserialize rejected
};

} // namespace ns3

#endif /* MRC_BTH_HEADER_H */
