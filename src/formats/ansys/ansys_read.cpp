// meshio++ ANSYS Fluent reader: the sections of a mesh (.msh) or case (.cas) file.
// Spec: ANSYS Fluent / TGrid user's guide, appendix "Mesh File Format"
// (https://romeo.univ-reims.fr/documents/fluent/tgrid/ug/appb.pdf).
//
// A file is a list of sections "(<index> ...)", the index in decimal, every number inside
// the mesh sections in hexadecimal (coordinates excepted). Read here:
//   (0 "...") comment, (1 "...") header, (2 d) dimension
//   (10 (zone first last type [ND]) (x y [z] ...))     nodes; 2010 / 3010: the body in
//                                                      binary float32 / float64
//   (12 (zone first last type element-type) [(...)])   cells; a mixed zone (element
//                                                      type 0) lists each cell's type;
//                                                      2012 / 3012: int32 / int64 body
//   (13 (zone first last bc-type face-type) (...))     faces, each "n0 n1 ... c0 c1"
//                                                      (mixed and polygonal zones lead
//                                                      with the node count); 2013 / 3013
//   (39 (zone type name) ...), (45 (zone type name) ())  zone names
// A zone id 0 header declares a total and has no body. Binary bodies are little endian and
// start right after their '(' (meshio puts a line break first: both are accepted); the
// text up to the section's ')' ("End of Binary Section 3010") is skipped. The file is
// mapped without its pages: binary node and cell-node bodies are taken with pread on
// several threads (core/io/section_reader.hpp); everything else is parsed through the
// mapping, populated at the first such body, text rows of one shape (nodes, cell nodes,
// faces) on several threads (core/io/parallel_rows.hpp).
//
// meshio's own writer puts each cell's nodes into the cell section (element types 1-6
// with a body): such a file is read back as those cells, block per section, as meshio
// does. Otherwise the volume cells are rebuilt from the faces (ansys_cells.cpp).
//
// Any other section (periodic shadows 18, face and cell trees 58/59, solver settings of a
// case file, ...) is skipped with a warning naming its index and line. Safe for untrusted
// input: every count is checked against the bytes left, every index against its range.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <limits>
#include <memory>

#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "core/io/parallel_rows.hpp"
#include "core/io/section_reader.hpp"
#include "formats/ansys/ansys_internal.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::ansys {

namespace {

// Each byte's value as a hexadecimal digit, 16 for any other byte (one load per digit in
// the face rows, the bulk of a Fluent file).
constexpr std::array<std::uint8_t, 256> kHexDigit = [] {
  std::array<std::uint8_t, 256> t{};
  for (unsigned c = 0; c < 256; ++c)
    t[c] = c >= '0' && c <= '9' ? static_cast<std::uint8_t>(c - '0')
         : c >= 'a' && c <= 'f' ? static_cast<std::uint8_t>(c - 'a' + 10)
         : c >= 'A' && c <= 'F' ? static_cast<std::uint8_t>(c - 'A' + 10)
                                : std::uint8_t{16};
  return t;
}();
inline unsigned hex_digit(char c) { return kHexDigit[static_cast<unsigned char>(c)]; }

// Whitespace, then up to 16 hex digits ending at whitespace, a parenthesis or the end.
inline bool parse_hex(const char*& p, const char* end, std::uint64_t& out) {
  while (p != end && io::is_space(*p)) ++p;
  const char* q = p;
  std::uint64_t v = 0;
  for (unsigned d; q != end && q - p < 16 && (d = hex_digit(*q)) < 16; ++q) v = v * 16 + d;
  if (q == p || (q != end && !io::is_space(*q) && *q != ')' && *q != '(')) return false;
  out = v;
  p = q;
  return true;
}

struct NodeSection {
  std::uint64_t first;
  NDArray points;
};

struct CellSection {
  std::int32_t zone;
  std::uint64_t first, last, element_type;
  std::vector<std::uint8_t> types;  // mixed zone: each cell's type
  NDArray nodes;                    // meshio's layout: each cell's nodes (0-based)
  const char* at;
  std::uint64_t top = 0;            // the largest of `nodes` taken as unsigned
};

class Reader {
 public:
  Reader(const std::string& path, unsigned threads) : file_(path, "ansys", /*populate=*/false), cur_(file_.text(), "ansys", path), path_(path) {
    topo_.threads = threads;
    line_ptr_ = cur_.begin();
  }

