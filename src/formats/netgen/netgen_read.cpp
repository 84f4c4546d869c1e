// meshio++ Netgen reader (.vol text, .vol.gz: the same text gzip-compressed).
// Spec: https://github.com/NGSolve/netgen/blob/master/libsrc/meshing/meshclass.cpp
//
// "mesh3d", then sections, each a keyword line, a count line and that many rows; blank lines
// and lines starting with '#' are skipped between rows. Read as meshio reads them:
//   dimension, geomtype (a value outside 0, 1, 10..13 warns, as meshio);
//   points: x y z rows (the first `dimension` columns kept);
//   pointelements ("pnum index"), edgesegments / edgesegmentsgi / edgesegmentsgi2 ("surfid
//   0 p1 p2 ..."), surfaceelements / surfaceelementsgi / surfaceelementsuv ("surfnr bcnr
//   domin domout np p1 .. pnp ..."), volumeelements ("matnr np p1 .. pnp"): cells, 1-based
//   node numbers put in meshio's order (netgen_internal.hpp); a block per run of one type,
//   across sections; the index (pnum's index, surfid, bcnr, matnr) is cell data
//   "netgen:index";
//   materials / bcnames / cd2names / cd3names: "index name" rows, field_data name ->
//   [index, dimension - codimension]; rows that are not two words are skipped (meshio);
//   a line "surf1 surf2 p1 p2": from there on each element row is followed by a second
//   line, skipped (meshio's edgesegmentsgi2 in two lines);
//   identifications, identificationtypes: read and dropped with a warning (meshio keeps
//   them in Mesh.info, which meshio++ has not);
//   face_colours, singular_*: skipped (appearance and refinement hints), as meshio;
//   endmesh: the end.
// A section meshio does not know is skipped with a warning naming it and its line (its
// rows too, when a count line follows). A file that starts with the gzip magic is
// inflated first (bounded: deflate expands at most 1032:1); line numbers in errors then
// count lines of the inflated text. The inflated text behind the parser is given back to
// the system a MiB at a time (give_back_parsed_text), so the text and the arrays parsed
// out of it are never both whole in memory.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/codec/zlib.hpp"
#include "core/growable_buffer.hpp"
#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "formats/netgen/netgen_internal.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::netgen {

namespace {

constexpr std::size_t kMaxWords = 32;

// The text to parse: the file's bytes, or the inflated bytes of a gzip file.
std::string_view text_of(const io::FileBytes& file, std::vector<char>& inflated, const std::string& path) {
  std::string_view text;
  const std::string err = codec::gunzip_if_gzip(file.text(), io::kMaxCount, inflated, text);
  if (!err.empty()) io::Cursor(file.text(), "netgen", path).fail(err);
  return text;
}

// A run of cells of one type, as the file lists them: 1-based node numbers in Netgen's order.
// build() turns the numbers into the block in place and hands both buffers over as arrays.
struct Run {
  const ElementType* type;
  std::size_t rows = 0;
  GrowableBuffer nodes;  // int64, type->nodes per row
  GrowableBuffer index;  // int64, one per row
};

class Reader {
 public:
  explicit Reader(const std::string& path)
      : file_(path, "netgen"), cur_(text_of(file_, inflated_, path), "netgen", path) {}

  Mesh read() {
    const char* at = nullptr;
    if (content_line(at) != "mesh3d") cur_.fail_expected("'mesh3d' opening a Netgen mesh", at);
    Mesh m;
    m.points = NDArray::uninit(DType::float64, {0, 3});
    for (;;) {
      const std::string_view key = content_line(at);
      if (key.empty() || key == "endmesh") break;
      if (key == "dimension") {
        dimension_ = static_cast<int>(count_line("the dimension"));
        if (dimension_ != 2 && dimension_ != 3) cur_.fail_at("dimension " + std::to_string(dimension_) + " is not supported (2 or 3)", at);
      } else if (key == "geomtype") {
        const auto g = count_line("the geometry type");
        if (g != 0 && g != 1 && (g < 10 || g > 13)) warn("line " + line_of(at) + ": unknown geomtype " + std::to_string(g));
      } else if (key == "points") {
        m.points = points();
        points_known_ = true, npoints_ = static_cast<std::int64_t>(m.points.dim(0));
      } else if (key == "pointelements") {
        cells(0, 1, 0, 1);
      } else if (key == "edgesegments" || key == "edgesegmentsgi" || key == "edgesegmentsgi2") {
        cells(1, 2, 2, 0);
      } else if (key == "surfaceelements" || key == "surfaceelementsgi" || key == "surfaceelementsuv") {
        cells(2, -4, 5, 1);
      } else if (key == "volumeelements") {
        cells(3, -1, 2, 0);
      } else if (is_words(key, {"surf1", "surf2", "p1", "p2"})) {
        two_line_rows_ = true;
      } else if (const auto codim = codim_of(key); codim >= 0) {
        names(m, dimension_ - codim);
      } else if (key == "identifications" || key == "identificationtypes") {
        const std::size_t n = count_line("the count");
        if (key == "identifications") skip_rows(n);
        else if (n > 0) skip_rows(1);
        warn("line " + line_of(at) + ": " + std::string(key) + " dropped: meshio++ has no place for them (meshio keeps them in Mesh.info)");
      } else if (key == "face_colours" || key.substr(0, 9) == "singular_") {
        skip_rows(count_line("the count"));
      } else {
        unknown(key, at);
      }
    }
    build(m);
    return m;
  }

