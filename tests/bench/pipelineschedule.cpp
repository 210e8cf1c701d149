#include "pipelineschedule.h"

#include <algorithm>

namespace tracegen {

namespace {

// The order one stage runs its ops in. GPipe: every forward, then every
// backward. 1F1B (PipeDream-Flush, Megatron's default): p - 1 - s
// forwards to fill the pipeline, then one forward and one backward in
// turn, then the backwards left.
std::vector<StageOp> orderOf(PipelineSchedule schedule, int stage, int stages, int m)
{
    std::vector<StageOp> ops;
    const auto add = [&](bool forward, int mb) {
        StageOp op;
        op.forward = forward;
        op.microBatch = mb;
        ops.push_back(op);
    };
    if (schedule == PipelineSchedule::GPipe) {
        for (int i = 0; i < m; ++i)
            add(true, i);
        for (int i = 0; i < m; ++i)
            add(false, i);
        return ops;
    }
    const int warmup = std::min(stages - 1 - stage, m);
    for (int i = 0; i < warmup; ++i)
        add(true, i);
    for (int j = 0; j < m - warmup; ++j) {
        add(true, warmup + j);
        add(false, j);
    }
    for (int j = m - warmup; j < m; ++j)
        add(false, j);
    return ops;
}

} // namespace

std::vector<std::vector<StageOp>> simulatePipeline(PipelineSchedule schedule, int stages, int m, const PipelineTimes &times)
{
    std::vector<std::vector<StageOp>> ops(static_cast<std::size_t>(stages));
    for (int s = 0; s < stages; ++s)
        ops[std::size_t(s)] = orderOf(schedule, s, stages, m);
    constexpr std::int64_t kNotYet = -1;
    std::vector<std::vector<std::int64_t>> forwardEnd(std::size_t(stages), std::vector<std::int64_t>(std::size_t(m), kNotYet));
    std::vector<std::vector<std::int64_t>> backwardEnd = forwardEnd;
    std::vector<std::size_t> next(std::size_t(stages), 0);
    std::vector<std::int64_t> free(std::size_t(stages), 0);
    // Each pass runs every op whose input is there; a valid schedule
    // finishes, and one pass without progress would mean a deadlock.
    for (bool progress = true; progress;) {
        progress = false;
        for (int s = 0; s < stages; ++s) {
            auto &mine = ops[std::size_t(s)];
            for (std::size_t &k = next[std::size_t(s)]; k < mine.size(); ++k) {
                StageOp &op = mine[k];
                const auto i = std::size_t(op.microBatch);
                std::int64_t sent = -1;
                if (op.forward && s > 0)
                    sent = forwardEnd[std::size_t(s - 1)][i];
                else if (!op.forward && s + 1 < stages)
                    sent = backwardEnd[std::size_t(s + 1)][i];
                else if (!op.forward && forwardEnd[std::size_t(s)][i] == kNotYet)
                    break;
                const bool crossStage = (op.forward && s > 0) || (!op.forward && s + 1 < stages);
                if (crossStage && sent == kNotYet)
                    break;
                op.inputSent = crossStage ? sent : -1;
                op.inputArrived = crossStage ? sent + times.transferNs : -1;
                op.start = std::max(free[std::size_t(s)], op.inputArrived);
                op.end = op.start + (op.forward ? times.forwardNs : times.backwardNs);
                free[std::size_t(s)] = op.end;
                (op.forward ? forwardEnd : backwardEnd)[std::size_t(s)][i] = op.end;
                progress = true;
            }
        }
    }
    return ops;
}

} // namespace tracegen
