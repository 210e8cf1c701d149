#pragma once
// Shows the selected event's fields (describeEvent) as a small table.
// Related events are links: activating one selects it.
#include "session/session.h"
#include "stats/ranks/collectives.h"
#include "timeline/timemark.h"

#include <QWidget>
#include <memory>
#include <optional>

class QTextBrowser;

namespace rankscope {

class DetailsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DetailsPanel(QWidget *parent = nullptr);
    void setSession(std::shared_ptr<const Session> session);
    void showDetails(std::optional<EventLocation> event);
    // A span a panel pointed at that is no event (a GPU gap): its title and fields.
    void showMark(const TimeMark &mark);
    // Below the selected kernel's fields: the collective it is part of,
    // with every rank's arrival, wait and kernel (a link).
    void appendCollective(const stats::CollectiveInstance &collective);
    QString plainText() const;

signals:
    void linkActivated(rankscope::EventLocation event);

private:
    std::shared_ptr<const Session> m_session;
    QTextBrowser *m_text;
    QString m_html; // what m_text shows
};

} // namespace rankscope
