#pragma once
// Diagnosis: what is wrong with a run, across all ranks, each finding with
// what it costs, the ranks it applies to, its instances and advice. The
// rules, thresholds and costs are in docs/statistics.md, "Diagnosis".
#include "session/session.h"
#include "stats/analysissettings.h"
#include "stats/resulttable.h"

#include <optional>
#include <vector>

namespace rankscope::stats {

enum class FindingKind { InputStarvation, BlockingCopies, Synchronisation, LaunchBound, Straggler, MpiWaits, PipelineBubble, LowUtilisation };
enum class Severity { Low, Medium, High };
QString severityName(Severity s);

struct FindingInstance {
    int rankIndex = 0;
    TimeRange time;                     // session time
    std::optional<EventLocation> event; // what to select
    QString what;                       // "gap of 3.2 s, data_loading covers 97%"
    TimeNs cost = 0;
    // What explains it, shown beside it: the data-loading range of a gap
    // the input pipeline starved.
    std::optional<EventLocation> evidence = {};
};

struct Finding {
    FindingKind kind = FindingKind::InputStarvation;
    QString id; // "input_starvation"
    QString title;
    TimeNs cost = 0;  // over all ranks
    double share = 0; // cost / the ranks' GPU spans
    Severity severity = Severity::Low;
    std::vector<int> rankIndices; // the ranks it applies to
    QString ranks;                // "ranks 0-7", "rank 3 only"
    QString evidence;             // one line
    QString advice;
    std::vector<FindingInstance> instances; // costliest first
};

struct Diagnosis {
    std::vector<Finding> findings; // costliest first
    TimeNs gpuSpan = 0;            // summed over ranks: first GPU op to last
    QStringList notes;
};

class KernelClassifier;
struct CollectiveMatch;
struct RankWait;

// What the diagnosis reads that others compute too (analysis/
// analysisworkspace.h makes them once for every reader): the collectives
// matched and aligned, with each rank's waits in them. Null (one rank):
// no straggler.
struct DiagnosisInputs {
    const CollectiveMatch *alignedMatch = nullptr;
    const std::vector<RankWait> *alignedWaits = nullptr; // of alignedMatch, over the whole session
};

// The straggler finding reads `inputs`, matched with the communication
// classes the user's pattern names.
Diagnosis diagnose(const Session &session, const DiagnosisThresholds &thresholds, const DiagnosisInputs &inputs);

// One row per finding: Severity, Finding, Ranks, Cost (ns), Share (%), Instances, Evidence, Advice.
ResultTable findingsTable(const Diagnosis &d);
// One finding's instances: Rank, Start (ns) (from the session start), Duration (ns), Cost (ns), What.
ResultTable findingInstancesTable(const Session &session, const Finding &f);
// A short report: the findings with their evidence, advice and first instances.
QString findingsMarkdown(const Session &session, const Diagnosis &d);

} // namespace rankscope::stats
