#pragma once
// Base of the statistics panels: each shows one question's answer for the
// current scope (a range selection or the whole session; one rank or all),
// always computed by the model's statistics engine.
#include "statsscope.h"

#include <QWidget>
#include <memory>
#include <vector>

namespace rankscope {

class StatsPanel : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;
    void setSession(std::shared_ptr<const Session> session)
    {
        m_session = std::move(session);
        m_scope = {};
        refresh();
    }
    void setScope(const stats::StatsScope &scope)
    {
        m_scope = scope;
        refresh();
    }
    const stats::StatsScope &scope() const { return m_scope; }
    // Writes every table as CSV and every chart as PNG into `directory`.
    virtual QStringList exportAll(const QString &directory) = 0;

signals:
    void eventsSelected(const std::vector<rankscope::EventLocation> &events);
    void zoomRequested(rankscope::TimeRange range);
    void searchRequested(const QString &text);

protected:
    virtual void refresh() = 0;
    const Session *session() const { return m_session.get(); }

private:
    std::shared_ptr<const Session> m_session;
    stats::StatsScope m_scope;
};

// Replaces the widget at `slot` in `layout` (charts are rebuilt per scope).
void replaceWidget(QWidget *&slot, QWidget *replacement);

} // namespace rankscope
