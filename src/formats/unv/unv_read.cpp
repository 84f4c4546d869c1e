// meshio++ I-DEAS Universal reader.
// Spec: the I-DEAS Universal File Datasets Summary, datasets 2411, 2412, 2467, 2477 (see unv.hpp).
//
// A file is a run of datasets, each opened by a line "    -1", then its number (columns 1-6),
// and closed by "    -1". 2411: per node a record of 4 integers (label, export and
// displacement coordinate systems, colour) and one of 3 double-precision coordinates
// (FORTRAN 1P3D25.16: 'D' exponents). 2412: per element a record of 6 integers (label, FE
// descriptor id, physical property, material, colour, node count), for beam elements a record
// of 3 integers (orientation node, cross sections), then the node labels 8 a line. 2467 and
// 2477 (permanent groups): per group a record of 8 integers (number, 6 active set numbers,
// entity count), its name, then 4 integers per entity (type code, tag, 2 more), 2 a line:
// type 7 entities are nodes, type 8 elements. Records are read as whitespace-separated
// numbers, as gmsh reads them.
//
// Every other dataset (units 164, coordinate systems 2420, results, ...) is skipped up to its
// closing "-1", with one warning per dataset number giving its first line and count; so is an
// element whose FE descriptor id or node count has no meshio type here, and group entities of
// other types. Data: cell_data "unv:physical_property" and "unv:material" (the 2412 table
// numbers); groups become regions named as the group, tag = group number: its elements a cell
// region (dim = their dimension when they share one), its nodes a point region. Blocks are
// runs of consecutive elements of one type, in file order, so an element's global cell index
// is its position among the elements read.
//
// Safe for untrusted input: nothing is allocated from a declared count (arrays grow with the
// records actually present), every number is bounded by the end of the text, and a node or
// element label is resolved after the whole file is read.
#include <algorithm>
#include <cctype>
#include <climits>
#include <cstring>
#include <map>

#include "core/cell_collector.hpp"
#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "core/label_map.hpp"
#include "core/skip_log.hpp"
#include "formats/unv/unv_internal.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::unv {

namespace {

constexpr io::RealSyntax kFortran{true, false};

struct Group {
  std::string name;
  std::int64_t number = 0;
  std::size_t line = 0;
  std::vector<std::int64_t> nodes, elements;
};

class Reader {
 public:
  explicit Reader(const std::string& path) : file_(path, "unv"), cur_(file_.text(), "unv", path), lines_(cur_.begin()) {}

  Mesh read() {
    for (;;) {
      const std::string_view l = cur_.nonblank_line();
      if (l.empty() && cur_.at_end()) break;
      if (l != "-1") cur_.fail_at(expected_found("'    -1' opening a dataset", l), l.data());
      const char* at = cur_.ptr();
      const std::string_view head = cur_.nonblank_line();
      std::int64_t number = 0;
      const char* e = head.empty() ? nullptr : io::parse_number(head.data(), head.data() + std::min<std::size_t>(head.size(), 6), number);
      if (!e || (e != head.data() + head.size() && !io::is_space(*e) && !std::isalpha(static_cast<unsigned char>(*e))))
        cur_.fail_at(expected_found("a dataset number", head), head.empty() ? at : head.data());
      if (number == 2411) nodes();
      else if (number == 2412) elements();
      else if (number == 2467 || number == 2477) groups(number);
      else skip_dataset(number, at);
    }
    return build();
  }

 private:
  // --- datasets ----------------------------------------------------------------------------
  // True (and consumed) when the next non-blank line closes the dataset; false at its records.
  bool closed(const char* opened, std::int64_t number) {
    const char* save = cur_.ptr();
    const std::string_view l = cur_.nonblank_line();
    if (l == "-1") return true;
    if (l.empty() && cur_.at_end())
      cur_.fail_at("dataset " + std::to_string(number) + " is not closed by '    -1' (the file is cut short)", opened);
    cur_.seek(static_cast<std::size_t>(save - cur_.begin()));
    return false;
  }

  void skip_dataset(std::int64_t number, const char* at) {
    for (;;) {
      const std::string_view l = cur_.nonblank_line();
      if (l == "-1") break;
      if (l.empty() && cur_.at_end())
        cur_.fail_at("dataset " + std::to_string(number) + " is not closed by '    -1' (the file is cut short)", at);
    }
    skip("dataset " + std::to_string(number), at, "not mesh data");
  }

