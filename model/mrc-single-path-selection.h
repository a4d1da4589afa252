/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SINGLE_PATH_SELECTION_H
#define MRC_SINGLE_PATH_SELECTION_H

#include "mrc-path-selection.h"

namespace ns3
{

/**
 * \ingroup mrc
 * \brief RoCEv2's path selection: one EV for the queue pair's life.
 *
 * A RoCEv2 NIC gives each queue pair one UDP source port, so hash-based ECMP pins the whole queue
 * pair (data and, in the other direction, its acknowledgements) onto one path; over SRv6 the one
 * EV names one source route. The EV is the first candidate of plane (QPN mod planes): a host's
 * queue pairs spread over its NIC ports, each bound to one port as a RoCEv2 QP is. There is no
 * path health: no EV state changes, no probes; losses are repaired only by retransmission
 * (MrcLossRecovery) and the queue pair fails after RetryCount QP timeouts, as an RC QP does when
 * its path is dead.
 */
class MrcSinglePathSelection : public MrcPathSelection
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcSinglePathSelection();
    ~MrcSinglePathSelection() override;

    /**
     * \copydoc MrcPathSelection::Start
     */
    void Start(const Config& config,
               const Hooks& hooks,
               MrcQpStats& stats,
               Ptr<UniformRandomVariable> rng) override;

    /// \return the queue pair's EV
    uint32_t GetEv() const;

  private:
    uint32_t m_ev{0}; //!< the one EV
};

} // namespace ns3

#endif /* MRC_SINGLE_PATH_SELECTION_H */
