// meshio++ formats, Gmsh MSH 4.0 writer (meshio's fmt_version="4.0"), ASCII and binary.
// Spec: https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format-version-4-_0028Legacy_0029
// (the layout gmsh40.cpp reads; the differences from 4.1 that matter here):
//   $Entities  every entity, points included, has a 6-double box; no box-less points
//   $Nodes     numEntityBlocks numNodes; per block tagEntity dimEntity parametric numNodes
//              (tag before dim), then one row per node: nodeTag(int) x y z
//   $Elements  numEntityBlocks numElements; per block tagEntity dimEntity typeEle
//              numElements, then rows elementTag(int) nodeTag(int)...
//   $Periodic  dim slaveTag masterTag; ASCII: an "Affine" line when there is one;
//              binary: numNodes(long), negative when 16 affine doubles and numNodes follow
// "unsigned long" values are 8 bytes (data-size 8); tags are 4-byte ints, so meshes over
// 2^31 - 1 points or cells cannot be written in this version.
#include <algorithm>

#include "formats/gmsh/gmsh_common.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::gmsh {

namespace {

void entities40(Out& out, const WritePlan& plan) {
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
      if (out.binary) {
        out.put<std::int32_t>(e->tag);
        for (double v : e->box) out.put<double>(v);
        out.put<std::uint64_t>(e->physicals.size());
        for (int p : e->physicals) out.put<std::int32_t>(p);
        if (dim > 0) out.put<std::uint64_t>(0);
      } else {
        out.w.integer(e->tag);
        for (double v : e->box) out.w.ch(' ').real(v, io::FloatFormat{});
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

void nodes40(Out& out, const Mesh& mesh, const WritePlan& plan) {
  const std::uint64_t n = mesh.num_points();
  const std::size_t pdim = mesh.points.dim(1);
  out.w.str("$Nodes\n");
  if (out.binary) { out.put<std::uint64_t>(plan.node_runs.size()); out.put<std::uint64_t>(n); }
  else out.w.integer(plan.node_runs.size()).ch(' ').integer(n).ch('\n');
  for (const auto& run : plan.node_runs) {
    const WriteEntity& e = plan.entities[static_cast<std::size_t>(run.entity)];
    const auto m = static_cast<std::uint64_t>(run.end - run.begin);
    if (out.binary) { out.put<std::int32_t>(e.tag); out.put<std::int32_t>(e.dim); out.put<std::int32_t>(0); out.put<std::uint64_t>(m); }
    else out.w.integer(e.tag).ch(' ').integer(e.dim).str(" 0 ").integer(m).ch('\n');
    for (std::int64_t i = run.begin; i < run.end; ++i) {
      double x[3] = {0, 0, 0};
      for (std::size_t c = 0; c < pdim && c < 3; ++c) x[c] = mesh.points.value_as_double(static_cast<std::size_t>(i) * pdim + c);
      if (out.binary) {
        out.put<std::int32_t>(static_cast<std::int32_t>(i + 1));
        out.put(x[0]); out.put(x[1]); out.put(x[2]);
      } else {
        out.w.integer(i + 1).ch(' ').real(x[0], out.ff).ch(' ').real(x[1], out.ff).ch(' ').real(x[2], out.ff).ch('\n');
      }
    }
  }
  if (out.binary) out.w.ch('\n');
  out.w.str("$EndNodes\n");
}

void elements40(Out& out, const Mesh& mesh, const WritePlan& plan) {
  std::uint64_t nblocks = 0;
  for (const auto& bp : plan.blocks) nblocks += bp.groups.size();
  const auto bases = block_bases(mesh.cells);
  out.w.str("$Elements\n");
  if (out.binary) { out.put<std::uint64_t>(nblocks); out.put<std::uint64_t>(mesh.num_cells()); }
  else out.w.integer(nblocks).ch(' ').integer(mesh.num_cells()).ch('\n');
  for (std::size_t b = 0; b < plan.blocks.size(); ++b) {
    const BlockPlan& bp = plan.blocks[b];
    const ElementType& t = *bp.type;
    const auto k = static_cast<std::size_t>(t.num_nodes);
    const NDArray& conn = mesh.cells[b].connectivity;
    for (const auto& group : bp.groups) {
      const WriteEntity& e = plan.entities[static_cast<std::size_t>(group.first)];
      const std::vector<std::int64_t>& cells = group.second;
      const std::uint64_t m = cells.empty() ? mesh.cells[b].size() : cells.size();
      if (out.binary) { out.put<std::int32_t>(e.tag); out.put<std::int32_t>(e.dim); out.put<std::int32_t>(t.id); out.put<std::uint64_t>(m); }
      else out.w.integer(e.tag).ch(' ').integer(e.dim).ch(' ').integer(t.id).ch(' ').integer(m).ch('\n');
      std::vector<std::int32_t> row(k + 1);
      for (std::uint64_t j = 0; j < m; ++j) {
        const auto local = static_cast<std::size_t>(cells.empty() ? j : static_cast<std::uint64_t>(cells[j]));
        row[0] = static_cast<std::int32_t>(bases[b] + static_cast<std::int64_t>(local) + 1);
        for (std::size_t i = 0; i < k; ++i)
          row[i + 1] = static_cast<std::int32_t>(conn.value_as_int64(local * k + static_cast<std::size_t>(t.to_ours(static_cast<int>(i)))) + 1);
        if (out.binary) {
          out.bytes(row.data(), row.size() * sizeof(std::int32_t));
        } else {
          out.w.integer(row[0]);
          for (std::size_t i = 1; i <= k; ++i) out.w.ch(' ').integer(row[i]);
          out.w.ch('\n');
        }
      }
    }
  }
  if (out.binary) out.w.ch('\n');
  out.w.str("$EndElements\n");
}

void periodic40(Out& out, const Mesh& mesh) {
  if (mesh.gmsh_periodic.empty()) return;
  out.w.str("$Periodic\n");
  if (out.binary) out.put<std::int64_t>(static_cast<std::int64_t>(mesh.gmsh_periodic.size()));
  else out.w.integer(mesh.gmsh_periodic.size()).ch('\n');
  for (const PeriodicLink& l : mesh.gmsh_periodic) {
    const std::size_t npairs = l.node_pairs.size() / 2;
    if (out.binary) {
      out.put<std::int32_t>(l.dim); out.put<std::int32_t>(l.tag); out.put<std::int32_t>(l.master_tag);
      if (!l.affine.empty()) {
        out.put<std::int64_t>(-1);
        for (double a : l.affine) out.put(a);
      }
      out.put<std::int64_t>(static_cast<std::int64_t>(npairs));
      for (std::size_t i = 0; i < 2 * npairs; ++i) out.put<std::int32_t>(static_cast<std::int32_t>(l.node_pairs.value_as_int64(i) + 1));
    } else {
      out.w.integer(l.dim).ch(' ').integer(l.tag).ch(' ').integer(l.master_tag).ch('\n');
      if (!l.affine.empty()) {
        out.w.str("Affine");
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

void write40(const std::string& path, const Mesh& mesh, const WriteOptions& opt) {
  if (mesh.num_points() > 0x7fffffffu || mesh.num_cells() > 0x7fffffffu)
    throw write_error(kFormat, path, "MSH 4.0 tags are 4-byte ints: at most 2147483647 points and cells");
  const WritePlan plan = plan_write(mesh, true, path);
  Out out(path, opt);
  write_header(out, "4.0");
  write_physical_names(out, plan);
  entities40(out, plan);
  nodes40(out, mesh, plan);
  elements40(out, mesh, plan);
  periodic40(out, mesh);
  write_data_sections(out, mesh);
  out.commit();
}

}  // namespace meshioplusplus::gmsh
