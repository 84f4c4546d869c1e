// meshio++ formats, Gmsh MSH 4.0 and 4.1: one writer, ASCII and binary, driven by the same
// Layout as the reader (gmsh4_read.cpp): the versions differ only in field order and widths.
// Spec: https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format (4.1) and
// https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format-version-4-_0028Legacy_0029 (4.0).
//
// Binary: the same values as ASCII, raw, host byte order; size_t/long of 8 bytes, int of 4.
//   $Entities  numPoints numCurves numSurfaces numVolumes, then per entity its tag, box,
//              physical tags and (dim > 0) bounding entities (none written). 4.0: every
//              entity has a 6-double box; 4.1: a point has 3 coordinates.
//   $Nodes     numEntityBlocks numNodes [4.1: minNodeTag maxNodeTag]; per block
//              4.0: entityTag entityDim, 4.1: entityDim entityTag; then parametric (0)
//              numNodesInBlock; 4.0: rows nodeTag(int) x y z; 4.1: the block's node tags
//              (size_t), then its coordinates
//   $Elements  numEntityBlocks numElements [4.1: minElementTag maxElementTag]; per block
//              (entity tag and dimension as in $Nodes) elementType numElementsInBlock,
//              then rows elementTag nodeTag... (4.0: int; 4.1: size_t)
//   $Periodic  numPeriodicLinks; per link dim slaveTag masterTag; 4.1: numAffine values...
//              numCorrespondingNodes (size_t); 4.0: ASCII an "Affine" line when there is
//              one, binary numNodes (long), negative when 16 affine doubles and numNodes
//              follow; then the node tag pairs (4.0: int; 4.1: size_t)
// 4.0 tags are 4-byte ints, so meshes over 2^31 - 1 points or cells cannot be written in it.
#include <algorithm>

#include "core/io/array_writer.hpp"
#include "formats/gmsh/gmsh_common.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::gmsh {

namespace {

// The points as Gmsh stores them: (n, 3) float64 (2-D points get z = 0); no copy when
// they already are.
NDArray coordinates(const Mesh& mesh) {
  const NDArray& p = mesh.points;
  if (p.dtype() == DType::float64 && p.ndim() == 2 && p.dim(1) == 3) return p;
  const std::size_t n = mesh.num_points(), pdim = p.dim(1);
  NDArray out = NDArray::zeros(DType::float64, {n, 3});
  double* o = out.data<double>();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t c = 0; c < pdim && c < 3; ++c) o[3 * i + c] = p.value_as_double(i * pdim + c);
  return out;
}

// A section's counts, then (4.1) the tag range 1..count.
void section_head(Out& out, const Layout& L, std::uint64_t blocks, std::uint64_t count) {
  const std::uint64_t head[4] = {blocks, count, count ? 1u : 0u, count};
  const std::size_t n = L.tag_range ? 4 : 2;
  for (std::size_t i = 0; i < n; ++i) {
    if (out.binary) out.put<std::uint64_t>(head[i]);
    else out.w.integer(head[i]).ch(i + 1 < n ? ' ' : '\n');
  }
}

// A node or element block's head: the entity (in the version's order), then `third`
// (parametric or the element type) and the row count.
void block_head(Out& out, const Layout& L, const WriteEntity& e, int third, std::uint64_t m) {
  const int a = L.dim_first ? e.dim : e.tag, b = L.dim_first ? e.tag : e.dim;
  if (out.binary) { out.put<std::int32_t>(a); out.put<std::int32_t>(b); out.put<std::int32_t>(third); out.put<std::uint64_t>(m); }
  else out.w.integer(a).ch(' ').integer(b).ch(' ').integer(third).ch(' ').integer(m).ch('\n');
}

