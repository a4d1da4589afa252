/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PATH_HEALTH_H
#define MRC_PATH_HEALTH_H

#include "ns3/core-module.h"
#include "ns3/mrc-module.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * What the experiments of the mrc-path-health example share: its options, the fabric it builds
 * and the flows it runs. gray and steer, the options' checks and main(): mrc-path-health.cc;
 * links and flap: mrc-path-health-load.cc.
 */

namespace ns3
{
namespace mrcpathhealth
{

/// The command line (0 for a size or a time: the experiment's default).
struct Options
{
    std::string experiment{"gray"}; //!< gray, links, flap or steer
    uint32_t planes{0};             //!< planes
    uint32_t t0{0};                 //!< T0s per plane
    uint32_t hostsPerT0{0};         //!< hosts per T0
    uint32_t t1{0};                 //!< T1s per plane
    std::string rate{"100Gbps"};    //!< every link
    uint32_t evs{16};               //!< EvSetSize
    double loss{0.2};               //!< gray: loss probability
    double atUs{0};                 //!< gray, flap: onset; steer: end of warm-up
    double intervalUs{0};           //!< series interval
    double stopUs{0};               //!< end of the run
    double stepUs{200};             //!< links: time between failures
    uint32_t count{0};              //!< links: failures; flap: flapping links
    double periodUs{100};           //!< flap: period
    double duty{0.5};               //!< flap: fraction of the period down
    uint32_t seed{1};               //!< RNG seed
    bool perFlow{false};            //!< links, flap: per-flow goodput and recovery counters
    int32_t traceFlow{-1};          //!< links, flap: flow whose sender events go to stderr
    uint32_t traceQueues{0};        //!< links, flap: print switch queues above this (bytes)
};

/// A fabric with MRC installed (the helpers must outlive the run).
struct Fabric
{
    Ptr<MrcFabricTopology> topo;                                      //!< the fabric
    std::unique_ptr<MrcDataPlaneHelper> dp;                           //!< SRv6 data plane
    std::unique_ptr<MrcHelper> mrc;                                   //!< transport
    Ptr<MrcFailureHelper> failures;                                   //!< failures
    Ptr<MrcTransferMonitor> monitor;                                  //!< goodput
    std::vector<std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>>> qps; //!< flows
};

/// Build a fabric (MRC over SRv6, trimming switches) and a goodput monitor. \param o options
/// \param spec shape \param schedule adds failures (before streams are fixed) \return it
Fabric Build(const Options& o, const MrcClosSpec& spec, std::function<void(Fabric&)> schedule);

/// Connect a flow, watch it, post one write longer than the run. \param o options \param f
/// fabric \param a sender \param b receiver \param deny called with the sender first (DenyEv)
void AddFlow(const Options& o,
             Fabric& f,
             uint32_t a,
             uint32_t b,
             std::function<void(Ptr<MrcQueuePair>)> deny = {});

/// \param f fabric \param o options \return payload placed per interval (all flows, whole run)
std::vector<uint64_t> Series(const Fabric& f, const Options& o);

/// \param bytes payload bytes in one interval \param o options \return Gb/s
double Gbps(double bytes, const Options& o);

/**
 * links and flap: the load with uplinks of T0 0 failing one by one (links), or without and
 * with flapping uplinks (flap).
 * \param o options
 */
void Load(const Options& o);

} // namespace mrcpathhealth
} // namespace ns3

#endif /* MRC_PATH_HEALTH_H */
