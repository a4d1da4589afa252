/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ICRC_TRAILER_H
#define MRC_ICRC_TRAILER_H

#include "ns3/trailer.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The 4-byte invariant CRC (ICRC) that ends every RoCEv2 packet.
 *
 * The simulation does not compute a CRC: the trailer carries whatever value it is given (0 by
 * default), so packet sizes are right and a pcap decodes as RoCEv2. Written in network byte
 * order.
 *
 * Deserialize never reads beyond the bytes present: with fewer than 4 bytes before the end
 * iterator the trailer is flagged (IsValid() false, GetError() says why), its value is left as
 * it was and Deserialize returns 0.
 */
class MrcIcrcTrailer : public Trailer
{
  public:
    /// Size of the trailer in bytes.
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

    /// \brief A valid trailer with value 0.
    MrcIcrcTrailer();

    /**
     * \brief Set the ICRC value.
     * \param value the 32-bit value
     */
    void SetValue(uint32_t value);
    /**
     * \brief Get the ICRC value.
     * \return the 32-bit value
     */
    uint32_t GetValue() const;

    /**
     * \brief Whether the last Deserialize accepted the trailer.
     * \return false if Deserialize found it truncated
     */
    bool IsValid() const;
    /**
     * \brief Why the trailer is malformed.
     * \return the reason ("" if valid)
     */
    const std::string& GetError() const;

    /**
     * \brief Get the serialized size.
     * \return 4
     */
    uint32_t GetSerializedSize() const override;
    /**
     * \brief Write the trailer.
     * \param end the end of the area to write the 4 bytes before
     */
    void Serialize(Buffer::Iterator end) const override;
    /**
     * \brief Read the trailer.
     * \param end the end of the bytes to read the trailer from
     * \return 4, or 0 if fewer than 4 bytes are present
     */
    uint32_t Deserialize(Buffer::Iterator end) override;
    /**
     * \brief Print the trailer.
     * \param os the stream
     */
    void Print(std::ostream& os) const override;

  private:
    uint32_t m_value{0}; //!< ICRC value
    std::string m_error; //!< why Deserialize rejected the trailer
};

} // namespace ns3

#endif /* MRC_ICRC_TRAILER_H */
