// meshio++ formats, Gmsh MSH: pieces shared by the per-version readers and writers.
//
//   * the element-type table (Gmsh type id <-> meshio name, node count, node permutation);
//   * Input: Gmsh's layer over io::Cursor (file-type, data-size, sections); the cursor
//     does the bounds, byte order and errors, and checks every declared count against the
//     bytes left before anything is allocated;
//   * NodeMap: sparse, unordered node tags -> 0-based point indices;
//   * ReadState: what every version collects ($PhysicalNames, entity physical tags, per
//     block tags, data sections) and the one place that turns it into a Mesh in meshio's
//     shape (gmsh:physical / gmsh:geometrical / gmsh:dim_tags, field_data, regions).
//   * WritePlan: what both writers derive from a Mesh (types, tags, physical groups,
//     entities) before they emit a byte.
//
// Spec: https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format (version 4.1) and
// https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format-version-2-_0028Legacy_0029.
// Safe for untrusted input: every read is bounded by the end of the file; no count is
// trusted before it is compared with the bytes that remain.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/io/byteorder.hpp"
#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "core/io/cursor.hpp"
#include "formats/gmsh/gmsh.hpp"
#include "meshioplusplus/format.hpp"
#include "meshioplusplus/mesh.hpp"

namespace meshioplusplus::gmsh {

inline constexpr std::string_view kFormat = "gmsh";

// One Gmsh element type. `to_ours[i]` is the position, in our (VTK / meshio) row, of the
// i-th node of Gmsh's row; identity when Gmsh's order already is ours.
struct ElementType {
  int id = 0;
  std::string_view name;
  int num_nodes = 0;
  int dim = 0;
  std::array<std::uint16_t, 27> to_ours_small{};  // for the permuted types (<= 27 nodes)
  bool permuted = false;
  int to_ours(int i) const { return permuted ? to_ours_small[static_cast<std::size_t>(i)] : i; }
};

// nullptr when Gmsh's id / our name has no counterpart.
const ElementType* element_type(int gmsh_id);
const ElementType* element_type(std::string_view name);

// ---------------------------------------------------------------------------------------
// Reading

// Gmsh's own layer over io::Cursor: the file-type (ASCII or binary) and data-size declared
// in $MeshFormat, values read in that encoding, and sections. Bounds, byte order, typed
// loads and errors are the cursor's.
class Input {
 public:
  Input(std::string_view text, std::string_view path, unsigned threads) : cur(text, kFormat, path), threads(threads) {}

  io::Cursor cur;
  bool binary = false;
  int size_bytes = 8;    // data-size: width of size_t values in binary 4.x
  unsigned threads = 1;  // the `threads` option (OptionReader::threads)
  // The file `cur` walks (its text is the whole file): binary sections are copied out of it
  // with pread (io/section_reader.hpp) rather than decoded through the mapping, whose pages
  // are then never touched. Null when the bytes are not a file's.
  const io::FileBytes* file = nullptr;
  std::size_t offset_of(const char* p) const { return static_cast<std::size_t>(p - cur.begin()); }

  [[noreturn]] void fail(std::string_view what) const { cur.fail(what); }

  // Bytes a value takes at least: binary width, or one digit plus a separator.
  std::size_t min_bytes(std::size_t width) const { return binary ? width : 2; }

