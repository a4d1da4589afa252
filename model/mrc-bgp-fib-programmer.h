/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_BGP_FIB_PROGRAMMER_H
#define MRC_BGP_FIB_PROGRAMMER_H

#include "mrc-bgp-fabric-rib.h"

#include "ns3/mrc-bgp-convergence-timing.h"
#include "ns3/mrc-ipv6-ecmp-routing.h"
#include "ns3/nstime.h"
#include "ns3/simple-ref-count.h"
#include "ns3/traced-callback.h"

#include <memory>
#include <set>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The FIB programming of every switch of a fabric: BGP decisions in, ECMP table changes
 * (MrcIpv6EcmpRouting::SetRouteNextHops) out after the programming time.
 *
 * The T0 routes whose decision changed at one instant form one batch; a switch programs one
 * batch at a time (MrcBgpConvergenceTiming::GetFibBatchEnd), and a batch holds the next hops BGP
 * chose when it was formed. A route that changed and changed back before its batch formed costs
 * nothing. Part of MrcBgpReconvergenceModel, which owns the traces it fires.
 */
class MrcBgpFibProgrammer : public SimpleRefCount<MrcBgpFibProgrammer>
{
  public:
    /// The traces to fire (the model's): start, end (node id), batch (node id, routes).
    struct Traces
    {
        TracedCallback<uint32_t>* start;           //!< ConvergenceStart
        TracedCallback<uint32_t>* end;             //!< ConvergenceEnd
        TracedCallback<uint32_t, uint32_t>* batch; //!< RoutesChanged
    };

    /**
     * \param rib the speakers (their steady state must be the installed tables)
     * \param t0Count T0s per plane
     * \param traces where to report
     * \throws std::invalid_argument if a switch has no MrcIpv6EcmpRouting or its table differs
     *         from the BGP steady state
     */
    MrcBgpFibProgrammer(std::shared_ptr<const MrcBgpFabricRib> rib,
                        uint32_t t0Count,
                        Traces traces);

    /// The model is gone: program nothing more, report nothing.
    void Detach();

    /// \param timing the timing of the batches formed from now on
    void SetTiming(const MrcBgpConvergenceTiming& timing);

    /**
     * BGP changed a switch's next hops towards a T0: program it in the batch of this instant.
     * \param sw switch index
     * \param t0 T0 index
     */
    void Changed(uint32_t sw, uint32_t t0);

    /// \return true if no batch is forming or being programmed
    bool IsIdle() const;

    /// \return when the last batch of any switch was programmed (0 if none yet)
    Time GetLastProgrammed() const;

    /// \return T0 routes, over all switches, whose FIB group is empty now
    uint32_t GetUnreachableRoutes() const;

    /**
     * \param sw switch index
     * \return its MrcIpv6EcmpRouting
     */
    Ptr<MrcIpv6EcmpRouting> GetRouting(uint32_t sw) const;

  private:
    /// A batch: (T0 index, next-hop interfaces) per route.
    using Batch = std::vector<std::pair<uint32_t, std::vector<uint32_t>>>;

    /// One switch.
    struct Switch
    {
        Ptr<MrcIpv6EcmpRouting> routing;            //!< its data plane
        std::vector<std::vector<uint32_t>> planned; //!< per T0: next hops, once programmed
        std::set<uint32_t> dirty;                   //!< T0s changed at this instant
        bool flushScheduled{false};                 //!< a Flush is scheduled now
        uint32_t pendingBatches{0};                 //!< batches being programmed
        Time busyUntil;                             //!< end of its last batch
    };

    /// \param sw switch index: turn its changed routes into one batch
    void Flush(uint32_t sw);

    /**
     * \param sw switch index
     * \param batch the routes its FIB now holds
     */
    void Apply(uint32_t sw, Batch batch);

    std::shared_ptr<const MrcBgpFabricRib> m_rib; //!< the speakers
    std::vector<Switch> m_switches;               //!< by switch index
    Traces m_traces;                              //!< traces
    MrcBgpConvergenceTiming m_timing;             //!< timing
    Time m_lastProgrammed;                        //!< last batch programmed
    bool m_detached{false};                       //!< the model is gone
};

} // namespace ns3

#endif /* MRC_BGP_FIB_PROGRAMMER_H */
