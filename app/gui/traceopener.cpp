#include "traceopener.h"

#include "recentfiles.h"
#include "sessionloadjob.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QProgressDialog>

namespace rankscope {

TraceOpener::TraceOpener(QWidget *window) : QObject(window), m_window(window), m_job(new SessionLoadJob(this))
{
    connect(m_job, &SessionLoadJob::progress, this, [this](int percent) {
        if (m_progress)
            m_progress->setValue(percent);
    });
    connect(m_job, &SessionLoadJob::loaded, this, [this](std::shared_ptr<const Session> session) {
        if (m_progress)
            m_progress->reset();
        const bool runB = std::exchange(m_loadingRunB, false);
        if (session->ranks().empty()) {
            emit nothingLoaded(session);
        } else {
            m_hasRunA = true;
            // What opened, not what failed; run B with the run A it joined.
            if (runB) {
                RecentFiles::add(m_runA, m_loading);
            } else {
                m_runA = m_loading;
                RecentFiles::add(m_runA);
            }
            emit loaded(session, runB);
        }
        startQueuedRunB();
    });
    connect(m_job, &SessionLoadJob::wholeLoaded, this, [this](std::shared_ptr<const Session> whole) {
        if (whole->ranks().empty()) // every rank failed its check and its trace
            emit nothingLoaded(whole);
        else
            emit madeWhole(whole);
        startQueuedRunB();
    });
    connect(m_job, &SessionLoadJob::cancelled, this, [this] {
        m_loadingRunB = false;
        if (m_progress)
            m_progress->reset();
        emit cancelled();
    });
}

TraceOpener::~TraceOpener() = default;

void TraceOpener::open(const QStringList &paths, bool wait)
{
    start(paths, wait, false);
}

void TraceOpener::openToFirstFrame(const QStringList &paths)
{
    QEventLoop shown;
    // After the window's own handlers, connected first: the session is shown.
    const auto quit = [&shown](auto &&...) { shown.quit(); };
    const QMetaObject::Connection loadedOne = connect(m_job, &SessionLoadJob::loaded, &shown, quit);
    const QMetaObject::Connection cancelledOne = connect(m_job, &SessionLoadJob::cancelled, &shown, quit);
    m_loading = paths;
    m_loadingRunB = false;
    m_job->start(paths, true);
    shown.exec();
    disconnect(loadedOne);
    disconnect(cancelledOne);
}

void TraceOpener::compareWith(const QStringList &paths, bool wait)
{
    if (!m_hasRunA || m_job->isRunning()) { // run A first
        m_queuedRunB = paths;
        return;
    }
    start(paths, wait, true);
}

void TraceOpener::startQueuedRunB()
{
    if (!m_queuedRunB.isEmpty() && m_hasRunA && !m_job->isRunning())
        compareWith(std::exchange(m_queuedRunB, {}));
}

void TraceOpener::start(const QStringList &paths, bool wait, bool runB)
{
    m_loading = paths;
    m_loadingRunB = runB;
    if (!wait) {
        if (!m_progress) {
            m_progress = new QProgressDialog(tr("Loading traces..."), tr("Cancel"), 0, 100, m_window);
            m_progress->setWindowModality(Qt::WindowModal);
            m_progress->setMinimumDuration(300);
            m_progress->setAutoReset(false);
            connect(m_progress, &QProgressDialog::canceled, m_job, &SessionLoadJob::cancel);
        }
        m_progress->setLabelText(tr("Loading %n trace file(s)...", nullptr, int(expandTracePaths(paths).size())));
        m_progress->setValue(0);
    }
    // A first frame from summaries only when the window waits for nothing
    // (not for screenshots, not for run B, which joins a comparison).
    m_job->start(paths, !wait && !runB);
    if (wait) {
        m_job->waitForFinished();
        QCoreApplication::sendPostedEvents(); // deliver the result now
        QCoreApplication::processEvents();
    }
}

} // namespace rankscope
