#pragma once
// The Top-Down call tree as an icicle (a flame graph hanging down): the
// outermost functions on top, each function as wide as its samples, its
// callees below it. Click a function to fill the width with it, Esc or a
// right click to step back out; double-click to mark its samples on the
// timeline; the search's matches stay lit, the rest fade.
#include "stats/sampling/samplingprofile.h"

#include <QWidget>
#include <memory>

namespace rankscope {

class IcicleView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kRowHeight = 18;

    explicit IcicleView(QWidget *parent = nullptr);
    void setTree(std::shared_ptr<const stats::SamplingProfile> profile, stats::CallTree tree);
    void setSearch(const QString &text);
    // The node filling the width (0: the root, every sample).
    std::uint32_t focus() const { return m_focus; }
    void setFocusNode(std::uint32_t node);
    // The node drawn at a point, if any.
    std::optional<std::uint32_t> nodeAt(QPoint pos) const;
    QSize sizeHint() const override;

signals:
    void functionActivated(std::uint32_t function); // a row of the profile's functions

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;

private:
    struct Box {
        std::uint32_t node;
        QRectF rect;
    };
    // The boxes drawn for the current focus and width, outermost first.
    std::vector<Box> layoutBoxes() const;

    std::shared_ptr<const stats::SamplingProfile> m_profile;
    stats::CallTree m_tree;
    std::uint32_t m_focus = 0;
    QString m_search;
    int m_depth = 0; // the deepest node's depth + 1
};

} // namespace rankscope
