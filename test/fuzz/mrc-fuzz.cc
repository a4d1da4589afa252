/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-fuzz.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>

namespace ns3
{
namespace mrcfuzz
{

void
Fail(const std::string& what)
{
    std::cerr << "mrc-fuzz: property broken: " << what << std::endl;
    std::abort();
}

ByteReader::ByteReader(const uint8_t* data, size_t size)
    : m_data(data)
    , m_size(size)
{
}

uint8_t
ByteReader::U8()
{
    return m_pos < m_size ? m_data[m_pos++] : 0;
}

uint16_t
ByteReader::U16()
{
    const uint16_t hi = U8();
    return static_cast<uint16_t>(hi << 8 | U8());
}

uint32_t
ByteReader::U32()
{
    const uint32_t hi = U16();
    return hi << 16 | U16();
}

uint64_t
ByteReader::U64()
{
    const uint64_t hi = U32();
    return hi << 32 | U32();
}

std::vector<uint8_t>
ByteReader::Bytes(size_t n)
{
    const size_t take = std::min(n, Remaining());
    std::vector<uint8_t> out(m_data + m_pos, m_data + m_pos + take);
    m_pos += take;
    return out;
}

std::vector<uint8_t>
ByteReader::Rest()
{
    return Bytes(Remaining());
}

size_t
ByteReader::Remaining() const
{
    return m_size - m_pos;
}

void
ByteWriter::U8(uint8_t v)
{
    m_bytes.push_back(v);
}

void
ByteWriter::U16(uint16_t v)
{
    U8(static_cast<uint8_t>(v >> 8));
    U8(static_cast<uint8_t>(v));
}

void
ByteWriter::U32(uint32_t v)
{
    U16(static_cast<uint16_t>(v >> 16));
    U16(static_cast<uint16_t>(v));
}

void
ByteWriter::U64(uint64_t v)
{
    U32(static_cast<uint32_t>(v >> 32));
    U32(static_cast<uint32_t>(v));
}

void
ByteWriter::Bytes(const std::vector<uint8_t>& bytes)
{
    m_bytes.insert(m_bytes.end(), bytes.begin(), bytes.end());
}

const Input&
ByteWriter::Get() const
{
    return m_bytes;
}

} // namespace mrcfuzz
} // namespace ns3
