/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dcqcn-rate-state.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

DcqcnRateState::DcqcnRateState(const Params& params)
    : m_params(params)
    , m_rc(params.lineRate)
    , m_rt(params.lineRate)
{
    if (!(params.lineRate > 0))
    {
        throw std::invalid_argument("DCQCN: line rate must be > 0 bit/s");
    }
    if (!(params.minRate > 0 && params.minRate <= params.lineRate))
    {
        throw std::invalid_argument("DCQCN: MinRate (=" + std::to_string(params.minRate)
                                    + " bit/s) must be in (0, line rate]");
    }
    if (!(params.g > 0 && params.g <= 1))
    {
        throw std::invalid_argument("DCQCN: G (=" + std::to_string(params.g)
                                    + ") must be in (0, 1]");
    }
    if (params.byteCounter == 0)
    {
        throw std::invalid_argument("DCQCN: ByteCounter must be >= 1 byte");
    }
    if (!(params.additiveIncrease >= 0 && params.hyperIncrease >= 0))
    {
        throw std::invalid_argument("DCQCN: RateAi and RateHai must be >= 0");
    }
}

void
DcqcnRateState::OnCnp()
{
    m_rt = m_rc;
    m_rc = std::max(m_params.minRate, m_rc * (1 - m_alpha / 2));
    m_alpha = (1 - m_params.g) * m_alpha + m_params.g;
    m_t = 0;
    m_bc = 0;
    m_bytes = 0;
}

void
DcqcnRateState::OnAlphaTimer()
{
    m_alpha = (1 - m_params.g) * m_alpha;
}

void
DcqcnRateState::OnIncreaseTimer()
{
    ++m_t;
    Increase();
}

void
DcqcnRateState::OnBytesSent(uint64_t bytes)
{
    m_bytes += bytes;
    while (m_bytes >= m_params.byteCounter)
    {
        m_bytes -= m_params.byteCounter;
        ++m_bc;
        Increase();
    }
}

void
DcqcnRateState::Increase()
{
    const uint32_t f = m_params.fastRecoverySteps;
    if (std::max(m_t, m_bc) < f)
    {
        // Fast recovery: halfway back to the rate before the cut.
    }
    else if (std::min(m_t, m_bc) > f)
    {
        m_rt += (std::min(m_t, m_bc) - f) * m_params.hyperIncrease;
    }
    else
    {
        m_rt += m_params.additiveIncrease;
    }
    m_rt = std::min(m_rt, m_params.lineRate);
    m_rc = std::min(m_params.lineRate, (m_rt + m_rc) / 2);
    if (m_params.lineRate - m_rc < m_params.lineRate * 1e-6)
    {
        m_rc = m_params.lineRate; // halving converges only in the limit
    }
}

double
DcqcnRateState::GetRate() const
{
    return m_rc;
}

double
DcqcnRateState::GetTargetRate() const
{
    return m_rt;
}

double
DcqcnRateState::GetAlpha() const
{
    return m_alpha;
}

uint32_t
DcqcnRateState::GetTimerStage() const
{
    return m_t;
}

uint32_t
DcqcnRateState::GetByteStage() const
{
    return m_bc;
}

bool
DcqcnRateState::IsAtLineRate() const
{
    return m_rc >= m_params.lineRate;
}

} // namespace ns3
