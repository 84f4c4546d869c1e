// meshio++ DOLFIN XML reader.
// Spec: https://people.sc.fsu.edu/~jburkardt/data/dolfin_xml/dolfin_xml.html
//
// <dolfin><mesh celltype="triangle" dim="2"><vertices size="N"><vertex index="0" x=".."
// y=".." [z=".."]/>...</vertices><cells size="M"><triangle index="0" v0=".." v1=".."
// v2=".."/>...</cells></mesh></dolfin>, for the cell types interval (read as "line"),
// triangle and tetrahedron. Vertices and cells are placed by their index attribute, in
// any order; a duplicate, an index out of range or a missing one is a ReadError. Points
// have the mesh's dim columns (dim 1 gets y = 0: points are 2-D at the least).
//
// Cell data comes from the companion files meshio reads: "<stem>_<name>.xml" beside the
// mesh (stem: the mesh's file name without ".xml"; name: no '.'), each holding one
// <mesh_function type="int|uint|float|double" dim= size=> of <entity index= value=/>, read
// as cell data <name> (int64, uint64 or float64, as meshio). A <mesh_value_collection> of
// the cells' dimension that gives every cell one value is read the same way. A companion
// that holds values of other entities (facets: its size is not the cell count) is skipped
// with a warning, as is any other element of <mesh> (<data>, <domains>).
//
// The rows are parsed as they come (io::parse_xml with a sink): the tree never holds them.
// Lists written the way DOLFIN and meshio write them (a row per line, attributes in the
// order above, double quotes, index = row number) are parsed by a fast path instead, on
// several threads (io::parallel_rows); a list that strays from that layout anywhere is
// parsed by the general path, which also gives its errors.
#include <algorithm>
#include <filesystem>
#include <optional>
#include <vector>

#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "core/io/parallel_rows.hpp"
#include "core/io/xml.hpp"
#include "formats/dolfin/dolfin_internal.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::dolfin {

namespace {

using io::XmlElement;

// The shortest text an element of a list can take ("<v index="0" x="0"/>"): the bound of
// a declared size against the bytes left.
constexpr std::size_t kMinRowBytes = 16;

// One XML file of the mesh or a companion: its bytes, a cursor for errors, and attributes
// read as numbers, naming the element and its line on failure.
class XmlFile {
 public:
  explicit XmlFile(const std::string& path) : file_(path, "dolfin-xml"), cur_(file_.text(), "dolfin-xml", path) {}

  const io::Cursor& cursor() const { return cur_; }
  [[noreturn]] void fail(const XmlElement& el, const std::string& what) const {
    cur_.fail_at("<" + std::string(el.name) + ">: " + what, el.begin);
  }
  const std::string& attribute(const XmlElement& el, std::string_view key) const {
    const std::string* v = el.attribute(key);
    if (!v) fail(el, "no attribute " + std::string(key));
    return *v;
  }
  template <class T> T number(const XmlElement& el, std::string_view key) const {
    const std::string& v = attribute(el, key);
    T out{};
    if (!io::parse_field(std::string_view(v), out)) fail(el, expected_found("a number in " + std::string(key), v));
    return out;
  }
  // An index attribute below `bound`.
  std::uint64_t index(const XmlElement& el, std::string_view key, std::uint64_t bound) const {
    const std::string& v = attribute(el, key);
    std::uint64_t out = 0;
    if (!io::parse_count(v, out)) fail(el, expected_found("an index in " + std::string(key), v));
    if (out >= bound) fail(el, std::string(key) + "=\"" + v + "\" is outside [0, " + std::to_string(bound) + ")");
    return out;
  }
  // The declared size of a list element, checked against the bytes left after it.
  std::uint64_t size(const XmlElement& el) const {
    const std::string& v = attribute(el, "size");
    std::uint64_t out = 0;
    if (!io::parse_count(v, out)) fail(el, expected_found("a count in size", v));
    const auto left = static_cast<std::size_t>(cur_.end() - el.begin);
    if (!io::fits(out, kMinRowBytes, left))
      fail(el, "declares " + v + " entries but only " + std::to_string(left) + " bytes remain");
    return out;
  }

