// meshio++ formats, Gmsh MSH: element-type table, input cursor, tag maps, the shared
// section readers and the Mesh assembly (see gmsh_common.hpp).
// Spec: https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format
#include "formats/gmsh/gmsh_common.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <set>

#include "core/io/decode.hpp"
#include "core/io/section_reader.hpp"
#include "core/parallel.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::gmsh {

namespace {

// Gmsh element type ids (https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format, "elementType")
// for every type of our vocabulary that Gmsh knows. `perm` lists, for each position of our
// row, the position of that node in Gmsh's row (ours[j] = gmsh[perm[j]]), as meshio's
// gmsh/common.py does; the reverse direction is computed, never written down twice.
// Node orders: https://gmsh.info/doc/texinfo/gmsh.html#Node-ordering and VTK's
// vtkQuadraticTetra / vtkQuadraticHexahedron / vtkTriQuadraticHexahedron /
// vtkQuadraticWedge / vtkQuadraticPyramid.
struct RawType {
  int id;
  std::string_view name;
  std::vector<int> perm;
};

const std::vector<RawType>& raw_types() {
  static const std::vector<RawType> raw = {
      {1, "line", {}},          {2, "triangle", {}},       {3, "quad", {}},
      {4, "tetra", {}},         {5, "hexahedron", {}},     {6, "wedge", {}},
      {7, "pyramid", {}},       {8, "line3", {}},          {9, "triangle6", {}},
      {10, "quad9", {}},        {11, "tetra10", {0, 1, 2, 3, 4, 5, 6, 7, 9, 8}},
      {12, "hexahedron27", {0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 13, 9, 16, 18, 19, 17, 10, 12, 14, 15, 22, 23, 21, 24, 20, 25, 26}},
      // meshio 5.0 keeps Gmsh's order for wedge18, which is not VTK's
      // (vtkBiQuadraticQuadraticWedge: edges as wedge15, then the centres of the quad faces
      // (0,1,4,3), (1,2,5,4), (2,0,3,5)); we convert it like wedge15.
      {13, "wedge18", {0, 1, 2, 3, 4, 5, 6, 9, 7, 12, 14, 13, 8, 10, 11, 15, 17, 16}},      {14, "pyramid14", {}},     {15, "vertex", {}},
      {16, "quad8", {}},
      {17, "hexahedron20", {0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 13, 9, 16, 18, 19, 17, 10, 12, 14, 15}},
      {18, "wedge15", {0, 1, 2, 3, 4, 5, 6, 9, 7, 12, 14, 13, 8, 10, 11}},
      {19, "pyramid13", {0, 1, 2, 3, 4, 5, 8, 10, 6, 7, 9, 11, 12}},
      {21, "triangle10", {}},   {23, "triangle15", {}},    {25, "triangle21", {}},
      {26, "line4", {}},        {27, "line5", {}},         {28, "line6", {}},
      {29, "tetra20", {}},      {30, "tetra35", {}},       {31, "tetra56", {}},
      {36, "quad16", {}},       {37, "quad25", {}},        {38, "quad36", {}},
      {42, "triangle28", {}},   {43, "triangle36", {}},    {44, "triangle45", {}},
      {45, "triangle55", {}},   {46, "triangle66", {}},    {47, "quad49", {}},
      {48, "quad64", {}},       {49, "quad81", {}},        {50, "quad100", {}},
      {51, "quad121", {}},      {62, "line7", {}},         {63, "line8", {}},
      {64, "line9", {}},        {65, "line10", {}},        {66, "line11", {}},
      {71, "tetra84", {}},      {72, "tetra120", {}},      {73, "tetra165", {}},
      {74, "tetra220", {}},     {75, "tetra286", {}},      {90, "wedge40", {}},
      {91, "wedge75", {}},      {92, "hexahedron64", {}},  {93, "hexahedron125", {}},
      {94, "hexahedron216", {}}, {95, "hexahedron343", {}}, {96, "hexahedron512", {}},
      {97, "hexahedron729", {}}, {98, "hexahedron1000", {}}, {106, "wedge126", {}},
      {107, "wedge196", {}},    {108, "wedge288", {}},     {109, "wedge405", {}},
      {110, "wedge550", {}},
  };
  return raw;
}

struct TypeTables {
  std::vector<ElementType> by_id;  // indexed by Gmsh id; num_nodes == 0: unknown
  std::map<std::string_view, int> by_name;
  TypeTables() {
    by_id.resize(128);
    for (const RawType& r : raw_types()) {
      const CellTypeInfo info = cell_type(r.name);
      ElementType t;
      t.id = r.id;
      t.name = info.name;
      t.num_nodes = info.num_nodes;
      t.dim = info.dim;
      if (!r.perm.empty()) {
        t.permuted = true;
        // ours[j] = gmsh[perm[j]]  =>  gmsh node i lands at ours[to_ours[i]].
        for (std::size_t j = 0; j < r.perm.size(); ++j)
          t.to_ours_small[static_cast<std::size_t>(r.perm[j])] = static_cast<std::uint16_t>(j);
      }
      by_id[static_cast<std::size_t>(r.id)] = t;
      by_name.emplace(t.name, r.id);
    }
  }
};

const TypeTables& tables() {
  static const TypeTables t;
  return t;
}

}  // namespace

const ElementType* element_type(int gmsh_id) {
  const auto& t = tables();
  if (gmsh_id <= 0 || static_cast<std::size_t>(gmsh_id) >= t.by_id.size()) return nullptr;
  const ElementType& e = t.by_id[static_cast<std::size_t>(gmsh_id)];
  return e.num_nodes > 0 ? &e : nullptr;
}

const ElementType* element_type(std::string_view name) {
  const auto& t = tables();
  auto it = t.by_name.find(name);
  return it == t.by_name.end() ? nullptr : &t.by_id[static_cast<std::size_t>(it->second)];
}

// ---------------------------------------------------------------------------------------
// Input

