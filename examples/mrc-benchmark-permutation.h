/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup mrc
 * The benchmark's permutation and fabric as every simulator it runs takes them (the stock ns-3
 * fat-tree, htsim).
 */

#ifndef MRC_BENCHMARK_PERMUTATION_H
#define MRC_BENCHMARK_PERMUTATION_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace mrcbenchmark
{

/// The permutation run, as the module's own run of the benchmark uses it.
struct PermutationSetup
{
    uint32_t k{8};             //!< fat-tree radix (k^3/4 hosts, three tiers)
    std::vector<uint32_t> dst; //!< host i sends to dst[i]
    uint64_t bytes{0};         //!< bytes per flow
    uint32_t packetSize{4096}; //!< UDP payload bytes per packet
    DataRate rate;             //!< every link's rate (and the stock sources' sending rate)
    Time delay;                //!< every link's delay
};

} // namespace mrcbenchmark
} // namespace ns3

#endif // MRC_BENCHMARK_PERMUTATION_H
