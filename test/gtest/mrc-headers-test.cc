/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

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

namespace
{

/**
 * \param h a header
 * \return the bytes the header serialises to
 */
template<typename H>
std::vector<uint8_t>
Bytes(const H& h)
{
    Buffer b;
    b.AddAtStart(h.GetSerializedSize());
    h.Serialize(b.Begin());
    std::vector<uint8_t> out(b.GetSize());
    b.CopyData(out.data(), out.size());
    return out;
}

/**
 * Deserialise the first n raw bytes (exactly those: nothing follows them).
 * \param bytes the bytes
 * \param n how many of them to present
 * \param[out] consumed what Deserialize returned
 * \return the header
 */
template<typename H>
H
Parse(const std::vector<uint8_t>& bytes, size_t n, uint32_t& consumed)
{
    Ptr<Packet> p = Create<Packet>(bytes.data(), static_cast<uint32_t>(n));
    H h;
    consumed = p->PeekHeader(h);
    return h;
}

/**
 * Deserialise all the bytes.
 * \param bytes the bytes
 * \param[out] consumed what Deserialize returned
 * \return the header
 */
template<typename H>
H
Parse(const std::vector<uint8_t>& bytes, uint32_t& consumed)
{
    return Parse<H>(bytes, bytes.size(), consumed);
}

/// \return the header printed
template<typename H>
std::string
Printed(const H& h)
{
    std::ostringstream os;
    h.Print(os);
    return os.str();
}

/**
 * Every truncation of a serialised header (0 .. size-1 bytes) is flagged, consumes nothing and
 * names the header and the byte counts; the full bytes parse.
 * \param golden the full serialised header
 * \param name the class name expected in the error
 */
template<typename H>
void
CheckTruncations(const std::vector<uint8_t>& golden, const std::string& name)
{
    ASSERT_EQ(golden.size(), H::kSize);
    for (size_t n = 0; n < golden.size(); ++n)
    {
        SCOPED_TRACE("length " + std::to_string(n));
        uint32_t consumed = 99;
        H h = Parse<H>(golden, n, consumed);
        EXPECT_EQ(consumed, 0u);
        EXPECT_FALSE(h.IsValid());
        EXPECT_NE(h.GetError().find(name), std::string::npos) << h.GetError();
        EXPECT_NE(h.GetError().find(std::to_string(n) + " bytes present"), std::string::npos)
            << h.GetError();
        EXPECT_NE(h.GetError().find(std::to_string(H::kSize) + " needed"), std::string::npos)
            << h.GetError();
        EXPECT_NE(Printed(h).find("MALFORMED"), std::string::npos);
        // Straight on a Buffer, too.
        Buffer b;
        b.AddAtStart(static_cast<uint32_t>(n));
        if (n > 0)
        {
            b.Begin().Write(golden.data(), static_cast<uint32_t>(n));
        }
        H h2;
        EXPECT_EQ(h2.Deserialize(b.Begin()), 0u);
        EXPECT_FALSE(h2.IsValid());
    }
    uint32_t consumed = 0;
    H h = Parse<H>(golden, consumed);
    EXPECT_EQ(consumed, H::kSize);
    EXPECT_TRUE(h.IsValid()) << h.GetError();
    EXPECT_EQ(Bytes(h), golden);
}

/**
 * A valid parse after a failed one clears the error.
 * \param golden the full serialised header
 */
template<typename H>
void
CheckErrorCleared(const std::vector<uint8_t>& golden)
{
    Buffer shortBuf;
    shortBuf.AddAtStart(1);
    H h;
    EXPECT_EQ(h.Deserialize(shortBuf.Begin()), 0u);
    EXPECT_FALSE(h.IsValid());
    Buffer full;
    full.AddAtStart(static_cast<uint32_t>(golden.size()));
    full.Begin().Write(golden.data(), static_cast<uint32_t>(golden.size()));
    EXPECT_EQ(h.Deserialize(full.Begin()), H::kSize);
    EXPECT_TRUE(h.IsValid());
    EXPECT_EQ(h.GetError(), "");
}

/**
 * TypeId name, group, constructor and the instance TypeId.
 * \param name the expected TypeId name
 */
template<typename H>
void
CheckTypeId(const std::string& name)
{
    TypeId tid = H::GetTypeId();
    EXPECT_EQ(tid.GetName(), name);
    EXPECT_EQ(tid.GetGroupName(), "Mrc");
    EXPECT_TRUE(tid.HasConstructor());
    EXPECT_EQ(TypeId::LookupByName(name), tid);
    H h;
    EXPECT_EQ(h.GetInstanceTypeId(), tid);
    EXPECT_TRUE(h.IsValid());
    EXPECT_EQ(h.GetError(), "");
    EXPECT_EQ(h.GetSerializedSize(), H::kSize);
}

/**
 * \param f a call expected to throw std::invalid_argument
 * \param field the field name the message must contain
 */
void
ExpectInvalid(const std::function<void()>& f, const std::string& field)
{
    try
    {
        f();
        ADD_FAILURE() << "no exception for " << field;
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Types and PSN arithmetic

TEST(MrcHeaderTypes, EnumValues)
{
    EXPECT_EQ(static_cast<uint8_t>(MrcOpcode::WRITE_FIRST), 0xC6);
    EXPECT_EQ(static_cast<uint8_t>(MrcOpcode::WRITE_MIDDLE), 0xC7);
    EXPECT_EQ(static_cast<uint8_t>(MrcOpcode::WRITE_LAST), 0xC8);
    EXPECT_EQ(static_cast<uint8_t>(MrcOpcode::WRITE_LAST_IMM), 0xC9);
    EXPECT_EQ(static_cast<uint8_t>(MrcOpcode::WRITE_ONLY), 0xCA);
    EXPECT_EQ(static_cast<uint8_t>(MrcOpcode::WRITE_ONLY_IMM), 0xCB);
    EXPECT_EQ(static_cast<uint8_t>(MrcOpcode::ACK), 0xD1);
    EXPECT_EQ(static_cast<uint8_t>(MrcOpcode::SACK), 0xDC);
    EXPECT_EQ(static_cast<uint8_t>(MrcOpcode::NACK), 0xDD);
    EXPECT_EQ(static_cast<uint8_t>(MrcOpcode::PROBE), 0xDE);
    EXPECT_EQ(static_cast<uint8_t>(MrcOpcode::CNP), 0x81);
    EXPECT_EQ(static_cast<uint8_t>(MrcNackCode::TRIMMED), 0x01);
    EXPECT_EQ(static_cast<uint8_t>(MrcNackCode::TRIMMED_LASTHOP), 0x02);
    EXPECT_EQ(static_cast<uint8_t>(MrcNackCode::NO_BITMAP), 0x03);
    EXPECT_EQ(static_cast<uint8_t>(MrcNackCode::PSN_OOR_WINDOW), 0x04);
    EXPECT_EQ(static_cast<uint8_t>(MrcNackCode::UNEXP_EVENT), 0x05);
    EXPECT_EQ(static_cast<uint8_t>(MrcNackCode::SEQUENCE_ERROR), 0x06);
    EXPECT_EQ(static_cast<uint8_t>(MrcSackMark::NONE), 0);
    EXPECT_EQ(static_cast<uint8_t>(MrcSackMark::SKIP_ONCE), 1);
    EXPECT_EQ(static_cast<uint8_t>(MrcSackMark::ALWAYS_SKIP), 2);
    EXPECT_EQ(kMrcUdpPort, 4791);
    EXPECT_EQ(kPsnBits, 24u);
    EXPECT_EQ(kPsnMask, 0xffffffu);
}

TEST(MrcHeaderTypes, OpcodeClasses)
{
    int known = 0;
    for (unsigned raw = 0; raw < 256; ++raw)
    {
        const auto op = static_cast<MrcOpcode>(raw);
        const bool data = raw >= 0xC6 && raw <= 0xCB;
        EXPECT_EQ(IsDataOpcode(op), data) << raw;
        EXPECT_EQ(CarriesReth(op), raw == 0xC6 || raw == 0xCA || raw == 0xCB) << raw;
        EXPECT_EQ(CarriesImmediate(op), raw == 0xC9 || raw == 0xCB) << raw;
        known += IsKnownOpcode(static_cast<uint8_t>(raw)) ? 1 : 0;
    }
    EXPECT_EQ(known, 11); // 6 data opcodes, ACK, SACK, NACK, probe and RoCEv2's CNP (0x81)
    EXPECT_TRUE(IsKnownOpcode(0x81));
    EXPECT_FALSE(IsDataOpcode(MrcOpcode::CNP));
    for (unsigned raw = 0; raw < 256; ++raw)
    {
        EXPECT_EQ(IsKnownNackCode(static_cast<uint8_t>(raw)), raw >= 1 && raw <= 6) << raw;
    }
}

TEST(MrcHeaderTypes, Printing)
{
    auto str = [](auto v) {
        std::ostringstream os;
        os << v;
        return os.str();
    };
    EXPECT_EQ(str(MrcOpcode::WRITE_FIRST), "WRITE_FIRST");
    EXPECT_EQ(str(MrcOpcode::WRITE_MIDDLE), "WRITE_MIDDLE");
    EXPECT_EQ(str(MrcOpcode::WRITE_LAST), "WRITE_LAST");
    EXPECT_EQ(str(MrcOpcode::WRITE_LAST_IMM), "WRITE_LAST_IMM");
    EXPECT_EQ(str(MrcOpcode::WRITE_ONLY), "WRITE_ONLY");
    EXPECT_EQ(str(MrcOpcode::WRITE_ONLY_IMM), "WRITE_ONLY_IMM");
    EXPECT_EQ(str(MrcOpcode::ACK), "ACK");
    EXPECT_EQ(str(MrcOpcode::SACK), "SACK");
    EXPECT_EQ(str(MrcOpcode::NACK), "NACK");
    EXPECT_EQ(str(MrcOpcode::PROBE), "PROBE");
    EXPECT_EQ(str(MrcOpcode::CNP), "CNP");
    EXPECT_EQ(str(static_cast<MrcOpcode>(0x0a)), "MrcOpcode(0x0a)");
    EXPECT_EQ(str(MrcNackCode::TRIMMED), "TRIMMED");
    EXPECT_EQ(str(MrcNackCode::TRIMMED_LASTHOP), "TRIMMED_LASTHOP");
    EXPECT_EQ(str(MrcNackCode::NO_BITMAP), "NO_BITMAP");
    EXPECT_EQ(str(MrcNackCode::PSN_OOR_WINDOW), "PSN_OOR_WINDOW");
    EXPECT_EQ(str(MrcNackCode::UNEXP_EVENT), "UNEXP_EVENT");
    EXPECT_EQ(str(MrcNackCode::SEQUENCE_ERROR), "SEQUENCE_ERROR");
    EXPECT_EQ(str(static_cast<MrcNackCode>(0xf0)), "MrcNackCode(0xf0)");
    EXPECT_EQ(str(MrcSackMark::NONE), "NONE");
    EXPECT_EQ(str(MrcSackMark::SKIP_ONCE), "SKIP_ONCE");
    EXPECT_EQ(str(MrcSackMark::ALWAYS_SKIP), "ALWAYS_SKIP");
    EXPECT_EQ(str(static_cast<MrcSackMark>(3)), "MrcSackMark(3)");
    // The stream's number formatting is untouched.
    std::ostringstream os;
    os << static_cast<MrcOpcode>(0xff) << " " << 255;
    EXPECT_EQ(os.str(), "MrcOpcode(0xff) 255");
}

TEST(MrcPsn, WrapAround)
{
    static_assert(PsnAdd(0xffffff, 1) == 0, "constexpr");
    static_assert(PsnDiff(0, 0xffffff) == 1, "constexpr");
    static_assert(PsnLess(0xffffff, 0), "constexpr");
    EXPECT_EQ(PsnAdd(0xffffff, 1), 0u);
    EXPECT_EQ(PsnAdd(0xfffffe, 5), 3u);
    EXPECT_EQ(PsnAdd(10, 0), 10u);
    EXPECT_EQ(PsnAdd(0, 0x1000000), 0u);
    EXPECT_EQ(PsnDiff(0, 0xffffff), 1);
    EXPECT_EQ(PsnDiff(0xffffff, 0), -1);
    EXPECT_EQ(PsnDiff(5, 5), 0);
    EXPECT_EQ(PsnDiff(3, 0xfffffe), 5);
    EXPECT_EQ(PsnDiff(0x7fffff, 0), 0x7fffff);
    EXPECT_EQ(PsnDiff(0x800000, 0), -0x800000);
    EXPECT_EQ(PsnDiff(0, 0x800000), -0x800000);
    EXPECT_EQ(PsnDiff(0, 0x7fffff), -0x7fffff);
    EXPECT_EQ(PsnDiff(0x1000005, 5), 0); // bits above 24 ignored
    EXPECT_TRUE(PsnLess(0xffffff, 0));
    EXPECT_FALSE(PsnLess(0, 0xffffff));
    EXPECT_TRUE(PsnLess(0xfffff0, 0x10));
    EXPECT_FALSE(PsnLess(0x10, 0xfffff0));
    EXPECT_TRUE(PsnLess(1, 2));
    EXPECT_FALSE(PsnLess(2, 1));
    EXPECT_FALSE(PsnLess(7, 7));
    // Every PSN is "after" the 2^23-1 PSNs before it.
    for (uint32_t d = 1; d < (1u << 23); d += 4093)
    {
        EXPECT_TRUE(PsnLess(PsnAdd(0xfffff0, 0), PsnAdd(0xfffff0, d))) << d;
        EXPECT_EQ(PsnDiff(PsnAdd(0xfffff0, d), 0xfffff0), static_cast<int32_t>(d));
    }
}

// ---------------------------------------------------------------------------------------------
// BTH

namespace
{

/// \return a BTH with distinct field values
MrcBthHeader
SampleBth()
{
    MrcBthHeader h;
    h.SetOpcode(MrcOpcode::WRITE_FIRST);
    h.SetSolicitedEvent(true);
    h.SetMigReq(false);
    h.SetPadCount(2);
    h.SetPartitionKey(0x1234);
    h.SetDestQp(0xabcdef);
    h.SetAckRequest(true);
    h.SetPsn(0x123456);
    return h;
}

} // namespace

TEST(MrcBthHeader, Defaults)
{
    CheckTypeId<MrcBthHeader>("ns3::MrcBthHeader");
    MrcBthHeader h;
    EXPECT_EQ(h.GetOpcode(), MrcOpcode::WRITE_ONLY);
    EXPECT_EQ(h.GetPartitionKey(), 0xffff);
    EXPECT_EQ(h.GetDestQp(), 0u);
    EXPECT_EQ(h.GetPsn(), 0u);
    EXPECT_FALSE(h.GetAckRequest());
    EXPECT_FALSE(h.GetSolicitedEvent());
    EXPECT_FALSE(h.GetMigReq());
    EXPECT_EQ(h.GetPadCount(), 0);
    EXPECT_EQ(h.GetTransportVersion(), 0);
    EXPECT_EQ(Bytes(h), (std::vector<uint8_t>{0xCA, 0, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(MrcBthHeader, WireFormat)
{
    const std::vector<uint8_t> golden =
        {0xC6, 0xA0, 0x12, 0x34, 0x00, 0xab, 0xcd, 0xef, 0x80, 0x12, 0x34, 0x56};
    EXPECT_EQ(Bytes(SampleBth()), golden);
    // Single bits of byte 1.
    MrcBthHeader m;
    m.SetMigReq(true);
    EXPECT_EQ(Bytes(m)[1], 0x40);
    MrcBthHeader t;
    t.SetTransportVersion(0xf);
    EXPECT_EQ(Bytes(t)[1], 0x0f);
    MrcBthHeader p;
    p.SetPadCount(3);
    EXPECT_EQ(Bytes(p)[1], 0x30);
}

TEST(MrcBthHeader, RoundTrip)
{
    const MrcBthHeader in = SampleBth();
    uint32_t consumed = 0;
    MrcBthHeader out = Parse<MrcBthHeader>(Bytes(in), consumed);
    EXPECT_EQ(consumed, 12u);
    EXPECT_TRUE(out.IsValid()) << out.GetError();
    EXPECT_EQ(out.GetOpcode(), MrcOpcode::WRITE_FIRST);
    EXPECT_TRUE(out.GetSolicitedEvent());
    EXPECT_FALSE(out.GetMigReq());
    EXPECT_EQ(out.GetPadCount(), 2);
    EXPECT_EQ(out.GetTransportVersion(), 0);
    EXPECT_EQ(out.GetPartitionKey(), 0x1234);
    EXPECT_EQ(out.GetDestQp(), 0xabcdefu);
    EXPECT_TRUE(out.GetAckRequest());
    EXPECT_EQ(out.GetPsn(), 0x123456u);
    EXPECT_EQ(Bytes(out), Bytes(in));
    // Every opcode round-trips.
    for (MrcOpcode op : {MrcOpcode::WRITE_FIRST,
                         MrcOpcode::WRITE_MIDDLE,
                         MrcOpcode::WRITE_LAST,
                         MrcOpcode::WRITE_LAST_IMM,
                         MrcOpcode::WRITE_ONLY,
                         MrcOpcode::WRITE_ONLY_IMM,
                         MrcOpcode::ACK,
                         MrcOpcode::SACK,
                         MrcOpcode::NACK,
                         MrcOpcode::PROBE})
    {
        MrcBthHeader h;
        h.SetOpcode(op);
        h.SetPsn(kPsnMask);
        h.SetDestQp(kPsnMask);
        MrcBthHeader r = Parse<MrcBthHeader>(Bytes(h), consumed);
        EXPECT_TRUE(r.IsValid());
        EXPECT_EQ(r.GetOpcode(), op);
        EXPECT_EQ(r.GetPsn(), kPsnMask);
        EXPECT_EQ(r.GetDestQp(), kPsnMask);
    }
    EXPECT_NE(Printed(in).find("WRITE_FIRST"), std::string::npos);
}

TEST(MrcBthHeader, ReservedBitsIgnored)
{
    // Reserved byte 4 and the 7 reserved bits of byte 8 set: read as zero, header valid.
    const std::vector<uint8_t> bytes =
        {0xD1, 0x00, 0xff, 0xff, 0xff, 0x00, 0x00, 0x07, 0x7f, 0x00, 0x00, 0x09};
    uint32_t consumed = 0;
    MrcBthHeader h = Parse<MrcBthHeader>(bytes, consumed);
    EXPECT_EQ(consumed, 12u);
    EXPECT_TRUE(h.IsValid());
    EXPECT_EQ(h.GetOpcode(), MrcOpcode::ACK);
    EXPECT_EQ(h.GetDestQp(), 7u);
    EXPECT_FALSE(h.GetAckRequest());
    EXPECT_EQ(h.GetPsn(), 9u);
}

TEST(MrcBthHeader, Truncated)
{
    CheckTruncations<MrcBthHeader>(Bytes(SampleBth()), "MrcBthHeader");
    CheckErrorCleared<MrcBthHeader>(Bytes(SampleBth()));
}

TEST(MrcBthHeader, UnknownOpcode)
{
    for (uint8_t raw : {0x00, 0x04, 0x0a, 0xC5, 0xCC, 0xD0, 0xDF, 0xff})
    {
        std::vector<uint8_t> bytes = Bytes(SampleBth());
        bytes[0] = raw;
        uint32_t consumed = 0;
        MrcBthHeader h = Parse<MrcBthHeader>(bytes, consumed);
        EXPECT_EQ(consumed, 12u);
        EXPECT_FALSE(h.IsValid());
        EXPECT_NE(h.GetError().find("unknown opcode 0x"), std::string::npos) << h.GetError();
        EXPECT_EQ(static_cast<uint8_t>(h.GetOpcode()), raw);
        EXPECT_EQ(h.GetPsn(), 0x123456u); // the rest is still read
    }
    std::vector<uint8_t> bytes = Bytes(SampleBth());
    bytes[0] = 0x0a;
    uint32_t consumed = 0;
    EXPECT_EQ(Parse<MrcBthHeader>(bytes, consumed).GetError(), "MrcBthHeader: unknown opcode 0x0a");
}

TEST(MrcBthHeader, RangeChecks)
{
    MrcBthHeader h;
    ExpectInvalid(
        [&] {
            h.SetDestQp(1u << 24);
        },
        "DestQp");
    ExpectInvalid(
        [&] {
            h.SetDestQp(0xffffffff);
        },
        "DestQp");
    ExpectInvalid(
        [&] {
            h.SetPsn(1u << 24);
        },
        "Psn");
    ExpectInvalid(
        [&] {
            h.SetPadCount(4);
        },
        "PadCount");
    ExpectInvalid(
        [&] {
            h.SetTransportVersion(16);
        },
        "TransportVersion");
    ExpectInvalid(
        [&] {
            h.SetOpcode(static_cast<MrcOpcode>(0x00));
        },
        "opcode");
    EXPECT_NO_THROW(h.SetDestQp(0xffffff));
    EXPECT_NO_THROW(h.SetPsn(0xffffff));
    EXPECT_EQ(h.GetDestQp(), 0xffffffu);
    EXPECT_EQ(h.GetPsn(), 0xffffffu);
    // A rejected value leaves the field alone.
    EXPECT_THROW(h.SetPsn(0x1000000), std::invalid_argument);
    EXPECT_EQ(h.GetPsn(), 0xffffffu);
    try
    {
        h.SetPsn(0x1000000);
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_STREQ(e.what(), "MrcBthHeader: Psn (=16777216) must be in 0..16777215 (24 bits)");
    }
}

// ---------------------------------------------------------------------------------------------
// METH, TSETH, RETH, ImmDt

TEST(MrcMethHeader, Format)
{
    CheckTypeId<MrcMethHeader>("ns3::MrcMethHeader");
    EXPECT_EQ(Bytes(MrcMethHeader()), (std::vector<uint8_t>{0, 0, 0, 0}));
    MrcMethHeader h;
    h.SetMsn(0x01020304);
    const std::vector<uint8_t> golden = {0x01, 0x02, 0x03, 0x04};
    EXPECT_EQ(Bytes(h), golden);
    uint32_t consumed = 0;
    MrcMethHeader r = Parse<MrcMethHeader>(golden, consumed);
    EXPECT_EQ(consumed, 4u);
    EXPECT_EQ(r.GetMsn(), 0x01020304u);
    EXPECT_NE(Printed(r).find("16909060"), std::string::npos);
    CheckTruncations<MrcMethHeader>(golden, "MrcMethHeader");
    CheckErrorCleared<MrcMethHeader>(golden);
}

TEST(MrcTsethHeader, Format)
{
    CheckTypeId<MrcTsethHeader>("ns3::MrcTsethHeader");
    EXPECT_EQ(Bytes(MrcTsethHeader()), (std::vector<uint8_t>{0, 0, 0, 0}));
    MrcTsethHeader h;
    h.SetTimestamp(0xbeef);
    const std::vector<uint8_t> golden = {0xbe, 0xef, 0x00, 0x00};
    EXPECT_EQ(Bytes(h), golden);
    uint32_t consumed = 0;
    MrcTsethHeader r = Parse<MrcTsethHeader>(golden, consumed);
    EXPECT_EQ(consumed, 4u);
    EXPECT_EQ(r.GetTimestamp(), 0xbeef);
    // Reserved bits are ignored when read.
    r = Parse<MrcTsethHeader>({0x12, 0x34, 0xff, 0xff}, consumed);
    EXPECT_TRUE(r.IsValid());
    EXPECT_EQ(r.GetTimestamp(), 0x1234);
    EXPECT_EQ(Bytes(r), (std::vector<uint8_t>{0x12, 0x34, 0, 0}));
    CheckTruncations<MrcTsethHeader>(golden, "MrcTsethHeader");
    CheckErrorCleared<MrcTsethHeader>(golden);
}

TEST(MrcRethHeader, Format)
{
    CheckTypeId<MrcRethHeader>("ns3::MrcRethHeader");
    EXPECT_EQ(Bytes(MrcRethHeader()), std::vector<uint8_t>(16, 0));
    MrcRethHeader h;
    h.SetVirtualAddress(0x0102030405060708ULL);
    h.SetRkey(0x090a0b0c);
    h.SetDmaLength(0x0d0e0f10);
    const std::vector<uint8_t> golden = {0x01,
                                         0x02,
                                         0x03,
                                         0x04,
                                         0x05,
                                         0x06,
                                         0x07,
                                         0x08,
                                         0x09,
                                         0x0a,
                                         0x0b,
                                         0x0c,
                                         0x0d,
                                         0x0e,
                                         0x0f,
                                         0x10};
    EXPECT_EQ(Bytes(h), golden);
    uint32_t consumed = 0;
    MrcRethHeader r = Parse<MrcRethHeader>(golden, consumed);
    EXPECT_EQ(consumed, 16u);
    EXPECT_EQ(r.GetVirtualAddress(), 0x0102030405060708ULL);
    EXPECT_EQ(r.GetRkey(), 0x090a0b0cu);
    EXPECT_EQ(r.GetDmaLength(), 0x0d0e0f10u);
    EXPECT_NE(Printed(r).find("0x102030405060708"), std::string::npos) << Printed(r);
    EXPECT_NE(Printed(r).find("len 219025168"), std::string::npos) << Printed(r);
    CheckTruncations<MrcRethHeader>(golden, "MrcRethHeader");
    CheckErrorCleared<MrcRethHeader>(golden);
}

TEST(MrcImmDtHeader, Format)
{
    CheckTypeId<MrcImmDtHeader>("ns3::MrcImmDtHeader");
    EXPECT_EQ(Bytes(MrcImmDtHeader()), (std::vector<uint8_t>{0, 0, 0, 0}));
    MrcImmDtHeader h;
    h.SetImmediateData(0xdeadbeef);
    const std::vector<uint8_t> golden = {0xde, 0xad, 0xbe, 0xef};
    EXPECT_EQ(Bytes(h), golden);
    uint32_t consumed = 0;
    MrcImmDtHeader r = Parse<MrcImmDtHeader>(golden, consumed);
    EXPECT_EQ(consumed, 4u);
    EXPECT_EQ(r.GetImmediateData(), 0xdeadbeefu);
    CheckTruncations<MrcImmDtHeader>(golden, "MrcImmDtHeader");
    CheckErrorCleared<MrcImmDtHeader>(golden);
}

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
