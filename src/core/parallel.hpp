// meshio++ core: the one parallel loop, on std::thread (no dependency).
//
// parallel_for(n, threads, f) calls f(i) for every i in [0, n), on up to `threads` threads
// (0 = std::thread::hardware_concurrency(), asked once), each taking the next index from an atomic
// counter: the calling thread and threads of the process's pool (parallel.cpp), or threads
// started for the call where the pool is taken or too small. Work items write to disjoint
// outputs, so results never depend on the thread count. The first exception thrown by any
// f is rethrown on the calling thread.
// parallel_ranges(n, threads, f) calls f(r0, r1) over a few contiguous ranges instead.
// resolve_threads() turns the `threads` option every reader and writer accepts (see
// OptionReader::threads) into a count: 0 or absent = every core.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace meshioplusplus {

inline unsigned resolve_threads(long long requested) {
  if (requested > 0) return static_cast<unsigned>(std::min<long long>(requested, 256));
  // Asked once per process: glibc reads /sys/devices/system/cpu/online on every call, which
  // a read of a small file would otherwise pay for each time.
  static const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  return hw;
}

namespace detail {
// Runs run(ctx) on `helpers` threads of the process's pool and on the calling thread, and
// returns once every one of them is done; false (nothing run) when the pool cannot take
// the call (parallel.cpp).
bool run_on_pool(unsigned helpers, void (*run)(void*), void* ctx);
}  // namespace detail

template <class F> void parallel_for(std::size_t n, unsigned threads, F&& f) {
  const std::size_t workers = std::min<std::size_t>(threads == 0 ? 1 : threads, n);
  if (workers <= 1) {
    for (std::size_t i = 0; i < n; ++i) f(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&] {
    for (;;) {
      const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= n) return;
      try {
        f(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        next.store(n, std::memory_order_relaxed);
        return;
      }
    }
  };
  const auto run = [](void* w) { (*static_cast<decltype(work)*>(w))(); };
  if (!detail::run_on_pool(static_cast<unsigned>(workers - 1), run, &work)) {
    std::vector<std::thread> started;
    started.reserve(workers - 1);
    for (std::size_t t = 1; t < workers; ++t) {
      try {
        started.emplace_back(work);
      } catch (const std::system_error&) {  // no more threads to be had: the ones started (and
        break;                              // this one) take every index from the counter
      }
    }
    work();
    for (auto& t : started) t.join();
  }
  if (error) std::rethrow_exception(error);
}

// f(r0, r1) over [0, n) cut into a few contiguous ranges (at most one per thread, none
// under kRowsPerRange rows): for decoding large binary sections, where the work per row
// is a few loads and stores and a range per thread keeps each thread streaming.
template <class F> void parallel_ranges(std::size_t n, unsigned threads, F&& f) {
  constexpr std::size_t kRowsPerRange = 1 << 16;
  const std::size_t ranges = std::min<std::size_t>({threads == 0 ? 1 : threads, 16, n / kRowsPerRange + 1});
  parallel_for(ranges, static_cast<unsigned>(ranges), [&](std::size_t j) { f(n * j / ranges, n * (j + 1) / ranges); });
}

}  // namespace meshioplusplus
