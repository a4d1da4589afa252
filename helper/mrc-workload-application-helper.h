/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_WORKLOAD_APPLICATION_HELPER_H
#define MRC_WORKLOAD_APPLICATION_HELPER_H

#include "ns3/application-container.h"
#include "ns3/mrc-collective.h"
#include "ns3/mrc-training-job.h"
#include "ns3/ptr.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

class MrcFabricTopology;

/**
 * \ingroup mrc
 * \brief Installs a workload as ns-3 Applications: one MrcWorkloadApplication per rank, on the
 * rank's host, all sharing one launch, so that the workload begins when the last of them has
 * started (see MrcWorkloadApplication):
 *
 * \code
 *   Ptr<MrcCollective> ring = ...; // Setup(topo, mrc, hosts) done
 *   MrcWorkloadApplicationHelper apps;
 *   ApplicationContainer ranks = apps.Install(ring, topo);
 *   ranks.Start(MicroSeconds(10));
 * \endcode
 *
 * A training job's ranks are the hosts of its collectives, in host order. Install the
 * applications or call the workload's Start (or ScheduleStart), not both.
 */
class MrcWorkloadApplicationHelper
{
  public:
    /**
     * \param collective a collective, Setup done
     * \param topo the fabric it was set up on
     * \return one application per rank, rank order
     * \throws std::invalid_argument if the collective has no ranks
     * \throws std::out_of_range if a host is not in topo (nothing is installed then)
     */
    ApplicationContainer Install(Ptr<MrcCollective> collective, Ptr<MrcFabricTopology> topo) const;
    /**
     * \param job a training job whose collectives are added (AddCollective or a workload file)
     * \param topo the fabric its collectives were set up on
     * \return one application per host of its collectives, in host order
     * \throws std::invalid_argument if the job has no collective
     * \throws std::out_of_range if a host is not in topo (nothing is installed then)
     */
    ApplicationContainer Install(Ptr<MrcTrainingJob> job, Ptr<MrcFabricTopology> topo) const;

  private:
    /**
     * \param name the workload's name
     * \param hosts the ranks' hosts (fabric host indices), rank order
     * \param topo the fabric
     * \param start begins the workload
     * \return the applications
     */
    ApplicationContainer InstallRanks(const std::string& name,
                                      const std::vector<uint32_t>& hosts,
                                      Ptr<MrcFabricTopology> topo,
                                      std::function<void()> start) const;
};

} // namespace ns3

#endif /* MRC_WORKLOAD_APPLICATION_HELPER_H */
