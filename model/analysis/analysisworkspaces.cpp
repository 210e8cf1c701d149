#include "analysis/analysisworkspaces.h"

namespace rankscope {

const WorkspacePtr &AnalysisWorkspaces::show(std::shared_ptr<const Session> session)
{
    if (!session) {
        m_current.reset();
    } else if (m_current && m_current->session() == session) {
        // the same session again: its results stay
    } else if (m_previous && m_previous->session() == session && m_previous->settings() == m_settings) {
        std::swap(m_current, m_previous);
    } else {
        if (m_current)
            m_previous = std::move(m_current);
        m_current = std::make_shared<const AnalysisWorkspace>(std::move(session), m_settings);
    }
    return m_current;
}

bool AnalysisWorkspaces::setSettings(const AnalysisSettings &settings)
{
    if (settings == m_settings)
        return false;
    m_settings = settings;
    m_previous.reset();
    if (m_current)
        m_current = m_current->withSettings(settings);
    return true;
}

WorkspacePtr AnalysisWorkspaces::of(const std::shared_ptr<const Session> &session) const
{
    if (m_current && m_current->session() == session)
        return m_current;
    return std::make_shared<const AnalysisWorkspace>(session, m_settings);
}

} // namespace rankscope
