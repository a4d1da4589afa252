/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Wire formats of the control headers: SACK, NACK, probe, CNP and the ICRC trailer.
 */

#include "mrc-header-test-util.h"

#include "ns3/buffer.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-header-types.h"
#include "ns3/mrc-icrc-trailer.h"
#include "ns3/mrc-immdt-header.h"
#include "ns3/mrc-meth-header.h"
#include "ns3/mrc-nack-header.h"
#include "ns3/mrc-probe-header.h"
#include "ns3/mrc-reth-header.h"
#include "ns3/mrc-sack-header.h"
#include "ns3/mrc-tseth-header.h"
#include "ns3/packet.h"

#include <functional>
#include <gtest/gtest.h>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::mrcgtest;

// ---------------------------------------------------------------------------------------------
// SACK

namespace
{

/// \return a SACK with distinct field values
MrcSackHeader
SampleSack()
{
    MrcSackHeader h;
    h.SetCumulativeAckPsn(0x123456);
    h.SetMark(MrcSackMark::SKIP_ONCE);
    h.SetEcnEcho(true);
    h.SetBitmapBasePsn(0xabcdef);
    h.SetBitmap(0x0102030405060708ULL);
    h.SetReflectedEv(0x11223344);
    h.SetPortStateBitmap(0x81);
    h.SetReflectedTimestamp(0x5566);
    h.SetOutOfOrderCount(0x7788);
    h.SetWindowPenalty(127);
    h.SetReceivedBytes(0x99aabbcc);
    return h;
}

/// The bytes of SampleSack().
const std::vector<uint8_t> kSackGolden = {
    0x60, 0x12, 0x34, 0x56, // M = SKIP_ONCE (01), E = 1; cumulative-ack PSN
    0x00, 0xab, 0xcd, 0xef, // reserved; bitmap base PSN
    0x01, 0x02, 0x03, 0x04, // bitmap (high half)
    0x05, 0x06, 0x07, 0x08, // bitmap (low half)
    0x11, 0x22, 0x33, 0x44, // reflected EV
    0x81, 0x00, 0x00, 0x00, // port state; reserved
    0x55, 0x66, 0x77, 0x88, // reflected timestamp; out-of-order count
    0x7f, 0x00, 0x00, 0x00, // window penalty; reserved
    0x99, 0xaa, 0xbb, 0xcc, // received bytes
};

} // namespace

TEST(MrcSackHeader, WireFormat)
{
    CheckTypeId<MrcSackHeader>("ns3::MrcSackHeader");
    EXPECT_EQ(Bytes(MrcSackHeader()), std::vector<uint8_t>(36, 0));
    EXPECT_EQ(Bytes(SampleSack()), kSackGolden);
    MrcSackHeader a;
    a.SetMark(MrcSackMark::ALWAYS_SKIP);
    EXPECT_EQ(Bytes(a)[0], 0x80);
    MrcSackHeader e;
    e.SetEcnEcho(true);
    EXPECT_EQ(Bytes(e)[0], 0x20);
    MrcSackHeader b;
    b.SetBitmap(1); // bit 0 = PSN base + 0: least significant bit of byte 15
    EXPECT_EQ(Bytes(b)[15], 0x01);
    EXPECT_EQ(Bytes(b)[8], 0x00);
    b.SetBitmap(1ULL << 63);
    EXPECT_EQ(Bytes(b)[8], 0x80);
}

