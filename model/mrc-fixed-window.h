/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FIXED_WINDOW_H
#define MRC_FIXED_WINDOW_H

#include "mrc-congestion-ops.h"

namespace ns3
{

/**
 * \ingroup mrc
 * \brief A constant window (for tests and for isolating the transport from congestion control).
 */
class MrcFixedWindow : public MrcCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    void Init(uint32_t mss, uint32_t mtu, DataRate linkRate, Time baseRtt) override;
    void OnAck(Time now, uint32_t ackedBytes, Time rtt, bool ecn) override;
    void OnNack(Time now, uint32_t nackedBytes, bool lastHop) override;
    void OnLoss(Time now, uint32_t lostBytes) override;
    uint64_t GetCwnd() const override;

  private:
    uint64_t m_window{0}; //!< Window attribute
};

} // namespace ns3

#endif /* MRC_FIXED_WINDOW_H */
