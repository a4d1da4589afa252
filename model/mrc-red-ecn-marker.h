/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RED_ECN_MARKER_H
#define MRC_RED_ECN_MARKER_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The RED-like ECN marking law of data-centre switches, on the instantaneous queue
 * length in bytes: probability 0 below MinTh, rising linearly to MaxP at MaxTh, 1 at or above
 * MaxTh (the DCQCN/WRED profile used by RoCE fabrics).
 */
class MrcRedEcnMarker
{
  public:
    /**
     * \param minTh bytes below which nothing is marked
     * \param maxTh bytes at or above which everything is marked (> minTh)
     * \param maxP marking probability just below maxTh, in [0, 1]
     * \throws std::invalid_argument naming the parameter if the profile is invalid
     */
    MrcRedEcnMarker(uint32_t minTh, uint32_t maxTh, double maxP);

    /**
     * \param queueBytes the queue length in bytes
     * \return the marking probability
     */
    double GetProbability(uint32_t queueBytes) const;

  private:
    uint32_t m_minTh; //!< lower threshold, bytes
    uint32_t m_maxTh; //!< upper threshold, bytes
    double m_maxP;    //!< probability at the upper threshold
};

} // namespace ns3

#endif /* MRC_RED_ECN_MARKER_H */
