// Replaces the global operator new with one that counts its calls (tests/support/
// allocation_counter.hpp). It affects the whole test binary, but only by counting. No test
// case here: in this translation unit GCC would inline the replacement into it and warn that
// malloc'ed memory meets delete (tests/test_lcp.cpp checks that the counter counts).

#include <atomic>
#include <cstdlib>
#include <new>

#include "tests/support/allocation_counter.hpp"

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
// Every form that pairs with the deletes below allocates with malloc too: the standard library's
// temporary buffers (std::stable_sort) take the nothrow form, and AddressSanitizer reports a
// mismatch when memory from its own nothrow new meets this free.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size) { return operator new(size); }
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept {
  return operator new(size, tag);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

long routh::test::allocation_count() { return g_allocations.load(std::memory_order_relaxed); }
