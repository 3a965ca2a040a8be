#pragma once
// Whether this build runs under AddressSanitizer (tools/setup.sh --sanitize). The sanitizers slow
// a run about tenfold: long campaigns and sweeps run a share of their cases under them.

namespace routh::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

}  // namespace routh::test
