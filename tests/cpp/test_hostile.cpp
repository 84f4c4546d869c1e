// Hostile input and failure: concurrency and atomic writes at the C++ level.
//
// - Readers (every registered format, every fixture) run in several threads at once, while
//   another thread keeps installing and removing the buffer allocator hook; every result
//   equals the sequential one, byte for byte. Writers likewise produce identical bytes.
//   `make test-tsan` runs this file (and AllocatorHook.*) under ThreadSanitizer.
// - AtomicFile: a writer that fails after writing part of the file leaves the target
//   byte-identical and no temporary file; a MemoryFile is copied in whole, and a copy that
//   fails (RLIMIT_FSIZE) is a WriteError that keeps the target.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/io/file.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/format.hpp"
#include "meshioplusplus/mesh.hpp"
#include "meshioplusplus/ndarray.hpp"

namespace mpp = meshioplusplus;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void spit(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out << bytes;
}

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("mpp-hostile-" + std::to_string(::getpid()));
  fs::create_directories((dir / name).parent_path());
  return dir / name;
}

void add_array(std::string& out, const std::string& what, const mpp::NDArray& a) {
  out += what + ':' + std::string(mpp::dtype_name(a.dtype()));
  for (auto d : a.shape()) out += ',' + std::to_string(d);
  out += '=';
  if (a.nbytes() > 0) out.append(static_cast<const char*>(a.raw()), a.nbytes());
  out += ';';
}

// Every byte a reader produced, in one string: equal digests = identical meshes.
std::string digest(const mpp::Mesh& m) {
  std::string out;
  add_array(out, "points", m.points);
  for (const auto& b : m.cells) {
    out += b.type;
    if (b.ragged) {
      add_array(out, "offsets", b.offsets);
      if (b.face_offsets.size()) add_array(out, "face_offsets", b.face_offsets);
      add_array(out, "indices", b.indices);
    } else {
      add_array(out, "conn", b.connectivity);
    }
  }
  for (const auto& [k, a] : m.point_data) add_array(out, "pd " + k, a);
  for (const auto& [k, list] : m.cell_data)
    for (const auto& a : list) add_array(out, "cd " + k, a);
  for (const auto& [k, a] : m.field_data) add_array(out, "fd " + k, a);
  for (const auto& r : m.regions) add_array(out, "region " + r.name + std::to_string(r.dim) + std::to_string(r.tag), r.entries);
  return out;
}

struct Input {
  std::string format;
  std::string path;
};

// Fixtures (tests/data/<format>/) and extra seeds (tests/fuzz/seeds/<format>/) of every
// readable format, by extension.
std::vector<Input> every_fixture() {
  std::vector<Input> out;
  const fs::path data(MESHIOPP_TEST_DATA);
  for (const auto& f : mpp::formats()) {
    if (!f.read) continue;
    for (const fs::path& dir : std::initializer_list<fs::path>{data / f.name, data.parent_path() / "fuzz" / "seeds" / f.name}) {
      if (!fs::is_directory(dir)) continue;
      // The collections' seeds (pvtu, pvtp, pvd) name pieces that are absent on purpose
      // (tests/fuzz/seeds/README.md): inputs for the collection parser, not meshes.
      if (dir.parent_path().filename() == "seeds" && (f.name == "pvtu" || f.name == "pvtp" || f.name == "pvd")) continue;
      for (const auto& e : fs::directory_iterator(dir))
        for (const auto& ext : f.extensions)
          if (e.path().string().ends_with(ext)) out.push_back({f.name, e.path().string()});
    }
  }
  std::sort(out.begin(), out.end(), [](const Input& a, const Input& b) { return a.path < b.path; });
  return out;
}

std::string read_digest(const Input& in) {
  try {
    return digest(mpp::find_format(in.format).read(in.path, {}));
  } catch (const mpp::ReadError& e) {
    return std::string("ReadError: ") + e.what();
  }
}

void counting_free(void* p, std::size_t, void* user) {
  static_cast<std::atomic<long>*>(user)->fetch_sub(1);
  std::free(p);
}
void* counting_alloc(std::size_t n, void* user) {
  static_cast<std::atomic<long>*>(user)->fetch_add(1);
  return std::malloc(n ? n : 1);
}

}  // namespace

