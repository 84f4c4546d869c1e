// meshio++ Tecplot ASCII reader (finite-element zones).
// Spec: https://github.com/su2code/SU2/raw/master/externals/tecio/360_data_format_guide.pdf
// (Tecplot 360 Data Format Guide, chapter 4 "ASCII Data"), http://paulbourke.net/dataformats/tp/
//
// Records: TITLE (skipped), VARIABLES (names quoted or not, comma or space separated, over
// several lines when the names are quoted), ZONE (its header may run over several lines,
// up to the first line that starts with a number). Zone keys read: T, N/NODES, E/ELEMENTS,
// F=FEPOINT|FEBLOCK with ET=, or DATAPACKING=POINT|BLOCK with ZONETYPE=, VARLOCATION and
// NV (cell-centred variables, BLOCK packing only); DT, AUXDATA, STRANDID, SOLUTIONTIME and
// the like are skipped (values are read as float64 whatever DT says). Element types:
// FELINESEG, FETRIANGLE, FEQUADRILATERAL, FETETRAHEDRON, FEBRICK (ET= without "FE" too).
// '#' starts a comment line. Other top-level records (TEXT, GEOMETRY, DATASETAUXDATA, ...)
// are skipped with a warning naming the line.
//
// As meshio reads it: X, Y (and Z) become the points (upper case preferred, as meshio),
// the other variables point data or cell data (1-D, float64). Beyond meshio (which reads
// the first zone only and keeps degenerate elements): every zone is read, points
// concatenated and node numbers offset; with more than one zone each zone is a cell region
// named by its T= title; a degenerate element becomes the cell meshio's writer stores that
// way (a quad with a repeated last node a triangle, a brick with collapsed nodes a
// tetrahedron, pyramid or wedge; Tecplot's own prism pattern 0 1 2 2 3 4 5 5 is a wedge
// too), one block per run of one type. Not read: ordered (IJK) zones, polygon and
// polyhedron zones, shared variables or connectivity: a ReadError says so.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "formats/tecplot/tecplot_internal.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::tecplot {

namespace {

struct ZoneHeader {
  std::string title;
  std::uint64_t nodes = 0, elements = 0;
  bool has_nodes = false, has_elements = false;
  std::string packing;  // FEPOINT or FEBLOCK
  std::string type;     // element type, with the FE prefix
  std::vector<bool> cell_centred;
};

struct ZoneData {
  std::vector<NDArray> values;  // one per variable: nodes or elements long
  std::vector<CellBlock> blocks;
  std::vector<std::pair<std::size_t, std::size_t>> runs;  // (first element, count) of each block
};

bool is_key_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_sep(char c) { return c == ' ' || c == '\t' || c == ',' || c == '\n' || c == '\r'; }

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::size_t nodes_of(const std::string& type) {
  if (type == "FELINESEG") return 2;
  if (type == "FETRIANGLE") return 3;
  if (type == "FEQUADRILATERAL" || type == "FETETRAHEDRON") return 4;
  if (type == "FEBRICK") return 8;
  return 0;
}

const char* meshio_type(const std::string& type) {
  if (type == "FELINESEG") return "line";
  if (type == "FETRIANGLE") return "triangle";
  if (type == "FEQUADRILATERAL") return "quad";
  if (type == "FETETRAHEDRON") return "tetra";
  return "hexahedron";
}

// A degenerate element: the cell type and node count it stands for, its nodes in `out`;
// k = 0 when the element is what its zone type says.
struct Collapsed {
  const char* type = nullptr;
  int k = 0;
};

bool distinct(const std::int64_t* v, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (v[i] == v[j]) return false;
  return true;
}

Collapsed collapse(const std::int64_t* c, std::size_t k, std::int64_t* out) {
  if (k == 4) {  // a quad with one repeated node, cyclically: a triangle
    for (int r = 0; r < 4; ++r)
      if (c[r] == c[(r + 1) % 4]) {
        int n = 0;
        for (int j = 0; j < 4; ++j)
          if (j != (r + 1) % 4) out[n++] = c[j];
        return distinct(out, 3) ? Collapsed{"triangle", 3} : Collapsed{};
      }
    return {};
  }
  if (k != 8) return {};
  auto take = [&](const int* idx, int n) {
    for (int j = 0; j < n; ++j) out[j] = c[idx[j]];
    return distinct(out, n);
  };
  const bool top = c[4] == c[5] && c[5] == c[6] && c[6] == c[7];
  if (top && c[2] == c[3]) {
    static constexpr int tet[4] = {0, 1, 2, 4};
    return take(tet, 4) ? Collapsed{"tetra", 4} : Collapsed{};
  }
  if (top) {
    static constexpr int pyr[5] = {0, 1, 2, 3, 4};
    return take(pyr, 5) ? Collapsed{"pyramid", 5} : Collapsed{};
  }
  if (c[4] == c[5] && c[6] == c[7]) {  // meshio's wedge: 0 1 4 3 2 2 5 5
    static constexpr int wedge[6] = {0, 1, 4, 3, 2, 6};
    if (take(wedge, 6)) return {"wedge", 6};
  }
  if (c[2] == c[3] && c[6] == c[7]) {  // Tecplot's prism: 0 1 2 2 3 4 5 5
    static constexpr int prism[6] = {0, 1, 2, 4, 5, 6};
    if (take(prism, 6)) return {"wedge", 6};
  }
  return {};
}

class Reader {
 public:
  Reader(const std::string& path) : file_(path, "tecplot"), cur_(file_.text(), "tecplot", path) {}

