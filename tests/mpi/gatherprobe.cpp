// Under mpirun: each process sends MiB mebibytes (argument 1), each MiB
// filled with a byte of its own (the process's rank plus the MiB's index);
// process 0 checks that every byte arrived, in process order, and prints
// how many. With 2 processes of 1100 MiB the gathered payload passes 2 GiB,
// where int counts and displacements wrapped (processworld.cpp).
#include "processworld.h"

#include <QByteArray>

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace rankscope::cli;

namespace {

constexpr qsizetype kMiB = qsizetype(1) << 20;

char byteOf(int rank, qsizetype mib)
{
    return char((rank * 37 + mib) & 0xff);
}

} // namespace

int main(int argc, char **argv)
{
    startProcessWorld(&argc, &argv);
    const qsizetype mebibytes = argc > 1 ? qsizetype(std::atoll(argv[1])) : 1;
    const int rank = processWorld().rank;
    QByteArray mine(mebibytes * kMiB, Qt::Uninitialized);
    for (qsizetype m = 0; m < mebibytes; ++m)
        std::memset(mine.data() + m * kMiB, byteOf(rank, m), std::size_t(kMiB));
    int status = 0;
    const QList<QByteArray> parts = gatherToFirst(mine);
    if (processWorld().isFirst()) {
        qint64 total = 0;
        if (parts.size() != processWorld().size)
            status = 1;
        for (qsizetype p = 0; p < parts.size() && status == 0; ++p) {
            const QByteArray &part = parts[p];
            if (part.size() != mebibytes * kMiB) {
                std::fprintf(stderr, "process %lld sent %lld bytes, %lld arrived\n", qlonglong(p), qlonglong(mebibytes * kMiB),
                             qlonglong(part.size()));
                status = 1;
                break;
            }
            for (qsizetype m = 0; m < mebibytes && status == 0; ++m) {
                const char expected = byteOf(int(p), m);
                const char *at = part.constData() + m * kMiB;
                for (qsizetype i = 0; i < kMiB; ++i)
                    if (at[i] != expected) {
                        std::fprintf(stderr, "process %lld, MiB %lld, byte %lld: wrong\n", qlonglong(p), qlonglong(m), qlonglong(i));
                        status = 1;
                        break;
                    }
            }
            total += part.size();
        }
        if (status == 0)
            std::printf("gathered %lld bytes from %lld processes\n", qlonglong(total), qlonglong(parts.size()));
    }
    stopProcessWorld();
    return status;
}
