#include "timeline/searchbar.h"

#include <QApplication>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

namespace rankscope {

SearchBar::SearchBar(QWidget *parent)
    : QWidget(parent), m_input(new QLineEdit(this)), m_regex(new QCheckBox(tr("Regex"), this)), m_count(new QLabel(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    m_input->setPlaceholderText(tr("Find events by name (Ctrl+F)"));
    m_input->setClearButtonEnabled(true);
    auto *prev = new QToolButton(this);
    prev->setText(QStringLiteral("▲"));
    prev->setToolTip(tr("Previous match (Shift+Enter)"));
    auto *nextButton = new QToolButton(this);
    nextButton->setText(QStringLiteral("▼"));
    nextButton->setToolTip(tr("Next match (Enter)"));
    layout->addWidget(m_input, 1);
    layout->addWidget(m_regex);
    layout->addWidget(prev);
    layout->addWidget(nextButton);
    layout->addWidget(m_count);
    connect(m_input, &QLineEdit::returnPressed, this, [this] {
        if (QApplication::keyboardModifiers() & Qt::ShiftModifier)
            previous();
        else
            next();
    });
    connect(m_input, &QLineEdit::textChanged, this, [this] {
        stopSearch();
        m_count->clear();
    });
    connect(m_regex, &QCheckBox::toggled, this, [this] { stopSearch(); });
    connect(prev, &QToolButton::clicked, this, &SearchBar::previous);
    connect(nextButton, &QToolButton::clicked, this, &SearchBar::next);
    m_input->installEventFilter(this);
}

bool SearchBar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_input && event->type() == QEvent::KeyPress && static_cast<QKeyEvent *>(event)->key() == Qt::Key_Escape) {
        emit leaveRequested();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

SearchBar::~SearchBar()
{
    stopSearch();
}

void SearchBar::setSession(std::shared_ptr<const Session> session)
{
    stopSearch();
    m_session = std::move(session);
    m_count->clear();
}

void SearchBar::stopSearch()
{
    if (m_cancel)
        m_cancel->store(true); // findEvents checks it as it scans, batches or not
    m_cancel.reset();
    m_job.cancel(); // batches still on their way belong to no search now
    m_searching = false;
    m_pendingStep = 0;
    m_searched.clear();
    m_matches.clear();
    m_current = -1;
}

void SearchBar::focusInput()
{
    m_input->setFocus();
    m_input->selectAll();
}

void SearchBar::setQuery(const QString &text)
{
    m_input->setText(text);
}

void SearchBar::search()
{
    const QString key = (m_regex->isChecked() ? QStringLiteral("re:") : QStringLiteral("s:")) + m_input->text();
    if (key == m_searched)
        return;
    stopSearch();
    m_searched = key;
    if (!m_session || m_input->text().isEmpty()) {
        showCount();
        return;
    }
    m_searching = true;
    const SearchQuery query{m_input->text(), m_regex->isChecked(), false};
    showCount();
    // Off the GUI thread: a search over millions of events must not freeze
    // the window. Matches come back in time order, a batch at a time; a
    // newer search replaces this one (its batches stop).
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_job.startStreaming(
        [query, session = m_session, cancel = m_cancel](const JobToken &, const auto &post) {
            findEvents(*session, query, 1000000, cancel.get(), [&](std::vector<EventLocation> batch) { post(std::move(batch)); });
        },
        [this](const std::vector<EventLocation> &batch) { addMatches(batch); }, [this] { searchFinished(); });
}

void SearchBar::addMatches(const std::vector<EventLocation> &batch)
{
    m_matches.insert(m_matches.end(), batch.begin(), batch.end());
    if (m_pendingStep > 0 && m_current + 1 < int(m_matches.size())) { // Enter was pressed before this match was found
        m_pendingStep = 0;
        activate(m_current + 1);
    }
    showCount();
}

void SearchBar::searchFinished()
{
    m_searching = false;
    if (m_pendingStep < 0 && !m_matches.empty()) // Shift+Enter wanted the last match
        activate(int(m_matches.size()) - 1);
    else if (m_pendingStep > 0 && !m_matches.empty()) // Enter past the last match: round to the first
        activate(0);
    m_pendingStep = 0;
    showCount();
}

void SearchBar::showCount()
{
    if (m_current >= 0)
        m_count->setText(tr("%1 of %2%3").arg(m_current + 1).arg(m_matches.size()).arg(m_searching ? QStringLiteral("…") : QString()));
    else if (m_searching)
        m_count->setText(m_matches.empty() ? tr("searching…") : tr("%n matches so far…", nullptr, int(m_matches.size())));
    else if (!m_searched.isEmpty())
        m_count->setText(m_matches.empty() ? tr("no matches") : tr("%n matches", nullptr, int(m_matches.size())));
}

void SearchBar::activate(int index)
{
    m_current = index;
    showCount();
    emit matchActivated(m_matches[std::size_t(index)]);
}

void SearchBar::next()
{
    search();
    if (m_matches.empty() || (m_searching && m_current + 1 >= int(m_matches.size())))
        m_pendingStep = m_searching ? 1 : 0; // the next match is still being looked for
    else
        activate((m_current + 1) % int(m_matches.size()));
}

void SearchBar::previous()
{
    search();
    if (m_current > 0)
        activate(m_current - 1);
    else if (m_searching)
        m_pendingStep = -1; // the last match is known only at the end
    else if (!m_matches.empty())
        activate(int(m_matches.size()) - 1);
}

} // namespace rankscope
