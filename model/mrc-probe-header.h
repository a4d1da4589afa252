/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PROBE_HEADER_H
#define MRC_PROBE_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief MRC probe extension header (12 bytes), after a BTH with opcode PROBE. A probe request
 * travels on the EV it tests; the peer answers with the response bit set and the same sequence
 * number and EV.
 *
 * \verbatim
   0                   1                   2                   3
   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
  |  Flags    |A|R|              Reserved (24 bits, 0)            |
  |                 Probe sequence number (32 bits)               |
  |                       EV probed (32 bits)                     |
   \endverbatim
 *
 * R (bit 0 of byte 0) = response. A (bit 1) = acknowledgement request: a sender's tail-loss probe
 * (MrcSelectiveRecovery) asks the peer to send a SACK of everything it holds before the response,
 * on the same path; the response copies A. The other flag bits and the reserved bytes are written
 * as zero and ignored when read. This layout is the module's choice (the MRC sources name the probe
 * opcode only).
 *
 * Deserialize never reads beyond the bytes the iterator holds: with fewer than 12 bytes the
 * header is flagged (IsValid() false, GetError() says why), its fields are left as they were
 * and Deserialize returns 0.
 */
class MrcProbeHeader : public Header
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

    /// \brief A valid header with every field zero.
    MrcProbeHeader();

    /**
     * \brief Set the response flag.
     * \param response true for a response, false for a request
     */
    void SetResponse(bool response);
    /**
     * \brief Get the response flag.
     * \return true for a response
     */
    bool GetResponse() const;

    /**
     * \brief Set the acknowledgement-request flag (a tail-loss probe).
     * \param ackRequest true: the peer answers with a SACK, then the response
     */
    void SetAckRequest(bool ackRequest);
    /**
     * \brief Get the acknowledgement-request flag.
     * \return true for a tail-loss probe (or its response)
     */
    bool GetAckRequest() const;

    /**
     * \brief Set the probe sequence number.
     * \param sequence the sequence number
     */
    void SetSequence(uint32_t sequence);
    /**
     * \brief Get the probe sequence number.
     * \return the sequence number
     */
    uint32_t GetSequence() const;

    /**
     * \brief Set the entropy value probed.
     * \param ev the EV
     */
    void SetEv(uint32_t ev);
    /**
     * \brief Get the entropy value probed.
     * \return the EV
     */
    uint32_t GetEv() const;

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
    bool m_response{false};   //!< response flag
    bool m_ackRequest{false}; //!< acknowledgement-request flag
    uint32_t m_sequence{0};   //!< probe sequence number
    uint32_t m_ev{0};         //!< EV probed
    std::string m_error;      //!< why Deserialize rejected the header
};

} // namespace ns3

#endif /* MRC_PROBE_HEADER_H */
