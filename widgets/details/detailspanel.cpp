#include "details/detailspanel.h"

#include "session/eventdetails.h"

#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace rankscope {

DetailsPanel::DetailsPanel(QWidget *parent) : QWidget(parent), m_text(new QTextBrowser(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text);
    m_text->setOpenLinks(false);
    m_text->setPlaceholderText(tr("Click an event to see its details."));
    connect(m_text, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        const QStringList parts = url.path().split(QLatin1Char(':'));
        if (url.scheme() == QLatin1String("event") && parts.size() == 3)
            emit linkActivated({parts[0].toInt(), parts[1].toUInt(), parts[2].toUInt()});
    });
}

void DetailsPanel::setSession(std::shared_ptr<const Session> session)
{
    m_session = std::move(session);
    m_text->clear();
}

void DetailsPanel::showDetails(std::optional<EventLocation> event)
{
    if (!event || !m_session) {
        m_text->clear();
        return;
    }
    const EventDetails d = describeEvent(*m_session, *event);
    QString html = QStringLiteral("<h3>%1</h3><p><i>%2</i></p><table cellspacing='2'>").arg(d.title.toHtmlEscaped(), d.kind.toHtmlEscaped());
    for (const DetailField &f : d.fields) {
        QString value = f.value.toHtmlEscaped();
        if (f.link)
            value = QStringLiteral("<a href='event:%1:%2:%3'>%4</a>").arg(f.link->rank).arg(f.link->track).arg(f.link->event).arg(value);
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(f.label.toHtmlEscaped(), value);
    }
    html += QStringLiteral("</table>");
    m_text->setHtml(html);
}

QString DetailsPanel::plainText() const
{
    return m_text->toPlainText();
}

} // namespace rankscope
