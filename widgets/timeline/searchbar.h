#pragma once
// Find events by name (substring or regular expression) in every rank, with
// next / previous and a match count. Enter goes to the next match.
#include "session/eventsearch.h"

#include <QWidget>
#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;

namespace rankscope {

class SearchBar : public QWidget {
    Q_OBJECT
public:
    explicit SearchBar(QWidget *parent = nullptr);
    void setSession(std::shared_ptr<const Session> session);
    void focusInput();
    void setQuery(const QString &text);
    const std::vector<EventLocation> &matches() const { return m_matches; }
    int current() const { return m_current; }

public slots:
    void next();
    void previous();

signals:
    void matchActivated(rankscope::EventLocation event);

private:
    void search();
    void activate(int index);

    std::shared_ptr<const Session> m_session;
    QLineEdit *m_input;
    QCheckBox *m_regex;
    QLabel *m_count;
    std::vector<EventLocation> m_matches;
    QString m_searched; // the query m_matches belong to
    int m_current = -1;
};

} // namespace rankscope