  Mesh read() {
    for (;;) {
      cur_.skip_space();
      if (cur_.at_end()) break;
      const char* at = cur_.ptr();
      if (*at != '(') cur_.fail_expected("'(' opening a section", at);
      cur_.set_ptr(at + 1);
      cur_.skip_space();
      const char* index_at = cur_.ptr();
      std::uint64_t index = 0;
      const char* p = index_at;
      while (p != cur_.end() && *p >= '0' && *p <= '9' && p - index_at < 9) index = index * 10 + static_cast<unsigned>(*p++ - '0');
      if (p == index_at) cur_.fail_expected("a section index", index_at);
      cur_.set_ptr(p);
      const unsigned width = index >= 3000 ? 8 : index >= 2000 ? 4 : 0;  // binary body: bytes per value
      switch (index) {
        case 2: dimension(); break;
        case 10: case 2010: case 3010: nodes(width, at); break;
        case 12: case 2012: case 3012: cells(width, at); break;
        case 13: case 2013: case 3013: faces(width, at); break;
        case 39: case 45: zone_section(); break;
        case 0: case 1: skip_balanced(1, at); break;
        default: skip_unknown(index, width, at); break;
      }
    }
    return finish();
  }

 private:
  // --- lexing ----------------------------------------------------------------------------
  std::uint64_t hex(std::string_view what) {
    const char* p = cur_.ptr();
    std::uint64_t v = 0;
    if (!parse_hex(p, cur_.end(), v)) cur_.fail_expected(what, p);
    cur_.set_ptr(p);
    return v;
  }
  void expect(char c, std::string_view what) {
    cur_.skip_space();
    if (cur_.at_end() || *cur_.ptr() != c) cur_.fail_expected(what, cur_.ptr());
    cur_.set_ptr(cur_.ptr() + 1);
  }
  // "(a b c ...)": up to `max` hex values; returns how many.
  std::size_t header(std::uint64_t* out, std::size_t max, std::size_t min, std::uint64_t index) {
    expect('(', "'(' opening the header of section " + std::to_string(index));
    std::size_t n = 0;
    for (;;) {
      cur_.skip_space();
      if (!cur_.at_end() && *cur_.ptr() == ')') break;
      if (n == max) cur_.fail_expected("')' closing the header of section " + std::to_string(index), cur_.ptr());
      out[n++] = hex("a hexadecimal header value");
    }
    if (n < min)
      cur_.fail_expected(std::to_string(min) + " header values in section " + std::to_string(index), cur_.ptr());
    cur_.set_ptr(cur_.ptr() + 1);
    return n;
  }
  // After a header: true when a body "(" follows, false when the section closes here.
  bool body_follows(std::uint64_t index) {
    cur_.skip_space();
    if (cur_.at_end()) cur_.fail("section " + std::to_string(index) + " ends before its ')'");
    if (*cur_.ptr() == ')') {
      cur_.set_ptr(cur_.ptr() + 1);
      return false;
    }
    expect('(', "'(' opening the body of section " + std::to_string(index) + ", or ')'");
    return true;
  }
  // The ')' closing a body, then the section's own ')', skipping the text binary sections
  // carry between them ("End of Binary Section 3010").
  void close_body(std::uint64_t index, unsigned width) {
    expect(')', "')' closing the body of section " + std::to_string(index));
    cur_.skip_space();
    if (width && cur_.starts_with("End of Binary Section")) {
      const char* p = cur_.ptr();
      while (p != cur_.end() && *p != ')' && *p != '(') ++p;
      cur_.set_ptr(p);
    }
    expect(')', "')' closing section " + std::to_string(index));
  }
  // Where a binary body of `bytes` bytes starts: right after its '(' (Fluent), or after
  // one line break there (meshio's writer) when only that reading ends at a ')'.
  void binary_start(std::size_t bytes, std::string_view what) {
    auto ends_at_paren = [&](const char* start) {
      if (static_cast<std::size_t>(cur_.end() - start) < bytes) return false;
      const char* q = start + bytes;
      while (q != cur_.end() && io::is_space(*q)) ++q;
      return q != cur_.end() && *q == ')';
    };
    const char* p = cur_.ptr();
    for (std::string_view nl : {"\n", "\r\n"})
      if (cur_.starts_with(nl) && ends_at_paren(p + nl.size()) && !ends_at_paren(p)) {
        cur_.set_ptr(p + nl.size());
        break;
      }
    cur_.need(bytes, 1, what);
  }
  // Skips to the ')' that closes `depth` open parentheses, strings ("...") included.
  void skip_balanced(int depth, const char* at) {
    const char* p = cur_.ptr();
    const char* end = cur_.end();
    while (depth > 0) {
      if (p == end) cur_.fail_at("a section that never closes: expected ')' before the end of the file", at);
      const char c = *p++;
      if (c == '(') ++depth;
      else if (c == ')') --depth;
      else if (c == '"') {
        while (p != end && *p != '"') p += (*p == '\\' && p + 1 != end) ? 2 : 1;
        if (p == end) cur_.fail_at("a string that never closes: expected '\"' before the end of the file", at);
        ++p;
      }
    }
    cur_.set_ptr(p);
  }
  // The cursor's position as an offset into the file (for FileBytes::copy_out).
  std::size_t offset() const { return static_cast<std::size_t>(cur_.ptr() - file_.data()); }
  // `count` text rows of one line each from the cursor, parsed by parse(start, r0, r1) on
  // several threads where io::parallel_rows can cut them, else in one pass (which also finds
  // the first error in file order); returns where the last row ends.
  template <class Parse>
  const char* rows(std::size_t count, Parse& parse) {
    const char* stop = io::parallel_rows(cur_.ptr(), cur_.end(), count, topo_.threads, parse);
    return stop ? stop : parse(cur_.ptr(), 0, count);
  }
  // Before a large body is parsed through the mapping (text, or binary rows of varying
  // length): maps the file's pages in one call rather than a fault per page.
  void parse_through_mapping() {
    if (!populated_) file_.populate();
    populated_ = true;
  }
  std::int64_t line_at(const char* at) {
    for (; line_ptr_ < at; ++line_ptr_) line_ += (*line_ptr_ == '\n');
    return line_;
  }

