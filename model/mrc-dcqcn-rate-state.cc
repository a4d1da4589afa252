/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-dcqcn-rate-state.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{

MrcDcqcnRateState::Params
MrcDcqcnRateState::Params::Paper(double lineRate)
{
    Params p;
    p.lineRate = lineRate;
    p.minRate = 100e6;
    p.g = 1.0 / 256;
    p.byteCounter = 10'000'000;
    p.fastRecoverySteps = 5;
    p.additiveIncrease = 40e6;
    p.hyperIncrease = 400e6;
    p.clampTargetRate = true;
    return p;
}

MrcDcqcnRateState::MrcDcqcnRateState(const Params& params)
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
    if (!(params.additiveIncrease >= 0 && params.hyperIncrease >= 0))
    {
        throw std::invalid_argument("DCQCN: RateAi and RateHai must be >= 0");
    }
}

void
MrcDcqcnRateState::Cut()
{
    if (m_params.clampTargetRate || (m_params.clampAfterTimeIncrease && m_t > 0))
    {
        m_rt = m_rc;
    }
    m_rc = std::max(m_params.minRate, m_rc * (1 - m_alpha / 2));
    m_t = 0;
    m_bc = 0;
    m_bytes = 0;
}

void
MrcDcqcnRateState::UpdateAlpha(bool congested)
{
    m_alpha = (1 - m_params.g) * m_alpha + (congested ? m_params.g : 0.0);
}

void
MrcDcqcnRateState::DecayAlpha(uint64_t periods)
{
    m_alpha *= std::pow(1 - m_params.g, static_cast<double>(periods));
}

void
MrcDcqcnRateState::OnIncreaseTimer()
{
    ++m_t;
    Increase();
}

void
MrcDcqcnRateState::OnBytesSent(uint64_t bytes)
{
    if (m_params.byteCounter == 0)
    {
        return;
    }
    m_bytes += bytes;
    while (m_bytes >= m_params.byteCounter)
    {
        m_bytes -= m_params.byteCounter;
        ++m_bc;
        Increase();
    }
}

void
MrcDcqcnRateState::Increase()
{
    const uint32_t f = m_params.fastRecoverySteps;
    if (m_params.byteCounter == 0)
    {
        // The timer stage alone, counted from 0 before this event.
        const uint32_t stage = m_t - 1;
        if (stage == f)
        {
            m_rt += m_params.additiveIncrease;
        }
        else if (stage > f)
        {
            m_rt += m_params.hyperIncrease;
        }
    }
    else if (std::max(m_t, m_bc) < f)
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
MrcDcqcnRateState::GetRate() const
{
    return m_rc;
}

double
MrcDcqcnRateState::GetTargetRate() const
{
    return m_rt;
}

double
MrcDcqcnRateState::GetAlpha() const
{
    return m_alpha;
}

uint32_t
MrcDcqcnRateState::GetTimerStage() const
{
    return m_t;
}

uint32_t
MrcDcqcnRateState::GetByteStage() const
{
    return m_bc;
}

bool
MrcDcqcnRateState::IsAtLineRate() const
{
    return m_rc >= m_params.lineRate;
}

} // namespace ns3
