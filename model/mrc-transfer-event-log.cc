/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-transfer-event-log.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace ns3
{

namespace
{
/// Bytes of one serialized event: time (8), member (4), kind (1), value (8).
constexpr size_t kEventBytes = 21;

/**
 * Write an unsigned integer, little-endian.
 * \param out the bytes
 * \param v the value
 * \param n its width in bytes
 */
void
Put(std::string& out, uint64_t v, size_t n)
{
    for (size_t i = 0; i < n; ++i)
    {
        out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    }
}

/**
 * Read an unsigned integer, little-endian.
 * \param in the bytes
 * \param at where it starts
 * \param n its width in bytes
 * \return the value
 */
uint64_t
Get(const std::string& in, size_t at, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i)
    {
        v |= uint64_t(static_cast<uint8_t>(in[at + i])) << (8 * i);
    }
    return v;
}
} // namespace

void
MrcTransferEventLog::Add(Time time, uint32_t member, Kind kind, uint64_t value)
{
    m_events.push_back(Event{time.GetTimeStep(), member, kind, value});
}

const std::vector<MrcTransferEventLog::Event>&
MrcTransferEventLog::GetEvents() const
{
    return m_events;
}

size_t
MrcTransferEventLog::GetSize() const
{
    return m_events.size();
}

void
MrcTransferEventLog::Clear()
{
    m_events.clear();
}

void
MrcTransferEventLog::Append(const MrcTransferEventLog& other)
{
    m_events.insert(m_events.end(), other.m_events.begin(), other.m_events.end());
}

void
MrcTransferEventLog::Sort()
{
    std::stable_sort(m_events.begin(), m_events.end(), [](const Event& a, const Event& b) {
        return std::tie(a.time, a.kind, a.member) < std::tie(b.time, b.kind, b.member);
    });
}

std::string
MrcTransferEventLog::Serialize() const
{
    std::string out;
    out.reserve(m_events.size() * kEventBytes);
    for (const Event& e : m_events)
    {
        Put(out, static_cast<uint64_t>(e.time), 8);
        Put(out, e.member, 4);
        Put(out, static_cast<uint8_t>(e.kind), 1);
        Put(out, e.value, 8);
    }
    return out;
}

MrcTransferEventLog
MrcTransferEventLog::Deserialize(const std::string& bytes)
{
    if (bytes.size() % kEventBytes != 0)
    {
        throw std::invalid_argument("MrcTransferEventLog: " + std::to_string(bytes.size())
                                    + " bytes is not a whole number of "
                                    + std::to_string(kEventBytes) + "-byte events");
    }
    MrcTransferEventLog log;
    log.m_events.reserve(bytes.size() / kEventBytes);
    for (size_t at = 0; at < bytes.size(); at += kEventBytes)
    {
        const uint64_t kind = Get(bytes, at + 12, 1);
        if (kind > static_cast<uint64_t>(Kind::EV_STATE))
        {
            throw std::invalid_argument("MrcTransferEventLog: event "
                                        + std::to_string(at / kEventBytes) + " has kind "
                                        + std::to_string(kind) + " (accepted: 0..4)");
        }
        log.m_events.push_back(Event{static_cast<int64_t>(Get(bytes, at, 8)),
                                     static_cast<uint32_t>(Get(bytes, at + 8, 4)),
                                     static_cast<Kind>(kind),
                                     Get(bytes, at + 13, 8)});
    }
    return log;
}

} // namespace ns3
