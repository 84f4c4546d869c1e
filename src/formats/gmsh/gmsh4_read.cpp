// meshio++ formats, Gmsh MSH 4.0 and 4.1: one reader, ASCII and binary, driven by the
// layout of each version (field order and widths); the two differ nowhere else in their
// entity, node and element blocks.
// Spec: https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format (4.1) and
// https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format-version-4-_0028Legacy_0029 (4.0,
// as archived with Gmsh 4.0; Gmsh still writes it with -format msh40, header version "4").
//
//   $Entities  numPoints numCurves numSurfaces numVolumes, then per entity its tag, box,
//              physical tags and (dim > 0) bounding entities. 4.0: every entity has a
//              6-double box; 4.1: a point has 3 coordinates. 4.1 $PartitionedEntities
//              adds partition and ghost fields.
//   $Nodes     numEntityBlocks numNodes [4.1: minNodeTag maxNodeTag]; per block
//              4.0: entityTag entityDim, 4.1: entityDim entityTag; then parametric
//              numNodesInBlock; 4.0: rows nodeTag(int) x y z [u v w];
//              4.1: the block's node tags (size_t), then its coordinates
//   $Elements  numEntityBlocks numElements [4.1: minElementTag maxElementTag]; per block
//              (entity tag and dimension as in $Nodes) elementType numElementsInBlock,
//              then rows elementTag nodeTag... (4.0: int; 4.1: size_t)
//   $Periodic  4.0: numPeriodicLinks (long); per link dim slaveTag masterTag; ASCII: an
//              optional "Affine" line; binary: numNodes (long), negative when 16 affine
//              doubles and numNodes follow. 4.1: per link entityDim entityTag
//              entityTagMaster, numAffine value..., numCorrespondingNodes, pairs (size_t).
// "unsigned long" (4.0) and size_t (4.1) values take data-size bytes in binary files.
#include <algorithm>
#include <cstring>

#include "core/io/parallel_rows.hpp"
#include "core/io/section_reader.hpp"
#include "core/uninit_vector.hpp"
#include "formats/gmsh/gmsh_common.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::gmsh {

