#include "timeline/rowbuilder.h"

#include "timeline/busyshare.h"

#include <algorithm>

namespace rankscope {

BuiltRow buildRow(const RowBuildJob &job)
{
    BuiltRow built;
    for (const RowBuildJob::Part &part : job.parts)
        buildSliceGeometry(part.input, part.scale, job.widthPx, built.rects);
    if (!job.busyParts.empty()) {
        built.busy.assign(std::size_t(std::max(job.widthPx, 0)), 0.0f);
        for (const RowBuildJob::BusyPart &part : job.busyParts)
            addBusyShare(*part.runs, part.sessionOffset, part.scale, built.busy, part.x0, part.x1);
    }
    return built;
}

RowBuilder::RowBuilder(QObject *parent) : QObject(parent)
{
    m_pool.setMaxThreadCount(1);
    m_pool.setObjectName(QStringLiteral("rankscope rows"));
}

RowBuilder::~RowBuilder()
{
    m_pool.clear();
    m_pool.waitForDone();
}

void RowBuilder::startView()
{
    {
        const std::lock_guard lock(m_wanted->mutex);
        m_generation = ++m_wanted->generation;
    }
    m_inFlight.clear();
    m_built.clear();
}

void RowBuilder::setRowsInView(std::set<int> rows)
{
    std::erase_if(m_built, [&](const auto &built) { return !rows.contains(built.first.row); });
    const std::lock_guard lock(m_wanted->mutex);
    m_wanted->rows = std::move(rows);
}

std::optional<BuiltRow> RowBuilder::take(int row, int firstLane, int lastLane)
{
    const auto it = m_built.find({row, firstLane, lastLane});
    if (it == m_built.end())
        return std::nullopt;
    BuiltRow built = std::move(it->second);
    m_built.erase(it);
    return built;
}

void RowBuilder::request(int row, int firstLane, int lastLane, RowBuildJob job)
{
    const Key key{row, firstLane, lastLane};
    if (!m_inFlight.insert(key).second)
        return;
    {
        const std::lock_guard lock(m_wanted->mutex);
        m_wanted->rows.insert(row); // wanted from now, even before the frame's list is set
    }
    m_pool.start([this, key, job = std::move(job), wanted = m_wanted, generation = m_generation] {
        bool stillWanted = false;
        {
            const std::lock_guard lock(wanted->mutex);
            stillWanted = wanted->generation == generation && wanted->rows.contains(key.row);
        }
        std::optional<BuiltRow> built;
        if (stillWanted)
            built = buildRow(job);
        // Queued to the GUI thread; the destructor waits for this job, so
        // `this` outlives the call, and Qt drops the event if it is gone.
        QMetaObject::invokeMethod(
            this, [this, key, generation, built = std::move(built)]() mutable { deliver(key, generation, std::move(built)); }, Qt::QueuedConnection);
    });
}

void RowBuilder::deliver(Key key, std::uint64_t generation, std::optional<BuiltRow> built)
{
    if (generation != m_generation)
        return; // built for a view that is gone
    m_inFlight.erase(key);
    if (built)
        m_built[key] = std::move(*built);
    emit rowsChanged(); // built, or dropped: a frame that still shows the row asks again
}

} // namespace rankscope
