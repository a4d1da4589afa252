/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "headers": every wire header of the module from untrusted bytes, and the
 * builders of the Segment Routing Header and of uSID carriers from untrusted values.
 *
 * The first byte chooses what is fuzzed, the rest is its input. Properties:
 *  - Deserialize reads only the bytes it is given (returns at most their number); a header it
 *    rejects says why and returns 0 (truncated) or its whole size (a field out of range, raw
 *    value kept); one it accepts returns exactly GetSerializedSize();
 *  - what it accepted serialises to bytes that parse again to the same bytes (no field is lost
 *    or wrapped between the two);
 *  - a builder either throws std::invalid_argument (a clear error) or builds a header that
 *    serialises into exactly GetSerializedSize() bytes and parses back to the same segments,
 *    TLVs and fields; a uSID carrier keeps its uSIDs, its shift drops exactly the active one,
 *    and it is at its end exactly when one uSID is left.
 */

#include "mrc-fuzz.h"

#include "ns3/buffer.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-icrc-trailer.h"
#include "ns3/mrc-immdt-header.h"
#include "ns3/mrc-meth-header.h"
#include "ns3/mrc-nack-header.h"
#include "ns3/mrc-probe-header.h"
#include "ns3/mrc-reth-header.h"
#include "ns3/mrc-sack-header.h"
#include "ns3/mrc-segment-routing-header.h"
#include "ns3/mrc-tseth-header.h"
#include "ns3/mrc-usid-carrier.h"

#include <sstream>
#include <stdexcept>

using namespace ns3;
using namespace ns3::mrcfuzz;

