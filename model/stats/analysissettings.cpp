#include "stats/analysissettings.h"

namespace rankscope {

unsigned settingsThatDiffer(const AnalysisSettings &a, const AnalysisSettings &b)
{
    using S = stats::ReportSetting;
    unsigned differ = 0;
    const auto mark = [&](bool differs, S setting) {
        if (differs)
            differ |= unsigned(setting);
    };
    mark(a.gapThresholdMs != b.gapThresholdMs, S::GapThreshold);
    mark(a.utilThresholdPercent != b.utilThresholdPercent || a.utilChunks != b.utilChunks, S::UtilThreshold);
    mark(a.ruleRowLimit != b.ruleRowLimit, S::RuleRows);
    mark(a.mapBins != b.mapBins, S::MapBins);
    mark(a.communicationPattern != b.communicationPattern, S::CommunicationPattern);
    mark(a.alignOnCollectives != b.alignOnCollectives, S::Alignment);
    mark(a.step != b.step, S::Step);
    mark(a.stepNames != b.stepNames, S::StepNames);
    mark(a.whatIfs != b.whatIfs, S::WhatIf);
    mark(a.diagnosis != b.diagnosis, S::DiagnosisThresholds);
    mark(a.kernelNames != b.kernelNames, S::KernelNames);
    mark(a.rows != b.rows, S::Rows);
    mark(a.kernelNvtxPrefix != b.kernelNvtxPrefix, S::KernelNvtxNames);
    mark(a.namePattern != b.namePattern, S::NamePattern);
    mark(a.perThread != b.perThread, S::PerThread);
    return differ;
}

} // namespace rankscope