void Input::end_section(std::string_view name) {
  cur.skip_space();
  const std::string want = std::string("$End").append(name);
  const char* at = cur.ptr();
  std::string_view l = io::Cursor::trim(cur.line());
  if (l != want) cur.fail_expected(want, at);
}

void Input::affine_line(PeriodicLink& link) {
  cur.skip_space();
  if (!cur.starts_with("Affine")) return;
  cur.token();
  cur.skip_blank();
  while (!cur.at_end() && *cur.ptr() != '\n') {
    link.affine.push_back(cur.number<double>("affine value"));
    cur.skip_blank();
  }
}

void Input::skip_section(std::string_view name) {
  const std::string want = std::string("$End").append(name);
  for (;;) {
    if (cur.at_end()) fail(std::string("section $").append(name) + " is not closed by " + want);
    std::string_view l = io::Cursor::trim(cur.line());
    if (l == want) return;
  }
}

// ---------------------------------------------------------------------------------------
// Tag maps

void NodeMap::build(const std::vector<std::uint64_t>& tags, Input& in) {
  built_ = true;
  // The usual case, tags 1..n in file order, needs no table at all.
  count_ = tags.size();
  identity_ = true;
  for (std::size_t i = 0; i < tags.size() && identity_; ++i) identity_ = tags[i] == i + 1;
  if (identity_) return;
  std::uint64_t max_tag = 0;
  for (std::uint64_t t : tags) max_tag = std::max(max_tag, t);
  // Dense when the table is at most ~2x the tag list (and so within the memory budget).
  dense_mode_ = max_tag <= 2 * static_cast<std::uint64_t>(tags.size()) + 1024;
  if (dense_mode_) {
    dense_.assign(static_cast<std::size_t>(max_tag) + 1, -1);
    for (std::size_t i = 0; i < tags.size(); ++i) {
      std::int64_t& slot = dense_[static_cast<std::size_t>(tags[i])];
      if (slot >= 0) in.fail("node tag " + std::to_string(tags[i]) + " appears twice in $Nodes");
      slot = static_cast<std::int64_t>(i);
    }
    return;
  }
  sparse_.resize(tags.size());
  for (std::size_t i = 0; i < tags.size(); ++i) sparse_[i] = {tags[i], static_cast<std::int64_t>(i)};
  std::sort(sparse_.begin(), sparse_.end());
  for (std::size_t i = 1; i < sparse_.size(); ++i)
    if (sparse_[i].first == sparse_[i - 1].first)
      in.fail("node tag " + std::to_string(sparse_[i].first) + " appears twice in $Nodes");
}

std::int64_t NodeMap::find_sparse(std::uint64_t tag) const {
  auto it = std::lower_bound(sparse_.begin(), sparse_.end(), std::pair<std::uint64_t, std::int64_t>{tag, -1});
  return (it != sparse_.end() && it->first == tag) ? it->second : -1;
}

std::int64_t ElementTags::find(std::uint64_t tag) const {
  if (consecutive_) return (tag >= first_ && tag - first_ < count_) ? static_cast<std::int64_t>(tag - first_) : -1;
  if (sorted_.size() != tags_.size()) {
    sorted_.resize(tags_.size());
    for (std::size_t i = 0; i < tags_.size(); ++i) sorted_[i] = {tags_[i], static_cast<std::int64_t>(i)};
    std::sort(sorted_.begin(), sorted_.end());
  }
  auto it = std::lower_bound(sorted_.begin(), sorted_.end(), std::pair<std::uint64_t, std::int64_t>{tag, -1});
  return (it != sorted_.end() && it->first == tag) ? it->second : -1;
}

// ---------------------------------------------------------------------------------------
// Binary element rows

namespace {

// What one chunk of rows saw of its element tags.
struct ChunkTags {
  std::uint64_t first = 0;
  bool consecutive = true;
};

enum class Lookup { identity, table };

// Rows [r0, r1): element tag, optional 2.2 tags, node tags -> indices. Templated so the
// inner loop has no branch but the lookup's. With Lookup::identity an index is tag - 1 and
// the range is checked once per chunk (the largest index seen, as io::decode_indices); a
// bad one sends the chunk through the table path, which throws at the first bad tag.
template <class U, bool Swap, bool Permuted, Lookup Mode>
void rows_kernel(const ReadState& st, const ElementType& t, const BinaryRows& r, std::size_t r0, std::size_t r1,
                 std::int64_t* conn, ChunkTags& out) {
  const std::size_t k = static_cast<std::size_t>(t.num_nodes);
  const char* p = r.p + r0 * r.row_bytes;
  const std::uint64_t first = r1 > r0 ? io::load_as<U, Swap>(p + r.tag_offset) : 0;
  bool consecutive = true;
  std::uint64_t top = 0;
  for (std::size_t e = r0; e < r1; ++e, p += r.row_bytes) {
    consecutive &= static_cast<std::uint64_t>(io::load_as<U, Swap>(p + r.tag_offset)) == first + (e - r0);
    if (r.phys) r.phys[e] = io::load_as<std::int32_t, Swap>(p + r.tag_offset + 4);
    if (r.geom) r.geom[e] = io::load_as<std::int32_t, Swap>(p + r.tag_offset + 8);
    std::int64_t* row = conn + e * k;
    const char* q = p + r.node_offset;
    for (std::size_t i = 0; i < k; ++i, q += sizeof(U)) {
      const std::uint64_t tag = io::load_as<U, Swap>(q);
      std::int64_t idx;
      if constexpr (Mode == Lookup::identity) {
        const std::uint64_t v = tag - 1;
        top = std::max(top, v);
        idx = static_cast<std::int64_t>(v);
      } else {
        idx = st.nodes.find(tag);
        if (idx < 0) st.node_index(tag, q);  // throws, naming the byte offset
      }
      row[Permuted ? t.to_ours_small[i] : i] = idx;
    }
  }
  if constexpr (Mode == Lookup::identity)
    if (r1 > r0 && top >= st.nodes.size()) rows_kernel<U, Swap, Permuted, Lookup::table>(st, t, r, r0, r1, conn, out);
  out = {first, consecutive};
}

template <class U, bool Swap>
void rows_dispatch(const ReadState& st, const ElementType& t, const BinaryRows& r, std::size_t r0, std::size_t r1,
                   std::int64_t* conn, ChunkTags& out) {
  const bool id = st.nodes.identity();
  if (t.permuted) {
    if (id) rows_kernel<U, Swap, true, Lookup::identity>(st, t, r, r0, r1, conn, out);
    else rows_kernel<U, Swap, true, Lookup::table>(st, t, r, r0, r1, conn, out);
  } else {
    if (id) rows_kernel<U, Swap, false, Lookup::identity>(st, t, r, r0, r1, conn, out);
    else rows_kernel<U, Swap, false, Lookup::table>(st, t, r, r0, r1, conn, out);
  }
}

}  // namespace

