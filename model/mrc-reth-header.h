/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RETH_HEADER_H
#define MRC_RETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief RDMA extended transport header (RETH, 16 bytes, InfiniBand layout). In MRC every data
 * packet that carries a RETH names the remote buffer, so the receiver can place it on arrival.
 *
 * \verbatim
   0                   1                   2                   3
   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
  |                  Virtual Address (64 bits) ...                |
  |                  ... Virtual Address                          |
  |                        R_Key (32 bits)                        |
  |                     DMA Length (32 bits)                      |
   \endverbatim
 *
 * All fields in network byte order.
 *
 * Deserialize never reads beyond the bytes the iterator holds: with fewer than 16 bytes the
 * header is flagged (IsValid() false, GetError() says why), its fields are left as they were
 * and Deserialize returns 0.
 */
class MrcRethHeader : public Header
{
  public:
    /// Size of the header in bytes.
    static constexpr uint32_t kSize = 16;

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
    MrcRethHeader();

    /**
     * \brief Set the remote virtual address.
     * \param virtualAddress the address
     */
    void SetVirtualAddress(uint64_t virtualAddress);
    /**
     * \brief Get the remote virtual address.
     * \return the address
     */
    uint64_t GetVirtualAddress() const;

    /**
     * \brief Set the remote key (R_Key).
     * \param rkey the key
     */
    void SetRkey(uint32_t rkey);
    /**
     * \brief Get the remote key (R_Key).
     * \return the key
     */
    uint32_t GetRkey() const;

    /**
     * \brief Set the DMA length in bytes.
     * \param dmaLength the length
     */
    void SetDmaLength(uint32_t dmaLength);
    /**
     * \brief Get the DMA length in bytes.
     * \return the length
     */
    uint32_t GetDmaLength() const;

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
     * \return 16
     */
    uint32_t GetSerializedSize() const override;
    /**
     * \brief Write the header.
     * \param start where to write the 16 bytes
     */
    void Serialize(Buffer::Iterator start) const override;
    /**
     * \brief Read the header.
     * \param start where to read from
     * \return 16, or 0 if fewer than 16 bytes are present
     */
    uint32_t Deserialize(Buffer::Iterator start) override;
    /**
     * \brief Print the header.
     * \param os the stream
     */
    void Print(std::ostream& os) const override;

  private:
    uint64_t m_virtualAddress{0}; //!< remote virtual address
    uint32_t m_rkey{0};           //!< R_Key
    uint32_t m_dmaLength{0};      //!< DMA length
    std::string m_error;          //!< why Deserialize rejected the header
};

} // namespace ns3

#endif /* MRC_RETH_HEADER_H */
