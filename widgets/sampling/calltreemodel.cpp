#include "sampling/calltreemodel.h"

#include "common/plaintext.h"

#include <QLocale>
#include <algorithm>

namespace rankscope {

using stats::CallTree;

CallTreeModel::CallTreeModel(QObject *parent) : QAbstractItemModel(parent) { }

void CallTreeModel::setProfile(std::shared_ptr<const stats::SamplingProfile> profile, Shape shape)
{
    beginResetModel();
    m_profile = std::move(profile);
    m_shape = shape;
    m_tree = {};
    if (m_profile) {
        if (shape == Shape::TopDown) {
            m_tree = m_profile->topDown();
        } else if (shape == Shape::BottomUp) {
            m_tree = m_profile->bottomUp();
        } else { // the flat list: every function a child of the root
            m_tree.nodes.emplace_back();
            m_tree.nodes[0].total = m_profile->samples;
            for (const stats::FlatFunction &f : m_profile->flat()) {
                CallTree::Node node;
                node.function = f.function;
                node.self = f.self;
                node.total = f.total;
                m_tree.nodes[0].children.push_back(std::uint32_t(m_tree.nodes.size()));
                m_tree.nodes.push_back(std::move(node));
            }
        }
    }
    numberRows();
    endResetModel();
}

void CallTreeModel::numberRows()
{
    m_rowInParent.assign(m_tree.nodes.size(), 0);
    for (const CallTree::Node &n : m_tree.nodes)
        for (std::size_t i = 0; i < n.children.size(); ++i)
            m_rowInParent[n.children[i]] = std::uint32_t(i);
}

std::uint32_t CallTreeModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? std::uint32_t(index.internalId()) : 0;
}

QModelIndex CallTreeModel::indexOf(std::uint32_t node, int column) const
{
    if (node == 0 || node >= m_tree.nodes.size())
        return {};
    return createIndex(int(m_rowInParent[node]), column, quintptr(node));
}

std::uint32_t CallTreeModel::findNext(const QString &text, std::uint32_t after) const
{
    if (text.isEmpty() || !m_profile)
        return 0;
    const std::vector<std::uint32_t> order = m_tree.preorder();
    const auto start = std::find(order.begin(), order.end(), after);
    const std::size_t from = start == order.end() ? 0 : std::size_t(start - order.begin()) + 1;
    for (std::size_t k = 0; k < order.size(); ++k) {
        const std::uint32_t node = order[(from + k) % order.size()];
        if (stats::functionLabel(m_profile->functions[m_tree.nodes[node].function]).contains(text, Qt::CaseInsensitive))
            return node;
    }
    return 0;
}

QModelIndex CallTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (m_tree.nodes.empty() || row < 0 || column < 0 || column >= ColumnCount)
        return {};
    const CallTree::Node &p = m_tree.nodes[nodeOf(parent)];
    if (std::size_t(row) >= p.children.size())
        return {};
    return createIndex(row, column, quintptr(p.children[std::size_t(row)]));
}

QModelIndex CallTreeModel::parent(const QModelIndex &child) const
{
    const std::uint32_t node = nodeOf(child);
    if (node == 0 || node >= m_tree.nodes.size())
        return {};
    return indexOf(m_tree.nodes[node].parent);
}

int CallTreeModel::rowCount(const QModelIndex &parent) const
{
    if (m_tree.nodes.empty() || parent.column() > 0)
        return 0;
    return int(m_tree.nodes[nodeOf(parent)].children.size());
}

int CallTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant CallTreeModel::data(const QModelIndex &index, int role) const
{
    const std::uint32_t n = nodeOf(index);
    if (n == 0 || n >= m_tree.nodes.size() || !m_profile)
        return {};
    const CallTree::Node &node = m_tree.nodes[n];
    const stats::SampledFunction &f = m_profile->functions[node.function];
    const auto percent = [&](std::uint64_t count) { return QStringLiteral("%1 %").arg(m_profile->percentOf(count), 0, 'f', 2); };
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case FunctionColumn:
            return stats::functionLabel(f); // the view shows it as plain text
        case SelfColumn:
            return QLocale().toString(qulonglong(node.self));
        case SelfPercentColumn:
            return percent(node.self);
        case TotalColumn:
            return QLocale().toString(qulonglong(node.total));
        case TotalPercentColumn:
            return percent(node.total);
        case ModuleColumn:
            return f.module;
        }
    } else if (role == Qt::ToolTipRole && (index.column() == FunctionColumn || index.column() == ModuleColumn)) {
        QString tip = stats::functionLabel(f) + QLatin1Char('\n') + f.module;
        if (f.kernelMode)
            tip += QStringLiteral("\nin the OS kernel");
        if (f.unresolved)
            tip += QStringLiteral("\nsymbol not resolved");
        if (f.python)
            tip += QStringLiteral("\nPython frame");
        return plainTooltip(tip); // a function's name is data, not markup
    } else if (role == Qt::TextAlignmentRole && index.column() != FunctionColumn && index.column() != ModuleColumn) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    } else if (role == Qt::UserRole) { // the number a column sorts by
        switch (index.column()) {
        case SelfColumn:
        case SelfPercentColumn:
            return qulonglong(node.self);
        case TotalColumn:
        case TotalPercentColumn:
            return qulonglong(node.total);
        default:
            return {};
        }
    }
    return {};
}

QVariant CallTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    const bool bottomUp = m_shape == Shape::BottomUp;
    switch (section) {
    case FunctionColumn:
        return bottomUp ? tr("Function (callers below)") : tr("Function");
    case SelfColumn:
        return tr("Self");
    case SelfPercentColumn:
        return tr("Self %");
    case TotalColumn:
        return bottomUp ? tr("Samples") : tr("Total");
    case TotalPercentColumn:
        return bottomUp ? tr("Samples %") : tr("Total %");
    case ModuleColumn:
        return tr("Module");
    }
    return {};
}

void CallTreeModel::sort(int column, Qt::SortOrder order)
{
    if (m_tree.nodes.empty() || !m_profile)
        return;
    emit layoutAboutToBeChanged();
    const QModelIndexList before = persistentIndexList();
    std::vector<std::uint32_t> nodes;
    for (const QModelIndex &i : before)
        nodes.push_back(nodeOf(i));
    const auto key = [&](std::uint32_t n) -> std::uint64_t {
        const CallTree::Node &node = m_tree.nodes[n];
        return column == SelfColumn || column == SelfPercentColumn ? node.self : node.total;
    };
    for (CallTree::Node &node : m_tree.nodes)
        std::stable_sort(node.children.begin(), node.children.end(), [&](std::uint32_t a, std::uint32_t b) {
            if (column == FunctionColumn || column == ModuleColumn) {
                const stats::SampledFunction &fa = m_profile->functions[m_tree.nodes[a].function];
                const stats::SampledFunction &fb = m_profile->functions[m_tree.nodes[b].function];
                const int c = column == FunctionColumn ? stats::functionLabel(fa).compare(stats::functionLabel(fb), Qt::CaseInsensitive)
                                                       : fa.module.compare(fb.module, Qt::CaseInsensitive);
                return order == Qt::AscendingOrder ? c < 0 : c > 0;
            }
            return order == Qt::AscendingOrder ? key(a) < key(b) : key(a) > key(b);
        });
    numberRows();
    QModelIndexList after;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        after << indexOf(nodes[i], before[qsizetype(i)].column());
    changePersistentIndexList(before, after);
    emit layoutChanged();
}

} // namespace rankscope