void decode_element_rows(ReadState& st, const ElementType& t, const BinaryRows& r, std::int64_t* conn) {
  const bool swap = st.in.cur.little_endian() != io::host_is_little_endian();
  const bool wide = r.tag_bytes == 8;
  auto rows = [&](std::size_t r0, std::size_t r1, ChunkTags& out) {
    if (wide) swap ? rows_dispatch<std::uint64_t, true>(st, t, r, r0, r1, conn, out)
                   : rows_dispatch<std::uint64_t, false>(st, t, r, r0, r1, conn, out);
    else swap ? rows_dispatch<std::uint32_t, true>(st, t, r, r0, r1, conn, out)
              : rows_dispatch<std::uint32_t, false>(st, t, r, r0, r1, conn, out);
  };
  const std::size_t m = r.rows;
  const std::size_t chunks = row_chunks(m, st.in.threads);
  std::vector<ChunkTags> seen(chunks);
  try {
    parallel_for(chunks, static_cast<unsigned>(chunks),
                 [&](std::size_t j) { rows(m * j / chunks, m * (j + 1) / chunks, seen[j]); });
  } catch (const ReadError&) {
    if (chunks == 1) throw;
    rows(0, m, seen[0]);  // throws the first error in file order
  }
  // Element tags: one range when every chunk's tags continue the previous chunk's.
  bool range = true;
  for (std::size_t j = 0; j < chunks && range; ++j)
    range = seen[j].consecutive && (m * j / chunks == m * (j + 1) / chunks || seen[j].first == seen[0].first + m * j / chunks);
  if (range) {
    if (m) st.element_tags.push_range(seen[0].first, m);
    return;
  }
  const bool little = st.in.cur.little_endian();
  for (std::size_t e = 0; e < m; ++e)
    st.element_tags.push(r.tag_bytes == 8 ? io::load<std::uint64_t>(r.p + e * r.row_bytes + r.tag_offset, little)
                                          : io::load<std::uint32_t>(r.p + e * r.row_bytes + r.tag_offset, little));
}

