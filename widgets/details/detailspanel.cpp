#include "details/detailspanel.h"

#include "core/units.h"
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
        m_html.clear();
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
    m_html = html;
    m_text->setHtml(m_html);
}

void DetailsPanel::showMark(const TimeMark &mark)
{
    // Names from the trace are in the fields: text, never markup.
    QString html = QStringLiteral("<h3>%1</h3><table cellspacing='2'>").arg(mark.title.toHtmlEscaped());
    for (const auto &[label, value] : mark.fields)
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(label.toHtmlEscaped(), value.toHtmlEscaped());
    html += QStringLiteral("</table>");
    m_html = html;
    m_text->setHtml(m_html);
}

namespace {

QString eventLink(const EventLocation &at, const QString &text)
{
    return QStringLiteral("<a href='event:%1:%2:%3'>%4</a>").arg(at.rank).arg(at.track).arg(at.event).arg(text.toHtmlEscaped());
}

} // namespace

void DetailsPanel::appendCollective(const stats::CollectiveInstance &c)
{
    if (!m_session)
        return;
    auto rankOf = [&](int rankIndex) { return m_session->ranks()[std::size_t(rankIndex)].rank; };
    QString html = QStringLiteral("<h4>%1</h4><table cellspacing='2'>")
                       .arg(tr("Collective: %1 #%2 on %3").arg(c.name).arg(c.sequence).arg(c.communicator).toHtmlEscaped());
    auto field = [&html](const QString &label, const QString &value) {
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(label.toHtmlEscaped(), value.toHtmlEscaped());
    };
    field(tr("Last to arrive"), tr("rank %1").arg(rankOf(c.lastRankIndex)));
    field(tr("Skew"), formatDuration(c.skew()));
    field(tr("Transfer"), tr("%1 (last arrival to end)").arg(formatDuration(c.transfer())));
    if (c.bytes >= 0)
        field(tr("Bytes"), formatBytes(std::uint64_t(c.bytes)));
    if (const auto bus = c.busBandwidth())
        field(tr("Bandwidth"),
              tr("%1 GB/s algorithm, %2 GB/s bus (%3 ranks)").arg(*c.algorithmBandwidth(), 0, 'f', 2).arg(*bus, 0, 'f', 2).arg(c.groupSize));
    html += QStringLiteral("</table><table cellspacing='4'><tr><th>%1</th><th>%2</th><th>%3</th><th>%4</th></tr>")
                .arg(tr("Rank"), tr("Arrival"), tr("Wait"),
                     m_session->track(c.arrivals.front().kernel).kind == TrackKind::Mpi ? tr("Call") : tr("Kernel"));
    for (const stats::CollectiveArrival &a : c.arrivals) {
        const bool last = a.rankIndex == c.lastRankIndex;
        html += QStringLiteral("<tr><td>%1%2</td><td>+%3</td><td>%4</td><td>%5</td></tr>")
                    .arg(rankOf(a.rankIndex))
                    .arg(last ? tr(" (last)") : QString())
                    .arg(formatDuration(a.start - c.firstArrival), formatDuration(c.waitOf(a)), eventLink(a.kernel, tr("select")));
    }
    html += QStringLiteral("</table>");
    m_html += html;
    m_text->setHtml(m_html);
}

QString DetailsPanel::plainText() const
{
    return m_text->toPlainText();
}

} // namespace rankscope
