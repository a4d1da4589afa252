/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/buffer.h"
#include "ns3/packet.h"
#include "ns3/segment-routing-header.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

/// \return the bytes a header serialises to
std::vector<uint8_t>
Bytes(const SegmentRoutingHeader& h)
{
    Buffer b;
    b.AddAtStart(h.GetSerializedSize());
    h.Serialize(b.Begin());
    std::vector<uint8_t> out(b.GetSize());
    b.CopyData(out.data(), out.size());
    return out;
}

/**
 * Deserialise raw bytes (exactly those bytes: nothing follows them).
 * \param bytes the bytes
 * \param[out] consumed what Deserialize returned
 * \return the header
 */
SegmentRoutingHeader
Parse(const std::vector<uint8_t>& bytes, uint32_t& consumed)
{
    Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
    SegmentRoutingHeader h;
    consumed = p->PeekHeader(h);
    return h;
}

/// \return a valid two-segment SRH with TLVs
SegmentRoutingHeader
Sample()
{
    SegmentRoutingHeader h;
    h.SetNextHeader(41);
    h.SetSegments({Ipv6Address("fcbb:bb00:f:8:e01::"), Ipv6Address("fcbb:bb00:1:9:11::")});
    h.SetSegmentsLeft(1);
    h.SetFlags(0x80);
    h.SetTag(0xbeef);
    SegmentRoutingHeader::Tlv unknown;
    unknown.type = 0x81;
    unknown.value = {1, 2, 3};
    h.SetTlvs({unknown});
    return h;
}

} // namespace

TEST(SegmentRoutingHeader, WireFormat)
{
    SegmentRoutingHeader h = Sample();
    // 8 fixed + 32 segments + 5 TLV + 3 padding (PadN) = 48 bytes: Hdr Ext Len 5.
    EXPECT_EQ(h.GetSerializedSize(), 48u);
    EXPECT_EQ(h.GetHdrExtLen(), 5);
    EXPECT_EQ(h.GetLastEntry(), 1);
    const std::vector<uint8_t> b = Bytes(h);
    ASSERT_EQ(b.size(), 48u);
    EXPECT_EQ(b[0], 41);   // next header
    EXPECT_EQ(b[1], 5);    // hdr ext len
    EXPECT_EQ(b[2], 4);    // routing type
    EXPECT_EQ(b[3], 1);    // segments left
    EXPECT_EQ(b[4], 1);    // last entry
    EXPECT_EQ(b[5], 0x80); // flags
    EXPECT_EQ(b[6], 0xbe);
    EXPECT_EQ(b[7], 0xef);
    EXPECT_EQ(b[8], 0xfc); // Segment List[0] = fcbb:bb00:f:8:e01::
    EXPECT_EQ(b[24], 0xfc);
    EXPECT_EQ(b[40], 0x81); // the unknown TLV, kept
    EXPECT_EQ(b[41], 3);
    EXPECT_EQ(b[45], SegmentRoutingHeader::kPadN);
    EXPECT_EQ(b[46], 1);
    EXPECT_EQ(h.GetActiveSegment(), Ipv6Address("fcbb:bb00:1:9:11::"));
}

TEST(SegmentRoutingHeader, RoundTripIsExact)
{
    const std::vector<uint8_t> first = Bytes(Sample());
    uint32_t consumed = 0;
    SegmentRoutingHeader back = Parse(first, consumed);
    ASSERT_TRUE(back.IsValid()) << back.GetError();
    EXPECT_EQ(consumed, 48u);
    EXPECT_EQ(back.GetNextHeader(), 41);
    EXPECT_EQ(back.GetSegmentsLeft(), 1);
    EXPECT_EQ(back.GetFlags(), 0x80);
    EXPECT_EQ(back.GetTag(), 0xbeef);
    EXPECT_EQ(back.GetSegments(), Sample().GetSegments());
    ASSERT_EQ(back.GetTlvs().size(), 2u); // the unknown TLV and the PadN
    EXPECT_EQ(back.GetTlvs()[0].type, 0x81);
    EXPECT_EQ(back.GetTlvs()[0].value, (std::vector<uint8_t>{1, 2, 3}));
    EXPECT_EQ(Bytes(back), first);
}