  // --- sections --------------------------------------------------------------------------
  void dimension() {
    const char* at = cur_.ptr();
    const std::uint64_t d = hex("a dimension");
    if (d != 2 && d != 3) cur_.fail_at(expected_found("dimension 2 or 3", std::to_string(d)), at);
    topo_.dim = d;
    have_dim_ = true;
    expect(')', "')' closing section 2");
  }

  void nodes(unsigned width, const char* at) {
    const std::uint64_t index = width == 8 ? 3010 : width == 4 ? 2010 : 10;
    std::uint64_t h[5];
    const std::size_t n = header(h, 5, 3, index);
    if (h[0] == 0) {  // a declaration of the total
      if (body_follows(index)) cur_.fail_at("a zone-0 node declaration with a body", at);
      return;
    }
    if (!body_follows(index)) return;  // a zone header without nodes
    const std::uint64_t nd = n >= 5 ? h[4] : (have_dim_ ? topo_.dim : 3);
    if (nd != 2 && nd != 3) cur_.fail_at(expected_found("ND 2 or 3", std::to_string(nd)), at);
    if (h[1] == 0 || h[2] < h[1]) cur_.fail_at("node ids " + std::to_string(h[1]) + ".." + std::to_string(h[2]) + ": expected 1 <= first <= last", at);
    const std::uint64_t count = h[2] - h[1] + 1;
    if (count > io::kMaxCount) cur_.fail_at("node count over the limit", at);
    NDArray pts;
    if (width) {
      binary_start(count * nd * width, "binary node coordinates");
      pts = NDArray::uninit(width == 8 ? DType::float64 : DType::float32, {count, nd});
      io::read_values(file_, offset(), count * nd, width, !io::host_is_little_endian(), topo_.threads, pts.raw());
      cur_.set_ptr(cur_.ptr() + count * nd * width);
      if (width == 4) pts = pts.as_dtype(DType::float64);
    } else {
      parse_through_mapping();
      cur_.need_values(count * nd, "node coordinates");
      pts = NDArray::uninit(DType::float64, {count, nd});
      double* x = pts.data<double>();
      const char* end = cur_.end();
      auto parse = [&](const char* p, std::size_t r0, std::size_t r1) {
        for (std::size_t i = r0 * nd, m = r1 * nd; i < m; ++i) {
          while (p != end && io::is_space(*p)) ++p;
          const char* q = io::parse_number(p, end, x[i]);
          if (!q || (q != end && !io::is_space(*q) && *q != ')')) cur_.fail_expected("a node coordinate", p);
          p = q;
        }
        return p;
      };
      cur_.set_ptr(rows(count, parse));
    }
    close_body(index, width);
    node_sections_.push_back(NodeSection{h[1], std::move(pts)});
  }

