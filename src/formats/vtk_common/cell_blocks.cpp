// meshio++ formats: VTK flat cell arrays <-> cell blocks (see cell_blocks.hpp).
#include "formats/vtk_common/cell_blocks.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <type_traits>

#include "core/array_parts.hpp"
#include "core/io/decode.hpp"
#include "core/io/section_reader.hpp"
#include "formats/vtk_common/vtk_cells.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::vtk {

namespace {

std::string cell_label(std::size_t i) { return "cell " + std::to_string(i); }

}  // namespace

static_assert(kScanRanges == io::kMaxChunkRanges, "a scan keeps one state per range of io::read_values");

namespace {

// f(values, count) with the piece as int64-convertible integers; false for floats.
template <class F> bool integer_piece(DType dtype, const void* values, F&& f) {
  if (dtype_is_float(dtype)) return false;
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T>) f(static_cast<const T*>(values));
  });
  return true;
}

}  // namespace

bool UniformEnds::feed(unsigned range, DType dtype, std::size_t first, std::size_t count, const void* values) {
  Range& r = ranges_[range];
  if (!r.ok || count == 0) return r.ok;
  r.ok = integer_piece(dtype, values, [&](const auto* v) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(v)>>;
    if constexpr (std::is_unsigned_v<T> && sizeof(T) == 8) {
      if (v[0] > static_cast<T>(INT64_MAX)) return void(r.ok = false);
    }
    const auto index = static_cast<std::int64_t>(first) + 1;  // offsets end at (i + 1) * k
    if (r.k == 0) {
      const auto v0 = static_cast<std::int64_t>(v[0]);
      if (v0 <= 0 || v0 % index != 0) return void(r.ok = false);
      r.k = v0 / index;
    }
    // k * (first + count) must not overflow: the values compared stay below it.
    if (r.k > INT64_MAX / (index + static_cast<std::int64_t>(count))) return void(r.ok = false);
    const std::int64_t k = r.k, base = k * index;
    bool ok = true;
    for (std::size_t i = 0; i < count; ++i) ok &= static_cast<std::int64_t>(v[i]) == base + k * static_cast<std::int64_t>(i);
    r.ok = ok;
  }) && r.ok;
  r.seen += count;
  return r.ok;
}

std::int64_t UniformEnds::step(std::size_t count) const {
  std::int64_t k = 0;
  std::size_t seen = 0;
  for (const Range& r : ranges_) {
    if (r.seen == 0) continue;
    if (!r.ok || (k != 0 && r.k != k)) return 0;
    k = r.k, seen += r.seen;
  }
  return seen == count && count > 0 ? k : 0;
}

bool SameValue::feed(unsigned range, DType dtype, std::size_t, std::size_t count, const void* values) {
  Range& r = ranges_[range];
  if (!r.ok || count == 0) return r.ok;
  r.ok = integer_piece(dtype, values, [&](const auto* v) {
    if (r.seen == 0) r.v = static_cast<std::int64_t>(v[0]);
    bool ok = true;
    for (std::size_t i = 0; i < count; ++i) ok &= static_cast<std::int64_t>(v[i]) == r.v;
    r.ok = ok;
  }) && r.ok;
  r.seen += count;
  return r.ok;
}

std::optional<std::int64_t> SameValue::value(std::size_t count) const {
  std::optional<std::int64_t> v;
  std::size_t seen = 0;
  for (const Range& r : ranges_) {
    if (r.seen == 0) continue;
    if (!r.ok || (v && r.v != *v)) return std::nullopt;
    v = r.v, seen += r.seen;
  }
  return seen == count ? v : std::nullopt;
}

void IdRange::feed(unsigned range, DType dtype, std::size_t, std::size_t count, const void* values) {
  Range& r = ranges_[range];
  if (count == 0) return;
  std::uint64_t top = ~std::uint64_t{0};  // floats: never within (the general path names the dtype)
  integer_piece(dtype, values, [&](const auto* v) { top = io::largest_as_unsigned(v, count); });
  r.top = std::max(r.top, top);
  r.any = true;
}

