#pragma once
// Paths to the test fixtures and small helpers shared by the suites.
#include <QCryptographicHash>
#include <QFile>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace rankscope::test {

inline QString dataPath(const QString &relative)
{
    return QStringLiteral(RANKSCOPE_TEST_DATA "/") + relative;
}

inline QString demoPath(const QString &relative = {})
{
    return relative.isEmpty() ? QStringLiteral(RANKSCOPE_DEMO_DATA) : QStringLiteral(RANKSCOPE_DEMO_DATA "/") + relative;
}

// The committed part of the bad-input corpus (see badcorpus.h).
inline QString badInputsDir()
{
    return dataPath(QStringLiteral("bad"));
}

inline QString slowFixture()
{
    return dataPath(QStringLiteral("nsys/slow_1gpu/slow_1gpu.sqlite"));
}
inline QString ddpFixture(int rank)
{
    return demoPath(QStringLiteral("ddp4_rank%1.sqlite").arg(rank));
}

// The reference CSV that `nsys stats` / `nsys analyze` printed.
inline QString referenceCsv(const QString &fixture, const QString &report)
{
    const QString stem = fixture == QLatin1String("slow_1gpu") ? QStringLiteral("slow_1gpu") : QStringLiteral("ddp4_rank0");
    const QString folder = fixture == QLatin1String("slow_1gpu") ? QStringLiteral("slow_1gpu") : QStringLiteral("ddp4");
    return dataPath(QStringLiteral("nsys/%1/stats/%2_%3.csv").arg(folder, stem, report));
}

inline QByteArray fileHash(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&f);
    return hash.result();
}

// Splits CSV text into rows of fields (RFC 4180 quoting).
inline QList<QStringList> parseCsv(const QString &text)
{
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            row << field;
            field.clear();
        } else if (c == QLatin1Char('\n')) {
            row << field;
            rows << row;
            row.clear();
            field.clear();
        } else if (c != QLatin1Char('\r')) {
            field += c;
        }
    }
    if (!field.isEmpty() || !row.isEmpty())
        rows << (row << field);
    return rows;
}

// Writes `bytes` to `name` in `dir`; returns the path (empty on failure).
inline QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(bytes);
    return path;
}

inline QString readText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

inline QByteArray readBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace rankscope::test