  std::int32_t zone_index(std::uint64_t id, bool faces) {
    for (std::size_t i = 0; i < topo_.zones.size(); ++i)
      if (topo_.zones[i].id == id && topo_.zones[i].faces == faces) return static_cast<std::int32_t>(i);
    topo_.zones.push_back(Zone{id, faces, 0, {}, {}});
    return static_cast<std::int32_t>(topo_.zones.size() - 1);
  }

  void cells(unsigned width, const char* at) {
    const std::uint64_t index = width == 8 ? 3012 : width == 4 ? 2012 : 12;
    std::uint64_t h[5] = {0, 0, 0, 0, 0};
    const std::size_t n = header(h, 5, 3, index);
    if (h[0] == 0) {  // the total
      if (body_follows(index)) cur_.fail_at("a zone-0 cell declaration with a body", at);
      declared_cells_ = std::max(declared_cells_, h[2]);
      return;
    }
    if (h[2] < h[1]) cur_.fail_at("cell ids " + std::to_string(h[1]) + ".." + std::to_string(h[2]) + ": expected first <= last", at);
    const std::uint64_t count = h[2] - h[1] + 1;
    if (count > io::kMaxCount) cur_.fail_at("cell count over the limit", at);
    CellSection s{zone_index(h[0], false), h[1], h[2], n >= 5 ? h[4] : 0, {}, {}, at};
    if (s.element_type > 7) cur_.fail_at(expected_found("a cell element type 0..7", std::to_string(s.element_type)), at);
    if (body_follows(index)) {
      if (s.element_type == 0) {  // mixed: one type per cell
        parse_through_mapping();
        if (width) binary_start(count * width, "binary cell types");
        else cur_.need_values(count, "cell types");
        s.types.resize(count);
        for (std::size_t i = 0; i < count; ++i) {
          const char* p = cur_.ptr();
          const std::uint64_t t = width ? (width == 8 ? static_cast<std::uint64_t>(cur_.load<std::int64_t>("a cell type"))
                                                     : static_cast<std::uint64_t>(static_cast<std::uint32_t>(cur_.load<std::int32_t>("a cell type"))))
                                        : hex("a cell type");
          if (t > 7) cur_.fail_at(expected_found("a cell type 1..7", std::to_string(t)), p);
          s.types[i] = static_cast<std::uint8_t>(t);
        }
      } else {
        const CellCode* code = cell_code(s.element_type);
        if (!code) cur_.fail_at("a polyhedral cell zone (element type 7) with a body: expected none", at);
        // meshio's layout: every cell's nodes.
        const std::size_t k = static_cast<std::size_t>(code->nodes);
        const std::size_t m = cur_.product(count, k, "cell nodes", at);
        if (width) binary_start(m * width, "binary cell nodes");
        else cur_.need_values(m, "cell nodes");
        s.nodes = NDArray::uninit(DType::int64, {count, k});
        std::int64_t* out = s.nodes.data<std::int64_t>();
        // Made 0-based on the way; checked against the points at the end.
        if (width) {
          const bool swap = !io::host_is_little_endian();
          s.top = width == 8 ? io::read_indices<std::int64_t>(file_, offset(), m, swap, 1, topo_.threads, out)
                             : io::read_indices<std::int32_t>(file_, offset(), m, swap, 1, topo_.threads, out);
          cur_.set_ptr(cur_.ptr() + m * width);
        } else {
          parse_through_mapping();
          const char* end = cur_.end();
          std::atomic<std::uint64_t> top{0};  // the largest index, met while parsing (pieces run at once)
          auto parse = [&](const char* p, std::size_t r0, std::size_t r1) {
            std::uint64_t v = 0, mine = 0;
            for (std::size_t i = r0 * k; i < r1 * k; ++i) {
              if (!parse_hex(p, end, v)) cur_.fail_expected("a node index", p);
              out[i] = static_cast<std::int64_t>(v - 1);
              mine = std::max(mine, static_cast<std::uint64_t>(out[i]));
            }
            for (std::uint64_t seen = top.load(); mine > seen && !top.compare_exchange_weak(seen, mine);) {
            }
            return p;
          };
          cur_.set_ptr(rows(count, parse));
          s.top = top.load();
        }
      }
      close_body(index, width);
    }
    cell_sections_.push_back(std::move(s));
  }

