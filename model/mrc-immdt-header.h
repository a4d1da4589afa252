/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_IMMDT_HEADER_H
#define MRC_IMMDT_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief Immediate data extension header (ImmDt, 4 bytes) of WRITE_LAST_IMM and WRITE_ONLY_IMM
 * packets: 32 bits handed to the receiver's completion.
 *
 * \verbatim
   0                   1                   2                   3
   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
  |                   Immediate Data (32 bits)                    |
   \endverbatim
 *
 * Deserialize never reads beyond the bytes the iterator holds: with fewer than 4 bytes the
 * header is flagged (IsValid() false, GetError() says why), its fields are left as they were
 * and Deserialize returns 0.
 */
class MrcImmDtHeader : public Header
{
  public:
    /// Size of the header in bytes.
    static constexpr uint32_t kSize = 4;

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

    /// \brief A valid header with every field zero.
    MrcImmDtHeader();

    /**
     * \brief Set the immediate data.
     * \param immediate the 32-bit value
     */
    void SetImmediateData(uint32_t immediate);
    /**
     * \brief Get the immediate data.
     * \return the 32-bit value
     */
    uint32_t GetImmediateData() const;

    /**
     * \brief Whether the last Deserialize accepted the header.
     * \return false if Deserialize found it truncated
     */
    bool IsValid() const;
    /**
     * \brief Why the header is malformed.
     * \return the reason ("" if valid)
     */
    const std::string& GetError() const;

    /**
     * \brief Get the serialized size.
     * \return 4
     */
    uint32_t GetSerializedSize() const override;
    /**
     * \brief Write the header.
     * \param start where to write the 4 bytes
     */
    void Serialize(Buffer::Iterator start) const override;
    /**
     * \brief Read the header.
     * \param start where to read from
     * \return 4, or 0 if fewer than 4 bytes are present
     */
    uint32_t Deserialize(Buffer::Iterator start) override;
    /**
     * \brief Print the header.
     * \param os the stream
     */
    void Print(std::ostream& os) const override;

  private:
    uint32_t m_immediate{0}; //!< immediate data
    std::string m_error;     //!< why Deserialize rejected the header
};

} // namespace ns3

#endif /* MRC_IMMDT_HEADER_H */