TEST(MrcSackHeader, RoundTrip)
{
    uint32_t consumed = 0;
    MrcSackHeader r = Parse<MrcSackHeader>(kSackGolden, consumed);
    EXPECT_EQ(consumed, 36u);
    EXPECT_TRUE(r.IsValid()) << r.GetError();
    EXPECT_EQ(r.GetCumulativeAckPsn(), 0x123456u);
    EXPECT_EQ(r.GetMark(), MrcSackMark::SKIP_ONCE);
    EXPECT_TRUE(r.GetEcnEcho());
    EXPECT_EQ(r.GetBitmapBasePsn(), 0xabcdefu);
    EXPECT_EQ(r.GetBitmap(), 0x0102030405060708ULL);
    EXPECT_EQ(r.GetReflectedEv(), 0x11223344u);
    EXPECT_EQ(r.GetPortStateBitmap(), 0x81);
    EXPECT_EQ(r.GetReflectedTimestamp(), 0x5566);
    EXPECT_EQ(r.GetOutOfOrderCount(), 0x7788);
    EXPECT_EQ(r.GetWindowPenalty(), 127);
    EXPECT_EQ(r.GetReceivedBytes(), 0x99aabbccu);
    EXPECT_EQ(Bytes(r), kSackGolden);
    for (MrcSackMark m : {MrcSackMark::NONE, MrcSackMark::SKIP_ONCE, MrcSackMark::ALWAYS_SKIP})
    {
        MrcSackHeader h;
        h.SetMark(m);
        EXPECT_EQ(Parse<MrcSackHeader>(Bytes(h), consumed).GetMark(), m);
    }
    const std::string s = Printed(r);
    EXPECT_NE(s.find("SKIP_ONCE"), std::string::npos) << s;
    EXPECT_NE(s.find("ECE"), std::string::npos) << s;
}

TEST(MrcSackHeader, ReservedAndMalformedFields)
{
    uint32_t consumed = 0;
    // Reserved bits set: ignored.
    std::vector<uint8_t> bytes = kSackGolden;
    bytes[0] |= 0x1f;
    bytes[4] = 0xff;
    bytes[21] = bytes[22] = bytes[23] = 0xff;
    bytes[29] = bytes[30] = bytes[31] = 0xff;
    MrcSackHeader r = Parse<MrcSackHeader>(bytes, consumed);
    EXPECT_EQ(consumed, 36u);
    EXPECT_TRUE(r.IsValid()) << r.GetError();
    EXPECT_EQ(Bytes(r), kSackGolden);
    // Mark 3: flagged, all 36 bytes read.
    bytes = kSackGolden;
    bytes[0] |= 0xc0;
    r = Parse<MrcSackHeader>(bytes, consumed);
    EXPECT_EQ(consumed, 36u);
    EXPECT_FALSE(r.IsValid());
    EXPECT_NE(r.GetError().find("mark 3"), std::string::npos) << r.GetError();
    EXPECT_EQ(r.GetReceivedBytes(), 0x99aabbccu);
    // Window penalty above 127: flagged.
    bytes = kSackGolden;
    bytes[28] = 0x80;
    r = Parse<MrcSackHeader>(bytes, consumed);
    EXPECT_EQ(consumed, 36u);
    EXPECT_FALSE(r.IsValid());
    EXPECT_NE(r.GetError().find("window penalty 128"), std::string::npos) << r.GetError();
}

TEST(MrcSackHeader, Truncated)
{
    CheckTruncations<MrcSackHeader>(kSackGolden, "MrcSackHeader");
    CheckErrorCleared<MrcSackHeader>(kSackGolden);
}

TEST(MrcSackHeader, RangeChecks)
{
    MrcSackHeader h;
    ExpectInvalid(
        [&] {
            h.SetCumulativeAckPsn(1u << 24);
        },
        "CumulativeAckPsn");
    ExpectInvalid(
        [&] {
            h.SetBitmapBasePsn(1u << 24);
        },
        "BitmapBasePsn");
    ExpectInvalid(
        [&] {
            h.SetWindowPenalty(128);
        },
        "WindowPenalty");
    ExpectInvalid(
        [&] {
            h.SetWindowPenalty(255);
        },
        "WindowPenalty");
    ExpectInvalid(
        [&] {
            h.SetMark(static_cast<MrcSackMark>(3));
        },
        "Mark");
    EXPECT_NO_THROW(h.SetCumulativeAckPsn(0xffffff));
    EXPECT_NO_THROW(h.SetBitmapBasePsn(0xffffff));
    EXPECT_NO_THROW(h.SetWindowPenalty(127));
    EXPECT_EQ(h.GetWindowPenalty(), 127);
}

// ---------------------------------------------------------------------------------------------
// NACK

