#pragma once
// A CPU sampling call tree (stats/sampling/samplingprofile.h) as an item model for a
// tree view: Top-Down, Bottom-Up, or the Flat list as a tree of one level.
// Sortable by any column; sorting orders every node's children.
#include "stats/sampling/samplingprofile.h"

#include <QAbstractItemModel>
#include <memory>

namespace rankscope {

class CallTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { FunctionColumn, SelfColumn, SelfPercentColumn, TotalColumn, TotalPercentColumn, ModuleColumn, ColumnCount };
    enum class Shape : std::uint8_t { TopDown, BottomUp, Flat };

    explicit CallTreeModel(QObject *parent = nullptr);
    void setProfile(std::shared_ptr<const stats::SamplingProfile> profile, Shape shape);
    const stats::SamplingProfile *profile() const { return m_profile.get(); }
    const stats::CallTree &tree() const { return m_tree; }
    Shape shape() const { return m_shape; }
    // The tree node an index stands for (0: none, the root).
    std::uint32_t nodeOf(const QModelIndex &index) const;
    QModelIndex indexOf(std::uint32_t node, int column = 0) const;
    // The next node after `after` (depth first, wrapping) whose function
    // contains `text` (case-insensitive); 0 when none does.
    std::uint32_t findNext(const QString &text, std::uint32_t after) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    void sort(int column, Qt::SortOrder order) override;

private:
    std::shared_ptr<const stats::SamplingProfile> m_profile;
    stats::CallTree m_tree;
    std::vector<std::uint32_t> m_rowInParent; // per node
    Shape m_shape = Shape::TopDown;
    void numberRows();
};

} // namespace rankscope