void decode_element_rows_from_file(ReadState& st, const ElementType& t, const BinaryRows& rows, std::int64_t* conn) {
  const Input& in = st.in;
  const std::size_t chunk_bytes = io::kSectionChunkBytes * std::max(1u, std::min(in.threads, 16u));
  if (!in.file || rows.rows * rows.row_bytes <= chunk_bytes) return decode_element_rows(st, t, rows, conn);
  const std::size_t per_chunk = std::max<std::size_t>(1, chunk_bytes / rows.row_bytes);
  const std::unique_ptr<char[]> buffer(new char[per_chunk * rows.row_bytes]);  // overwritten before read
  const std::size_t k = static_cast<std::size_t>(t.num_nodes);
  const std::size_t at = in.offset_of(rows.p);
  for (std::size_t r0 = 0; r0 < rows.rows; r0 += per_chunk) {
    BinaryRows part = rows;
    part.rows = std::min(per_chunk, rows.rows - r0);
    part.phys = rows.phys ? rows.phys + r0 : nullptr;
    part.geom = rows.geom ? rows.geom + r0 : nullptr;
    in.file->copy_out(at + r0 * rows.row_bytes, part.rows * rows.row_bytes, buffer.get());
    part.p = buffer.get();
    try {
      decode_element_rows(st, t, part, conn + r0 * k);
    } catch (const ReadError&) {
      part.p = rows.p + r0 * rows.row_bytes;  // from the mapping: the error names the file's byte
      decode_element_rows(st, t, part, conn + r0 * k);
      throw;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Shared sections

void ReadState::read_physical_names() {
  // numPhysicalNames(ASCII int); dimension(ASCII int) physicalTag(ASCII int) "name"
  // (ASCII in binary files too).
  auto count = in.cur.number<std::uint64_t>("number of physical names");
  in.cur.need(count, 6, "physical names");
  for (std::uint64_t i = 0; i < count; ++i) {
    int dim = in.cur.number<int>("physical name dimension");
    int tag = in.cur.number<int>("physical name tag");
    in.cur.skip_blank();
    const char* at = in.cur.ptr();
    std::string_view l = io::Cursor::trim(in.cur.line());
    if (l.size() < 2 || l.front() != '"' || l.back() != '"') in.cur.fail_expected("a quoted physical name", at);
    names.push_back({{dim, tag}, std::string(l.substr(1, l.size() - 2))});
  }
  in.end_section("PhysicalNames");
}

void ReadState::read_data(std::string_view section) {
  const bool node_data = section == "NodeData";
  const bool element_node = section == "ElementNodeData";
  if (node_data) require_nodes(section);
  else if (!have_elements) in.fail(std::string("$").append(section) + " before $Elements");

  // String tags (the first one names the view), real tags (time), integer tags
  // (time step, number of components, number of entities[, partition]).
  auto nstrings = in.cur.number<std::uint64_t>("number of string tags");
  in.cur.need(nstrings, 2, "string tags");
  std::string name;
  for (std::uint64_t i = 0; i < nstrings; ++i) {
    in.cur.skip_space();
    std::string_view l = io::Cursor::trim(in.cur.line());
    if (l.size() >= 2 && l.front() == '"' && l.back() == '"') l = l.substr(1, l.size() - 2);
    if (i == 0) name = std::string(l);
  }
  auto nreals = in.cur.number<std::uint64_t>("number of real tags");
  in.cur.need(nreals, 2, "real tags");
  for (std::uint64_t i = 0; i < nreals; ++i) in.cur.number<double>("real tag");
  auto nints = in.cur.number<std::uint64_t>("number of integer tags");
  in.cur.need(nints, 2, "integer tags");
  if (nints < 3) in.fail(std::string("$").append(section) + ": expected at least 3 integer tags, found " + std::to_string(nints));
  std::int64_t ints[3] = {0, 0, 0};
  for (std::uint64_t i = 0; i < nints; ++i) {
    auto v = in.cur.number<std::int64_t>("integer tag");
    if (i < 3) ints[i] = v;
  }
  if (nstrings == 0) name = "data";
  const std::int64_t ncomp = ints[1], nitems = ints[2];
  if (ncomp < 1 || ncomp > 1024) in.fail(std::string("$").append(section) + ": bad number of components " + std::to_string(ncomp));
  if (nitems < 0) in.fail(std::string("$").append(section) + ": bad number of entities " + std::to_string(nitems));
  const auto nc = static_cast<std::size_t>(ncomp);
  const auto ni = static_cast<std::uint64_t>(nitems);
  if (in.binary) {
    // Binary rows follow a single newline after the last integer tag.
    if (!in.cur.at_end() && *in.cur.ptr() == '\r') in.cur.take(1, "newline");
    if (!in.cur.at_end() && *in.cur.ptr() == '\n') in.cur.take(1, "newline");
  }
  in.cur.need(ni, in.binary ? 4 + 8 * nc : 2 * (1 + nc), "data rows");
  const double nan = std::numeric_limits<double>::quiet_NaN();

  if (node_data) {
    const std::size_t n = points.dim(0);
    NDArray a = nc == 1 ? NDArray::uninit(DType::float64, {n}) : NDArray::uninit(DType::float64, {n, nc});
    double* out = a.data<double>();
    std::fill(out, out + n * nc, nan);
    for (std::uint64_t r = 0; r < ni; ++r) {
      const char* at = in.cur.ptr();
      auto tag = in.int32("node tag");
      const std::int64_t row = tag < 0 ? -1 : nodes.find(static_cast<std::uint64_t>(tag));
      if (row < 0) in.cur.fail_at("node tag " + std::to_string(tag) + " does not exist in $Nodes", at);
      for (std::size_t c = 0; c < nc; ++c) out[static_cast<std::size_t>(row) * nc + c] = in.real("data value");
    }
    point_data[name] = std::move(a);
    in.end_section(section);
    return;
  }

  // Cell data: one array per block.
  const auto bases = block_bases(blocks);
  std::vector<NDArray> arrays(blocks.size());
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const std::size_t m = blocks[b].size();
    const std::size_t k = element_node ? static_cast<std::size_t>(blocks[b].nodes_per_cell()) : 1;
    NDArray::Shape shape = {m};
    if (element_node) shape.push_back(k);
    if (nc > 1) shape.push_back(nc);
    arrays[b] = NDArray::uninit(DType::float64, shape);
    std::fill(arrays[b].data<double>(), arrays[b].data<double>() + arrays[b].size(), nan);
  }
  for (std::uint64_t r = 0; r < ni; ++r) {
    const char* at = in.cur.ptr();
    auto tag = in.int32("element tag");
    const std::int64_t cell = tag < 0 ? -1 : element_tags.find(static_cast<std::uint64_t>(tag));
    if (cell < 0) in.cur.fail_at("element tag " + std::to_string(tag) + " does not exist in $Elements", at);
    const auto b = static_cast<std::size_t>(std::upper_bound(bases.begin(), bases.end(), cell) - bases.begin() - 1);
    const auto local = static_cast<std::size_t>(cell - bases[b]);
    double* out = arrays[b].data<double>();
    if (!element_node) {
      for (std::size_t c = 0; c < nc; ++c) out[local * nc + c] = in.real("data value");
      continue;
    }
    const auto k = static_cast<std::size_t>(blocks[b].nodes_per_cell());
    const char* at_n = in.cur.ptr();
    auto nn = in.int32("number of nodes per element");
    if (nn < 0 || static_cast<std::size_t>(nn) != k)
      in.cur.fail_at("element " + std::to_string(tag) + " (" + blocks[b].type + ") has " + std::to_string(k) +
                         " nodes, found " + std::to_string(nn) + " values per component",
                     at_n);
    const ElementType* t = element_type(blocks[b].type);
    for (std::size_t i = 0; i < k; ++i) {
      const auto j = static_cast<std::size_t>(t->to_ours(static_cast<int>(i)));
      for (std::size_t c = 0; c < nc; ++c) out[(local * k + j) * nc + c] = in.real("data value");
    }
  }
  // "Time steps" follow meshio: a later section with the same name replaces the earlier.
  cell_data[name] = std::move(arrays);
  in.end_section(section);
}

Mesh ReadState::finish() {
  // A 4.x file of geometry only ($Entities, no $Elements) is an empty mesh, as Gmsh opens it.
  if (!have_elements && !have_entities) in.fail("no $Elements section in the file");
  if (partitions) {
    partitions->node_tags = node_tags;
    partitions->element_tags = element_tags.all();
  }
  Mesh m;
  m.points = nodes.built() ? points : NDArray::zeros(DType::float64, {0, 3});
  const std::size_t nb = blocks.size();

  // Physical groups: (dim, tag) -> cells (per block: all of it, or per-cell tags in 2.2).
  std::map<std::pair<int, int>, std::size_t> group_sizes;
  if (version2) {
    bool any_phys = false, any_geom = false;
    for (std::size_t b = 0; b < nb; ++b) {
      any_phys = any_phys || physical[b].size() > 0;
      any_geom = any_geom || geometrical[b].size() > 0;
    }
    for (std::size_t b = 0; b < nb && any_phys; ++b) {
      const int dim = element_type(blocks[b].type)->dim;
      const std::int32_t* p = physical[b].data<std::int32_t>();
      for (std::size_t i = 0; i < physical[b].size(); ++i)
        if (p[i] != 0) ++group_sizes[{dim, p[i]}];
    }
    if (any_phys) m.cell_data["gmsh:physical"] = physical;
    if (any_geom) m.cell_data["gmsh:geometrical"] = geometrical;
  } else {
    std::vector<NDArray> phys(nb), geom(nb);
    bool any_phys = false;
    for (std::size_t b = 0; b < nb; ++b) {
      const std::size_t n = blocks[b].size();
      const std::vector<int>* tags = nullptr;
      auto it = entity_physicals.find({block_dim[b], block_entity[b]});
      if (it != entity_physicals.end()) tags = &it->second;
      if (tags && !tags->empty()) any_phys = true;
      phys[b] = NDArray::uninit(DType::int64, {n});
      std::fill(phys[b].data<std::int64_t>(), phys[b].data<std::int64_t>() + n, (tags && !tags->empty()) ? tags->front() : 0);
      geom[b] = NDArray::uninit(DType::int64, {n});
      std::fill(geom[b].data<std::int64_t>(), geom[b].data<std::int64_t>() + n, block_entity[b]);
      if (tags) {
        // An entity may list a physical tag twice: count each tag once, as the fill below
        // does, or the region would keep uninitialised entries.
        std::vector<int> unique_tags(*tags);
        std::sort(unique_tags.begin(), unique_tags.end());
        unique_tags.erase(std::unique(unique_tags.begin(), unique_tags.end()), unique_tags.end());
        for (int t : unique_tags) group_sizes[{block_dim[b], t}] += n;
      }
    }
    if (any_phys) m.cell_data["gmsh:physical"] = std::move(phys);
    m.cell_data["gmsh:geometrical"] = std::move(geom);
    m.point_data["gmsh:dim_tags"] = nodes.built() ? dim_tags : NDArray::zeros(DType::int64, {0, 2});
  }

  // Regions: one per physical group, named from $PhysicalNames.
  std::map<std::pair<int, int>, std::string> name_of;
  for (const auto& [key, name] : names) {
    name_of[key] = name;
    group_sizes.emplace(key, 0);
    m.field_data[name] = NDArray::from_vector<std::int64_t>({key.second, key.first});
  }
  const auto bases = block_bases(blocks);
  for (const auto& [key, size] : group_sizes) {
    Region r;
    auto it = name_of.find(key);
    r.name = it != name_of.end() ? it->second : "physical_" + std::to_string(key.first) + "_" + std::to_string(key.second);
    r.kind = RegionKind::cell;
    r.dim = key.first;
    r.tag = key.second;
    r.entries = NDArray::uninit(DType::int64, {size});
    std::int64_t* out = r.entries.data<std::int64_t>();
    std::size_t k = 0;
    for (std::size_t b = 0; b < nb && size > 0; ++b) {
      if (version2) {
        if (physical[b].size() == 0 || element_type(blocks[b].type)->dim != key.first) continue;
        const std::int32_t* p = physical[b].data<std::int32_t>();
        for (std::size_t i = 0; i < physical[b].size(); ++i)
          if (p[i] == key.second) out[k++] = bases[b] + static_cast<std::int64_t>(i);
      } else {
        if (block_dim[b] != key.first) continue;
        auto e = entity_physicals.find({block_dim[b], block_entity[b]});
        if (e == entity_physicals.end() || std::find(e->second.begin(), e->second.end(), key.second) == e->second.end())
          continue;
        for (std::int64_t i = bases[b]; i < bases[b + 1]; ++i) out[k++] = i;
      }
    }
    r.canonicalize();
    m.regions.push_back(std::move(r));
  }

  m.cells = std::move(blocks);
  for (auto& [k, v] : point_data) m.point_data[k] = std::move(v);
  for (auto& [k, v] : cell_data) m.cell_data[k] = std::move(v);
  m.gmsh_periodic = std::move(periodic);
  return m;
}

// ---------------------------------------------------------------------------------------
// Writing

bool is_tag_data(const std::string& name) {
  return name == "gmsh:physical" || name == "gmsh:geometrical" || name == "gmsh:dim_tags" || name == "cell_tags";
}

std::size_t data_components(const NDArray& a, const std::string& name, const std::string& path) {
  std::size_t nc = 0;
  if (a.ndim() == 1) nc = 1;
  else if (a.ndim() == 2) nc = a.dim(1);
  else if (a.ndim() == 3 && a.dim(1) == 3 && a.dim(2) == 3) nc = 9;
  if (nc != 1 && nc != 3 && nc != 9)
    throw write_error(kFormat, path, "data '" + name + "': Gmsh stores 1, 3 or 9 components per row");
  return nc;
}

namespace {

// A per-block tag array (any integer dtype, (m,) or (m, 1)) read as int64 in one typed
// pass: the array's own memory when it already is one int64 column, else one copy. The
// planner reads every cell's tags several times; a dtype dispatch per value cost more than
// writing the rows.
class Column {
 public:
  Column() = default;
  explicit Column(const NDArray& a) {
    const std::size_t rs = std::max<std::size_t>(a.row_size(), 1);
    if (a.dtype() == DType::int64 && rs == 1) {
      v_ = static_cast<const std::int64_t*>(a.raw());
      return;
    }
    own_.resize(a.size() / rs);
    visit_dtype(a.dtype(), [&](auto tv) {
      using T = decltype(tv);
      const T* p = static_cast<const T*>(a.raw());
      for (std::size_t i = 0; i < own_.size(); ++i) own_[i] = static_cast<std::int64_t>(p[i * rs]);
    });
    v_ = own_.data();
  }
  std::int64_t operator[](std::size_t i) const { return v_[i]; }
  bool uniform(std::size_t n) const {
    for (std::size_t i = 1; i < n; ++i)
      if (v_[i] != v_[0]) return false;
    return true;
  }

 private:
  const std::int64_t* v_ = nullptr;
  std::vector<std::int64_t> own_;
};

}  // namespace

WritePlan plan_write(const Mesh& mesh, bool with_entities, const std::string& path) {
  WritePlan plan;
  const std::size_t nb = mesh.cells.size();
  plan.blocks.resize(nb);
  for (std::size_t b = 0; b < nb; ++b) {
    const CellBlock& c = mesh.cells[b];
    const ElementType* t = c.ragged ? nullptr : element_type(c.type);
    if (!t) throw write_error(kFormat, path, "cell type '" + c.type + "' has no Gmsh element type");
    plan.blocks[b].type = t;
  }
  auto tag_list = [&](const char* key) -> const std::vector<NDArray>* {
    auto it = mesh.cell_data.find(key);
    if (it == mesh.cell_data.end()) return nullptr;
    if (it->second.size() != nb) throw write_error(kFormat, path, std::string(key) + ": expected one array per block");
    return &it->second;
  };
  const std::vector<NDArray>* phys_arrays = tag_list("gmsh:physical");
  const std::vector<NDArray>* geom_arrays = tag_list("gmsh:geometrical");
  const auto bases = block_bases(mesh.cells);
  auto columns = [&](const std::vector<NDArray>* arrays, const char* key) {
    std::vector<Column> out;
    if (!arrays) return out;
    for (std::size_t b = 0; b < nb; ++b) {
      const NDArray& a = (*arrays)[b];
      if (a.size() < mesh.cells[b].size() * std::max<std::size_t>(a.row_size(), 1))
        throw write_error(kFormat, path, std::string(key) + ": block " + std::to_string(b) + " has fewer values than cells");
      out.emplace_back(a);
    }
    return out;
  };
  const std::vector<Column> phys_cols = columns(phys_arrays, "gmsh:physical");
  const std::vector<Column> geom_cols = columns(geom_arrays, "gmsh:geometrical");
  const std::vector<Column>* phys = phys_arrays ? &phys_cols : nullptr;
  const std::vector<Column>* geom = geom_arrays ? &geom_cols : nullptr;

  // Physical groups already carried by gmsh:physical: (dim, tag) -> cell count (counted a
  // run of equal tags at a time: one map update per run, not per cell).
  std::map<std::pair<int, int>, std::size_t> carried;
  int max_phys = 0;
  if (phys)
    for (std::size_t b = 0; b < nb; ++b) {
      const std::size_t n = mesh.cells[b].size();
      for (std::size_t i = 0, j = 0; i < n; i = j) {
        const auto v = static_cast<int>((*phys)[b][i]);
        for (j = i + 1; j < n && static_cast<int>((*phys)[b][j]) == v;) ++j;
        if (v != 0) { carried[{plan.blocks[b].type->dim, v}] += j - i; max_phys = std::max(max_phys, v); }
      }
    }
  auto cell_block = [&](std::int64_t cell) {
    return static_cast<std::size_t>(std::upper_bound(bases.begin(), bases.end(), cell) - bases.begin() - 1);
  };
  // Other cell regions become physical groups: (global cell, physical tag) memberships.
  std::vector<std::pair<std::int64_t, int>> extra;
  std::map<std::pair<int, int>, std::string> names;
  for (const auto& [name, v] : mesh.field_data)
    if (v.size() == 2) names[{static_cast<int>(v.value_as_int64(1)), static_cast<int>(v.value_as_int64(0))}] = name;
  for (const Region& r : mesh.regions) if (r.tag > 0) max_phys = std::max(max_phys, r.tag);
  std::set<std::pair<int, int>> used;
  for (const auto& kv : carried) used.insert(kv.first);
  for (const Region& r : mesh.regions) {
    if (r.kind != RegionKind::cell) continue;
    const std::size_t n = r.entries.size();
    bool is_carried = false;
    if (phys && r.tag > 0) {
      auto it = carried.find({r.dim, r.tag});
      if (it != carried.end() && it->second == n) {
        is_carried = true;
        const Column entries(r.entries);
        for (std::size_t k = 0; k < n && is_carried; ++k) {
          const std::int64_t c = entries[k];
          const std::size_t b = cell_block(c);
          is_carried = plan.blocks[b].type->dim == r.dim && (*phys)[b][static_cast<std::size_t>(c - bases[b])] == r.tag;
        }
      }
    }
    const bool default_name = r.name == "physical_" + std::to_string(r.dim) + "_" + std::to_string(r.tag);
    if (is_carried) {
      if (!default_name) names.emplace(std::pair<int, int>{r.dim, r.tag}, r.name);
      continue;
    }
    // Keep the region's own tag unless a group of a dimension it touches already uses it.
    int tag = r.tag > 0 ? r.tag : 0;
    std::set<int> dims;
    for (std::size_t k = 0; k < n; ++k) dims.insert(plan.blocks[cell_block(r.entries.value_as_int64(k))].type->dim);
    for (int d : dims)
      if (tag > 0 && used.count({d, tag})) tag = 0;
    if (tag == 0) tag = ++max_phys;
    for (int d : dims) { used.insert({d, tag}); names[{d, tag}] = r.name; }
    for (std::size_t k = 0; k < n; ++k) extra.emplace_back(r.entries.value_as_int64(k), tag);
  }
  std::sort(extra.begin(), extra.end());
  for (const auto& [key, name] : names) plan.physical_names.push_back({key, name});

  // Entities: one per (dim, geometrical tag, physical set); a geometrical tag already
  // taken in that dimension by another physical set gets a fresh tag.
  std::map<std::vector<int>, int> set_ids;  // key: dim, geom, physicals...
  std::map<std::pair<int, int>, int> taken;  // (dim, tag) -> entity
  std::array<int, 4> max_tag{0, 0, 0, 0};
  if (geom)
    for (std::size_t b = 0; b < nb; ++b)
      for (std::size_t i = 0; i < mesh.cells[b].size(); ++i)
        max_tag[static_cast<std::size_t>(plan.blocks[b].type->dim)] =
            std::max(max_tag[static_cast<std::size_t>(plan.blocks[b].type->dim)], static_cast<int>((*geom)[b][i]));
  std::vector<int> key;
  auto entity_for = [&](int dim, int g, const std::vector<int>& physicals_sorted) {
    key.assign({dim, g});
    key.insert(key.end(), physicals_sorted.begin(), physicals_sorted.end());
    auto it = set_ids.find(key);
    if (it != set_ids.end()) return it->second;
    WriteEntity e;
    e.dim = dim;
    // MSH 2.2 tags each element on its own: no entity needs a fresh tag there.
    e.tag = (with_entities && taken.count({dim, g})) ? ++max_tag[static_cast<std::size_t>(dim)] : g;
    max_tag[static_cast<std::size_t>(dim)] = std::max(max_tag[static_cast<std::size_t>(dim)], e.tag);
    e.physicals = physicals_sorted;
    const int id = static_cast<int>(plan.entities.size());
    taken[{dim, e.tag}] = id;
    plan.entities.push_back(std::move(e));
    set_ids.emplace(key, id);
    return id;
  };
  std::size_t xi = 0;
  std::vector<int> ps;
  for (std::size_t b = 0; b < nb; ++b) {
    BlockPlan& bp = plan.blocks[b];
    const std::size_t n = mesh.cells[b].size();
    const int dim = bp.type->dim;
    auto g_of = [&](std::size_t i) {
      int g = geom ? static_cast<int>((*geom)[b][i]) : 0;
      return g > 0 ? g : 1;
    };
    auto set_of = [&](std::size_t i) {
      ps.clear();
      if (phys) { auto v = static_cast<int>((*phys)[b][i]); if (v != 0) ps.push_back(v); }
      const std::int64_t cell = bases[b] + static_cast<std::int64_t>(i);
      while (xi < extra.size() && extra[xi].first < cell) ++xi;
      for (std::size_t j = xi; j < extra.size() && extra[j].first == cell; ++j) ps.push_back(extra[j].second);
      std::sort(ps.begin(), ps.end());
      ps.erase(std::unique(ps.begin(), ps.end()), ps.end());
    };
    const bool extra_here = !extra.empty() && extra.back().first >= bases[b] &&
        std::lower_bound(extra.begin(), extra.end(), std::pair<std::int64_t, int>{bases[b], -1}) !=
            std::lower_bound(extra.begin(), extra.end(), std::pair<std::int64_t, int>{bases[b + 1], -1});
    if (!extra_here && (!phys || (*phys)[b].uniform(n)) && (!geom || (*geom)[b].uniform(n))) {
      ps.clear();
      if (n > 0) set_of(0);
      bp.uniform_entity = entity_for(dim, n ? g_of(0) : 1, ps);
      bp.groups.push_back({bp.uniform_entity, {}});
      continue;
    }
    bp.entity.resize(n);
    std::map<int, std::size_t> group_of;
    for (std::size_t i = 0; i < n; ++i) {
      set_of(i);
      bp.entity[i] = entity_for(dim, g_of(i), ps);
    }
    for (std::size_t i = 0; i < n; ++i) {
      auto [it, fresh] = group_of.emplace(bp.entity[i], bp.groups.size());
      if (fresh) bp.groups.push_back({bp.entity[i], {}});
      bp.groups[it->second].second.push_back(static_cast<std::int64_t>(i));
    }
    if (bp.groups.size() == 1) { bp.uniform_entity = bp.groups[0].first; bp.groups[0].second.clear(); bp.entity.clear(); }
  }
  if (!with_entities) return plan;

  // Nodes: runs of consecutive points with one gmsh:dim_tags entity; else all nodes in the
  // first entity of the highest dimension.
  const std::int64_t npts = static_cast<std::int64_t>(mesh.num_points());
  auto dt = mesh.point_data.find("gmsh:dim_tags");
  const bool have_dt = dt != mesh.point_data.end() && dt->second.ndim() == 2 && dt->second.dim(1) == 2 &&
                       !dtype_is_float(dt->second.dtype());
  auto node_entity = [&](int d, int t) {
    auto it = taken.find({d, t});
    if (it != taken.end()) return it->second;
    WriteEntity e;
    e.dim = d;
    e.tag = t;
    const int id = static_cast<int>(plan.entities.size());
    taken[{d, t}] = id;
    plan.entities.push_back(std::move(e));
    return id;
  };
  if (have_dt) {
    const NDArray& a = dt->second;
    std::int64_t begin = 0;
    for (std::int64_t i = 1; i <= npts; ++i) {
      const auto u = static_cast<std::size_t>(i), v = static_cast<std::size_t>(begin);
      if (i < npts && a.value_as_int64(2 * u) == a.value_as_int64(2 * v) && a.value_as_int64(2 * u + 1) == a.value_as_int64(2 * v + 1)) continue;
      const auto d = a.value_as_int64(2 * v), t = a.value_as_int64(2 * v + 1);
      if (d < 0 || d > 3) throw write_error(kFormat, path, "gmsh:dim_tags: entity dimension " + std::to_string(d) + " outside 0..3");
      plan.node_runs.push_back({begin, i, node_entity(static_cast<int>(d), static_cast<int>(t))});
      begin = i;
    }
  } else if (npts > 0) {
    int best = -1;
    for (std::size_t e = 0; e < plan.entities.size(); ++e)
      if (best < 0 || plan.entities[e].dim > plan.entities[static_cast<std::size_t>(best)].dim) best = static_cast<int>(e);
    if (best < 0) best = node_entity(mesh.points.dim(1) == 2 ? 2 : 3, 1);
    plan.node_runs.push_back({0, npts, best});
  }

  // Entity bounding boxes from their nodes.
  std::vector<bool> seen(plan.entities.size(), false);
  const std::size_t pdim = mesh.points.dim(1);
  auto grow = [&](int e, std::int64_t p) {
    WriteEntity& ent = plan.entities[static_cast<std::size_t>(e)];
    double x[3] = {0, 0, 0};
    for (std::size_t c = 0; c < pdim && c < 3; ++c) x[c] = mesh.points.value_as_double(static_cast<std::size_t>(p) * pdim + c);
    if (!seen[static_cast<std::size_t>(e)]) {
      seen[static_cast<std::size_t>(e)] = true;
      ent.box = {x[0], x[1], x[2], x[0], x[1], x[2]};
      return;
    }
    for (int c = 0; c < 3; ++c) {
      ent.box[static_cast<std::size_t>(c)] = std::min(ent.box[static_cast<std::size_t>(c)], x[c]);
      ent.box[static_cast<std::size_t>(c) + 3] = std::max(ent.box[static_cast<std::size_t>(c) + 3], x[c]);
    }
  };
  for (const auto& run : plan.node_runs)
    for (std::int64_t p = run.begin; p < run.end; ++p) grow(run.entity, p);
  return plan;
}

}  // namespace meshioplusplus::gmsh

namespace meshioplusplus::gmsh {

void write_header(Out& out, std::string_view version) {
  out.w.str("$MeshFormat\n").str(version).str(out.binary ? " 1 8\n" : " 0 8\n");
  if (out.binary) {
    out.put<std::int32_t>(1);  // "the integer 1 written in binary mode", for the byte order
    out.w.ch('\n');
  }
  out.w.str("$EndMeshFormat\n");
}

void write_physical_names(Out& out, const WritePlan& plan) {
  if (plan.physical_names.empty()) return;
  out.w.str("$PhysicalNames\n").integer(plan.physical_names.size()).ch('\n');
  for (const auto& [key, name] : plan.physical_names) {
    if (name.find('"') != std::string::npos || name.find('\n') != std::string::npos)
      throw write_error(kFormat, out.file.path(), "physical name '" + name + "' contains a quote or newline");
    out.w.integer(key.first).ch(' ').integer(key.second).str(" \"").str(name).str("\"\n");
  }
  out.w.str("$EndPhysicalNames\n");
}

namespace {

void write_data_section(Out& out, std::string_view section, const std::string& name, const NDArray& a,
                        std::size_t row0) {
  if (name.find('"') != std::string::npos || name.find('\n') != std::string::npos)
    throw write_error(kFormat, out.file.path(), "data name '" + name + "' contains a quote or newline");
  const std::size_t nc = data_components(a, name, out.file.path());
  const std::size_t n = a.dim(0);
  out.w.ch('$').str(section).str("\n1\n\"").str(name).str("\"\n1\n0.0\n3\n0\n").integer(nc).ch('\n').integer(n).ch('\n');
  visit_dtype(a.dtype(), [&](auto t) {
    using T = decltype(t);
    const T* v = static_cast<const T*>(a.raw());
    for (std::size_t i = 0; i < n; ++i) {
      const auto tag = static_cast<std::int32_t>(row0 + i + 1);
      if (out.binary) {
        out.put<std::int32_t>(tag);
        for (std::size_t c = 0; c < nc; ++c) out.put<double>(static_cast<double>(v[i * nc + c]));
      } else {
        out.w.integer(tag);
        for (std::size_t c = 0; c < nc; ++c) out.w.ch(' ').real(static_cast<double>(v[i * nc + c]), io::FloatFormat{});
        out.w.ch('\n');
      }
    }
  });
  if (out.binary) out.w.ch('\n');
  out.w.str("$End").str(section).ch('\n');
}

}  // namespace

void write_data_sections(Out& out, const Mesh& mesh) {
  if (mesh.num_points() > 0x7fffffffu || mesh.num_cells() > 0x7fffffffu)
    if (!mesh.point_data.empty() || !mesh.cell_data.empty())
      throw write_error(kFormat, out.file.path(), "data rows are tagged with 32-bit integers; too many rows");
  for (const auto& [name, a] : mesh.point_data)
    if (!is_tag_data(name)) write_data_section(out, "NodeData", name, a, 0);
  const auto bases = block_bases(mesh.cells);
  for (const auto& [name, list] : mesh.cell_data) {
    if (is_tag_data(name)) continue;
    // One $ElementData per name: rows of every block, tagged with their element tags.
    std::size_t nc = 0;
    for (const auto& a : list) {
      std::size_t c = data_components(a, name, out.file.path());
      if (nc && c != nc) throw write_error(kFormat, out.file.path(), "cell data '" + name + "': blocks differ in components");
      nc = c;
    }
    if (list.empty()) continue;
    if (list.size() == 1) { write_data_section(out, "ElementData", name, list[0], 0); continue; }
    // Concatenate as float64 (Gmsh stores doubles anyway).
    NDArray all = NDArray::uninit(DType::float64, nc == 1 ? NDArray::Shape{static_cast<std::size_t>(bases.back())}
                                                          : NDArray::Shape{static_cast<std::size_t>(bases.back()), nc});
    double* o = all.data<double>();
    for (const auto& a : list)
      for (std::size_t i = 0; i < a.size(); ++i) *o++ = a.value_as_double(i);
    write_data_section(out, "ElementData", name, all, 0);
  }
}

std::string ReadState::next_section() {
  in.cur.skip_space();
  if (in.cur.at_end()) return {};
  const char* at = in.cur.ptr();
  std::string_view l = io::Cursor::trim(in.cur.line());
  if (l.size() < 2 || l.front() != '$' || l.substr(0, 4) == "$End") in.cur.fail_expected("a section header such as $Nodes", at);
  return std::string(l.substr(1));
}

bool ReadState::read_common_section(const std::string& name) {
  if (name == "PhysicalNames") read_physical_names();
  else if (name == "NodeData" || name == "ElementData" || name == "ElementNodeData") read_data(name);
  else return false;
  return true;
}

}  // namespace meshioplusplus::gmsh