bool IdRange::within(std::int64_t limit) const {
  for (const Range& r : ranges_)
    if (r.any && (limit <= 0 || r.top >= static_cast<std::uint64_t>(limit))) return false;
  return true;
}

std::optional<BlocksOut> uniform_blocks(const NDArray& connectivity, std::size_t n, std::int64_t k, std::int64_t type) {
  if (n == 0 || k < 1 || type < 0 || type > 255 || connectivity.dtype() != DType::int64 ||
      connectivity.size() != n * static_cast<std::size_t>(k))
    return std::nullopt;
  const VtkReadType& rt = vtk_read_type(type);
  if (rt.name.empty() || rt.lagrange || type == kPolyhedron || (rt.num_nodes >= 0 && rt.num_nodes != k) ||
      (rt.num_nodes < 0 && type != kPolygon))
    return std::nullopt;
  const auto kk = static_cast<std::size_t>(k);
  NDArray block = array_part(connectivity, 0, {n, kk});
  if (!rt.order.empty()) {  // permute each row in place, as blocks_from_flat does
    auto* dst = block.data<std::int64_t>();
    std::vector<std::int64_t> row(kk);
    for (std::size_t i = 0; i < n; ++i) {
      std::memcpy(row.data(), dst + i * kk, kk * sizeof(std::int64_t));
      for (std::size_t j = 0; j < kk; ++j) dst[i * kk + j] = row[static_cast<std::size_t>(rt.order[j])];
    }
  }
  BlocksOut out;
  out.blocks.push_back(CellBlock::rectangular(rt.name, std::move(block)));
  out.starts = {0, n};
  out.ends = {n};
  return out;
}

