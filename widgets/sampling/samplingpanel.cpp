#include "sampling/samplingpanel.h"

#include "sampling/icicleview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

namespace rankscope {

SamplingPanel::SamplingPanel(QWidget *parent)
    : StatsPanel(parent), m_shape(new QComboBox(this)), m_hideKernel(new QCheckBox(tr("Hide kernel frames"), this)),
      m_collapseUnresolved(new QCheckBox(tr("Collapse unresolved"), this)), m_byModule(new QCheckBox(tr("Group by module"), this)),
      m_search(new QLineEdit(this)), m_note(new QLabel(this)), m_tree(new QTreeView(this)), m_model(new CallTreeModel(this)),
      m_icicle(new IcicleView(this))
{
    m_shape->addItems({tr("Top-Down"), tr("Bottom-Up"), tr("Flat")});
    m_shape->setToolTip(tr("Top-Down: from the outermost frame in. Bottom-Up: from where the samples were, out to their callers. "
                           "Flat: every function once, with its self and total samples."));
    m_search->setPlaceholderText(tr("Find function (Enter: next)"));
    m_search->setClearButtonEnabled(true);
    m_note->setTextFormat(Qt::PlainText);
    m_note->setWordWrap(true);
    auto *clearMark = new QPushButton(tr("Clear mark"), this);
    clearMark->setToolTip(tr("Stop marking the chosen function's samples on the timeline"));

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_shape);
    bar->addWidget(m_hideKernel);
    bar->addWidget(m_collapseUnresolved);
    bar->addWidget(m_byModule);
    bar->addWidget(m_search, 1);
    bar->addWidget(clearMark);

    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setSortingEnabled(true);
    m_tree->sortByColumn(CallTreeModel::TotalColumn, Qt::DescendingOrder);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(CallTreeModel::FunctionColumn, QHeaderView::Stretch);
    m_tree->setToolTip(tr("Double-click a function to mark its samples on the timeline"));
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_icicle);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_icicle->setToolTip(QString()); // its own, per function
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_tree);
    split->addWidget(scroll);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_note);
    layout->addWidget(split, 1);

    connect(m_shape, &QComboBox::currentIndexChanged, this, [this](int i) { setShape(CallTreeModel::Shape(i)); });
    for (QCheckBox *box : {m_hideKernel, m_collapseUnresolved, m_byModule})
        connect(box, &QCheckBox::toggled, this, [this] {
            stats::SamplingFilter f;
            f.hideKernelFrames = m_hideKernel->isChecked();
            f.collapseUnresolved = m_collapseUnresolved->isChecked();
            f.groupByModule = m_byModule->isChecked();
            setFilter(f);
        });
    connect(m_search, &QLineEdit::textChanged, m_icicle, &IcicleView::setSearch);
    connect(m_search, &QLineEdit::returnPressed, this, [this] { findNext(m_search->text()); });
    connect(m_tree, &QTreeView::activated, this, [this](const QModelIndex &index) {
        if (const std::uint32_t node = m_model->nodeOf(index))
            markFunction(m_model->tree().nodes[node].function);
    });
    connect(m_icicle, &IcicleView::functionActivated, this, &SamplingPanel::markFunction);
    connect(clearMark, &QPushButton::clicked, this, &SamplingPanel::markCleared);

    exportResult([this]() -> std::optional<ResultTable> { return m_profile ? std::optional(stats::samplingFlatTable(*m_profile)) : std::nullopt; });
    exportResult(
        [this]() -> std::optional<ResultTable> { return m_profile ? std::optional(stats::samplingTopDownTable(*m_profile)) : std::nullopt; });
    exportResult(
        [this]() -> std::optional<ResultTable> { return m_profile ? std::optional(stats::samplingBottomUpTable(*m_profile)) : std::nullopt; });
}

