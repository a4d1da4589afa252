/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-receive-state.h"

#include "mrc-header-types.h"

#include <stdexcept>
#include <string>

namespace ns3
{

MrcReceiveState::MrcReceiveState(uint32_t window, uint32_t firstPsn)
    : m_window(window)
    , m_cum(firstPsn & kMrcPsnMask)
    , m_bits(window)
{
    if (window < 64 || window > (1u << 23))
    {
        throw std::invalid_argument("MrcReceiveState: window (=" + std::to_string(window)
                                    + ") must be in 64..8388608 PSNs");
    }
}

MrcReceiveState::Verdict
MrcReceiveState::Accept(uint32_t psn)
{
    const int32_t offset = MrcPsnDiff(psn, m_cum);
    if (offset < 0)
    {
        return Verdict::DUPLICATE;
    }
    if (uint32_t(offset) >= m_window)
    {
        return Verdict::OUT_OF_WINDOW;
    }
    const size_t bit = (m_base + offset) % m_window;
    if (m_bits.test(bit))
    {
        return Verdict::DUPLICATE;
    }
    m_bits.set(bit);
    ++m_outOfOrder;
    while (m_bits.test(m_base))
    {
        m_bits.reset(m_base);
        m_base = (m_base + 1) % m_window;
        m_cum = MrcPsnAdd(m_cum, 1);
        --m_outOfOrder;
    }
    return Verdict::NEW;
}

uint32_t
MrcReceiveState::GetCumulativePsn() const
{
    return m_cum;
}

uint64_t
MrcReceiveState::GetBitmap(uint32_t base) const
{
    uint64_t bitmap = 0;
    const int32_t start = MrcPsnDiff(base, m_cum);
    for (int32_t i = 0; i < 64; ++i)
    {
        const int32_t offset = start + i;
        if (offset >= 0 && uint32_t(offset) < m_window
            && m_bits.test((m_base + uint32_t(offset)) % m_window))
        {
            bitmap |= uint64_t(1) << i;
        }
    }
    return bitmap;
}

uint32_t
MrcReceiveState::GetSackBase(uint32_t psn) const
{
    const int32_t offset = MrcPsnDiff(psn, m_cum);
    return offset < 64 ? m_cum : MrcPsnAdd(psn, kMrcPsnMask + 1 - 63);
}

uint32_t
MrcReceiveState::GetOutOfOrderCount() const
{
    return m_outOfOrder;
}

std::optional<MrcReceiveState::Completed>
MrcReceiveState::Place(uint32_t msn,
                       uint64_t length,
                       uint32_t bytes,
                       std::optional<uint32_t> immediate,
                       bool immediateExpected)
{
    Message& m = m_messages[msn];
    m.length = length;
    m.placed += bytes;
    m.immediateExpected = m.immediateExpected || immediateExpected;
    if (immediate)
    {
        m.immediate = immediate;
    }
    m_bytes += bytes;
    if (m.placed < m.length || (m.immediateExpected && !m.immediate))
    {
        return std::nullopt;
    }
    Completed done{msn, m.length, m.immediate};
    m_messages.erase(msn);
    return done;
}

uint64_t
MrcReceiveState::GetBytesPlaced() const
{
    return m_bytes;
}

} // namespace ns3