  // Values in the file's encoding: ASCII tokens or binary of the given width.
  std::int32_t int32(std::string_view what) {
    return binary ? cur.load<std::int32_t>(what) : cur.number<std::int32_t>(what);
  }
  double real(std::string_view what) { return binary ? cur.load<double>(what) : cur.number<double>(what); }
  // size_t of data-size bytes (4.1), or unsigned long (4.0).
  std::uint64_t size(std::string_view what) {
    if (!binary) return cur.number<std::uint64_t>(what);
    if (size_bytes == 4) return cur.load<std::uint32_t>(what);
    return cur.load<std::uint64_t>(what);
  }
  std::int64_t ssize(std::string_view what) {  // signed long (4.0 $Periodic)
    if (!binary) return cur.number<std::int64_t>(what);
    if (size_bytes == 4) return cur.load<std::int32_t>(what);
    return cur.load<std::int64_t>(what);
  }
  // Reads `n` values of `what` and discards them (bounding boxes, parametric coordinates).
  void skip_reals(std::size_t n, std::string_view what) {
    if (binary) { cur.take(8 * n, what); return; }
    for (std::size_t i = 0; i < n; ++i) cur.number<double>(what);
  }
  // An optional ASCII line "Affine v..." of a periodic link (2.2, and 4.0 ASCII).
  void affine_line(PeriodicLink& link);

  // After a section's data: whitespace, then "$End<name>" on its own line.
  void end_section(std::string_view name);
  // Skips an unknown section: "Any section with an unrecognized header is simply ignored".
  void skip_section(std::string_view name);
};

// Element blocks at least this long are parsed on several threads; row_chunks() is how
// many pieces a block of `rows` is cut into for `threads` (1: parsed in order). The result
// never depends on it.
inline constexpr std::size_t kParallelRows = 1 << 15;
inline std::size_t row_chunks(std::size_t rows, unsigned threads) {
  return rows >= kParallelRows ? std::min<std::size_t>(std::max(threads, 1u), 8) : 1;
}

// Node tags (sparse, any order) -> 0-based indices: a dense table when the tags are
// compact (the usual case, one load per lookup), else sorted pairs and binary search.
class NodeMap {
 public:
  void build(const std::vector<std::uint64_t>& tags, Input& in);
  bool built() const { return built_; }
  // Tags 1..size() in file order: a tag's index is tag - 1, no table.
  bool identity() const { return identity_; }
  std::uint64_t size() const { return count_; }
  std::int64_t find(std::uint64_t tag) const {
    if (identity_) return tag - 1 < count_ ? static_cast<std::int64_t>(tag - 1) : -1;  // tags 1..n in order
    if (dense_mode_) return tag < dense_.size() ? dense_[tag] : -1;
    return find_sparse(tag);
  }

 private:
  std::int64_t find_sparse(std::uint64_t tag) const;
  bool built_ = false;
  bool identity_ = false;
  std::uint64_t count_ = 0;
  bool dense_mode_ = true;
  std::vector<std::int64_t> dense_;
  std::vector<std::pair<std::uint64_t, std::int64_t>> sparse_;
};

// Element tags -> global cell index: the common "1..N in file order" case costs nothing;
// anything else switches to a full table, filled in from the range seen so far.
class ElementTags {
 public:
  void push(std::uint64_t tag) {
    if (consecutive_) {
      if (count_ == 0) first_ = tag;
      if (tag == first_ + count_) { ++count_; return; }
      consecutive_ = false;
      tags_.reserve(count_ + 1);
      for (std::uint64_t i = 0; i < count_; ++i) tags_.push_back(first_ + i);
    }
    tags_.push_back(tag);
    ++count_;
  }
  // Tags first, first + 1, ..., first + count - 1: O(1) while the tags stay consecutive.
  void push_range(std::uint64_t first, std::uint64_t count) {
    if (consecutive_ && (count_ == 0 || first == first_ + count_)) {
      if (count_ == 0) first_ = first;
      count_ += count;
      return;
    }
    for (std::uint64_t i = 0; i < count; ++i) push(first + i);
  }
  // -1 when unknown.
  std::int64_t find(std::uint64_t tag) const;
  // Every tag pushed, in order.
  std::vector<std::uint64_t> all() const {
    if (!consecutive_) return tags_;
    std::vector<std::uint64_t> out(count_);
    for (std::uint64_t i = 0; i < count_; ++i) out[i] = first_ + i;
    return out;
  }

