// meshio++ core: concatenate(parts), one mesh made of several (the pieces of a VTK parallel
// collection, the parts of a PVD time step). Declared and documented in mesh_ops.hpp.
//
// Cells keep their order: part 0's cells, then part 1's, ... A block continues the last
// block when both hold the same cell type (and, rectangular, the same node count), so the
// blocks are the runs of one type in that order, exactly what one file holding all the
// parts' cells gives. Global cell indices are therefore the part's cell base plus the
// local index, which is how cell and side regions are shifted.
#include <cstring>
#include <stdexcept>

#include "meshioplusplus/mesh_ops.hpp"

namespace meshioplusplus {

namespace {

// Rows of `parts` stacked (all of one dtype and row shape; checked by the caller).
NDArray stack(const std::vector<const NDArray*>& parts, DType dtype) {
  NDArray::Shape shape = parts.front()->shape();
  std::size_t rows = 0;
  for (const NDArray* a : parts) rows += a->dim(0);
  shape[0] = rows;
  NDArray out = NDArray::uninit(dtype, shape);
  auto* dst = static_cast<char*>(out.raw());
  for (const NDArray* a : parts) {
    NDArray c = a->as_dtype(dtype);
    if (c.nbytes()) std::memcpy(dst, c.raw(), c.nbytes());
    dst += c.nbytes();
  }
  return out;
}

// Integer arrays stacked into int64 with `shift[i]` added to every value of part i.
NDArray stack_shifted(const std::vector<const NDArray*>& parts, const std::vector<std::int64_t>& shift) {
  NDArray out = stack(parts, DType::int64);
  auto* v = out.data<std::int64_t>();
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::size_t n = parts[i]->size();
    for (std::size_t j = 0; j < n; ++j) v[j] += shift[i];
    v += n;
  }
  return out;
}

// Offsets arrays (each (m_i + 1,), starting at 0) joined: part i shifted by the end of the
// previous, its leading 0 dropped.
NDArray join_offsets(const std::vector<const NDArray*>& parts) {
  std::size_t n = 1;
  for (const NDArray* a : parts) n += a->size() - 1;
  NDArray out = NDArray::uninit(DType::int64, {n});
  auto* v = out.data<std::int64_t>();
  v[0] = 0;
  std::size_t at = 1;
  for (const NDArray* a : parts) {
    const NDArray o = a->as_dtype(DType::int64);
    const auto* s = o.data<const std::int64_t>();
    const std::int64_t base = v[at - 1] - s[0];
    for (std::size_t j = 1; j < o.size(); ++j) v[at++] = s[j] + base;
  }
  return out;
}

bool continues(const CellBlock& last, const CellBlock& next) {
  if (last.type != next.type || last.ragged != next.ragged) return false;
  return last.ragged || last.nodes_per_cell() == next.nodes_per_cell();
}

// One run of blocks (from several parts) merged; shift[i] = points before block i's part.
CellBlock merge_run(const std::vector<const CellBlock*>& run, const std::vector<std::int64_t>& shift) {
  if (run.size() == 1 && shift[0] == 0) return *run[0];
  const CellBlock& first = *run[0];
  if (!first.ragged) {
    std::vector<const NDArray*> conn;
    for (const CellBlock* b : run) conn.push_back(&b->connectivity);
    return CellBlock::rectangular(first.type, stack_shifted(conn, shift));
  }
  std::vector<const NDArray*> offsets, indices, face_offsets;
  for (const CellBlock* b : run) {
    offsets.push_back(&b->offsets), indices.push_back(&b->indices);
    if (first.type == "polyhedron") face_offsets.push_back(&b->face_offsets);
  }
  CellBlock out = first.type == "polyhedron"
                      ? CellBlock::polyhedra(join_offsets(offsets), join_offsets(face_offsets), stack_shifted(indices, shift))
                      : CellBlock::polygons(join_offsets(offsets), stack_shifted(indices, shift));
  out.type = first.type;
  return out;
}

// Checks that part `part` holds the array like part 0 does (dtype, row shape).
void check_like(const NDArray& ref, const NDArray* found, const std::string& what, std::size_t part) {
  if (!found) throw std::invalid_argument(what + " is missing from part " + std::to_string(part));
  NDArray::Shape a = ref.shape(), b = found->shape();
  a.erase(a.begin()), b.erase(b.begin());
  if (a != b || found->dtype() != ref.dtype())
    throw std::invalid_argument(what + " of part " + std::to_string(part) + " is " + std::string(dtype_name(found->dtype())) +
                                " with " + std::to_string(found->row_size()) + " values a row; part 0 has " +
                                std::string(dtype_name(ref.dtype())) + " with " + std::to_string(ref.row_size()));
}

}  // namespace

