// One owner per concern, checked through the formats that use it:
// - threads: Gmsh reads and writes the same bytes / mesh whatever the `threads` option,
//   and reports the first bad row in file order whatever the thread count;
// - errors: every writer error names the file (write_error), as every reader error does;
// - AtomicFile: the file gets the mode a plain open() would give under the process umask.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/types.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "core/io/file.hpp"
#include "meshioplusplus/meshioplusplus.hpp"
#include "test_vtk_common.hpp"

namespace {

namespace fs = std::filesystem;
using namespace vtktest;

// A strip of `n` quads cut into 2n triangles: one element block long enough (> 2^15 rows)
// for the parallel row parsers.
mpp::Mesh long_strip(std::size_t n) {
  std::vector<double> p;
  for (std::size_t i = 0; i <= n; ++i)
    for (int y = 0; y < 2; ++y) p.insert(p.end(), {0.25 * static_cast<double>(i), 1.5 * y, 1e-3 * static_cast<double>(i % 7)});
  std::vector<std::int64_t> c;
  for (std::size_t i = 0; i < n; ++i) {
    const auto a = static_cast<std::int64_t>(2 * i);
    c.insert(c.end(), {a, a + 2, a + 3, a, a + 3, a + 1});
  }
  mpp::Mesh m;
  m.points = NDArray::from_vector(p, {2 * (n + 1), 3});
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", NDArray::from_vector(c, {2 * n, 3})));
  return m;
}

std::vector<std::int64_t> ints(const NDArray& a) {
  std::vector<std::int64_t> v(a.size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = a.value_as_int64(i);
  return v;
}

std::string read_failure(const std::string& path, const char* threads) {
  try {
    mpp::read(path, "gmsh", {{"threads", threads}});
  } catch (const mpp::ReadError& e) {
    return e.what();
  }
  return "no error";
}

TEST(GmshThreads, OutputAndMeshDoNotDependOnTheThreadCount) {
  const mpp::Mesh m = long_strip(20000);
  for (const char* binary : {"true", "false"}) {
    std::string first;
    for (const char* threads : {"1", "2", "3", "8"}) {
      const std::string path = tmp_path(std::string("strip_") + binary + threads + ".msh");
      mpp::write(path, m, "gmsh", {{"binary", binary}, {"threads", threads}});
      const std::string bytes = slurp(path);
      if (first.empty()) first = bytes;
      EXPECT_TRUE(bytes == first) << "binary=" << binary << " threads=" << threads;
      for (const char* read_threads : {"1", "3", "8"}) {
        const mpp::Mesh got = mpp::read(path, "gmsh", {{"threads", read_threads}});
        ASSERT_EQ(got.cells.size(), 1u);
        EXPECT_EQ(ints(got.cells[0].connectivity), ints(m.cells[0].connectivity)) << binary << " " << read_threads;
        EXPECT_EQ(compare_arrays("points", m.points, got.points), "");
      }
    }
  }
}

TEST(GmshThreads, TheFirstBadRowInTheFileIsReportedWhateverTheThreads) {
  const std::string path = tmp_path("strip_bad.msh");
  mpp::write(path, long_strip(20000), "gmsh", {{"binary", "false"}});
  std::string text = slurp(path);
  const std::size_t elements = text.find("$Elements");
  ASSERT_NE(elements, std::string::npos);
  // Element 30001 (late in the block) and element 5001 (early) name node tags that do not
  // exist; only the early one may be reported.
  for (const std::string& row : {std::string("\n30001 "), std::string("\n5001 ")}) {
    const std::size_t at = text.find(row, elements);
    ASSERT_NE(at, std::string::npos) << row;
    const std::size_t end = text.find('\n', at + 1);
    text.replace(at + row.size(), end - at - row.size(), "1 2 777777");
  }
  spit(path, text);
  const std::string one = read_failure(path, "1");
  EXPECT_NE(one.find("node tag 777777 does not exist"), std::string::npos) << one;
  const std::size_t line = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(text.find("\n5001 ", elements) + 1), '\n') + 1;
  EXPECT_NE(one.find("line " + std::to_string(line) + " "), std::string::npos) << one << " want line " << line;
  for (const char* threads : {"2", "3", "8"}) EXPECT_EQ(read_failure(path, threads), one) << threads;
}

std::string write_failure(const std::string& path, const mpp::Mesh& m, const std::string& format,
                          const mpp::Options& options = {}) {
  try {
    mpp::write(path, m, format, options);
  } catch (const mpp::WriteError& e) {
    return e.what();
  }
  return "no error";
}

TEST(WriteErrors, EveryWriterPathNamesTheFile) {
  mpp::Mesh odd = tri_mesh();  // Gmsh has no 7-node triangle
  odd.cells.push_back(mpp::CellBlock::rectangular("triangle7", i64({0, 1, 2, 3, 4, 5, 6}, {1, 7})));
  mpp::Mesh flat_polyhedron = tri_mesh();  // VTK needs a polyhedron's faces
  flat_polyhedron.cells.push_back(mpp::CellBlock::rectangular("polyhedron", i64({0, 1, 2, 3}, {1, 4})));
  mpp::Mesh two_components = tri_mesh();
  two_components.point_data["uv"] = NDArray::zeros(mpp::DType::float64, {27, 2});
  mpp::Mesh bad_dim_tags = tri_mesh();
  bad_dim_tags.point_data["gmsh:dim_tags"] = NDArray::zeros(mpp::DType::int64, {27, 2});
  bad_dim_tags.point_data["gmsh:dim_tags"].data<std::int64_t>()[0] = 7;
  mpp::Mesh mixed_rows = linear_mix();
  for (std::size_t b = 0; b < mixed_rows.cells.size(); ++b)
    mixed_rows.cell_data["c"].push_back(NDArray::zeros(mpp::DType::float64, {mixed_rows.cells[b].size(), b == 0 ? 2u : 3u}));
  struct Case {
    std::string file, format;
    const mpp::Mesh* mesh;
    mpp::Options options;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"odd.msh", "gmsh", &odd, {}, "has no Gmsh element type"},
      {"odd22.msh", "gmsh", &odd, {{"fmt_version", "2.2"}}, "has no Gmsh element type"},
      {"uv.msh", "gmsh", &two_components, {}, "Gmsh stores 1, 3 or 9 components"},
      {"dimtags.msh", "gmsh", &bad_dim_tags, {}, "entity dimension 7 outside 0..3"},
      {"poly.vtk", "vtk", &flat_polyhedron, {}, "a polyhedron block must be ragged"},
      {"poly.vtu", "vtu", &flat_polyhedron, {}, "a polyhedron block must be ragged"},
      {"rows.vtk", "vtk", &mixed_rows, {}, "differ in shape"},
      {"rows.vtu", "vtu", &mixed_rows, {}, "differ in shape"},
  };
  for (const auto& c : cases) {
    const std::string path = tmp_path(c.file);
    const std::string msg = write_failure(path, *c.mesh, c.format, c.options);
    EXPECT_EQ(msg.rfind(c.format + ": " + path + ": ", 0), 0u) << msg;
    EXPECT_NE(msg.find(c.message), std::string::npos) << msg;
    EXPECT_FALSE(fs::exists(path)) << path;
  }
}