TEST(MrcNackHeader, Format)
{
    CheckTypeId<MrcNackHeader>("ns3::MrcNackHeader");
    MrcNackHeader d;
    EXPECT_EQ(d.GetCode(), MrcNackCode::TRIMMED);
    EXPECT_EQ(Bytes(d), (std::vector<uint8_t>{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
    MrcNackHeader h;
    h.SetCode(MrcNackCode::TRIMMED_LASTHOP);
    h.SetPsn(0xabcdef);
    h.SetReflectedEv(0x11223344);
    h.SetReflectedTimestamp(0x5566);
    const std::vector<uint8_t> golden =
        {0x02, 0xab, 0xcd, 0xef, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x00, 0x00};
    EXPECT_EQ(Bytes(h), golden);
    uint32_t consumed = 0;
    MrcNackHeader r = Parse<MrcNackHeader>(golden, consumed);
    EXPECT_EQ(consumed, 12u);
    EXPECT_TRUE(r.IsValid()) << r.GetError();
    EXPECT_EQ(r.GetCode(), MrcNackCode::TRIMMED_LASTHOP);
    EXPECT_EQ(r.GetPsn(), 0xabcdefu);
    EXPECT_EQ(r.GetReflectedEv(), 0x11223344u);
    EXPECT_EQ(r.GetReflectedTimestamp(), 0x5566);
    EXPECT_NE(Printed(r).find("TRIMMED_LASTHOP"), std::string::npos);
    for (MrcNackCode c : {MrcNackCode::TRIMMED,
                          MrcNackCode::TRIMMED_LASTHOP,
                          MrcNackCode::NO_BITMAP,
                          MrcNackCode::PSN_OOR_WINDOW,
                          MrcNackCode::UNEXP_EVENT})
    {
        MrcNackHeader n;
        n.SetCode(c);
        EXPECT_EQ(Bytes(n)[0], static_cast<uint8_t>(c));
        EXPECT_EQ(Parse<MrcNackHeader>(Bytes(n), consumed).GetCode(), c);
    }
    CheckTruncations<MrcNackHeader>(golden, "MrcNackHeader");
    CheckErrorCleared<MrcNackHeader>(golden);
}

TEST(MrcNackHeader, UnknownCodeAndRanges)
{
    uint32_t consumed = 0;
    for (uint8_t raw : {0x00, 0x07, 0xff})
    {
        const std::vector<uint8_t> bytes = {raw, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0};
        MrcNackHeader r = Parse<MrcNackHeader>(bytes, consumed);
        EXPECT_EQ(consumed, 12u);
        EXPECT_FALSE(r.IsValid());
        EXPECT_NE(r.GetError().find("unknown NACK code 0x"), std::string::npos) << r.GetError();
        EXPECT_EQ(static_cast<uint8_t>(r.GetCode()), raw);
        EXPECT_EQ(r.GetPsn(), 9u);
    }
    MrcNackHeader h;
    ExpectInvalid(
        [&] {
            h.SetPsn(1u << 24);
        },
        "Psn");
    ExpectInvalid(
        [&] {
            h.SetCode(static_cast<MrcNackCode>(0));
        },
        "code");
    ExpectInvalid(
        [&] {
            h.SetCode(static_cast<MrcNackCode>(7));
        },
        "code");
    EXPECT_NO_THROW(h.SetCode(MrcNackCode::SEQUENCE_ERROR));
    EXPECT_NO_THROW(h.SetPsn(0xffffff));
}

// ---------------------------------------------------------------------------------------------
// PROBE

TEST(MrcProbeHeader, Format)
{
    CheckTypeId<MrcProbeHeader>("ns3::MrcProbeHeader");
    EXPECT_EQ(Bytes(MrcProbeHeader()), std::vector<uint8_t>(12, 0));
    MrcProbeHeader h;
    h.SetResponse(true);
    h.SetSequence(0x01020304);
    h.SetEv(0xa1b2c3d4);
    const std::vector<uint8_t> golden =
        {0x01, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0xa1, 0xb2, 0xc3, 0xd4};
    EXPECT_EQ(Bytes(h), golden);
    uint32_t consumed = 0;
    MrcProbeHeader r = Parse<MrcProbeHeader>(golden, consumed);
    EXPECT_EQ(consumed, 12u);
    EXPECT_TRUE(r.GetResponse());
    EXPECT_EQ(r.GetSequence(), 0x01020304u);
    EXPECT_EQ(r.GetEv(), 0xa1b2c3d4u);
    EXPECT_NE(Printed(r).find("response"), std::string::npos);
    // Reserved flag bits and bytes are ignored.
    r = Parse<MrcProbeHeader>({0xfe, 0xff, 0xff, 0xff, 0, 0, 0, 5, 0, 0, 0, 6}, consumed);
    EXPECT_TRUE(r.IsValid());
    EXPECT_FALSE(r.GetResponse());
    EXPECT_EQ(r.GetSequence(), 5u);
    EXPECT_EQ(r.GetEv(), 6u);
    CheckTruncations<MrcProbeHeader>(golden, "MrcProbeHeader");
    CheckErrorCleared<MrcProbeHeader>(golden);
}

// ---------------------------------------------------------------------------------------------
// ICRC trailer

TEST(MrcIcrcTrailer, AddAndRemove)
{
    CheckTypeId<MrcIcrcTrailer>("ns3::MrcIcrcTrailer");
    const uint8_t payload[] = {'a', 'b', 'c'};
    Ptr<Packet> p = Create<Packet>(payload, 3);
    MrcIcrcTrailer t;
    t.SetValue(0xcafebabe);
    p->AddTrailer(t);
    ASSERT_EQ(p->GetSize(), 7u);
    std::vector<uint8_t> bytes(7);
    p->CopyData(bytes.data(), 7);
    EXPECT_EQ(bytes, (std::vector<uint8_t>{'a', 'b', 'c', 0xca, 0xfe, 0xba, 0xbe}));
    MrcIcrcTrailer peek;
    EXPECT_EQ(p->PeekTrailer(peek), 4u);
    EXPECT_EQ(peek.GetValue(), 0xcafebabeu);
    MrcIcrcTrailer r;
    EXPECT_EQ(p->RemoveTrailer(r), 4u);
    EXPECT_TRUE(r.IsValid());
    EXPECT_EQ(r.GetValue(), 0xcafebabeu);
    EXPECT_EQ(p->GetSize(), 3u);
    EXPECT_NE(Printed(r).find("0xcafebabe"), std::string::npos);
    // A trailer alone in a packet.
    Ptr<Packet> only = Create<Packet>();
    only->AddTrailer(t);
    EXPECT_EQ(only->GetSize(), 4u);
    EXPECT_EQ(only->RemoveTrailer(r), 4u);
    EXPECT_EQ(r.GetValue(), 0xcafebabeu);
    EXPECT_EQ(only->GetSize(), 0u);
}

TEST(MrcIcrcTrailer, Truncated)
{
    const std::vector<uint8_t> golden = {0xca, 0xfe, 0xba, 0xbe};
    for (uint32_t n = 0; n < 4; ++n)
    {
        SCOPED_TRACE("length " + std::to_string(n));
        Ptr<Packet> p = Create<Packet>(golden.data(), n);
        MrcIcrcTrailer t;
        t.SetValue(7);
        EXPECT_EQ(p->PeekTrailer(t), 0u);
        EXPECT_FALSE(t.IsValid());
        EXPECT_EQ(t.GetValue(), 7u);
        EXPECT_NE(t.GetError().find("MrcIcrcTrailer"), std::string::npos) << t.GetError();
        EXPECT_NE(t.GetError().find(std::to_string(n) + " bytes present"), std::string::npos)
            << t.GetError();
        EXPECT_NE(t.GetError().find("4 needed"), std::string::npos) << t.GetError();
        EXPECT_EQ(p->RemoveTrailer(t), 0u);
        EXPECT_EQ(p->GetSize(), n);
        // Straight on a Buffer: the end iterator.
        Buffer b;
        b.AddAtStart(n);
        if (n > 0)
        {
            b.Begin().Write(golden.data(), n);
        }
        MrcIcrcTrailer t2;
        EXPECT_EQ(t2.Deserialize(b.End()), 0u);
        EXPECT_FALSE(t2.IsValid());
    }
    // Bytes removed from the start of a buffer no longer count.
    Buffer b;
    b.AddAtStart(6);
    b.RemoveAtStart(3);
    MrcIcrcTrailer t;
    EXPECT_EQ(t.Deserialize(b.End()), 0u);
    EXPECT_FALSE(t.IsValid());
    EXPECT_NE(t.GetError().find("3 bytes present"), std::string::npos) << t.GetError();
    Buffer b8;
    b8.AddAtStart(8);
    Buffer::Iterator w = b8.Begin();
    w.Next(4);
    w.Write(golden.data(), 4);
    b8.RemoveAtStart(4);
    EXPECT_EQ(t.Deserialize(b8.End()), 4u);
    EXPECT_TRUE(t.IsValid());
    EXPECT_EQ(t.GetValue(), 0xcafebabeu);
    t.SetValue(0);
    Ptr<Packet> p = Create<Packet>(golden.data(), 4);
    EXPECT_EQ(p->RemoveTrailer(t), 4u);
    EXPECT_TRUE(t.IsValid()) << t.GetError();
    EXPECT_EQ(t.GetValue(), 0xcafebabeu);
}

// ---------------------------------------------------------------------------------------------
// A whole MRC data packet: BTH / METH / TSETH / RETH / ImmDt / payload / ICRC

TEST(MrcHeaders, DataPacketStack)
{
    Ptr<Packet> p = Create<Packet>(1000);
    MrcIcrcTrailer icrc;
    icrc.SetValue(0x01020304);
    p->AddTrailer(icrc);
    MrcImmDtHeader imm;
    imm.SetImmediateData(42);
    p->AddHeader(imm);
    MrcRethHeader reth;
    reth.SetVirtualAddress(0x7f0000001000ULL);
    reth.SetRkey(0x55);
    reth.SetDmaLength(1000);
    p->AddHeader(reth);
    MrcTsethHeader ts;
    ts.SetTimestamp(1234);
    p->AddHeader(ts);
    MrcMethHeader meth;
    meth.SetMsn(17);
    p->AddHeader(meth);
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::WRITE_ONLY_IMM);
    bth.SetDestQp(0x000101);
    bth.SetPsn(0xfffffe);
    bth.SetAckRequest(true);
    p->AddHeader(bth);
    EXPECT_EQ(p->GetSize(), 12u + 4 + 4 + 16 + 4 + 1000 + 4);

    MrcBthHeader b;
    EXPECT_EQ(p->RemoveHeader(b), 12u);
    ASSERT_TRUE(b.IsValid());
    EXPECT_EQ(b.GetOpcode(), MrcOpcode::WRITE_ONLY_IMM);
    EXPECT_TRUE(IsDataOpcode(b.GetOpcode()));
    EXPECT_EQ(b.GetPsn(), 0xfffffeu);
    MrcMethHeader m;
    EXPECT_EQ(p->RemoveHeader(m), 4u);
    EXPECT_EQ(m.GetMsn(), 17u);
    MrcTsethHeader t;
    EXPECT_EQ(p->RemoveHeader(t), 4u);
    EXPECT_EQ(t.GetTimestamp(), 1234);
    ASSERT_TRUE(CarriesReth(b.GetOpcode()));
    MrcRethHeader r;
    EXPECT_EQ(p->RemoveHeader(r), 16u);
    EXPECT_EQ(r.GetVirtualAddress(), 0x7f0000001000ULL);
    EXPECT_EQ(r.GetDmaLength(), 1000u);
    ASSERT_TRUE(CarriesImmediate(b.GetOpcode()));
    MrcImmDtHeader i;
    EXPECT_EQ(p->RemoveHeader(i), 4u);
    EXPECT_EQ(i.GetImmediateData(), 42u);
    MrcIcrcTrailer c;
    EXPECT_EQ(p->RemoveTrailer(c), 4u);
    EXPECT_EQ(c.GetValue(), 0x01020304u);
    EXPECT_EQ(p->GetSize(), 1000u);
}
