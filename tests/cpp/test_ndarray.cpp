// NDArray and the buffer allocator hook: each statement of the contract in ndarray.hpp
// proven with a counting allocator.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <cstdlib>
#include <thread>
#include <vector>

#include "core/uncached_scope.hpp"
#include "core/uninit_vector.hpp"
#include "meshioplusplus/ndarray.hpp"

namespace mpp = meshioplusplus;

namespace {

struct Counter {
  std::atomic<long> allocs{0}, frees{0}, bytes_alloc{0}, bytes_freed{0};
};

void* counting_alloc(std::size_t n, void* user) {
  auto* c = static_cast<Counter*>(user);
  ++c->allocs;
  c->bytes_alloc += static_cast<long>(n);
  return std::malloc(n);
}

void counting_free(void* p, std::size_t n, void* user) {
  auto* c = static_cast<Counter*>(user);
  ++c->frees;
  c->bytes_freed += static_cast<long>(n);
  std::free(p);
}

mpp::BufferAllocator counting(Counter& c) { return {counting_alloc, counting_free, &c}; }

// Installs for the scope of a test and always restores the default heap.
struct Installed {
  explicit Installed(const mpp::BufferAllocator& a) { mpp::set_buffer_allocator(&a); }
  ~Installed() { mpp::set_buffer_allocator(static_cast<const mpp::BufferAllocator*>(nullptr)); }
};

}  // namespace

TEST(NDArray, DtypesHaveSizesAndNames) {
  EXPECT_EQ(mpp::dtype_size(mpp::DType::int8), 1u);
  EXPECT_EQ(mpp::dtype_size(mpp::DType::uint16), 2u);
  EXPECT_EQ(mpp::dtype_size(mpp::DType::float32), 4u);
  EXPECT_EQ(mpp::dtype_size(mpp::DType::int64), 8u);
  EXPECT_EQ(mpp::dtype_name(mpp::DType::uint64), "uint64");
  EXPECT_EQ(mpp::dtype_name(mpp::DType::float64), "float64");
}

TEST(NDArray, ShapeSizeAndBytes) {
  auto a = mpp::NDArray::zeros(mpp::DType::float32, {5, 3});
  EXPECT_EQ(a.size(), 15u);
  EXPECT_EQ(a.nbytes(), 60u);
  EXPECT_EQ(a.row_size(), 3u);
  EXPECT_TRUE(a.owns_data());
  EXPECT_EQ(a.data<float>()[14], 0.0f);
  EXPECT_THROW(a.data<double>(), std::logic_error);
}

TEST(NDArray, ByteSizeOverflowIsCaught) {
  const std::size_t huge = std::size_t{1} << 62;
  EXPECT_THROW(mpp::NDArray::uninit(mpp::DType::float64, {huge, 4}), std::length_error);
  EXPECT_THROW(mpp::NDArray::view(nullptr, mpp::DType::int64, {huge, huge}), std::length_error);
}

TEST(NDArray, ViewOwnsNothingAndSeesCallerMemory) {
  std::vector<std::int64_t> mem = {1, 2, 3, 4, 5, 6};
  auto v = mpp::NDArray::view(mem.data(), mpp::DType::int64, {3, 2});
  EXPECT_FALSE(v.owns_data());
  EXPECT_EQ(v.raw(), mem.data());
  mem[5] = 42;
  EXPECT_EQ(v.data<std::int64_t>()[5], 42);
}

TEST(NDArray, CopyIsDeepAndShallowCopyShares) {
  auto a = mpp::NDArray::from_vector<double>({1, 2, 3});
  mpp::NDArray shallow = a;
  auto deep = a.copy();
  a.data<double>()[0] = 9;
  EXPECT_EQ(shallow.data<double>()[0], 9);
  EXPECT_EQ(deep.data<double>()[0], 1);
  EXPECT_NE(deep.raw(), a.raw());
}

TEST(NDArray, AsDtypeConverts) {
  auto a = mpp::NDArray::from_vector<std::int32_t>({-1, 7});
  auto b = a.as_dtype(mpp::DType::float64);
  EXPECT_EQ(b.data<double>()[0], -1.0);
  EXPECT_EQ(b.data<double>()[1], 7.0);
  EXPECT_EQ(a.as_dtype(mpp::DType::int32).raw(), a.raw());  // same dtype: no copy
}

