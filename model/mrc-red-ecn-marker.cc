/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-red-ecn-marker.h"

#include <stdexcept>
#include <string>

namespace ns3
{

MrcRedEcnMarker::MrcRedEcnMarker(uint32_t minTh, uint32_t maxTh, double maxP)
    : m_minTh(minTh)
    , m_maxTh(maxTh)
    , m_maxP(maxP)
{
    if (minTh >= maxTh)
    {
        throw std::invalid_argument("EcnMinTh (=" + std::to_string(minTh)
                                    + " B) must be < EcnMaxTh (=" + std::to_string(maxTh) + " B)");
    }
    if (!(maxP >= 0.0 && maxP <= 1.0))
    {
        throw std::invalid_argument("EcnMaxP (=" + std::to_string(maxP) + ") must be in [0, 1]");
    }
}

double
MrcRedEcnMarker::GetProbability(uint32_t queueBytes) const
{
    if (queueBytes < m_minTh)
    {
        return 0.0;
    }
    if (queueBytes >= m_maxTh)
    {
        return 1.0;
    }
    return m_maxP * double(queueBytes - m_minTh) / double(m_maxTh - m_minTh);
}

} // namespace ns3