  void faces(unsigned width, const char* at) {
    const std::uint64_t index = width == 8 ? 3013 : width == 4 ? 2013 : 13;
    std::uint64_t h[5] = {0, 0, 0, 0, 0};
    const std::size_t n = header(h, 5, 3, index);
    if (h[0] == 0) {  // a declaration of the total
      if (body_follows(index)) cur_.fail_at("a zone-0 face declaration with a body", at);
      declared_faces_ = std::max(declared_faces_, h[2]);
      return;
    }
    if (!body_follows(index)) return;  // a zone header without faces
    if (h[2] < h[1]) cur_.fail_at("face ids " + std::to_string(h[1]) + ".." + std::to_string(h[2]) + ": expected first <= last", at);
    const std::uint64_t count = h[2] - h[1] + 1;
    const std::uint64_t type = n >= 5 ? h[4] : 0;
    if (type != 0 && type != 2 && type != 3 && type != 4 && type != 5)
      cur_.fail_at(expected_found("a face type 0, 2, 3, 4 or 5", std::to_string(type)), at);
    const std::int32_t zone = zone_index(h[0], true);
    topo_.zones[static_cast<std::size_t>(zone)].bc_type = n >= 4 ? h[3] : 0;
    const bool counted = type == 0 || type == 5;  // each row leads with its node count
    parse_through_mapping();
    // The shortest row: 2 nodes and 2 cells (text: a digit and a separator each).
    if (width) cur_.need(count, 4 * width, "faces");
    else cur_.need(count, 8, "faces");
    Faces& f = topo_.faces;
    // Room for every face section at once when the zone-0 declaration gave the total (as
    // many as the bytes left can hold, 8 a face at least), so a later section never copies
    // the earlier ones; else for this section.
    const std::uint64_t total = std::min<std::uint64_t>(declared_faces_, f.c0.size() + cur_.left() / 8 + 1);
    const std::uint64_t room = std::max<std::uint64_t>(count, total > f.c0.size() ? total - f.c0.size() : 0);
    f.offsets.reserve(f.offsets.size() + room);
    f.nodes.reserve(f.nodes.size() + room * (counted ? 3 : type));
    f.c0.reserve(f.c0.size() + room);
    f.c1.reserve(f.c1.size() + room);
    f.zone.reserve(f.zone.size() + room);
    if (width && !counted) binary_start(count * (type + 2) * width, "binary faces");
    auto value = [&](std::string_view what) -> std::int64_t {
      if (width == 8) {
        const std::int64_t v = cur_.load<std::int64_t>(what);
        if (v < 0) cur_.fail_at(expected_found(std::string(what) + " >= 0", std::to_string(v)), cur_.ptr() - 8);
        return v;
      }
      if (width == 4) return static_cast<std::int64_t>(static_cast<std::uint32_t>(cur_.load<std::int32_t>(what)));
      const char* p = cur_.ptr();
      const std::uint64_t v = hex(what);
      if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) cur_.fail_expected(what, p);
      return static_cast<std::int64_t>(v);
    };
    if (!width && !counted) {
      // The hot path: fixed-size text rows, parsed on raw pointers.
      const std::size_t k = static_cast<std::size_t>(type);
      const std::size_t base = f.nodes.size();
      f.nodes.resize(base + count * k);
      f.c0.resize(f.c0.size() + count);
      f.c1.resize(f.c1.size() + count);
      std::int64_t* nodes = f.nodes.data() + base;
      std::int64_t* c0 = f.c0.data() + f.c0.size() - count;
      std::int64_t* c1 = f.c1.data() + f.c1.size() - count;
      const char* end = cur_.end();
      auto parse = [&](const char* p, std::size_t r0, std::size_t r1) {
        std::uint64_t v = 0;
        for (std::size_t i = r0; i < r1; ++i) {
          for (std::size_t j = 0; j < k; ++j) {
            if (!parse_hex(p, end, v)) cur_.fail_expected("a node index", p);
            nodes[i * k + j] = static_cast<std::int64_t>(v - 1);
          }
          if (!parse_hex(p, end, v)) cur_.fail_expected("a cell index (c0)", p);
          c0[i] = static_cast<std::int64_t>(v - 1);
          if (!parse_hex(p, end, v)) cur_.fail_expected("a cell index (c1)", p);
          c1[i] = static_cast<std::int64_t>(v - 1);
        }
        return p;
      };
      cur_.set_ptr(rows(count, parse));
      const std::size_t before = f.offsets.size();
      const std::int64_t off = f.offsets.back();
      f.offsets.resize(before + count);
      std::int64_t* o = f.offsets.data() + before;
      for (std::size_t i = 0; i < count; ++i) o[i] = off + static_cast<std::int64_t>((i + 1) * k);
      f.zone.insert(f.zone.end(), count, zone);
    } else if (width && counted) {
      // Rows of varying length: where the body starts (right after '(' or after meshio's
      // line break) is found by parsing from each and keeping the one that ends at ')'.
      const char* body = cur_.ptr();
      const std::size_t sizes[5] = {f.offsets.size(), f.nodes.size(), f.c0.size(), f.c1.size(), f.zone.size()};
      for (int attempt = 0;; ++attempt) {
        try {
          counted_rows(count, type, zone, width, value);
          const char* p = cur_.ptr();
          while (p != cur_.end() && io::is_space(*p)) ++p;
          if (p == cur_.end() || *p != ')') cur_.fail_expected("')' closing the body of section " + std::to_string(index), p);
          break;
        } catch (const ReadError&) {
          if (attempt == 1 || !(*body == '\n')) throw;
          f.offsets.resize(sizes[0]);
          f.nodes.resize(sizes[1]);
          f.c0.resize(sizes[2]);
          f.c1.resize(sizes[3]);
          f.zone.resize(sizes[4]);
          cur_.set_ptr(body + 1);
        }
      }
    } else {
      counted_rows(count, type, zone, width, value);
    }
    close_body(index, width);
    face_sections_at_.push_back(at);
  }