TEST(NDArray, FloatToIntegerConversionRefusesValuesThatDoNotFit) {
  // NaN, infinities and out-of-range floats are named, never converted (that would be
  // undefined behaviour); the edges of the range still convert exactly.
  const double bad[] = {std::nan(""), INFINITY, -INFINITY, 9.3e18, -9.3e18, 128.0, -129.0};
  for (double v : bad) {
    auto a = mpp::NDArray::zeros(mpp::DType::float64, {2});
    a.data<double>()[1] = v;
    const mpp::DType to = std::fabs(v) < 1000 ? mpp::DType::int8 : mpp::DType::int64;
    try {
      (void)a.as_dtype(to);
      ADD_FAILURE() << "converted " << v;
    } catch (const std::range_error& e) {
      EXPECT_NE(std::string(e.what()).find("at index 1"), std::string::npos) << e.what();
    }
    if (to == mpp::DType::int64) {
      EXPECT_THROW((void)a.value_as_int64(1), std::range_error) << v;
    }
  }
  auto edges = mpp::NDArray::zeros(mpp::DType::float64, {2});
  edges.data<double>()[0] = 127.9;  // truncates to 127
  edges.data<double>()[1] = -0.5;   // truncates to 0
  EXPECT_EQ(edges.as_dtype(mpp::DType::int8).data<std::int8_t>()[0], 127);
  EXPECT_EQ(edges.as_dtype(mpp::DType::uint8).data<std::uint8_t>()[1], 0);
  auto lowest = mpp::NDArray::zeros(mpp::DType::float64, {1});
  lowest.data<double>()[0] = -9223372036854775808.0;  // -2^63 fits int64 exactly
  EXPECT_EQ(lowest.as_dtype(mpp::DType::int64).data<std::int64_t>()[0], std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(lowest.value_as_int64(0), std::numeric_limits<std::int64_t>::min());
  auto neg = mpp::NDArray::zeros(mpp::DType::float32, {1});
  neg.data<float>()[0] = -1.0f;
  EXPECT_THROW((void)neg.as_dtype(mpp::DType::uint32), std::range_error);
}

TEST(AllocatorHook, AllocationsAndFreesBalanceInCountAndBytes) {
  Counter c;
  {
    Installed hook(counting(c));
    std::vector<mpp::NDArray> arrays;
    for (std::size_t i = 1; i <= 10; ++i) arrays.push_back(mpp::NDArray::uninit(mpp::DType::float64, {i, 3}));
    EXPECT_EQ(c.allocs, 10);
    EXPECT_EQ(c.bytes_alloc, 8 * 3 * 55);
    EXPECT_EQ(c.frees, 0);
  }
  EXPECT_EQ(c.frees, 10);
  EXPECT_EQ(c.bytes_freed, c.bytes_alloc);
}

TEST(AllocatorHook, BufferOutlivingUninstallIsFreedThroughItsOwnAllocator) {
  Counter c;
  mpp::NDArray survivor;
  {
    Installed hook(counting(c));
    survivor = mpp::NDArray::uninit(mpp::DType::int64, {100});
  }
  // The hook is gone; the buffer still belongs to it.
  EXPECT_EQ(c.allocs, 1);
  EXPECT_EQ(c.frees, 0);
  auto fresh = mpp::NDArray::uninit(mpp::DType::int64, {100});  // default heap now
  EXPECT_EQ(c.allocs, 1);
  survivor = mpp::NDArray();
  EXPECT_EQ(c.frees, 1);
  EXPECT_EQ(c.bytes_freed, 800);
}

TEST(AllocatorHook, DefaultPathNeverTouchesAnUninstalledHook) {
  Counter c;
  { Installed hook(counting(c)); }
  for (int i = 0; i < 5; ++i) {
    auto a = mpp::NDArray::zeros(mpp::DType::float32, {64});
    auto b = a.copy();
  }
  EXPECT_EQ(c.allocs, 0);
  EXPECT_EQ(c.frees, 0);
}

TEST(AllocatorHook, CopyAllocatesThroughTheAllocatorCurrentAtCopyTime) {
  Counter first, second;
  mpp::NDArray original;
  {
    Installed hook(counting(first));
    original = mpp::NDArray::from_vector<double>({1, 2, 3});
  }
  mpp::NDArray copied;
  {
    Installed hook(counting(second));
    copied = original.copy();
  }
  EXPECT_EQ(first.allocs, 1);
  EXPECT_EQ(second.allocs, 1);
  EXPECT_EQ(copied.buffer()->allocator()->user, &second);
  original = mpp::NDArray();
  copied = mpp::NDArray();
  EXPECT_EQ(first.frees, 1);
  EXPECT_EQ(second.frees, 1);
}

TEST(AllocatorHook, ViewsOwnNothingAndNeverAllocate) {
  Counter c;
  Installed hook(counting(c));
  double mem[4] = {};
  auto v = mpp::NDArray::view(mem, mpp::DType::float64, {2, 2});
  auto r = v.reshaped({4});
  EXPECT_EQ(c.allocs, 0);
  EXPECT_EQ(r.raw(), mem);
}

TEST(AllocatorHook, SharedPtrDeleterRunsAfterLastBuffer) {
  Counter c;
  bool released = false;
  auto alloc = std::shared_ptr<const mpp::BufferAllocator>(new mpp::BufferAllocator(counting(c)),
                                                           [&](const mpp::BufferAllocator* p) { released = true; delete p; });
  mpp::set_buffer_allocator(std::move(alloc));
  auto a = mpp::NDArray::uninit(mpp::DType::uint8, {10});
  mpp::set_buffer_allocator(static_cast<const mpp::BufferAllocator*>(nullptr));
  EXPECT_FALSE(released);  // `a` still holds it
  a = mpp::NDArray();
  EXPECT_TRUE(released);
  EXPECT_EQ(c.frees, 1);
}

TEST(AllocatorHook, InstallingWhileOtherThreadsAllocateIsSafe) {
  Counter c;
  std::atomic<bool> stop{false};
  std::vector<std::thread> workers;
  for (int t = 0; t < 3; ++t)
    workers.emplace_back([&] {
      while (!stop) { auto a = mpp::NDArray::uninit(mpp::DType::float64, {256}); a.data<double>()[0] = 1; }
    });
  const mpp::BufferAllocator a = counting(c);
  for (int i = 0; i < 2000; ++i) {
    mpp::set_buffer_allocator(&a);
    mpp::set_buffer_allocator(static_cast<const mpp::BufferAllocator*>(nullptr));
  }
  stop = true;
  for (auto& w : workers) w.join();
  EXPECT_EQ(c.allocs.load(), c.frees.load());
  EXPECT_EQ(c.bytes_alloc.load(), c.bytes_freed.load());
}

TEST(NDArray, LargeDefaultBuffersAreHugePageAlignedAndFreedCleanly) {
  // Above 4 MiB the default heap aligns to 2 MiB (transparent huge pages); the buffer is
  // still exactly as large as asked and freed through the matching path.
  for (std::size_t n : {std::size_t{4} << 20, (std::size_t{9} << 20) + 3}) {
    auto a = mpp::NDArray::uninit(mpp::DType::uint8, {n});  // the heap's path (large zeros() are mappings)
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.raw()) % (std::size_t{2} << 20), 0u);
    EXPECT_EQ(a.nbytes(), n);
    a.data<std::uint8_t>()[n - 1] = 7;
    auto b = a.copy();
    EXPECT_EQ(b.data<std::uint8_t>()[n - 1], 7);
  }
  auto small = mpp::NDArray::zeros(mpp::DType::uint8, {100});
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(small.raw()) % 64, 0u);
}

