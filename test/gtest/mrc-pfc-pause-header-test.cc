/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Wire format of the IEEE 802.1Qbb PFC PAUSE payload (MrcPfcPauseHeader) and malformed input.
 */

#include "mrc-header-test-util.h"

#include "ns3/mrc-pfc-pause-header.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <vector>

using namespace ns3;
using namespace ns3::mrcgtest;

TEST(MrcPfcPauseHeader, Format)
{
    CheckTypeId<MrcPfcPauseHeader>("ns3::MrcPfcPauseHeader");
    MrcPfcPauseHeader h;
    EXPECT_EQ(h.GetOpcode(), 0x0101);
    EXPECT_EQ(h.GetEnableVector(), 0);
    h.SetPauseTime(3, 0xffff);
    h.SetPauseTime(0, 0x1234);
    h.SetPauseTime(7, 0); // XON for 7
    std::vector<uint8_t> golden(46, 0);
    golden[0] = 0x01; // opcode 0x0101
    golden[1] = 0x01;
    golden[2] = 0x00; // enable vector 0x0089
    golden[3] = 0x89;
    golden[4] = 0x12; // priority 0
    golden[5] = 0x34;
    golden[10] = 0xff; // priority 3
    golden[11] = 0xff;
    EXPECT_EQ(Bytes(h), golden);
    uint32_t consumed = 0;
    MrcPfcPauseHeader r = Parse<MrcPfcPauseHeader>(golden, consumed);
    EXPECT_EQ(consumed, 46u);
    EXPECT_TRUE(r.IsValid()) << r.GetError();
    EXPECT_EQ(r.GetEnableVector(), 0x89);
    EXPECT_TRUE(r.IsEnabled(0));
    EXPECT_TRUE(r.IsEnabled(3));
    EXPECT_TRUE(r.IsEnabled(7));
    EXPECT_FALSE(r.IsEnabled(1));
    EXPECT_EQ(r.GetPauseTime(0), 0x1234);
    EXPECT_EQ(r.GetPauseTime(3), 0xffff);
    EXPECT_EQ(r.GetPauseTime(7), 0);
    EXPECT_EQ(Printed(r), "PFC opcode 0x0101 pause p0=4660 p3=65535 p7=0");
    CheckTruncations<MrcPfcPauseHeader>(golden, "MrcPfcPauseHeader");
    CheckErrorCleared<MrcPfcPauseHeader>(golden);
}

TEST(MrcPfcPauseHeader, MalformedInput)
{
    std::vector<uint8_t> bytes(46, 0);
    bytes[0] = 0x00; // 0x0001: 802.3x PAUSE, not PFC
    bytes[1] = 0x01;
    uint32_t consumed = 0;
    MrcPfcPauseHeader r = Parse<MrcPfcPauseHeader>(bytes, consumed);
    EXPECT_EQ(consumed, 46u);
    EXPECT_FALSE(r.IsValid());
    EXPECT_NE(r.GetError().find("opcode 0x0001"), std::string::npos) << r.GetError();
    EXPECT_NE(Printed(r).find("MALFORMED"), std::string::npos);

    bytes[1] = 0x01;
    bytes[0] = 0x01;
    bytes[2] = 0x01; // reserved bit 8 of the enable vector
    r = Parse<MrcPfcPauseHeader>(bytes, consumed);
    EXPECT_FALSE(r.IsValid());
    EXPECT_NE(r.GetError().find("reserved"), std::string::npos) << r.GetError();

    // Longer input: only 46 bytes are consumed, padding content is ignored.
    std::vector<uint8_t> longer(60, 0xaa);
    longer[0] = 0x01;
    longer[1] = 0x01;
    longer[2] = 0x00;
    longer[3] = 0x08;
    r = Parse<MrcPfcPauseHeader>(longer, consumed);
    EXPECT_EQ(consumed, 46u);
    EXPECT_TRUE(r.IsValid()) << r.GetError();
    EXPECT_EQ(r.GetEnableVector(), 0x08);
    EXPECT_EQ(r.GetPauseTime(3), 0xaaaa);
}

TEST(MrcPfcPauseHeader, RangesAndQuanta)
{
    MrcPfcPauseHeader h;
    ExpectInvalid(
        [&] {
            h.SetPauseTime(8, 1);
        },
        "priority");
    ExpectInvalid(
        [&] {
            h.GetPauseTime(8);
        },
        "priority");
    ExpectInvalid(
        [&] {
            h.IsEnabled(200);
        },
        "priority");
    // 65535 quanta x 512 bit = 33553920 bit: 335.5392 us at 100 Gb/s, 1342.1568 us at 25 Gb/s.
    EXPECT_EQ(MrcPfcPauseHeader::QuantaToNanoSeconds(0xffff, 100000000000ULL), 335540u);
    EXPECT_EQ(MrcPfcPauseHeader::QuantaToNanoSeconds(0xffff, 25000000000ULL), 1342157u);
    EXPECT_EQ(MrcPfcPauseHeader::QuantaToNanoSeconds(1, 512000000000ULL), 1u);
    EXPECT_EQ(MrcPfcPauseHeader::QuantaToNanoSeconds(0, 1), 0u);
    ExpectInvalid(
        [] {
            MrcPfcPauseHeader::QuantaToNanoSeconds(1, 0);
        },
        "rate");
}
