/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TSETH_HEADER_H
#define MRC_TSETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief MRC timestamp extension header (TSETH, 4 bytes): the send timestamp of a data packet,
 * reflected by the receiver in the SACK/NACK CC block for RTT sampling. Optional on data packets.
 *
 * \verbatim
   0                   1                   2                   3
   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
  |     Send Timestamp (16 bits)  |      Reserved (16 bits, 0)    |
   \endverbatim
 *
 * Units: the timestamp is the sender's clock in microseconds modulo 2^16 (it wraps every
 * 65.536 ms); an RTT is (now_us - timestamp) mod 2^16, which is exact for RTTs below 65 ms.
 * The reserved bits are written as zero and ignored when read.
 *
 * Deserialize never reads beyond the bytes the iterator holds: with fewer than 4 bytes the
 * header is flagged (IsValid() false, GetError() says why), its fields are left as they were
 * and Deserialize returns 0.
 */
class MrcTsethHeader : public Header
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
    MrcTsethHeader();

    /**
     * \brief Set the send timestamp.
     * \param timestamp microseconds modulo 2^16
     */
    void SetTimestamp(uint16_t timestamp);
    /**
     * \brief Get the send timestamp.
     * \return microseconds modulo 2^16
     */
    uint16_t GetTimestamp() const;

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
    uint16_t m_timestamp{0}; //!< send timestamp, microseconds modulo 2^16
    std::string m_error;     //!< why Deserialize rejected the header
};

} // namespace ns3

#endif /* MRC_TSETH_HEADER_H */