namespace {

// Width in binary of a node or element tag in the rows.
std::size_t tag_bytes(const Input& in, const Layout& L) { return L.size_t_tags ? static_cast<std::size_t>(in.size_bytes) : 4; }

void read_entities(ReadState& st, const Layout& L, bool partitioned) {
  Input& in = st.in;
  if (partitioned) {
    in.size("number of partitions");
    const auto nghost = in.size("number of ghost entities");
    in.cur.need(nghost, in.min_bytes(8), "ghost entities");
    for (std::uint64_t i = 0; i < nghost; ++i) { in.int32("ghost entity tag"); in.int32("ghost partition"); }
  }
  std::uint64_t counts[4];
  for (auto& c : counts) c = in.size("number of entities");
  for (int dim = 0; dim < 4; ++dim) {
    const std::size_t nbox = (dim == 0 && !L.point_box) ? 3 : 6;
    in.cur.need(counts[dim], in.min_bytes(4 + 8 * nbox + 8), "entities");
    for (std::uint64_t i = 0; i < counts[dim]; ++i) {
      const int tag = in.int32("entity tag");
      if (partitioned) {
        in.int32("parent dimension");
        in.int32("parent tag");
        const auto nparts = in.size("number of partitions");
        in.cur.need(nparts, in.min_bytes(4), "partition tags");
        std::vector<int> parts;
        for (std::uint64_t k = 0; k < nparts; ++k) parts.push_back(in.int32("partition tag"));
        if (st.partitions) st.partitions->entity_partitions[{dim, tag}] = std::move(parts);
      }
      in.skip_reals(nbox, "entity box");
      const auto nphys = in.size("number of physical tags");
      in.cur.need(nphys, in.min_bytes(4), "physical tags");
      std::vector<int>& phys = st.entity_physicals[{dim, tag}];
      phys.clear();
      for (std::uint64_t k = 0; k < nphys; ++k) phys.push_back(in.int32("physical tag"));
      if (dim > 0) {
        const auto nbound = in.size("number of bounding entities");
        in.cur.need(nbound, in.min_bytes(4), "bounding entities");
        for (std::uint64_t k = 0; k < nbound; ++k) in.int32("bounding entity tag");
      }
    }
  }
  st.have_entities = true;
  in.end_section(partitioned ? "PartitionedEntities" : "Entities");
}

// The head of a node or element block: the entity (dimension and tag, in the version's
// order), then one int (parametric flag or element type).
struct BlockHead {
  int dim = 0, tag = 0, third = 0;
  const char* third_at = nullptr;
};
BlockHead block_head(Input& in, const Layout& L, std::string_view third) {
  BlockHead h;
  const int a = in.int32(L.dim_first ? "entity dimension" : "entity tag");
  const int b = in.int32(L.dim_first ? "entity tag" : "entity dimension");
  h.dim = L.dim_first ? a : b;
  h.tag = L.dim_first ? b : a;
  if (!in.binary) in.cur.skip_space();
  h.third_at = in.cur.ptr();
  h.third = in.int32(third);
  return h;
}

// A node tag read as the version's int or size_t.
std::uint64_t node_tag(Input& in, const Layout& L, const char* at) {
  if (L.size_t_tags) return in.size("node tag");
  const auto t = in.int32("node tag");
  if (t < 0) in.cur.fail_at("node tag " + std::to_string(t) + " is negative", at);
  return static_cast<std::uint64_t>(t);
}

// ASCII node tags of a 4.1 block: `rows` tags from `p` into `tags`; returns their end.
const char* ascii_node_tags(const Input& in, const char* p, std::size_t rows, std::uint64_t* tags) {
  const char* end = in.cur.end();
  for (std::size_t i = 0; i < rows; ++i)
    if (!io::parse_uint(p, end, tags[i])) in.cur.fail_expected("node tag", p);
  return p;
}

// ASCII coordinates of a 4.1 block: `rows` rows of x y z and `extra` parametric
// coordinates from `p` into `x` (3 per row); returns their end.
const char* ascii_node_coords(const Input& in, const char* p, std::size_t rows, std::size_t extra, double* x) {
  io::Cursor c = in.cur.window(p, in.cur.end());
  for (std::size_t i = 0; i < rows; ++i) {
    x[3 * i] = c.number<double>("x coordinate");
    x[3 * i + 1] = c.number<double>("y coordinate");
    x[3 * i + 2] = c.number<double>("z coordinate");
    for (std::size_t e = 0; e < extra; ++e) c.number<double>("parametric coordinate");
  }
  return c.ptr();
}

void read_nodes(ReadState& st, const Layout& L) {
  Input& in = st.in;
  if (st.nodes.built()) in.fail("a second $Nodes section");
  const auto nblocks = in.size("number of node blocks");
  const auto nnodes = in.size("number of nodes");
  if (L.tag_range) {
    in.size("minimum node tag");
    in.size("maximum node tag");
  }
  in.cur.need(nblocks, in.min_bytes(12 + static_cast<std::size_t>(in.size_bytes)), "node blocks");
  in.cur.need(nnodes, in.binary ? tag_bytes(in, L) + 24 : 8, "nodes");
  const auto n = static_cast<std::size_t>(nnodes);
  st.points = NDArray::uninit(DType::float64, {n, 3});
  st.dim_tags = NDArray::uninit(DType::int64, {n, 2});
  st.node_tags.resize(n);
  double* xyz = st.points.data<double>();
  std::int64_t* dt = st.dim_tags.data<std::int64_t>();
  const bool little = in.cur.little_endian();
  std::size_t filled = 0;
  for (std::uint64_t b = 0; b < nblocks; ++b) {
    const BlockHead h = block_head(in, L, "parametric flag");
    if (h.third != 0 && h.third != 1) in.cur.fail_at("parametric flag 0 or 1, found " + std::to_string(h.third), h.third_at);
    if (!in.binary) in.cur.skip_space();
    const char* at = in.cur.ptr();
    const auto count = in.size("number of nodes in block");
    if (count > n - filled) in.cur.fail_at("node blocks hold more than the " + std::to_string(n) + " nodes declared", at);
    const auto m = static_cast<std::size_t>(count);
    const std::size_t extra = h.third ? static_cast<std::size_t>(std::clamp(h.dim, 0, 3)) : 0;
    const std::size_t ncoord = 3 + extra;
    std::uint64_t* tags = st.node_tags.data() + filled;
    double* x = xyz + 3 * filled;
    if (!L.tags_then_coords) {
      // 4.0: rows of tag, x y z and the parametric coordinates.
      for (std::size_t i = 0; i < m; ++i) {
        if (!in.binary) in.cur.skip_space();
        tags[i] = node_tag(in, L, in.cur.ptr());
        for (std::size_t c = 0; c < 3; ++c) x[3 * i + c] = in.real("coordinate");
        in.skip_reals(extra, "parametric coordinate");
      }
    } else if (in.binary) {
      // Copied out of the file with pread (Input::file), straight into the tags and points
      // when the file's values are ours: the mapping's pages are never touched.
      const auto w = static_cast<std::size_t>(in.size_bytes);
      const bool swap = little != io::host_is_little_endian();
      in.cur.need(m, w + 8 * ncoord, "nodes in block");
      const std::size_t tags_at = in.offset_of(in.cur.take(m * w, "node tags"));
      if (w == 8) {
        io::read_values(*in.file, tags_at, m, 8, swap, in.threads, tags);
      } else {
        io::read_chunks(*in.file, tags_at, m, 4, in.threads, [&](std::size_t, std::size_t i0, std::size_t k, const char* src) {
          for (std::size_t i = 0; i < k; ++i) tags[i0 + i] = io::load<std::uint32_t>(src + 4 * i, little);
          return true;
        });
      }
      const std::size_t coords_at = in.offset_of(in.cur.take(m * ncoord * 8, "node coordinates"));
      if (extra == 0) {
        io::read_values(*in.file, coords_at, 3 * m, 8, swap, in.threads, x);  // one copy: the file's doubles are ours
      } else {
        io::read_chunks(*in.file, coords_at, m, ncoord * 8, in.threads, [&](std::size_t, std::size_t i0, std::size_t k, const char* src) {
          for (std::size_t i = 0; i < k; ++i)
            for (std::size_t c = 0; c < 3; ++c) x[3 * (i0 + i) + c] = io::load<double>(src + 8 * (i * ncoord + c), little);
          return true;
        });
      }
    } else {
      // 4.1 ASCII: the tags, then the coordinates, each one row per line as Gmsh writes
      // them; long blocks are parsed on all cores (io::parallel_rows checks the cut).
      const char* p = io::parallel_rows(in.cur.ptr(), in.cur.end(), m, in.threads, [&](const char* s, std::size_t r0, std::size_t r1) {
        return ascii_node_tags(in, s, r1 - r0, tags + r0);
      });
      in.cur.set_ptr(p ? p : ascii_node_tags(in, in.cur.ptr(), m, tags));
      p = io::parallel_rows(in.cur.ptr(), in.cur.end(), m, in.threads, [&](const char* s, std::size_t r0, std::size_t r1) {
        return ascii_node_coords(in, s, r1 - r0, extra, x + 3 * r0);
      });
      in.cur.set_ptr(p ? p : ascii_node_coords(in, in.cur.ptr(), m, extra, x));
    }
    for (std::size_t i = 0; i < m; ++i) {
      dt[2 * (filled + i)] = h.dim;
      dt[2 * (filled + i) + 1] = h.tag;
    }
    filled += m;
  }
  if (filled != n) in.fail("node blocks hold " + std::to_string(filled) + " nodes, the header declares " + std::to_string(n));
  st.nodes.build(st.node_tags, in);
  in.end_section("Nodes");
}

// ASCII element rows "elementTag nodeTag..." of one block into `c` (m rows of k ours-ordered
// indices), from the cursor. Returns the end of the rows.
const char* ascii_rows(ReadState& st, const ElementType& t, const char* p, std::size_t rows, std::int64_t* c,
                       std::uint64_t* tags) {
  const char* end = st.in.cur.end();
  const auto k = static_cast<std::size_t>(t.num_nodes);
  std::uint64_t v = 0;
  for (std::size_t e = 0; e < rows; ++e) {
    if (!io::parse_uint(p, end, v)) st.in.cur.fail_expected("element tag", p);
    tags[e] = v;
    std::int64_t* row = c + e * k;
    for (std::size_t i = 0; i < k; ++i) {
      if (!io::parse_uint(p, end, v)) st.in.cur.fail_expected("node tag", p);
      const std::int64_t idx = st.nodes.find(v);
      if (idx < 0) st.node_index(v, p - 1);  // throws, naming where
      row[t.to_ours(static_cast<int>(i))] = idx;
    }
  }
  return p;
}

// A large block is parsed in parallel: Gmsh writes one element per line, though the spec
// does not promise it, so io::parallel_rows() cuts at line starts and verifies the cut; when
// it cannot (or a piece fails), the block is parsed sequentially for the exact error.
void read_ascii_rows(ReadState& st, const ElementType& t, std::size_t m, std::int64_t* c) {
  Input& in = st.in;
  const auto k = static_cast<std::size_t>(t.num_nodes);
  UninitVector<std::uint64_t> tags(m);  // every row writes its tag
  const char* p = io::parallel_rows(in.cur.ptr(), in.cur.end(), m, in.threads, [&](const char* start, std::size_t r0, std::size_t r1) {
    return ascii_rows(st, t, start, r1 - r0, c + r0 * k, tags.data() + r0);
  });
  if (!p) p = ascii_rows(st, t, in.cur.ptr(), m, c, tags.data());
  for (std::uint64_t tag : tags) st.element_tags.push(tag);
  in.cur.set_ptr(p);
}

void read_elements(ReadState& st, const Layout& L) {
  Input& in = st.in;
  st.require_nodes("Elements");
  if (st.have_elements) in.fail("a second $Elements section");
  const auto nblocks = in.size("number of element blocks");
  const auto nelem = in.size("number of elements");
  if (L.tag_range) {
    in.size("minimum element tag");
    in.size("maximum element tag");
  }
  const std::size_t tb = tag_bytes(in, L);
  in.cur.need(nblocks, in.min_bytes(12 + static_cast<std::size_t>(in.size_bytes)), "element blocks");
  in.cur.need(nelem, in.min_bytes(tb), "elements");
  st.blocks.reserve(static_cast<std::size_t>(nblocks));
  std::uint64_t total = 0;
  for (std::uint64_t b = 0; b < nblocks; ++b) {
    const BlockHead h = block_head(in, L, "element type");
    const ElementType* t = element_type(h.third);
    if (!t) in.cur.fail_at("unknown element type " + std::to_string(h.third), h.third_at);
    if (!in.binary) in.cur.skip_space();
    const char* at = in.cur.ptr();
    const auto count = in.size("number of elements in block");
    if (count > nelem - total) in.cur.fail_at("element blocks hold more than the " + std::to_string(nelem) + " elements declared", at);
    const auto k = static_cast<std::size_t>(t->num_nodes);
    in.cur.need(count, in.min_bytes(tb) * (k + 1), "elements");
    const auto m = static_cast<std::size_t>(count);
    NDArray conn = NDArray::uninit(DType::int64, {m, k});
    std::int64_t* c = conn.data<std::int64_t>();
    if (!in.binary) {
      read_ascii_rows(st, *t, m, c);
    } else {
      // Homogeneous rows "elementTag nodeTag..." of one width: decoded in place.
      BinaryRows rows;
      rows.rows = m;
      rows.row_bytes = (k + 1) * tb;
      rows.node_offset = rows.tag_bytes = tb;
      rows.p = in.cur.take(m * rows.row_bytes, "element rows");
      decode_element_rows_from_file(st, *t, rows, c);
    }
    total += count;
    st.blocks.push_back(CellBlock::rectangular(std::string(t->name), std::move(conn)));
    st.block_dim.push_back(h.dim);
    st.block_entity.push_back(h.tag);
  }
  if (total != nelem) in.fail("element blocks hold " + std::to_string(total) + " elements, the header declares " + std::to_string(nelem));
  st.have_elements = true;
  in.end_section("Elements");
}

// Node pairs of a periodic link: `npairs` (slave, master) node tags.
NDArray periodic_pairs(ReadState& st, const Layout& L, std::uint64_t npairs) {
  Input& in = st.in;
  in.cur.need(npairs, 2 * in.min_bytes(tag_bytes(in, L)), "corresponding nodes");
  NDArray pairs = NDArray::uninit(DType::int64, {static_cast<std::size_t>(npairs), 2});
  std::int64_t* o = pairs.data<std::int64_t>();
  for (std::size_t i = 0; i < 2 * static_cast<std::size_t>(npairs); ++i) {
    if (!in.binary) in.cur.skip_space();
    const char* at = in.cur.ptr();
    o[i] = st.node_index(node_tag(in, L, at), at);
  }
  return pairs;
}

// 4.0: counts are signed longs; the affine transform is an ASCII "Affine" line, or in
// binary a negative node count followed by 16 doubles and the real count.
void read_periodic40(ReadState& st) {
  Input& in = st.in;
  st.require_nodes("Periodic");
  const auto nlinks = in.ssize("number of periodic links");
  if (nlinks < 0) in.fail("negative number of periodic links");
  in.cur.need(static_cast<std::uint64_t>(nlinks), in.min_bytes(20), "periodic links");
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
      in.affine_line(link);
      npairs = in.ssize("number of corresponding nodes");
    }
    if (npairs < 0) in.fail("negative number of corresponding nodes");
    link.node_pairs = periodic_pairs(st, kLayout40, static_cast<std::uint64_t>(npairs));
    st.periodic.push_back(std::move(link));
  }
  in.end_section("Periodic");
}

