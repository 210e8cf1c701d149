#pragma once
// RANKSCOPE_ASAN is defined when the build runs under AddressSanitizer
// (gcc says so with __SANITIZE_ADDRESS__, clang with __has_feature): tests
// that read the heap's own statistics or limit the address space behave
// differently there.
#if defined(__SANITIZE_ADDRESS__)
#define RANKSCOPE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RANKSCOPE_ASAN 1
#endif
#endif
