/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-transfer-event-log.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{
using Kind = MrcTransferEventLog::Kind;

/// \return a log of a few events of every kind, values that need all their bytes
MrcTransferEventLog
Sample()
{
    MrcTransferEventLog log;
    log.Add(NanoSeconds(5), 3, Kind::POSTED, 0x0102030405060708ULL);
    log.Add(NanoSeconds(7), 0xfffffffeU, Kind::PLACED, 4096);
    log.Add(Seconds(12), 1, Kind::COMPLETE, 1);
    log.Add(NanoSeconds(-3), 2, Kind::DELIVERED, 0);
    log.Add(NanoSeconds(9), 2, Kind::EV_STATE, 1);
    return log;
}
} // namespace

TEST(MrcTransferEventLog, SerializeRoundTripsEveryField)
{
    const MrcTransferEventLog log = Sample();
    const std::string bytes = log.Serialize();
    EXPECT_EQ(bytes.size(), 5u * 21u);
    const MrcTransferEventLog back = MrcTransferEventLog::Deserialize(bytes);
    ASSERT_EQ(back.GetSize(), log.GetSize());
    for (size_t i = 0; i < log.GetSize(); ++i)
    {
        const auto& a = log.GetEvents()[i];
        const auto& b = back.GetEvents()[i];
        EXPECT_EQ(a.time, b.time) << i;
        EXPECT_EQ(a.member, b.member) << i;
        EXPECT_EQ(a.kind, b.kind) << i;
        EXPECT_EQ(a.value, b.value) << i;
    }
    EXPECT_EQ(back.GetEvents()[3].time, NanoSeconds(-3).GetTimeStep()) << "negative times too";
}

TEST(MrcTransferEventLog, DeserializeRejectsPartialEventsAndUnknownKinds)
{
    std::string bytes = Sample().Serialize();
    EXPECT_THROW(MrcTransferEventLog::Deserialize(bytes.substr(0, bytes.size() - 1)),
                 std::invalid_argument);
    bytes[21 + 12] = 5; // the second event's kind
    try
    {
        MrcTransferEventLog::Deserialize(bytes);
        FAIL() << "kind 5 accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("event 1 has kind 5 (accepted: 0..4)"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(MrcTransferEventLog::Deserialize("").GetSize(), 0u);
}

TEST(MrcTransferEventLog, SortOrdersByTimeKindMemberAndKeepsTheRest)
{
    MrcTransferEventLog a;
    a.Add(NanoSeconds(10), 1, Kind::DELIVERED, 1);
    a.Add(NanoSeconds(10), 1, Kind::POSTED, 2);
    a.Add(NanoSeconds(10), 0, Kind::PLACED, 3);
    MrcTransferEventLog b;
    b.Add(NanoSeconds(4), 9, Kind::EV_STATE, 4);
    b.Add(NanoSeconds(10), 0, Kind::PLACED, 5); // equal keys to a's third: after it
    a.Append(b);
    a.Sort();
    std::string order;
    for (const auto& e : a.GetEvents())
    {
        order += std::to_string(e.value);
    }
    EXPECT_EQ(order, "42351");
    a.Clear();
    EXPECT_EQ(a.GetSize(), 0u);
}
