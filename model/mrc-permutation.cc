/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-permutation.h"

#include "ns3/integer.h"
#include "ns3/mrc-permutation-helper.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcPermutation);

TypeId
MrcPermutation::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcPermutation")
            .SetParent<MrcCollective>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcPermutation>()
            .AddAttribute("Shift",
                          "Rank r writes to r + Shift mod n (Shift mod n = 0: a random "
                          "derangement).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcPermutation::m_shift),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Stream",
                          "RNG stream of the random derangement.",
                          IntegerValue(0),
                          MakeIntegerAccessor(&MrcPermutation::m_stream),
                          MakeIntegerChecker<int64_t>(0));
    return tid;
}

std::string
MrcPermutation::GetName() const
{
    return "permutation";
}

Time
MrcPermutation::GetIdealTime() const
{
    return GetLineRate().Transfer(m_size, GetMaxLinks());
}

void
MrcPermutation::SetDestinations(const std::vector<uint32_t>& destinations)
{
    for (uint32_t r = 0; r < destinations.size(); ++r)
    {
        if (destinations[r] >= destinations.size() || destinations[r] == r)
        {
            throw std::invalid_argument(
                "MrcPermutation: destinations[" + std::to_string(r) + "] must be a rank 0.."
                + std::to_string(destinations.size() - 1) + " other than " + std::to_string(r));
        }
    }
    std::vector<bool> hit(destinations.size(), false);
    for (uint32_t d : destinations)
    {
        if (hit[d])
        {
            throw std::invalid_argument("MrcPermutation: destinations must be a permutation ("
                                        + std::to_string(d) + " repeats)");
        }
        hit[d] = true;
    }
    m_destinations = destinations;
}

const std::vector<uint32_t>&
MrcPermutation::GetDestinations() const
{
    return m_destinations;
}

void
MrcPermutation::DoSetup()
{
    const uint32_t n = GetRankCount();
    if (!m_destinations.empty() && m_destinations.size() != n)
    {
        throw std::invalid_argument("MrcPermutation: destinations must have one entry per rank ("
                                    + std::to_string(n) + ")");
    }
    if (m_destinations.empty())
    {
        if (m_shift % n != 0)
        {
            for (uint32_t r = 0; r < n; ++r)
            {
                m_destinations.push_back((r + m_shift) % n);
            }
        }
        else
        {
            Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
            rng->SetStream(m_stream);
            m_destinations = MrcPermutationHelper::Derangement(n, rng);
        }
    }
}

std::vector<std::pair<uint32_t, uint32_t>>
MrcPermutation::GetPeerPairs() const
{
    const uint32_t n = GetRankCount();
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t r = 0; r < n; ++r)
    {
        pairs.emplace_back(r, m_destinations[r]);
    }
    return pairs;
}

uint32_t
MrcPermutation::GetTransferCount() const
{
    return GetRankCount();
}

void
MrcPermutation::DoStart()
{
    for (uint32_t r = 0; r < GetRankCount(); ++r)
    {
        Post(r, m_destinations[r], m_size);
    }
}

std::vector<MrcCollective::PlannedTransfer>
MrcPermutation::GetPlannedTransfers(uint32_t src, uint32_t dst) const
{
    if (src < m_destinations.size() && m_destinations[src] == dst)
    {
        return {{m_size, 0}};
    }
    return {};
}

} // namespace ns3
