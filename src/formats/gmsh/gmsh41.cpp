// meshio++ formats, Gmsh MSH 4.1 (Gmsh 4.1+): reader and writer, ASCII and binary.
// Spec: https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format
//
// Layout (binary: the same values, raw; size_t of data-size bytes, int of 4):
//   $Entities  numPoints numCurves numSurfaces numVolumes, then per entity its tag, box,
//              physical tags and (dim > 0) bounding entities
//   $Nodes     numEntityBlocks numNodes minNodeTag maxNodeTag; per block
//              entityDim entityTag parametric numNodesInBlock, the block's node tags, then
//              its coordinates (x y z [u [v [w]]])
//   $Elements  numEntityBlocks numElements minElementTag maxElementTag; per block
//              entityDim entityTag elementType numElementsInBlock, then rows
//              elementTag nodeTag...
//   $Periodic  numPeriodicLinks; per link entityDim entityTag entityTagMaster,
//              numAffine value..., numCorrespondingNodes, (nodeTag nodeTagMaster)...
#include <algorithm>
#include <cstring>

#include "core/parallel.hpp"
#include "formats/gmsh/gmsh_common.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::gmsh {

namespace {

void read_entities(ReadState& st, bool partitioned) {
  Input& in = st.in;
  if (partitioned) {
    in.size("number of partitions");
    const auto nghost = in.size("number of ghost entities");
    in.need(nghost, in.min_bytes(8), "ghost entities");
    for (std::uint64_t i = 0; i < nghost; ++i) { in.int32("ghost entity tag"); in.int32("ghost partition"); }
  }
  std::uint64_t counts[4];
  for (auto& c : counts) c = in.size("number of entities");
  for (int dim = 0; dim < 4; ++dim) {
    in.need(counts[dim], in.min_bytes(4 + 8 + 8), "entities");
    for (std::uint64_t i = 0; i < counts[dim]; ++i) {
      const int tag = in.int32("entity tag");
      if (partitioned) {
        in.int32("parent dimension");
        in.int32("parent tag");
        const auto nparts = in.size("number of partitions");
        in.need(nparts, in.min_bytes(4), "partition tags");
        for (std::uint64_t k = 0; k < nparts; ++k) in.int32("partition tag");
      }
      in.skip_reals(dim == 0 ? 3 : 6, "entity coordinates");
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
  in.end_section(partitioned ? "PartitionedEntities" : "Entities");
}

void read_nodes(ReadState& st) {
  Input& in = st.in;
  if (st.nodes.built()) in.fail("a second $Nodes section");
  const auto nblocks = in.size("number of node blocks");
  const auto nnodes = in.size("number of nodes");
  in.size("minimum node tag");
  in.size("maximum node tag");
  in.need(nblocks, in.min_bytes(12 + static_cast<std::size_t>(in.size_bytes)), "node blocks");
  in.need(nnodes, in.binary ? static_cast<std::size_t>(in.size_bytes) + 24 : 8, "nodes");
  const auto n = static_cast<std::size_t>(nnodes);
  st.points = NDArray::uninit(DType::float64, {n, 3});
  st.dim_tags = NDArray::uninit(DType::int64, {n, 2});
  st.node_tags.resize(n);
  double* xyz = st.points.data<double>();
  std::int64_t* dt = st.dim_tags.data<std::int64_t>();
  std::size_t filled = 0;
  for (std::uint64_t b = 0; b < nblocks; ++b) {
    const int dim = in.int32("entity dimension");
    const int tag = in.int32("entity tag");
    const char* at = in.cur.ptr();
    const int parametric = in.int32("parametric flag");
    if (parametric != 0 && parametric != 1) in.cur.fail_at("parametric flag 0 or 1, found " + std::to_string(parametric), at);
    at = in.cur.ptr();
    const auto count = in.size("number of nodes in block");
    if (count > n - filled)
      in.cur.fail_at("node blocks hold more than the " + std::to_string(n) + " nodes declared", at);
    const auto m = static_cast<std::size_t>(count);
    const std::size_t extra = parametric ? static_cast<std::size_t>(std::clamp(dim, 0, 3)) : 0;
    const std::size_t ncoord = 3 + extra;
    if (in.binary) {
      const auto w = static_cast<std::size_t>(in.size_bytes);
      const char* p = in.take(m * w, "node tags");
      for (std::size_t i = 0; i < m; ++i)
        st.node_tags[filled + i] = w == 8 ? io::load<std::uint64_t>(p + 8 * i, in.little) : io::load<std::uint32_t>(p + 4 * i, in.little);
      p = in.take(m * ncoord * 8, "node coordinates");
      if (extra == 0 && in.little == io::host_is_little_endian()) {
        std::memcpy(xyz + 3 * filled, p, m * 24);  // one copy: the file's doubles are ours
      } else {
        for (std::size_t i = 0; i < m; ++i)
          for (std::size_t c = 0; c < 3; ++c) xyz[3 * (filled + i) + c] = io::load<double>(p + 8 * (i * ncoord + c), in.little);
      }
    } else {
      const char* p = in.cur.ptr();
      const char* base = p - in.cur.offset();
      for (std::size_t i = 0; i < m; ++i)
        if (!fast_uint(p, in.cur.end(), st.node_tags[filled + i])) in.cur.fail_expected("node tag", p);
      in.cur.seek(static_cast<std::size_t>(p - base));
      for (std::size_t i = 0; i < m; ++i) {
        double* x = xyz + 3 * (filled + i);
        x[0] = in.cur.number<double>("x coordinate");
        x[1] = in.cur.number<double>("y coordinate");
        x[2] = in.cur.number<double>("z coordinate");
        for (std::size_t e = 0; e < extra; ++e) in.cur.number<double>("parametric coordinate");
      }
    }
    for (std::size_t i = 0; i < m; ++i) {
      dt[2 * (filled + i)] = dim;
      dt[2 * (filled + i) + 1] = tag;
    }
    filled += m;
  }
  if (filled != n) in.fail("node blocks hold " + std::to_string(filled) + " nodes, the header declares " + std::to_string(n));
  st.nodes.build(st.node_tags, in);
  in.end_section("Nodes");
}

// Element rows of one binary block: tags and nodes of `U`, in the file's byte order
// (`Swap`), to our node order (`Permuted`); templated so the inner loop has no branches
// but the lookup's.
template <class U, bool Swap, bool Permuted>
void element_rows_binary(const ReadState& st, const ElementType& t, std::size_t m, std::int64_t* conn, const char* p,
                         std::uint64_t* tags) {
  const std::size_t k = static_cast<std::size_t>(t.num_nodes);
  auto load = [](const char* q) {
    U v;
    std::memcpy(&v, q, sizeof v);
    if constexpr (Swap) io::byteswap_inplace(&v, 1, sizeof v);
    return static_cast<std::uint64_t>(v);
  };
  for (std::size_t e = 0; e < m; ++e) {
    tags[e] = load(p);
    p += sizeof(U);
    std::int64_t* row = conn + e * k;
    for (std::size_t i = 0; i < k; ++i, p += sizeof(U)) {
      const std::uint64_t tag = load(p);
      const std::int64_t idx = st.nodes.find(tag);
      if (idx < 0) st.node_index(tag, p);  // throws, naming the byte offset
      row[Permuted ? t.to_ours_small[i] : i] = idx;
    }
  }
}

// Rows have a fixed size in binary, so a large block splits into row ranges parsed on all
// cores. A bad node tag throws from its chunk; the block is then parsed again in order so
// the error reported is the first one in the file, whatever the thread timing.
template <class U>
void element_rows_binary(ReadState& st, const ElementType& t, std::size_t m, std::int64_t* conn) {
  Input& in = st.in;
  const std::size_t k = static_cast<std::size_t>(t.num_nodes);
  const std::size_t row_bytes = (k + 1) * sizeof(U);
  const char* p = in.take(m * row_bytes, "element rows");
  const bool swap = in.little != io::host_is_little_endian();
  auto rows = [&](std::size_t r0, std::size_t r1, std::uint64_t* tags) {
    const char* q = p + r0 * row_bytes;
    std::int64_t* c = conn + r0 * k;
    if (swap) {
      if (t.permuted) element_rows_binary<U, true, true>(st, t, r1 - r0, c, q, tags + r0);
      else element_rows_binary<U, true, false>(st, t, r1 - r0, c, q, tags + r0);
    } else {
      if (t.permuted) element_rows_binary<U, false, true>(st, t, r1 - r0, c, q, tags + r0);
      else element_rows_binary<U, false, false>(st, t, r1 - r0, c, q, tags + r0);
    }
  };
  std::vector<std::uint64_t> tags(m);
  constexpr std::size_t kParallelRows = 1 << 15;
  const unsigned threads = m >= kParallelRows ? resolve_threads(0) : 1;
  try {
    const std::size_t chunks = std::min<std::size_t>(threads, 8);
    parallel_for(chunks, static_cast<unsigned>(chunks),
                        [&](std::size_t j) { rows(m * j / chunks, m * (j + 1) / chunks, tags.data()); });
  } catch (const ReadError&) {
    if (threads == 1) throw;
    rows(0, m, tags.data());  // throws the first error in file order
  }
  for (std::uint64_t tag : tags) st.element_tags.push(tag);
}

// ASCII element rows "elementTag nodeTag..." of one block into `c` (m rows of k ours-ordered
// indices), from the cursor. Returns the end of the rows.
const char* ascii_rows(ReadState& st, const ElementType& t, const char* p, std::size_t rows, std::int64_t* c,
                       std::uint64_t* tags) {
  const char* end = st.in.cur.end();
  const auto k = static_cast<std::size_t>(t.num_nodes);
  std::uint64_t v = 0;
  for (std::size_t e = 0; e < rows; ++e) {
    if (!fast_uint(p, end, v)) st.in.cur.fail_expected("element tag", p);
    tags[e] = v;
    std::int64_t* row = c + e * k;
    for (std::size_t i = 0; i < k; ++i) {
      if (!fast_uint(p, end, v)) st.in.cur.fail_expected("node tag", p);
      const std::int64_t idx = st.nodes.find(v);
      if (idx < 0) st.node_index(v, p - 1);  // throws, naming where
      row[t.to_ours(static_cast<int>(i))] = idx;
    }
  }
  return p;
}

// A large block is parsed in parallel: Gmsh writes one element per line, so the text is
// cut at line starts (found by one memchr pass) and each chunk parsed on its own thread.
// Lines need not be elements by the spec, so the cut is verified afterwards: each chunk
// must end exactly where the next one began. If not, or if any chunk fails, the block is
// parsed again sequentially, which also gives the exact error for bad input.
void read_ascii_rows(ReadState& st, const ElementType& t, std::size_t m, std::int64_t* c) {
  Input& in = st.in;
  const char* p = in.cur.ptr();
  const char* end = in.cur.end();
  const auto k = static_cast<std::size_t>(t.num_nodes);
  std::vector<std::uint64_t> tags(m);
  constexpr std::size_t kParallelRows = 1 << 15;
  const unsigned threads = resolve_threads(0);
  bool done = false;
  if (m >= kParallelRows && threads > 1) {
    while (p != end && io::is_space(*p)) ++p;
    const std::size_t chunks = std::min<std::size_t>(threads, 8);
    std::vector<std::size_t> first_row(chunks + 1);
    std::vector<const char*> start(chunks + 1, nullptr), stop(chunks, nullptr);
    for (std::size_t j = 0; j <= chunks; ++j) first_row[j] = m * j / chunks;
    start[0] = p;
    const char* q = p;
    std::size_t line = 0, next = 1;
    while (next < chunks && q < end) {
      const void* nl = std::memchr(q, '\n', static_cast<std::size_t>(end - q));
      if (!nl) break;
      q = static_cast<const char*>(nl) + 1;
      if (++line == first_row[next]) start[next++] = q;
    }
    if (next == chunks) {
      try {
        parallel_for(chunks, static_cast<unsigned>(chunks), [&](std::size_t j) {
          const std::size_t r0 = first_row[j];
          stop[j] = ascii_rows(st, t, start[j], first_row[j + 1] - r0, c + r0 * k, tags.data() + r0);
        });
        done = true;
        for (std::size_t j = 0; j + 1 < chunks && done; ++j) {
          const char* s = stop[j];
          while (s != end && io::is_space(*s)) ++s;
          done = s == start[j + 1];
        }
        if (done) p = stop[chunks - 1];
      } catch (const ReadError&) {
        done = false;  // reparse below for the exact, sequential error
      }
    }
    if (!done) p = in.cur.ptr();
  }
  if (!done) p = ascii_rows(st, t, p, m, c, tags.data());
  for (std::uint64_t tag : tags) st.element_tags.push(tag);
  in.cur.seek(static_cast<std::size_t>(p - (in.cur.ptr() - in.cur.offset())));
}

void read_elements(ReadState& st) {
  Input& in = st.in;
  st.require_nodes("Elements");
  if (st.have_elements) in.fail("a second $Elements section");
  const auto nblocks = in.size("number of element blocks");
  const auto nelem = in.size("number of elements");
  in.size("minimum element tag");
  in.size("maximum element tag");
  in.need(nblocks, in.min_bytes(12 + static_cast<std::size_t>(in.size_bytes)), "element blocks");
  in.need(nelem, in.min_bytes(static_cast<std::size_t>(in.size_bytes)), "elements");
  st.blocks.reserve(static_cast<std::size_t>(nblocks));
  std::uint64_t total = 0;
  for (std::uint64_t b = 0; b < nblocks; ++b) {
    const int dim = in.int32("entity dimension");
    const int tag = in.int32("entity tag");
    const char* at = in.cur.ptr();
    const int type_id = in.int32("element type");
    const ElementType* t = element_type(type_id);
    if (!t) in.cur.fail_at("unknown element type " + std::to_string(type_id), at);
    at = in.cur.ptr();
    const auto count = in.size("number of elements in block");
    if (count > nelem - total) in.cur.fail_at("element blocks hold more than the " + std::to_string(nelem) + " elements declared", at);
    const auto k = static_cast<std::size_t>(t->num_nodes);
    in.need(count, in.min_bytes(static_cast<std::size_t>(in.size_bytes)) * (k + 1), "elements");
    const auto m = static_cast<std::size_t>(count);
    NDArray conn = NDArray::uninit(DType::int64, {m, k});
    std::int64_t* c = conn.data<std::int64_t>();
    if (in.binary) {
      if (in.size_bytes == 8) element_rows_binary<std::uint64_t>(st, *t, m, c);
      else element_rows_binary<std::uint32_t>(st, *t, m, c);
    } else {
      read_ascii_rows(st, *t, m, c);
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
  const auto nlinks = in.size("number of periodic links");
  in.need(nlinks, in.min_bytes(12 + 2 * static_cast<std::size_t>(in.size_bytes)), "periodic links");
  for (std::uint64_t l = 0; l < nlinks; ++l) {
    PeriodicLink link;
    link.dim = in.int32("entity dimension");
    link.tag = in.int32("entity tag");
    link.master_tag = in.int32("master entity tag");
    const auto naffine = in.size("number of affine values");
    in.need(naffine, in.min_bytes(8), "affine values");
    for (std::uint64_t i = 0; i < naffine; ++i) link.affine.push_back(in.real("affine value"));
    const auto npairs = in.size("number of corresponding nodes");
    in.need(npairs, 2 * in.min_bytes(static_cast<std::size_t>(in.size_bytes)), "corresponding nodes");
    link.node_pairs = NDArray::uninit(DType::int64, {static_cast<std::size_t>(npairs), 2});
    std::int64_t* o = link.node_pairs.data<std::int64_t>();
    for (std::uint64_t i = 0; i < 2 * npairs; ++i) {
      if (!in.binary) in.cur.skip_space();
      const char* at = in.cur.ptr();
      o[i] = st.node_index(in.size("node tag"), at);
    }
    st.periodic.push_back(std::move(link));
  }
  in.end_section("Periodic");
}

}  // namespace

Mesh read41(ReadState& st) {
  Input& in = st.in;
  for (std::string name = st.next_section(); !name.empty(); name = st.next_section()) {
    if (st.read_common_section(name)) continue;
    if (name == "Entities") read_entities(st, false);
    else if (name == "PartitionedEntities") read_entities(st, true);
    else if (name == "Nodes") read_nodes(st);
    else if (name == "Elements") read_elements(st);
    else if (name == "Periodic") read_periodic(st);
    else in.skip_section(name);
  }
  return st.finish();
}

// ---------------------------------------------------------------------------------------
// Writer

namespace {

// Coordinates of point i as three doubles (2-D points get z = 0).
struct Coords {
  const Mesh& mesh;
  std::size_t pdim;
  template <class F> void each(std::int64_t begin, std::int64_t end, F&& f) const {
    visit_dtype(mesh.points.dtype(), [&](auto t) {
      using T = decltype(t);
      const T* p = static_cast<const T*>(mesh.points.raw());
      for (std::int64_t i = begin; i < end; ++i) {
        const T* r = p + static_cast<std::size_t>(i) * pdim;
        f(static_cast<double>(r[0]), static_cast<double>(r[1]), pdim > 2 ? static_cast<double>(r[2]) : 0.0);
      }
    });
  }
};

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
  const Coords coords{mesh, mesh.points.dim(1)};
  out.w.str("$Nodes\n");
  const std::uint64_t head[4] = {plan.node_runs.size(), n, n ? 1u : 0u, n};
  if (out.binary) for (auto v : head) out.put<std::uint64_t>(v);
  else out.w.integer(head[0]).ch(' ').integer(head[1]).ch(' ').integer(head[2]).ch(' ').integer(head[3]).ch('\n');
  for (const auto& run : plan.node_runs) {
    const WriteEntity& e = plan.entities[static_cast<std::size_t>(run.entity)];
    const auto m = static_cast<std::uint64_t>(run.end - run.begin);
    if (out.binary) {
      out.put<std::int32_t>(e.dim); out.put<std::int32_t>(e.tag); out.put<std::int32_t>(0); out.put<std::uint64_t>(m);
      for (std::int64_t i = run.begin; i < run.end; ++i) out.put<std::uint64_t>(static_cast<std::uint64_t>(i) + 1);
      if (mesh.points.dtype() == DType::float64 && mesh.points.dim(1) == 3) {
        out.bytes(mesh.points.data<double>() + 3 * run.begin, m * 24);  // one copy of the coordinates
      } else {
        coords.each(run.begin, run.end, [&](double x, double y, double z) { out.put(x); out.put(y); out.put(z); });
      }
    } else {
      out.w.integer(e.dim).ch(' ').integer(e.tag).str(" 0 ").integer(m).ch('\n');
      for (std::int64_t i = run.begin; i < run.end; ++i) out.w.integer(i + 1).ch('\n');
      coords.each(run.begin, run.end, [&](double x, double y, double z) {
        out.w.real(x, out.ff).ch(' ').real(y, out.ff).ch(' ').real(z, out.ff).ch('\n');
      });
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
      const auto& entity = group.first;
      const auto& cells = group.second;
      const WriteEntity& e = plan.entities[static_cast<std::size_t>(entity)];
      const std::uint64_t m = cells.empty() ? mesh.cells[b].size() : cells.size();
      if (out.binary) { out.put<std::int32_t>(e.dim); out.put<std::int32_t>(e.tag); out.put<std::int32_t>(t.id); out.put<std::uint64_t>(m); }
      else out.w.integer(e.dim).ch(' ').integer(e.tag).ch(' ').integer(t.id).ch(' ').integer(m).ch('\n');
      visit_dtype(conn.dtype(), [&](auto tv) {
        using T = decltype(tv);
        if constexpr (std::is_floating_point_v<T>) return;
        else {
          const T* c = static_cast<const T*>(conn.raw());
          std::uint64_t row[1 + 1000];
          for (std::uint64_t j = 0; j < m; ++j) {
            const auto local = static_cast<std::size_t>(cells.empty() ? j : static_cast<std::uint64_t>(cells[j]));
            const T* r = c + local * k;
            row[0] = static_cast<std::uint64_t>(bases[b]) + local + 1;
            for (std::size_t i = 0; i < k; ++i) row[i + 1] = static_cast<std::uint64_t>(r[t.to_ours(static_cast<int>(i))]) + 1;
            if (out.binary) {
              out.bytes(row, (k + 1) * 8);
            } else {
              out.w.integer(row[0]);
              for (std::size_t i = 1; i <= k; ++i) out.w.ch(' ').integer(row[i]);
              out.w.ch('\n');
            }
          }
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
  const WritePlan plan = plan_write(mesh, true);
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
