#pragma once
// Shows the selected event's fields (describeEvent) as a small table.
// Related events are links: activating one selects it.
#include "session/session.h"

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
    QString plainText() const;

signals:
    void linkActivated(rankscope::EventLocation event);

private:
    std::shared_ptr<const Session> m_session;
    QTextBrowser *m_text;
};

} // namespace rankscope