BlocksOut blocks_from_flat(const FlatCells& cells, std::size_t num_points, const FailFn& fail) {
  BlocksOut out;
  const std::size_t n = cells.types.size();
  const std::int64_t* off = cells.offsets.data<const std::int64_t>();
  const std::int64_t* conn = cells.connectivity.data<const std::int64_t>();
  const std::uint8_t* types = cells.types.data<const std::uint8_t>();
  const auto nconn = static_cast<std::int64_t>(cells.connectivity.size());
  const auto npts = static_cast<std::int64_t>(num_points);
  if (cells.offsets.size() != n + 1) fail("expected " + std::to_string(n + 1) + " offsets, found " + std::to_string(cells.offsets.size()));
  if (off[0] != 0) fail("the first cell starts at " + std::to_string(off[0]) + ", expected 0");
  // Each check is a branch-free pass first (vectorised); only a failing one looks again for
  // the first offender, to name it.
  bool bad = false;
  for (std::size_t i = 0; i < n; ++i) bad |= (off[i + 1] < off[i]) | (off[i + 1] > nconn);
  for (std::size_t i = 0; i < n && bad; ++i)
    if (off[i + 1] < off[i] || off[i + 1] > nconn)
      fail(cell_label(i) + ": offset " + std::to_string(off[i + 1]) + " is outside [" + std::to_string(off[i]) + ", " +
           std::to_string(nconn) + "] (decreasing or past the connectivity)");

  auto check_node = [&](std::int64_t v, std::size_t cell) {
    if (v < 0 || v >= npts)
      fail(cell_label(cell) + ": node " + std::to_string(v) + " is outside [0, " + std::to_string(npts) + ")");
  };

  std::size_t s = 0;
  while (s < n) {
    const std::uint8_t t = types[s];
    const VtkReadType& rt = vtk_read_type(t);
    if (rt.name.empty()) {  // skipped, as meshio skips what it cannot hold
      std::size_t e = s + 1;
      while (e < n && types[e] == t) ++e;
      out.skipped.push_back(vtk_type_label(t) + ": " + std::to_string(e - s) + " cell" + (e - s == 1 ? "" : "s") +
                            " skipped (meshio++ has no such cell type)");
      s = e;
      continue;
    }
    const std::int64_t k0 = off[s + 1] - off[s];
    // The run: same type (and, for Lagrange cells, same node count).
    std::size_t e = s + 1;
    while (e < n && types[e] == t && (!rt.lagrange || off[e + 1] - off[e] == k0)) ++e;
    const std::size_t m = e - s;
    out.starts.push_back(s);
    out.ends.push_back(e);

    if (t == kPolyhedron) {
      if (!cells.stream || !cells.face_range) fail(cell_label(s) + ": a polyhedron without faces");
      // Pass 1: validate every stream, count faces and indices.
      std::size_t total_faces = 0, total_idx = 0;
      for (std::size_t i = s; i < e; ++i) {
        auto [b, f] = cells.face_range(i);
        if (b < 0 || f < b || static_cast<std::size_t>(f) > cells.stream_size)
          fail(cell_label(i) + ": polyhedron face stream [" + std::to_string(b) + ", " + std::to_string(f) +
               ") is outside the " + std::to_string(cells.stream_size) + " face values");
        const std::int64_t* q = cells.stream + b;
        const std::int64_t* qe = cells.stream + f;
        if (q == qe) fail(cell_label(i) + ": empty polyhedron face stream");
        const std::int64_t nf = *q++;
        if (nf < 0 || nf > qe - q) fail(cell_label(i) + ": polyhedron declares " + std::to_string(nf) + " faces");
        for (std::int64_t j = 0; j < nf; ++j) {
          if (q == qe) fail(cell_label(i) + ": polyhedron face stream ends inside face " + std::to_string(j));
          const std::int64_t np = *q++;
          if (np < 0 || np > qe - q)
            fail(cell_label(i) + ": polyhedron face " + std::to_string(j) + " declares " + std::to_string(np) + " nodes");
          for (std::int64_t r = 0; r < np; ++r) check_node(q[r], i);
          q += np;
          total_idx += static_cast<std::size_t>(np);
        }
        total_faces += static_cast<std::size_t>(nf);
      }
      NDArray offsets = NDArray::uninit(DType::int64, {m + 1});
      NDArray face_offsets = NDArray::uninit(DType::int64, {total_faces + 1});
      NDArray indices = NDArray::uninit(DType::int64, {total_idx});
      auto* po = offsets.data<std::int64_t>();
      auto* pf = face_offsets.data<std::int64_t>();
      auto* pi = indices.data<std::int64_t>();
      std::int64_t nfaces_so_far = 0, nidx = 0;
      po[0] = 0;
      pf[0] = 0;
      for (std::size_t i = s; i < e; ++i) {
        const std::int64_t* q = cells.stream + cells.face_range(i).first;
        const std::int64_t nf = *q++;
        for (std::int64_t j = 0; j < nf; ++j) {
          const std::int64_t np = *q++;
          std::memcpy(pi + nidx, q, static_cast<std::size_t>(np) * sizeof(std::int64_t));
          q += np;
          nidx += np;
          pf[++nfaces_so_far] = nidx;
        }
        po[i - s + 1] = nfaces_so_far;
      }
      out.blocks.push_back(CellBlock::polyhedra(std::move(offsets), std::move(face_offsets), std::move(indices)));
      s = e;
      continue;
    }

    std::string name = rt.name;
    std::vector<int> order = rt.order;
    std::int64_t k = rt.num_nodes;
    bool uniform = true;
    if (rt.lagrange) {
      const VtkReadType lt = lagrange_type(t, k0);
      if (lt.name.empty())
        fail(cell_label(s) + ": " + vtk_type_label(t) + " with " + std::to_string(k0) + " nodes has no meshio++ cell type");
      name = lt.name;
      order = lt.order;
      k = k0;
    } else if (k < 0) {  // polygon
      k = k0;
      for (std::size_t i = s; i < e && uniform; ++i) uniform = off[i + 1] - off[i] == k0;
    }
    bool sizes_differ = false;
    if (k >= 0 && uniform)
      for (std::size_t i = s; i < e; ++i) sizes_differ |= off[i + 1] - off[i] != k;
    for (std::size_t i = s; i < e && sizes_differ; ++i)
      if (off[i + 1] - off[i] != k)
        fail(cell_label(i) + ": " + vtk_type_label(t) + " has " + std::to_string(off[i + 1] - off[i]) + " nodes, expected " +
             std::to_string(k));
    const std::int64_t first = off[s], last = off[e];
    const bool ids_known_good = cells.largest_id && *cells.largest_id < static_cast<std::uint64_t>(npts);
    if (!ids_known_good && io::largest_as_unsigned(conn + first, static_cast<std::size_t>(last - first)) >= static_cast<std::uint64_t>(npts)) {
      for (std::int64_t j = first; j < last; ++j) {
        const std::int64_t v = conn[j];
        if (v < 0 || v >= npts) {
          const std::size_t cell = static_cast<std::size_t>(std::upper_bound(off + s, off + e + 1, j) - off - 1);
          check_node(v, cell);
        }
      }
    }
    const auto len = static_cast<std::size_t>(last - first);
    if (!uniform) {  // ragged polygons
      NDArray offsets = NDArray::uninit(DType::int64, {m + 1});
      auto* po = offsets.data<std::int64_t>();
      for (std::size_t i = 0; i <= m; ++i) po[i] = off[s + i] - first;
      NDArray indices;
      if (cells.owned) {
        indices = array_part(cells.connectivity, static_cast<std::size_t>(first), {len});
      } else {
        indices = NDArray::uninit(DType::int64, {len});
        std::memcpy(indices.raw(), conn + first, len * sizeof(std::int64_t));
      }
      out.blocks.push_back(CellBlock::polygons(std::move(offsets), std::move(indices)));
    } else {
      const auto kk = static_cast<std::size_t>(k);
      NDArray block;
      if (cells.owned) {
        block = array_part(cells.connectivity, static_cast<std::size_t>(first), {m, kk});
        if (!order.empty()) {  // permute each row in place
          auto* dst = block.data<std::int64_t>();
          std::vector<std::int64_t> row(kk);
          for (std::size_t i = 0; i < m; ++i) {
            std::memcpy(row.data(), dst + i * kk, kk * sizeof(std::int64_t));
            for (std::size_t j = 0; j < kk; ++j) dst[i * kk + j] = row[static_cast<std::size_t>(order[j])];
          }
        }
      } else {
        block = NDArray::uninit(DType::int64, {m, kk});
        auto* dst = block.data<std::int64_t>();
        if (order.empty()) {
          std::memcpy(dst, conn + first, len * sizeof(std::int64_t));
        } else {
          for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < kk; ++j) dst[i * kk + j] = conn[first + static_cast<std::int64_t>(i * kk) + order[j]];
        }
      }
      out.blocks.push_back(CellBlock::rectangular(name, std::move(block)));
    }
    s = e;
  }
  out.starts.push_back(n);
  return out;
}

