#include "panels/tablebox.h"
#include "common/exportfolder.h"
#include "core/safefiles.h"

#include "panels/resulttablemodel.h"
#include "panels/resulttableproxy.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace rankscope {

namespace {
constexpr int kMinimumCappedColumn = 360; // px: a long name's cap when the view is narrow
} // namespace

TableBox::TableBox(const QString &title, QWidget *parent)
    : QWidget(parent), m_title(new QLabel(title, this)), m_filter(new QLineEdit(this)), m_view(new QTableView(this)),
      m_model(new ResultTableModel(this)), m_proxy(new ResultTableProxy(m_model, this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout;
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_filter->setPlaceholderText(tr("Filter"));
    m_filter->setClearButtonEnabled(true);
    auto *exportButton = new QPushButton(tr("Export CSV..."), this);
    bar->addWidget(m_title);
    bar->addStretch(1);
    bar->addWidget(m_filter);
    bar->addWidget(exportButton);
    layout->addLayout(bar);
    m_view->setTextElideMode(Qt::ElideMiddle);
    layout->addWidget(m_view, 1);

    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    connect(m_view->horizontalHeader(), &QHeaderView::sectionClicked, this, [this] { m_userSorted = true; });
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->setVisible(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_view, &QTableView::doubleClicked, this, [this](const QModelIndex &i) { emit rowActivated(m_proxy->mapToSource(i).row()); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &i) {
        if (i.isValid())
            emit rowSelected(m_proxy->mapToSource(i).row());
    });
    connect(exportButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export table"), exportPathFor(m_model->table().name + QStringLiteral(".csv")),
                                                          tr("CSV files (*.csv)"));
        if (path.isEmpty())
            return;
        rememberExportFolder(path);
        exportCsv(path);
    });
}

void TableBox::setTitle(const QString &title)
{
    m_title->setText(title);
}

void TableBox::setTable(ResultTable table)
{
    m_model->setTable(std::move(table));
    if (!m_userSorted) {
        // The default order, else the table's own, until the user sorts.
        const int column = m_defaultSortHeader.isEmpty() ? -1 : int(m_model->table().headers.indexOf(m_defaultSortHeader));
        m_view->sortByColumn(column, column >= 0 ? m_defaultSortOrder : Qt::AscendingOrder);
    }
    // Only a name column takes the spare width: a stretched number column
    // leaves its values at the far edge, away from their header.
    const ResultTable &shown = m_model->table();
    const int last = int(shown.headers.size()) - 1;
    m_view->horizontalHeader()->setStretchLastSection(last >= 0 && shown.rowCount() > 0 && shown.cell(0, std::size_t(last)).type == Cell::Type::Text);
    m_view->resizeColumnsToContents();
    // A kernel name can be 2,000 characters: cap the column so the numbers
    // stay in view; the tooltip and the elided middle keep both ends.
    const int widest = std::max(kMinimumCappedColumn, m_view->viewport()->width() / 2);
    for (int column = 0; column < m_model->columnCount(); ++column)
        if (m_view->columnWidth(column) > widest)
            m_view->setColumnWidth(column, widest);
}

void TableBox::setDefaultSort(const QString &header, Qt::SortOrder order)
{
    m_defaultSortHeader = header;
    m_defaultSortOrder = order;
}

bool TableBox::exportCsv(const QString &path) const
{
    AtomicFileWriter file(path); // a link planted under the name is replaced, not followed
    return file.open(QIODevice::WriteOnly) && m_model->table().writeCsv(file) && file.commit();
}

} // namespace rankscope