 private:
  io::FileBytes file_;
  io::Cursor cur_;
};

// Rows placed by their index attribute: each once, all of them by the end.
class Placed {
 public:
  void reset(std::size_t n) { seen_.assign(n, 0), count_ = 0; }
  // Every row given once, in order (what the fast path has checked).
  void mark_all() { std::fill(seen_.begin(), seen_.end(), 1), count_ = seen_.size(); }
  void mark(const XmlFile& f, const XmlElement& el, std::uint64_t i) {
    if (seen_[i]) f.fail(el, "index " + std::to_string(i) + " appears twice");
    seen_[i] = 1, ++count_;
  }
  // At the end of the list `el`, which declared `size()` rows.
  void check_complete(const XmlFile& f, const XmlElement& el) const {
    if (count_ != seen_.size())
      f.fail(el, "declares " + std::to_string(seen_.size()) + " entries, " + std::to_string(count_) + " are given");
  }

 private:
  std::vector<std::uint8_t> seen_;
  std::size_t count_ = 0;
};

bool named(const XmlElement* el, std::string_view name) { return el && el->name == name; }

// --- the fast path's pieces: each returns the position after what it matched, or nullptr.
const char* after_space(const char* p, const char* end) {
  while (p != end && io::is_space(*p)) ++p;
  return p;
}
const char* literal(const char* p, const char* end, std::string_view s) {
  if (!p || static_cast<std::size_t>(end - p) < s.size()) return nullptr;
  for (const char c : s)  // a few characters: a loop, not a call to memcmp
    if (*p++ != c) return nullptr;
  return p;
}
// ` name="`: at least one space, the name, '=' and the opening quote.
const char* attribute_open(const char* p, const char* end, std::string_view name) {
  if (!p || p == end || !io::is_space(*p)) return nullptr;
  return literal(literal(after_space(p, end), end, name), end, "=\"");
}
// Digits up to the closing quote (at most 19).
const char* quoted_index(const char* p, const char* end, std::uint64_t& out) {
  if (!p) return nullptr;
  const char* q = p;
  std::uint64_t v = 0;
  while (q != end && static_cast<unsigned char>(*q - '0') < 10 && q - p < 19) v = v * 10 + static_cast<unsigned>(*q++ - '0');
  if (q == p || q == end || *q != '"') return nullptr;
  out = v;
  return q + 1;
}
const char* quoted_real(const char* p, const char* end, double& out) {
  if (!p) return nullptr;
  const char* q = io::parse_number(p, end, out);
  if (!q || q == end || *q != '"') return nullptr;
  return q + 1;
}
// The end of an empty-element tag: optional spaces, then "/>".
const char* empty_tag_end(const char* p, const char* end) { return p ? literal(after_space(p, end), end, "/>") : nullptr; }

class MeshReader {
 public:
  MeshReader(const std::string& path, unsigned threads) : path_(path), f_(path), threads_(threads) {}

  Mesh read() {
    const io::XmlSink sink = [this](const XmlElement& el, std::span<const XmlElement* const> up) { return row(el, up); };
    const io::XmlRowsHook fast = [this](const XmlElement& el, std::span<const XmlElement* const> up, const char* content) {
      return fast_rows(el, up, content);
    };
    io::XmlDocument doc = io::parse_xml(f_.cursor(), sink, fast);
    if (doc.root.name != "dolfin") f_.fail(doc.root, "expected the root element <dolfin>");
    if (!mesh_seen_) f_.fail(doc.root, "no <mesh> element");
    if (!vertices_seen_) f_.fail(doc.root, "<mesh> has no <vertices>");
    if (!cells_seen_) f_.fail(doc.root, "<mesh> has no <cells>");
    Mesh m;
    m.points = std::move(points_);
    m.cells.push_back(CellBlock::rectangular(kind_->meshio, std::move(cells_)));
    read_companions(m);
    return m;
  }

