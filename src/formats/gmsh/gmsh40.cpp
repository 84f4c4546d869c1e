// meshio++ formats, Gmsh MSH 4.0 (Gmsh 4.0 - 4.1.5; Gmsh still writes it with
// -format msh40, header version "4"): reader, ASCII and binary.
// Spec: https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format-version-4-_0028Legacy_0029
// (as archived with Gmsh 4.0; meshio's gmsh/_gmsh40.py reads the same layout):
//   $Entities  numPoints numCurves numSurfaces numVolumes (unsigned long); every entity,
//              points included, has a 6-double box; tags are int, counts unsigned long
//   $Nodes     numEntityBlocks numNodes; per block tagEntity dimEntity parametric
//              numNodes, then rows nodeTag(int) x y z [u v w]
//   $Elements  numEntityBlocks numElements; per block tagEntity dimEntity typeEle
//              numElements, then rows elementTag(int) nodeTag(int)...
//   $Periodic  numPeriodicLinks; dim slaveTag masterTag; ASCII: optional "Affine" line;
//              binary: numNodes(long), negative when 16 affine doubles and numNodes follow
// "unsigned long" values take data-size bytes in binary files.
#include <algorithm>

#include "formats/gmsh/gmsh_common.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::gmsh {

namespace {

void read_entities(ReadState& st) {
  Input& in = st.in;
  std::uint64_t counts[4];
  for (auto& c : counts) c = in.size("number of entities");
  for (int dim = 0; dim < 4; ++dim) {
    in.need(counts[dim], in.min_bytes(4 + 48 + 8), "entities");
    for (std::uint64_t i = 0; i < counts[dim]; ++i) {
      const int tag = in.int32("entity tag");
      in.skip_reals(6, "entity box");
      const auto nphys = in.size("number of physical tags");
      in.need(nphys, in.min_bytes(4), "physical tags");
      std::vector<int>& phys = st.entity_physicals[{dim, tag}];
      phys.clear();
      for (std::uint64_t k = 0; k < nphys; ++k) phys.push_back(in.int32("physical tag"));
      if (dim > 0) {
        const auto nbound = in.size("number of bounding entities");
        in.need(nbound, in.min_bytes(4), "bounding entities");
        for (std::uint64_t k = 0; k < nbound; ++k) in.int32("bounding entity tag");
      }
    }
  }
  st.have_entities = true;
  in.end_section("Entities");
}

void read_nodes(ReadState& st) {
  Input& in = st.in;
  if (st.nodes.built()) in.fail("a second $Nodes section");
  const auto nblocks = in.size("number of node blocks");
  const auto nnodes = in.size("number of nodes");
  in.need(nblocks, in.min_bytes(12 + static_cast<std::size_t>(in.size_bytes)), "node blocks");
  in.need(nnodes, in.binary ? 28 : 8, "nodes");
  const auto n = static_cast<std::size_t>(nnodes);
  st.points = NDArray::uninit(DType::float64, {n, 3});
  st.dim_tags = NDArray::uninit(DType::int64, {n, 2});
  st.node_tags.resize(n);
  double* xyz = st.points.data<double>();
  std::int64_t* dt = st.dim_tags.data<std::int64_t>();
  std::size_t filled = 0;
  for (std::uint64_t b = 0; b < nblocks; ++b) {
    const int tag = in.int32("entity tag");
    const int dim = in.int32("entity dimension");
    const char* at = in.cur.ptr();
    const int parametric = in.int32("parametric flag");
    if (parametric != 0 && parametric != 1) in.cur.fail_at("parametric flag 0 or 1, found " + std::to_string(parametric), at);
    at = in.cur.ptr();
    const auto count = in.size("number of nodes in block");
    if (count > n - filled) in.cur.fail_at("node blocks hold more than the " + std::to_string(n) + " nodes declared", at);
    const auto m = static_cast<std::size_t>(count);
    const std::size_t extra = parametric ? static_cast<std::size_t>(std::clamp(dim, 0, 3)) : 0;
    for (std::size_t i = filled; i < filled + m; ++i) {
      const char* at_tag = in.cur.ptr();
      const auto t = in.int32("node tag");
      if (t < 0) in.cur.fail_at("node tag " + std::to_string(t) + " is negative", at_tag);
      st.node_tags[i] = static_cast<std::uint64_t>(t);
      for (std::size_t c = 0; c < 3; ++c) xyz[3 * i + c] = in.real("coordinate");
      in.skip_reals(extra, "parametric coordinate");
      dt[2 * i] = dim;
      dt[2 * i + 1] = tag;
    }
    filled += m;
  }
  if (filled != n) in.fail("node blocks hold " + std::to_string(filled) + " nodes, the header declares " + std::to_string(n));
  st.nodes.build(st.node_tags, in);
  in.end_section("Nodes");
}

void read_elements(ReadState& st) {
  Input& in = st.in;
  st.require_nodes("Elements");
  if (st.have_elements) in.fail("a second $Elements section");
  const auto nblocks = in.size("number of element blocks");
  const auto nelem = in.size("number of elements");
  in.need(nblocks, in.min_bytes(12 + static_cast<std::size_t>(in.size_bytes)), "element blocks");
  in.need(nelem, in.min_bytes(4), "elements");
  std::uint64_t total = 0;
  for (std::uint64_t b = 0; b < nblocks; ++b) {
    const int tag = in.int32("entity tag");
    const int dim = in.int32("entity dimension");
    const char* at = in.cur.ptr();
    const int type_id = in.int32("element type");
    const ElementType* t = element_type(type_id);
    if (!t) in.cur.fail_at("unknown element type " + std::to_string(type_id), at);
    at = in.cur.ptr();
    const auto count = in.size("number of elements in block");
    if (count > nelem - total) in.cur.fail_at("element blocks hold more than the " + std::to_string(nelem) + " elements declared", at);
    const auto k = static_cast<std::size_t>(t->num_nodes);
    in.need(count, in.min_bytes(4) * (k + 1), "elements");
    const auto m = static_cast<std::size_t>(count);
    NDArray conn = NDArray::uninit(DType::int64, {m, k});
    std::int64_t* c = conn.data<std::int64_t>();
    for (std::size_t e = 0; e < m; ++e) {
      st.element_tags.push(static_cast<std::uint32_t>(in.int32("element tag")));
      for (std::size_t i = 0; i < k; ++i) {
        if (!in.binary) in.cur.skip_space();
        const char* at_node = in.cur.ptr();
        const auto ntag = in.int32("node tag");
        c[e * k + static_cast<std::size_t>(t->to_ours(static_cast<int>(i)))] =
            ntag < 0 ? st.node_index(~0ull, at_node) : st.node_index(static_cast<std::uint64_t>(ntag), at_node);
      }
    }
    total += count;
    st.blocks.push_back(CellBlock::rectangular(std::string(t->name), std::move(conn)));
    st.block_dim.push_back(dim);
    st.block_entity.push_back(tag);
  }
  if (total != nelem) in.fail("element blocks hold " + std::to_string(total) + " elements, the header declares " + std::to_string(nelem));
  st.have_elements = true;
  in.end_section("Elements");
}

void read_periodic(ReadState& st) {
  Input& in = st.in;
  st.require_nodes("Periodic");
  const auto nlinks = in.ssize("number of periodic links");
  if (nlinks < 0) in.fail("negative number of periodic links");
  in.need(static_cast<std::uint64_t>(nlinks), in.min_bytes(20), "periodic links");
  for (std::int64_t l = 0; l < nlinks; ++l) {
    PeriodicLink link;
    link.dim = in.int32("entity dimension");
    link.tag = in.int32("entity tag");
    link.master_tag = in.int32("master entity tag");
    std::int64_t npairs = 0;
    if (in.binary) {
      npairs = in.ssize("number of corresponding nodes");
      if (npairs < 0) {
        for (int i = 0; i < 16; ++i) link.affine.push_back(in.real("affine value"));
        npairs = static_cast<std::int64_t>(in.size("number of corresponding nodes"));
      }
    } else {
      in.cur.skip_space();
      if (in.cur.rest().substr(0, 6) == "Affine") {
        in.cur.token();
        in.cur.skip_blank();
        while (!in.cur.at_end() && *in.cur.ptr() != '\n') {
          link.affine.push_back(in.cur.number<double>("affine value"));
          in.cur.skip_blank();
        }
      }
      npairs = in.ssize("number of corresponding nodes");
    }
    if (npairs < 0) in.fail("negative number of corresponding nodes");
    in.need(static_cast<std::uint64_t>(npairs), 2 * in.min_bytes(4), "corresponding nodes");
    link.node_pairs = NDArray::uninit(DType::int64, {static_cast<std::size_t>(npairs), 2});
    std::int64_t* o = link.node_pairs.data<std::int64_t>();
    for (std::size_t i = 0; i < 2 * static_cast<std::size_t>(npairs); ++i) {
      if (!in.binary) in.cur.skip_space();
      const char* at = in.cur.ptr();
      const auto t = in.int32("node tag");
      o[i] = st.node_index(t < 0 ? ~0ull : static_cast<std::uint64_t>(t), at);
    }
    st.periodic.push_back(std::move(link));
  }
  in.end_section("Periodic");
}

}  // namespace

Mesh read40(ReadState& st) {
  Input& in = st.in;
  for (std::string name = st.next_section(); !name.empty(); name = st.next_section()) {
    if (st.read_common_section(name)) continue;
    if (name == "Entities") read_entities(st);
    else if (name == "Nodes") read_nodes(st);
    else if (name == "Elements") read_elements(st);
    else if (name == "Periodic") read_periodic(st);
    else in.skip_section(name);
  }
  return st.finish();
}

}  // namespace meshioplusplus::gmsh