  Mesh read() {
    std::vector<ZoneData> zones;
    std::vector<std::string> titles;
    std::vector<std::vector<bool>> locations;
    for (;;) {
      skip_blank_and_comments();
      if (cur_.at_end()) break;
      const char* at = cur_.ptr();
      const char* q = at;
      while (q != cur_.end() && is_key_char(*q)) ++q;
      const std::string key = upper(std::string_view(at, static_cast<std::size_t>(q - at)));
      if (key == "TITLE") {
        cur_.line();
      } else if (key == "VARIABLES") {
        if (!zones.empty()) cur_.fail_at("a VARIABLES record after a ZONE is not supported (zones share one variable list)", at);
        cur_.set_ptr(q);
        variables(at);
      } else if (key == "ZONE") {
        if (variables_.empty()) cur_.fail_at("a ZONE before the VARIABLES record", at);
        cur_.set_ptr(q);
        ZoneHeader h = zone_header(at);
        titles.push_back(h.title);
        locations.push_back(h.cell_centred);
        zones.push_back(zone_data(h, zones.empty() ? 0 : node_offset_));
      } else if (!key.empty()) {
        warn("tecplot: skipped the " + key + " record at line " + std::to_string(cur_.position(at).line) + " (not mesh data)");
        cur_.line();
      } else {
        cur_.fail_expected("a record (TITLE, VARIABLES, ZONE)", at);
      }
    }
    if (zones.empty()) cur_.fail("no ZONE in the file");
    return assemble(zones, titles, locations);
  }

 private:
  void skip_blank_and_comments() {
    for (;;) {
      cur_.skip_space();
      if (cur_.at_end() || *cur_.ptr() != '#') return;
      cur_.line();
    }
  }