namespace {

// Rows [begin, end) of `a`: a part sharing its buffer when it has an owner, else a copy.
NDArray rows_of(const NDArray& a, std::size_t begin, std::size_t end) {
  NDArray::Shape shape = a.shape();
  shape[0] = end - begin;
  const std::size_t row = a.row_size();
  if (a.owns_data() || a.keep_alive()) return array_part(a, begin * row, std::move(shape));
  NDArray part = NDArray::uninit(a.dtype(), std::move(shape));
  if (part.nbytes()) std::memcpy(part.raw(), static_cast<const char*>(a.raw()) + begin * row * dtype_size(a.dtype()), part.nbytes());
  return part;
}

}  // namespace

std::vector<NDArray> split_rows(const NDArray& a, const BlocksOut& blocks) {
  if (blocks.skipped.empty()) return split_rows(a, blocks.starts);
  std::vector<NDArray> out;
  for (std::size_t b = 0; b < blocks.ends.size(); ++b) out.push_back(rows_of(a, blocks.starts[b], blocks.ends[b]));
  return out;
}

std::vector<NDArray> split_rows(const NDArray& a, const std::vector<std::size_t>& starts) {
  std::vector<NDArray> out;
  const std::size_t nb = starts.empty() ? 0 : starts.size() - 1;
  if (nb == 1) {
    out.push_back(a);
    return out;
  }
  for (std::size_t b = 0; b < nb; ++b) out.push_back(rows_of(a, starts[b], starts[b + 1]));
  return out;
}