TEST(AtomicFileMode, TheFileGetsTheModeOfAPlainOpen) {
  const mode_t mask = ::umask(022);  // restored below; the process mask is read once
  ::umask(mask);
  const std::string path = tmp_path("mode.bin");
  fs::remove(path);
  {
    mpp::io::AtomicFile f(path, "test");
    f.write("x");
    f.commit();
  }
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
  // Replacing a file gives the same mode again (not the temporary file's 0600).
  ::chmod(path.c_str(), 0600);
  mpp::write(path, tri_mesh(), "vtu");
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
}

TEST(AtomicFileMode, ConcurrentWritersAllGetTheSameMode) {
  // umask(0); umask(mask) per write once raced: a file created between the two calls got
  // mode 0666. Many writers at once must all see the process mask.
  const mode_t mask = ::umask(022);
  ::umask(mask);
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t)
    pool.emplace_back([t] {
      for (int i = 0; i < 20; ++i) mpp::write(tmp_path("race_" + std::to_string(t) + "_" + std::to_string(i) + ".vtu"), tri_mesh(), "vtu");
    });
  for (auto& th : pool) th.join();
  for (int t = 0; t < 8; ++t)
    for (int i = 0; i < 20; ++i) {
      struct stat st {};
      ASSERT_EQ(::stat(tmp_path("race_" + std::to_string(t) + "_" + std::to_string(i) + ".vtu").c_str(), &st), 0);
      EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
    }
}

}  // namespace
