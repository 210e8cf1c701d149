#pragma once
// ASCII case folding for names matched the way SQLite's LIKE matches them
// (case-insensitive for ASCII only): API, NVTX and NCCL call names.
#include <cctype>
#include <string>
#include <string_view>

namespace rankscope {

inline std::string asciiLowered(std::string_view s)
{
    std::string out(s);
    for (char &c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

} // namespace rankscope
