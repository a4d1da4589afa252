/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-training-job.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{
/// Comm durations by label: "aN" takes N us.
Time
Duration(const MrcTrainingJob::Comm& c)
{
    return MicroSeconds(std::stoi(c.label.substr(1)));
}

/**
 * \param label the operation
 * \param compute its computation (us)
 * \param comms (label, stream) of its comms
 * \param blocking Operation::blocking
 * \return the operation
 */
MrcTrainingJob::Operation
Op(const std::string& label,
   int compute,
   const std::vector<std::pair<std::string, uint32_t>>& comms,
   bool blocking = true)
{
    MrcTrainingJob::Operation op;
    op.label = label;
    op.compute = MicroSeconds(compute);
    op.blocking = blocking;
    for (const auto& [name, stream] : comms)
    {
        MrcTrainingJob::Comm c;
        c.label = name;
        c.stream = stream;
        op.comms.push_back(c);
    }
    return op;
}
} // namespace

TEST(MrcStepSchedule, OneOperationIsComputeThenItsLongestComm)
{
    // The simple job: ComputeTime, then every collective at once, each on its own stream.
    EXPECT_EQ(MrcTrainingJob::ScheduleEnd({Op("step", 50, {{"a30", 0}, {"a70", 1}})}, Duration),
              MicroSeconds(120));
}

TEST(MrcStepSchedule, BlockingOperationsAddUp)
{
    EXPECT_EQ(
        MrcTrainingJob::ScheduleEnd({Op("fwd1", 10, {{"a5", 0}}), Op("fwd2", 10, {{"a5", 0}})},
                                    Duration),
        MicroSeconds(30));
}

TEST(MrcStepSchedule, NonBlockingCommsOverlapLaterComputeButShareTheirStream)
{
    // Backward: two layers whose gradient all-reduces (stream 1, 40 us each) overlap the next
    // layer's compute (10 us each) but queue behind each other: 10 + 40 + 40 = 90 us, not 60.
    const std::vector<MrcTrainingJob::Operation> ops{Op("bwd2", 10, {{"a40", 1}}, false),
                                                     Op("bwd1", 10, {{"a40", 1}}, false)};
    EXPECT_EQ(MrcTrainingJob::ScheduleEnd(ops, Duration), MicroSeconds(90));
    // On two streams they run at once: 10 + 10 + 40.
    const std::vector<MrcTrainingJob::Operation> two{Op("bwd2", 10, {{"a40", 1}}, false),
                                                     Op("bwd1", 10, {{"a40", 2}}, false)};
    EXPECT_EQ(MrcTrainingJob::ScheduleEnd(two, Duration), MicroSeconds(60));
}

TEST(MrcStepSchedule, ABlockingCommWaitsForItsStreamsEarlierComms)
{
    // A non-blocking 100 us comm on stream 0, then a blocking 5 us one on the same stream: the
    // second starts at 100 us, and the 1 us computation after it waits for it.
    const std::vector<MrcTrainingJob::Operation> ops{Op("wg", 0, {{"a100", 0}}, false),
                                                     Op("x", 0, {{"a5", 0}}),
                                                     Op("update", 1, {})};
    EXPECT_EQ(MrcTrainingJob::ScheduleEnd(ops, Duration), MicroSeconds(106));
}

TEST(MrcStepSchedule, EmptyProgramTakesNoTime)
{
    EXPECT_EQ(MrcTrainingJob::ScheduleEnd({}, Duration), Time(0));
    EXPECT_EQ(MrcTrainingJob::ScheduleEnd({Op("compute", 7, {})}, Duration), MicroSeconds(7));
}