  // The names after "VARIABLES": the rest of the line, and following lines that start with '"'.
  void variables(const char* at) {
    std::string text(cur_.line());
    for (;;) {
      const char* save = cur_.ptr();
      skip_blank_and_comments();
      if (cur_.at_end() || *cur_.ptr() != '"') {
        cur_.set_ptr(save);
        break;
      }
      text += ' ';
      text += cur_.line();
    }
    std::size_t i = 0;
    while (i < text.size() && (is_sep(text[i]) || text[i] == '=')) ++i;
    variables_.clear();
    while (i < text.size()) {
      std::string name;
      if (text[i] == '"') {
        const std::size_t close = text.find('"', i + 1);
        if (close == std::string::npos) cur_.fail_at("VARIABLES: a quoted name without its closing quote", at);
        name = text.substr(i + 1, close - i - 1);
        for (char& c : name)
          if (c == ' ') c = '_';
        i = close + 1;
      } else {
        const std::size_t b = i;
        while (i < text.size() && !is_sep(text[i])) ++i;
        name = text.substr(b, i - b);
      }
      variables_.push_back(std::move(name));
      while (i < text.size() && is_sep(text[i])) ++i;
    }
    if (variables_.empty()) cur_.fail_at("VARIABLES names no variable", at);
  }

  ZoneHeader zone_header(const char* at) {
    // The header: up to the first line whose first token starts like a number.
    const char* begin = cur_.ptr();
    const char* stop = begin;
    cur_.line();
    for (;;) {
      stop = cur_.ptr();
      skip_blank_and_comments();
      if (cur_.at_end()) break;
      const char c = *cur_.ptr();
      if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.') break;
      cur_.line();
    }
    cur_.set_ptr(stop);
    const std::string_view text(begin, static_cast<std::size_t>(stop - begin));
    ZoneHeader h;
    h.cell_centred.assign(variables_.size(), false);
    std::string f, et, datapacking, zonetype, varlocation;
    std::string nv;
    std::size_t i = 0;
    auto fail = [&](const std::string& what) { cur_.fail_at("ZONE: " + what, at); };
    while (i < text.size()) {
      while (i < text.size() && is_sep(text[i])) ++i;
      if (i == text.size()) break;
      const std::size_t kb = i;
      while (i < text.size() && is_key_char(text[i])) ++i;
      if (i == kb) fail(expected_found("a KEY=value pair", text.substr(kb, 16)));
      const std::string key = upper(text.substr(kb, i - kb));
      if (key == "AUXDATA") {  // AUXDATA name = "value"
        while (i < text.size() && is_sep(text[i])) ++i;
        while (i < text.size() && is_key_char(text[i])) ++i;
      }
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
      if (i == text.size() || text[i] != '=') fail(expected_found("'=' after " + key, text.substr(i, 16)));
      ++i;
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
      std::string value;
      if (i < text.size() && (text[i] == '"' || text[i] == '(')) {
        const char close = text[i] == '"' ? '"' : ')';
        const std::size_t e = text.find(close, i + 1);
        if (e == std::string_view::npos) fail(key + ": no closing " + std::string(1, close));
        value = std::string(text.substr(text[i] == '"' ? i + 1 : i, text[i] == '"' ? e - i - 1 : e - i + 1));
        i = e + 1;
      } else {
        const std::size_t vb = i;
        while (i < text.size() && !is_sep(text[i])) ++i;
        value = std::string(text.substr(vb, i - vb));
      }
      if (key == "T") h.title = value;
      else if (key == "N" || key == "NODES") h.nodes = number(value, key, at), h.has_nodes = true;
      else if (key == "E" || key == "ELEMENTS") h.elements = number(value, key, at), h.has_elements = true;
      else if (key == "F") f = upper(value);
      else if (key == "ET") et = upper(value);
      else if (key == "DATAPACKING") datapacking = upper(value);
      else if (key == "ZONETYPE") zonetype = upper(value);
      else if (key == "VARLOCATION") varlocation = upper(value);
      else if (key == "NV") nv = value;
      else if (key == "VARSHARELIST" || key == "CONNECTIVITYSHAREZONE" || key == "PASSIVEVARLIST" || key == "FACENEIGHBORCONNECTIONS")
        fail(key + " is not supported");
      else if (key == "I" || key == "J" || key == "K")
        fail("ordered (I, J, K) zones are not supported");
    }
    if (!f.empty()) {
      if (f != "FEPOINT" && f != "FEBLOCK") fail("F=" + f + ": only finite-element zones (FEPOINT, FEBLOCK) are supported");
      if (et.empty()) fail("element type 'ET' not found");
      h.packing = f;
      h.type = et;
    } else if (!datapacking.empty()) {
      if (datapacking != "POINT" && datapacking != "BLOCK") fail(expected_found("DATAPACKING POINT or BLOCK", datapacking));
      if (zonetype.empty()) fail("zone type 'ZONETYPE' not found");
      h.packing = "FE" + datapacking;
      h.type = zonetype;
    } else {
      fail("data format 'F' or 'DATAPACKING' not found");
    }
    if (h.type.rfind("FE", 0) != 0) h.type = "FE" + h.type;
    if (nodes_of(h.type) == 0) fail("zone type " + h.type + " is not supported (FELINESEG, FETRIANGLE, FEQUADRILATERAL, FETETRAHEDRON, FEBRICK)");
    if (!h.has_nodes) fail("number of nodes (N or NODES) not found");
    if (!h.has_elements) fail("number of elements (E or ELEMENTS) not found");
    if (!nv.empty()) {
      const std::uint64_t k = number(nv, "NV", at);
      for (std::size_t v = k; v < h.cell_centred.size(); ++v) h.cell_centred[v] = true;
    }
    if (!varlocation.empty()) locations(varlocation, h, at);
    if (h.packing == "FEPOINT" && std::find(h.cell_centred.begin(), h.cell_centred.end(), true) != h.cell_centred.end())
      fail("cell-centred variables need BLOCK packing");
    return h;
  }

