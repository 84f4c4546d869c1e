// meshio++ Kratos MDPA reader.
// Spec: Kratos "Input data" (https://github.com/KratosMultiphysics/Kratos/wiki/Input-data).
//
// A file is a run of blocks "Begin <Block> [args]" ... "End <Block>", free format, "//" starting
// a comment. Read: Nodes ("id x y z"), Elements <name> and Conditions <name> ("id property_id
// n1 n2 ..."; the name gives the meshio type, mdpa_types.cpp), NodalData <VARIABLE>
// ("id is_fixed value", or meshio's "id value..."; a vector value is "[k](v1,...,vk)"; a
// NodalData block whose rows are all "id 0|1 number" is read as Kratos' is_fixed form),
// ElementalData / ConditionalData <VARIABLE> ("id value"), and SubModelPart <name> (nested to
// any depth, with SubModelPartNodes / SubModelPartElements / SubModelPartConditions id
// lists). Every other block (ModelPartData, Properties, Table, Mesh, Geometries,
// Constraints, SubModelPartData, SubModelPartTables, ...) is skipped, with a warning naming
// it and its line when it holds anything.
//
// The mesh: one cell block per run of rows of one meshio type in file order (meshio merges
// consecutive sections of one type the same way), Elements and Conditions alike, so a row's
// global cell index is its position among the rows read; hexahedron20 / hexahedron27 rows
// are put in VTK's node order. cell_data "mdpa:property_id" holds each row's property id.
// NodalData becomes point_data, Elemental/ConditionalData cell_data (float64; a vector
// variable (n, k); rows the block does not list are NaN; the is_fixed flag is not kept). A
// sub-model part becomes a point region (its nodes) and a cell region (its elements and
// conditions) named by its path ("Outer.Inner"), holding, as in Kratos, what its
// descendants hold too.
//
// Safe for untrusted input: arrays grow only with the rows actually present, every number
// is bounded by the end of the text, nesting is capped (kMaxDepth), and labels are resolved
// after the whole file is read.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_map>

#include "core/array_parts.hpp"
#include "core/cell_collector.hpp"
#include "core/growable_buffer.hpp"
#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "core/label_map.hpp"
#include "core/skip_log.hpp"
#include "formats/mdpa/mdpa_internal.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::mdpa {

namespace {

constexpr std::size_t kMaxDepth = 64;   // sub-model parts within sub-model parts
constexpr std::size_t kMaxNodes = 64;   // node labels of one element row (meshio's largest type: 27)

struct DataBlock {
  std::string name;
  char kind = 'n';  // 'n' nodal, 'e' elemental, 'c' conditional
  std::size_t comps = 0, line = 0;
  LabelList ids;         // consecutive ids (meshio's and Kratos' usual rows) cost nothing
  GrowableBuffer values;  // comps doubles per id
  const double* value_data() const { return values.as<const double>(); }
};

struct Part {
  std::string path;
  std::ptrdiff_t parent = -1;
  std::vector<std::int64_t> nodes, elements, conditions;
  std::size_t line = 0;
};

// The text of a line without its "//" comment, trimmed.
std::string_view content(std::string_view l) {
  const std::size_t c = l.find("//");
  return io::Cursor::trim(c == std::string_view::npos ? l : l.substr(0, c));
}

class Reader {
 public:
  explicit Reader(const std::string& path) : file_(path, "mdpa"), cur_(file_.text(), "mdpa", path), lines_(cur_.begin()) {}

  Mesh read() {
    while (!cur_.at_end()) {
      const char* at = cur_.ptr();
      const std::string_view l = content(cur_.line());
      if (l.empty()) continue;
      std::string_view w[3];
      const std::size_t n = io::split_words(l, w, 3);
      if (w[0] != "Begin" || n < 2) cur_.fail_at(expected_found("'Begin <block>'", l), l.data());
      const std::string_view arg = n >= 3 ? w[2] : std::string_view();
      if (w[1] == "Nodes") nodes(at);
      else if (w[1] == "Elements" || w[1] == "Conditions") elements(at, w[1], arg);
      else if (w[1] == "NodalData" || w[1] == "ElementalData" || w[1] == "ConditionalData") data(at, w[1], arg);
      else if (w[1] == "SubModelPart") part(at, arg, -1, 0);
      else skip_block(at, w[1], l);
    }
    return build();
  }

