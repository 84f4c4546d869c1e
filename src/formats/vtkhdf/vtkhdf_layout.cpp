// meshio++ VTKHDF: the partition layout and the checks of the decoded cell arrays (no
// HDF5 here, so a collective writer and the fuzzing of the validation share them).
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html ("HDF file formats")
#include <limits>
#include <memory>

#include "core/array_parts.hpp"
#include "formats/vtk_common/vtk_cells.hpp"
#include "formats/vtkhdf/vtkhdf_internal.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::vtkhdf {

namespace {

constexpr std::uint64_t kMaxRows = std::uint64_t(1) << 60;

std::uint64_t add(std::uint64_t a, std::uint64_t b, const FailFn& fail, const char* what) {
  if (b > kMaxRows - a) fail(std::string(what) + ": the partitions' total overflows");
  return a + b;
}

}  // namespace

Layout make_layout(std::vector<PartitionCounts> parts) {
  Layout l;
  l.parts = std::move(parts);
  const std::size_t n = l.parts.size();
  l.point_start.assign(n + 1, 0);
  l.cell_start.assign(n + 1, 0);
  l.connectivity_start.assign(n + 1, 0);
  l.offsets_start.assign(n + 1, 0);
  for (std::size_t p = 0; p < n; ++p) {
    l.point_start[p + 1] = l.point_start[p] + l.parts[p].points;
    l.cell_start[p + 1] = l.cell_start[p] + l.parts[p].cells;
    l.connectivity_start[p + 1] = l.connectivity_start[p] + l.parts[p].connectivity;
    l.offsets_start[p + 1] = l.offsets_start[p] + l.parts[p].cells + 1;
  }
  return l;
}

Layout layout_from_counts(const NDArray& points, const NDArray& cells, const NDArray& connectivity, const FailFn& fail) {
  const NDArray* arrays[3] = {&points, &cells, &connectivity};
  const char* names[3] = {"NumberOfPoints", "NumberOfCells", "NumberOfConnectivityIds"};
  for (int k = 0; k < 3; ++k) {
    const NDArray& a = *arrays[k];
    if (a.ndim() != 1) fail(std::string("dataset ") + names[k] + ": expected one dimension, found " + std::to_string(a.ndim()));
    if (a.dtype() == DType::float32 || a.dtype() == DType::float64)
      fail(std::string("dataset ") + names[k] + ": expected integers, found floats");
    if (a.size() == 0) fail(std::string("dataset ") + names[k] + ": no partitions (empty)");
    if (a.size() != points.size())
      fail(std::string("dataset ") + names[k] + ": " + std::to_string(a.size()) + " partitions, but NumberOfPoints has " +
           std::to_string(points.size()));
  }
  std::vector<PartitionCounts> parts(points.size());
  std::uint64_t totals[3] = {0, 0, 0};
  for (std::size_t p = 0; p < parts.size(); ++p) {
    std::uint64_t v[3];
    for (int k = 0; k < 3; ++k) {
      const std::int64_t x = arrays[k]->value_as_int64(p);
      const bool negative = x < 0 && arrays[k]->dtype() != DType::uint64;
      if (negative || static_cast<std::uint64_t>(x) > kMaxRows)
        fail(std::string("dataset ") + names[k] + ", partition " + std::to_string(p) + ": invalid count " +
             (arrays[k]->dtype() == DType::uint64 ? std::to_string(static_cast<std::uint64_t>(x)) : std::to_string(x)));
      v[k] = static_cast<std::uint64_t>(x);
      totals[k] = add(totals[k], v[k], fail, names[k]);
    }
    parts[p] = {v[0], v[1], v[2]};
  }
  return make_layout(std::move(parts));
}

