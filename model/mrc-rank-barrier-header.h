/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RANK_BARRIER_HEADER_H
#define MRC_RANK_BARRIER_HEADER_H

#include "ns3/header.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief What one rank of a distributed run tells the others about its share of a joint
 * activity (MrcRankBarrier): 24 bytes, exchanged between ranks only (never on a simulated wire).
 *
 * \verbatim
   0                   1                   2                   3
   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
  |                        Key (64 bits)                          |
  |                                                               |
  |                 When (64 bits, time steps)                    |
  |                                                               |
  |                     Rank (32 bits)                            |
  |  Flags    |F|                Reserved (24 bits, 0)            |
   \endverbatim
 *
 * F = the share failed (When is the failure's time) instead of ending (When is its end). When
 * counts ns-3 time steps (Time::GetTimeStep, the resolution every rank of the run shares), so
 * an end crosses ranks exactly at any resolution.
 * Deserialize never reads beyond the bytes the iterator holds: with fewer than 24 bytes the
 * header is flagged (IsValid() false, GetError() says why) and Deserialize returns 0.
 */
class MrcRankBarrierHeader : public Header
{
  public:
    /// Size of the header in bytes.
    static constexpr uint32_t kSize = 24;

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
    MrcRankBarrierHeader();

    /// \param key the activity (MrcRankBarrier::Post)
    void SetKey(uint64_t key);
    /// \return the activity
    uint64_t GetKey() const;
    /// \param when the share's end, or its failure
    void SetWhen(Time when);
    /// \return the share's end, or its failure
    Time GetWhen() const;
    /// \param rank the rank that sends it
    void SetRank(uint32_t rank);
    /// \return the rank that sent it
    uint32_t GetRank() const;
    /// \param failed true: the share failed at GetWhen()
    void SetFailed(bool failed);
    /// \return true if the share failed
    bool IsFailed() const;

    /// \return false if the last Deserialize found too few bytes
    bool IsValid() const;
    /// \return why the header is not valid (empty when it is)
    std::string GetError() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    uint64_t m_key{0};    //!< activity
    int64_t m_when{0};    //!< time steps
    uint32_t m_rank{0};   //!< sender
    bool m_failed{false}; //!< F flag
    std::string m_error;  //!< why the last Deserialize failed
};

} // namespace ns3

#endif /* MRC_RANK_BARRIER_HEADER_H */