TEST(HostileConcurrency, ParallelReadsEqualSequentialWhileTheAllocatorHookChanges) {
  const auto inputs = every_fixture();
  ASSERT_GE(inputs.size(), 2u);
  std::vector<std::string> expected;
  for (const auto& in : inputs) expected.push_back(read_digest(in));
  for (std::size_t i = 0; i < inputs.size(); ++i)
    EXPECT_EQ(expected[i].rfind("ReadError", 0), std::string::npos) << inputs[i].path << ": " << expected[i];

  std::atomic<long> live{0};
  const mpp::BufferAllocator hook{counting_alloc, counting_free, &live};
  std::atomic<bool> stop{false};
  std::thread flipper([&] {
    while (!stop) {
      mpp::set_buffer_allocator(&hook);
      std::this_thread::yield();
      mpp::set_buffer_allocator(static_cast<const mpp::BufferAllocator*>(nullptr));
    }
  });
  constexpr int kThreads = 4;
  std::vector<std::vector<std::string>> got(kThreads, std::vector<std::string>(inputs.size()));
  std::vector<std::thread> readers;
  for (int t = 0; t < kThreads; ++t)
    readers.emplace_back([&, t] {
      // Each thread walks the files from a different start, so different files overlap.
      for (std::size_t k = 0; k < inputs.size(); ++k) {
        const std::size_t i = (k + static_cast<std::size_t>(t) * inputs.size() / kThreads) % inputs.size();
        got[t][i] = read_digest(inputs[i]);
      }
    });
  for (auto& r : readers) r.join();
  stop = true;
  flipper.join();
  for (int t = 0; t < kThreads; ++t)
    for (std::size_t i = 0; i < inputs.size(); ++i)
      EXPECT_TRUE(got[t][i] == expected[i]) << "thread " << t << " read " << inputs[i].path << " differently";
  EXPECT_EQ(live.load(), 0) << "buffers allocated through the hook were not all freed through it";
}

TEST(HostileConcurrency, ParallelWritesEqualSequential) {
  // One mesh per readable fixture, written by every writable format, first one after the
  // other, then all at once from several threads into files of the same names in another
  // folder (XDMF and the collections name their side files after the file).
  struct Job {
    const mpp::Format* format;
    mpp::Mesh mesh;
    std::string name;
  };
  std::vector<Job> jobs;
  for (const auto& in : every_fixture()) {
    mpp::Mesh m;
    try {
      m = mpp::find_format(in.format).read(in.path, {});
    } catch (const mpp::ReadError&) {
      continue;
    }
    for (const auto& f : mpp::formats())
      if (f.write && f.name == in.format)
        jobs.push_back({&f, m, f.name + "-" + fs::path(in.path).filename().string()});
  }
  // A mesh its own format's writer refuses (WKT reads polygons, writes TIN triangles only)
  // is no write job: the refusal is checked by the format's tests.
  std::erase_if(jobs, [](const Job& j) {
    try {
      j.format->write(scratch("probe-" + j.name).string(), j.mesh, {});
      return false;
    } catch (const mpp::WriteError&) {
      return true;
    }
  });
  ASSERT_FALSE(jobs.empty());
  std::vector<std::string> expected;
  for (const auto& j : jobs) {
    const fs::path p = scratch("seq/" + j.name);
    j.format->write(p.string(), j.mesh, {});
    expected.push_back(slurp(p));
  }
  std::vector<std::thread> writers;
  std::atomic<std::size_t> next{0};
  for (int t = 0; t < 4; ++t)
    writers.emplace_back([&] {
      for (std::size_t i = next++; i < jobs.size(); i = next++)
        // Every other job without the flush to the device (the `sync` option): same bytes.
        mpp::write(scratch("par/" + jobs[i].name).string(), jobs[i].mesh, jobs[i].format->name,
                   {{"sync", i % 2 ? "false" : "true"}});
    });
  for (auto& w : writers) w.join();
  for (std::size_t i = 0; i < jobs.size(); ++i)
    EXPECT_TRUE(slurp(scratch("par/" + jobs[i].name)) == expected[i]) << jobs[i].name;
  fs::remove_all(scratch("").parent_path());
}

TEST(HostileAtomicFile, AWriterFailingMidwayLeavesTheTargetAndNoTemporary) {
  const fs::path target = scratch("precious.bin");
  spit(target, "the user's data\n");
  try {
    mpp::io::AtomicFile f(target.string(), "test");
    f.write(std::string(1 << 20, 'x'));  // well past any stdio buffer: bytes are on disk
    throw mpp::WriteError("bad data discovered late");
  } catch (const mpp::WriteError&) {
  }
  EXPECT_EQ(slurp(target), "the user's data\n");
  for (const auto& e : fs::directory_iterator(target.parent_path()))
    EXPECT_EQ(e.path().filename().string().find(".meshioplusplus-"), std::string::npos) << e.path();
  {
    mpp::io::AtomicFile f(target.string(), "test");
    f.write("new\n");
    f.commit();
  }
  EXPECT_EQ(slurp(target), "new\n");
  fs::remove_all(target.parent_path());
}