  std::uint64_t number(const std::string& value, const std::string& key, const char* at) {
    return cur_.count(value, "ZONE " + key + ": a count", at);
  }

  // VARLOCATION=([1-2,4]=NODAL, [3]=CELLCENTERED)
  void locations(const std::string& v, ZoneHeader& h, const char* at) {
    std::size_t i = 0;
    while ((i = v.find('[', i)) != std::string::npos) {
      const std::size_t close = v.find(']', i);
      if (close == std::string::npos) cur_.fail_at("ZONE VARLOCATION: no closing ']'", at);
      std::size_t eq = v.find('=', close);
      if (eq == std::string::npos) cur_.fail_at("ZONE VARLOCATION: no '=' after a range", at);
      std::size_t vb = eq + 1;
      while (vb < v.size() && v[vb] == ' ') ++vb;
      const bool cell = v.compare(vb, 12, "CELLCENTERED") == 0;
      if (!cell && v.compare(vb, 5, "NODAL") != 0) cur_.fail_at(expected_found("ZONE VARLOCATION: NODAL or CELLCENTERED", v.substr(vb, 12)), at);
      std::string_view rest(v.data() + i + 1, close - i - 1);
      while (!rest.empty()) {
        const std::string_view item = io::next_field(rest);
        const std::size_t dash = item.find('-');
        std::uint64_t lo = 0, hi = 0;
        const bool ok = dash == std::string_view::npos ? io::parse_field(item, lo) && (hi = lo, true)
                                                       : io::parse_field(io::Cursor::trim(item.substr(0, dash)), lo) &&
                                                             io::parse_field(io::Cursor::trim(item.substr(dash + 1)), hi);
        if (!ok || lo < 1 || hi < lo || hi > h.cell_centred.size())
          cur_.fail_at(expected_found("ZONE VARLOCATION: a variable number or range within 1.." + std::to_string(h.cell_centred.size()), item), at);
        for (std::uint64_t k = lo; k <= hi; ++k) h.cell_centred[k - 1] = cell;
      }
      i = close + 1;
    }
  }