 private:
  bool consecutive_ = true;
  std::uint64_t first_ = 0, count_ = 0;
  std::vector<std::uint64_t> tags_;
  mutable std::vector<std::pair<std::uint64_t, std::int64_t>> sorted_;
};

struct ReadState {
  explicit ReadState(Input& input) : in(input) {}
  Input& in;
  bool version2 = false;  // 2.2: per-element tags (int32), no node entities

  // $Nodes
  NDArray points;                     // (n, 3) float64
  NDArray dim_tags;                   // (n, 2) int64, 4.x only
  std::vector<std::uint64_t> node_tags;
  NodeMap nodes;
  // $Elements
  std::vector<CellBlock> blocks;
  std::vector<int> block_dim, block_entity;  // 4.x: the entity of each block
  std::vector<NDArray> physical, geometrical;  // per block, 2.2 (per element)
  ElementTags element_tags;
  bool have_elements = false;
  // $PhysicalNames: (dim, tag) -> name, in file order
  std::vector<std::pair<std::pair<int, int>, std::string>> names;
  // $Entities: (dim, tag) -> physical tags
  std::map<std::pair<int, int>, std::vector<int>> entity_physicals;
  bool have_entities = false;
  std::vector<PeriodicLink> periodic;
  std::map<std::string, NDArray> point_data;
  std::map<std::string, std::vector<NDArray>> cell_data;
  // Set by read_with_partitions: $PartitionedEntities' partitions and $GhostElements go here
  // (4.1); else those are read and dropped.
  PartitionInfo* partitions = nullptr;

  void read_physical_names();
  // The next section's name without its '$' ("" at the end of the file); a line that is no
  // section header raises ReadError. Every version's reader loops over this.
  std::string next_section();
  // Reads the sections every version shares ($PhysicalNames, the data sections) and skips
  // unknown ones as the manual requires; false for a name the version must handle itself.
  bool read_common_section(const std::string& name);
  // $NodeData / $ElementData / $ElementNodeData (same layout in every version; binary
  // rows are int32 tag + doubles).
  void read_data(std::string_view section);
  // Maps a node tag (for errors: `at` is where it was read).
  std::int64_t node_index(std::uint64_t tag, const char* at) const {
    std::int64_t i = nodes.find(tag);
    if (i < 0) in.cur.fail_at("node tag " + std::to_string(tag) + " does not exist in $Nodes", at);
    return i;
  }
  void require_nodes(std::string_view section) const {
    if (!nodes.built()) in.fail(std::string("$").append(section) + " before $Nodes");
  }