TEST(BufferCache, AFreedLargeBufferServesTheNextRequestThatFitsUnderTheLimit) {
  constexpr std::size_t MiB = std::size_t{1} << 20;
  const std::size_t previous = mpp::set_buffer_cache_limit(64 * MiB);
  mpp::release_cached_buffers();
  ASSERT_EQ(mpp::cached_buffer_bytes(), 0u);
  void* first = nullptr;
  {
    auto a = mpp::NDArray::uninit(mpp::DType::uint8, {8 * MiB});
    first = a.raw();
    a.data<std::uint8_t>()[8 * MiB - 1] = 1;
  }
  EXPECT_EQ(mpp::cached_buffer_bytes(), 8 * MiB);
  {
    auto b = mpp::NDArray::uninit(mpp::DType::uint8, {7 * MiB});  // fits the 8 MiB buffer
    EXPECT_EQ(b.raw(), first);
    EXPECT_EQ(b.nbytes(), 7 * MiB);
    EXPECT_EQ(mpp::cached_buffer_bytes(), 0u);
  }
  EXPECT_EQ(mpp::cached_buffer_bytes(), 8 * MiB);  // back with its whole capacity
  {
    auto c = mpp::NDArray::uninit(mpp::DType::uint8, {2 * MiB});  // would waste 6 MiB of it: a new one
    EXPECT_NE(c.raw(), first);
    auto d = mpp::NDArray::uninit(mpp::DType::uint8, {100});  // small buffers are never kept
  }
  EXPECT_EQ(mpp::cached_buffer_bytes(), 10 * MiB);
  { auto e = mpp::NDArray::uninit(mpp::DType::uint8, {80 * MiB}); }  // over the limit: freed
  EXPECT_EQ(mpp::cached_buffer_bytes(), 10 * MiB);
  EXPECT_EQ(mpp::set_buffer_cache_limit(9 * MiB), 64 * MiB);  // the oldest (8 MiB) goes first
  EXPECT_EQ(mpp::cached_buffer_bytes(), 2 * MiB);
  {
    Counter counter;
    Installed installed(counting(counter));
    { auto f = mpp::NDArray::uninit(mpp::DType::uint8, {2 * MiB}); }  // an installed allocator's buffers
    EXPECT_EQ(counter.allocs.load(), 1);                              // are its own, never the cache's
    EXPECT_EQ(counter.frees.load(), 1);
    EXPECT_EQ(mpp::cached_buffer_bytes(), 2 * MiB);
  }
  mpp::release_cached_buffers();
  EXPECT_EQ(mpp::cached_buffer_bytes(), 0u);
  { auto g = mpp::NDArray::uninit(mpp::DType::uint8, {2 * MiB}); }
  EXPECT_EQ(mpp::cached_buffer_bytes(), 2 * MiB);  // the limit survives a release
  mpp::set_buffer_cache_limit(0);
  EXPECT_EQ(mpp::cached_buffer_bytes(), 0u);
  { auto h = mpp::NDArray::uninit(mpp::DType::uint8, {2 * MiB}); }
  EXPECT_EQ(mpp::cached_buffer_bytes(), 0u);  // off
  mpp::set_buffer_cache_limit(previous);
}