  ZoneData zone_data(const ZoneHeader& h, std::size_t offset) {
    const std::size_t nv = variables_.size(), n = h.nodes, e = h.elements;
    ZoneData z;
    for (std::size_t v = 0; v < nv; ++v) {
      const std::size_t len = h.cell_centred[v] ? e : n;
      cur_.need_values(len, "zone values");
      z.values.push_back(NDArray::uninit(DType::float64, {len}));
    }
    if (h.packing == "FEPOINT") {
      cur_.need_values(cur_.product(n, nv, "point values", cur_.ptr()), "point values");
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t v = 0; v < nv; ++v) z.values[v].data<double>()[i] = value();
    } else {
      for (std::size_t v = 0; v < nv; ++v) {
        double* out = z.values[v].data<double>();
        for (std::size_t i = 0, len = z.values[v].dim(0); i < len; ++i) out[i] = value();
      }
    }
    const std::size_t k = nodes_of(h.type);
    cur_.need_values(cur_.product(e, k, "element nodes", cur_.ptr()), "element nodes");
    NDArray conn = NDArray::uninit(DType::int64, {e, k});
    std::int64_t* c = conn.data<std::int64_t>();
    for (std::size_t i = 0; i < e * k; ++i) {
      skip_blank_and_comments();
      const char* at = cur_.ptr();
      const std::uint64_t id = cur_.index("an element node number");
      if (id < 1 || id > n) cur_.fail_at("element " + std::to_string(i / k + 1) + ": node " + std::to_string(id) + " is outside 1.." + std::to_string(n), at);
      c[i] = static_cast<std::int64_t>(id - 1 + offset);
    }
    node_offset_ = offset + n;
    blocks(z, std::move(conn), k, meshio_type(h.type));
    return z;
  }

  double value() {
    skip_blank_and_comments();
    return cur_.number<double>("a zone value");
  }

  // The zone's elements as blocks: runs of one (collapsed) type, in file order.
  static void blocks(ZoneData& z, NDArray conn, std::size_t k, const char* type) {
    const std::size_t e = conn.dim(0);
    const std::int64_t* c = conn.data<std::int64_t>();
    std::vector<const char*> types;    // per element, from the first collapsed row on
    std::vector<std::int64_t> nodes;  // collapsed rows, 8 slots each, filled only when collapsing
    bool any = false;
    std::int64_t tmp[8];
    for (std::size_t i = 0; i < e; ++i) {
      const Collapsed col = (k == 4 || k == 8) && std::string_view(type) != "tetra" ? collapse(c + k * i, k, tmp) : Collapsed{};
      if (col.k) {
        if (!any) nodes.resize(8 * e), types.assign(e, type), any = true;
        types[i] = col.type;
        std::copy_n(tmp, col.k, nodes.data() + 8 * i);
      }
    }
    if (!any) {
      z.blocks.push_back(CellBlock::rectangular(type, std::move(conn)));
      z.runs.emplace_back(0, e);
      return;
    }
    for (std::size_t i = 0; i < e;) {
      std::size_t j = i;
      while (j < e && std::string_view(types[j]) == types[i]) ++j;
      const bool collapsed = std::string_view(types[i]) != type;
      const std::size_t kk = collapsed ? std::string_view(types[i]) == "triangle" ? 3 : std::string_view(types[i]) == "tetra" ? 4 : std::string_view(types[i]) == "pyramid" ? 5 : 6 : k;
      NDArray b = NDArray::uninit(DType::int64, {j - i, kk});
      for (std::size_t r = i; r < j; ++r)
        std::copy_n(collapsed ? nodes.data() + 8 * r : c + k * r, kk, b.data<std::int64_t>() + (r - i) * kk);
      z.blocks.push_back(CellBlock::rectangular(types[i], std::move(b)));
      z.runs.emplace_back(i, j - i);
      i = j;
    }
  }

