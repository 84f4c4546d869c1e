// meshio++ formats, Gmsh MSH 4.1 writer, ASCII and binary (the reader of 4.0 and 4.1 is
// gmsh4_read.cpp).
// Spec: https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format
//
// Layout (binary: the same values, raw, host byte order; size_t of 8 bytes, int of 4):
//   $Entities  numPoints numCurves numSurfaces numVolumes, then per entity its tag, box,
//              physical tags and (dim > 0) bounding entities
//   $Nodes     numEntityBlocks numNodes minNodeTag maxNodeTag; per block
//              entityDim entityTag parametric numNodesInBlock, the block's node tags, then
//              its coordinates (x y z)
//   $Elements  numEntityBlocks numElements minElementTag maxElementTag; per block
//              entityDim entityTag elementType numElementsInBlock, then rows
//              elementTag nodeTag...
//   $Periodic  numPeriodicLinks; per link entityDim entityTag entityTagMaster,
//              numAffine value..., numCorrespondingNodes, (nodeTag nodeTagMaster)...
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

void write_entities(Out& out, const WritePlan& plan) {
  std::uint64_t counts[4] = {0, 0, 0, 0};
  for (const auto& e : plan.entities) ++counts[e.dim];
  out.w.str("$Entities\n");
  if (out.binary) for (auto c : counts) out.put<std::uint64_t>(c);
  else out.w.integer(counts[0]).ch(' ').integer(counts[1]).ch(' ').integer(counts[2]).ch(' ').integer(counts[3]).ch('\n');
  for (int dim = 0; dim < 4; ++dim) {
    std::vector<const WriteEntity*> list;
    for (const auto& e : plan.entities) if (e.dim == dim) list.push_back(&e);
    std::sort(list.begin(), list.end(), [](auto a, auto b) { return a->tag < b->tag; });
    for (const WriteEntity* e : list) {
      const std::size_t nbox = dim == 0 ? 3 : 6;
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

void write_nodes(Out& out, const Mesh& mesh, const WritePlan& plan) {
  const std::uint64_t n = mesh.num_points();
  const NDArray xyz = coordinates(mesh);
  out.w.str("$Nodes\n");
  const std::uint64_t head[4] = {plan.node_runs.size(), n, n ? 1u : 0u, n};
  if (out.binary) for (auto v : head) out.put<std::uint64_t>(v);
  else out.w.integer(head[0]).ch(' ').integer(head[1]).ch(' ').integer(head[2]).ch(' ').integer(head[3]).ch('\n');
  for (const auto& run : plan.node_runs) {
    const WriteEntity& e = plan.entities[static_cast<std::size_t>(run.entity)];
    const auto m = static_cast<std::uint64_t>(run.end - run.begin);
    const NDArray rows = NDArray::view(const_cast<double*>(xyz.data<double>()) + 3 * run.begin, DType::float64, {m, 3});
    if (out.binary) {
      out.put<std::int32_t>(e.dim); out.put<std::int32_t>(e.tag); out.put<std::int32_t>(0); out.put<std::uint64_t>(m);
      for (std::int64_t i = run.begin; i < run.end; ++i) out.put<std::uint64_t>(static_cast<std::uint64_t>(i) + 1);
      io::write_binary(out.w, rows, io::host_is_little_endian());
    } else {
      out.w.integer(e.dim).ch(' ').integer(e.tag).str(" 0 ").integer(m).ch('\n');
      for (std::int64_t i = run.begin; i < run.end; ++i) out.w.integer(i + 1).ch('\n');
      io::write_ascii(out.w, rows, out.ff);
    }
  }
  if (out.binary) out.w.ch('\n');
  out.w.str("$EndNodes\n");
}

void write_elements(Out& out, const Mesh& mesh, const WritePlan& plan) {
  std::uint64_t nblocks = 0;
  for (const auto& bp : plan.blocks) nblocks += bp.groups.size();
  const std::uint64_t total = mesh.num_cells();
  const auto bases = block_bases(mesh.cells);
  out.w.str("$Elements\n");
  const std::uint64_t head[4] = {nblocks, total, total ? 1u : 0u, total};
  if (out.binary) for (auto v : head) out.put<std::uint64_t>(v);
  else out.w.integer(head[0]).ch(' ').integer(head[1]).ch(' ').integer(head[2]).ch(' ').integer(head[3]).ch('\n');
  for (std::size_t b = 0; b < plan.blocks.size(); ++b) {
    const BlockPlan& bp = plan.blocks[b];
    const ElementType& t = *bp.type;
    const auto k = static_cast<std::size_t>(t.num_nodes);
    const NDArray& conn = mesh.cells[b].connectivity;
    for (const auto& group : bp.groups) {
      // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
      const auto& cells = group.second;
      const WriteEntity& e = plan.entities[static_cast<std::size_t>(group.first)];
      const std::uint64_t m = cells.empty() ? mesh.cells[b].size() : cells.size();
      if (out.binary) { out.put<std::int32_t>(e.dim); out.put<std::int32_t>(e.tag); out.put<std::int32_t>(t.id); out.put<std::uint64_t>(m); }
      else out.w.integer(e.dim).ch(' ').integer(e.tag).ch(' ').integer(t.id).ch(' ').integer(m).ch('\n');
      std::uint64_t row[1 + 1000];
      element_rows(conn, t, m, cells, row + 1, [&](std::size_t, std::size_t local) {
        row[0] = static_cast<std::uint64_t>(bases[b]) + local + 1;
        if (out.binary) {
          out.bytes(row, (k + 1) * 8);
        } else {
          out.w.integer(row[0]);
          for (std::size_t i = 1; i <= k; ++i) out.w.ch(' ').integer(row[i]);
          out.w.ch('\n');
        }
      });
    }
  }
  if (out.binary) out.w.ch('\n');
  out.w.str("$EndElements\n");
}

void write_periodic(Out& out, const Mesh& mesh) {
  if (mesh.gmsh_periodic.empty()) return;
  out.w.str("$Periodic\n");
  if (out.binary) out.put<std::uint64_t>(mesh.gmsh_periodic.size());
  else out.w.integer(mesh.gmsh_periodic.size()).ch('\n');
  for (const PeriodicLink& l : mesh.gmsh_periodic) {
    const std::size_t npairs = l.node_pairs.size() / 2;
    if (out.binary) {
      out.put<std::int32_t>(l.dim); out.put<std::int32_t>(l.tag); out.put<std::int32_t>(l.master_tag);
      out.put<std::uint64_t>(l.affine.size());
      for (double a : l.affine) out.put(a);
      out.put<std::uint64_t>(npairs);
      for (std::size_t i = 0; i < 2 * npairs; ++i) out.put<std::uint64_t>(static_cast<std::uint64_t>(l.node_pairs.value_as_int64(i)) + 1);
    } else {
      out.w.integer(l.dim).ch(' ').integer(l.tag).ch(' ').integer(l.master_tag).ch('\n').integer(l.affine.size());
      for (double a : l.affine) out.w.ch(' ').real(a, io::FloatFormat{});
      out.w.ch('\n').integer(npairs).ch('\n');
      for (std::size_t i = 0; i < npairs; ++i)
        out.w.integer(l.node_pairs.value_as_int64(2 * i) + 1).ch(' ').integer(l.node_pairs.value_as_int64(2 * i + 1) + 1).ch('\n');
    }
  }
  if (out.binary) out.w.ch('\n');
  out.w.str("$EndPeriodic\n");
}

}  // namespace

void write41(const std::string& path, const Mesh& mesh, const WriteOptions& opt) {
  const WritePlan plan = plan_write(mesh, true, path);
  Out out(path, opt);
  write_header(out, "4.1");
  write_physical_names(out, plan);
  write_entities(out, plan);
  write_nodes(out, mesh, plan);
  write_elements(out, mesh, plan);
  write_periodic(out, mesh);
  write_data_sections(out, mesh);
  out.commit();
}

}  // namespace meshioplusplus::gmsh