namespace
{

/// What the first input byte selects.
enum class Target : uint8_t
{
    BTH,
    METH,
    TSETH,
    RETH,
    IMMDT,
    SACK,
    NACK,
    PROBE,
    ICRC,
    SRH,
    SRH_BUILDER,
    USID_BUILDER,
    COUNT, //!< number of targets
};

/// \param bytes input \return a buffer holding them
Buffer
ToBuffer(const std::vector<uint8_t>& bytes)
{
    Buffer b;
    b.AddAtStart(static_cast<uint32_t>(bytes.size()));
    if (!bytes.empty())
    {
        b.Begin().Write(bytes.data(), static_cast<uint32_t>(bytes.size()));
    }
    return b;
}

/// \param h a header \return its serialised bytes
template<class H>
std::vector<uint8_t>
Serialized(const H& h)
{
    Buffer b;
    b.AddAtStart(h.GetSerializedSize());
    h.Serialize(b.Begin());
    std::vector<uint8_t> out(b.GetSize());
    b.CopyData(out.data(), b.GetSize());
    return out;
}

/// \param t a trailer \return its serialised bytes
std::vector<uint8_t>
SerializedTrailer(const MrcIcrcTrailer& t)
{
    Buffer b;
    b.AddAtEnd(t.GetSerializedSize());
    t.Serialize(b.End());
    std::vector<uint8_t> out(b.GetSize());
    b.CopyData(out.data(), b.GetSize());
    return out;
}

/**
 * Deserialize a header from untrusted bytes and check the properties above.
 * \param name header name (for the report)
 * \param bytes the bytes
 */
template<class H>
void
CheckHeader(const char* name, const std::vector<uint8_t>& bytes)
{
    Buffer b = ToBuffer(bytes);
    H h;
    const uint32_t read = h.Deserialize(b.Begin());
    std::ostringstream print;
    h.Print(print); // every field printable, accepted or not
    if (read > bytes.size())
    {
        Fail(std::string(name) + ": Deserialize read " + std::to_string(read) + " of "
             + std::to_string(bytes.size()) + " bytes");
    }
    if (!h.IsValid())
    {
        // Truncated: 0 bytes read; a known field out of range: read whole, raw values kept.
        if (h.GetError().empty() || (read != 0 && read != h.GetSerializedSize()))
        {
            Fail(std::string(name) + ": rejected with read=" + std::to_string(read) + " and error '"
                 + h.GetError() + "'");
        }
        return;
    }
    if (read != h.GetSerializedSize())
    {
        Fail(std::string(name) + ": accepted " + std::to_string(read)
             + " bytes but says its size is " + std::to_string(h.GetSerializedSize()));
    }
    const std::vector<uint8_t> once = Serialized(h);
    Buffer again = ToBuffer(once);
    H h2;
    if (h2.Deserialize(again.Begin()) != once.size() || !h2.IsValid() || Serialized(h2) != once)
    {
        Fail(std::string(name) + ": what it accepted does not serialise and parse back ("
             + h2.GetError() + ")");
    }
}

/// \param bytes the bytes before the end \return nothing; checks the ICRC trailer
void
CheckTrailer(const std::vector<uint8_t>& bytes)
{
    Buffer b = ToBuffer(bytes);
    MrcIcrcTrailer t;
    const uint32_t read = t.Deserialize(b.End());
    if (read > bytes.size() || (!t.IsValid() && read != 0)
        || (t.IsValid()
            && (read != t.GetSerializedSize()
                || SerializedTrailer(t) != std::vector<uint8_t>(bytes.end() - read, bytes.end()))))
    {
        Fail("ICRC: read " + std::to_string(read) + " of " + std::to_string(bytes.size())
             + " bytes, valid " + std::to_string(t.IsValid()));
    }
}

/// \param r the reader \return an IPv6 address from 16 bytes
Ipv6Address
ReadAddress(ByteReader& r)
{
    uint8_t a[16] = {};
    const auto bytes = r.Bytes(16);
    std::copy(bytes.begin(), bytes.end(), a);
    return Ipv6Address(a);
}

/// Build an SRH from untrusted values; check the builder's contract.
void
CheckSrhBuilder(ByteReader& r)
{
    MrcSegmentRoutingHeader srh;
    const uint8_t tlvsFirst = r.U8() & 1;
    const size_t segmentCount = r.U8(); // 0..255: the limit is 127 with no TLVs
    std::vector<Ipv6Address> segments;
    for (size_t i = 0; i < segmentCount; ++i)
    {
        segments.push_back(ReadAddress(r));
    }
    std::vector<MrcSegmentRoutingHeader::Tlv> tlvs(r.U8() % 8);
    for (auto& t : tlvs)
    {
        t.type = r.U8();
        // Up to 300 bytes: lengths above 255 must be refused.
        const size_t len = r.U16() % 301;
        t.value = r.Bytes(len);
        t.value.resize(len, 0);
    }
    bool segmentsSet = false;
    auto setSegments = [&] {
        try
        {
            srh.SetSegments(segments);
            segmentsSet = true;
        }
        catch (const std::invalid_argument& e)
        {
            if (std::string(e.what()).find("segment list size") == std::string::npos)
            {
                Fail(std::string("SRH SetSegments: error names no field: ") + e.what());
            }
        }
    };
    auto setTlvs = [&] {
        try
        {
            srh.SetTlvs(tlvs);
        }
        catch (const std::invalid_argument& e)
        {
            if (std::string(e.what()).find("TLV") == std::string::npos)
            {
                Fail(std::string("SRH SetTlvs: error names no field: ") + e.what());
            }
        }
    };
    if (tlvsFirst)
    {
        setTlvs();
        setSegments();
    }
    else
    {
        setSegments();
        setTlvs();
    }
    if (!segmentsSet)
    {
        return; // an SRH without segments is not a header anyone sends
    }
    try
    {
        srh.SetSegmentsLeft(r.U8());
    }
    catch (const std::invalid_argument& e)
    {
        if (std::string(e.what()).find("Segments Left") == std::string::npos)
        {
            Fail(std::string("SRH SetSegmentsLeft: error names no field: ") + e.what());
        }
    }
    srh.SetNextHeader(r.U8());
    srh.SetFlags(r.U8());
    srh.SetTag(r.U16());
    const std::vector<uint8_t> bytes = Serialized(srh);
    if (bytes.size() != srh.GetSerializedSize() || bytes.size() > 8 + 255 * 8
        || bytes[1] != (bytes.size() - 8) / 8)
    {
        Fail("SRH builder: serialised " + std::to_string(bytes.size()) + " bytes, Hdr Ext Len says "
             + std::to_string(8 + 8 * bytes[1]));
    }
    Buffer b = ToBuffer(bytes);
    MrcSegmentRoutingHeader back;
    if (back.Deserialize(b.Begin()) != bytes.size() || !back.IsValid()
        || back.GetSegments() != srh.GetSegments()
        || back.GetSegmentsLeft() != srh.GetSegmentsLeft()
        || back.GetNextHeader() != srh.GetNextHeader() || back.GetTag() != srh.GetTag())
    {
        Fail("SRH builder: what was built does not parse back (" + back.GetError() + ")");
    }
}

/// Build uSID carriers from untrusted values; check the builder's contract.
void
CheckUsidBuilder(ByteReader& r)
{
    const uint32_t blockBits = r.U8();
    const uint64_t block = r.U64();
    std::vector<uint16_t> usids(r.U8() % 12);
    for (auto& u : usids)
    {
        u = r.U16();
    }
    try
    {
        MrcUsidCarrier carrier(blockBits, block);
        const Ipv6Address a = carrier.Compose(usids);
        if (carrier.GetUsids(a) != usids || !carrier.InBlock(a)
            || carrier.GetActive(a) != usids.front())
        {
            Fail("uSID carrier: the uSIDs composed do not read back");
        }
        const Ipv6Address shifted = carrier.Shift(a);
        const std::vector<uint16_t> rest(usids.begin() + 1, usids.end());
        if (carrier.GetUsids(shifted) != rest || carrier.IsEndOfCarrier(a) != rest.empty()
            || carrier.GetActive(shifted) != (rest.empty() ? 0 : rest.front()))
        {
            Fail("uSID carrier: the shift did not drop exactly the active uSID");
        }
        // Shifting an arbitrary address never fails (a switch shifts what arrives).
        const Ipv6Address any = ReadAddress(r);
        carrier.Shift(any);
        carrier.GetUsids(any);
    }
    catch (const std::invalid_argument& e)
    {
        if (std::string(e.what()).find("MrcUsidCarrier") == std::string::npos)
        {
            Fail(std::string("uSID builder: error names no field: ") + e.what());
        }
    }
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    ByteReader r(data, size);
    const auto target = static_cast<Target>(r.U8() % static_cast<uint8_t>(Target::COUNT));
    switch (target)
    {
        case Target::BTH:
            CheckHeader<MrcBthHeader>("BTH", r.Rest());
            break;
        case Target::METH:
            CheckHeader<MrcMethHeader>("METH", r.Rest());
            break;
        case Target::TSETH:
            CheckHeader<MrcTsethHeader>("TSETH", r.Rest());
            break;
        case Target::RETH:
            CheckHeader<MrcRethHeader>("RETH", r.Rest());
            break;
        case Target::IMMDT:
            CheckHeader<MrcImmDtHeader>("ImmDt", r.Rest());
            break;
        case Target::SACK:
            CheckHeader<MrcSackHeader>("SACK", r.Rest());
            break;
        case Target::NACK:
            CheckHeader<MrcNackHeader>("NACK", r.Rest());
            break;
        case Target::PROBE:
            CheckHeader<MrcProbeHeader>("Probe", r.Rest());
            break;
        case Target::ICRC:
            CheckTrailer(r.Rest());
            break;
        case Target::SRH:
            CheckHeader<MrcSegmentRoutingHeader>("SRH", r.Rest());
            break;
        case Target::SRH_BUILDER:
            CheckSrhBuilder(r);
            break;
        case Target::USID_BUILDER:
            CheckUsidBuilder(r);
            break;
        case Target::COUNT:
            break;
    }
    return 0;
}

namespace ns3
{
namespace mrcfuzz
{

std::vector<Input>
Seeds()
{
    std::vector<Input> seeds;
    auto add = [&seeds](Target t, const std::vector<uint8_t>& bytes) {
        Input in{static_cast<uint8_t>(t)};
        in.insert(in.end(), bytes.begin(), bytes.end());
        seeds.push_back(in);
    };
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::WRITE_FIRST);
    bth.SetDestQp(7);
    bth.SetPsn(0xabcdef);
    bth.SetAckRequest(true);
    add(Target::BTH, Serialized(bth));
    MrcMethHeader meth;
    meth.SetMsn(42);
    add(Target::METH, Serialized(meth));
    MrcTsethHeader tseth;
    tseth.SetTimestamp(12345);
    add(Target::TSETH, Serialized(tseth));
    MrcRethHeader reth;
    reth.SetVirtualAddress(0x10000);
    reth.SetDmaLength(65536);
    add(Target::RETH, Serialized(reth));
    MrcImmDtHeader imm;
    imm.SetImmediateData(0xdeadbeef);
    add(Target::IMMDT, Serialized(imm));
    MrcSackHeader sack;
    sack.SetCumulativeAckPsn(1000);
    sack.SetBitmapBasePsn(1001);
    sack.SetReflectedEv(0x12345);
    sack.SetOutOfOrderCount(3);
    sack.SetWindowPenalty(5);
    add(Target::SACK, Serialized(sack));
    MrcNackHeader nack;
    nack.SetCode(MrcNackCode::TRIMMED);
    nack.SetPsn(77);
    nack.SetReflectedEv(9);
    add(Target::NACK, Serialized(nack));
    MrcProbeHeader probe;
    probe.SetSequence(5);
    probe.SetEv(11);
    add(Target::PROBE, Serialized(probe));
    MrcIcrcTrailer icrc;
    icrc.SetValue(0x01020304);
    add(Target::ICRC, SerializedTrailer(icrc));
    MrcSegmentRoutingHeader srh;
    srh.SetNextHeader(17);
    srh.SetSegments({Ipv6Address("fcbb:bb00:1:2::"), Ipv6Address("fcbb:bb00:3:4::")});
    srh.SetTlvs({{MrcSegmentRoutingHeader::kPadN, {0, 0, 0, 0}}});
    srh.SetSegmentsLeft(1);
    add(Target::SRH, Serialized(srh));
    // Builders: a two-segment list with one TLV; a three-uSID carrier in the default block.
    ByteWriter w;
    w.U8(0);
    w.U8(2);
    for (uint8_t s = 1; s <= 2; ++s)
    {
        w.Bytes(std::vector<uint8_t>(16, s));
    }
    w.U8(1);
    w.U8(5);
    w.U16(3);
    w.Bytes({1, 2, 3});
    w.U8(1);
    w.U8(17);
    w.U8(0);
    w.U16(0);
    add(Target::SRH_BUILDER, w.Get());
    ByteWriter u;
    u.U8(MrcUsidCarrier::kDefaultBlockBits);
    u.U64(MrcUsidCarrier::kDefaultBlock);
    u.U8(3);
    u.U16(0x100);
    u.U16(0x200);
    u.U16(0x300);
    u.Bytes(std::vector<uint8_t>(16, 0xfc));
    add(Target::USID_BUILDER, u.Get());
    return seeds;
}

} // namespace mrcfuzz
} // namespace ns3
