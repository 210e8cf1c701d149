#pragma once
// One detector per finding of the diagnosis (stats/diagnosis/diagnosis.h): each
// reads the ranks' loops (stats/diagnosis/diagnosisloop.h) and what it needs of the
// session, and gives its finding with its instances, evidence and cost per
// rank. diagnose() runs them in order and keeps the findings that cost
// enough; the rules are in docs/statistics.md, "Diagnosis".
#include "stats/diagnosis/diagnosis.h"
#include "stats/diagnosis/diagnosisloop.h"

#include <map>
#include <vector>

namespace rankscope::stats {

// A finding as a detector gives it: before its share, severity and ranks
// are set from the cost per rank.
struct DetectedFinding {
    explicit DetectedFinding(FindingKind kind); // with the kind's id, title and advice
    Finding finding;
    std::map<int, TimeNs> costPerRank;  // by rank index
    void add(FindingInstance instance); // counts its cost to its rank and the finding
    TimeNs costOf(int rankIndex) const;
};

// GPU gaps in the loop that data loading covers enough of. The loop's
// other gaps, per rank, are what low utilisation may list.
struct InputStarvationResult {
    DetectedFinding starvation{FindingKind::InputStarvation};
    std::map<int, std::vector<Interval>> otherGaps;
};
InputStarvationResult detectInputStarvation(const Session &session, const std::vector<RankLoop> &loops, const DiagnosisThresholds &thresholds);

// Copies from or to pageable memory, or by a synchronous copy call, in the loop.
DetectedFinding detectBlockingCopies(const Session &session, const std::vector<RankLoop> &loops);

// Synchronising calls in the loop after which the GPU ran dry.
DetectedFinding detectSynchronisation(const Session &session, const std::vector<RankLoop> &loops);

// Most kernels shorter than their launch call while the GPU idles in short gaps.
DetectedFinding detectLaunchBound(const Session &session, const std::vector<RankLoop> &loops, const DiagnosisThresholds &thresholds);

// The rank the others wait for most at collectives (matched and aligned).
DetectedFinding detectStraggler(const Session &session, const DiagnosisInputs &inputs);
// Pipeline parallelism's bubble (stats/ranks/pipelinebubbles.h): each
// stage's step time it did not compute, per step and stage. The sends and
// receives between a pipeline's stages are its bubble, not a straggler's
// delay, so detectStraggler leaves them out.
DetectedFinding detectPipelineBubble(const Session &session, const DiagnosisInputs &inputs);

// Scalasca's MPI wait states (stats/mpi/mpiwaitstates.h), each wait an
// instance on the rank that waited, its call to select; the messages
// between a pipeline's stages left out (they are its bubble).
DetectedFinding detectMpiWaits(const Session &session, const DiagnosisInputs &inputs);

// Idle GPU time that none of `explaining` accounts for, on ranks busy less
// than the threshold.
DetectedFinding detectLowUtilisation(const Session &session, const std::vector<RankLoop> &loops,
                                     const std::map<int, std::vector<Interval>> &unexplainedGaps,
                                     const std::vector<const DetectedFinding *> &explaining, const DiagnosisThresholds &thresholds);

// Whether an API call blocks the CPU until the GPU is done (stream, event,
// device or context synchronisation), or copies synchronously.
bool isBlockingSync(std::string_view apiName);
bool isSynchronousCopyApi(std::string_view apiName);

// A share as the findings write it: "12.3%".
QString percentText(double share);

} // namespace rankscope::stats
