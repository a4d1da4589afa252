/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-pfc-thresholds.h"

#include <cmath>
#include <stdexcept>

namespace ns3
{

MrcPfcThresholds
MrcPfcThresholds::Static(uint64_t xoff, uint64_t xon)
{
    if (xon > xoff)
    {
        throw std::invalid_argument("MrcPfcPort: XonThreshold (=" + std::to_string(xon)
                                    + ") must be in 0..XoffThreshold (=" + std::to_string(xoff)
                                    + ")");
    }
    MrcPfcThresholds t;
    t.m_mode = MrcPfcThresholdMode::STATIC;
    t.m_xoff = xoff;
    t.m_xon = xon;
    return t;
}

MrcPfcThresholds
MrcPfcThresholds::Dynamic(double alpha, uint64_t xonOffset)
{
    if (!(alpha > 0.0 && alpha <= 64.0))
    {
        throw std::invalid_argument("MrcPfcPort: DynamicAlpha (=" + std::to_string(alpha)
                                    + ") must be in (0, 64]");
    }
    MrcPfcThresholds t;
    t.m_mode = MrcPfcThresholdMode::DYNAMIC;
    t.m_alpha = alpha;
    t.m_xonOffset = xonOffset;
    return t;
}

MrcPfcThresholdMode
MrcPfcThresholds::ParseMode(const std::string& text)
{
    if (text == "static")
    {
        return MrcPfcThresholdMode::STATIC;
    }
    if (text == "dynamic")
    {
        return MrcPfcThresholdMode::DYNAMIC;
    }
    throw std::invalid_argument("MrcPfcPort: ThresholdMode (=\"" + text
                                + "\") must be \"static\" or \"dynamic\"");
}

uint64_t
MrcPfcThresholds::Headroom(uint64_t bitRate,
                           Time delay,
                           uint32_t frameBytes,
                           uint32_t committedFrames,
                           Time responseDelay)
{
    const double bytesPerSecond = static_cast<double>(bitRate) / 8.0;
    const double wire = 2.0 * delay.GetSeconds() * bytesPerSecond;
    const double response = responseDelay.GetSeconds() * bytesPerSecond;
    return static_cast<uint64_t>(std::ceil(wire + response))
           + uint64_t(committedFrames) * frameBytes;
}

MrcPfcThresholdMode
MrcPfcThresholds::GetMode() const
{
    return m_mode;
}

uint64_t
MrcPfcThresholds::GetXoff(uint64_t freeBuffer) const
{
    if (m_mode == MrcPfcThresholdMode::DYNAMIC)
    {
        return static_cast<uint64_t>(m_alpha * static_cast<double>(freeBuffer));
    }
    return m_xoff;
}

uint64_t
MrcPfcThresholds::GetXon(uint64_t freeBuffer) const
{
    if (m_mode == MrcPfcThresholdMode::DYNAMIC)
    {
        const uint64_t xoff = GetXoff(freeBuffer);
        return xoff > m_xonOffset ? xoff - m_xonOffset : 0;
    }
    return m_xon;
}

} // namespace ns3