 private:
  std::string line_of(const char* at) const { return std::to_string(cur_.position(at).line); }

  // A .vol.gz's inflated text before the cursor, in whole pages, goes back to the system
  // once there are kGiveBackBytes of it (the cursor forgets it first, keeping the line
  // numbers of later errors). Nothing reads text behind the cursor afterwards: rows keep
  // only pointers into their own line, and build()'s errors point at the end.
  static constexpr std::size_t kGiveBackRows = 4096, kGiveBackBytes = std::size_t{1} << 20;
  void give_back_parsed_text() {
#if defined(MADV_DONTNEED)
    if (inflated_.empty()) return;
    static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto start = reinterpret_cast<std::uintptr_t>(given_back_ ? given_back_ : inflated_.data());
    const std::uintptr_t from = (start + page - 1) / page * page;
    const std::uintptr_t to = reinterpret_cast<std::uintptr_t>(cur_.ptr()) / page * page;
    if (to <= from || to - from < kGiveBackBytes) return;
    cur_.forget_before(cur_.ptr());
    ::madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);  // advice: a failure only keeps the pages
    given_back_ = reinterpret_cast<const char*>(to);
#endif
  }

  // Skips blank lines and '#' comment lines; the next line, trimmed, and where it starts
  // (empty at the end of the text).
  std::string_view content_line(const char*& at) {
    for (;;) {
      cur_.skip_space();
      at = cur_.ptr();
      if (cur_.at_end()) return {};
      if (*cur_.ptr() == '#') {
        cur_.line();
        continue;
      }
      return io::Cursor::trim(cur_.line());
    }
  }

  // The words of the next content line (at most kMaxWords kept); its start in `at`.
  std::size_t row(std::string_view* words, const char*& at, std::string_view what) {
    for (;;) {
      cur_.skip_space();
      at = cur_.ptr();
      if (cur_.at_end()) cur_.fail("the file ends before " + std::string(what));
      if (*cur_.ptr() != '#') return cur_.words(words, kMaxWords);
      cur_.line();
    }
  }

  std::uint64_t count_line(std::string_view what) {
    std::string_view w[kMaxWords];
    const char* at = nullptr;
    const std::size_t n = row(w, at, what);
    if (n != 1) cur_.fail_expected(std::string(what) + " alone on its line", at);
    return cur_.count(w[0], what, at);
  }

  template <class T> T field(std::string_view word, std::string_view what) const {
    T v{};
    if (!io::parse_field(word, v)) cur_.fail_at(expected_found(what, word), word.data());
    return v;
  }

  static bool is_words(std::string_view line, std::initializer_list<std::string_view> want) {
    std::string_view w[kMaxWords];
    io::Cursor c(line, "", "");
    return c.words(w, kMaxWords) == want.size() && std::equal(want.begin(), want.end(), w);
  }

  static int codim_of(std::string_view key) {
    for (int k = 0; k < 4; ++k)
      if (kCodimSections[k] == key) return k;
    return -1;
  }

  void skip_rows(std::size_t n) {
    std::string_view w[kMaxWords];
    const char* at = nullptr;
    cur_.need(n, 2, "rows");
    for (std::size_t i = 0; i < n; ++i) row(w, at, "the rows of a skipped section");
  }

  void unknown(std::string_view key, const char* at) {
    // Netgen's sections are "keyword, count, rows": skip the rows when a count follows.
    const std::size_t back = cur_.offset();
    std::string_view w[kMaxWords];
    const char* cat = nullptr;
    std::uint64_t n = 0;
    if (!cur_.at_end() && row(w, cat, "") == 1 && io::parse_count(w[0], n) && io::fits(n, 2, cur_.left())) {
      skip_rows(n);
      warn("line " + line_of(at) + ": skipped the unknown section '" + std::string(key) + "' (" + std::to_string(n) + " rows)");
    } else {
      cur_.seek(back);
      warn("line " + line_of(at) + ": skipped the unknown line '" + std::string(key.substr(0, 64)) + "'");
    }
  }

  NDArray points() {
    const std::size_t n = count_line("the point count");
    cur_.need(n, 6, "points");  // "0 0 0\n"
    NDArray p = NDArray::uninit(DType::float64, {n, 3});
    double* out = p.data<double>();
    std::string_view w[kMaxWords];
    const char* at = nullptr;
    for (std::size_t i = 0; i < n; ++i) {
      if (i % kGiveBackRows == 0) give_back_parsed_text();
      if (row(w, at, "the points") < 3) cur_.fail_expected("a point's x y z", at);
      for (int k = 0; k < 3; ++k) out[3 * i + k] = field<double>(w[k], "a coordinate");
    }
    return p;
  }

