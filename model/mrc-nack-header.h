/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_NACK_HEADER_H
#define MRC_NACK_HEADER_H

#include "mrc-header-types.h"

#include "ns3/header.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief MRC NACK extension header (12 bytes), after a BTH with opcode NACK.
 *
 * \verbatim
   0                   1                   2                   3
   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
  |   NACK code   |            NACKed PSN (24 bits)               |
  |                     Reflected EV (32 bits)                    |
  |  Reflected timestamp (16 bits)|      Reserved (16 bits, 0)    |
   \endverbatim
 *
 * The MRC sources list the fields (code, PSN, the EV echoed because the uSID path is consumed
 * hop by hop); this byte layout is the module's choice. The reflected timestamp is the TSETH
 * timestamp of the NACKed packet (microseconds modulo 2^16, 0 if it had none).
 *
 * Deserialize never reads beyond the bytes the iterator holds: with fewer than 12 bytes the
 * header is flagged (IsValid() false, GetError() says why), its fields are left as they were
 * and Deserialize returns 0. A code byte that is not one of MrcNackCode is flagged too, but all
 * 12 bytes are read and 12 is returned (GetCode() reports the raw value).
 */
class MrcNackHeader : public Header
{
  public:
    /// Size of the header in bytes.
    static constexpr uint32_t kSize = 12;

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

    /// \brief A valid header: code TRIMMED, every other field zero.
    MrcNackHeader();

    /**
     * \brief Set the NACK code.
     * \param code the code
     * \throws std::invalid_argument if code is not one of MrcNackCode
     */
    void SetCode(MrcNackCode code);
    /**
     * \brief Get the NACK code.
     * \return the code (possibly an unknown value if Deserialize flagged it)
     */
    MrcNackCode GetCode() const;

    /**
     * \brief Set the NACKed PSN.
     * \param psn 0 .. 2^24-1
     * \throws std::invalid_argument if psn >= 2^24
     */
    void SetPsn(uint32_t psn);
    /**
     * \brief Get the NACKed PSN.
     * \return 0 .. 2^24-1
     */
    uint32_t GetPsn() const;

    /**
     * \brief Set the reflected entropy value (the EV the NACKed packet took).
     * \param reflectedEv the EV
     */
    void SetReflectedEv(uint32_t reflectedEv);
    /**
     * \brief Get the reflected entropy value (the EV the NACKed packet took).
     * \return the EV
     */
    uint32_t GetReflectedEv() const;

    /**
     * \brief Set the reflected send timestamp.
     * \param reflectedTimestamp microseconds modulo 2^16
     */
    void SetReflectedTimestamp(uint16_t reflectedTimestamp);
    /**
     * \brief Get the reflected send timestamp.
     * \return microseconds modulo 2^16
     */
    uint16_t GetReflectedTimestamp() const;

    /**
     * \brief Whether the last Deserialize accepted the header.
     * \return false if Deserialize found it truncated or its code unknown
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
    MrcNackCode m_code{MrcNackCode::TRIMMED}; //!< NACK code
    uint32_t m_psn{0};                        //!< NACKed PSN (24 bits)
    uint32_t m_reflectedEv{0};                //!< reflected EV
    uint16_t m_reflectedTimestamp{0};         //!< reflected timestamp
    std::string m_error;                      //!< why Deserialize rejected the header
};

} // namespace ns3

#endif /* MRC_NACK_HEADER_H */
