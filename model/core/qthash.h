#pragma once
// Qt values (QString, QStringList) as keys of std::unordered_map. Qt 6's
// QHash inserts through a noexcept function (QHashPrivate::Data::
// findOrInsert), so running out of memory while one grows terminates the
// process; std::unordered_map throws std::bad_alloc, which a statistics
// report catches to fail alone (the CLI's stats, the panels).
#include <QHashFunctions>

#include <cstddef>

namespace rankscope {

struct QtHash {
    template <class T>
    std::size_t operator()(const T &value) const
    {
        return qHash(value);
    }
};

} // namespace rankscope
