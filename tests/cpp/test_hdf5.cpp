// meshio++ tests: the HDF5 toolkit (src/core/io/hdf5.hpp): datasets of every dtype round
// trip with their shape, gzip chunking, attributes, and errors that name the file and the
// dataset path without HDF5 printing its error stack.
#include <gtest/gtest.h>

#include <array>

#ifdef MESHIOPP_HAVE_HDF5

#include <sys/resource.h>

#include <cstdio>
#include <filesystem>

#include "core/io/file.hpp"
#include "core/io/hdf5.hpp"
#include "test_support.hpp"

namespace {

namespace h5 = meshioplusplus::io::hdf5;
using meshioplusplus::DType;
using meshioplusplus::NDArray;
using testsupport::data_path;
using testsupport::read_outcome;
using testsupport::tmp_path;

std::size_t file_size(const std::string& path) { return std::filesystem::file_size(path); }

TEST(Hdf5Toolkit, DatasetsOfEveryDtypeRoundTripWithTheirShape) {
  const std::string path = tmp_path("hdf5_dtypes.h5");
  const h5::Context wctx{"test", path, true};
  const std::vector<DType> dtypes = {DType::int8, DType::int16, DType::int32, DType::int64, DType::uint8,
                                     DType::uint16, DType::uint32, DType::uint64, DType::float32, DType::float64};
  {
    h5::Handle file = h5::create_file(wctx, path);
    for (DType dt : dtypes) {
      NDArray a = NDArray::uninit(dt, {4, 3});
      meshioplusplus::visit_dtype(dt, [&](auto tag) {
        using T = decltype(tag);
        for (std::size_t i = 0; i < 12; ++i) a.data<T>()[i] = static_cast<T>(i * 7 % 11);
      });
      h5::write_dataset(wctx, file.get(), "/group/" + std::string(meshioplusplus::dtype_name(dt)), a,
                        {dt == DType::float64 ? 4 : -1, dt == DType::float64, 64});
    }
  }
  const h5::Context rctx{"test", path, false};
  h5::Handle file = h5::open_file(rctx);
  for (DType dt : dtypes) {
    NDArray a = h5::read_dataset(rctx, file.get(), "/group/" + std::string(meshioplusplus::dtype_name(dt)), file_size(path));
    EXPECT_EQ(a.dtype(), dt);
    EXPECT_EQ(a.shape(), (NDArray::Shape{4, 3}));
    for (std::size_t i = 0; i < 12; ++i) EXPECT_EQ(a.value_as_int64(i), static_cast<std::int64_t>(i * 7 % 11));
  }
}

// A writer's file built in memory (FileInMemory) reads back whole after write_to(): in an
// io::MemoryFile (/dev/shm), and, under a finite RLIMIT_FSIZE, in HDF5's core driver instead. An object
// still open at write_to() is closed with the file (H5F_CLOSE_STRONG), never left out of it.
TEST(Hdf5Toolkit, FilesBuiltInMemoryAreWrittenWholeOnBothPaths) {
  std::vector<std::int64_t> values(300000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int64_t>(i * 2654435761u % 1000003);
  struct rlimit saved {};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
  if (saved.rlim_cur != RLIM_INFINITY) GTEST_SKIP() << "this process already has a finite RLIMIT_FSIZE";
  const bool room = meshioplusplus::io::MemoryFile::available(values.size() * 8);  // /dev/shm has room
  for (const bool limited : {false, true}) {
    if (limited) {
      struct rlimit lower = saved;
      lower.rlim_cur = rlim_t(1) << 30;  // far above this file: only the path changes
      ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &lower), 0);
    }
    EXPECT_EQ(meshioplusplus::io::MemoryFile::available(values.size() * 8), room && !limited);
    EXPECT_FALSE(meshioplusplus::io::MemoryFile::available(std::size_t(1) << 62));  // no room: HDF5's image

    const std::string path = tmp_path(limited ? "hdf5_core_image.h5" : "hdf5_memory_file.h5");
    const h5::Context wctx{"test", path, true};
    {
      meshioplusplus::io::AtomicFile target(path, "test");
      h5::Session session;
      h5::FileInMemory file(wctx, values.size() * 8, /*track_order=*/true);
      h5::Handle group = h5::create_group(wctx, file.get(), "g");
      h5::write_dataset(wctx, group.get(), "v", NDArray::from_vector(values));
      file.write_to(target);  // `group` still open
      target.commit();
    }
    if (limited) {
      ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &saved), 0);
    }
    const h5::Context rctx{"test", path, false};
    h5::Handle file = h5::open_file(rctx);
    EXPECT_EQ(testsupport::ints_of(h5::read_dataset(rctx, file.get(), "/g/v", file_size(path))), values) << path;
  }
}

