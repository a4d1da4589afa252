/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SACK_HEADER_H
#define MRC_SACK_HEADER_H

#include "mrc-header-types.h"

#include "ns3/header.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief MRC SACK extension header (36 bytes), after a BTH with opcode SACK.
 *
 * The MRC sources list the fields of a SACK (cumulative-ack PSN, a 64-bit bitmap at an offset,
 * the reflected EV, a 2-bit mark M, a CC block of reflected timestamp, out-of-order count,
 * receiver window penalty 0..127 and received bytes) but not their layout; this byte layout is
 * the module's choice. All multi-byte fields are in network byte order.
 *
 * \verbatim
   0                   1                   2                   3
   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
  | M |E|  Rsvd   |          Cumulative-ack PSN (24 bits)         |   bytes  0-3
  |   Reserved    |          Bitmap base PSN (24 bits)            |   bytes  4-7
  |                       Bitmap (64 bits) ...                    |   bytes  8-11
  |                       ... Bitmap                              |   bytes 12-15
  |                      Reflected EV (32 bits)                   |   bytes 16-19
  |  Port state   |             Reserved (24 bits)                |   bytes 20-23
  | Reflected timestamp (16 bits) | Out-of-order count (16 bits)  |   bytes 24-27  CC block
  |R| Win penalty |             Reserved (24 bits)                |   bytes 28-31  CC block
  |                    Received bytes (32 bits)                   |   bytes 32-35  CC block
   \endverbatim
 *
 * - M (bits 7..6 of byte 0): MrcSackMark for the EV of the packet that triggered the SACK.
 * - E (bit 5 of byte 0): ECN echo, the acknowledged packet arrived CE-marked.
 * - Cumulative-ack PSN: the receiver's cumulative acknowledgement point, as the transport
 *   defines it (this header only carries the 24-bit value).
 * - Bitmap: bit i (value (bitmap >> i) & 1, so bit 0 is the least significant bit of byte 15)
 *   set means PSN base + i (mod 2^24) was received.
 * - Reflected EV: the EV of the packet that triggered the SACK.
 * - Port state: bit p set means NIC port (plane) p of the SACK's sender is down; 8 ports at most.
 * - Reflected timestamp: the TSETH timestamp of the triggering packet (microseconds modulo 2^16).
 * - Window penalty: receiver back-pressure, 0..127 (R, the top bit, is reserved).
 * Reserved bits are written as zero and ignored when read.
 *
 * Deserialize never reads beyond the bytes the iterator holds: with fewer than 36 bytes the
 * header is flagged (IsValid() false, GetError() says why), its fields are left as they were
 * and Deserialize returns 0. A mark of 3 or a window penalty above 127 is flagged too, but all
 * 36 bytes are read and 36 is returned (the fields hold the raw values).
 */
class MrcSackHeader : public Header
{
  public:
    /// Size of the header in bytes.
    static constexpr uint32_t kSize = 36;
    /// Largest receiver window penalty.
    static constexpr uint8_t kMaxWindowPenalty = 127;

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
    MrcSackHeader();

    /**
     * \brief Set the cumulative-ack PSN.
     * \param cumulativeAckPsn 0 .. 2^24-1
     * \throws std::invalid_argument if cumulativeAckPsn >= 2^24
     */
    void SetCumulativeAckPsn(uint32_t cumulativeAckPsn);
    /**
     * \brief Get the cumulative-ack PSN.
     * \return 0 .. 2^24-1
     */
    uint32_t GetCumulativeAckPsn() const;

    /**
     * \brief Set the mark M.
     * \param mark the mark
     * \throws std::invalid_argument if mark is not one of MrcSackMark
     */
    void SetMark(MrcSackMark mark);
    /**
     * \brief Get the mark M.
     * \return the mark (possibly an unknown value if Deserialize flagged it)
     */
    MrcSackMark GetMark() const;

    /**
     * \brief Set the ECN-echo flag.
     * \param ecnEcho true if the acknowledged packet was CE-marked
     */
    void SetEcnEcho(bool ecnEcho);
    /**
     * \brief Get the ECN-echo flag.
     * \return the flag
     */
    bool GetEcnEcho() const;

