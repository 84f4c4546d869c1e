// meshio++ MED: what the reader and the writer share: meshio's cell-type table, the
// column-major <-> row-major conversion of MED's arrays, and the family group-name tables
// (arrays of 80 chars, a type the HDF5 toolkit's numeric datasets do not cover).
// Spec: https://docs.salome-platform.org/latest/dev/MEDCoupling/developer/med-file.html
// (MED_LNAME_SIZE group names; med_geometry_type names as the HDF5 groups spell them).
#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <vector>
#include <type_traits>
#include <cstring>
#include <utility>

#include "formats/med/med_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "core/parallel.hpp"
#include "core/uninit_vector.hpp"

namespace meshioplusplus::med {

namespace {

// meshio 5's meshio_to_med_type: the only types meshio maps, both ways.
constexpr std::array<std::pair<std::string_view, std::string_view>, 15> kTypes{{
    {"vertex", "PO1"},       {"line", "SE2"},      {"line3", "SE3"},          {"triangle", "TR3"},
    {"triangle6", "TR6"},    {"quad", "QU4"},      {"quad8", "QU8"},          {"tetra", "TE4"},
    {"tetra10", "T10"},      {"hexahedron", "HE8"}, {"hexahedron20", "H20"},  {"pyramid", "PY5"},
    {"pyramid13", "P13"},    {"wedge", "PE6"},     {"wedge15", "P15"},
}};

}  // namespace

std::optional<std::string_view> med_type_name(std::string_view meshio_type) {
  for (const auto& t : kTypes)
    if (t.first == meshio_type) return t.second;
  return std::nullopt;
}

std::optional<std::string_view> meshio_type_name(std::string_view med_type) {
  for (const auto& t : kTypes)
    if (t.second == med_type) return t.first;
  return std::nullopt;
}

namespace {

// Rows are transposed a tile at a time: the row-major side of a tile (at most kTileRows x
// a x b values) stays in cache while each of its columns is streamed on the other side.
constexpr std::size_t kTileRows = 256;

// value - shift in the output's type, wrapping as unsigned arithmetic does (a corrupt
// file's extreme value then lands out of range, never in undefined behaviour); floats are
// never shifted.
template <class O, class I>
O shifted(I value, std::int64_t shift) {
  if constexpr (std::is_integral_v<O>) {
    using U = std::make_unsigned_t<O>;
    return static_cast<O>(static_cast<U>(static_cast<U>(static_cast<O>(value)) - static_cast<U>(shift)));
  } else {
    return static_cast<O>(value);
  }
}

// Calls f(row_major, column_major, start, end) for each tile of rows [start, end) and each
// (g, c) of a (rows, a, b) array: value i of that column is at row_major + i * a * b in the
// row-major layout and at column_major + i in the column-major one.
template <class F>
void for_each_tile_column(std::size_t rows, std::size_t a, std::size_t b, F&& f) {
  for (std::size_t start = 0; start < rows; start += kTileRows) {
    const std::size_t end = std::min(rows, start + kTileRows);
    for (std::size_t c = 0; c < b; ++c)
      for (std::size_t g = 0; g < a; ++g) f(g * b + c, rows * (g + a * c), start, end);
  }
}

}  // namespace

namespace {

// Rows [r0, r1) of a column-major (m, K) array as row-major: out[i * K + j] = in[j * m + i]
// (shifted). With Top, returns the largest value stored taken as unsigned (for a range
// check in the same pass). K fixed: the K input streams and the row's stores unroll.
template <std::size_t K, bool Top, class O, class I>
std::uint64_t transpose_rows(O* out, const I* in, std::size_t m, std::size_t k, std::int64_t shift, std::size_t r0,
                             std::size_t r1) {
  const std::size_t width = K ? K : k;
  std::uint64_t top = 0;
  for (std::size_t i = r0; i < r1; ++i)
    for (std::size_t j = 0; j < width; ++j) {
      const O v = shifted<O>(in[j * m + i], shift);
      out[i * width + j] = v;
      if constexpr (Top) top = std::max(top, static_cast<std::uint64_t>(v));
    }
  return top;
}

template <bool Top, class O, class I>
std::uint64_t transpose_rows_any(O* out, const I* in, std::size_t m, std::size_t k, std::int64_t shift, std::size_t r0,
                                 std::size_t r1) {
  switch (k) {
    case 1: return transpose_rows<1, Top>(out, in, m, k, shift, r0, r1);
    case 2: return transpose_rows<2, Top>(out, in, m, k, shift, r0, r1);
    case 3: return transpose_rows<3, Top>(out, in, m, k, shift, r0, r1);
    case 4: return transpose_rows<4, Top>(out, in, m, k, shift, r0, r1);
    case 6: return transpose_rows<6, Top>(out, in, m, k, shift, r0, r1);
    case 8: return transpose_rows<8, Top>(out, in, m, k, shift, r0, r1);
    default: return transpose_rows<0, Top>(out, in, m, k, shift, r0, r1);
  }
}

}  // namespace

NDArray from_columns(const NDArray& flat, std::size_t rows, std::size_t a, std::size_t b, DType dtype, std::int64_t shift,
                     unsigned threads) {
  const std::size_t width = a * b;
  if (width == 1 && shift == 0 && flat.dtype() == dtype) return flat.reshaped({rows, 1});  // nothing to move
  NDArray out = NDArray::uninit(dtype, {rows, width});
  visit_dtype(dtype, [&](auto out_tag) {
    using O = decltype(out_tag);
    O* o = out.data<O>();
    visit_dtype(flat.dtype(), [&](auto in_tag) {
      using I = decltype(in_tag);
      const I* in = flat.data<const I>();
      if (b == 1) {  // (rows, a): the common case (coordinates, one value per entity)
        parallel_ranges(rows, threads, [&](std::size_t r0, std::size_t r1) {
          transpose_rows_any<false>(o, in, rows, a, shift, r0, r1);
        });
        return;
      }
      for_each_tile_column(rows, a, b, [&](std::size_t row_major, std::size_t column_major, std::size_t start, std::size_t end) {
        for (std::size_t i = start; i < end; ++i) o[row_major + i * width] = shifted<O>(in[column_major + i], shift);
      });
    });
  });
  return out;
}

namespace {
// The first of `n` 0-based indices (as unsigned) outside [0, num_points), if the ranges'
// largest (`tops`) says there is one.
std::optional<std::size_t> first_bad(const std::int64_t* nodes, std::size_t n, std::size_t num_points,
                                     const std::vector<std::uint64_t>& tops) {
  if (*std::max_element(tops.begin(), tops.end()) < num_points) return std::nullopt;
  for (std::size_t i = 0; i < n; ++i)
    if (static_cast<std::uint64_t>(nodes[i]) >= num_points) return i;
  return std::nullopt;
}
}  // namespace

NodeRows node_rows_from_columns(const NDArray& flat, std::size_t m, std::size_t k, std::size_t num_points,
                                unsigned threads) {
  NodeRows r{NDArray::uninit(DType::int64, {m, k}), std::nullopt};
  std::int64_t* out = r.nodes.data<std::int64_t>();
  std::vector<std::uint64_t> tops(16, 0);
  std::atomic<std::size_t> range{0};
  visit_dtype(flat.dtype(), [&](auto tag) {
    using I = decltype(tag);
    if constexpr (std::is_integral_v<I>) {
      const I* in = flat.data<const I>();
      parallel_ranges(m, threads, [&](std::size_t r0, std::size_t r1) {
        tops[range.fetch_add(1)] = transpose_rows_any<true>(out, in, m, k, /*shift=*/1, r0, r1);
      });
    } else {
      throw std::logic_error("node_rows_from_columns: integer input expected");
    }
  });
  r.first_bad = first_bad(out, m * k, num_points, tops);
  return r;
}

#ifdef MESHIOPP_HAVE_HDF5
NodeRows node_rows_in_pieces(const io::hdf5::DatasetPieces& data, std::size_t m, std::size_t k, std::size_t num_points,
                             unsigned threads) {
  constexpr std::size_t kPieceRows = std::size_t{1} << 15;  // k columns of it (<= 2.5 MB for k = 10) stay in cache
  NodeRows r{NDArray::uninit(DType::int64, {m, k}), std::nullopt};
  std::int64_t* out = r.nodes.data<std::int64_t>();
  std::vector<std::uint64_t> tops(16, 0);
  std::atomic<std::size_t> range{0};
  std::mutex hdf5_calls;  // one thread in HDF5 at a time; the others transpose meanwhile
  parallel_ranges(m, threads, [&](std::size_t r0, std::size_t r1) {
    UninitVector<std::int64_t> columns(std::min(kPieceRows, r1 - r0) * k);
    std::uint64_t top = 0;
    for (std::size_t p0 = r0; p0 < r1; p0 += kPieceRows) {
      const std::size_t rows = std::min(kPieceRows, r1 - p0);
      {
        std::lock_guard<std::mutex> lock(hdf5_calls);
        for (std::size_t j = 0; j < k; ++j) data.read(j * m + p0, rows, DType::int64, columns.data() + j * rows);
      }
      top = std::max(top, transpose_rows_any<true>(out + p0 * k, columns.data(), rows, k, /*shift=*/1, 0, rows));
    }
    tops[range.fetch_add(1)] = top;
  });
  r.first_bad = first_bad(out, m * k, num_points, tops);
  return r;
}
#endif

NDArray to_columns(const NDArray& rows_array, std::size_t a, std::size_t b, DType dtype, std::int64_t shift) {
  const std::size_t rows = rows_array.dim(0);
  const std::size_t width = a * b;
  NDArray out = NDArray::uninit(dtype, {rows * width});
  visit_dtype(dtype, [&](auto out_tag) {
    using O = decltype(out_tag);
    O* o = out.data<O>();
    visit_dtype(rows_array.dtype(), [&](auto in_tag) {
      using I = decltype(in_tag);
      const I* in = rows_array.data<const I>();
      for_each_tile_column(rows, a, b, [&](std::size_t row_major, std::size_t column_major, std::size_t start, std::size_t end) {
        for (std::size_t i = start; i < end; ++i) o[column_major + i] = shifted<O>(in[row_major + i * width], -shift);
      });
    });
  });
  return out;
}

#ifdef MESHIOPP_HAVE_HDF5

namespace h5 = io::hdf5;

namespace {

h5::Handle name_array_type(hid_t base) {
  const hsize_t dims[1] = {kGroupNameSize};
  return h5::Handle(H5Tarray_create2(base, 1, dims), H5Tclose);
}

// meshio's Python: "".join(chr(x) for x in row).strip().rstrip("\x00").
std::string stripped(const char* row) {
  std::string s(row, kGroupNameSize);
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
  std::size_t b = 0, e = s.size();
  while (b < e && space(s[b])) ++b;
  while (e > b && space(s[e - 1])) --e;
  while (e > b && s[e - 1] == '\0') --e;
  return s.substr(b, e - b);
}

}  // namespace

std::vector<std::string> read_group_names(const h5::Context& ctx, hid_t file, const std::string& path,
                                          std::size_t file_bytes) {
  h5::Session session;
  h5::Handle ds(H5Dopen2(file, path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!ds) h5::fail(ctx, "cannot open dataset " + path);
  h5::Handle type(H5Dget_type(ds.get()), H5Tclose);
  if (!type) h5::fail(ctx, "dataset " + path + ": cannot read its type");
  // libmed and meshio write H5T_ARRAY { [80] H5T_STD_I8LE }; a fixed string of 80 is read too.
  const H5T_class_t cls = H5Tget_class(type.get());
  bool ok = cls == H5T_STRING && H5Tis_variable_str(type.get()) == 0 && H5Tget_size(type.get()) == kGroupNameSize;
  if (cls == H5T_ARRAY && H5Tget_array_ndims(type.get()) == 1) {
    hsize_t dims[1] = {0};
    h5::Handle super(H5Tget_super(type.get()), H5Tclose);
    ok = H5Tget_array_dims2(type.get(), dims) == 1 && dims[0] == kGroupNameSize && super &&
         H5Tget_class(super.get()) == H5T_INTEGER && H5Tget_size(super.get()) == 1;
  }
  if (!ok)
    throw read_error(ctx.format, ctx.path,
                     "dataset " + path + ": " + expected_found("group names as arrays of 80 chars", "another type"));
  h5::Handle space(H5Dget_space(ds.get()), H5Sclose);
  const int rank = space ? H5Sget_simple_extent_ndims(space.get()) : -1;
  hsize_t n = 0;
  if (rank != 1 || H5Sget_simple_extent_dims(space.get(), &n, nullptr) != 1)
    throw read_error(ctx.format, ctx.path, "dataset " + path + ": " + expected_found("one dimension", "another shape"));
  if (n > file_bytes / kGroupNameSize)
    throw read_error(ctx.format, ctx.path,
                     "dataset " + path + ": declares " + std::to_string(n) + " group names, more than the file holds");
  std::vector<char> bytes(static_cast<std::size_t>(n) * kGroupNameSize);
  h5::Handle mem = cls == H5T_ARRAY ? name_array_type(H5T_NATIVE_SCHAR) : h5::Handle(H5Tcopy(type.get()), H5Tclose);
  if (!mem) h5::fail(ctx, "dataset " + path + ": cannot make its memory type");
  if (n != 0 && H5Dread(ds.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()) < 0)
    h5::fail(ctx, "cannot read dataset " + path);
  std::vector<std::string> names;
  for (std::size_t i = 0; i < n; ++i) names.push_back(stripped(bytes.data() + i * kGroupNameSize));
  return names;
}

void write_group_names(const h5::Context& ctx, hid_t loc, const std::string& name, const std::vector<std::string>& names) {
  h5::Session session;
  std::vector<char> bytes(names.size() * kGroupNameSize, '\0');
  for (std::size_t i = 0; i < names.size(); ++i)
    std::memcpy(bytes.data() + i * kGroupNameSize, names[i].data(), std::min(names[i].size(), kGroupNameSize));
  const hsize_t n = names.size();
  h5::Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose);
  h5::Handle file_type = name_array_type(H5T_STD_I8LE), mem_type = name_array_type(H5T_NATIVE_SCHAR);
  // No access/modification times: the same mesh gives the same bytes.
  h5::Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  if (!space || !file_type || !mem_type || !dcpl || H5Pset_obj_track_times(dcpl.get(), 0) < 0)
    h5::fail(ctx, "cannot set up dataset " + name);
  h5::Handle ds(H5Dcreate2(loc, name.c_str(), file_type.get(), space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
                H5Dclose);
  if (!ds) h5::fail(ctx, "cannot create dataset " + name);
  if (n != 0 && H5Dwrite(ds.get(), mem_type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()) < 0)
    h5::fail(ctx, "cannot write dataset " + name);
}

#endif

}  // namespace meshioplusplus::med
