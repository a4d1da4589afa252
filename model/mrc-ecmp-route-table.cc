/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ecmp-route-table.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace ns3
{

MrcEcmpRouteTable::Key
MrcEcmpRouteTable::MakeKey(Ipv6Address address, uint8_t prefixLength)
{
    std::array<uint8_t, 16> bytes{};
    address.GetBytes(bytes.data());
    Key key{0, 0};
    for (unsigned i = 0; i < 8; ++i)
    {
        key.hi = (key.hi << 8) | bytes[i];
        key.lo = (key.lo << 8) | bytes[i + 8];
    }
    return Mask(key, prefixLength);
}

MrcEcmpRouteTable::Key
MrcEcmpRouteTable::Mask(Key key, uint8_t prefixLength)
{
    const auto keep = [](unsigned bits) { // the first bits (0..64) of a 64-bit half
        return bits == 0 ? 0 : bits >= 64 ? ~uint64_t{0} : ~uint64_t{0} << (64 - bits);
    };
    const unsigned length = std::min<unsigned>(prefixLength, 128);
    key.hi &= keep(std::min(length, 64U));
    key.lo &= keep(length > 64 ? length - 64 : 0);
    return key;
}

Ipv6Address
MrcEcmpRouteTable::ToAddress(const Key& key)
{
    std::array<uint8_t, 16> bytes{};
    for (unsigned i = 0; i < 8; ++i)
    {
        bytes[i] = static_cast<uint8_t>(key.hi >> (56 - 8 * i));
        bytes[i + 8] = static_cast<uint8_t>(key.lo >> (56 - 8 * i));
    }
    return Ipv6Address(bytes.data());
}

bool
MrcEcmpRouteTable::Refresh(Group& group) const
{
    m_stale = true;
    std::vector<uint32_t> active;
    active.reserve(group.members.size());
    for (uint32_t m : group.members)
    {
        if (group.withdrawn.count(m) == 0 && m_withdrawn.count(m) == 0)
        {
            active.push_back(m);
        }
    }
    const bool changed = active != group.active;
    group.active = std::move(active);
    return changed;
}

void
MrcEcmpRouteTable::AddRoute(Ipv6Address network,
                            uint8_t prefixLength,
                            const std::vector<uint32_t>& interfaces)
{
    if (prefixLength > 128)
    {
        throw std::invalid_argument("MrcEcmpRouteTable::AddRoute: prefixLength (="
                                    + std::to_string(prefixLength) + ") must be in 0..128");
    }
    if (interfaces.empty())
    {
        throw std::invalid_argument(
            "MrcEcmpRouteTable::AddRoute: interfaces must name at least one "
            "next hop");
    }
    Group& group = m_routes[prefixLength][MakeKey(network, prefixLength)];
    for (uint32_t i : interfaces)
    {
        if (std::find(group.members.begin(), group.members.end(), i) == group.members.end())
        {
            group.members.push_back(i);
        }
    }
    Refresh(group);
}

bool
MrcEcmpRouteTable::RemoveRoute(Ipv6Address network, uint8_t prefixLength)
{
    auto it = m_routes.find(prefixLength);
    if (it == m_routes.end() || it->second.erase(MakeKey(network, prefixLength)) == 0)
    {
        return false;
    }
    m_stale = true;
    if (it->second.empty())
    {
        m_routes.erase(it);
    }
    return true;
}

uint32_t
MrcEcmpRouteTable::SetNextHopEnabled(uint32_t interface, bool enabled)
{
    if (enabled)
    {
        m_withdrawn.erase(interface);
    }
    else
    {
        m_withdrawn.insert(interface);
    }
    uint32_t changed = 0;
    for (auto& [length, routes] : m_routes)
    {
        for (auto& [key, group] : routes)
        {
            changed += Refresh(group) ? 1 : 0;
        }
    }
    return changed;
}

bool
MrcEcmpRouteTable::SetNextHopEnabled(Ipv6Address network,
                                     uint8_t prefixLength,
                                     uint32_t interface,
                                     bool enabled)
{
    auto it = m_routes.find(prefixLength);
    if (it == m_routes.end())
    {
        return false;
    }
    auto git = it->second.find(MakeKey(network, prefixLength));
    if (git == it->second.end())
    {
        return false;
    }
    Group& group = git->second;
    if (std::find(group.members.begin(), group.members.end(), interface) == group.members.end())
    {
        return false;
    }
    if (enabled)
    {
        group.withdrawn.erase(interface);
    }
    else
    {
        group.withdrawn.insert(interface);
    }
    Refresh(group);
    return true;
}

bool
MrcEcmpRouteTable::SetRouteNextHops(Ipv6Address network,
                                    uint8_t prefixLength,
                                    const std::vector<uint32_t>& interfaces)
{
    if (prefixLength > 128)
    {
        throw std::invalid_argument("MrcEcmpRouteTable::SetRouteNextHops: prefixLength (="
                                    + std::to_string(prefixLength) + ") must be in 0..128");
    }
    auto it = m_routes.find(prefixLength);
    const Key key = MakeKey(network, prefixLength);
    if (it == m_routes.end() || it->second.count(key) == 0)
    {
        if (interfaces.empty())
        {
            return false;
        }
        AddRoute(network, prefixLength, interfaces);
        return true;
    }
    Group& group = it->second.at(key);
    for (uint32_t i : interfaces)
    {
        if (std::find(group.members.begin(), group.members.end(), i) == group.members.end())
        {
            group.members.push_back(i);
        }
    }
    group.withdrawn.clear();
    for (uint32_t m : group.members)
    {
        if (std::find(interfaces.begin(), interfaces.end(), m) == interfaces.end())
        {
            group.withdrawn.insert(m);
        }
    }
    return Refresh(group);
}

std::optional<MrcEcmpRouteTable::Route>
MrcEcmpRouteTable::GetRoute(Ipv6Address network, uint8_t prefixLength) const
{
    auto it = m_routes.find(prefixLength);
    if (it == m_routes.end())
    {
        return std::nullopt;
    }
    auto git = it->second.find(MakeKey(network, prefixLength));
    if (git == it->second.end())
    {
        return std::nullopt;
    }
    return Route{ToAddress(git->first), prefixLength, git->second.members, git->second.active};
}

bool
MrcEcmpRouteTable::IsNextHopEnabled(uint32_t interface) const
{
    return m_withdrawn.count(interface) == 0;
}

uint64_t
MrcEcmpRouteTable::SlotHash(const Key& key, uint8_t prefixLength)
{
    // A masked key's low bits are often all zero (a /48's), so mix every bit into them.
    uint64_t h = key.hi * 0x9e3779b97f4a7c15ULL ^ (key.lo + prefixLength);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return h;
}

void
MrcEcmpRouteTable::Compile() const
{
    size_t n = 0;
    m_levels.clear();
    for (const auto& [length, routes] : m_routes) // longest first
    {
        size_t active = 0;
        // A filter on the first 32 bits needs them all in the prefix.
        Level level{length, length < 32 ? kNoFilter : uint8_t(0)};
        for (const auto& [key, group] : routes)
        {
            if (group.active.empty())
            {
                continue;
            }
            ++active;
            const auto top = static_cast<uint32_t>(key.hi >> 32);
            if (!level.MayMatch(top))
            {
                if (level.tops < kLevelTops)
                {
                    level.top[level.tops++] = top;
                }
                else
                {
                    level.tops = kNoFilter; // too many values
                }
            }
        }
        if (active > 0)
        {
            m_levels.push_back(level);
            n += active;
        }
    }
    size_t size = 8;
    while (size < 2 * n) // at most half full: short probe runs
    {
        size *= 2;
    }
    m_slots.assign(size, Slot{Key{0, 0}, nullptr, 0, 0});
    for (const auto& [length, routes] : m_routes)
    {
        for (const auto& [key, group] : routes)
        {
            if (group.active.empty())
            {
                continue;
            }
            size_t i = SlotHash(key, length) & (size - 1);
            while (m_slots[i].active)
            {
                i = (i + 1) & (size - 1);
            }
            m_slots[i] = Slot{key, &group.active, group.active.front(), length};
        }
    }
    m_stale = false;
}

const std::vector<uint32_t>*
MrcEcmpRouteTable::Lookup(Ipv6Address destination) const
{
    const Slot* slot = Find(destination);
    return slot ? slot->active : nullptr;
}

std::optional<uint32_t>
MrcEcmpRouteTable::LookupFirst(Ipv6Address destination) const
{
    const Slot* slot = Find(destination);
    return slot ? std::optional<uint32_t>(slot->first) : std::nullopt;
}

const MrcEcmpRouteTable::Slot*
MrcEcmpRouteTable::Find(Ipv6Address destination) const
{
    if (m_stale)
    {
        Compile();
    }
    const Key full = MakeKey(destination, 128);
    const auto top = static_cast<uint32_t>(full.hi >> 32);
    const size_t mask = m_slots.size() - 1;
    for (const Level& level : m_levels)
    {
        if (!level.MayMatch(top))
        {
            continue; // no route of this length starts so
        }
        const uint8_t length = level.length;
        const Key key = Mask(full, length);
        for (size_t i = SlotHash(key, length) & mask; m_slots[i].active; i = (i + 1) & mask)
        {
            const Slot& slot = m_slots[i];
            if (slot.prefixLength == length && slot.key == key)
            {
                return &slot;
            }
        }
    }
    return nullptr;
}

uint32_t
MrcEcmpRouteTable::GetNRoutes() const
{
    uint32_t n = 0;
    for (const auto& [length, routes] : m_routes)
    {
        n += routes.size();
    }
    return n;
}

std::vector<MrcEcmpRouteTable::Route>
MrcEcmpRouteTable::GetRoutes() const
{
    std::vector<Route> out;
    for (const auto& [length, routes] : m_routes)
    {
        std::vector<std::pair<Key, const Group*>> sorted;
        for (const auto& [key, group] : routes)
        {
            sorted.emplace_back(key, &group);
        }
        std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
            return a.first.hi != b.first.hi ? a.first.hi < b.first.hi : a.first.lo < b.first.lo;
        });
        for (const auto& [key, group] : sorted)
        {
            out.push_back(Route{ToAddress(key), length, group->members, group->active});
        }
    }
    return out;
}

} // namespace ns3