 private:
  // --- lines and fields --------------------------------------------------------------------
  std::size_t line_at(const char* at) { return lines_.line_at(at); }

  [[noreturn]] void not_closed(const char* at, std::string_view block) {
    cur_.fail_at("'Begin " + std::string(block) + "' (line " + std::to_string(line_at(at)) + ") is not closed by 'End " +
                     std::string(block) + "' (the file is cut short)",
                 cur_.ptr());
  }

  // The next row of a block: false (and the line consumed) at its "End <block>" line.
  // Blank and comment lines are passed over.
  bool row(const char* opened, std::string_view block) {
    for (;;) {
      cur_.skip_space();
      if (cur_.at_end()) not_closed(opened, block);
      if (cur_.starts_with("//")) {
        cur_.line();
        continue;
      }
      if (*cur_.ptr() != 'E') return true;
      const char* at = cur_.ptr();
      const std::string_view l = content(cur_.line());
      std::string_view w[2];
      if (io::split_words(l, w, 2) < 2 || w[0] != "End" || w[1] != block)
        cur_.fail_at(expected_found("a row or 'End " + std::string(block) + "'", l), at);
      return false;
    }
  }

  // After a row's last field: only blanks or a comment may remain on its line.
  void end_of_row(const char* what) {
    cur_.skip_blank();
    if (cur_.at_end()) return;
    if (*cur_.ptr() == '\n') {
      cur_.line();
      return;
    }
    if (cur_.starts_with("//")) {
      cur_.line();
      return;
    }
    cur_.fail_expected(std::string("the end of the ") + what);
  }

  std::int64_t label(std::string_view what) {
    cur_.skip_blank();
    if (cur_.at_end() || *cur_.ptr() == '\n') cur_.fail_expected(what);
    const std::uint64_t v = cur_.index(what);
    if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) cur_.fail_expected(what);
    return static_cast<std::int64_t>(v);
  }

  double real(std::string_view what) {
    cur_.skip_blank();
    if (cur_.at_end() || *cur_.ptr() == '\n') cur_.fail_expected(what);
    return cur_.number<double>(what);
  }

  // --- blocks ------------------------------------------------------------------------------
  void nodes(const char* opened) {
    while (row(opened, "Nodes")) {
      node_ids_.push_back(label("a node id"));
      for (int k = 0; k < 3; ++k) xyz_.push(real("a coordinate"));
      end_of_row("node row (id x y z)");
    }
  }

  void elements(const char* opened, std::string_view block, std::string_view name) {
    const bool condition = block == "Conditions";
    std::string_view type;
    std::size_t k = 0;
    const int* order = nullptr;
    std::size_t skipped = 0;
    const std::string row_name = "element row of '" + std::string(block) + " " + std::string(name) + "'";
    while (row(opened, block)) {
      const char* at = cur_.ptr();
      if (k == 0) {  // the first row fixes the node count, and with the name the type
        std::string_view w[2];
        const std::size_t n = io::split_words(content(std::string_view(at, cur_.left()).substr(0, line_end(at))), w, 0);
        if (n < 3 || n - 2 > kMaxNodes)
          cur_.fail_at(expected_found("an element row 'id property_id n1 n2 ...' (3 to " + std::to_string(kMaxNodes + 2) + " numbers)",
                                      std::string_view(at, line_end(at))),
                       at);
        k = n - 2;
        type = cell_type_of(name, k);
        order = kratos_order(type);
      }
      const std::int64_t id = label(condition ? "a condition id" : "an element id");
      const std::int64_t prop = label("a property id");
      std::int64_t raw[kMaxNodes];
      for (std::size_t j = 0; j < k; ++j) raw[j] = label("a node id");
      end_of_row(row_name.c_str());
      if (type.empty()) {
        ++skipped;
        continue;
      }
      std::int64_t* dst = cells_.add(type, k, static_cast<std::size_t>(at - cur_.begin()));
      for (std::size_t j = 0; j < k; ++j) dst[order ? order[j] : j] = raw[j];
      (condition ? cond_labels_ : elem_labels_).push_back(id);
      (condition ? cond_rows_ : elem_rows_).push_back(static_cast<std::int64_t>(props_.size() / sizeof(std::int64_t)));
      props_.push(static_cast<std::int64_t>(prop));
    }
    if (skipped)
      warnings_.push_back("skipped 'Begin " + std::string(block) + " " + std::string(name) + "' at line " +
                          std::to_string(line_at(opened)) + ": " + std::to_string(skipped) + " rows of " + std::to_string(k) +
                          " nodes have no meshio cell type");
  }

