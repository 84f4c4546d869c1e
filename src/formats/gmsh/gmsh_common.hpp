// meshio++ formats, Gmsh MSH: pieces shared by the per-version readers and writers.
//
//   * the element-type table (Gmsh type id <-> meshio name, node count, node permutation);
//   * Input: one cursor over the mapped file that reads ASCII or binary values of the
//     widths the format declares, in either byte order, and checks every declared count
//     against the bytes left before anything is allocated;
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

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/io/byteorder.hpp"
#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "core/io/cursor.hpp"
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

class Input {
 public:
  Input(std::string_view text, std::string_view path) : cur(text, kFormat, path), path_(path) {}

  io::TextCursor cur;
  bool binary = false;
  bool little = true;        // byte order of binary values
  int size_bytes = 8;        // data-size: width of size_t values in binary 4.x
  std::string_view path() const { return path_; }

  std::size_t left() const { return static_cast<std::size_t>(cur.end() - cur.ptr()); }

  [[noreturn]] void fail(std::string_view what) const { cur.fail(what); }
  [[noreturn]] void fail_expected(std::string_view what) const { cur.fail_expected(what, cur.ptr()); }

  // A declared `count` of items, each at least `min_bytes` long, must fit in what is left.
  void need(std::uint64_t count, std::size_t min_bytes, std::string_view what) const {
    if (min_bytes != 0 && count > left() / min_bytes)
      fail("declared " + std::to_string(count) + " " + std::string(what) + " but only " + std::to_string(left()) +
           " bytes remain");
  }
  // Bytes a value takes at least: binary width, or one digit plus a separator.
  std::size_t min_bytes(std::size_t width) const { return binary ? width : 2; }

  // Binary: `n` raw bytes must remain.
  const char* take(std::size_t n, std::string_view what) {
    if (left() < n) fail(std::string("truncated ") + std::string(what) + ": expected " + std::to_string(n) + " bytes, found " + std::to_string(left()));
    const char* p = cur.ptr();
    cur.seek(cur.offset() + n);
    return p;
  }
  template <class T> T load(std::string_view what) { return io::load<T>(take(sizeof(T), what), little); }

  // Values in the file's encoding: ASCII tokens or binary of the given width.
  std::int32_t int32(std::string_view what) {
    return binary ? load<std::int32_t>(what) : cur.number<std::int32_t>(what);
  }
  double real(std::string_view what) { return binary ? load<double>(what) : cur.number<double>(what); }
  // size_t of data-size bytes (4.1), or unsigned long (4.0).
  std::uint64_t size(std::string_view what) {
    if (!binary) return cur.number<std::uint64_t>(what);
    if (size_bytes == 4) return load<std::uint32_t>(what);
    return load<std::uint64_t>(what);
  }
  std::int64_t ssize(std::string_view what) {  // signed long (4.0 $Periodic)
    if (!binary) return cur.number<std::int64_t>(what);
    if (size_bytes == 4) return load<std::int32_t>(what);
    return load<std::int64_t>(what);
  }
  // Reads `n` values of `what` and discards them (bounding boxes, parametric coordinates).
  void skip_reals(std::size_t n, std::string_view what) {
    if (binary) { take(8 * n, what); return; }
    for (std::size_t i = 0; i < n; ++i) cur.number<double>(what);
  }

  // After a section's data: whitespace, then "$End<name>" on its own line.
  void end_section(std::string_view name);
  // Skips an unknown section: "Any section with an unrecognized header is simply ignored".
  void skip_section(std::string_view name);
  // A plain ASCII integer on its own (headers of data sections, 2.2 counts).
  template <class T> T ascii(std::string_view what) { return cur.number<T>(what); }

 private:
  std::string path_;
};

// The hot-loop integer parser of the ASCII element / node-tag lists: whitespace, then up
// to 19 decimal digits ending at whitespace or the end. Inlined digit loop: libstdc++'s
// from_chars is an out-of-line call that costs more than the parse of a short tag.
// Returns false (with `p` at the token) when the token is not such a number.
inline bool fast_uint(const char*& p, const char* end, std::uint64_t& out) {
  while (p != end && io::is_space(*p)) ++p;
  const char* q = p;
  std::uint64_t v = 0;
  while (q != end && static_cast<unsigned char>(*q - '0') < 10 && q - p < 19) v = v * 10 + static_cast<unsigned>(*q++ - '0');
  if (q == p || (q != end && !io::is_space(*q))) return false;
  out = v;
  p = q;
  return true;
}

// Node tags (sparse, any order) -> 0-based indices: a dense table when the tags are
// compact (the usual case, one load per lookup), else sorted pairs and binary search.
class NodeMap {
 public:
  void build(const std::vector<std::uint64_t>& tags, Input& in);
  bool built() const { return built_; }
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
  // -1 when unknown.
  std::int64_t find(std::uint64_t tag) const;

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

// Reads the body of the file after $MeshFormat, one function per version.
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
WritePlan plan_write(const Mesh& mesh, bool with_entities);
void write22(const std::string& path, const Mesh& mesh, const WriteOptions& opt);
void write41(const std::string& path, const Mesh& mesh, const WriteOptions& opt);
void write40(const std::string& path, const Mesh& mesh, const WriteOptions& opt);  // gmsh40_write.cpp

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
  template <class T> void put(T v) { w.str(std::string_view(reinterpret_cast<const char*>(&v), sizeof v)); }
  void bytes(const void* p, std::size_t n) { w.str(std::string_view(static_cast<const char*>(p), n)); }
  void commit() { w.flush(); file.commit(); }
};

// Sections both writers share: $MeshFormat, $PhysicalNames, $NodeData / $ElementData
// (int32 tag + doubles per binary row in every version).
void write_header(Out& out, std::string_view version);
void write_physical_names(Out& out, const WritePlan& plan);
void write_data_sections(Out& out, const Mesh& mesh);

// Data components Gmsh accepts (1, 3 or 9); throws WriteError naming the array.
std::size_t data_components(const NDArray& a, const std::string& name);
// The point_data / cell_data arrays written as $NodeData / $ElementData (not the tags).
bool is_tag_data(const std::string& name);

}  // namespace meshioplusplus::gmsh
