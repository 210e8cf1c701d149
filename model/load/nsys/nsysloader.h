#pragma once
// Loads an Nsight Systems SQLite export (`nsys export --type sqlite`),
// schema 2.9 (nsys 2022.1) to 3.2x, into a Report. Never writes the file.
#include "load/loadcontrol.h"

namespace rankscope {

class NsysSqliteLoader {
public:
    // True when the file starts with the SQLite header.
    static bool canLoad(const QString &path);
    static LoadResult load(const QString &path, const LoadControl &control = {});
};

} // namespace rankscope
