/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-line-rate-model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{

MrcLineRateModel::MrcLineRateModel(double portRateBps,
                                   uint32_t planes,
                                   Time linkDelay,
                                   uint32_t mss,
                                   uint32_t overhead)
    : m_portRateBps(portRateBps)
    , m_planes(planes)
    , m_linkDelay(linkDelay)
    , m_mss(mss)
    , m_overhead(overhead)
{
    if (!(portRateBps > 0))
    {
        throw std::invalid_argument("MrcLineRateModel: portRate must be > 0 bit/s");
    }
    if (planes == 0)
    {
        throw std::invalid_argument("MrcLineRateModel: planes must be >= 1");
    }
    if (linkDelay.IsStrictlyNegative())
    {
        throw std::invalid_argument("MrcLineRateModel: linkDelay must be >= 0");
    }
    if (mss == 0)
    {
        throw std::invalid_argument("MrcLineRateModel: mss must be >= 1");
    }
}

Time
MrcLineRateModel::Serialize(uint64_t bytes) const
{
    const uint64_t packets = (bytes + m_mss - 1) / m_mss;
    const double wire = static_cast<double>(bytes + packets * m_overhead);
    return PicoSeconds(std::llround(wire * 8e12 / (m_portRateBps * m_planes)));
}

Time
MrcLineRateModel::Latency(uint32_t links) const
{
    if (links == 0)
    {
        throw std::invalid_argument("MrcLineRateModel::Latency: links must be >= 1");
    }
    const double packet = static_cast<double>(m_mss + m_overhead) * 8e12 / m_portRateBps;
    return m_linkDelay * int64_t(links) + PicoSeconds(std::llround(packet * (links - 1)));
}

Time
MrcLineRateModel::Latency(uint32_t links, uint64_t bytes) const
{
    if (links == 0)
    {
        throw std::invalid_argument("MrcLineRateModel::Latency: links must be >= 1");
    }
    // The message's last packet: what the last switch must receive whole before sending on.
    const uint64_t last = (bytes == 0) ? 0 : bytes - (bytes - 1) / m_mss * m_mss;
    const double packet = static_cast<double>(last + m_overhead) * 8e12 / m_portRateBps;
    return m_linkDelay * int64_t(links) + PicoSeconds(std::llround(packet * (links - 1)));
}

Time
MrcLineRateModel::Transfer(uint64_t bytes, uint32_t links) const
{
    return Serialize(bytes) + Latency(links, bytes);
}

Time
MrcLineRateModel::RingAllReduce(uint32_t n, uint64_t size, uint32_t links) const
{
    if (n < 2)
    {
        return Time(0);
    }
    return Transfer(Chunks(size, n).front(), links) * int64_t(2 * (n - 1));
}

Time
MrcLineRateModel::AllGather(uint32_t n, uint64_t size, uint32_t links) const
{
    if (n < 2)
    {
        return Time(0);
    }
    return Transfer(Chunks(size, n).front(), links) * int64_t(n - 1);
}

Time
MrcLineRateModel::AllToAll(uint32_t n, uint64_t size, uint32_t links) const
{
    if (n < 2)
    {
        return Time(0);
    }
    const uint64_t chunk = Chunks(size, n).front();
    return Serialize(chunk * (n - 1)) + Latency(links, chunk);
}

Time
MrcLineRateModel::Incast(uint32_t senders, uint64_t size, uint32_t links) const
{
    return Incast(senders, size, links, links);
}

Time
MrcLineRateModel::Incast(uint32_t senders, uint64_t size, uint32_t nearest, uint32_t farthest) const
{
    if (farthest < nearest)
    {
        throw std::invalid_argument("MrcLineRateModel::Incast: farthest (="
                                    + std::to_string(farthest)
                                    + ") must be >= nearest (=" + std::to_string(nearest) + ")");
    }
    if (senders == 0)
    {
        return Time(0);
    }
    return std::max(Serialize(size * senders) + Latency(nearest, size), Transfer(size, farthest));
}

std::vector<uint64_t>
MrcLineRateModel::Chunks(uint64_t total, uint32_t n)
{
    if (n == 0)
    {
        throw std::invalid_argument("MrcLineRateModel::Chunks: n must be >= 1");
    }
    std::vector<uint64_t> chunks(n, total / n);
    for (uint64_t i = 0; i < total % n; ++i)
    {
        chunks[i]++;
    }
    return chunks;
}

} // namespace ns3
