#pragma once
// Pipeline parallelism's bubble, per step and stage. The stages are found
// from point-to-point traffic: NCCL's matched send/receive pairs and MPI's
// messages link ranks, a pipeline is a chain of them (a ring, with
// interleaved stages) in which each stage sends only once its first input
// arrived (neighbours that exchange at once are a halo exchange), and
// stage 0 is the end whose transfer finished first (activations flow from
// it). Its stages compute in turn (in most steps each stage's first kernel
// starts after the one before finished its first), else they are ranks
// that compute side by side. Step k is each rank's k-th step range
// (stats/ranks/stepmatrix.h); a kernel belongs to the step its launch is
// in. The pipeline's step runs
// from the first compute kernel of any of its stages to the last one's
// end; a stage's bubble is that time less its compute (the union of its
// kernels other than communication): the fill and drain, the idle between
// its micro-batches and the point-to-point waits left exposed.
// docs/statistics.md, "Pipeline bubbles".
#include "session/session.h"
#include "stats/kernelclasses.h"
#include "stats/ranks/collectives.h"
#include "stats/resulttable.h"

#include <vector>

namespace rankscope::stats {

struct PipelineStageStep {
    int step = 0;
    int stage = 0;
    int pipeline = 0;   // into PipelineBubbles::pipelines
    int rankIndex = -1; // into Session::ranks()
    TimeRange window;   // the pipeline's step, session time (the match's clocks)
    TimeNs busy = 0;    // the stage's compute in it
    TimeNs bubble() const { return window.duration() - busy; }
};

struct PipelineBubbles {
    // Each pipeline's rank indices, by stage.
    std::vector<std::vector<int>> pipelines;
    std::vector<PipelineStageStep> rows; // by step, stage, pipeline
    QStringList notes;
};

// The pipelines of a session's point-to-point traffic (rank indices by
// stage): `match`'s NCCL instances and the session's MPI messages, on
// `match`'s clocks. What could not be ordered is said in `notes`.
std::vector<std::vector<int>> pipelineStages(const Session &session, const CollectiveMatch &match, QStringList &notes);

// `stepNames`: the step ranges' pattern (empty: the built-in step names).
PipelineBubbles pipelineBubbles(const Session &session, const CollectiveMatch &match, const KernelClassifier &classes, const QString &stepNames);

// pipeline_bubbles: Step,Stage,Rank,Step Time (ns),Busy (ns),Bubble (ns),Bubble (%).
ResultTable pipelineBubblesTable(const Session &session, const PipelineBubbles &bubbles);

} // namespace rankscope::stats