  void nodes() {
    const char* opened = cur_.ptr();
    while (!closed(opened, 2411)) {
      ids_.push_back(label("node label"));
      for (int k = 0; k < 3; ++k) cur_.number<std::int64_t>("a coordinate system or colour number");
      for (int k = 0; k < 3; ++k) xyz_.push_back(cur_.real<double>("a coordinate", kFortran));
    }
  }

  void elements() {
    const char* opened = cur_.ptr();
    while (!closed(opened, 2412)) {
      cur_.skip_space();
      const char* at = cur_.ptr();
      const std::int64_t elabel = label("element label");
      const std::int64_t fe = cur_.number<std::int64_t>("an FE descriptor id");
      const std::int64_t prop = cur_.number<std::int64_t>("a physical property table number");
      const std::int64_t mat = cur_.number<std::int64_t>("a material property table number");
      cur_.number<std::int64_t>("a colour number");
      const std::int64_t n = cur_.number<std::int64_t>("a node count");
      if (n < 1) cur_.fail_at(expected_found("a node count >= 1", std::to_string(n)), at);
      if (fe >= 0 && fe < (1 << 20) && is_beam(static_cast<int>(fe)))
        for (int k = 0; k < 3; ++k) cur_.number<std::int64_t>("a beam orientation node or cross section number");
      const UnvElement* el = (fe > 0 && fe < (1 << 20) && n <= 64) ? find_element(static_cast<int>(fe), static_cast<int>(n)) : nullptr;
      if (!el) {
        for (std::int64_t k = 0; k < n; ++k) label("a node label");
        skip("element with FE descriptor id " + std::to_string(fe) + " and " + std::to_string(n) + " nodes", at,
             "no meshio type, not read");
        continue;
      }
      std::int64_t raw[20];
      for (int k = 0; k < el->nodes; ++k) raw[k] = label("a node label");
      std::int64_t* row = elements_.add(el->type, static_cast<std::size_t>(el->nodes), static_cast<std::size_t>(at - cur_.begin()));
      for (int k = 0; k < el->nodes; ++k) row[k] = raw[el->perm ? el->perm[k] : k];
      elabels_.push_back(elabel);
      props_.push_back(prop);
      mats_.push_back(mat);
    }
  }

  void groups(std::int64_t number) {
    const char* opened = cur_.ptr();
    while (!closed(opened, number)) {
      cur_.skip_space();
      const char* at = cur_.ptr();
      Group g;
      g.number = cur_.number<std::int64_t>("a group number");
      for (int k = 0; k < 6; ++k) cur_.number<std::int64_t>("an active set number");
      const std::int64_t count = cur_.number<std::int64_t>("an entity count");
      if (count < 0) cur_.fail_at(expected_found("an entity count >= 0", std::to_string(count)), at);
      cur_.line();  // the rest of record 1
      if (cur_.at_end()) cur_.fail("truncated group: expected its name");
      g.name = std::string(io::Cursor::trim(cur_.line()));
      g.line = line_at(at);
      for (std::int64_t k = 0; k < count; ++k) {
        const std::int64_t type = cur_.number<std::int64_t>("an entity type code");
        const std::int64_t tag = cur_.number<std::int64_t>("an entity tag");
        cur_.number<std::int64_t>("an entity node leaf id");
        cur_.number<std::int64_t>("an entity component id");
        if (type == 7) g.nodes.push_back(tag);
        else if (type == 8) g.elements.push_back(tag);
        else skip("group entity of type " + std::to_string(type), at, "only nodes (7) and elements (8) are read");
      }
      groups_.push_back(std::move(g));
    }
  }

  std::int64_t label(const char* what) {
    const std::uint64_t v = cur_.index(what);
    if (v > static_cast<std::uint64_t>(INT64_MAX)) cur_.fail_expected(what);
    return static_cast<std::int64_t>(v);
  }

  std::size_t line_at(const char* at) { return lines_.line_at(at); }

  void skip(const std::string& what, const char* at, const char* reason) { skipped_.add(what, line_at(at), reason); }

