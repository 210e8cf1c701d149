#pragma once
// rankscope-tracegen's pipeline-parallel schedules (--schedule): when each
// stage runs each micro-batch's forward and backward, simulated from the
// schedule's order and its dependencies, so a test knows the planted
// bubble. Stage s's forward of micro-batch i needs stage s-1's, its
// backward stage s+1's backward (the last stage: its own forward); the
// data arrives `transferNs` after the other stage's compute ends. With
// GPipe and equal stages the step takes (m + p - 1)(F + B) + 2(p - 1)T,
// each stage computes m(F + B), so its bubble is (p - 1)(F + B + 2T): the
// textbook share (p - 1)/(m + p - 1) when T is 0.
#include <cstdint>
#include <vector>

namespace tracegen {

enum class PipelineSchedule { GPipe, OneForwardOneBackward };

struct PipelineTimes {
    std::int64_t forwardNs = 1'000'000, backwardNs = 2'000'000, transferNs = 20'000;
};

struct StageOp {
    bool forward = true;
    int microBatch = 0;
    std::int64_t start = 0, end = 0; // from the step's start
    // The input's arrival from the stage before (forward) or after
    // (backward), and when that stage's compute ended; -1: no input from
    // another stage (the first stage's forwards, the last one's backwards).
    std::int64_t inputSent = -1, inputArrived = -1;
};

// Per stage, its ops in the schedule's order, timed.
std::vector<std::vector<StageOp>> simulatePipeline(PipelineSchedule schedule, int stages, int microBatches, const PipelineTimes &times);

} // namespace tracegen