NDArray end_offsets(const FlatOut& flat) {
  const std::size_t n = flat.types.size();
  return NDArray::view(flat.offsets.data<std::int64_t>() + 1, DType::int64, {n}, flat.offsets.buffer());
}

FlatOut flat_from_blocks(const std::vector<CellBlock>& blocks, bool legacy_faces, std::string_view format) {
  return flat_from_blocks(blocks, legacy_faces, format, "");
}

FlatOut flat_from_blocks(const std::vector<CellBlock>& blocks, bool legacy_faces, std::string_view format,
                         std::string_view path) {
  FlatOut out;
  std::size_t ncells = 0, nconn = 0;
  for (const auto& b : blocks) {
    ncells += b.size();
    if (b.type.rfind("polyhedron", 0) == 0) {
      if (!b.ragged) throw write_error(format, path, "a polyhedron block must be ragged (faces), found a rectangular one");
      out.has_polyhedra = true;
    }
    nconn += b.ragged ? b.indices.size() : b.connectivity.size();
  }
  out.offsets = NDArray::uninit(DType::int64, {ncells + 1});
  out.types = NDArray::uninit(DType::uint8, {ncells});
  std::int64_t* offsets = out.offsets.data<std::int64_t>();
  std::uint8_t* types = out.types.data<std::uint8_t>();
  offsets[0] = 0;
  if (out.has_polyhedra && !legacy_faces) out.face_ends.assign(ncells, -1);
  // Without polyhedra the connectivity's size is known: it is written straight into the
  // array returned. A polyhedron's share is known only as it is written (a vector then).
  // One int64 block of a type VTK stores in meshio++'s node order is its own flat
  // connectivity: shared (the writers only read it), not copied.
  std::vector<std::int64_t> conn;
  NDArray conn_array;
  const bool shared = blocks.size() == 1 && !out.has_polyhedra && !blocks[0].ragged &&
                      blocks[0].connectivity.dtype() == DType::int64 && [&] {
                        const VtkWriteType wt = vtk_type_for(blocks[0].type);
                        return wt.id >= 0 && wt.order.empty();
                      }();
  if (out.has_polyhedra) conn.reserve(nconn);
  else if (shared) conn_array = blocks[0].connectivity.reshaped({nconn});
  else conn_array = NDArray::uninit(DType::int64, {nconn});
  std::size_t used = 0;  // connectivity entries written
  auto grow = [&](std::size_t k) -> std::int64_t* {
    if (out.has_polyhedra) conn.resize(used + k);
    std::int64_t* p = (out.has_polyhedra ? conn.data() : conn_array.data<std::int64_t>()) + used;
    used += k;
    return p;
  };
  std::size_t cell = 0;
  for (const auto& b : blocks) {
    const VtkWriteType wt = vtk_type_for(b.type);
    if (wt.id < 0) throw write_error(format, path, "VTK has no cell type for '" + b.type + "'");
    const std::size_t m = b.size();
    std::fill(types + cell, types + cell + m, static_cast<std::uint8_t>(wt.id));
    if (wt.id == kPolyhedron) {
      const NDArray idx = b.indices.as_dtype(DType::int64);
      const auto* ix = idx.data<const std::int64_t>();
      const auto* co = b.offsets.data<const std::int64_t>();
      const auto* fo = b.face_offsets.data<const std::int64_t>();
      std::vector<std::int64_t> nodes;
      for (std::size_t i = 0; i < m; ++i, ++cell) {
        nodes.assign(ix + fo[co[i]], ix + fo[co[i + 1]]);
        std::sort(nodes.begin(), nodes.end());
        nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
        std::vector<std::int64_t>& stream = legacy_faces ? conn : out.face_stream;
        stream.push_back(co[i + 1] - co[i]);
        for (std::int64_t f = co[i]; f < co[i + 1]; ++f) {
          stream.push_back(fo[f + 1] - fo[f]);
          stream.insert(stream.end(), ix + fo[f], ix + fo[f + 1]);
        }
        if (!legacy_faces) {
          out.face_ends[cell] = static_cast<std::int64_t>(out.face_stream.size());
          conn.insert(conn.end(), nodes.begin(), nodes.end());
        }
        offsets[cell + 1] = static_cast<std::int64_t>(conn.size());
      }
      used = conn.size();
      continue;
    }
    if (b.ragged) {
      const NDArray idx = b.indices.as_dtype(DType::int64);
      const auto* ix = idx.data<const std::int64_t>();
      const auto* co = b.offsets.data<const std::int64_t>();
      const auto base = static_cast<std::int64_t>(used);
      if (idx.size()) std::memcpy(grow(idx.size()), ix, idx.size() * sizeof(std::int64_t));
      for (std::size_t i = 0; i < m; ++i, ++cell) offsets[cell + 1] = base + co[i + 1];
      continue;
    }
    const std::size_t k = b.connectivity.ndim() == 2 ? b.connectivity.dim(1) : 1;
    const std::size_t base = used;
    if (shared) {
      for (std::size_t i = 0; i < m; ++i, ++cell) offsets[cell + 1] = static_cast<std::int64_t>((i + 1) * k);
      continue;
    }
    std::int64_t* dst = grow(m * k);
    visit_dtype(b.connectivity.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* src = static_cast<const T*>(b.connectivity.raw());
      if (wt.order.empty()) {
        for (std::size_t j = 0; j < m * k; ++j) dst[j] = static_cast<std::int64_t>(src[j]);
      } else {
        for (std::size_t i = 0; i < m; ++i)
          for (std::size_t j = 0; j < k; ++j) dst[i * k + j] = static_cast<std::int64_t>(src[i * k + static_cast<std::size_t>(wt.order[j])]);
      }
    });
    for (std::size_t i = 0; i < m; ++i, ++cell) offsets[cell + 1] = static_cast<std::int64_t>(base + (i + 1) * k);
  }
  out.connectivity = out.has_polyhedra ? NDArray::from_vector(conn) : conn_array;
  return out;
}

}  // namespace meshioplusplus::vtk

