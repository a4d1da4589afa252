/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-bgp-path-vector.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{
/**
 * \param n number of valid indices
 * \return "0..n-1" in words, or "(none)"
 */
std::string
Range(size_t n)
{
    return n == 0 ? std::string("(none)") : "0.." + std::to_string(n - 1);
}
} // namespace

MrcBgpPathVector::MrcBgpPathVector(uint32_t prefixes)
    : m_prefixes(prefixes)
    , m_paths(1) // path id 0: no path
{
}

uint32_t
MrcBgpPathVector::AddSpeaker(uint32_t asn, std::optional<uint32_t> origin)
{
    if (origin && *origin >= m_prefixes)
    {
        throw std::invalid_argument("MrcBgpPathVector::AddSpeaker: origin (="
                                    + std::to_string(*origin) + ") must be a prefix in "
                                    + Range(m_prefixes));
    }
    Speaker s;
    s.asn = asn;
    s.origin = origin;
    s.best.resize(m_prefixes);
    s.advertised.assign(m_prefixes, 0);
    if (origin)
    {
        s.advertised[*origin] = Intern({asn});
    }
    m_speakers.push_back(std::move(s));
    return m_speakers.size() - 1;
}

uint32_t
MrcBgpPathVector::AddSession(uint32_t a, uint32_t b)
{
    if (a >= m_speakers.size() || b >= m_speakers.size() || a == b)
    {
        throw std::invalid_argument("MrcBgpPathVector::AddSession: speakers (=" + std::to_string(a)
                                    + ", " + std::to_string(b)
                                    + ") must be two different speakers in "
                                    + Range(m_speakers.size()));
    }
    Session s;
    s.speakers = {a, b};
    s.ribIn[0].assign(m_prefixes, 0);
    s.ribIn[1].assign(m_prefixes, 0);
    m_sessions.push_back(std::move(s));
    const uint32_t id = m_sessions.size() - 1;
    m_speakers[a].sessions.emplace_back(id, 0);
    m_speakers[b].sessions.emplace_back(id, 1);
    return id;
}

uint32_t
MrcBgpPathVector::Intern(const std::vector<uint32_t>& path)
{
    auto it = m_ids.find(path);
    if (it != m_ids.end())
    {
        return it->second;
    }
    m_paths.push_back(path);
    const uint32_t id = m_paths.size() - 1;
    m_ids.emplace(path, id);
    return id;
}

uint32_t
MrcBgpPathVector::Prepend(uint32_t asn, uint32_t pathId)
{
    auto key = std::make_pair(asn, pathId);
    auto it = m_prepended.find(key);
    if (it != m_prepended.end())
    {
        return it->second;
    }
    std::vector<uint32_t> path{asn};
    path.insert(path.end(), m_paths[pathId].begin(), m_paths[pathId].end());
    const uint32_t id = Intern(path);
    m_prepended.emplace(key, id);
    return id;
}

MrcBgpPathVector::Decision
MrcBgpPathVector::Decide(uint32_t speaker, uint32_t prefix)
{
    Speaker& sp = m_speakers[speaker];
    if (sp.origin && *sp.origin == prefix)
    {
        return Decision{prefix, false, false}; // its own prefix: nothing to learn
    }
    size_t bestLength = std::numeric_limits<size_t>::max();
    std::vector<uint32_t> best;
    uint32_t bestPath = 0;
    for (const auto& [session, end] : sp.sessions)
    {
        const Session& s = m_sessions[session];
        const uint32_t pathId = s.ribIn[end][prefix];
        if (!s.up || pathId == 0)
        {
            continue;
        }
        const std::vector<uint32_t>& path = m_paths[pathId];
        if (std::find(path.begin(), path.end(), sp.asn) != path.end())
        {
            continue; // AS-path loop: the route is not usable
        }
        if (path.size() < bestLength)
        {
            bestLength = path.size();
            best.assign(1, session);
            bestPath = pathId;
        }
        else if (path.size() == bestLength)
        {
            best.push_back(session);
        }
    }
    const uint32_t advertised = best.empty() ? 0 : Prepend(sp.asn, bestPath);
    Decision d{prefix, best != sp.best[prefix], advertised != sp.advertised[prefix]};
    sp.best[prefix] = std::move(best);
    sp.advertised[prefix] = advertised;
    return d;
}

void
MrcBgpPathVector::Converge()
{
    struct Message
    {
        uint32_t session;
        uint32_t toEnd;
        Update update;
    };

    std::deque<Message> queue;
    auto advertise = [&](uint32_t speaker, const Update& update) {
        for (const auto& [session, end] : m_speakers[speaker].sessions)
        {
            if (m_sessions[session].up)
            {
                queue.push_back(Message{session, 1 - end, update});
            }
        }
    };
    std::vector<uint32_t> every(m_prefixes);
    for (uint32_t prefix = 0; prefix < m_prefixes; ++prefix)
    {
        every[prefix] = prefix;
    }
    for (uint32_t sp = 0; sp < m_speakers.size(); ++sp)
    {
        advertise(sp, GetAdvertisements(sp, every)); // withdrawals too: no stale route survives
    }
    while (!queue.empty())
    {
        const Message m = std::move(queue.front());
        queue.pop_front();
        std::vector<uint32_t> changed;
        for (const Decision& d : Receive(m.session, m.toEnd, m.update))
        {
            if (d.advertisementChanged)
            {
                changed.push_back(d.prefix);
            }
        }
        if (!changed.empty())
        {
            const uint32_t sp = m_sessions[m.session].speakers[m.toEnd];
            advertise(sp, GetAdvertisements(sp, changed));
        }
    }
}