void SamplingPanel::setShape(CallTreeModel::Shape shape)
{
    if (m_shape->currentIndex() != int(shape))
        m_shape->setCurrentIndex(int(shape)); // comes back here
    else
        present(m_profile);
}

void SamplingPanel::setFilter(const stats::SamplingFilter &filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    m_hideKernel->setChecked(filter.hideKernelFrames);
    m_collapseUnresolved->setChecked(filter.collapseUnresolved);
    m_byModule->setChecked(filter.groupByModule);
    refreshWhenShown();
}

void SamplingPanel::setThreads(std::optional<std::set<stats::SamplingScope::ThreadKey>> threads)
{
    if (threads == m_threads)
        return;
    m_threads = std::move(threads);
    refreshWhenShown();
}

QString SamplingPanel::note() const
{
    return m_note->text();
}

bool SamplingPanel::findNext(const QString &text)
{
    const std::uint32_t node = m_model->findNext(text, m_model->nodeOf(m_tree->currentIndex()));
    if (node == 0)
        return false;
    const QModelIndex index = m_model->indexOf(node);
    for (QModelIndex up = index.parent(); up.isValid(); up = up.parent())
        m_tree->expand(up);
    m_tree->setCurrentIndex(index);
    m_tree->scrollTo(index);
    return true;
}

void SamplingPanel::refresh()
{
    if (!session())
        return;
    run<std::shared_ptr<const stats::SamplingProfile>>(
        [s = session(), sc = scope(), f = m_filter, threads = m_threads] {
            return std::make_shared<const stats::SamplingProfile>(stats::samplingProfile(stats::SamplingScope{stats::slicesOf(*s, sc), threads}, f));
        },
        [this](std::shared_ptr<const stats::SamplingProfile> p) { present(std::move(p)); });
}

void SamplingPanel::present(std::shared_ptr<const stats::SamplingProfile> profile)
{
    m_profile = std::move(profile);
    const auto shape = CallTreeModel::Shape(m_shape->currentIndex());
    m_model->setProfile(m_profile, shape);
    m_tree->sortByColumn(shape == CallTreeModel::Shape::Flat ? CallTreeModel::SelfColumn : CallTreeModel::TotalColumn, Qt::DescendingOrder);
    // The first levels open: where most samples go is in view at once.
    if (shape != CallTreeModel::Shape::Flat)
        m_tree->expandToDepth(shape == CallTreeModel::Shape::TopDown ? 3 : 0);
    m_tree->resizeColumnToContents(CallTreeModel::SelfColumn);
    m_tree->resizeColumnToContents(CallTreeModel::TotalColumn);
    m_icicle->setTree(m_profile, m_profile ? m_profile->topDown() : stats::CallTree{});
    m_icicle->setSearch(m_search->text());
    if (!m_profile || (m_profile->samples == 0 && m_profile->withoutCallchain == 0)) {
        m_note->setText(tr("No CPU samples in this scope. Nsight Systems records them with "
                           "nsys profile --sample=cpu (and --cudabacktrace=all for the CUDA calls' backtraces)."));
        return;
    }
    QString text = m_threads ? tr("%n sample(s) with a callchain on the %1 sampled thread(s) of the area selection", nullptr,
                                  int(std::min<std::uint64_t>(m_profile->samples, INT_MAX)))
                                   .arg(m_threads->size())
                             : tr("%n sample(s) with a callchain in this scope", nullptr, int(std::min<std::uint64_t>(m_profile->samples, INT_MAX)));
    if (m_profile->withoutCallchain)
        text += tr("; %1 more without one (not counted)").arg(m_profile->withoutCallchain);
    m_note->setText(text + QLatin1Char('.'));
}

void SamplingPanel::markFunction(std::uint32_t function)
{
    if (!m_profile || function >= m_profile->functions.size())
        return;
    const stats::SampledFunction &f = m_profile->functions[function];
    emit functionMarked(f.function, f.module, m_filter.groupByModule);
}

} // namespace rankscope
