/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PFC_SHARED_BUFFER_H
#define MRC_PFC_SHARED_BUFFER_H

#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The shared packet buffer of a switch, as PFC's dynamic thresholds see it.
 *
 * The PfcPorts of one switch charge to it the bytes of lossless priorities they have received
 * and not yet transmitted; a port in dynamic threshold mode pauses its upstream when its own
 * backlog of a priority exceeds Alpha x GetFree(). Headroom is not carved out of Size: it is
 * the reserve above the XOFF threshold that each port needs (MrcPfcPort::GetHeadroom).
 */
class MrcPfcSharedBuffer : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcPfcSharedBuffer();
    ~MrcPfcSharedBuffer() override;

    /// \param bytes bytes received (lossless)
    void Add(uint32_t bytes);

    /// \param bytes bytes transmitted (lossless); never below 0
    void Release(uint32_t bytes);

    /// \return bytes charged
    uint64_t GetUsed() const;

    /// \return Size minus the bytes charged, 0 if more are charged than Size
    uint64_t GetFree() const;

    /// \return the buffer's size in bytes
    uint64_t GetSize() const;

  private:
    uint64_t m_size;    //!< Size attribute
    uint64_t m_used{0}; //!< bytes charged
};

} // namespace ns3

#endif /* MRC_PFC_SHARED_BUFFER_H */