std::array<std::vector<MrcBgpPathVector::Decision>, 2>
MrcBgpPathVector::SessionDown(uint32_t session)
{
    CheckedSession(session);
    Session& s = m_sessions[session];
    s.up = false;
    std::array<std::vector<Decision>, 2> out;
    for (uint32_t end = 0; end < 2; ++end)
    {
        for (uint32_t prefix = 0; prefix < m_prefixes; ++prefix)
        {
            if (s.ribIn[end][prefix] == 0)
            {
                continue;
            }
            s.ribIn[end][prefix] = 0;
            const Decision d = Decide(s.speakers[end], prefix);
            if (d.nextHopsChanged || d.advertisementChanged)
            {
                out[end].push_back(d);
            }
        }
    }
    return out;
}

void
MrcBgpPathVector::SessionUp(uint32_t session)
{
    CheckedSession(session);
    m_sessions[session].up = true;
}

std::vector<MrcBgpPathVector::Decision>
MrcBgpPathVector::Receive(uint32_t session, uint32_t toEnd, const Update& update)
{
    CheckedSession(session);
    if (toEnd > 1)
    {
        throw std::out_of_range("MrcBgpPathVector::Receive: toEnd (=" + std::to_string(toEnd)
                                + ") must be 0 or 1");
    }
    Session& s = m_sessions[session];
    std::vector<Decision> out;
    if (!s.up)
    {
        return out;
    }
    for (const auto& [prefix, pathId] : update)
    {
        if (prefix >= m_prefixes || pathId >= m_paths.size())
        {
            throw std::out_of_range("MrcBgpPathVector::Receive: prefix (=" + std::to_string(prefix)
                                    + ") or path id (=" + std::to_string(pathId) + ") unknown");
        }
        s.ribIn[toEnd][prefix] = pathId;
        const Decision d = Decide(s.speakers[toEnd], prefix);
        if (d.nextHopsChanged || d.advertisementChanged)
        {
            out.push_back(d);
        }
    }
    return out;
}

MrcBgpPathVector::Update
MrcBgpPathVector::GetAdvertisements(uint32_t speaker, const std::vector<uint32_t>& prefixes) const
{
    const Speaker& sp = CheckedSpeaker(speaker);
    Update u;
    u.reserve(prefixes.size());
    for (uint32_t prefix : prefixes)
    {
        u.emplace_back(prefix, sp.advertised.at(prefix));
    }
    return u;
}

MrcBgpPathVector::Update
MrcBgpPathVector::GetAllAdvertisements(uint32_t speaker) const
{
    const Speaker& sp = CheckedSpeaker(speaker);
    Update u;
    for (uint32_t prefix = 0; prefix < m_prefixes; ++prefix)
    {
        if (sp.advertised[prefix] != 0)
        {
            u.emplace_back(prefix, sp.advertised[prefix]);
        }
    }
    return u;
}

const std::vector<uint32_t>&
MrcBgpPathVector::GetBestSessions(uint32_t speaker, uint32_t prefix) const
{
    return CheckedSpeaker(speaker).best.at(prefix);
}

uint32_t
MrcBgpPathVector::GetAdvertisedPath(uint32_t speaker, uint32_t prefix) const
{
    return CheckedSpeaker(speaker).advertised.at(prefix);
}

const std::vector<uint32_t>&
MrcBgpPathVector::GetPath(uint32_t pathId) const
{
    return m_paths.at(pathId);
}

uint32_t
MrcBgpPathVector::GetSpeaker(uint32_t session, uint32_t end) const
{
    return CheckedSession(session).speakers.at(end);
}

const std::vector<std::pair<uint32_t, uint32_t>>&
MrcBgpPathVector::GetSessions(uint32_t speaker) const
{
    return CheckedSpeaker(speaker).sessions;
}

bool
MrcBgpPathVector::IsSessionUp(uint32_t session) const
{
    return CheckedSession(session).up;
}

uint32_t
MrcBgpPathVector::GetAsn(uint32_t speaker) const
{
    return CheckedSpeaker(speaker).asn;
}

uint32_t
MrcBgpPathVector::GetNPrefixes() const
{
    return m_prefixes;
}

const MrcBgpPathVector::Session&
MrcBgpPathVector::CheckedSession(uint32_t session) const
{
    if (session >= m_sessions.size())
    {
        throw std::out_of_range("MrcBgpPathVector: session (=" + std::to_string(session)
                                + ") must be in " + Range(m_sessions.size()));
    }
    return m_sessions[session];
}

const MrcBgpPathVector::Speaker&
MrcBgpPathVector::CheckedSpeaker(uint32_t speaker) const
{
    if (speaker >= m_speakers.size())
    {
        throw std::out_of_range("MrcBgpPathVector: speaker (=" + std::to_string(speaker)
                                + ") must be in " + Range(m_speakers.size()));
    }
    return m_speakers[speaker];
}

} // namespace ns3