  Mesh finish();
};

// One block's binary element rows as they lie in the file: `rows` rows of `row_bytes`
// bytes from `p`, each the element tag (at byte `tag_offset`), then (from byte
// `node_offset`) the node tags, all
// unsigned of `tag_bytes` (4 or 8) bytes in the cursor's byte order. MSH 2.2 rows also
// carry the physical and elementary tags (int32 4 and 8 bytes after it), stored per row into
// `phys` / `geom` when given.
struct BinaryRows {
  const char* p = nullptr;
  std::size_t rows = 0, row_bytes = 0, node_offset = 0, tag_bytes = 8;
  std::size_t tag_offset = 0;  // where in a row the element tag is (2.2: after a group header)
  std::int32_t* phys = nullptr;
  std::int32_t* geom = nullptr;
};
// Decodes the rows straight into `conn` (rows x k indices, our node order) in one pass on
// the reader's threads: node tags become indices on the way (no intermediate array), the
// element tags are recorded (a range when consecutive). A bad node tag raises ReadError
// naming the first one in file order, whatever the thread count. Bytes are the caller's to
// bound (Cursor::take).
void decode_element_rows(ReadState& st, const ElementType& t, const BinaryRows& rows, std::int64_t* conn);
// The same for rows that lie in the file (`rows.p` points into Input::file's mapping): read
// with pread a few MiB at a time into a buffer and decoded from there, so the mapping's
// pages are not touched; a bad row is decoded again from the mapping, for its error.
void decode_element_rows_from_file(ReadState& st, const ElementType& t, const BinaryRows& rows, std::int64_t* conn);

// Reads the body of the file after $MeshFormat: 2.2 (gmsh22.cpp), 4.0 and 4.1 (one reader
// with a layout per version, gmsh4_read.cpp).
Mesh read22(ReadState& st);
Mesh read40(ReadState& st);
Mesh read41(ReadState& st);

// ---------------------------------------------------------------------------------------
// Writing

struct WriteOptions {
  bool binary = true;
  std::string float_fmt;  // "" = shortest round-trip
};

struct WriteEntity {
  int dim = 0;
  int tag = 0;
  std::vector<int> physicals;  // sorted, unique
  std::array<double, 6> box{0, 0, 0, 0, 0, 0};
};

struct BlockPlan {
  const ElementType* type = nullptr;
  int uniform_entity = -1;            // >= 0: every cell of the block is in this entity
  std::vector<std::int32_t> entity;   // else: the entity of each cell
  // 4.1 element blocks of this block: (entity, local cells; empty = all cells).
  std::vector<std::pair<int, std::vector<std::int64_t>>> groups;
};

struct WritePlan {
  std::vector<BlockPlan> blocks;
  std::vector<WriteEntity> entities;
  std::vector<std::pair<std::pair<int, int>, std::string>> physical_names;  // sorted by (dim, tag)
  // 4.1 nodes: runs of consecutive points sharing one entity.
  struct NodeRun { std::int64_t begin, end; int entity; };
  std::vector<NodeRun> node_runs;
};

// `with_entities`: also compute entity boxes and node runs (4.1).
// Errors name `path`, the file about to be written.
WritePlan plan_write(const Mesh& mesh, bool with_entities, const std::string& path);
void write22(const std::string& path, const Mesh& mesh, const WriteOptions& opt);

// What MSH 4.0 and 4.1 lay out differently in their entity, node, element and periodic
// blocks: the one reader (gmsh4_read.cpp) and the one writer (gmsh4_write.cpp) of both
// versions are driven by it.
struct Layout {
  bool tag_range;         // 4.1: minTag maxTag after the counts of $Nodes / $Elements
  bool dim_first;         // 4.1: entityDim entityTag; 4.0: entityTag entityDim
  bool tags_then_coords;  // 4.1: a node block's tags, then its coordinates; 4.0: rows
  bool point_box;         // 4.0: a point entity has a 6-double box; 4.1: 3 coordinates
  bool size_t_tags;       // 4.1: node / element tags in rows are size_t; 4.0: int
  bool partitioned;       // 4.1 knows $PartitionedEntities; 4.0 skips it as unknown
  bool affine_count;      // 4.1 $Periodic: numAffine (size_t) then the values; 4.0: an
                          // "Affine" line (binary: a negative long node count, 16 values)
};
inline constexpr Layout kLayout40{false, false, false, true, false, false, false};
inline constexpr Layout kLayout41{true, true, true, false, true, true, true};

void write4(const std::string& path, const Mesh& mesh, const WriteOptions& opt, const Layout& L);  // gmsh4_write.cpp
inline void write40(const std::string& path, const Mesh& mesh, const WriteOptions& opt) { write4(path, mesh, opt, kLayout40); }
inline void write41(const std::string& path, const Mesh& mesh, const WriteOptions& opt) { write4(path, mesh, opt, kLayout41); }

// The output of both writers: text through TextWriter (to_chars), binary values appended
// raw in the host's byte order (the endianness marker written in $MeshFormat says which).
class Out {
 public:
  Out(const std::string& path, const WriteOptions& opt)
      : file(path, kFormat), w(file), binary(opt.binary), ff(io::FloatFormat::parse(opt.float_fmt)) {}
  io::AtomicFile file;
  io::TextWriter w;
  bool binary;
  io::FloatFormat ff;
  template <class T> void put(T v) { w.bytes(&v, sizeof v); }
  void bytes(const void* p, std::size_t n) { w.bytes(p, n); }
  void commit() { w.flush(); file.commit(); }
};

// The element rows of both writers: for the j-th of `m` cells of a block (local cell
// cells[j], or j when `cells` is empty) fills nodes[0..k) with the 1-based node tags in
// Gmsh's node order, then calls emit(j, local).
template <class Tag, class Emit>
void element_rows(const NDArray& conn, const ElementType& t, std::size_t m, const std::vector<std::int64_t>& cells,
                  Tag* nodes, Emit&& emit) {
  const auto k = static_cast<std::size_t>(t.num_nodes);
  visit_dtype(conn.dtype(), [&](auto tv) {
    using T = decltype(tv);
    if constexpr (!std::is_floating_point_v<T>) {
      const T* c = static_cast<const T*>(conn.raw());
      for (std::size_t j = 0; j < m; ++j) {
        const auto local = cells.empty() ? j : static_cast<std::size_t>(cells[j]);
        const T* r = c + local * k;
        for (std::size_t i = 0; i < k; ++i) nodes[i] = static_cast<Tag>(r[t.to_ours(static_cast<int>(i))]) + 1;
        emit(j, local);
      }
    }
  });
}

// The binary form of element_rows(): rows of `Lead` leading values (filled by
// lead(j, local, row)) and the k node tags, built in memory a few MiB at a time and each
// batch written with one call, instead of a buffered append per row.
template <class Tag, std::size_t Lead, class LeadFn>
void binary_element_rows(Out& out, const NDArray& conn, const ElementType& t, std::size_t m,
                         const std::vector<std::int64_t>& cells, LeadFn&& lead) {
  const auto k = static_cast<std::size_t>(t.num_nodes);
  const std::size_t width = Lead + k;
  const std::size_t batch = std::max<std::size_t>(1, (std::size_t(4) << 20) / (width * sizeof(Tag)));
  std::vector<Tag> buf(std::min(batch, m) * width);
  visit_dtype(conn.dtype(), [&](auto tv) {
    using T = decltype(tv);
    if constexpr (!std::is_floating_point_v<T>) {
      const T* c = static_cast<const T*>(conn.raw());
      auto fill = [&](auto permuted) {
        for (std::size_t j0 = 0; j0 < m; j0 += batch) {
          const std::size_t j1 = std::min(m, j0 + batch);
          Tag* row = buf.data();
          for (std::size_t j = j0; j < j1; ++j, row += width) {
            const auto local = cells.empty() ? j : static_cast<std::size_t>(cells[j]);
            lead(j, local, row);
            const T* r = c + local * k;
            for (std::size_t i = 0; i < k; ++i)
              row[Lead + i] = static_cast<Tag>(r[decltype(permuted)::value ? t.to_ours_small[i] : i]) + 1;
          }
          out.bytes(buf.data(), (j1 - j0) * width * sizeof(Tag));
        }
      };
      if (t.permuted) fill(std::true_type{});
      else fill(std::false_type{});
    }
  });
}

// Sections both writers share: $MeshFormat, $PhysicalNames, $NodeData / $ElementData
// (int32 tag + doubles per binary row in every version).
void write_header(Out& out, std::string_view version);
void write_physical_names(Out& out, const WritePlan& plan);
void write_data_sections(Out& out, const Mesh& mesh);

// Data components Gmsh accepts (1, 3 or 9); throws WriteError naming the file and array.
std::size_t data_components(const NDArray& a, const std::string& name, const std::string& path);
// The point_data / cell_data arrays written as $NodeData / $ElementData (not the tags).
bool is_tag_data(const std::string& name);

}  // namespace meshioplusplus::gmsh
