/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz targets of the mrc module (issue 20): what every target defines, and a reader that turns
 * the fuzzer's bytes into values.
 *
 * A target is one .cc file that defines LLVMFuzzerTestOneInput (libFuzzer's entry point) and
 * mrcfuzz::Seeds() (valid inputs built with the module's own serializers, so the corpus follows
 * the wire format). It is linked twice:
 *  - with test/fuzz/mrc-fuzz-replay.cc into mrc-fuzz-<name>-replay (any compiler): runs the
 *    seeds and a fixed number of deterministic mutations of them (the CTest smoke run), replays
 *    files (a crash found by libFuzzer), or writes the seeds to a directory;
 *  - with -fsanitize=fuzzer into mrc-fuzz-<name> (clang, -DMRC_FUZZ=ON): libFuzzer itself.
 * A target reports a broken property with Fail(), which aborts: libFuzzer and the replay driver
 * both treat an abort as a finding.
 */

#ifndef MRC_FUZZ_H
#define MRC_FUZZ_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

/// libFuzzer's entry point: run one input; returns 0.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace ns3
{
namespace mrcfuzz
{

/// One fuzz input.
using Input = std::vector<uint8_t>;

/// \return the target's seed inputs
std::vector<Input> Seeds();

/**
 * Report a broken property: prints what and aborts (a finding for libFuzzer and the replay
 * driver).
 * \param what the property and the values that broke it
 */
[[noreturn]] void Fail(const std::string& what);

/**
 * Reads values from the front of a fuzz input; past the end every value is zero and every byte
 * string empty, so a target never needs to check the length first.
 */
class ByteReader
{
  public:
    /**
     * \param data the input
     * \param size its length
     */
    ByteReader(const uint8_t* data, size_t size);

    /// \return the next byte (0 past the end)
    uint8_t U8();
    /// \return the next two bytes, big-endian
    uint16_t U16();
    /// \return the next four bytes, big-endian
    uint32_t U32();
    /// \return the next eight bytes, big-endian
    uint64_t U64();
    /**
     * \param n bytes wanted
     * \return the next n bytes, or fewer if the input ends first
     */
    std::vector<uint8_t> Bytes(size_t n);
    /// \return every byte not read yet
    std::vector<uint8_t> Rest();
    /// \return bytes not read yet
    size_t Remaining() const;

  private:
    const uint8_t* m_data; //!< the input
    size_t m_size;         //!< its length
    size_t m_pos{0};       //!< next byte
};

/**
 * Byte-string writer the seeds use to lay out the same fields ByteReader reads.
 */
class ByteWriter
{
  public:
    /// \param v byte to append
    void U8(uint8_t v);
    /// \param v value appended big-endian
    void U16(uint16_t v);
    /// \param v value appended big-endian
    void U32(uint32_t v);
    /// \param v value appended big-endian
    void U64(uint64_t v);
    /// \param bytes bytes to append
    void Bytes(const std::vector<uint8_t>& bytes);
    /// \return what was written
    const Input& Get() const;

  private:
    Input m_bytes; //!< the input built so far
};

} // namespace mrcfuzz
} // namespace ns3

#endif /* MRC_FUZZ_H */
