#pragma once
// Which collective a selected kernel is part of, for the Details dock and
// the timeline's band across ranks. The match is the analysis workspace's
// (the one the Collectives and Rank comparison panels read): asked for the
// first time a communication kernel is selected (not at load: a session
// nobody clicks a collective in pays nothing), on a worker thread
// (hundreds of ranks take seconds, and the window keeps painting
// meanwhile); at once when a panel has computed it already.
#include "analysis/analysisworkspace.h"
#include "jobs/latestjob.h"

#include <QObject>

#include <memory>

namespace rankscope {

class CollectiveLookup : public QObject {
    Q_OBJECT
public:
    explicit CollectiveLookup(QObject *parent = nullptr) : QObject(parent), m_job(this) { }

    // The session and the communication classes; null: none.
    void setWorkspace(WorkspacePtr workspace);
    // Whether `event` is the kind a collective is made of: a communication
    // kernel, or an MPI collective call.
    bool isCollectivePart(const EventLocation &event) const;
    // Whether the session's collectives are matched (prepare() starts it).
    bool isReady() const { return m_match != nullptr; }
    // Starts matching on a worker unless it is done or under way; ready()
    // follows. A session or pattern changed meanwhile drops the result.
    void prepare();
    // Null unless the collectives are matched and `event` is a part of
    // one matched on other ranks.
    const stats::CollectiveInstance *instanceOf(const EventLocation &event) const;
    // The match once ready(), else null.
    const std::shared_ptr<const stats::CollectiveMatch> &match() const { return m_match; }
    int rankCount() const { return m_workspace ? int(m_workspace->session()->ranks().size()) : 0; }

signals:
    void ready();

private:
    void forget();

    WorkspacePtr m_workspace;
    std::shared_ptr<const stats::CollectiveMatch> m_match;
    LatestJob<std::shared_ptr<const stats::CollectiveMatch>> m_job;
};

} // namespace rankscope