  // --- the mesh ----------------------------------------------------------------------------
  Mesh build() {
    Mesh mesh;
    const std::size_t n = ids_.size();
    mesh.points = NDArray::uninit(DType::float64, {n, 3});
    if (n) std::memcpy(mesh.points.raw(), xyz_.data(), n * 3 * sizeof(double));
    LabelMap nodes;
    const auto dup = nodes.build(ids_);
    std::vector<std::string> warnings;
    if (dup.duplicates)
      warnings.push_back(std::to_string(dup.duplicates) + " node label(s) are defined more than once (node " +
                         std::to_string(dup.first_duplicate) + ", for one); elements use the last definition");

    std::vector<NDArray> props, mats;
    std::vector<int> cell_dim;  // per element read, for the groups below
    const auto missing = [&](std::string_view, std::int64_t label, std::size_t offset) {
      cur_.fail_at("element refers to node " + std::to_string(label) + ", which dataset 2411 does not define", cur_.begin() + offset);
    };
    for (auto& b : elements_.blocks(nodes, missing)) {
      const auto first = props_.begin() + static_cast<std::ptrdiff_t>(b.first), last = first + static_cast<std::ptrdiff_t>(b.count);
      const auto mfirst = mats_.begin() + static_cast<std::ptrdiff_t>(b.first), mlast = mfirst + static_cast<std::ptrdiff_t>(b.count);
      props.push_back(NDArray::from_vector(std::vector<std::int64_t>(first, last)));
      mats.push_back(NDArray::from_vector(std::vector<std::int64_t>(mfirst, mlast)));
      cell_dim.insert(cell_dim.end(), b.count, cell_type(b.type).dim);
      mesh.cells.push_back(CellBlock::rectangular(std::string(b.type), std::move(b.connectivity)));
    }
    if (!elements_.empty()) {
      mesh.cell_data["unv:physical_property"] = std::move(props);
      mesh.cell_data["unv:material"] = std::move(mats);
    }

    // Groups: cell regions over the elements read (global index = position among them).
    LabelMap elements;
    elements.build(elabels_);
    for (const Group& g : groups_) {
      std::vector<std::int64_t> cells, points;
      std::size_t missing = 0;
      int dim = -2;
      for (std::int64_t l : g.elements) {
        const std::int64_t c = elements.find(l);
        if (c < 0) {
          ++missing;
          continue;
        }
        cells.push_back(c);
        const int d = cell_dim[static_cast<std::size_t>(c)];
        dim = dim == -2 ? d : (dim == d ? d : -1);
      }
      for (std::int64_t l : g.nodes) {
        const std::int64_t p = nodes.find(l);
        if (p < 0) ++missing;
        else points.push_back(p);
      }
      if (missing)
        warnings.push_back("group '" + g.name + "' (line " + std::to_string(g.line) + ") refers to " + std::to_string(missing) +
                           " nodes or elements that were not read; they are left out");
      const int tag = g.number >= INT32_MIN && g.number <= INT32_MAX ? static_cast<int>(g.number) : -1;
      if (!g.elements.empty() || g.nodes.empty()) {
        Region r{g.name, RegionKind::cell, dim < 0 ? -1 : dim, tag, NDArray::from_vector(cells)};
        r.canonicalize();
        mesh.regions.push_back(std::move(r));
      }
      if (!g.nodes.empty()) {
        Region r{g.name, RegionKind::point, -1, tag, NDArray::from_vector(points)};
        r.canonicalize();
        mesh.regions.push_back(std::move(r));
      }
    }

    std::vector<std::string> out = skipped_.messages();
    out.insert(out.end(), warnings.begin(), warnings.end());
    for (std::string& w : out) meshioplusplus::warn(std::move(w));  // read() gathers them into Mesh::warnings
    return mesh;
  }

  io::FileBytes file_;
  io::Cursor cur_;
  LineCounter lines_;

  std::vector<std::int64_t> ids_;
  std::vector<double> xyz_;
  CellCollector elements_;
  std::vector<std::int64_t> elabels_, props_, mats_;
  std::vector<Group> groups_;
  SkipLog skipped_;
};

}  // namespace

Mesh read_unv(const std::string& path, const Options& options) {
  OptionReader opts(options, "unv");
  opts.finish();
  return Reader(path).read();
}

}  // namespace meshioplusplus::unv