  template <class Value>
  void counted_rows(std::uint64_t count, std::uint64_t type, std::int32_t zone, unsigned width, Value& value) {
    Faces& f = topo_.faces;
    const bool counted = type == 0 || type == 5;
    {
      for (std::size_t i = 0; i < count; ++i) {
        const char* row = cur_.ptr();
        std::int64_t k = static_cast<std::int64_t>(type);
        if (counted) {
          k = value("a face node count");
          if (k < 2 || k > 1024) cur_.fail_at(expected_found("a face node count 2..1024", std::to_string(k)), row);
        }
        cur_.need(static_cast<std::uint64_t>(k) + 2, width ? width : 2, "face values");
        for (std::int64_t j = 0; j < k; ++j) f.nodes.push_back(value("a node index") - 1);
        f.c0.push_back(value("a cell index (c0)") - 1);
        f.c1.push_back(value("a cell index (c1)") - 1);
        f.offsets.push_back(f.offsets.back() + k);
        f.zone.push_back(zone);
      }
    }
  }

  // (39 (zone-id type name ...) ...) and (45 (zone-id type name ...)()): the zone's name.
  void zone_section() {
    const char* at = cur_.ptr();
    expect('(', "'(' opening a zone header");
    std::string_view words[3];
    std::size_t n = 0;
    const char* p = cur_.ptr();
    const char* end = cur_.end();
    while (n < 3) {
      while (p != end && io::is_space(*p)) ++p;
      const char* b = p;
      while (p != end && !io::is_space(*p) && *p != '(' && *p != ')' && *p != '"') ++p;
      if (p == b) break;
      words[n++] = std::string_view(b, static_cast<std::size_t>(p - b));
    }
    cur_.set_ptr(p);
    skip_balanced(1, at);  // the rest of the header
    skip_balanced(1, at);  // the rest of the section
    if (n == 3) names_.push_back({std::string(words[0]), std::string(words[1]), std::string(words[2])});
  }