// gzip datasets are compressed by meshio++ and stored chunk by chunk (H5Dwrite_chunk): HDF5's
// own filter pipeline (deflate, and shuffle before it) must read back exactly what was
// written, edge chunks (padded) and array-typed rows included, at every level.
TEST(Hdf5Toolkit, ChunksCompressedByUsReadBackThroughHdf5sPipelineAndOurs) {
  const std::string path = tmp_path("hdf5_chunks.h5");
  const h5::Context wctx{"test", path, true};
  NDArray ints = NDArray::uninit(DType::int64, {1001, 3});
  for (std::size_t i = 0; i < ints.size(); ++i) ints.data<std::int64_t>()[i] = static_cast<std::int64_t>(i * i % 9973) - 17;
  NDArray reals = NDArray::uninit(DType::float32, {777});
  for (std::size_t i = 0; i < reals.size(); ++i) reals.data<float>()[i] = 0.25f * static_cast<float>(i) - 3.0f;
  {
    h5::Handle file = h5::create_file(wctx, path);
    for (int level : {0, 1, 4, 9})
      for (bool shuffle : {false, true}) {
        const std::string suffix = std::to_string(level) + (shuffle ? "s" : "");
        // 240 bytes per chunk: 10 rows of 3 int64, 60 float32; the last chunk of each is partial.
        h5::write_dataset(wctx, file.get(), "ints" + suffix, ints, {level, shuffle, 240});
        h5::write_dataset(wctx, file.get(), "reals" + suffix, reals, {level, shuffle, 240});
        h5::write_dataset(wctx, file.get(), "rows" + suffix, ints, {level, shuffle, 240, /*rows_as_arrays=*/true});
      }
  }
  const h5::Context rctx{"test", path, false};
  h5::Handle file = h5::open_file(rctx);
  const std::size_t size = file_size(path);
  for (int level : {0, 1, 4, 9})
    for (bool shuffle : {false, true}) {
      const std::string suffix = std::to_string(level) + (shuffle ? "s" : "");
      // read_rows goes through H5Dread, HDF5's pipeline; read_dataset inflates the chunks itself.
      EXPECT_EQ(testsupport::ints_of(h5::read_rows(rctx, file.get(), "ints" + suffix, 0, 1001, size)), testsupport::ints_of(ints))
          << suffix;
      EXPECT_EQ(testsupport::ints_of(h5::read_dataset(rctx, file.get(), "ints" + suffix, size)), testsupport::ints_of(ints)) << suffix;
      EXPECT_EQ(testsupport::doubles_of(h5::read_dataset(rctx, file.get(), "reals" + suffix, size)), testsupport::doubles_of(reals))
          << suffix;
      const NDArray rows = h5::read_array_dataset(rctx, file.get(), "rows" + suffix, size);
      EXPECT_EQ(rows.shape(), ints.shape()) << suffix;
      EXPECT_EQ(testsupport::ints_of(rows), testsupport::ints_of(ints)) << suffix;
    }
}

