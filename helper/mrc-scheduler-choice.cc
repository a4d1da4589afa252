/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-scheduler-choice.h"

#include "ns3/object-factory.h"
#include "ns3/scheduler.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"

#include <stdexcept>

namespace ns3
{

void
MrcSchedulerChoice::Check(const std::string& field, const std::string& name)
{
    if (name.empty())
    {
        return;
    }
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(name, &tid) || !tid.IsChildOf(Scheduler::GetTypeId()))
    {
        throw std::invalid_argument(field + " (=\"" + name
                                    + "\") must be an ns-3 scheduler: ns3::CalendarScheduler, "
                                      "ns3::MapScheduler, ns3::HeapScheduler, ns3::ListScheduler "
                                      "or ns3::PriorityQueueScheduler (empty: keep the "
                                      "simulator's)");
    }
}

void
MrcSchedulerChoice::Apply(const std::string& field, const std::string& name)
{
    Check(field, name);
    if (name.empty())
    {
        return;
    }
    ObjectFactory factory;
    factory.SetTypeId(name);
    Simulator::SetScheduler(factory);
}

} // namespace ns3