  void skip_unknown(std::uint64_t index, unsigned width, const char* at) {
    warn("ansys: skipped section " + std::to_string(index) + " at line " + std::to_string(line_at(at)) + ": not mesh data");
    if (!width) return skip_balanced(1, at);
    // A binary body cannot be skipped by its parentheses: Fluent ends it with this text.
    static constexpr std::string_view kEnd = "End of Binary Section";
    const std::string_view rest = cur_.rest();
    const std::size_t e = rest.find(kEnd);
    if (e == std::string_view::npos)
      cur_.fail_at("binary section " + std::to_string(index) + " has no \"End of Binary Section\" to skip to", at);
    cur_.set_ptr(cur_.ptr() + e + kEnd.size());
    const char* p = cur_.ptr();
    while (p != cur_.end() && *p != ')' && *p != '(') ++p;
    cur_.set_ptr(p);
    expect(')', "')' closing section " + std::to_string(index));
  }

  // --- the mesh ---------------------------------------------------------------------------
  Mesh finish() {
    Mesh m;
    // Points: sections by first id, covering 1..N once.
    std::sort(node_sections_.begin(), node_sections_.end(), [](const NodeSection& a, const NodeSection& b) { return a.first < b.first; });
    std::size_t total = 0, nd = node_sections_.empty() ? topo_.dim : node_sections_.front().points.dim(1);
    for (const auto& s : node_sections_) {
      if (s.first != total + 1)
        cur_.fail_at("node ids must run 1..N without gaps or overlaps: a node section starts at id " + std::to_string(s.first) +
                         ", expected " + std::to_string(total + 1), cur_.end());
      if (s.points.dim(1) != nd) cur_.fail_at("node sections of different ND (" + std::to_string(nd) + ", " + std::to_string(s.points.dim(1)) + ")", cur_.end());
      total += s.points.dim(0);
    }
    if (node_sections_.size() == 1) {
      m.points = std::move(node_sections_.front().points);
    } else {
      m.points = NDArray::uninit(DType::float64, {total, nd});
      std::size_t row = 0;
      for (const auto& s : node_sections_) {
        if (s.points.size()) std::memcpy(m.points.data<double>() + row * nd, s.points.raw(), s.points.nbytes());
        row += s.points.dim(0);
      }
    }
    topo_.num_points = total;
    topo_.dim = nd;
    resolve_names();

    bool explicit_nodes = false;
    for (const auto& s : cell_sections_) explicit_nodes = explicit_nodes || s.nodes.size() > 0;
    if (explicit_nodes) {  // meshio's layout
      if (topo_.faces.c0.size()) warn("ansys: cells list their nodes (meshio's layout); the " + std::to_string(topo_.faces.c0.size()) + " faces are not read");
      for (auto& s : cell_sections_) {
        if (s.nodes.size() == 0) continue;
        const std::int64_t* v = s.nodes.data<std::int64_t>();
        if (s.top >= total)  // find the first bad index for the message
          for (std::size_t i = 0; i < s.nodes.size(); ++i)
            if (static_cast<std::uint64_t>(v[i]) >= total)
              cur_.fail_at("node index " + std::to_string(v[i] + 1) + " is outside 1.." + std::to_string(total), s.at);
        m.cells.push_back(CellBlock::rectangular(std::string(cell_code(s.element_type)->type), std::move(s.nodes)));
      }
      return m;
    }

    // Cells from the faces.
    std::uint64_t num_cells = declared_cells_;
    for (const auto& s : cell_sections_) num_cells = std::max(num_cells, s.last);
    const Faces& f = topo_.faces;
    std::int64_t max_cell = -1;
    for (std::size_t i = 0; i < f.c0.size(); ++i) max_cell = std::max({max_cell, f.c0[i], f.c1[i]});
    num_cells = std::max<std::uint64_t>(num_cells, static_cast<std::uint64_t>(max_cell) + 1);
    // A cell has at least 3 faces, a face is in at most 2 cells.
    if (num_cells > f.c0.size() * 2 / 3 + 1 && num_cells > 0 && !f.c0.empty())
      cur_.fail_at("declared " + std::to_string(num_cells) + " cells but the " + std::to_string(f.c0.size()) + " faces can bound at most " +
                       std::to_string(f.c0.size() * 2 / 3), cur_.end());
    if (f.c0.empty()) num_cells = 0;
    for (std::size_t i = 0; i < f.nodes.size(); ++i)
      if (static_cast<std::uint64_t>(f.nodes[i]) >= total)
        cur_.fail_at("face node index " + std::to_string(f.nodes[i] + 1) + " is outside 1.." + std::to_string(total), face_at(i));
    topo_.num_cells = num_cells;
    topo_.cell_type.assign(num_cells, 0);
    topo_.cell_zone.assign(num_cells, -1);
    for (const auto& s : cell_sections_) {
      if (s.first == 0 || s.last > num_cells) {
        if (s.last > num_cells && !f.c0.empty()) cur_.fail_at("cell ids " + std::to_string(s.first) + ".." + std::to_string(s.last) + " are outside 1.." + std::to_string(num_cells), s.at);
        if (s.first == 0) cur_.fail_at("cell ids start at 1, found 0", s.at);
        continue;
      }
      for (std::uint64_t c = s.first; c <= s.last; ++c) {
        topo_.cell_type[c - 1] = s.types.empty() ? static_cast<std::uint8_t>(s.element_type) : s.types[c - s.first];
        topo_.cell_zone[c - 1] = s.zone;
      }
    }
    build_cells(topo_, m, path_);
    return m;
  }