  // A cell section: `fixed_nodes` nodes per row, or (negative) the node count in word
  // -fixed_nodes; the nodes from word `first`; the index in word `index_at`.
  void cells(int dim, int fixed_nodes, std::size_t first, std::size_t index_at) {
    const std::size_t n = count_line("the element count");
    cur_.need(n, 4, "elements");
    std::string_view w[kMaxWords];
    const char* at = nullptr;
    for (std::size_t i = 0; i < n; ++i) {
      if (i % kGiveBackRows == 0) give_back_parsed_text();
      const std::size_t nw = row(w, at, "the elements");
      const std::size_t count_at = static_cast<std::size_t>(-fixed_nodes);
      if (fixed_nodes < 0 && nw <= count_at) cur_.fail_expected("an element row", at);
      const int nodes = fixed_nodes > 0 ? fixed_nodes : field<int>(w[count_at], "a node count");
      const ElementType* t = element_type(dim, nodes);
      if (!t) cur_.fail_at("no Netgen element of dimension " + std::to_string(dim) + " has " + std::to_string(nodes) + " nodes", at);
      if (nw < first + static_cast<std::size_t>(nodes) || nw <= index_at)
        cur_.fail_at("an element row of " + std::to_string(nw) + " words; this " + std::string(t->meshio) + " needs " +
                         std::to_string(first + static_cast<std::size_t>(nodes)),
                     at);
      if (runs_.empty() || runs_.back().type != t) {
        runs_.emplace_back();
        runs_.back().type = t;
      }
      Run& r = runs_.back();
      ++r.rows;
      r.index.push(field<std::int64_t>(w[index_at], "an element index"));
      for (int k = 0; k < nodes; ++k) {
        const std::string_view word = w[first + static_cast<std::size_t>(k)];
        const auto v = field<std::int64_t>(word, "a point number");
        if (points_known_ && (v < 1 || v > npoints_))  // else checked once the points are read
          cur_.fail_at("point number " + std::to_string(v) + " is outside [1, " + std::to_string(npoints_) + "]", word.data());
        r.nodes.push(v);
      }
      if (two_line_rows_) row(w, at, "the second line of an element");
    }
  }

  void names(Mesh& m, int dim) {
    const std::size_t n = count_line("the name count");
    cur_.need(n, 2, "names");
    for (std::size_t i = 0; i < n; ++i) {
      if (cur_.at_end()) cur_.fail("the file ends before the names");
      std::string_view w[3];
      if (cur_.words(w, 3) != 2) continue;  // a nameless index: meshio skips it
      const std::int64_t idx = field<std::int64_t>(w[0], "a name's index");
      m.field_data[std::string(w[1])] = NDArray::from_vector<std::int64_t>({idx, dim}, {2});
    }
  }

  // Runs to blocks: 0-based, meshio's node order, each number checked against the points.
  void build(Mesh& m) {
    const auto npoints = static_cast<std::int64_t>(m.points.dim(0));
    if (dimension_ != 3) {
      NDArray p = NDArray::uninit(DType::float64, {m.points.dim(0), static_cast<std::size_t>(dimension_)});
      for (std::size_t i = 0; i < m.points.dim(0); ++i)
        for (int k = 0; k < dimension_; ++k) p.data<double>()[dimension_ * i + k] = m.points.data<double>()[3 * i + k];
      m.points = std::move(p);
    }
    std::vector<NDArray> index;
    for (Run& r : runs_) {
      const auto k = static_cast<std::size_t>(r.type->nodes);
      const std::size_t rows = r.rows;
      std::int64_t* c = r.nodes.as<std::int64_t>();
      std::vector<std::int64_t> listed(k);  // the row as the file lists it
      for (std::size_t i = 0; i < rows; ++i) {
        std::copy_n(c + i * k, k, listed.begin());
        for (std::size_t j = 0; j < k; ++j) {
          const std::int64_t v = listed[static_cast<std::size_t>(r.type->order[j])];
          if (v < 1 || v > npoints)
            cur_.fail_at("the " + std::to_string(i) + "-th " + std::string(r.type->meshio) + " of its run refers to point " +
                             std::to_string(v) + ", outside the " + std::to_string(npoints) + " points",
                         cur_.end());
          c[i * k + j] = v - 1;
        }
      }
      m.cells.push_back(CellBlock::rectangular(std::string(r.type->meshio), r.nodes.take(DType::int64, {rows, k})));
      index.push_back(r.index.take(DType::int64, {rows}));
    }
    if (!index.empty()) m.cell_data[kIndex] = std::move(index);
  }

  io::FileBytes file_;
  std::vector<char> inflated_;
  const char* given_back_ = nullptr;  // inflated_ before this went back to the system
  io::Cursor cur_;
  int dimension_ = 3;
  bool two_line_rows_ = false;
  bool points_known_ = false;
  std::int64_t npoints_ = 0;
  std::vector<Run> runs_;
};

}  // namespace

Mesh read_netgen(const std::string& path, const Options& options) {
  OptionReader opts(options, "netgen");
  opts.finish();
  return Reader(path).read();
}

}  // namespace meshioplusplus::netgen
