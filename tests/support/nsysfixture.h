#pragma once
// Builds small synthetic Nsight Systems SQLite exports for tests, with the
// table shapes of a chosen schema era. Each test writes the rows it needs
// as plain SQL, so what the fixture holds is visible in the test.
#include <QString>
#include <QTemporaryDir>
#include <cstdint>

struct sqlite3;

namespace rankscope::test {

// globalTid / globalPid as nsys packs them: hw:8 | vm:8 | pid:24 | tid:24.
constexpr std::int64_t globalId(std::int64_t pid, std::int64_t tid = 0, std::int64_t hw = 1)
{
    return (hw << 56) | (pid << 24) | tid;
}

// Copies a real export to `to`, writable, for a test to plant rows into
// (the fixtures themselves are never written); false if it could not.
bool writableCopy(const QString &from, const QString &to);

class NsysFixture {
public:
    explicit NsysFixture(const QString &path);
    ~NsysFixture();
    NsysFixture(const NsysFixture &) = delete;
    NsysFixture &operator=(const NsysFixture &) = delete;

    void exec(const QString &sql); // fails the running test on error
    void close();                  // flush to disk before loading
    const QString &path() const { return m_path; }

    // Schema eras. Each creates the metadata table of its era and the
    // tables named; nothing else.
    void createSchema2022(); // schema 2.9: EXPORT_META_DATA, no ENUM tables, TARGET_INFO_CUDA_GPU, misspelt launch type enum
    void createSchema2025(); // schema 3.20: the fixtures' own shape, ENUM tables, TARGET_INFO_GPU, PROCESSES
    void createSchema2026(); // schema 3.28: new columns (NVTX eventId, kernel graphId/cluster, sync eventSyncId, memcpy copyCount)
    // A 2025-schema export with `calls` CUDA runtime calls and as many OS
    // runtime calls on one thread, and one kernel per runtime call: large
    // enough that loading takes a while (for cancelling midway).
    void fillWithCalls(int calls);
    void addMetadata(const QString &table, const QString &product, const QString &schema);
    void addString(int id, const QString &value);

private:
    QString m_path;
    sqlite3 *m_db = nullptr;
};

} // namespace rankscope::test