  std::size_t line_end(const char* at) const {
    const void* nl = std::memchr(at, '\n', static_cast<std::size_t>(cur_.end() - at));
    return nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - at) : static_cast<std::size_t>(cur_.end() - at);
  }

  // Data rows: "id [is_fixed] value..." or "id [is_fixed] [k](v1,...,vk)". Plain rows of a
  // NodalData block whose values are all two, the first spelled 0 or 1, are Kratos'
  // "id is_fixed value"; otherwise every value is a component (meshio's rows).
  void data(const char* opened, std::string_view block, std::string_view name) {
    if (name.empty()) cur_.fail_at(expected_found("'Begin " + std::string(block) + " <VARIABLE_NAME>'", block), opened);
    DataBlock d;
    d.name = std::string(name);
    d.kind = block == "NodalData" ? 'n' : block == "ElementalData" ? 'e' : 'c';
    d.line = line_at(opened);
    int bracketed = -1;     // the rows' form, fixed by the first
    bool all_flags = true;  // every plain row is "0|1 value"
    std::vector<double> vals;
    while (row(opened, block)) {
      const char* at = cur_.ptr();
      d.ids.push_back(label("an id"));
      const std::string_view rest = content(cur_.line());
      vals.clear();
      const std::size_t bracket = rest.find('[');
      const bool is_bracketed = bracket != std::string_view::npos;
      if (is_bracketed) {
        const std::string_view before = io::Cursor::trim(rest.substr(0, bracket));
        if (!before.empty() && (d.kind != 'n' || (before != "0" && before != "1")))
          cur_.fail_at(expected_found("a vector value '[k](v1,...,vk)'", rest), rest.data());
        vector_value(rest.substr(bracket), vals, at);
      } else {
        std::string_view w[2];
        const std::size_t n = io::split_words(rest, w, 2);
        all_flags = all_flags && n == 2 && (w[0] == "0" || w[0] == "1");
        numbers(rest, vals, at);
      }
      if (bracketed < 0) {
        bracketed = is_bracketed;
        if (vals.empty()) cur_.fail_at(expected_found("a value after the id", rest), at);
        d.comps = vals.size();
      }
      if (vals.size() != d.comps || is_bracketed != (bracketed == 1))
        cur_.fail_at(expected_found("a row like the block's first (" + std::to_string(d.comps) + " value(s)" +
                                        (bracketed == 1 ? " as [k](...)" : "") + ")",
                                    rest),
                     at);
      std::memcpy(d.values.extend(vals.size() * sizeof(double)), vals.data(), vals.size() * sizeof(double));
    }
    if (d.kind == 'n' && bracketed == 0 && all_flags && d.comps == 2) {  // drop the is_fixed column
      double* v = d.values.as<double>();
      for (std::size_t r = 0; r < d.ids.size(); ++r) v[r] = v[2 * r + 1];
      d.values.truncate(d.ids.size() * sizeof(double));
      d.comps = 1;
    }
    data_.push_back(std::move(d));
  }

  void numbers(std::string_view text, std::vector<double>& out, const char* at) {
    std::size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && (io::is_space(text[i]) || text[i] == ',')) ++i;
      if (i == text.size()) break;
      double v = 0;
      const char* e = io::parse_number(text.data() + i, text.data() + text.size(), v);
      if (!e || (e != text.data() + text.size() && !io::is_space(*e) && *e != ',' && *e != ')'))
        cur_.fail_at(expected_found("a number", text.substr(i)), text.data() + i);
      out.push_back(v);
      i = static_cast<std::size_t>(e - text.data());
      if (out.size() > kMaxNodes * 16) cur_.fail_at("a data row of more than " + std::to_string(kMaxNodes * 16) + " values", at);
    }
  }

  // "[k](v1, ..., vk)" or "[k] (v1 v2 ...)".
  void vector_value(std::string_view text, std::vector<double>& out, const char* at) {
    const std::size_t close = text.find(']'), open = text.find('('), end = text.rfind(')');
    std::uint64_t k = 0;
    if (close == std::string_view::npos || open == std::string_view::npos || end == std::string_view::npos || open < close ||
        end < open || !io::parse_count(io::Cursor::trim(text.substr(1, close - 1)), k) ||
        !io::Cursor::trim(text.substr(close + 1, open - close - 1)).empty() || !io::Cursor::trim(text.substr(end + 1)).empty())
      cur_.fail_at(expected_found("a vector value '[k](v1,...,vk)' (matrices are not read)", text), text.data());
    numbers(text.substr(open + 1, end - open - 1), out, at);
    if (out.size() != k)
      cur_.fail_at(expected_found("[" + std::to_string(k) + "] values", std::to_string(out.size()) + " values"), text.data());
  }

  void ids(const char* opened, std::string_view block, std::vector<std::int64_t>& out) {
    while (row(opened, block)) {
      out.push_back(label("an id"));
      cur_.skip_blank();
      if (cur_.starts_with("//")) cur_.line();
    }
  }

  void part(const char* opened, std::string_view name, std::ptrdiff_t parent, std::size_t depth) {
    if (name.empty()) cur_.fail_at(expected_found("'Begin SubModelPart <name>'", "Begin SubModelPart"), opened);
    if (depth >= kMaxDepth) cur_.fail_at("sub-model parts nested more than " + std::to_string(kMaxDepth) + " deep", opened);
    const std::size_t me = parts_.size();
    parts_.push_back({parent < 0 ? std::string(name) : parts_[static_cast<std::size_t>(parent)].path + "." + std::string(name), parent,
                      {}, {}, {}, line_at(opened)});
    for (;;) {
      cur_.skip_space();
      if (cur_.at_end()) not_closed(opened, "SubModelPart");
      const char* at = cur_.ptr();
      const std::string_view l = content(cur_.line());
      if (l.empty()) continue;
      std::string_view w[3];
      const std::size_t n = io::split_words(l, w, 3);
      if (w[0] == "End" && n >= 2 && w[1] == "SubModelPart") return;
      if (w[0] != "Begin" || n < 2) cur_.fail_at(expected_found("'Begin <block>' or 'End SubModelPart'", l), at);
      if (w[1] == "SubModelPartNodes") ids(at, w[1], parts_[me].nodes);
      else if (w[1] == "SubModelPartElements") ids(at, w[1], parts_[me].elements);
      else if (w[1] == "SubModelPartConditions") ids(at, w[1], parts_[me].conditions);
      else if (w[1] == "SubModelPart") part(at, n >= 3 ? w[2] : std::string_view(), static_cast<std::ptrdiff_t>(me), depth + 1);
      else skip_block(at, w[1], l);
    }
  }

  // Skips a block (nested Begin/End pairs included); warns when it holds anything.
  void skip_block(const char* opened, std::string_view block, std::string_view header) {
    std::size_t depth = 0, lines = 0;
    for (;;) {
      if (cur_.at_end()) not_closed(opened, block);
      const std::string_view l = content(cur_.line());
      if (l.empty()) continue;
      std::string_view w[1];
      io::split_words(l, w, 1);
      if (w[0] == "End") {
        if (depth == 0) break;
        --depth;
      } else if (w[0] == "Begin") {
        if (++depth > kMaxDepth) cur_.fail_at("blocks nested more than " + std::to_string(kMaxDepth) + " deep", l.data());
      }
      ++lines;
    }
    if (lines)
      warnings_.push_back("skipped '" + std::string(header) + "' at line " + std::to_string(line_at(opened)) + " (" +
                          std::to_string(lines) + (lines == 1 ? " line" : " lines") + "): not mesh data");
  }

  // --- the mesh ----------------------------------------------------------------------------
  Mesh build() {
    Mesh mesh;
    const std::size_t n = node_ids_.size();
    mesh.points = xyz_.take(DType::float64, {n, 3});  // uncopied where GrowableBuffer can
    LabelMap nodes;
    if (std::string note = duplicate_labels_note(nodes.build(node_ids_), "node", "elements"); !note.empty()) warnings_.push_back(note);

    const auto missing = [&](std::string_view, std::int64_t label, std::size_t offset) {
      cur_.fail_at("the row refers to node " + std::to_string(label) + ", which no Nodes block defines", cur_.begin() + offset);
    };
    std::vector<NDArray> props;
    std::vector<int> cell_dim;
    const NDArray all_props = props_.take(DType::int64, {props_.size() / sizeof(std::int64_t)});  // each block's a part
    for (auto& b : cells_.blocks(nodes, missing)) {
      props.push_back(array_part(all_props, b.first, {b.count}));
      if (!parts_.empty()) cell_dim.insert(cell_dim.end(), b.count, cell_type(b.type).dim);  // for the sets' dim
      mesh.cells.push_back(CellBlock::rectangular(std::string(b.type), std::move(b.connectivity)));
    }
    if (!cells_.empty()) mesh.cell_data["mdpa:property_id"] = std::move(props);

    LabelMap elements, conditions;
    elements.build(elem_labels_);
    conditions.build(cond_labels_);
    // Global cell index of an element or condition id, or -1.
    const auto cell_of = [&](char kind, std::int64_t id) -> std::int64_t {
      const std::int64_t p = (kind == 'c' ? conditions : elements).find(id);
      return p < 0 ? -1 : (kind == 'c' ? cond_rows_ : elem_rows_)[static_cast<std::size_t>(p)];
    };
    const std::vector<std::int64_t> bases = block_bases(mesh.cells);
    const std::size_t ncells = cells_.rows();

    // Each data block scattered into its variable's array (NaN where no row gives a value),
    // and its rows given back at once.
    for (DataBlock& block : data_) {
      const DataBlock d = std::move(block);  // its rows freed at the end of the iteration
      const bool nodal = d.kind == 'n';
      const std::size_t rows = nodal ? n : ncells;
      auto& store = nodal ? point_values_ : cell_values_;
      auto it = store.find(d.name);
      if (it == store.end()) {
        NDArray values = NDArray::uninit(DType::float64, d.comps == 1 ? NDArray::Shape{rows} : NDArray::Shape{rows, d.comps});
        std::fill_n(values.data<double>(), rows * d.comps, std::numeric_limits<double>::quiet_NaN());
        it = store.emplace(d.name, Values{d.comps, std::move(values)}).first;
        order_.push_back({nodal, d.name});
      }
      const std::size_t comps = it->second.comps;
      double* target = it->second.values.data<double>();
      if (comps != d.comps) {
        warnings_.push_back("skipped '" + d.name + "' at line " + std::to_string(d.line) + ": " + std::to_string(d.comps) +
                            " value(s) a row where an earlier block of that name has " + std::to_string(comps));
        continue;
      }
      std::size_t unknown = 0;
      for (std::size_t r = 0; r < d.ids.size(); ++r) {
        const std::int64_t at = nodal ? nodes.find(d.ids[r]) : cell_of(d.kind, d.ids[r]);
        if (at < 0) {
          ++unknown;
          continue;
        }
        std::memcpy(target + static_cast<std::size_t>(at) * d.comps, d.value_data() + r * d.comps, d.comps * sizeof(double));
      }
      if (unknown)
        warnings_.push_back("data '" + d.name + "' (line " + std::to_string(d.line) + ") refers to " + std::to_string(unknown) +
                            (nodal ? " nodes" : d.kind == 'e' ? " elements" : " conditions") + " that were not read; they are left out");
    }
    for (const auto& [nodal, name] : order_) {
      Values& v = (nodal ? point_values_ : cell_values_).at(name);
      if (!nodal && mesh.cells.empty()) continue;
      if (nodal) {
        mesh.point_data[name] = std::move(v.values);
        continue;
      }
      std::vector<NDArray> per_block;  // each block's rows a part of the variable's array
      for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
        const std::size_t m = mesh.cells[b].size();
        const std::size_t first = static_cast<std::size_t>(bases[b]) * v.comps;
        per_block.push_back(array_part(v.values, first, v.comps == 1 ? NDArray::Shape{m} : NDArray::Shape{m, v.comps}));
      }
      v.values = NDArray();
      mesh.cell_data[name] = std::move(per_block);
    }

    // Sub-model parts: a parent holds its descendants' entities (children follow parents).
    std::vector<std::vector<std::int64_t>> part_points(parts_.size()), part_cells(parts_.size());
    std::vector<std::size_t> unknown(parts_.size(), 0);
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      for (std::int64_t id : parts_[i].nodes) {
        const std::int64_t p = nodes.find(id);
        p < 0 ? void(++unknown[i]) : part_points[i].push_back(p);
      }
      for (std::int64_t id : parts_[i].elements) {
        const std::int64_t c = cell_of('e', id);
        c < 0 ? void(++unknown[i]) : part_cells[i].push_back(c);
      }
      for (std::int64_t id : parts_[i].conditions) {
        const std::int64_t c = cell_of('c', id);
        c < 0 ? void(++unknown[i]) : part_cells[i].push_back(c);
      }
    }
    for (std::size_t i = parts_.size(); i-- > 0;) {
      if (parts_[i].parent < 0) continue;
      const auto up = static_cast<std::size_t>(parts_[i].parent);
      part_points[up].insert(part_points[up].end(), part_points[i].begin(), part_points[i].end());
      part_cells[up].insert(part_cells[up].end(), part_cells[i].begin(), part_cells[i].end());
    }
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      if (unknown[i])
        warnings_.push_back("sub-model part '" + parts_[i].path + "' (line " + std::to_string(parts_[i].line) + ") refers to " +
                            std::to_string(unknown[i]) + " nodes, elements or conditions that were not read; they are left out");
      if (!part_cells[i].empty() || part_points[i].empty()) {
        int dim = -2;
        for (std::int64_t c : part_cells[i]) {
          const int d = cell_dim[static_cast<std::size_t>(c)];
          dim = dim == -2 ? d : (dim == d ? d : -1);
        }
        Region r{parts_[i].path, RegionKind::cell, dim < 0 ? -1 : dim, -1, NDArray::from_vector(part_cells[i])};
        r.canonicalize();
        mesh.regions.push_back(std::move(r));
      }
      if (!part_points[i].empty()) {
        Region r{parts_[i].path, RegionKind::point, -1, -1, NDArray::from_vector(part_points[i])};
        r.canonicalize();
        mesh.regions.push_back(std::move(r));
      }
    }
    for (std::string& w : warnings_) meshioplusplus::warn(std::move(w));
    return mesh;
  }

  struct Values {
    std::size_t comps;
    NDArray values;  // (rows,) or (rows, comps)
  };

  io::FileBytes file_;
  io::Cursor cur_;
  LineCounter lines_;

  LabelList node_ids_;
  GrowableBuffer xyz_;  // 3 doubles per node
  CellCollector cells_;
  GrowableBuffer props_;  // per element and condition, in file order: its property id (int64)
  // Ids, and the global row of each element and condition: consecutive runs cost nothing.
  LabelList elem_labels_, elem_rows_, cond_labels_, cond_rows_;
  std::vector<DataBlock> data_;
  std::vector<Part> parts_;
  std::unordered_map<std::string, Values> point_values_, cell_values_;
  std::vector<std::pair<bool, std::string>> order_;
  std::vector<std::string> warnings_;
};

}  // namespace

Mesh read_mdpa(const std::string& path, const Options& options) {
  OptionReader opts(options, "mdpa");
  opts.finish();
  return Reader(path).read();
}

}  // namespace meshioplusplus::mdpa