 private:
  // Every element below <dolfin> once complete; true when it is consumed here.
  bool row(const XmlElement& el, std::span<const XmlElement* const> up) {
    const XmlElement* parent = up.back();
    if (up.size() == 1) {  // a child of <dolfin>
      if (el.name != "mesh") warn(where(el) + ": skipped <" + std::string(el.name) + ">: not part of the mesh");
      return true;
    }
    if (up.size() == 2 && named(parent, "mesh")) {  // <vertices>, <cells> or something else, complete
      start_mesh(*parent);
      if (el.name == "vertices") {
        if (!points_allocated_) allocate_points(el);  // an empty list
        placed_vertices_.check_complete(f_, el), vertices_seen_ = true;
      } else if (el.name == "cells") {
        if (!points_allocated_) f_.fail(el, "cells before <vertices>");
        if (!cells_allocated_) allocate_cells(el);
        placed_cells_.check_complete(f_, el), cells_seen_ = true;
      }
      else warn(where(el) + ": skipped <" + std::string(el.name) + ">: not read (meshio skips it too)");
      mesh_seen_ = true;
      return true;
    }
    if (up.size() == 3 && named(up[1], "mesh")) {
      start_mesh(*up[1]);
      if (named(parent, "vertices")) return vertex(el, *parent), true;
      if (named(parent, "cells")) return cell(el, *parent), true;
    }
    return false;  // inside something skipped: kept until its skipped ancestor is dropped
  }

  // The fast path over a <vertices> or <cells> list of <mesh> (see the header): where the
  // general parser goes on (`content` when the fast path left the list to it).
  const char* fast_rows(const XmlElement& el, std::span<const XmlElement* const> up, const char* content) {
    if (up.size() != 2 || !named(up.back(), "mesh")) return content;
    const char* end = f_.cursor().end();
    if (el.name == "vertices" && !points_allocated_) {
      start_mesh(*up.back());
      allocate_points(el);
      const std::size_t width = points_.dim(1);
      double* xyz = points_.data<double>();
      static constexpr std::string_view kAxes[] = {"x", "y", "z"};
      const char* stop = fast_list(content, points_.dim(0), [&](const char* p, std::size_t i) {
        std::uint64_t index = 0;
        p = quoted_index(attribute_open(literal(after_space(p, end), end, "<vertex"), end, "index"), end, index);
        if (index != i) return static_cast<const char*>(nullptr);
        double* x = xyz + width * i;
        for (std::size_t k = 0; k < dim_; ++k) p = quoted_real(attribute_open(p, end, kAxes[k]), end, x[k]);
        for (std::size_t k = dim_; k < width; ++k) x[k] = 0.0;
        return empty_tag_end(p, end);
      });
      if (stop != content) placed_vertices_.mark_all();
      return stop;
    }
    if (el.name == "cells" && points_allocated_ && !cells_allocated_) {
      start_mesh(*up.back());
      allocate_cells(el);
      const auto k = static_cast<std::size_t>(kind_->nodes);
      const std::uint64_t npoints = points_.dim(0);
      std::int64_t* conn = cells_.data<std::int64_t>();
      const std::string open = "<" + std::string(kind_->dolfin);
      static constexpr std::string_view kNodes[] = {"v0", "v1", "v2", "v3"};
      const char* stop = fast_list(content, cells_.dim(0), [&](const char* p, std::size_t i) {
        std::uint64_t v = 0;
        p = quoted_index(attribute_open(literal(after_space(p, end), end, open), end, "index"), end, v);
        if (v != i) return static_cast<const char*>(nullptr);
        for (std::size_t j = 0; j < k; ++j) {
          p = quoted_index(attribute_open(p, end, kNodes[j]), end, v);
          if (v >= npoints) return static_cast<const char*>(nullptr);
          conn[k * i + j] = static_cast<std::int64_t>(v);
        }
        return empty_tag_end(p, end);
      });
      if (stop != content) placed_cells_.mark_all();
      return stop;
    }
    return content;
  }

