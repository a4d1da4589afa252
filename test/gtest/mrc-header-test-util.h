/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Shared helpers of the wire-header GoogleTests (serialise, parse, truncate, print).
 */

#ifndef MRC_HEADER_TEST_UTIL_H
#define MRC_HEADER_TEST_UTIL_H

#include "ns3/buffer.h"
#include "ns3/packet.h"
#include "ns3/type-id.h"

#include <functional>
#include <gtest/gtest.h>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{
namespace mrcgtest
{

/**
 * \param h a header
 * \return the bytes the header serialises to
 */
template<typename H>
inline std::vector<uint8_t>
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
inline H
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
inline H
Parse(const std::vector<uint8_t>& bytes, uint32_t& consumed)
{
    return Parse<H>(bytes, bytes.size(), consumed);
}

/// \return the header printed
template<typename H>
inline std::string
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
inline void
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
inline void
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
inline void
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
inline void
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

} // namespace mrcgtest
} // namespace ns3

#endif /* MRC_HEADER_TEST_UTIL_H */