TEST(BufferCache, ABufferDyingInAnUncachedScopeGoesBackToTheSystem) {
  constexpr std::size_t MiB = std::size_t{1} << 20;
  const std::size_t previous = mpp::set_buffer_cache_limit(64 * MiB);
  mpp::release_cached_buffers();
  mpp::NDArray outlives;
  {
    const mpp::UncachedScope scope;
    { auto scanned = mpp::NDArray::uninit(mpp::DType::uint8, {4 * MiB}); }
    EXPECT_EQ(mpp::cached_buffer_bytes(), 0u);
    outlives = mpp::NDArray::uninit(mpp::DType::uint8, {3 * MiB});
    std::thread other([] { auto elsewhere = mpp::NDArray::uninit(mpp::DType::uint8, {2 * MiB}); });  // per thread
    other.join();
    EXPECT_EQ(mpp::cached_buffer_bytes(), 2 * MiB);
  }
  outlives = mpp::NDArray();  // dies after the scope: kept
  EXPECT_EQ(mpp::cached_buffer_bytes(), 5 * MiB);
  mpp::release_cached_buffers();
  mpp::set_buffer_cache_limit(previous);
}

TEST(BufferCache, ScratchVectorsTakeAndGiveBackCachedBuffersAndNeverTheInstalledAllocator) {
  constexpr std::size_t MiB = std::size_t{1} << 20;
  const std::size_t previous = mpp::set_buffer_cache_limit(64 * MiB);
  mpp::release_cached_buffers();
  const std::uint8_t* first = nullptr;
  {
    mpp::UninitVector<std::uint8_t> a(8 * MiB);
    first = a.data();
    a[8 * MiB - 1] = 1;
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % (2 * MiB), 0u);  // huge-page aligned
  }
  EXPECT_EQ(mpp::cached_buffer_bytes(), 8 * MiB);  // given back when freed
  {
    auto b = mpp::NDArray::uninit(mpp::DType::uint8, {7 * MiB});  // an array reuses it
    EXPECT_EQ(static_cast<const std::uint8_t*>(b.raw()), first);
  }
  {
    Counter counter;
    Installed installed(counting(counter));
    mpp::ScratchVector<std::int64_t> c(MiB, 7);  // 8 MiB: the cached buffer again
    EXPECT_EQ(reinterpret_cast<const std::uint8_t*>(c.data()), first);
    EXPECT_EQ(c[MiB - 1], 7);
    EXPECT_EQ(counter.allocs.load(), 0);  // scratch memory never leaves the reader
  }
  EXPECT_EQ(mpp::cached_buffer_bytes(), 8 * MiB);
  {
    mpp::UncachedScope uncached;
    mpp::UninitVector<std::uint8_t> d(3 * MiB);
  }
  EXPECT_EQ(mpp::cached_buffer_bytes(), 8 * MiB);  // freed, not kept, under UncachedScope
  { mpp::ScratchVector<int> small(10, 1); }        // small ones are plain heap memory
  EXPECT_EQ(mpp::cached_buffer_bytes(), 8 * MiB);
  mpp::release_cached_buffers();
  mpp::set_buffer_cache_limit(previous);
}

