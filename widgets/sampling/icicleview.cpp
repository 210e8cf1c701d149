#include "sampling/icicleview.h"

#include "common/plaintext.h"
#include "theme/theme.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace rankscope {

using stats::CallTree;

IcicleView::IcicleView(QWidget *parent) : QWidget(parent)
{
    setFocusPolicy(Qt::ClickFocus);
    setMouseTracking(false);
}

void IcicleView::setTree(std::shared_ptr<const stats::SamplingProfile> profile, CallTree tree)
{
    m_profile = std::move(profile);
    m_tree = std::move(tree);
    m_focus = 0;
    m_depth = 0;
    for (const CallTree::Node &n : m_tree.nodes)
        if (n.function != CallTree::kRoot)
            m_depth = std::max(m_depth, int(n.depth) + 1);
    setMinimumHeight((m_depth + 1) * kRowHeight);
    updateGeometry();
    update();
}

void IcicleView::setSearch(const QString &text)
{
    m_search = text;
    update();
}

void IcicleView::setFocusNode(std::uint32_t node)
{
    m_focus = node < m_tree.nodes.size() ? node : 0;
    update();
}

QSize IcicleView::sizeHint() const
{
    return {600, (m_depth + 1) * kRowHeight};
}

std::vector<IcicleView::Box> IcicleView::layoutBoxes() const
{
    std::vector<Box> boxes;
    if (m_tree.nodes.empty() || m_tree.nodes[m_focus].total == 0)
        return boxes;
    const double perSample = double(width()) / double(m_tree.nodes[m_focus].total);
    // The focus's ancestors stay on top, full width (a breadcrumb back out).
    std::vector<std::uint32_t> ancestors;
    for (std::uint32_t n = m_focus; n != 0; n = m_tree.nodes[n].parent)
        ancestors.insert(ancestors.begin(), n);
    int row = 0;
    for (std::size_t i = 0; i + 1 < ancestors.size(); ++i, ++row)
        boxes.push_back({ancestors[i], QRectF(0, row * kRowHeight, width(), kRowHeight - 1)});
    struct Pending {
        std::uint32_t node;
        double x;
        int row;
    };
    std::vector<Pending> pending;
    if (m_focus == 0) {
        double x = 0;
        for (const std::uint32_t c : m_tree.nodes[0].children) {
            pending.push_back({c, x, row});
            x += double(m_tree.nodes[c].total) * perSample;
        }
    } else {
        pending.push_back({m_focus, 0, row});
    }
    while (!pending.empty()) {
        const Pending p = pending.back();
        pending.pop_back();
        const CallTree::Node &node = m_tree.nodes[p.node];
        const double w = double(node.total) * perSample;
        if (w < 1.0)
            continue; // too narrow to see: its callees too
        boxes.push_back({p.node, QRectF(p.x, p.row * kRowHeight, w, kRowHeight - 1)});
        double x = p.x;
        for (const std::uint32_t c : node.children) {
            pending.push_back({c, x, p.row + 1});
            x += double(m_tree.nodes[c].total) * perSample;
        }
    }
    return boxes;
}

std::optional<std::uint32_t> IcicleView::nodeAt(QPoint pos) const
{
    for (const Box &b : layoutBoxes())
        if (b.rect.contains(pos))
            return b.node;
    return std::nullopt;
}

void IcicleView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const Theme theme(palette());
    p.fillRect(rect(), theme.canvasBackground());
    if (!m_profile)
        return;
    const QFontMetrics metrics(font());
    for (const Box &b : layoutBoxes()) {
        const stats::SampledFunction &f = m_profile->functions[m_tree.nodes[b.node].function];
        const QString label = stats::functionLabel(f);
        QColor fill = Theme::moduleColor(f.module.toStdString());
        if (!m_search.isEmpty() && !label.contains(m_search, Qt::CaseInsensitive))
            fill = fill.lighter(160);
        else if (!m_search.isEmpty())
            fill = Theme::markedSampleColor();
        p.fillRect(b.rect, fill);
        if (b.rect.width() > 30) {
            p.setPen(Theme::textColorOn(fill));
            const QRectF text = b.rect.adjusted(3, 0, -3, 0);
            p.drawText(text, Qt::AlignLeft | Qt::AlignVCenter, metrics.elidedText(label, Qt::ElideRight, int(text.width())));
        }
    }
}

void IcicleView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::RightButton) {
        setFocusNode(m_focus == 0 ? 0 : m_tree.nodes[m_focus].parent);
        return;
    }
    if (event->button() == Qt::LeftButton)
        if (const auto node = nodeAt(event->pos()))
            setFocusNode(*node == m_focus ? m_tree.nodes[*node].parent : *node);
}

void IcicleView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (const auto node = nodeAt(event->pos()))
        emit functionActivated(m_tree.nodes[*node].function);
}

void IcicleView::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape && m_focus != 0) {
        setFocusNode(m_tree.nodes[m_focus].parent);
        return;
    }
    QWidget::keyPressEvent(event);
}

bool IcicleView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && m_profile) {
        auto *help = static_cast<QHelpEvent *>(event);
        if (const auto node = nodeAt(help->pos())) {
            const CallTree::Node &n = m_tree.nodes[*node];
            const stats::SampledFunction &f = m_profile->functions[n.function];
            const QString text = tr("%1\n%2\n%3 samples (%4 %), %5 in it (%6 %)")
                                     .arg(stats::functionLabel(f), f.module)
                                     .arg(n.total)
                                     .arg(m_profile->percentOf(n.total), 0, 'f', 2)
                                     .arg(n.self)
                                     .arg(m_profile->percentOf(n.self), 0, 'f', 2);
            QToolTip::showText(help->globalPos(), plainTooltip(text), this); // names are data, not markup
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

} // namespace rankscope