namespace {
// A 2-D dataset `name` in a new file at `path`, chunked and deflated by HDF5 itself (shuffled
// first when asked), holding `data` (memory type `memory`, stored as `stored`).
void write_deflated(const std::string& path, const char* name, hid_t stored, hid_t memory, std::array<hsize_t, 2> dims,
                    std::array<hsize_t, 2> chunk, bool shuffle, unsigned level, const void* data) {
  h5::Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
  h5::Handle space(H5Screate_simple(2, dims.data(), nullptr), H5Sclose);
  h5::Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  ASSERT_GE(H5Pset_chunk(dcpl.get(), 2, chunk.data()), 0);
  if (shuffle) {
    ASSERT_GE(H5Pset_shuffle(dcpl.get()), 0);
  }
  ASSERT_GE(H5Pset_deflate(dcpl.get(), level), 0);
  h5::Handle ds(H5Dcreate2(file.get(), name, stored, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT), H5Dclose);
  ASSERT_GE(H5Dwrite(ds.get(), memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), 0);
}

// read_dataset of `name` in the file at `path`.
NDArray read_back(const std::string& path, const char* name) {
  const h5::Context ctx{"test", path, false};
  h5::Handle file = h5::open_file(ctx);
  return h5::read_dataset(ctx, file.get(), name, file_size(path));
}
}  // namespace

// Datasets compressed by HDF5's own filters, chunked across both dimensions (edge chunks in
// each), are inflated chunk by chunk by read_dataset and put in place exactly.
TEST(Hdf5Toolkit, ChunksCompressedByHdf5AreReadChunkByChunkIntoPlace) {
  const std::string path = tmp_path("hdf5_hdf5_chunks.h5");
  std::vector<std::int32_t> values(53 * 7);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int32_t>(i * 31 % 1009) - 500;
  // Chunks of 3 columns (the last one is cut to 1 column of a 3-wide chunk) and of one
  // column (MOAB's layout: a strided copy per chunk).
  for (const hsize_t width : {3, 1})
  for (bool shuffle : {false, true}) {
    ASSERT_NO_FATAL_FAILURE(write_deflated(path, "v", H5T_STD_I32LE, H5T_NATIVE_INT32, {53, 7}, {10, width}, shuffle, 6, values.data()));
    const NDArray v = read_back(path, "v");
    EXPECT_EQ(v.shape(), (NDArray::Shape{53, 7}));
    EXPECT_EQ(testsupport::ints_of(v), std::vector<std::int64_t>(values.begin(), values.end())) << shuffle << " " << width;
  }
  // float64 in one-column chunks: the 8-byte strided copy.
  {
    std::vector<double> reals(41 * 4);
    for (std::size_t i = 0; i < reals.size(); ++i) reals[i] = 0.5 * static_cast<double>(i) - 3.0;
    ASSERT_NO_FATAL_FAILURE(write_deflated(path, "r", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {41, 4}, {9, 1}, false, 4, reals.data()));
    const NDArray r = read_back(path, "r");
    ASSERT_EQ(r.shape(), (NDArray::Shape{41, 4}));
    EXPECT_EQ(std::vector<double>(r.data<const double>(), r.data<const double>() + r.size()), reals);
  }
  // One-column chunks of a table wider than 16 columns (a strided copy per chunk), and of a
  // table whose compressed chunks span several fetch batches (the k chunks of one block of
  // rows are interleaved together, whichever batch they came in).
  for (const auto& [rows, cols, chunk_rows] : std::vector<std::array<hsize_t, 3>>{{23, 20, 5}, {150001, 3, 997}}) {
    std::vector<std::int64_t> ints(rows * cols);
    std::uint64_t x = 88172645463325252ull;
    for (auto& v : ints) {  // xorshift: barely compressible, so the chunks fill several batches
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      v = static_cast<std::int64_t>(x >> 8);
    }
    ASSERT_NO_FATAL_FAILURE(
        write_deflated(path, "i", H5T_STD_I64LE, H5T_NATIVE_INT64, {rows, cols}, {chunk_rows, 1}, false, 1, ints.data()));
    const NDArray got = read_back(path, "i");
    ASSERT_EQ(got.shape(), (NDArray::Shape{rows, cols}));
    EXPECT_TRUE(std::equal(ints.begin(), ints.end(), got.data<const std::int64_t>())) << rows << " x " << cols;
  }
  // Only the first rows written: the chunks never written hold HDF5's fill value (0), which
  // HDF5's own read supplies.
  {
    h5::Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    const hsize_t dims[2] = {53, 7}, chunk[2] = {10, 3}, start[2] = {0, 0}, count[2] = {10, 7};
    h5::Handle space(H5Screate_simple(2, dims, nullptr), H5Sclose);
    h5::Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    ASSERT_GE(H5Pset_chunk(dcpl.get(), 2, chunk), 0);
    ASSERT_GE(H5Pset_deflate(dcpl.get(), 6), 0);
    h5::Handle ds(H5Dcreate2(file.get(), "v", H5T_STD_I32LE, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT), H5Dclose);
    h5::Handle memory(H5Screate_simple(2, count, nullptr), H5Sclose);
    ASSERT_GE(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr), 0);
    ASSERT_GE(H5Dwrite(ds.get(), H5T_NATIVE_INT32, memory.get(), space.get(), H5P_DEFAULT, values.data()), 0);
  }
  const h5::Context ctx{"test", path, false};
  h5::Handle file = h5::open_file(ctx);
  const std::vector<std::int64_t> got = testsupport::ints_of(h5::read_dataset(ctx, file.get(), "v", file_size(path)));
  ASSERT_EQ(got.size(), values.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], i < 70 ? values[i] : 0) << i;
}