void read_periodic41(ReadState& st) {
  Input& in = st.in;
  st.require_nodes("Periodic");
  const auto nlinks = in.size("number of periodic links");
  in.cur.need(nlinks, in.min_bytes(12 + 2 * static_cast<std::size_t>(in.size_bytes)), "periodic links");
  for (std::uint64_t l = 0; l < nlinks; ++l) {
    PeriodicLink link;
    link.dim = in.int32("entity dimension");
    link.tag = in.int32("entity tag");
    link.master_tag = in.int32("master entity tag");
    const auto naffine = in.size("number of affine values");
    in.cur.need(naffine, in.min_bytes(8), "affine values");
    for (std::uint64_t i = 0; i < naffine; ++i) link.affine.push_back(in.real("affine value"));
    link.node_pairs = periodic_pairs(st, kLayout41, in.size("number of corresponding nodes"));
    st.periodic.push_back(std::move(link));
  }
  in.end_section("Periodic");
}

// $GhostElements (4.1): numGhostElements, then per element elementTag(size_t)
// partitionTag(int) numGhostPartitions(size_t) ghostPartitionTag(int)...; partitionTag is
// the partition that owns the element.
void read_ghost_elements(ReadState& st) {
  Input& in = st.in;
  const auto n = in.size("number of ghost elements");
  in.cur.need(n, in.min_bytes(static_cast<std::size_t>(2 * in.size_bytes + 4)), "ghost elements");
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t tag = in.size("ghost element tag");
    const int owner = in.int32("ghost element partition");
    const auto nghost = in.size("number of ghost partitions");
    in.cur.need(nghost, in.min_bytes(4), "ghost partition tags");
    for (std::uint64_t k = 0; k < nghost; ++k) in.int32("ghost partition tag");
    if (st.partitions) st.partitions->ghost_owner[tag] = owner;
  }
  in.end_section("GhostElements");
}

Mesh read4(ReadState& st, const Layout& L) {
  Input& in = st.in;
  for (std::string name = st.next_section(); !name.empty(); name = st.next_section()) {
    if (st.read_common_section(name)) continue;
    if (name == "Entities") read_entities(st, L, false);
    else if (name == "PartitionedEntities" && L.partitioned) read_entities(st, L, true);
    else if (name == "Nodes") read_nodes(st, L);
    else if (name == "Elements") read_elements(st, L);
    else if (name == "Periodic") L.affine_count ? read_periodic41(st) : read_periodic40(st);
    else if (name == "GhostElements" && L.partitioned) read_ghost_elements(st);
    else in.skip_section(name);
  }
  return st.finish();
}

}  // namespace

Mesh read40(ReadState& st) { return read4(st, kLayout40); }
Mesh read41(ReadState& st) { return read4(st, kLayout41); }

}  // namespace meshioplusplus::gmsh