  // The `n` rows from `content` through `row(p, i)` (the end of row i from p, or nullptr
  // where it strays from the layout): on several threads where they are one per line.
  // Returns the end of the last row, or `content` when any row strays (nothing consumed).
  template <class Row> const char* fast_list(const char* content, std::size_t n, Row&& row) {
    const io::Cursor& cur = f_.cursor();
    auto rows = [&](const char* p, std::size_t r0, std::size_t r1) {
      for (std::size_t i = r0; i < r1; ++i) {
        const char* q = row(p, i);
        if (!q) cur.fail_at("a row off the fast path", p);  // caught below or by parallel_rows
        p = q;
      }
      return p;
    };
    if (const char* stop = io::parallel_rows(content, cur.end(), n, threads_, rows)) return stop;
    try {
      return rows(content, 0, n);
    } catch (const ReadError&) {
      return content;
    }
  }

  std::string where(const XmlElement& el) const { return "line " + std::to_string(f_.cursor().position(el.begin).line); }

  void start_mesh(const XmlElement& mesh) {
    if (kind_) return;
    const std::string& type = f_.attribute(mesh, "celltype");
    for (const CellKind& k : kCellKinds)
      if (k.dolfin == type) kind_ = &k;
    if (!kind_) f_.fail(mesh, expected_found("celltype interval, triangle or tetrahedron", type));
    const auto d = f_.number<int>(mesh, "dim");
    if (d < 1 || d > 3) f_.fail(mesh, expected_found("dim 1, 2 or 3", f_.attribute(mesh, "dim")));
    dim_ = static_cast<std::size_t>(d);
  }

  void allocate_points(const XmlElement& list) {
    const std::size_t n = f_.size(list);
    points_ = NDArray::uninit(DType::float64, {n, std::max<std::size_t>(dim_, 2)});
    placed_vertices_.reset(n);
    points_allocated_ = true;
  }
  void allocate_cells(const XmlElement& list) {
    const std::size_t n = f_.size(list);
    cells_ = NDArray::uninit(DType::int64, {n, static_cast<std::size_t>(kind_->nodes)});
    placed_cells_.reset(n);
    cells_allocated_ = true;
  }

  void vertex(const XmlElement& el, const XmlElement& list) {
    if (!points_allocated_) allocate_points(list);
    if (el.name != "vertex") f_.fail(el, "expected <vertex> inside <vertices>");
    const std::size_t width = points_.dim(1);
    const std::uint64_t i = f_.index(el, "index", points_.dim(0));
    placed_vertices_.mark(f_, el, i);
    double* p = points_.data<double>() + width * i;
    static constexpr std::string_view kAxes[] = {"x", "y", "z"};
    for (std::size_t k = 0; k < dim_; ++k) p[k] = f_.number<double>(el, kAxes[k]);
    for (std::size_t k = dim_; k < width; ++k) p[k] = 0.0;
  }

  void cell(const XmlElement& el, const XmlElement& list) {
    if (!points_allocated_) f_.fail(el, "cells before <vertices>");
    if (!cells_allocated_) allocate_cells(list);
    if (el.name != kind_->dolfin) f_.fail(el, "expected <" + std::string(kind_->dolfin) + "> (the mesh's celltype) inside <cells>");
    const std::uint64_t i = f_.index(el, "index", cells_.dim(0));
    placed_cells_.mark(f_, el, i);
    static constexpr std::string_view kNodes[] = {"v0", "v1", "v2", "v3"};
    std::int64_t* c = cells_.data<std::int64_t>() + kind_->nodes * i;
    for (int k = 0; k < kind_->nodes; ++k) c[k] = static_cast<std::int64_t>(f_.index(el, kNodes[k], points_.dim(0)));
  }

  // --- companion data files -------------------------------------------------------------
  void read_companions(Mesh& m) {
    namespace fs = std::filesystem;
    const fs::path mesh_path(path_);
    const std::string prefix = mesh_path.stem().string() + "_";
    fs::path folder = mesh_path.parent_path();
    if (folder.empty()) folder = ".";
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string file = it->path().filename().string();
      if (file.size() <= prefix.size() + 4 || file.compare(0, prefix.size(), prefix) != 0) continue;
      if (file.compare(file.size() - 4, 4, ".xml") != 0) continue;
      const std::string name = file.substr(prefix.size(), file.size() - prefix.size() - 4);
      if (name.find('.') == std::string::npos) names.push_back(name);
    }
    std::sort(names.begin(), names.end());  // listing order is the file system's
    for (const std::string& name : names) {
      std::optional<NDArray> data = companion(companion_path(path_, name), m.cells[0].size());
      if (data) m.cell_data[name].push_back(std::move(*data));
    }
  }

