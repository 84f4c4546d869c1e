// meshio++ core: the threads parallel_for (parallel.hpp) lends its work to, started once per
// process instead of once per call.
//
// Starting and joining a thread costs about 50 us on the 2-core VM the project is measured
// on, and a read takes a parallel_for or more per section: a 3 ms binary read started 3-5
// threads. The pool holds hardware_concurrency() - 1 threads, made on the first call that
// wants one and never stopped (blocked on a condition variable between calls; the process
// exits over them). Taking it never blocks: a call finds it free (try_lock) or does not,
// and one that does not (another thread's call holds it, or a parallel_for nested in
// one, or more threads wanted than the pool has) starts its own threads as before. A
// child of fork(), whose pool threads stayed in the parent, makes a pool of its own.
#include "core/parallel.hpp"

#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace meshioplusplus::detail {

namespace {

class Pool {
 public:
  explicit Pool(unsigned size) : pid_(::getpid()) {
    threads_.reserve(size);
    for (unsigned i = 0; i < size; ++i) {
      try {
        threads_.emplace_back([this] { serve(); });
      } catch (const std::system_error&) {  // no more threads to be had: the pool is smaller
        break;
      }
    }
  }

  pid_t pid() const { return pid_; }

  // run(ctx) on `helpers` pool threads and on this one; false (nothing run) when the pool is
  // taken.
  bool run(unsigned helpers, void (*run)(void*), void* ctx) {
    std::unique_lock<std::mutex> taken(taken_, std::try_to_lock);
    if (!taken.owns_lock() || helpers > threads_.size()) return false;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      run_ = run;
      ctx_ = ctx;
      wanted_ = helpers;
    }
    for (unsigned i = 0; i < helpers; ++i) work_.notify_one();
    run(ctx);
    std::unique_lock<std::mutex> lock(mutex_);
    wanted_ = 0;  // the work is done: threads not awake yet stay asleep
    done_.wait(lock, [this] { return running_ == 0; });
    return true;
  }

 private:
  void serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      work_.wait(lock, [this] { return wanted_ > 0; });
      --wanted_;
      ++running_;
      void (*const run)(void*) = run_;
      void* const ctx = ctx_;
      lock.unlock();
      run(ctx);  // parallel_for's loop: catches what its work items throw
      lock.lock();
      if (--running_ == 0) done_.notify_one();
    }
  }

  const pid_t pid_;
  std::mutex taken_;  // held by the one call using the pool
  std::mutex mutex_;  // guards what follows
  std::condition_variable work_, done_;
  void (*run_)(void*) = nullptr;
  void* ctx_ = nullptr;
  unsigned wanted_ = 0;   // threads still to join the current call
  unsigned running_ = 0;  // threads in the current call's run
  std::vector<std::thread> threads_;  // last: started once the members above exist
};

std::atomic<Pool*> g_pool{nullptr};
std::mutex g_making;

// This process's pool, made on first use; null when none can be had now. A pool made
// before a fork() belongs to the parent (its threads are not in the child): the child
// makes its own and leaves that one as it is.
Pool* this_process_pool() {
  Pool* pool = g_pool.load(std::memory_order_acquire);
  if (pool != nullptr && pool->pid() == ::getpid()) return pool;
  const std::unique_lock<std::mutex> making(g_making, std::try_to_lock);
  if (!making.owns_lock()) return nullptr;
  pool = g_pool.load(std::memory_order_acquire);
  if (pool != nullptr && pool->pid() == ::getpid()) return pool;
  const unsigned size = resolve_threads(0) - 1;
  if (size == 0) return nullptr;
  pool = new Pool(size);  // never deleted: its threads wait on it until the process exits
  g_pool.store(pool, std::memory_order_release);
  return pool;
}

}  // namespace

bool run_on_pool(unsigned helpers, void (*run)(void*), void* ctx) {
  Pool* pool = this_process_pool();
  return pool != nullptr && pool->run(helpers, run, ctx);
}

}  // namespace meshioplusplus::detail
