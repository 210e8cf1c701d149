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
    connect(m_input, &QLineEdit::textChanged, this, [this] { m_searched.clear(); m_count->clear(); });
    connect(m_regex, &QCheckBox::toggled, this, [this] { m_searched.clear(); });
    connect(prev, &QToolButton::clicked, this, &SearchBar::previous);
    connect(nextButton, &QToolButton::clicked, this, &SearchBar::next);
}

void SearchBar::setSession(std::shared_ptr<const Session> session)
{
    m_session = std::move(session);
    m_searched.clear();
    m_matches.clear();
    m_current = -1;
    m_count->clear();
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
    m_searched = key;
    m_current = -1;
    m_matches = m_session ? findEvents(*m_session, {m_input->text(), m_regex->isChecked(), false}) : std::vector<EventLocation>{};
    m_count->setText(m_matches.empty() ? tr("no matches") : tr("%n matches", nullptr, int(m_matches.size())));
}

void SearchBar::activate(int index)
{
    m_current = index;
    m_count->setText(tr("%1 of %2").arg(index + 1).arg(m_matches.size()));
    emit matchActivated(m_matches[std::size_t(index)]);
}

void SearchBar::next()
{
    search();
    if (!m_matches.empty())
        activate((m_current + 1) % int(m_matches.size()));
}

void SearchBar::previous()
{
    search();
    if (!m_matches.empty())
        activate(m_current <= 0 ? int(m_matches.size()) - 1 : m_current - 1);
}

} // namespace rankscope