TEST(Hdf5Toolkit, AttributesRoundTrip) {
  const std::string path = tmp_path("hdf5_attributes.h5");
  {
    const h5::Context ctx{"test", path, true};
    h5::Handle file = h5::create_file(ctx, path);
    h5::Handle group = h5::create_group(ctx, file.get(), "/a/b");
    h5::write_attribute(ctx, group.get(), "name", std::string_view("tetra"));
    h5::write_attribute(ctx, group.get(), "values", NDArray::from_vector<std::int32_t>({3, 1, 2}));
  }
  const h5::Context ctx{"test", path, false};
  h5::Handle file = h5::open_file(ctx);
  EXPECT_TRUE(h5::exists(file.get(), "/a/b"));
  EXPECT_FALSE(h5::exists(file.get(), "/a/c/d"));
  h5::Handle group = h5::open_group(ctx, file.get(), "/a/b");
  EXPECT_EQ(h5::read_string_attribute(ctx, group.get(), "name"), std::optional<std::string>("tetra"));
  EXPECT_FALSE(h5::read_string_attribute(ctx, group.get(), "missing").has_value());
  auto values = h5::read_attribute(ctx, group.get(), "values");
  ASSERT_TRUE(values.has_value());
  EXPECT_EQ(values->dtype(), DType::int32);
  EXPECT_EQ(values->value_as_int64(2), 2);
}