TEST(HostileAtomicFile, AMemoryFileIsCopiedWholeAndAFailedCopyKeepsTheTarget) {
  const fs::path target = scratch("from-memory.bin");
  spit(target, "the user's data\n");
  std::string bytes((std::size_t(3) << 20) + 12345, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 131 % 251);
  const auto fill = [&](const mpp::io::MemoryFile& m) {
    ASSERT_EQ(::pwrite(m.fd(), bytes.data(), bytes.size(), 0), static_cast<ssize_t>(bytes.size()));
  };
  {
    mpp::io::MemoryFile memory("test", target.string());
    EXPECT_TRUE(fs::exists(memory.path())) << memory.path();
    const std::string name = memory.path();
    memory.unlink_name();
    EXPECT_FALSE(fs::exists(name)) << name;
    fill(memory);
    mpp::io::AtomicFile f(target.string(), "test");
    f.write("head:");
    f.write_from(memory);
    f.commit();
  }
  EXPECT_TRUE(slurp(target) == "head:" + bytes);
  struct rlimit saved {};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
  if (saved.rlim_cur != RLIM_INFINITY) GTEST_SKIP() << "this process already has a finite RLIMIT_FSIZE";
  const bool room = mpp::io::MemoryFile::available(1);
  {
    mpp::io::MemoryFile memory("test", target.string());
    fill(memory);
    const auto old_handler = ::signal(SIGXFSZ, SIG_IGN);  // EFBIG instead of the signal
    struct rlimit lower = saved;
    lower.rlim_cur = 64 << 10;
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &lower), 0);
    std::string message;
    try {
      mpp::io::AtomicFile f(target.string(), "test");
      f.write_from(memory);
      f.commit();
    } catch (const mpp::WriteError& e) {
      message = e.what();
    }
    EXPECT_FALSE(mpp::io::MemoryFile::available(1));
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &saved), 0);
    ::signal(SIGXFSZ, old_handler);
    EXPECT_NE(message.find("write failed"), std::string::npos) << message;
    EXPECT_NE(message.find(target.string()), std::string::npos) << message;
  }
  EXPECT_EQ(mpp::io::MemoryFile::available(1), room);  // the limit's verdict ended with it
  EXPECT_TRUE(slurp(target) == "head:" + bytes);
  for (const auto& e : fs::directory_iterator(target.parent_path()))
    EXPECT_EQ(e.path().filename().string().find(".meshioplusplus-"), std::string::npos) << e.path();
  fs::remove_all(target.parent_path());
}

TEST(HostileAtomicFile, TheSyncOptionIsABooleanAndHoldsForOneCallOnOneThread) {
  EXPECT_TRUE(mpp::io::sync_on_commit());
  {
    const mpp::io::SyncScope off(false);
    EXPECT_FALSE(mpp::io::sync_on_commit());
    std::thread([] { EXPECT_TRUE(mpp::io::sync_on_commit()); }).join();
  }
  EXPECT_TRUE(mpp::io::sync_on_commit());
  mpp::Mesh m;
  m.points = mpp::NDArray::from_vector<double>({0, 0, 0, 1, 0, 0, 0, 1, 0}, {3, 3});
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", mpp::NDArray::from_vector<std::int64_t>({0, 1, 2}, {1, 3})));
  const fs::path target = scratch("synced.vtu");
  try {
    mpp::write(target.string(), m, "", {{"sync", "maybe"}});
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("option 'sync'"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(target));
  mpp::write(target.string(), m, "", {{"sync", "False"}});
  EXPECT_TRUE(mpp::io::sync_on_commit());  // the call's scope ended with it
  EXPECT_EQ(mpp::read(target.string()).num_cells(), 1u);
  fs::remove_all(target.parent_path());
}

// --- regressions found by the fuzzers (tests/fuzz/regressions/<format>/) --------------------

TEST(HostileRegressions, VtkCellsOverrunningTheConnectivityAreAReadError) {
  // CELLS 2 4 / "3 0 1 2": the first cell took the second cell's values and wrote past the
  // (size - n)-long connectivity (heap overflow under ASan); now refused at that cell.
  const fs::path file = fs::path(MESHIOPP_TEST_DATA).parent_path() / "fuzz" / "regressions" / "vtk" /
                        "cells-overrun-connectivity.vtk";
  ASSERT_TRUE(fs::exists(file));
  try {
    mpp::read(file.string(), "vtk");
    FAIL() << "expected ReadError";
  } catch (const mpp::ReadError& e) {
    EXPECT_NE(std::string(e.what()).find("cell 0 declares 3 nodes, 2 values are left for its nodes"), std::string::npos)
        << e.what();
  }
}