    /**
     * \brief Set the PSN of bit 0 of the bitmap.
     * \param bitmapBasePsn 0 .. 2^24-1
     * \throws std::invalid_argument if bitmapBasePsn >= 2^24
     */
    void SetBitmapBasePsn(uint32_t bitmapBasePsn);
    /**
     * \brief Get the PSN of bit 0 of the bitmap.
     * \return 0 .. 2^24-1
     */
    uint32_t GetBitmapBasePsn() const;

    /**
     * \brief Set the received bitmap.
     * \param bitmap bit i set = PSN base + i received
     */
    void SetBitmap(uint64_t bitmap);
    /**
     * \brief Get the received bitmap.
     * \return the bitmap
     */
    uint64_t GetBitmap() const;

    /**
     * \brief Set the reflected entropy value.
     * \param reflectedEv the EV of the packet that triggered the SACK
     */
    void SetReflectedEv(uint32_t reflectedEv);
    /**
     * \brief Get the reflected entropy value.
     * \return the EV
     */
    uint32_t GetReflectedEv() const;

    /**
     * \brief Set the NIC port-state bitmap.
     * \param portStateBitmap bit p set = port p of the SACK sender is down
     */
    void SetPortStateBitmap(uint8_t portStateBitmap);
    /**
     * \brief Get the NIC port-state bitmap.
     * \return the bitmap
     */
    uint8_t GetPortStateBitmap() const;

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
     * \brief Set the out-of-order count.
     * \param outOfOrderCount packets received out of order
     */
    void SetOutOfOrderCount(uint16_t outOfOrderCount);
    /**
     * \brief Get the out-of-order count.
     * \return the count
     */
    uint16_t GetOutOfOrderCount() const;

    /**
     * \brief Set the receiver window penalty.
     * \param windowPenalty 0..127
     * \throws std::invalid_argument if windowPenalty > 127
     */
    void SetWindowPenalty(uint8_t windowPenalty);
    /**
     * \brief Get the receiver window penalty.
     * \return 0..127
     */
    uint8_t GetWindowPenalty() const;

    /**
     * \brief Set the received-bytes counter.
     * \param receivedBytes bytes received
     */
    void SetReceivedBytes(uint32_t receivedBytes);
    /**
     * \brief Get the received-bytes counter.
     * \return the counter
     */
    uint32_t GetReceivedBytes() const;

    /**
     * \brief Whether the last Deserialize accepted the header.
     * \return false if Deserialize found it truncated, its mark unknown or its window penalty above
     * 127
     */
    bool IsValid() const;
    /**
     * \brief Why the header is malformed.
     * \return the reason ("" if valid)
     */
    const std::string& GetError() const;

    /**
     * \brief Get the serialized size.
     * \return 36
     */
    uint32_t GetSerializedSize() const override;
    /**
     * \brief Write the header.
     * \param start where to write the 36 bytes
     */
    void Serialize(Buffer::Iterator start) const override;
    /**
     * \brief Read the header.
     * \param start where to read from
     * \return 36, or 0 if fewer than 36 bytes are present
     */
    uint32_t Deserialize(Buffer::Iterator start) override;
    /**
     * \brief Print the header.
     * \param os the stream
     */
    void Print(std::ostream& os) const override;

  private:
    uint32_t m_cumulativeAckPsn{0};        //!< cumulative-ack PSN (24 bits)
    MrcSackMark m_mark{MrcSackMark::NONE}; //!< mark M
    bool m_ecnEcho{false};                 //!< ECN echo
    uint32_t m_bitmapBasePsn{0};           //!< PSN of bitmap bit 0 (24 bits)
    uint64_t m_bitmap{0};                  //!< received bitmap
    uint32_t m_reflectedEv{0};             //!< reflected EV
    uint8_t m_portStateBitmap{0};          //!< NIC port-state bitmap
    uint16_t m_reflectedTimestamp{0};      //!< reflected timestamp
    uint16_t m_outOfOrderCount{0};         //!< out-of-order count
    uint8_t m_windowPenalty{0};            //!< window penalty 0..127
    uint32_t m_receivedBytes{0};           //!< received bytes
    std::string m_error;                   //!< why Deserialize rejected the header
};

} // namespace ns3

#endif /* MRC_SACK_HEADER_H */
