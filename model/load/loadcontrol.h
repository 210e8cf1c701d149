#pragma once
// What a loader is given (a cancel flag, a progress sink) and what it returns.
#include "core/report.h"

#include <QString>
#include <atomic>
#include <functional>
#include <memory>

namespace rankscope {

struct LoadControl {
    const std::atomic<bool> *cancel = nullptr;
    std::function<void(double fraction)> progress; // 0..1, from the loading thread

    bool isCancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
    void report(double fraction) const
    {
        if (progress)
            progress(fraction);
    }
};

struct LoadResult {
    std::shared_ptr<Report> report; // set on success
    QString error;                  // one line, without the file name
    bool cancelled = false;

    bool ok() const { return report != nullptr; }
    // `why` becomes one line of at most kMaxErrorLength characters: an
    // SQLite message can quote a broken schema, newlines and all.
    static LoadResult failure(const QString &why);
    static constexpr qsizetype kMaxErrorLength = 300;
};

} // namespace rankscope
