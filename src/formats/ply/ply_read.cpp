// meshio++ PLY reader: ASCII, binary_little_endian and binary_big_endian.
// Spec: http://paulbourke.net/dataformats/ply/
//
// The header declares elements in file order, each with scalar properties and list
// properties ("property list <count type> <item type> <name>"). What becomes of them:
//   element vertex: x, y (and z) are the points (their own float type when all three share
//     it, else float64); every other scalar property is point_data under its own name, as
//     meshio names it; list properties are skipped with a warning.
//   element face: the list "vertex_indices" (or "vertex_index") gives the cells; runs of
//     consecutive faces with the same vertex count form one block, as meshio groups them
//     (1 vertex, 2 line, 3 triangle, 4 quad, more polygon); every other scalar property is
//     cell_data, one array per block; other lists are skipped with a warning.
//   any other element (edge, material, ...): skipped with a warning naming it.
//   comment / obj_info lines: field_data "ply:comment" / "ply:obj_info" (ply_internal.hpp).
// Binary vertex records of scalar properties have a fixed width: they are read in one pass
// that copies each property to its output column, grouped by width so the inner loop has no
// per-property type dispatch; x, y, z alone in their own float type are one bulk copy.
// Faces are walked twice: once to find the runs (and check every count against the bytes
// left), once to fill blocks allocated at their final size.
// Safe for untrusted input: every count is checked against the bytes left before anything
// is allocated from it, every index against the vertex count.
#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>

#include "core/array_parts.hpp"
#include "core/growable_buffer.hpp"
#include "core/io/byteorder.hpp"
#include "core/io/cursor.hpp"
#include "core/io/decode.hpp"
#include "core/io/file.hpp"
#include "core/io/section_reader.hpp"
#include "core/parallel.hpp"
#include "formats/ply/ply_internal.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::ply {