TEST(Hdf5Toolkit, ErrorsNameTheFileAndTheDatasetAndHdf5PrintsNothing) {
  const std::string path = tmp_path("hdf5_errors.h5");
  {
    const h5::Context ctx{"test", path, true};
    h5::Handle file = h5::create_file(ctx, path);
    h5::write_dataset(ctx, file.get(), "x", NDArray::from_vector<double>({1, 2}));
  }
  const h5::Context ctx{"fmt", path, false};
  h5::Handle file = h5::open_file(ctx);
  testing::internal::CaptureStderr();
  try {
    h5::read_dataset(ctx, file.get(), "/nope/y", file_size(path));
    FAIL() << "no error";
  } catch (const meshioplusplus::ReadError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("fmt: " + path), std::string::npos) << m;
    EXPECT_NE(m.find("/nope/y"), std::string::npos) << m;
  }
  // A declared size larger than the file holds is refused before allocating.
  try {
    h5::read_dataset(ctx, file.get(), "/x", 4);
    FAIL() << "no error";
  } catch (const meshioplusplus::ReadError& e) {
    EXPECT_NE(std::string(e.what()).find("stored bytes but the file has 4"), std::string::npos) << e.what();
  }
  const std::string text = tmp_path("hdf5_not.h5");
  testsupport::spit(text, "not an HDF5 file");
  const h5::Context tctx{"fmt", text, false};
  EXPECT_THROW(h5::open_file(tctx), meshioplusplus::ReadError);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST(Hdf5Toolkit, RowsAreWrittenAndReadByRange) {
  const std::string path = tmp_path("hdf5_rows.h5");
  const h5::Context wctx{"test", path, true};
  {
    h5::Handle file = h5::create_file(wctx, path);
    h5::Handle ds = h5::create_dataset(wctx, file.get(), "/g/rows", DType::int32, {5, 2});
    h5::write_rows(wctx, ds.get(), 3, NDArray::from_vector<std::int32_t>({6, 7, 8, 9}, {2, 2}));
    h5::write_rows(wctx, ds.get(), 0, NDArray::from_vector<std::int32_t>({0, 1, 2, 3, 4, 5}, {3, 2}));
    h5::write_rows(wctx, ds.get(), 5, NDArray::uninit(DType::int32, {0, 2}));  // nothing to write
    h5::write_dataset(wctx, file.get(), "/g/other", NDArray::from_vector<double>({1.5}));
    h5::create_group(wctx, file.get(), "/g/sub");
  }
  const h5::Context ctx{"test", path, false};
  h5::Handle file = h5::open_file(ctx);
  const std::size_t size = file_size(path);
  EXPECT_EQ(testsupport::ints_of(h5::read_dataset(ctx, file.get(), "/g/rows", size)),
            (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  const NDArray mid = h5::read_rows(ctx, file.get(), "/g/rows", 1, 3, size);
  EXPECT_EQ(mid.shape(), (NDArray::Shape{3, 2}));
  EXPECT_EQ(testsupport::ints_of(mid), (std::vector<std::int64_t>{2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(h5::read_rows(ctx, file.get(), "/g/rows", 5, 0, size).shape(), (NDArray::Shape{0, 2}));
  EXPECT_EQ(h5::dataset_shape(ctx, file.get(), "/g/rows"), (NDArray::Shape{5, 2}));
  h5::Handle g = h5::open_group(ctx, file.get(), "/g");
  EXPECT_EQ(h5::dataset_names(ctx, g.get()), (std::vector<std::string>{"other", "rows"}));
  EXPECT_TRUE(h5::is_numeric_dataset(ctx, g.get(), "rows"));
  try {
    h5::read_rows(ctx, file.get(), "/g/rows", 4, 2, size);
    FAIL() << "no error";
  } catch (const meshioplusplus::ReadError& e) {
    EXPECT_NE(std::string(e.what()).find("rows [4, 6) asked, it has 5"), std::string::npos) << e.what();
  }
}

// Messages HDF5 1.10.8 decodes without bounding them by their size are checked from the
// file's bytes first (hdf5_layouts.cpp): each corruption below read past HDF5's buffers, freed
// memory twice or read far past the file; now each is a ReadError naming the message.
std::string outcome_of_open(const std::string& path, const std::string& bytes) {
  testsupport::spit(path, bytes);
  try {
    h5::open_file(h5::Context{"fmt", path, false});
    return "opened";
  } catch (const meshioplusplus::ReadError& e) {
    return e.what();
  }
}

std::string flipped(std::string bytes, std::size_t at, unsigned char mask) {
  bytes.at(at) = static_cast<char>(bytes.at(at) ^ mask);
  return bytes;
}

TEST(Hdf5Toolkit, MessagesHdf5DecodesUnboundedAreCheckedFirst) {
  const std::string path = tmp_path("hdf5_messages.h5");
  {
    const h5::Context ctx{"test", path, true};
    h5::Handle file = h5::create_file(ctx, path);
    h5::Handle group = h5::create_group(ctx, file.get(), "/g");
    h5::write_attribute(ctx, group.get(), "NBRX", NDArray::from_vector<std::int32_t>({7}));
  }
  const std::string good = testsupport::slurp(path);
  const std::string probe = tmp_path("hdf5_messages_probe.h5");
  EXPECT_EQ(outcome_of_open(probe, good), "opened");
  // The attribute's int32 datatype (class 0, 4 bytes, offset 0, precision 32) follows its
  // name: 64 bits of precision in 4 bytes, and a name longer than its message.
  const std::size_t name_at = good.find(std::string("NBRX\0", 5));
  ASSERT_NE(name_at, std::string::npos);
  const std::size_t precision_at = good.find(std::string("\x04\0\0\0\0\0\x20\0", 8), name_at) + 6;
  ASSERT_LT(precision_at, good.size());
  std::string wide = good;
  wide[precision_at] = 0x40;
  const std::string m1 = outcome_of_open(probe, wide);
  EXPECT_NE(m1.find("number type of 4 bytes declaring 64 bits of precision"), std::string::npos) << m1;
  EXPECT_NE(m1.find("/g"), std::string::npos) << m1;
  std::string long_name = good;
  long_name[name_at - 6] = '\xff', long_name[name_at - 5] = '\x7f';  // version 1: name size at +2
  const std::string m2 = outcome_of_open(probe, long_name);
  EXPECT_NE(m2.find("declares a name of 32767 bytes past its end"), std::string::npos) << m2;
  // Files our CGNS writer makes track link creation order: their groups keep link and link
  // info messages.
  const std::string cgns = testsupport::slurp(testsupport::data_path("../fuzz/seeds/cgns", "mpp_tet_regions.cgns"));
  const std::string m3 = outcome_of_open(probe, flipped(cgns, 1994, 0x20));
  EXPECT_NE(m3.find("a link message at byte"), std::string::npos) << m3;
  const std::string polygons = testsupport::slurp(testsupport::data_path("../fuzz/seeds/cgns", "mpp_polygon_2d.cgns"));
  const std::string m4 = outcome_of_open(probe, flipped(polygons, 679, 0x01));
  EXPECT_NE(m4.find("a link info message at byte"), std::string::npos) << m4;
  EXPECT_NE(m4.find("outside the file"), std::string::npos) << m4;
}

// The HDF5 objects open in this process, of the kinds `types` (H5F_OBJ_FILE, ...).
ssize_t open_objects(unsigned types) { return H5Fget_obj_count(H5F_OBJ_ALL, types); }

// Every reader on HDF5 (directly, or through netCDF for Exodus) closes each object it opens,
// on success and on failure: after any read no dataset, group, type or attribute is open,
// and a read that gave a mesh left no file open. What stays behind is HDF5's own: 1.10 keeps
// a corrupt file whose close failed inside the library (memory LeakSanitizer then reports
// at exit, allocated in libhdf5: tools/lsan-suppressions.txt says why it is not ours).
TEST(Hdf5Toolkit, ReadersCloseEveryObjectTheyOpenWhetherTheReadGivesAMeshOrFails) {
  const unsigned inner = H5F_OBJ_DATASET | H5F_OBJ_GROUP | H5F_OBJ_DATATYPE | H5F_OBJ_ATTR;
  const std::vector<std::pair<std::string, std::string>> fixtures = {
      {"cgns", "mixed3.cgns"},   {"h5m", "meshio_tri_tet.h5m"}, {"hmf", "meshio_mixed.hmf"},
      {"med", "meshio_mixed.med"}, {"vtkhdf", "one_partition.vtkhdf"}, {"exodus", "meshio_tetra.e"}};
  std::size_t meshes = 0, errors = 0;
  for (const auto& [format, name] : fixtures) {
    const std::string bytes = testsupport::slurp(data_path(format, name));
    ASSERT_FALSE(bytes.empty()) << name;
    const std::string probe = tmp_path("hdf5_objects_" + name);
    auto check = [&, format = format](const std::string& b, const std::string& label) {
      testsupport::spit(probe, b);
      const ssize_t files_before = open_objects(H5F_OBJ_FILE);
      const std::string outcome = read_outcome(probe, format);
      EXPECT_EQ(open_objects(inner), 0) << label << ": " << outcome;
      if (outcome == "mesh") {
        ++meshes;
        EXPECT_EQ(open_objects(H5F_OBJ_FILE), files_before) << label;
      } else {
        ++errors;
      }
    };
    check(bytes, name);
    EXPECT_EQ(open_objects(H5F_OBJ_ALL), 0) << name << " read whole";
    for (std::size_t at = 0; at < bytes.size(); at += 211) {
      std::string bad = bytes;
      bad[at] = static_cast<char>(bad[at] ^ 0xff);
      check(bad, name + " byte " + std::to_string(at) + " inverted");
    }
  }
  EXPECT_GT(meshes, fixtures.size());
  EXPECT_GT(errors, 0u);
}

}  // namespace

#endif  // MESHIOPP_HAVE_HDF5