// Buffer::discard_tail: the kept front is untouched, the whole pages past it are given back
// (on Linux they read as zeros afterwards), and a buffer from an installed allocator (pinned
// memory, say) is never touched.
TEST(NDArray, DiscardTailKeepsTheFrontAndSparesInstalledAllocators) {
  constexpr std::size_t n = std::size_t{1} << 20;  // 8 MiB of int64: a cached default-heap buffer
  auto filled = [] {
    mpp::NDArray a = mpp::NDArray::uninit(mpp::DType::int64, {n});
    for (std::size_t i = 0; i < n; ++i) a.data<std::int64_t>()[i] = static_cast<std::int64_t>(i) + 1;
    return a;
  };
  mpp::NDArray a = filled();
  a.buffer()->discard_tail(n / 4 * 8 + 3);  // not on a page boundary: its page is kept
  const std::int64_t* v = a.data<std::int64_t>();
  for (std::size_t i = 0; i <= n / 4; ++i) ASSERT_EQ(v[i], static_cast<std::int64_t>(i) + 1) << i;
#ifdef __linux__
  EXPECT_EQ(v[n - 1], 0);
  EXPECT_EQ(v[n / 2], 0);
#endif
  a.buffer()->discard_tail(n * 8);  // nothing past the end: a no-op
  mpp::BufferAllocator plain{[](std::size_t bytes, void*) { return std::malloc(bytes); }, [](void* p, std::size_t, void*) { std::free(p); },
                             nullptr};
  mpp::set_buffer_allocator(&plain);
  mpp::NDArray b = filled();
  mpp::set_buffer_allocator(static_cast<const mpp::BufferAllocator*>(nullptr));
  b.buffer()->discard_tail(0);
  for (std::size_t i = 0; i < n; i += 4099) ASSERT_EQ(b.data<std::int64_t>()[i], static_cast<std::int64_t>(i) + 1) << i;
  EXPECT_EQ(b.data<std::int64_t>()[n - 1], static_cast<std::int64_t>(n));
}

TEST(NDArray, LargeZerosAreFreshZeroPagesUnlessAnAllocatorIsInstalled) {
  // A cached heap buffer of the same size first: a large zeros() must not inherit its bytes.
  {
    auto dirty = mpp::NDArray::uninit(mpp::DType::int64, {1 << 18});
    std::memset(dirty.raw(), 0x5a, dirty.nbytes());
  }
  auto z = mpp::NDArray::zeros(mpp::DType::int64, {1 << 18});  // 2 MiB: a mapping of its own
  EXPECT_FALSE(z.owns_data());
  ASSERT_NE(z.keep_alive(), nullptr);
  const auto* v = z.data<const std::int64_t>();
  std::int64_t any = 0;
  for (std::size_t i = 0; i < z.size(); ++i) any |= v[i];
  EXPECT_EQ(any, 0);
  z.data<std::int64_t>()[12345] = 7;  // writable, and a copy is an ordinary owning array
  const auto c = z.copy();
  EXPECT_TRUE(c.owns_data());
  EXPECT_EQ(c.value_as_int64(12345), 7);
  EXPECT_EQ(c.value_as_int64(12346), 0);
  // With an allocator installed the array's memory comes from it, cleared.
  Counter counter;
  {
    Installed installed(counting(counter));
    auto a = mpp::NDArray::zeros(mpp::DType::float64, {1 << 18});
    EXPECT_TRUE(a.owns_data());
    EXPECT_EQ(counter.allocs, 1);
    EXPECT_EQ(a.value_as_double((1 << 18) - 1), 0.0);
  }
  // Small ones stay on the heap.
  EXPECT_TRUE(mpp::NDArray::zeros(mpp::DType::int8, {100}).owns_data());
}