namespace {

struct Property {
  std::string name;
  DType type = DType::float32;  // the scalar's type, or a list's item type
  bool list = false;
  DType count_type = DType::uint8;
  const char* at = nullptr;  // header position, for errors
};

struct Element {
  std::string name;
  std::uint64_t count = 0;
  std::vector<Property> props;
  const char* at = nullptr;
};

enum class Encoding { ascii, binary_little, binary_big };

struct Header {
  Encoding encoding = Encoding::ascii;
  std::vector<Element> elements;
  std::string comments, obj_info;
  bool any_comment = false, any_obj_info = false;
};

NDArray bytes_array(const std::string& s) {
  NDArray a = NDArray::uninit(DType::uint8, {s.size()});
  if (!s.empty()) std::memcpy(a.raw(), s.data(), s.size());
  return a;
}

const char* cell_type_for(std::uint64_t k) {
  switch (k) {
    case 1: return "vertex";
    case 2: return "line";
    case 3: return "triangle";
    case 4: return "quad";
    default: return "polygon";
  }
}

bool is_vertex_list(const Property& p) { return p.list && (p.name == "vertex_indices" || p.name == "vertex_index"); }

// The text of a comment line after its keyword and the one separating space.
std::string_view after_keyword(std::string_view line, std::string_view keyword) {
  line.remove_prefix(std::min(line.size(), keyword.size()));
  if (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  return line;
}

Header parse_header(io::Cursor& cur) {
  Header h;
  {
    const char* at = cur.ptr();
    std::string_view first = io::Cursor::trim(cur.line());
    if (first != "ply") cur.fail_at(expected_found("'ply' as the first line", first), at);
  }
  bool have_format = false;
  for (;;) {
    if (cur.at_end()) cur.fail("truncated header: expected 'end_header', found the end of the file");
    const char* at = cur.ptr();
    const std::string_view line = cur.line();
    io::Cursor words(line, cur.format(), cur.path());
    const std::string_view key = words.token();
    auto fail_here = [&](std::string_view expected, std::string_view found) { cur.fail_at(expected_found(expected, found), at); };
    if (key.empty()) continue;
    if (key == "end_header") break;
    if (key == "comment") {
      if (h.any_comment) h.comments.push_back('\n');
      h.comments.append(after_keyword(line, key));
      h.any_comment = true;
    } else if (key == "obj_info") {
      if (h.any_obj_info) h.obj_info.push_back('\n');
      h.obj_info.append(after_keyword(line, key));
      h.any_obj_info = true;
    } else if (key == "format") {
      const std::string_view enc = words.token();
      const std::string_view version = words.token();
      if (enc == "ascii") h.encoding = Encoding::ascii;
      else if (enc == "binary_little_endian") h.encoding = Encoding::binary_little;
      else if (enc == "binary_big_endian") h.encoding = Encoding::binary_big;
      else fail_here("format ascii, binary_little_endian or binary_big_endian", enc);
      if (version != "1.0") fail_here("format version 1.0", version);
      have_format = true;
    } else if (key == "element") {
      Element e;
      e.at = at;
      e.name = std::string(words.token());
      const std::string_view count = words.token();
      if (e.name.empty() || count.empty()) fail_here("'element <name> <count>'", line);
      const char* end = io::parse_number(count.data(), count.data() + count.size(), e.count);
      if (end != count.data() + count.size()) fail_here("an element count (a non-negative integer)", count);
      h.elements.push_back(std::move(e));
    } else if (key == "property") {
      if (h.elements.empty()) fail_here("'element' before the first 'property'", line);
      Property p;
      p.at = at;
      std::string_view type = words.token();
      if (type == "list") {
        const std::string_view count_type = words.token();
        const auto ct = type_from_name(count_type);
        if (!ct || dtype_is_float(*ct)) fail_here("an integer list count type", count_type);
        p.list = true;
        p.count_type = *ct;
        type = words.token();
      }
      const auto t = type_from_name(type);
      if (!t) fail_here("a PLY scalar type (char uchar short ushort int uint float double, int8 ... float64)", type);
      p.type = *t;
      p.name = std::string(words.token());
      if (p.name.empty()) fail_here("a property name", line);
      h.elements.back().props.push_back(std::move(p));
    } else {
      fail_here("a header keyword (format, comment, obj_info, element, property, end_header)", key);
    }
  }
  if (!have_format) cur.fail("header without a 'format' line");
  return h;
}

// --- binary helpers ------------------------------------------------------------------

std::uint64_t load_count(const char* p, DType t, bool little) {
  switch (t) {
    case DType::int8: return static_cast<std::uint64_t>(static_cast<std::int64_t>(io::load<std::int8_t>(p, little)));
    case DType::uint8: return static_cast<std::uint8_t>(*p);
    case DType::int16: return static_cast<std::uint64_t>(static_cast<std::int64_t>(io::load<std::int16_t>(p, little)));
    case DType::uint16: return io::load<std::uint16_t>(p, little);
    case DType::int32: return static_cast<std::uint64_t>(static_cast<std::int64_t>(io::load<std::int32_t>(p, little)));
    case DType::uint32: return io::load<std::uint32_t>(p, little);
    case DType::int64: return static_cast<std::uint64_t>(io::load<std::int64_t>(p, little));
    default: return io::load<std::uint64_t>(p, little);
  }
}

// Copies `n` fixed-width values from records of `stride` bytes to `dst` rows of
// `dst_stride` bytes; the width is a template constant so the copy is one load and store.
struct Column {
  std::size_t src_offset;
  char* dst;
  std::size_t dst_stride;
};

template <std::size_t W> void copy_columns(const char* records, std::size_t stride, std::size_t n, const std::vector<Column>& cols) {
  if (cols.empty()) return;
  for (std::size_t i = 0; i < n; ++i) {
    const char* rec = records + i * stride;
    for (const Column& c : cols) std::memcpy(c.dst + i * c.dst_stride, rec + c.src_offset, W);
  }
}

// --- ascii helpers -------------------------------------------------------------------

template <class T> const char* parse_into(const char* p, const char* end, char* dst) {
  while (p != end && io::is_space(*p)) ++p;
  T v;
  const char* q = io::parse_number(p, end, v);
  if (!q || (q != end && !io::is_space(*q))) return nullptr;
  std::memcpy(dst, &v, sizeof v);
  return q;
}

using ParseFn = const char* (*)(const char*, const char*, char*);

ParseFn parse_fn(DType t) {
  return visit_dtype(t, [](auto tag) -> ParseFn { return &parse_into<decltype(tag)>; });
}

class Reader {
 public:
  Reader(const std::string& path, unsigned threads) : file_(path, "ply", /*populate=*/false), cur_(file_.text(), "ply", path), threads_(threads) {}

  Mesh read() {
    Header h = parse_header(cur_);
    binary_ = h.encoding != Encoding::ascii;
    if (!binary_) file_.populate();  // text is parsed in place, every byte
    little_ = h.encoding == Encoding::binary_little;
    cur_.set_little_endian(little_);
    for (const Element& e : h.elements)
      if (e.name == "vertex") {
        npoints_ = e.count;
        break;
      }
    bool seen_vertex = false, seen_face = false;
    for (const Element& e : h.elements) {
      if (e.name == "vertex" && !seen_vertex) {
        seen_vertex = true;
        read_vertices(e);
      } else if (e.name == "face" && !seen_face) {
        seen_face = true;
        read_faces(e);
      } else {
        warn("ply: " + cur_.path() + ": element '" + e.name + "' (" + std::to_string(e.count) + " records) is not read; skipped");
        skip_element(e);
      }
    }
    if (!binary_) {
      cur_.skip_space();
      if (!cur_.at_end()) cur_.fail_expected("the end of the file after the last element");
    }
    if (!seen_vertex) mesh_.points = NDArray::uninit(DType::float64, {0, 3});
    if (h.any_comment) mesh_.field_data[kCommentKey] = bytes_array(h.comments);
    if (h.any_obj_info) mesh_.field_data[kObjInfoKey] = bytes_array(h.obj_info);
    return std::move(mesh_);
  }

 private:
  std::size_t min_record_bytes(const Element& e) const {
    std::size_t n = 0;
    for (const Property& p : e.props) n += binary_ ? dtype_size(p.list ? p.count_type : p.type) : 2;
    return n;
  }

  // Skips one list property here (count, then items); binary or text.
  void skip_list(const Property& p, std::string_view what) {
    if (binary_) {
      const std::uint64_t k = load_count(cur_.take(dtype_size(p.count_type), what), p.count_type, little_);
      cur_.need(k, dtype_size(p.type), what);
      cur_.take(k * dtype_size(p.type), what);
    } else {
      const std::uint64_t k = cur_.index(what);
      cur_.need(k, 2, what);
      for (std::uint64_t j = 0; j < k; ++j)
        if (cur_.token().empty()) cur_.fail_expected(what);
    }
  }

  void skip_element(const Element& e) {
    if (e.props.empty()) return;  // records of no bytes
    const std::string what = "element '" + e.name + "'";
    cur_.need(e.count, binary_ ? min_record_bytes(e) : e.props.size(), what);
    bool fixed = true;
    std::size_t width = 0;
    for (const Property& p : e.props) {
      fixed = fixed && !p.list;
      width += dtype_size(p.type);
    }
    if (binary_ && fixed) {
      cur_.take(e.count * width, what);
      return;
    }
    for (std::uint64_t i = 0; i < e.count; ++i)
      for (const Property& p : e.props) {
        if (p.list) skip_list(p, what);
        else if (binary_) cur_.take(dtype_size(p.type), what);
        else if (cur_.token().empty()) cur_.fail_expected(what);
      }
  }

  // --- vertices ----------------------------------------------------------------------
  void read_vertices(const Element& e) {
    std::optional<std::size_t> xyz[3];
    static const char* names[3] = {"x", "y", "z"};
    for (std::size_t i = 0; i < e.props.size(); ++i)
      for (int c = 0; c < 3; ++c)
        if (!e.props[i].list && e.props[i].name == names[c] && !xyz[c]) xyz[c] = i;
    if (!xyz[0] || !xyz[1]) cur_.fail_at("element vertex: expected scalar properties x and y", e.at);
    const std::size_t dim = xyz[2] ? 3 : 2;
    const DType t0 = e.props[*xyz[0]].type;
    bool same = dtype_is_float(t0);
    for (std::size_t c = 1; c < dim; ++c) same = same && e.props[*xyz[c]].type == t0;
    const DType pdt = same ? t0 : DType::float64;

    cur_.need(e.count, binary_ ? min_record_bytes(e) : e.props.size(), "vertices");
    const std::size_t n = e.count;
    mesh_.points = NDArray::uninit(pdt, {n, dim});
    // role of each property: -1 other point data, 0..2 a coordinate, -2 skipped list
    std::vector<int> role(e.props.size(), -1);
    for (std::size_t c = 0; c < dim; ++c) role[*xyz[c]] = static_cast<int>(c);
    std::vector<NDArray*> data(e.props.size(), nullptr);
    for (std::size_t i = 0; i < e.props.size(); ++i) {
      const Property& p = e.props[i];
      if (p.list) {
        role[i] = -2;
        warn("ply: " + cur_.path() + ": vertex list property '" + p.name + "' is not read; skipped");
      } else if (role[i] == -1) {
        if (mesh_.point_data.count(p.name)) {
          role[i] = -3;  // a repeated name: the first one wins
          continue;
        }
        data[i] = &(mesh_.point_data[p.name] = NDArray::uninit(p.type, {n}));
      }
    }
    if (binary_) read_vertices_binary(e, role, data, pdt, dim);
    else read_vertices_ascii(e, role, data, pdt, dim);
  }

  void read_vertices_binary(const Element& e, const std::vector<int>& role, const std::vector<NDArray*>& data, DType pdt, std::size_t dim) {
    const std::size_t n = e.count;
    bool has_list = false;
    std::size_t stride = 0;
    for (const Property& p : e.props) {
      has_list = has_list || p.list;
      stride += dtype_size(p.type);
    }
    char* pts = static_cast<char*>(mesh_.points.raw());
    const std::size_t pw = dtype_size(pdt);
    if (has_list) {  // records of varying width: walk them one by one
      file_.populate();
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < e.props.size(); ++k) {
          const Property& p = e.props[k];
          if (p.list) {
            skip_list(p, "vertex list property");
            continue;
          }
          const char* src = cur_.take(dtype_size(p.type), "vertices");
          if (role[k] >= 0)
            visit_dtype(p.type, [&](auto tag) {
              using T = decltype(tag);
              const double v = static_cast<double>(io::load<T>(src, little_));
              if (pdt == DType::float32) {
                const float f = static_cast<float>(v);
                std::memcpy(pts + (i * dim + static_cast<std::size_t>(role[k])) * pw, &f, 4);
              } else {
                std::memcpy(pts + (i * dim + static_cast<std::size_t>(role[k])) * pw, &v, 8);
              }
            });
          else if (data[k])
            visit_dtype(p.type, [&](auto tag) {
              using T = decltype(tag);
              const T v = io::load<T>(src, little_);
              std::memcpy(static_cast<char*>(data[k]->raw()) + i * sizeof(T), &v, sizeof(T));
            });
        }
      return;
    }
    // x, y, z alone, in order, in the points' type: the records are the points array.
    if (e.props.size() == dim && dtype_size(e.props[0].type) == pw) {
      bool plain = true;
      for (std::size_t c = 0; c < dim; ++c) plain = plain && role[c] == static_cast<int>(c) && e.props[c].type == pdt;
      if (plain) {
        // Read straight into the points (FileBytes::copy_out) on `threads_` threads, each
        // also taking the page faults of its share of the fresh array.
        cur_.need(n * dim, pw, "vertices");
        const std::size_t at = cur_.offset();
        cur_.take(n * dim * pw, "vertices");
        io::read_values(file_, at, n * dim, pw, little_ != io::host_is_little_endian(), threads_, mesh_.points.raw());
        return;
      }
    }
    file_.populate();  // the records are read in place
    const char* records = cur_.take(n * stride, "vertices");
    // Columns grouped by width; coordinates needing conversion to float64 come after.
    std::array<std::vector<Column>, 4> by_width;  // widths 1, 2, 4, 8
    std::vector<std::size_t> convert;             // properties converted to the points' type
    std::size_t off = 0;
    std::vector<std::size_t> offsets(e.props.size());
    for (std::size_t k = 0; k < e.props.size(); ++k) {
      const Property& p = e.props[k];
      offsets[k] = off;
      const std::size_t w = dtype_size(p.type);
      const int slot = w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : 3;
      if (role[k] >= 0) {
        if (p.type == pdt) by_width[slot].push_back({off, pts + static_cast<std::size_t>(role[k]) * pw, dim * pw});
        else convert.push_back(k);
      } else if (data[k]) {
        by_width[slot].push_back({off, static_cast<char*>(data[k]->raw()), w});
      }
      off += w;
    }
    // One pass when every column has one width (the usual case); else one per width.
    copy_columns<1>(records, stride, n, by_width[0]);
    copy_columns<2>(records, stride, n, by_width[1]);
    copy_columns<4>(records, stride, n, by_width[2]);
    copy_columns<8>(records, stride, n, by_width[3]);
    if (little_ != io::host_is_little_endian()) {
      bool points_raw = convert.size() < dim;
      if (points_raw) io::byteswap_inplace(pts, n * dim, pw);
      for (NDArray* d : data)
        if (d) io::byteswap_inplace(d->raw(), n, dtype_size(d->dtype()));
    }
    for (std::size_t k : convert) {
      const std::size_t c = static_cast<std::size_t>(role[k]);
      visit_dtype(e.props[k].type, [&](auto tag) {
        using T = decltype(tag);
        double* out = mesh_.points.data<double>();
        for (std::size_t i = 0; i < n; ++i) out[i * dim + c] = static_cast<double>(io::load<T>(records + i * stride + offsets[k], little_));
      });
    }
  }

  void read_vertices_ascii(const Element& e, const std::vector<int>& role, const std::vector<NDArray*>& data, DType pdt, std::size_t dim) {
    const std::size_t n = e.count;
    struct Op {
      ParseFn parse;  // nullptr: a list to skip
      char* dst;
      std::size_t stride;
      std::size_t prop;
    };
    std::vector<Op> ops;
    char* pts = static_cast<char*>(mesh_.points.raw());
    const std::size_t pw = dtype_size(pdt);
    static thread_local char sink[8];
    for (std::size_t k = 0; k < e.props.size(); ++k) {
      const Property& p = e.props[k];
      if (role[k] >= 0) ops.push_back({parse_fn(pdt), pts + static_cast<std::size_t>(role[k]) * pw, dim * pw, k});
      else if (data[k]) ops.push_back({parse_fn(p.type), static_cast<char*>(data[k]->raw()), dtype_size(p.type), k});
      else if (p.list) ops.push_back({nullptr, nullptr, 0, k});
      else ops.push_back({parse_fn(p.type), sink, 0, k});
    }
    const char* end = cur_.end();
    for (std::size_t i = 0; i < n; ++i)
      for (const Op& op : ops) {
        if (!op.parse) {
          skip_list(e.props[op.prop], "vertex list property");
          continue;
        }
        const char* q = op.parse(cur_.ptr(), end, op.dst + i * op.stride);
        if (!q) {
          cur_.skip_space();
          cur_.fail_expected("vertex " + std::to_string(i) + " property '" + e.props[op.prop].name + "' (" +
                             std::string(dtype_name(e.props[op.prop].type)) + ")");
        }
        cur_.seek(static_cast<std::size_t>(q - cur_.begin()));
      }
  }

  // --- faces -------------------------------------------------------------------------
  struct Run {
    std::uint64_t first, count, k;
  };

  void add_to_runs(std::vector<Run>& runs, std::uint64_t face, std::uint64_t k) {
    if (runs.empty() || runs.back().k != k) runs.push_back({face, 0, k});
    ++runs.back().count;
  }

  void read_faces(const Element& e) {
    std::optional<std::size_t> list;
    for (std::size_t i = 0; i < e.props.size(); ++i)
      if (is_vertex_list(e.props[i]) && !list) list = i;
    if (!list) {
      warn("ply: " + cur_.path() + ": element 'face' has no vertex_indices list; skipped");
      skip_element(e);
      return;
    }
    if (dtype_is_float(e.props[*list].type)) cur_.fail_at("face vertex_indices: expected an integer item type", e.props[*list].at);
    // kind of each property: 0 the vertex list, 1 cell data, 2 skipped scalar, 3 skipped list
    std::vector<int> kind(e.props.size());
    std::vector<std::string> names;
    for (std::size_t i = 0; i < e.props.size(); ++i) {
      const Property& p = e.props[i];
      if (i == *list) kind[i] = 0;
      else if (p.list) {
        kind[i] = 3;
        warn("ply: " + cur_.path() + ": face list property '" + p.name + "' is not read; skipped");
      } else if (p.name == "vertex_indices" || mesh_.cell_data.count(p.name) || std::find(names.begin(), names.end(), p.name) != names.end()) {
        kind[i] = 2;
      } else {
        kind[i] = 1;
        names.push_back(p.name);
      }
    }
    cur_.need(e.count, binary_ ? min_record_bytes(e) : e.props.size() * 2 - 1, "faces");
    if (binary_) read_faces_binary(e, *list, kind);
    else read_faces_ascii(e, kind);
  }

  [[noreturn]] void bad_index(std::uint64_t face, std::int64_t v, const char* at) {
    cur_.fail_at("face " + std::to_string(face) + ": vertex index " + std::to_string(v) + " is out of range (the file has " +
                     std::to_string(npoints_) + " vertices)",
                 at);
  }

  // Cell-data arrays of each run, allocated at their final size; `data[r][k]` for
  // property k of run r (null when k is no cell data).
  // The blocks of `runs` (and their face data arrays) in mesh_; `conn` gets where each
  // block's indices go. With `indices` (every run's, back to back) the blocks are its parts.
  std::vector<std::vector<char*>> allocate_blocks(const Element& e, const std::vector<Run>& runs, const std::vector<int>& kind,
                                                  std::vector<std::int64_t*>& conn, const NDArray* indices = nullptr) {
    std::vector<std::vector<char*>> data(runs.size(), std::vector<char*>(e.props.size(), nullptr));
    std::size_t at = 0;
    for (std::size_t r = 0; r < runs.size(); ++r) {
      NDArray c = indices ? array_part(*indices, at, {runs[r].count, runs[r].k}) : NDArray::uninit(DType::int64, {runs[r].count, runs[r].k});
      at += runs[r].count * runs[r].k;
      conn.push_back(c.data<std::int64_t>());
      mesh_.cells.push_back(CellBlock::rectangular(cell_type_for(runs[r].k), std::move(c)));
      for (std::size_t k = 0; k < e.props.size(); ++k)
        if (kind[k] == 1) {
          NDArray a = NDArray::uninit(e.props[k].type, {runs[r].count});
          data[r][k] = static_cast<char*>(a.raw());
          mesh_.cell_data[e.props[k].name].push_back(std::move(a));
        }
    }
    return data;
  }

  // Decodes `rows` face records (a `cw`-byte count, then k indices of type T) at `src` into
  // `out`, k a compile-time constant for triangles and quads (K > 0). Every index is stored;
  // returns the row of the first index outside the vertices, or `rows` if there is none
  // (found by a second walk only when the branch-free first pass saw one).
  template <class T, std::uint64_t K, bool Swap>
  static std::uint64_t decode_rows(const char* src, std::uint64_t rows, std::uint64_t k, std::size_t cw, std::uint64_t np, std::int64_t* out) {
    if constexpr (K > 0) k = K;
    const std::size_t row = cw + k * sizeof(T);
    bool bad = false;
    for (std::uint64_t f = 0; f < rows; ++f, out += k)
      for (std::uint64_t j = 0; j < k; ++j) {
        const auto v = static_cast<std::int64_t>(io::load_as<T, Swap>(src + f * row + cw + j * sizeof(T)));
        bad |= static_cast<std::uint64_t>(v) >= np;
        out[j] = v;
      }
    if (!bad) return rows;
    for (std::uint64_t f = 0; f < rows; ++f)
      for (std::uint64_t j = 0; j < k; ++j)
        if (static_cast<std::uint64_t>(io::load_as<T, Swap>(src + f * row + cw + j * sizeof(T))) >= np) return f;
    return rows;
  }

  // decode_rows with its compile-time arguments chosen from k and the byte order.
  template <class T>
  std::uint64_t decode_rows_any(const char* src, std::uint64_t rows, std::uint64_t k, std::size_t cw, std::int64_t* out) const {
    auto by_size = [&](auto swap) {
      constexpr bool kSwap = decltype(swap)::value;
      switch (k) {
        case 3: return decode_rows<T, 3, kSwap>(src, rows, k, cw, npoints_, out);
        case 4: return decode_rows<T, 4, kSwap>(src, rows, k, cw, npoints_, out);
        default: return decode_rows<T, 0, kSwap>(src, rows, k, cw, npoints_, out);
      }
    };
    return little_ == io::host_is_little_endian() ? by_size(std::false_type{}) : by_size(std::true_type{});
  }

  // The usual face element (only the vertex list, with a uchar count) when every face has
  // the first face's count: each thread reads its share of the records with
  // FileBytes::copy_out into a buffer of its own, a chunk at a time, checks every count and
  // decodes the indices into the one block. Returns false, having changed nothing, at a
  // count that differs (the general walk then reads the element); throws at the first bad
  // index in file order.
  bool read_uniform_faces_binary(const Element& e, const Property& lp, const std::vector<int>& kind) {
    const std::uint64_t m = e.count;
    if (m == 0 || cur_.left() == 0) return false;
    const auto k = static_cast<std::uint64_t>(static_cast<unsigned char>(*cur_.ptr()));
    const std::size_t iw = dtype_size(lp.type);
    const std::size_t stride = 1 + k * iw;
    if (k == 0 || m > cur_.left() / stride) return false;
    const std::size_t base = cur_.offset();
    std::vector<std::int64_t*> conn;
    std::vector<Run> runs{{0, m, k}};
    allocate_blocks(e, runs, kind, conn);
    struct Outcome {
      std::uint64_t other_count = UINT64_MAX, bad_face = UINT64_MAX;
    };
    std::vector<Outcome> outcome(io::chunk_ranges(m, threads_));
    io::read_chunks(file_, base, m, stride, threads_, [&](std::size_t r, std::size_t c0, std::size_t rows, const char* bytes) {
      for (std::size_t f = 0; f < rows; ++f)
        if (static_cast<unsigned char>(bytes[f * stride]) != k) {
          outcome[r].other_count = c0 + f;
          return false;
        }
      const std::uint64_t bad = visit_dtype(lp.type, [&](auto tag) { return decode_rows_any<decltype(tag)>(bytes, rows, k, 1, conn[0] + c0 * k); });
      if (bad == rows) return true;
      outcome[r].bad_face = c0 + bad;
      return false;
    });
    for (const Outcome& o : outcome)
      if (o.other_count != UINT64_MAX) {
        mesh_.cells.pop_back();
        return false;
      }
    for (const Outcome& o : outcome) {  // ranges are in file order
      if (o.bad_face == UINT64_MAX) continue;
      const char* rec = cur_.ptr() + o.bad_face * stride;
      for (std::uint64_t j = 0; j < k; ++j) {
        const char* at = rec + 1 + j * iw;
        char bytes[8];
        file_.copy_out(static_cast<std::size_t>(at - cur_.begin()), iw, bytes);
        const auto v = visit_dtype(lp.type, [&](auto tag) { return static_cast<std::int64_t>(io::load<decltype(tag)>(bytes, little_)); });
        if (v < 0 || static_cast<std::uint64_t>(v) >= npoints_) bad_index(o.bad_face, v, at);
      }
    }
    cur_.seek(base + m * stride);
    return true;
  }

  void read_faces_binary(const Element& e, std::size_t list, const std::vector<int>& kind) {
    const Property& lp = e.props[list];
    const std::size_t cw = dtype_size(lp.count_type);
    const char* start = cur_.ptr();
    const char* end = cur_.end();
    const bool only_list = e.props.size() == 1;
    if (only_list && lp.count_type == DType::uint8 && read_uniform_faces_binary(e, lp, kind)) return;
    file_.populate();  // the walks below read every record through the mapping
    // Pass 1: the vertex count of every face (runs), every count checked against the end.
    std::vector<Run> runs;
    if (only_list && lp.count_type == DType::uint8) {
      // The usual record (a uchar count, then the indices): a tight walk over the counts.
      const std::size_t iw = dtype_size(lp.type);
      const char* p = start;
      for (std::uint64_t f = 0; f < e.count; ++f) {
        if (p == end) cur_.fail_at("truncated face " + std::to_string(f) + ": expected a list count", p);
        const std::uint64_t k = static_cast<unsigned char>(*p);
        if (k == 0) cur_.fail_at("face " + std::to_string(f) + ": expected at least one vertex, found 0", p);
        if (k * iw > static_cast<std::size_t>(end - p - 1))
          cur_.fail_at("face " + std::to_string(f) + ": list of " + std::to_string(k) + " items runs past the end of the file", p);
        p += 1 + k * iw;
        if (runs.empty() || runs.back().k != k) runs.push_back({f, 0, k});
        ++runs.back().count;
      }
    } else {
      const char* p = start;
      for (std::uint64_t f = 0; f < e.count; ++f) {
        std::uint64_t k = 0;
        for (std::size_t j = 0; j < e.props.size(); ++j) {
          const Property& prop = e.props[j];
          if (!prop.list) {
            if (static_cast<std::size_t>(end - p) < dtype_size(prop.type)) cur_.fail_at("truncated face " + std::to_string(f), p);
            p += dtype_size(prop.type);
            continue;
          }
          const std::size_t w = dtype_size(prop.count_type);
          if (static_cast<std::size_t>(end - p) < w) cur_.fail_at("truncated face " + std::to_string(f) + ": expected a list count", p);
          const std::uint64_t c = load_count(p, prop.count_type, little_);
          const std::size_t item = dtype_size(prop.type);
          if (c > static_cast<std::uint64_t>(end - p - w) / item)
            cur_.fail_at("face " + std::to_string(f) + ": list of " + std::to_string(c) + " items runs past the end of the file", p);
          if (j == list) {
            if (c == 0) cur_.fail_at("face " + std::to_string(f) + ": expected at least one vertex, found 0", p);
            k = c;
          }
          p += w + c * item;
        }
        add_to_runs(runs, f, k);
      }
    }
    // Pass 2: fill the blocks.
    std::vector<std::int64_t*> conn;
    auto data = allocate_blocks(e, runs, kind, conn);
    const std::int64_t np = static_cast<std::int64_t>(npoints_);
    const char* p = start;
    visit_dtype(lp.type, [&](auto tag) {
      using T = decltype(tag);
      if (only_list) {
        // The usual record (count, then indices) has one width within a run, so every
        // chunk of faces knows where its bytes start: chunks are filled on `threads_`
        // threads, each writing its own rows. The first bad index in file order is reported
        // whatever the thread count.
        struct Chunk {
          std::size_t run;
          std::uint64_t f0, n;
          const char* at;
          std::uint64_t bad_face = UINT64_MAX;
          std::int64_t bad_value = 0;
          const char* bad_at = nullptr;
        };
        constexpr std::uint64_t kChunk = 1 << 16;
        std::vector<Chunk> chunks;
        for (std::size_t r = 0; r < runs.size(); ++r) {
          const std::size_t rs = cw + runs[r].k * sizeof(T);
          for (std::uint64_t f0 = 0; f0 < runs[r].count; f0 += kChunk)
            chunks.push_back({r, f0, std::min(kChunk, runs[r].count - f0), p + f0 * rs});
          p += runs[r].count * rs;
        }
        const bool little = little_;
        parallel_for(chunks.size(), threads_, [&](std::size_t c) {
          Chunk& ch = chunks[c];
          const std::uint64_t k = runs[ch.run].k;
          const std::uint64_t bad = decode_rows_any<T>(ch.at, ch.n, k, cw, conn[ch.run] + ch.f0 * k);
          if (bad == ch.n) return;
          const char* rec = ch.at + bad * (cw + k * sizeof(T));
          for (std::uint64_t j = 0; j < k; ++j) {
            const auto v = static_cast<std::int64_t>(io::load<T>(rec + cw + j * sizeof(T), little));
            if (v < 0 || v >= np) {
              ch.bad_face = runs[ch.run].first + ch.f0 + bad;
              ch.bad_value = v;
              ch.bad_at = rec + cw + j * sizeof(T);
              return;
            }
          }
        });
        for (const Chunk& ch : chunks)  // chunks are in file order
          if (ch.bad_at) bad_index(ch.bad_face, ch.bad_value, ch.bad_at);
        return;
      }
      for (std::size_t r = 0; r < runs.size(); ++r) {
        std::int64_t* out = conn[r];
        const std::uint64_t k = runs[r].k;
        for (std::uint64_t f = 0; f < runs[r].count; ++f)
          for (std::size_t j = 0; j < e.props.size(); ++j) {
            const Property& prop = e.props[j];
            const std::size_t w = dtype_size(prop.type);
            switch (kind[j]) {
              case 0:
                p += cw;
                for (std::uint64_t m = 0; m < k; ++m, p += sizeof(T)) {
                  const auto v = static_cast<std::int64_t>(io::load<T>(p, little_));
                  if (v < 0 || v >= np)
                    bad_index(runs[r].first + f, v, p);
                  *out++ = v;
                }
                break;
              case 1:
                std::memcpy(data[r][j] + f * w, p, w);
                p += w;
                break;
              case 2: p += w; break;
              default: {
                const std::size_t c = load_count(p, prop.count_type, little_);
                p += dtype_size(prop.count_type) + c * w;
              }
            }
          }
      }
    });
    if (little_ != io::host_is_little_endian())
      for (std::size_t r = 0; r < runs.size(); ++r)
        for (std::size_t j = 0; j < e.props.size(); ++j)
          if (data[r][j]) io::byteswap_inplace(data[r][j], runs[r].count, dtype_size(e.props[j].type));
    cur_.seek(static_cast<std::size_t>(p - cur_.begin()));
  }

  void read_faces_ascii(const Element& e, const std::vector<int>& kind) {
    // One pass into growing buffers (the runs are known only at the end); the indices, run
    // after run, are then the blocks themselves (parts of one array), the data is copied.
    GrowableBuffer idx;  // int64
    std::vector<std::vector<char>> values(e.props.size());
    std::vector<ParseFn> parse(e.props.size(), nullptr);
    for (std::size_t j = 0; j < e.props.size(); ++j)
      if (kind[j] == 1) parse[j] = parse_fn(e.props[j].type);
    std::vector<Run> runs;
    const char* end = cur_.end();
    for (std::uint64_t f = 0; f < e.count; ++f) {
      std::uint64_t k = 0;
      for (std::size_t j = 0; j < e.props.size(); ++j) {
        const Property& prop = e.props[j];
        switch (kind[j]) {
          case 0: {
            // parse_uint directly: the error text is built only on failure
            const char* p = cur_.ptr();
            if (!io::parse_uint(p, end, k)) cur_.fail_expected("the vertex count of face " + std::to_string(f), p);
            if (k == 0) cur_.fail_at("face " + std::to_string(f) + ": expected at least one vertex, found 0", p);
            cur_.seek(static_cast<std::size_t>(p - cur_.begin()));
            cur_.need(k, 2, "face vertices");
            const std::uint64_t np = npoints_;
            for (std::uint64_t m = 0; m < k; ++m) {
              std::uint64_t v = 0;
              if (!io::parse_uint(p, end, v)) cur_.fail_expected("a vertex index of face " + std::to_string(f), p);
              if (v >= np) bad_index(f, static_cast<std::int64_t>(v), p);
              idx.push(static_cast<std::int64_t>(v));
            }
            cur_.seek(static_cast<std::size_t>(p - cur_.begin()));
            break;
          }
          case 1: {
            auto& buf = values[j];
            const std::size_t w = dtype_size(prop.type);
            buf.resize(buf.size() + w);
            const char* q = parse[j](cur_.ptr(), end, buf.data() + buf.size() - w);
            if (!q) {
              cur_.skip_space();
              cur_.fail_expected("face " + std::to_string(f) + " property '" + prop.name + "' (" + std::string(dtype_name(prop.type)) + ")");
            }
            cur_.seek(static_cast<std::size_t>(q - cur_.begin()));
            break;
          }
          case 2:
            if (cur_.token().empty()) cur_.fail_expected("face " + std::to_string(f) + " property '" + prop.name + "'");
            break;
          default: skip_list(prop, "face list property");
        }
      }
      add_to_runs(runs, f, k);
    }
    std::vector<std::int64_t*> conn;
    const NDArray indices = idx.take(DType::int64, {idx.size() / sizeof(std::int64_t)});
    auto data = allocate_blocks(e, runs, kind, conn, &indices);
    for (std::size_t r = 0; r < runs.size(); ++r) {
      for (std::size_t j = 0; j < e.props.size(); ++j)
        if (data[r][j]) {
          const std::size_t w = dtype_size(e.props[j].type);
          std::memcpy(data[r][j], values[j].data() + runs[r].first * w, runs[r].count * w);
        }
    }
  }

  io::FileBytes file_;
  io::Cursor cur_;
  Mesh mesh_;
  bool binary_ = false;
  bool little_ = true;
  std::uint64_t npoints_ = 0;
  unsigned threads_ = 1;
};

}  // namespace

Mesh read_ply(const std::string& path, const Options& options) {
  OptionReader opts(options, "ply");
  opts.finish();
  return Reader(path, opts.threads()).read();
}

}  // namespace meshioplusplus::ply