  Mesh assemble(std::vector<ZoneData>& zones, const std::vector<std::string>& titles, const std::vector<std::vector<bool>>& loc) {
    const std::size_t nv = variables_.size();
    for (std::size_t z = 1; z < zones.size(); ++z)
      if (loc[z] != loc[0]) cur_.fail("zone " + std::to_string(z + 1) + ": variable locations differ from the first zone's");
    auto find = [&](const char* upper_name, const char* lower_name) -> std::size_t {
      for (const char* name : {upper_name, lower_name})
        for (std::size_t v = 0; v < nv; ++v)
          if (variables_[v] == name && !loc[0][v]) return v;
      return nv;
    };
    const std::size_t x = find("X", "x"), y = find("Y", "y"), zc = find("Z", "z");
    if (x == nv) cur_.fail("variable 'X' not found (a nodal X or x)");
    if (y == nv) cur_.fail("variable 'Y' not found (a nodal Y or y)");
    Mesh m;
    // One variable over every zone: moved when there is one zone.
    auto joined = [&](std::size_t v) {
      if (zones.size() == 1) return std::move(zones[0].values[v]);
      std::size_t total = 0;
      for (const ZoneData& z : zones) total += z.values[v].dim(0);
      NDArray out = NDArray::uninit(DType::float64, {total});
      std::size_t at = 0;
      for (const ZoneData& z : zones) {
        std::copy_n(z.values[v].data<double>(), z.values[v].dim(0), out.data<double>() + at);
        at += z.values[v].dim(0);
      }
      return out;
    };
    const std::size_t dim = zc == nv ? 2 : 3;
    std::size_t npoints = 0;
    for (const ZoneData& z : zones) npoints += z.values[x].dim(0);
    m.points = NDArray::uninit(DType::float64, {npoints, dim});
    double* p = m.points.data<double>();
    std::size_t row = 0;
    for (const ZoneData& z : zones) {
      const std::size_t n = z.values[x].dim(0);
      for (std::size_t i = 0; i < n; ++i, ++row) {
        p[dim * row] = z.values[x].data<double>()[i];
        p[dim * row + 1] = z.values[y].data<double>()[i];
        if (dim == 3) p[dim * row + 2] = z.values[zc].data<double>()[i];
      }
    }
    std::size_t base = 0;
    for (std::size_t z = 0; z < zones.size(); ++z) {
      std::size_t count = 0;
      for (CellBlock& b : zones[z].blocks) count += b.size(), m.cells.push_back(std::move(b));
      if (zones.size() > 1) {
        Region r;
        r.name = titles[z].empty() ? "zone " + std::to_string(z + 1) : titles[z];
        for (const Region& other : m.regions)
          if (other.name == r.name) r.name += " (zone " + std::to_string(z + 1) + ")";
        r.kind = RegionKind::cell;
        std::vector<std::int64_t> entries(count);
        for (std::size_t i = 0; i < count; ++i) entries[i] = static_cast<std::int64_t>(base + i);
        r.entries = NDArray::from_vector(entries);
        m.regions.push_back(std::move(r));
      }
      base += count;
    }
    for (std::size_t v = 0; v < nv; ++v) {
      if (v == x || v == y || v == zc) continue;
      if (!loc[0][v]) {
        m.point_data[variables_[v]] = joined(v);
        continue;
      }
      std::vector<NDArray> per_block;
      for (const ZoneData& z : zones)
        for (const auto& [first, count] : z.runs) {
          NDArray a = NDArray::uninit(DType::float64, {count});
          std::copy_n(z.values[v].data<double>() + first, count, a.data<double>());
          per_block.push_back(std::move(a));
        }
      m.cell_data[variables_[v]] = std::move(per_block);
    }
    return m;
  }

  io::FileBytes file_;
  io::Cursor cur_;
  std::vector<std::string> variables_;
  std::size_t node_offset_ = 0;
};

}  // namespace

Mesh read_tecplot(const std::string& path, const Options& options) {
  OptionReader opts(options, "tecplot");
  opts.finish();
  return Reader(path).read();
}

}  // namespace meshioplusplus::tecplot