void write_entities(Out& out, const Layout& L, const WritePlan& plan) {
  std::uint64_t counts[4] = {0, 0, 0, 0};
  for (const auto& e : plan.entities) ++counts[e.dim];
  out.w.str("$Entities\n");
  if (out.binary) for (auto c : counts) out.put<std::uint64_t>(c);
  else out.w.integer(counts[0]).ch(' ').integer(counts[1]).ch(' ').integer(counts[2]).ch(' ').integer(counts[3]).ch('\n');
  for (int dim = 0; dim < 4; ++dim) {
    std::vector<const WriteEntity*> list;
    for (const auto& e : plan.entities) if (e.dim == dim) list.push_back(&e);
    std::sort(list.begin(), list.end(), [](auto a, auto b) { return a->tag < b->tag; });
    const std::size_t nbox = (dim == 0 && !L.point_box) ? 3 : 6;
    for (const WriteEntity* e : list) {
      if (out.binary) {
        out.put<std::int32_t>(e->tag);
        for (std::size_t i = 0; i < nbox; ++i) out.put<double>(e->box[i]);
        out.put<std::uint64_t>(e->physicals.size());
        for (int p : e->physicals) out.put<std::int32_t>(p);
        if (dim > 0) out.put<std::uint64_t>(0);
      } else {
        out.w.integer(e->tag);
        for (std::size_t i = 0; i < nbox; ++i) out.w.ch(' ').real(e->box[i], io::FloatFormat{});
        out.w.ch(' ').integer(e->physicals.size());
        for (int p : e->physicals) out.w.ch(' ').integer(p);
        if (dim > 0) out.w.str(" 0");
        out.w.ch('\n');
      }
    }
  }
  if (out.binary) out.w.ch('\n');
  out.w.str("$EndEntities\n");
}

void write_nodes(Out& out, const Layout& L, const Mesh& mesh, const WritePlan& plan) {
  const NDArray xyz = coordinates(mesh);
  const double* x = xyz.data<double>();
  out.w.str("$Nodes\n");
  section_head(out, L, plan.node_runs.size(), mesh.num_points());
  for (const auto& run : plan.node_runs) {
    const WriteEntity& e = plan.entities[static_cast<std::size_t>(run.entity)];
    const auto m = static_cast<std::uint64_t>(run.end - run.begin);
    block_head(out, L, e, 0, m);
    if (L.tags_then_coords) {
      const NDArray rows = NDArray::view(const_cast<double*>(x) + 3 * run.begin, DType::float64, {m, 3});
      if (out.binary) {
        // The tags run.begin + 1 .. run.end, a batch at a time, then the coordinates whole.
        std::vector<std::uint64_t> tags(std::min<std::size_t>(m, 1 << 19));
        for (std::uint64_t i0 = 0; i0 < m; i0 += tags.size()) {
          const std::uint64_t n = std::min<std::uint64_t>(tags.size(), m - i0);
          for (std::uint64_t i = 0; i < n; ++i) tags[i] = static_cast<std::uint64_t>(run.begin) + i0 + i + 1;
          out.bytes(tags.data(), n * 8);
        }
        io::write_binary(out.w, rows, io::host_is_little_endian());
      } else {
        for (std::int64_t i = run.begin; i < run.end; ++i) out.w.integer(i + 1).ch('\n');
        io::write_ascii(out.w, rows, out.ff);
      }
      continue;
    }
    for (std::int64_t i = run.begin; i < run.end; ++i) {
      const double* r = x + 3 * i;
      if (out.binary) {
        out.put<std::int32_t>(static_cast<std::int32_t>(i + 1));
        out.put(r[0]); out.put(r[1]); out.put(r[2]);
      } else {
        out.w.integer(i + 1).ch(' ').real(r[0], out.ff).ch(' ').real(r[1], out.ff).ch(' ').real(r[2], out.ff).ch('\n');
      }
    }
  }
  if (out.binary) out.w.ch('\n');
  out.w.str("$EndNodes\n");
}

// Rows "elementTag nodeTag..." of one element block, tags of type Tag (4.0: int; 4.1: size_t).
template <class Tag>
void element_block(Out& out, const NDArray& conn, const ElementType& t, std::uint64_t m, const std::vector<std::int64_t>& cells,
                   std::int64_t base) {
  if (out.binary) {
    binary_element_rows<Tag, 1>(out, conn, t, m, cells, [&](std::size_t, std::size_t local, Tag* row) {
      row[0] = static_cast<Tag>(static_cast<std::uint64_t>(base) + local + 1);
    });
    return;
  }
  const auto k = static_cast<std::size_t>(t.num_nodes);
  Tag row[1 + 1000];
  element_rows(conn, t, m, cells, row + 1, [&](std::size_t, std::size_t local) {
    out.w.integer(static_cast<std::uint64_t>(base) + local + 1);
    for (std::size_t i = 1; i <= k; ++i) out.w.ch(' ').integer(row[i]);
    out.w.ch('\n');
  });
}