  const char* face_at(std::size_t) const { return face_sections_at_.empty() ? cur_.end() : face_sections_at_.front(); }

  // Zone sections name zones by id: in decimal in Fluent's files, in hexadecimal in some
  // exporters' (ICEM); the id is read as decimal when a zone has that id, else as hex.
  void resolve_names() {
    for (const auto& [id_text, type, name] : names_) {
      std::uint64_t dec = 0, hx = 0;
      const bool is_dec = io::parse_count(id_text, dec);
      const char* p = id_text.data();
      const bool is_hex = parse_hex(p, id_text.data() + id_text.size(), hx) && p == id_text.data() + id_text.size();
      Zone* hit = nullptr;
      for (auto& z : topo_.zones)
        if (is_dec && z.id == dec) hit = &z;
      if (!hit)
        for (auto& z : topo_.zones)
          if (is_hex && z.id == hx) hit = &z;
      if (hit) {
        hit->name = name;
        hit->type_word = type;
      }
    }
  }

  io::FileBytes file_;
  io::Cursor cur_;
  std::string path_;
  Topology topo_;
  bool have_dim_ = false;
  bool populated_ = false;  // parse_through_mapping() has mapped the pages
  std::uint64_t declared_cells_ = 0, declared_faces_ = 0;
  std::vector<NodeSection> node_sections_;
  std::vector<CellSection> cell_sections_;
  std::vector<const char*> face_sections_at_;
  struct Name {
    std::string id, type, name;
  };
  std::vector<Name> names_;
  const char* line_ptr_ = nullptr;
  std::int64_t line_ = 1;
};

}  // namespace

Mesh read_ansys(const std::string& path, const Options& options) {
  OptionReader opts(options, "ansys");
  opts.finish();
  return Reader(path, opts.threads()).read();
}

}  // namespace meshioplusplus::ansys
