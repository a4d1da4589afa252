/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-line-rate-model.h"

#include <gtest/gtest.h>
#include <numeric>
#include <stdexcept>

using namespace ns3;

namespace
{
/// 100 Gb/s ports, 1 us links, 1000-byte packets with no header: easy arithmetic.
MrcLineRateModel
Simple(uint32_t planes)
{
    return MrcLineRateModel(100e9, planes, MicroSeconds(1), 1000, 0);
}
} // namespace

TEST(MrcLineRateModel, ChunksCarryTheRemainderOnTheFirstChunks)
{
    EXPECT_EQ(MrcLineRateModel::Chunks(10, 4), (std::vector<uint64_t>{3, 3, 2, 2}));
    EXPECT_EQ(MrcLineRateModel::Chunks(8, 4), (std::vector<uint64_t>{2, 2, 2, 2}));
    EXPECT_EQ(MrcLineRateModel::Chunks(2, 4), (std::vector<uint64_t>{1, 1, 0, 0}));
    const auto c = MrcLineRateModel::Chunks(1000003, 7);
    EXPECT_EQ(std::accumulate(c.begin(), c.end(), uint64_t(0)), 1000003u);
    EXPECT_EQ(c.front() - c.back(), 1u);
    EXPECT_THROW(MrcLineRateModel::Chunks(10, 0), std::invalid_argument);
}

TEST(MrcLineRateModel, SerializationUsesEveryPlaneAndCountsHeaders)
{
    // 1 MB at 100 Gb/s = 80 us; two planes halve it.
    EXPECT_EQ(Simple(1).Serialize(1000000), MicroSeconds(80));
    EXPECT_EQ(Simple(2).Serialize(1000000), MicroSeconds(40));
    // 100 header bytes per 1000-byte packet: 10 % more wire bytes; a partial packet pays too.
    MrcLineRateModel withHeaders(100e9, 1, MicroSeconds(1), 1000, 100);
    EXPECT_EQ(withHeaders.Serialize(1000000), MicroSeconds(88));
    EXPECT_EQ(withHeaders.Serialize(1), PicoSeconds(8080));
}

TEST(MrcLineRateModel, LatencyIsPropagationPlusStoreAndForward)
{
    // 4 links: 4 us propagation + 3 switches x 80 ns (1000 B at 100 Gb/s).
    EXPECT_EQ(Simple(1).Latency(4), MicroSeconds(4) + NanoSeconds(240));
    EXPECT_EQ(Simple(1).Latency(1), MicroSeconds(1));
    EXPECT_THROW(Simple(1).Latency(0), std::invalid_argument);
    EXPECT_EQ(Simple(1).Transfer(1000000, 4), MicroSeconds(84) + NanoSeconds(240));
    // Only the last packet is stored and forwarded at the end: a 500-byte tail costs 40 ns per
    // switch, not 80.
    EXPECT_EQ(Simple(1).Latency(2, 1500), MicroSeconds(2) + NanoSeconds(40));
    EXPECT_EQ(Simple(1).Transfer(1500, 2), NanoSeconds(120) + MicroSeconds(2) + NanoSeconds(40));
    EXPECT_EQ(Simple(1).Latency(2, 2000), Simple(1).Latency(2));
}

TEST(MrcLineRateModel, CollectiveFormulas)
{
    const MrcLineRateModel m = Simple(1);
    // Ring all-reduce of 4 MB on 4 ranks: 6 steps of 1 MB (80 us) + 2 links (2 us + 80 ns).
    const Time step = MicroSeconds(82) + NanoSeconds(80);
    EXPECT_EQ(m.RingAllReduce(4, 4000000, 2), step * 6);
    EXPECT_EQ(m.AllGather(4, 4000000, 2), step * 3);
    // All-to-all: each host sends 3 chunks of 1 MB at once.
    EXPECT_EQ(m.AllToAll(4, 4000000, 2), MicroSeconds(240) + MicroSeconds(2) + NanoSeconds(80));
    // Incast 7 x 1 MB into one host.
    EXPECT_EQ(m.Incast(7, 1000000, 2), MicroSeconds(560) + MicroSeconds(2) + NanoSeconds(80));
    // Senders at 2 and 4 links: the receiver's links from the nearest one's latency on...
    EXPECT_EQ(m.Incast(7, 1000000, 2, 4), MicroSeconds(560) + MicroSeconds(2) + NanoSeconds(80));
    EXPECT_EQ(m.Incast(7, 1000000, 4), MicroSeconds(560) + MicroSeconds(4) + NanoSeconds(240));
    EXPECT_EQ(m.Incast(7, 1000000, 3, 3), m.Incast(7, 1000000, 3));
    // ... but never less than the farthest sender's own transfer.
    EXPECT_EQ(m.Incast(1, 1000000, 2, 4), m.Transfer(1000000, 4));
    EXPECT_THROW(m.Incast(7, 1000000, 4, 2), std::invalid_argument);
    // Degenerate sizes.
    EXPECT_EQ(m.RingAllReduce(1, 4000000, 2), Time(0));
    EXPECT_EQ(m.Incast(0, 1000000, 2), Time(0));
    // A remainder makes every step as long as the largest chunk.
    EXPECT_EQ(m.RingAllReduce(3, 3001, 2), m.Transfer(1001, 2) * 4);
}

TEST(MrcLineRateModel, RejectsBadParameters)
{
    EXPECT_THROW(MrcLineRateModel(0, 1, MicroSeconds(1), 1000, 0), std::invalid_argument);
    EXPECT_THROW(MrcLineRateModel(1e9, 0, MicroSeconds(1), 1000, 0), std::invalid_argument);
    EXPECT_THROW(MrcLineRateModel(1e9, 1, MicroSeconds(-1), 1000, 0), std::invalid_argument);
    EXPECT_THROW(MrcLineRateModel(1e9, 1, MicroSeconds(1), 0, 0), std::invalid_argument);
}
