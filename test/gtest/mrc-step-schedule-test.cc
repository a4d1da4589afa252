/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-training-job.h"
#include "ns3/mrc-workload-helper.h"

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
   bool blocking = true,
   uint32_t lane = 0,
   const std::vector<uint32_t>& after = {})
{
    MrcTrainingJob::Operation op;
    op.label = label;
    op.compute = MicroSeconds(compute);
    op.blocking = blocking;
    op.lane = lane;
    op.after = after;
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

TEST(MrcStepSchedule, LanesRunConcurrently)
{
    // Two pipeline stages with nothing between them: the longer lane ends the step.
    EXPECT_EQ(MrcTrainingJob::ScheduleEnd(
                  {Op("s0", 10, {{"a20", 0}}, true, 0), Op("s1", 5, {{"a30", 1}}, true, 1)},
                  Duration),
              MicroSeconds(35));
}

TEST(MrcStepSchedule, AnOperationWaitsForTheOperationsItIsAfter)
{
    // Stage 0 computes micro-batches 0 and 1 (10 us each) and sends each (5 us, not waited
    // for, one stream); stage 1 computes each (10 us) once its send has ended:
    // send 0 ends at 15, stage 1's F0 runs 15-25; send 1 runs 20-25, F1 25-35.
    const std::vector<MrcTrainingJob::Operation> ops{Op("s0/F0", 10, {}, true, 0),
                                                     Op("s0/send0", 0, {{"a5", 7}}, false, 0),
                                                     Op("s0/F1", 10, {}, true, 0),
                                                     Op("s0/send1", 0, {{"a5", 7}}, false, 0),
                                                     Op("s1/F0", 10, {}, true, 1, {1}),
                                                     Op("s1/F1", 10, {}, true, 1, {3})};
    EXPECT_EQ(MrcTrainingJob::ScheduleEnd(ops, Duration), MicroSeconds(35));
    // Without the dependencies stage 1 would end at 20.
    auto free = ops;
    free[4].after.clear();
    free[5].after.clear();
    EXPECT_EQ(MrcTrainingJob::ScheduleEnd(free, Duration), MicroSeconds(25));
    // The order of the lanes in the program does not matter: a later operation can be waited
    // for.
    const std::vector<MrcTrainingJob::Operation> later{Op("s1/F0", 10, {}, true, 1, {3}),
                                                       Op("s1/F1", 10, {}, true, 1, {5}),
                                                       Op("s0/F0", 10, {}, true, 0),
                                                       Op("s0/send0", 0, {{"a5", 7}}, false, 0),
                                                       Op("s0/F1", 10, {}, true, 0),
                                                       Op("s0/send1", 0, {{"a5", 7}}, false, 0)};
    EXPECT_EQ(MrcTrainingJob::ScheduleEnd(later, Duration), MicroSeconds(35));
}

TEST(MrcStepSchedule, ACycleOrABadIndexIsRefused)
{
    EXPECT_THROW(
        MrcTrainingJob::ScheduleEnd({Op("a", 1, {}, true, 0, {1}), Op("b", 1, {}, true, 1, {0})},
                                    Duration),
        std::logic_error);
    EXPECT_THROW(MrcTrainingJob::ScheduleEnd({Op("a", 1, {}, true, 0, {4})}, Duration),
                 std::invalid_argument);
    EXPECT_THROW(MrcTrainingJob::ScheduleEnd({Op("a", 1, {}, true, 0, {0})}, Duration),
                 std::invalid_argument);
}

namespace
{
/**
 * \param order a stage's passes
 * \return them as text, e.g. "F0 F1 B0 B1"
 */
std::string
Text(const std::vector<std::pair<bool, uint32_t>>& order)
{
    std::string out;
    for (const auto& [forward, m] : order)
    {
        out += (out.empty() ? "" : " ") + std::string(forward ? "F" : "B") + std::to_string(m);
    }
    return out;
}
} // namespace

TEST(MrcStepSchedule, PipelineOrderIsOneForwardOneBackwardOrGPipe)
{
    using S = MrcWorkloadHelper::PipelineSchedule;
    // 1F1B, 4 stages, 6 micro-batches: stage s warms up with 3 - s forwards.
    EXPECT_EQ(Text(MrcWorkloadHelper::PipelineOrder(S::ONE_F_ONE_B, 4, 0, 6)),
              "F0 F1 F2 F3 B0 F4 B1 F5 B2 B3 B4 B5");
    EXPECT_EQ(Text(MrcWorkloadHelper::PipelineOrder(S::ONE_F_ONE_B, 4, 2, 6)),
              "F0 F1 B0 F2 B1 F3 B2 F4 B3 F5 B4 B5");
    EXPECT_EQ(Text(MrcWorkloadHelper::PipelineOrder(S::ONE_F_ONE_B, 4, 3, 6)),
              "F0 B0 F1 B1 F2 B2 F3 B3 F4 B4 F5 B5");
    // Fewer micro-batches than the warm-up: every forward, then every backward.
    EXPECT_EQ(Text(MrcWorkloadHelper::PipelineOrder(S::ONE_F_ONE_B, 4, 0, 2)), "F0 F1 B0 B1");
    EXPECT_EQ(Text(MrcWorkloadHelper::PipelineOrder(S::GPIPE, 4, 1, 3)), "F0 F1 F2 B2 B1 B0");
    EXPECT_EQ(MrcWorkloadHelper::ParsePipelineSchedule("gpipe"), S::GPIPE);
    EXPECT_THROW(MrcWorkloadHelper::ParsePipelineSchedule("1F1B"), std::invalid_argument);
}
