/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/buffer.h"
#include "ns3/mrc-segment-routing-header.h"
#include "ns3/packet.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// \return the bytes a header serialises to
std::vector<uint8_t>
Bytes(const MrcSegmentRoutingHeader& h)
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
MrcSegmentRoutingHeader
Parse(const std::vector<uint8_t>& bytes, uint32_t& consumed)
{
    Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
    MrcSegmentRoutingHeader h;
    consumed = p->PeekHeader(h);
    return h;
}

/// \return a valid two-segment SRH with TLVs
MrcSegmentRoutingHeader
Sample()
{
    MrcSegmentRoutingHeader h;
    h.SetNextHeader(41);
    h.SetSegments({Ipv6Address("fcbb:bb00:f:8:e01::"), Ipv6Address("fcbb:bb00:1:9:11::")});
    h.SetSegmentsLeft(1);
    h.SetFlags(0x80);
    h.SetTag(0xbeef);
    MrcSegmentRoutingHeader::Tlv unknown;
    unknown.type = 0x81;
    unknown.value = {1, 2, 3};
    h.SetTlvs({unknown});
    return h;
}

} // namespace

TEST(MrcSegmentRoutingHeader, WireFormat)
{
    MrcSegmentRoutingHeader h = Sample();
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
    EXPECT_EQ(b[45], MrcSegmentRoutingHeader::kPadN);
    EXPECT_EQ(b[46], 1);
    EXPECT_EQ(h.GetActiveSegment(), Ipv6Address("fcbb:bb00:1:9:11::"));
}

