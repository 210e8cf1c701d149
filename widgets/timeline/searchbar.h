#pragma once
// Find events by name (substring or regular expression) in every rank, with
// next / previous and a match count. Enter goes to the next match.
#include "jobs/latestjob.h"
#include "session/eventsearch.h"

#include <QWidget>
#include <atomic>
#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;

namespace rankscope {

class SearchBar : public QWidget {
    Q_OBJECT
public:
    explicit SearchBar(QWidget *parent = nullptr);
    ~SearchBar() override;
    void setSession(std::shared_ptr<const Session> session);
    void focusInput();
    void setQuery(const QString &text);
    const std::vector<EventLocation> &matches() const { return m_matches; }
    int current() const { return m_current; }
    // The search runs on a worker thread and its matches arrive in time
    // order, in batches; Enter shows the first as soon as it is found.
    bool isSearching() const { return m_searching; }

public slots:
    void next();
    void previous();

signals:
    void matchActivated(rankscope::EventLocation event);
    // Esc in the search field: the user is done searching (the window gives
    // the timeline the keyboard back, so + and - zoom again).
    void leaveRequested();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void search();
    void activate(int index);
    void stopSearch();
    void addMatches(const std::vector<EventLocation> &batch);
    void searchFinished();
    void showCount();

    std::shared_ptr<const Session> m_session;
    QLineEdit *m_input;
    QCheckBox *m_regex;
    QLabel *m_count;
    std::vector<EventLocation> m_matches;
    QString m_searched; // the query m_matches belong to
    int m_current = -1;
    bool m_searching = false;
    int m_pendingStep = 0;                             // Enter (+1) or Shift+Enter (-1) pressed before the matches it needs arrived
    LatestJob<std::vector<EventLocation>> m_job{this}; // the search running, its matches in batches
    std::shared_ptr<std::atomic<bool>> m_cancel;       // the running search's: findEvents checks it between events
};

} // namespace rankscope
