#pragma once
// The analysis of what a viewer shows: the workspace of the shown session
// with the user's settings, and the one shown before it (the recorded and
// the aligned views of one run take turns: coming back finds its results).
// The application owns it and hands it to the statistics dock, which shows
// its workspace; the overlays and exports ask it too. New settings make the
// next workspace, which keeps the results they do not touch.
#include "analysis/analysisworkspace.h"

#include <memory>

namespace rankscope {

class AnalysisWorkspaces {
public:
    // The workspace of `session` (null: none) with the settings; the same
    // one while the session stays.
    const WorkspacePtr &show(std::shared_ptr<const Session> session);
    // New settings for the shown session (the one before is dropped: its
    // results are for the old settings). True when they changed.
    bool setSettings(const AnalysisSettings &settings);
    const WorkspacePtr &current() const { return m_current; }
    const AnalysisSettings &settings() const { return m_settings; }
    // A workspace for `session`: the shown one when it is that session's,
    // else a new one with the settings (its results are not kept).
    WorkspacePtr of(const std::shared_ptr<const Session> &session) const;

private:
    AnalysisSettings m_settings;
    WorkspacePtr m_current;
    WorkspacePtr m_previous;
};

} // namespace rankscope
