// Run by tst_heappages: starts as the executables do, then prints what the
// re-run left (GLIBC_TUNABLES, the arguments, the huge pages backing a
// 64 MiB allocation it wrote, the name the kernel gives the process).
#include "heappages.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

int main(int argc, char **argv)
{
    rankscope::rerunWithHugePageHeap(argv);
    const char *tunables = std::getenv("GLIBC_TUNABLES");
    std::printf("%s\n", tunables ? tunables : "(unset)");
    for (int i = 1; i < argc; ++i)
        std::printf("%s%s", i > 1 ? "|" : "", argv[i]);
    std::printf("\n");
    constexpr std::size_t kBytes = std::size_t(64) << 20;
    const std::unique_ptr<char[]> block(new char[kBytes]);
    volatile char *pages = block.get(); // written through volatile: the writes stay
    for (std::size_t at = 0; at < kBytes; at += 4096)
        pages[at] = 1;
    long hugeKb = -1;
    if (FILE *smaps = std::fopen("/proc/self/smaps_rollup", "r")) {
        char line[256];
        while (std::fgets(line, sizeof line, smaps))
            if (std::sscanf(line, "AnonHugePages: %ld kB", &hugeKb) == 1)
                break;
        std::fclose(smaps);
    }
    std::printf("%ld\n", hugeKb);
    char name[64] = "(unknown)";
    if (FILE *comm = std::fopen("/proc/self/comm", "r")) {
        if (!std::fgets(name, sizeof name, comm))
            name[0] = '\0';
        std::fclose(comm);
    }
    std::printf("%s", name); // the kernel's line ends with its newline
    return 0;
}