TEST(SegmentRoutingHeader, Pad1AndPadNSurvive)
{
    SegmentRoutingHeader h;
    h.SetNextHeader(17);
    h.SetSegments({Ipv6Address("fcbb:bb00:1::")});
    SegmentRoutingHeader::Tlv pad1;
    pad1.type = SegmentRoutingHeader::kPad1;
    SegmentRoutingHeader::Tlv padN;
    padN.type = SegmentRoutingHeader::kPadN;
    padN.value = {0, 0, 0, 0, 0};
    h.SetTlvs({pad1, padN, pad1}); // 1 + 7 + 1 = 9 bytes, padded to 16
    const std::vector<uint8_t> first = Bytes(h);
    EXPECT_EQ(first.size(), 8u + 16u + 16u);
    uint32_t consumed = 0;
    SegmentRoutingHeader back = Parse(first, consumed);
    ASSERT_TRUE(back.IsValid()) << back.GetError();
    EXPECT_EQ(Bytes(back), first);
}

TEST(SegmentRoutingHeader, MalformedHeadersAreFlaggedNotTrusted)
{
    const std::vector<uint8_t> good = Bytes(Sample());
    uint32_t consumed = 0;

    // Truncated fixed part.
    SegmentRoutingHeader h = Parse(std::vector<uint8_t>(good.begin(), good.begin() + 5), consumed);
    EXPECT_FALSE(h.IsValid());
    EXPECT_NE(h.GetError().find("truncated"), std::string::npos) << h.GetError();

    // Hdr Ext Len larger than the bytes present.
    h = Parse(std::vector<uint8_t>(good.begin(), good.begin() + 30), consumed);
    EXPECT_FALSE(h.IsValid());
    EXPECT_NE(h.GetError().find("Hdr Ext Len 5 needs 48 bytes, 30 present"), std::string::npos)
        << h.GetError();

    // Last Entry inconsistent with the length.
    std::vector<uint8_t> bad = good;
    bad[4] = 5;
    h = Parse(bad, consumed);
    EXPECT_FALSE(h.IsValid());
    EXPECT_NE(h.GetError().find("Last Entry 5"), std::string::npos) << h.GetError();

    // Segments Left beyond Last Entry.
    bad = good;
    bad[3] = 2;
    h = Parse(bad, consumed);
    EXPECT_FALSE(h.IsValid());
    EXPECT_EQ(h.GetError(), "Segments Left 2 > Last Entry 1");

    // Not routing type 4.
    bad = good;
    bad[2] = 0;
    h = Parse(bad, consumed);
    EXPECT_FALSE(h.IsValid());
    EXPECT_NE(h.GetError().find("routing type 0"), std::string::npos);

    // A TLV whose length runs past the header.
    bad = good;
    bad[41] = 200;
    h = Parse(bad, consumed);
    EXPECT_FALSE(h.IsValid());
    EXPECT_NE(h.GetError().find("runs past the header"), std::string::npos) << h.GetError();
    EXPECT_TRUE(h.GetSegments().empty()) << "nothing of a malformed header is kept";

    // Zero bytes at all.
    h = Parse({}, consumed);
    EXPECT_FALSE(h.IsValid());
    EXPECT_EQ(consumed, 0u);
}

TEST(SegmentRoutingHeader, RejectsBadSegmentLists)
{
    SegmentRoutingHeader h;
    EXPECT_THROW(h.SetSegments({}), std::invalid_argument);
    EXPECT_THROW(h.SetSegments(std::vector<Ipv6Address>(129)), std::invalid_argument);
}
