#include "heappages.h"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <gnu/libc-version.h>
#include <unistd.h>

namespace rankscope {

namespace {

constexpr const char *kHugePages = "glibc.malloc.hugetlb";
// glibc gives huge pages only to its main arena (the sbrk heap) and to
// allocations it maps alone; the arenas it makes for other threads stay on
// 4 KiB pages. The statistics panels and loading run on pool threads, so
// every thread shares the main arena. Its lock is taken only when a
// thread's cache of small blocks cannot serve it: about 10,000 times a
// second while two threads parse (perf probe on _int_malloc), against
// 886,000 mallocs in all, so the lock is not what a thread waits on.
constexpr const char *kOneArena = "glibc.malloc.arena_max";

// "always [madvise] never": huge pages only where asked for. In "always"
// mode the heap has them already; in "never" asking changes nothing.
bool kernelGivesHugePagesOnlyWhenAsked()
{
    FILE *file = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!file)
        return false;
    char line[128] = {};
    const bool read = std::fgets(line, sizeof line, file) != nullptr;
    std::fclose(file);
    return read && std::strstr(line, "[madvise]") != nullptr;
}

bool glibcHasTunable()
{
    int major = 0, minor = 0;
    return std::sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor) == 2 && (major > 2 || (major == 2 && minor >= 35));
}

} // namespace

bool sanitizerOwnsMalloc()
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
    return true;
#else
    return false;
#endif
#else
    return false;
#endif
}

void rerunWithHugePageHeap(char **argv)
{
    const char *optOut = std::getenv("RANKSCOPE_HUGE_PAGES");
    const char *tunables = std::getenv("GLIBC_TUNABLES");
    if ((optOut && std::strcmp(optOut, "off") == 0) || (tunables && std::strstr(tunables, kHugePages)) || sanitizerOwnsMalloc() || !glibcHasTunable()
        || !kernelGivesHugePagesOnlyWhenAsked())
        return;
    std::string value = tunables && *tunables ? std::string(tunables) + ':' : std::string();
    value += kHugePages;
    value += "=1";
    if (!(tunables && std::strstr(tunables, kOneArena))) // the user's arena count stands
        value += std::string(":") + kOneArena + "=1";
    if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0)
        return;
    // Run by its own path: the kernel names a process after the file it
    // ran, and through /proc/self/exe ps, top and pgrep would show "exe".
    // (A path that no longer runs, the file replaced or deleted, falls
    // back to /proc/self/exe.)
    char self[PATH_MAX];
    if (const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1); length > 0) {
        self[length] = '\0';
        execv(self, argv);
    }
    execv("/proc/self/exe", argv);
    // Not re-run (no /proc, say): go on with the heap as it is. The variable
    // stays set, which only means the processes this one starts get it.
}

} // namespace rankscope
