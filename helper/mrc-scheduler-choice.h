/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SCHEDULER_CHOICE_H
#define MRC_SCHEDULER_CHOICE_H

#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief The simulator's event scheduler chosen by name, for scenarios and benchmarks.
 *
 * Every ns-3 scheduler runs events in the same order (time, then insertion), so the choice
 * changes the wall time of a run, never its results (checked: the flagship's results directory
 * is byte-identical under the map, calendar, heap and priority-queue schedulers). Measured on
 * this module's fabrics (doc/mrc-validation.rst, "Schedulers again"), ns-3's
 * ns3::PriorityQueueScheduler (a binary heap on a std::vector) ran 5-10 % faster than ns-3's
 * default map, both against Debian's ns-3 (logging compiled in, where ns3::HeapScheduler's
 * per-step log checks make it the slowest) and in an optimized build at k = 16, so scenarios
 * and benchmarks use it unless told otherwise. Its Remove is a linear search, which no model
 * here uses (they Cancel).
 */
class MrcSchedulerChoice
{
  public:
    /// The scheduler scenarios and benchmarks use unless told otherwise ("" would keep the
    /// simulator's own, e.g. --SchedulerType).
    static constexpr const char* kDefault = "ns3::PriorityQueueScheduler";

    /**
     * \param field the attribute or option that gave the name (for the message)
     * \param name a TypeId name ("": keep the simulator's, e.g. --SchedulerType)
     * \throws std::invalid_argument naming the field and the accepted schedulers unless it is
     *         empty or a subclass of ns3::Scheduler
     */
    static void Check(const std::string& field, const std::string& name);

    /**
     * Make the simulator use that scheduler from now on (events already scheduled move over).
     * \param field the attribute or option that gave the name
     * \param name a TypeId name ("": nothing changes)
     * \throws std::invalid_argument as Check
     */
    static void Apply(const std::string& field, const std::string& name);
};

} // namespace ns3

#endif /* MRC_SCHEDULER_CHOICE_H */