Mesh concatenate(const std::vector<Mesh>& parts) {
  if (parts.empty()) throw std::invalid_argument("concatenate: no parts");
  if (parts.size() == 1) return parts[0];
  Mesh out;
  // Points: float64 unless every part has the same dtype; one dimension for all.
  DType pdt = parts[0].points.dtype();
  std::vector<const NDArray*> pts;
  std::vector<std::int64_t> point_base, cell_base;
  std::int64_t np = 0, nc = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Mesh& m = parts[i];
    if (m.points.dtype() != pdt) pdt = DType::float64;
    if (m.points.dim(1) != parts[0].points.dim(1))
      throw std::invalid_argument("points of part " + std::to_string(i) + " have " + std::to_string(m.points.dim(1)) +
                                  " coordinates; part 0 has " + std::to_string(parts[0].points.dim(1)));
    pts.push_back(&m.points);
    point_base.push_back(np), cell_base.push_back(nc);
    np += static_cast<std::int64_t>(m.num_points()), nc += static_cast<std::int64_t>(m.num_cells());
  }
  out.points = stack(pts, pdt);

  // Blocks: runs of one type across the parts; cell data follows the same runs.
  struct Source {
    std::size_t part, block;
  };
  std::vector<std::vector<Source>> runs;
  for (std::size_t i = 0; i < parts.size(); ++i)
    for (std::size_t b = 0; b < parts[i].cells.size(); ++b) {
      const CellBlock& blk = parts[i].cells[b];
      if (!runs.empty()) {
        const Source& last = runs.back().back();
        if (continues(parts[last.part].cells[last.block], blk)) {
          runs.back().push_back({i, b});
          continue;
        }
      }
      runs.push_back({{i, b}});
    }
  for (const auto& run : runs) {
    std::vector<const CellBlock*> blocks;
    std::vector<std::int64_t> shift;
    for (const Source& s : run) blocks.push_back(&parts[s.part].cells[s.block]), shift.push_back(point_base[s.part]);
    out.cells.push_back(merge_run(blocks, shift));
  }

  // Point and cell data: the names of part 0, present alike in every part.
  for (const auto& [name, ref] : parts[0].point_data) {
    std::vector<const NDArray*> list;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      auto it = parts[i].point_data.find(name);
      check_like(ref, it == parts[i].point_data.end() ? nullptr : &it->second, "point data '" + name + "'", i);
      list.push_back(&it->second);
    }
    out.point_data[name] = stack(list, ref.dtype());
  }
  for (const auto& [name, ref_list] : parts[0].cell_data) {
    for (std::size_t i = 0; i < parts.size(); ++i) {
      auto it = parts[i].cell_data.find(name);
      if (it == parts[i].cell_data.end() || it->second.size() != parts[i].cells.size())
        throw std::invalid_argument("cell data '" + name + "' is missing from part " + std::to_string(i));
      if (!ref_list.empty())
        for (const NDArray& a : it->second) check_like(ref_list[0], &a, "cell data '" + name + "'", i);
    }
    std::vector<NDArray> per_block;
    for (const auto& run : runs) {
      std::vector<const NDArray*> list;
      for (const Source& s : run) list.push_back(&parts[s.part].cell_data.at(name)[s.block]);
      per_block.push_back(list.size() == 1 ? *list[0] : stack(list, list[0]->dtype()));
    }
    out.cell_data[name] = std::move(per_block);
  }
  for (std::size_t i = 1; i < parts.size(); ++i) {
    for (const auto& entry : parts[i].point_data)
      if (!parts[0].point_data.count(entry.first))
        throw std::invalid_argument("point data '" + entry.first + "' is missing from part 0");
    for (const auto& entry : parts[i].cell_data)
      if (!parts[0].cell_data.count(entry.first))
        throw std::invalid_argument("cell data '" + entry.first + "' is missing from part 0");
  }

  // Field data: part 0's (VTK keeps the first piece's too).
  out.field_data = parts[0].field_data;

  // Regions of one name and kind are one region; entries shifted to the merged numbering.
  for (std::size_t i = 0; i < parts.size(); ++i)
    for (const Region& r : parts[i].regions) {
      Region* into = nullptr;
      for (Region& have : out.regions)
        if (have.name == r.name && have.kind == r.kind) into = &have;
      const std::int64_t shift = r.kind == RegionKind::point ? point_base[i] : cell_base[i];
      NDArray e = r.entries.as_dtype(DType::int64).copy();
      auto* v = e.data<std::int64_t>();
      const std::size_t stride = r.kind == RegionKind::side ? 2 : 1;
      for (std::size_t j = 0; j < e.size(); j += stride) v[j] += shift;  // sides: (cell, facet)
      if (!into) {
        Region copy = r;
        copy.entries = std::move(e);
        out.regions.push_back(std::move(copy));
      } else {
        into->entries = stack({&into->entries, &e}, DType::int64);
      }
    }
  for (Region& r : out.regions) r.canonicalize();
  for (const Mesh& m : parts) out.warnings.insert(out.warnings.end(), m.warnings.begin(), m.warnings.end());
  return out;
}

}  // namespace meshioplusplus