vtk::FlatCells flat_cells(const Layout& layout, std::size_t first, std::size_t last, NDArray offsets,
                          NDArray connectivity, NDArray types, const FailFn& fail) {
  const std::uint64_t ncells = layout.cell_start[last] - layout.cell_start[first];
  const std::uint64_t nconn = layout.connectivity_start[last] - layout.connectivity_start[first];
  const std::uint64_t noffsets = layout.offsets_start[last] - layout.offsets_start[first];
  if (offsets.size() != noffsets || connectivity.size() != nconn || types.size() != ncells)
    fail("the cell arrays of partitions " + std::to_string(first) + ".." + std::to_string(last - 1) +
         " do not have the sizes the counts declare");
  auto as_int64 = [&](NDArray a, const char* name) {
    if (a.dtype() == DType::float32 || a.dtype() == DType::float64)
      fail(std::string("dataset ") + name + ": expected integers, found floats");
    return a.dtype() == DType::int64 ? a : a.as_dtype(DType::int64);  // uint64 past int64 turns negative: refused below
  };
  // Rewritten in place: the flat offset of cell k is written at k, after the row it comes
  // from (k + the partitions before it) was read, and each connectivity id at its own place.
  vtk::FlatCells flat;
  flat.owned = true;  // arrays of our own, made for this read: the blocks are views of them
  flat.offsets = as_int64(std::move(offsets), "Offsets");
  flat.connectivity = as_int64(std::move(connectivity), "Connectivity");
  const bool types_as_stored = types.dtype() == DType::uint8;
  const NDArray types64 = types_as_stored ? NDArray() : as_int64(types, "Types");
  flat.types = types_as_stored ? std::move(types) : NDArray::uninit(DType::uint8, {ncells});
  const std::int64_t* in_off = flat.offsets.data<const std::int64_t>();
  const std::int64_t* in_conn = flat.connectivity.data<const std::int64_t>();
  auto* out_off = flat.offsets.data<std::int64_t>();
  auto* out_conn = flat.connectivity.data<std::int64_t>();
  auto* out_types = flat.types.data<std::uint8_t>();
  auto type_at = [&](std::uint64_t i) -> std::int64_t {
    return types_as_stored ? out_types[i] : types64.data<const std::int64_t>()[i];
  };
  std::uint64_t cell = 0, conn = 0, off_row = 0, point_base = 0;
  for (std::size_t p = first; p < last; ++p) {
    const PartitionCounts& c = layout.parts[p];
    const std::string where = ", partition " + std::to_string(p);
    // Offsets: c.cells + 1 values, 0 first, never decreasing, c.connectivity last.
    std::int64_t prev = 0;
    for (std::uint64_t i = 0; i <= c.cells; ++i) {
      const std::int64_t o = in_off[off_row + i];
      if (i == 0 && o != 0) fail("dataset Offsets" + where + ": expected 0 first, found " + std::to_string(o));
      if (o < prev || static_cast<std::uint64_t>(o) > c.connectivity)
        fail("dataset Offsets" + where + ", cell " + std::to_string(i) + ": offset " + std::to_string(o) +
             " out of range (previous " + std::to_string(prev) + ", NumberOfConnectivityIds " + std::to_string(c.connectivity) + ")");
      if (i > 0) out_off[cell + i] = static_cast<std::int64_t>(conn) + o;
      prev = o;
    }
    if (static_cast<std::uint64_t>(prev) != c.connectivity)
      fail("dataset Offsets" + where + ": the last offset is " + std::to_string(prev) + ", NumberOfConnectivityIds is " +
           std::to_string(c.connectivity));
    for (std::uint64_t i = 0; i < c.connectivity; ++i) {
      const std::int64_t id = in_conn[conn + i];
      if (id < 0 || static_cast<std::uint64_t>(id) >= c.points)
        fail("dataset Connectivity" + where + ", entry " + std::to_string(i) + ": point id " + std::to_string(id) +
             " out of range (the partition has " + std::to_string(c.points) + " points)");
      out_conn[conn + i] = id + static_cast<std::int64_t>(point_base);
    }
    for (std::uint64_t i = 0; i < c.cells; ++i) {
      const std::int64_t t = type_at(cell + i);
      if (t < 0 || t > 255)
        fail("dataset Types" + where + ", cell " + std::to_string(i) + ": " + expected_found("a VTK cell type 0..255", std::to_string(t)));
      if (t == vtk::kPolyhedron)
        fail("dataset Types" + where + ", cell " + std::to_string(i) +
             ": VTK_POLYHEDRON (42) needs a face stream, which VTKHDF 1.0 does not hold");
      out_types[cell + i] = static_cast<std::uint8_t>(t);
    }
    cell += c.cells;
    conn += c.connectivity;
    off_row += c.cells + 1;
    point_base += c.points;
  }
  // One offsets row per partition was the last of the partition before: ncells + 1 remain.
  if (last - first > 1) {
    flat.offsets = array_part(flat.offsets, 0, {ncells + 1});
  }
  return flat;
}

}  // namespace meshioplusplus::vtkhdf