  std::optional<NDArray> companion(const std::string& path, std::size_t ncells) {
    XmlFile f(path);
    NDArray out;
    Placed placed;
    bool collection = false;
    const XmlElement* list = nullptr;  // the mesh_function / mesh_value_collection being read
    std::optional<std::string> skip;   // why the file is skipped, once known
    auto start = [&](const XmlElement& fn) {
      list = &fn;
      collection = fn.name == "mesh_value_collection";
      if (!collection && fn.name != "mesh_function") f.fail(fn, "expected <mesh_function> or <mesh_value_collection>");
      const std::string& type = f.attribute(fn, "type");
      const DType dt = type == "int" ? DType::int64 : type == "uint" ? DType::uint64
                     : (type == "float" || type == "double") ? DType::float64 : DType::uint8;
      if (dt == DType::uint8) f.fail(fn, expected_found("type int, uint, float or double", type));
      const std::uint64_t size = f.size(fn);
      if (collection && f.number<int>(fn, "dim") != kind_->dim)
        skip = "a mesh_value_collection of dimension " + f.attribute(fn, "dim") + " (the cells have " + std::to_string(kind_->dim) + ")";
      else if (size != ncells)
        skip = "it has " + std::to_string(size) + " values for the " + std::to_string(ncells) + " cells (values of other entities)";
      if (skip) return;
      out = NDArray::uninit(dt, {ncells});
      placed.reset(ncells);
    };
    const io::XmlSink sink = [&](const XmlElement& el, std::span<const XmlElement* const> up) {
      if (up.size() != 2) return up.size() > 2;  // the list itself stays in the tree
      if (list != up[1]) start(*up[1]);
      if (skip) return true;
      if (el.name != (collection ? "value" : "entity")) f.fail(el, collection ? "expected <value>" : "expected <entity>");
      const std::uint64_t i = f.index(el, collection ? "cell_index" : "index", ncells);
      if (collection && f.number<std::int64_t>(el, "local_entity") != 0) f.fail(el, "a cell's own value has local_entity 0");
      placed.mark(f, el, i);
      visit_dtype(out.dtype(), [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_arithmetic_v<T>) out.data<T>()[i] = f.number<T>(el, "value");
      });
      return true;
    };
    io::XmlDocument doc = io::parse_xml(f.cursor(), sink);
    const auto where = f.cursor().path();
    if (doc.root.name != "dolfin" || doc.root.children.size() != 1)
      return warn(where + ": skipped: not one <mesh_function> in <dolfin>"), std::nullopt;
    if (!list) start(doc.root.children[0]);  // an empty list
    if (skip) return warn(where + ": skipped: " + *skip), std::nullopt;
    placed.check_complete(f, doc.root.children[0]);
    return out;
  }

  std::string path_;
  XmlFile f_;
  unsigned threads_;
  const CellKind* kind_ = nullptr;
  std::size_t dim_ = 0;
  NDArray points_, cells_;
  Placed placed_vertices_, placed_cells_;
  bool points_allocated_ = false, cells_allocated_ = false;
  bool mesh_seen_ = false, vertices_seen_ = false, cells_seen_ = false;
};

}  // namespace

std::string companion_path(const std::string& mesh_path, const std::string& name) {
  std::filesystem::path p(mesh_path);
  p.replace_extension();
  return p.string() + "_" + name + ".xml";
}

Mesh read_dolfin(const std::string& path, const Options& options) {
  OptionReader opts(options, "dolfin-xml");
  const unsigned threads = opts.threads();
  opts.finish();
  return MeshReader(path, threads).read();
}

}  // namespace meshioplusplus::dolfin