namespace meshioplusplus::vtk {

NDArray points_3d(const NDArray& points) {
  if (points.ndim() != 2 || points.dim(1) != 2) return points;
  NDArray p3 = NDArray::zeros(points.dtype(), {points.dim(0), 3});
  const std::size_t w = dtype_size(points.dtype());
  for (std::size_t i = 0; i < points.dim(0); ++i)
    std::memcpy(static_cast<char*>(p3.raw()) + 3 * w * i, static_cast<const char*>(points.raw()) + 2 * w * i, 2 * w);
  return p3;
}

NDArray concat_cell_data(const std::string& name, const std::vector<NDArray>& list, std::string_view format,
                         std::string_view path) {
  if (list.size() == 1) return list[0];
  if (list.empty()) return NDArray::uninit(DType::float64, {0});
  DType dt = list[0].dtype();
  bool any_float = false;
  for (const auto& a : list) any_float = any_float || dtype_is_float(a.dtype());
  for (const auto& a : list)
    if (a.dtype() != dt) dt = any_float ? DType::float64 : DType::int64;
  std::size_t rows = 0;
  for (const auto& a : list) {
    if (a.row_size() != list[0].row_size())
      throw write_error(format, path, "cell_data['" + name + "']: the blocks' arrays differ in shape");
    rows += a.dim(0);
  }
  NDArray::Shape shape = list[0].shape();
  shape[0] = rows;
  NDArray out = NDArray::uninit(dt, shape);
  std::size_t at = 0;
  for (const auto& a : list) {
    const NDArray c = a.as_dtype(dt);
    if (c.nbytes()) std::memcpy(static_cast<char*>(out.raw()) + at, c.raw(), c.nbytes());
    at += c.nbytes();
  }
  return out;
}

}  // namespace meshioplusplus::vtk