TEST(MrcSegmentRoutingHeader, RoundTripIsExact)
{
    const std::vector<uint8_t> first = Bytes(Sample());
    uint32_t consumed = 0;
    MrcSegmentRoutingHeader back = Parse(first, consumed);
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

TEST(MrcSegmentRoutingHeader, Pad1AndPadNSurvive)
{
    MrcSegmentRoutingHeader h;
    h.SetNextHeader(17);
    h.SetSegments({Ipv6Address("fcbb:bb00:1::")});
    MrcSegmentRoutingHeader::Tlv pad1;
    pad1.type = MrcSegmentRoutingHeader::kPad1;
    MrcSegmentRoutingHeader::Tlv padN;
    padN.type = MrcSegmentRoutingHeader::kPadN;
    padN.value = {0, 0, 0, 0, 0};
    h.SetTlvs({pad1, padN, pad1}); // 1 + 7 + 1 = 9 bytes, padded to 16
    const std::vector<uint8_t> first = Bytes(h);
    EXPECT_EQ(first.size(), 8u + 16u + 16u);
    uint32_t consumed = 0;
    MrcSegmentRoutingHeader back = Parse(first, consumed);
    ASSERT_TRUE(back.IsValid()) << back.GetError();
    EXPECT_EQ(Bytes(back), first);
}

TEST(MrcSegmentRoutingHeader, MalformedHeadersAreFlaggedNotTrusted)
{
    const std::vector<uint8_t> good = Bytes(Sample());
    uint32_t consumed = 0;

    // Truncated fixed part.
    MrcSegmentRoutingHeader h =
        Parse(std::vector<uint8_t>(good.begin(), good.begin() + 5), consumed);
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

TEST(MrcSegmentRoutingHeader, RejectsBadSegmentLists)
{
    MrcSegmentRoutingHeader h;
    EXPECT_THROW(h.SetSegments({}), std::invalid_argument);
    EXPECT_THROW(h.SetSegments(std::vector<Ipv6Address>(129)), std::invalid_argument);
}

namespace
{

/**
 * \param n segments
 * \return n distinct segments
 */
std::vector<Ipv6Address>
Segments(size_t n)
{
    std::vector<Ipv6Address> s;
    for (size_t i = 0; i < n; ++i)
    {
        s.push_back(Ipv6Address(("fcbb:bb00:" + std::to_string(i + 1) + "::").c_str()));
    }
    return s;
}

/**
 * \param f a setter call
 * \return the message it throws ("" if none)
 */
template<typename F>
std::string
Refusal(F f)
{
    try
    {
        f();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

// Hdr Ext Len is 8 bits in 8-octet units: at most 2040 bytes of segments and TLVs. 128
// segments wrapped it to 0 (the header claimed 8 bytes and wrote 2056).
// Found by the "header" fuzz target: Segments Left beyond Last Entry was accepted by the setter
// and produced a header every receiver (this module's parser included) rejects.
TEST(MrcSegmentRoutingHeader, SegmentsLeftStaysWithinTheSegmentList)
{
    MrcSegmentRoutingHeader h;
    EXPECT_THROW(h.SetSegmentsLeft(1), std::invalid_argument); // no segment list yet
    h.SetSegments({Ipv6Address("fcbb:bb00:1::"), Ipv6Address("fcbb:bb00:2::")});
    h.SetSegmentsLeft(1); // Last Entry: accepted
    try
    {
        h.SetSegmentsLeft(2);
        FAIL() << "Segments Left 2 with Last Entry 1 accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("Segments Left (=2) must be <= Last Entry (=1"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(h.GetSegmentsLeft(), 1);
    // A shorter list would leave Segments Left pointing past it.
    EXPECT_THROW(h.SetSegments({Ipv6Address("fcbb:bb00:1::")}), std::invalid_argument);
    EXPECT_EQ(h.GetSegments().size(), 2u);
    h.SetSegmentsLeft(0);
    h.SetSegments({Ipv6Address("fcbb:bb00:1::")});
    EXPECT_EQ(h.GetLastEntry(), 0);
}

TEST(MrcSegmentRoutingHeader, SegmentListFitsTheLengthField)
{
    MrcSegmentRoutingHeader h;
    h.SetSegments(Segments(MrcSegmentRoutingHeader::kMaxSegments)); // 127: the largest accepted
    EXPECT_EQ(MrcSegmentRoutingHeader::kMaxSegments, 127u);
    EXPECT_EQ(h.GetHdrExtLen(), 254);
    EXPECT_EQ(h.GetSerializedSize(), 8u + 127 * 16);
    uint32_t consumed = 0;
    const MrcSegmentRoutingHeader back = Parse(Bytes(h), consumed);
    EXPECT_TRUE(back.IsValid()) << back.GetError();
    EXPECT_EQ(consumed, h.GetSerializedSize());
    EXPECT_EQ(back.GetSegments(), h.GetSegments());
    EXPECT_EQ(Refusal([&h] {
                  h.SetSegments(Segments(128));
              }), // the smallest refused
              "MrcSegmentRoutingHeader: segment list size (=128) must be in 1..127 (Hdr Ext Len is "
              "8 bits: at most 2040 bytes of 16-byte segments and TLVs)");
    EXPECT_EQ(h.GetSegments().size(), 127u); // unchanged
}

TEST(MrcSegmentRoutingHeader, TlvsFitTheLengthField)
{
    // One segment (16 bytes) leaves 2024 bytes of TLVs: 8 TLVs of 2 + 251 bytes is 2024.
    MrcSegmentRoutingHeader h;
    h.SetSegments(Segments(1));
    MrcSegmentRoutingHeader::Tlv big;
    big.type = 7;
    big.value.assign(251, 0xab);
    std::vector<MrcSegmentRoutingHeader::Tlv> most(8, big);
    h.SetTlvs(most); // the largest accepted
    EXPECT_EQ(h.GetHdrExtLen(), 255);
    EXPECT_EQ(h.GetSerializedSize(), 8u + 2040);
    uint32_t consumed = 0;
    const MrcSegmentRoutingHeader back = Parse(Bytes(h), consumed);
    EXPECT_TRUE(back.IsValid()) << back.GetError();
    EXPECT_EQ(back.GetTlvs(), most);
    // One byte more pads to 2032: the smallest refused.
    std::vector<MrcSegmentRoutingHeader::Tlv> over = most;
    over.back().value.push_back(0);
    EXPECT_EQ(
        Refusal([&] {
            h.SetTlvs(over);
        }),
        "MrcSegmentRoutingHeader: TLV bytes (=2032, padded to 8) must be <= 2024 (Hdr Ext Len "
        "is 8 bits: at most 2040 bytes of segments and TLVs, of which the 1 segments take "
        "16)");
    // A Pad1 more is a byte more, too.
    std::vector<MrcSegmentRoutingHeader::Tlv> pad = most;
    pad.push_back(MrcSegmentRoutingHeader::Tlv{});
    EXPECT_THROW(h.SetTlvs(pad), std::invalid_argument);
    EXPECT_EQ(h.GetTlvs(), most); // unchanged
    // With those TLVs a second segment no longer fits.
    EXPECT_NE(Refusal([&h] {
                  h.SetSegments(Segments(2));
              }).find("must be in 1..1"),
              std::string::npos);
    // Unlimited TLVs and no segments: refused at the setter, not when serialising.
    MrcSegmentRoutingHeader empty;
    EXPECT_THROW(empty.SetTlvs(std::vector<MrcSegmentRoutingHeader::Tlv>(9, big)),
                 std::invalid_argument);
}