void write_elements(Out& out, const Layout& L, const Mesh& mesh, const WritePlan& plan) {
  std::uint64_t nblocks = 0;
  for (const auto& bp : plan.blocks) nblocks += bp.groups.size();
  const auto bases = block_bases(mesh.cells);
  out.w.str("$Elements\n");
  section_head(out, L, nblocks, mesh.num_cells());
  for (std::size_t b = 0; b < plan.blocks.size(); ++b) {
    const BlockPlan& bp = plan.blocks[b];
    const ElementType& t = *bp.type;
    const NDArray& conn = mesh.cells[b].connectivity;
    for (const auto& group : bp.groups) {
      const auto& cells = group.second;
      const WriteEntity& e = plan.entities[static_cast<std::size_t>(group.first)];
      const std::uint64_t m = cells.empty() ? mesh.cells[b].size() : cells.size();
      block_head(out, L, e, t.id, m);
      if (L.size_t_tags) element_block<std::uint64_t>(out, conn, t, m, cells, bases[b]);
      else element_block<std::int32_t>(out, conn, t, m, cells, bases[b]);
    }
  }
  if (out.binary) out.w.ch('\n');
  out.w.str("$EndElements\n");
}

void write_periodic(Out& out, const Layout& L, const Mesh& mesh) {
  if (mesh.gmsh_periodic.empty()) return;
  out.w.str("$Periodic\n");
  if (out.binary) out.put<std::uint64_t>(mesh.gmsh_periodic.size());  // 4.0's long: the same 8 bytes
  else out.w.integer(mesh.gmsh_periodic.size()).ch('\n');
  for (const PeriodicLink& l : mesh.gmsh_periodic) {
    const std::size_t npairs = l.node_pairs.size() / 2;
    if (out.binary) {
      out.put<std::int32_t>(l.dim); out.put<std::int32_t>(l.tag); out.put<std::int32_t>(l.master_tag);
      if (L.affine_count) {
        out.put<std::uint64_t>(l.affine.size());
        for (double a : l.affine) out.put(a);
      } else if (!l.affine.empty()) {
        out.put<std::int64_t>(-1);
        for (double a : l.affine) out.put(a);
      }
      out.put<std::uint64_t>(npairs);
      for (std::size_t i = 0; i < 2 * npairs; ++i) {
        const std::int64_t tag = l.node_pairs.value_as_int64(i) + 1;
        if (L.size_t_tags) out.put<std::uint64_t>(static_cast<std::uint64_t>(tag));
        else out.put<std::int32_t>(static_cast<std::int32_t>(tag));
      }
    } else {
      out.w.integer(l.dim).ch(' ').integer(l.tag).ch(' ').integer(l.master_tag).ch('\n');
      if (L.affine_count || !l.affine.empty()) {
        if (L.affine_count) out.w.integer(l.affine.size());
        else out.w.str("Affine");
        for (double a : l.affine) out.w.ch(' ').real(a, io::FloatFormat{});
        out.w.ch('\n');
      }
      out.w.integer(npairs).ch('\n');
      for (std::size_t i = 0; i < npairs; ++i)
        out.w.integer(l.node_pairs.value_as_int64(2 * i) + 1).ch(' ').integer(l.node_pairs.value_as_int64(2 * i + 1) + 1).ch('\n');
    }
  }
  if (out.binary) out.w.ch('\n');
  out.w.str("$EndPeriodic\n");
}

}  // namespace

void write4(const std::string& path, const Mesh& mesh, const WriteOptions& opt, const Layout& L) {
  if (!L.size_t_tags && (mesh.num_points() > 0x7fffffffu || mesh.num_cells() > 0x7fffffffu))
    throw write_error(kFormat, path, "MSH 4.0 tags are 4-byte ints: at most 2147483647 points and cells");
  const WritePlan plan = plan_write(mesh, true, path);
  Out out(path, opt);
  write_header(out, L.size_t_tags ? "4.1" : "4.0");
  write_physical_names(out, plan);
  write_entities(out, L, plan);
  write_nodes(out, L, mesh, plan);
  write_elements(out, L, mesh, plan);
  write_periodic(out, L, mesh);
  write_data_sections(out, mesh);
  out.commit();
}

}  // namespace meshioplusplus::gmsh
