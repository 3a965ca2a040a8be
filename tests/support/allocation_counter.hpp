#pragma once
// Heap allocations made so far by the test binary, for tests that assert that a computation makes
// none (docs/design.md §3: laws do not allocate for the fixed-size cases). The counting replacement
// of the global operator new lives in tests/test_allocation_counter.cpp, its own translation unit,
// so that no caller can inline it (GCC would then pair its malloc and free with new and delete
// and warn about a mismatch).

namespace routh::test {

/// Calls of the global operator new since the program started.
long allocation_count();

}  // namespace routh::test
