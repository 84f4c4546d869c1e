// meshio++ legacy VTK reader.
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html#simple-legacy-formats
//
// Datasets: UNSTRUCTURED_GRID (4.x "CELLS n size" with inline counts, 5.1 OFFSETS /
// CONNECTIVITY), POLYDATA (VERTICES, LINES, POLYGONS, TRIANGLE_STRIPS: poly-vertices,
// poly-lines and strips are split into vertices, segments and triangles, cell data
// repeated), and the structured ones meshio reads (STRUCTURED_POINTS, STRUCTURED_GRID,
// RECTILINEAR_GRID) as lines / quads / hexahedra. Attributes: SCALARS (+ LOOKUP_TABLE),
// VECTORS, NORMALS, TENSORS, TEXTURE_COORDINATES, COLOR_SCALARS, FIELD; a FIELD outside
// POINT_DATA / CELL_DATA is field_data. Binary data is big-endian. Polyhedra hold their
// face stream in place of their connectivity (what vtkUnstructuredGridWriter writes).
// Every count is checked against the bytes left before anything is allocated from it.
#include <array>
#include <cctype>
#include <cstring>
#include <map>
#include <optional>
#include <type_traits>

#include "core/io/cursor.hpp"
#include "core/io/decode.hpp"
#include "core/io/file.hpp"
#include "core/io/section_reader.hpp"
#include "formats/vtk/vtk_internal.hpp"
#include "formats/vtk_common/cell_blocks.hpp"
#include "formats/vtk_common/vtk_cells.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::vtk {

namespace {

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// The words of one keyword line (no header line of the format has more than five).
struct Words {
  std::array<std::string_view, 8> w;
  std::size_t n = 0;
  std::size_t size() const { return n; }
  bool empty() const { return n == 0; }
  std::string_view operator[](std::size_t i) const { return w[i]; }
};

// VTK escapes special characters in names as %XX.
std::string decode_name(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

std::optional<DType> legacy_dtype(std::string_view name) {
  const std::string n = [&] {
    std::string t(name);
    for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return t;
  }();
  if (n == "unsigned_char" || n == "vtktypeuint8") return DType::uint8;
  if (n == "char" || n == "signed_char" || n == "vtktypeint8") return DType::int8;
  if (n == "unsigned_short" || n == "vtktypeuint16") return DType::uint16;
  if (n == "short" || n == "vtktypeint16") return DType::int16;
  if (n == "unsigned_int" || n == "vtktypeuint32") return DType::uint32;
  if (n == "int" || n == "vtktypeint32") return DType::int32;
  if (n == "unsigned_long" || n == "unsigned_long_long" || n == "vtktypeuint64") return DType::uint64;
  if (n == "long" || n == "long_long" || n == "vtkidtype" || n == "vtktypeint64") return DType::int64;
  if (n == "float" || n == "vtktypefloat32") return DType::float32;
  if (n == "double" || n == "vtktypefloat64") return DType::float64;
  return std::nullopt;
}

struct Section {
  NDArray offsets, connectivity;  // flat form, int64
  // The connectivity's largest value taken as unsigned, when the read found it on the way
  // (binary 5.1 files): blocks_from_flat then needs no pass of its own over the ids.
  std::optional<std::uint64_t> largest;
};

class Reader {
 public:
  // Mapped lazily: binary arrays are read with pread (copy_out, io::read_chunks), text is
  // parsed in place (populate() once the header says ASCII).
  Reader(const std::string& path, unsigned threads)
      : file_(path, "vtk", /*populate=*/false), cur_(file_.text(), "vtk", path), threads_(threads) {
    cur_.set_little_endian(false);  // legacy VTK binary data is big-endian
  }

  Mesh read() {
    const std::string_view first = cur_.line();
    if (first.rfind("# vtk DataFile Version", 0) != 0)
      cur_.fail_at(expected_found("'# vtk DataFile Version x.x'", first), file_.data());
    std::string_view ver = io::Cursor::trim(first.substr(22));
    version51_ = ver == "5.1";
    cur_.line();  // title
    const char* at = cur_.ptr();
    const std::string kind = upper(io::Cursor::trim(cur_.line()));
    if (kind == "ASCII") binary_ = false;
    else if (kind == "BINARY") binary_ = true;
    else cur_.fail_expected("ASCII or BINARY", at);
    if (!binary_) file_.populate();

    for (;;) {
      cur_.skip_space();
      if (cur_.at_end()) break;
      line_at_ = cur_.ptr();
      const Words words = line_words();
      if (words.empty()) continue;
      const std::string key = upper(words[0]);
      if (key == "DATASET") {
        need(words, 2);
        dataset_ = upper(words[1]);
        if (dataset_ != "UNSTRUCTURED_GRID" && dataset_ != "POLYDATA" && dataset_ != "STRUCTURED_POINTS" &&
            dataset_ != "STRUCTURED_GRID" && dataset_ != "RECTILINEAR_GRID")
          fail_line("DATASET " + dataset_ + " is not supported (UNSTRUCTURED_GRID, POLYDATA, STRUCTURED_POINTS, STRUCTURED_GRID, RECTILINEAR_GRID)");
      } else if (key == "POINTS") {
        need(words, 3);
        const std::size_t n = count(words[1]);
        points_ = values(dtype(words[2]), mul(n, 3, "POINTS")).reshaped({n, 3});
        if (!dtype_is_float(points_.dtype())) points_ = points_.as_dtype(DType::float64);
      } else if (key == "CELLS") {
        need(words, 3);
        cells_at_ = line_at_;
        cells_ = read_cell_section(words);
      } else if (key == "CELL_TYPES") {
        need(words, 2);
        const std::size_t n = count(words[1]);
        types_ = cell_types(n);
      } else if (key == "VERTICES" || key == "LINES" || key == "POLYGONS" || key == "TRIANGLE_STRIPS") {
        need(words, 3);
        poly_[key] = read_cell_section(words);
      } else if (key == "DIMENSIONS") {
        need(words, 4);
        for (int i = 0; i < 3; ++i) dims_[i] = count(words[1 + i]);
        have_dims_ = true;
      } else if (key == "ORIGIN" || key == "SPACING" || key == "ASPECT_RATIO") {
        need(words, 4);
        auto& dst = key == "ORIGIN" ? origin_ : spacing_;
        for (int i = 0; i < 3; ++i) dst[i] = real(words[1 + i]);
      } else if (key == "X_COORDINATES" || key == "Y_COORDINATES" || key == "Z_COORDINATES") {
        need(words, 3);
        coords_[key[0] - 'X'] = values(dtype(words[2]), count(words[1])).as_dtype(DType::float64);
      } else if (key == "POINT_DATA" || key == "CELL_DATA") {
        need(words, 2);
        active_ = key == "POINT_DATA" ? &point_data_ : &cell_data_;
        active_n_ = count(words[1]);
      } else if (key == "FIELD") {
        need(words, 3);
        read_field(count(words[2]), active_ ? *active_ : field_data_, active_ ? active_n_ : 0, active_ != nullptr);
      } else if (key == "METADATA") {
        skip_metadata();
      } else if (key == "SCALARS" || key == "VECTORS" || key == "NORMALS" || key == "TENSORS" ||
                 key == "TEXTURE_COORDINATES" || key == "COLOR_SCALARS" || key == "LOOKUP_TABLE") {
        read_attribute(key, words);
      } else {
        fail_line("unknown keyword '" + std::string(words[0]) + "'");
      }
    }
    return build();
  }

 private:
  [[noreturn]] void fail_line(const std::string& what) const { cur_.fail_at(what, line_at_); }
  Words line_words() {
    Words out;
    out.n = cur_.words(out.w.data(), out.w.size());
    return out;
  }
  void need(const Words& w, std::size_t n) const {
    if (w.size() < n) fail_line(std::string(w[0]) + " needs " + std::to_string(n - 1) + " values on its line");
  }
  std::size_t mul(std::size_t a, std::size_t b, const char* what) const { return cur_.product(a, b, what, line_at_); }
  std::size_t count(std::string_view s) const { return static_cast<std::size_t>(cur_.count(s, "a count", line_at_)); }
  double real(std::string_view s) const {
    double v = 0;
    const char* e = io::parse_number(s.data(), s.data() + s.size(), v);
    if (!e || e != s.data() + s.size()) fail_line(expected_found("a number", s));
    return v;
  }
  DType dtype(std::string_view s) const {
    auto d = legacy_dtype(s);
    if (!d) fail_line("data type '" + std::string(s) + "' is not supported");
    return *d;
  }

  // `n` values of `dt`: ASCII numbers, or big-endian binary right after the header line.
  NDArray values(DType dt, std::size_t n) {
    if (binary_) cur_.need(n, dtype_size(dt), "binary values");
    else cur_.need_values(n, "values");
    NDArray out = NDArray::uninit(dt, {n});
    if (binary_) {
      const std::size_t w = dtype_size(dt), at = cur_.offset();
      cur_.take(n * w, "binary values");
      io::read_values(file_, at, n, w, !cur_.little_endian(), threads_, out.raw());
      return out;
    }
    visit_dtype(dt, [&](auto tag) { cur_.text_values(out.data<decltype(tag)>(), n, "values"); });
    return out;
  }

  // `n` integers of `dt` as int64: binary ones decoded (swapped and widened) straight
  // into the result, ASCII ones parsed then widened. `name` says what they are.
  // `largest`, when given, receives the largest value taken as unsigned for binary values
  // (found while each chunk is in cache); ASCII values leave it unset.
  NDArray int64_values(DType dt, std::size_t n, const std::string& name, std::optional<std::uint64_t>* largest = nullptr) {
    if (dtype_is_float(dt)) fail_line(name + " must be integers");
    if (!binary_) return values(dt, n).as_dtype(DType::int64);
    cur_.need(n, dtype_size(dt), "binary values");
    const std::size_t at = cur_.offset();
    cur_.take(n * dtype_size(dt), "binary values");
    NDArray out = NDArray::uninit(DType::int64, {n});
    std::int64_t* dst = out.data<std::int64_t>();
    std::uint64_t top = 0;
    if (dt == DType::int64) {
      std::vector<std::uint64_t> tops(io::chunk_ranges(n, threads_), 0);
      io::read_values(file_, at, n, 8, !cur_.little_endian(), threads_, dst, [&](unsigned r, std::size_t first, std::size_t k) {
        tops[r] = std::max(tops[r], io::largest_as_unsigned(dst + first, k));
      });
      top = *std::max_element(tops.begin(), tops.end());
    } else {
      visit_dtype(dt, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_integral_v<T>) top = io::read_indices<T>(file_, at, n, !cur_.little_endian(), 0, threads_, dst);
      });
    }
    if (largest) *largest = top;
    return out;
  }

  // CELL_TYPES: `n` int32 (binary) or integers (ASCII), each a cell type id in [0, 255].
  NDArray cell_types(std::size_t n) {
    auto bad = [&](std::int64_t v) { fail_line("CELL_TYPES: " + vtk_type_label(v) + " is not a VTK cell type"); };
    if (binary_) {
      cur_.need(n, 4, "binary values");  // before anything is allocated from n
      const std::size_t at = cur_.offset();
      cur_.take(n * 4, "binary values");
      NDArray out = NDArray::uninit(DType::uint8, {n});
      auto* dst = out.data<std::uint8_t>();
      std::vector<std::uint32_t> any(io::chunk_ranges(n, threads_), 0);
      std::vector<std::int32_t> first_bad(any.size(), 0);
      io::read_chunks(file_, at, n, 4, threads_, [&](std::size_t r, std::size_t r0, std::size_t rows, const char* src) {
        std::uint32_t seen = 0;
        for (std::size_t i = 0; i < rows; ++i) {
          const auto v = io::load_as<std::uint32_t, true>(src + 4 * i);
          seen |= v;
          dst[r0 + i] = static_cast<std::uint8_t>(v);
        }
        if (seen <= 255) return true;
        for (std::size_t i = 0; i < rows; ++i)  // the first bad one, for the message
          if (const auto v = static_cast<std::int32_t>(io::load_as<std::uint32_t, true>(src + 4 * i)); v < 0 || v > 255) {
            any[r] = 1;
            first_bad[r] = v;
            return false;
          }
        return true;
      });
      for (std::size_t r = 0; r < any.size(); ++r)
        if (any[r]) bad(first_bad[r]);
      return out;
    }
    const NDArray t = values(DType::int64, n);
    const auto* pt = t.data<const std::int64_t>();
    NDArray out = NDArray::uninit(DType::uint8, {n});
    auto* dst = out.data<std::uint8_t>();
    for (std::size_t i = 0; i < n; ++i) {
      if (pt[i] < 0 || pt[i] > 255) bad(pt[i]);
      dst[i] = static_cast<std::uint8_t>(pt[i]);
    }
    return out;
  }

  Section read_cell_section(const Words& words) {
    Section s;
    const std::size_t n = count(words[1]);
    const std::size_t size = count(words[2]);
    if (version51_) {
      // "CELLS noffsets nconnectivity" then OFFSETS / CONNECTIVITY arrays.
      auto sub = [&](const char* name, std::size_t m) {
        cur_.skip_space();
        line_at_ = cur_.ptr();
        const Words w = line_words();
        if (w.size() < 2 || upper(w[0]) != name) cur_.fail_expected(std::string(name) + " <type>", line_at_);
        return int64_values(dtype(w[1]), m, name, std::string_view(name) == "CONNECTIVITY" ? &s.largest : nullptr);
      };
      if (n == 0) fail_line("CELLS: 0 offsets (there must be one more than the cells)");
      s.offsets = sub("OFFSETS", n);
      s.connectivity = sub("CONNECTIVITY", size);
      return s;
    }
    // 4.x: "CELLS n size", then per cell: count, ids.
    const NDArray raw = int64_values(binary_ ? DType::int32 : DType::int64, size, "CELLS");
    const auto* r = raw.data<const std::int64_t>();
    if (size < n) fail_line("CELLS: " + std::to_string(n) + " cells cannot fit in " + std::to_string(size) + " values");
    s.offsets = NDArray::uninit(DType::int64, {n + 1});
    s.connectivity = NDArray::uninit(DType::int64, {size - n});
    auto* o = s.offsets.data<std::int64_t>();
    auto* c = s.connectivity.data<std::int64_t>();
    std::size_t q = 0, k = 0;
    o[0] = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (q >= size) fail_line("CELLS: the values end inside cell " + std::to_string(i));
      const std::int64_t m = r[q++];
      // The nodes left for this cell: the values left minus one count per later cell (the
      // connectivity holds size - n values).
      const std::size_t room = size - q - (n - 1 - i);
      if (m < 0 || static_cast<std::size_t>(m) > room)
        fail_line("CELLS: cell " + std::to_string(i) + " declares " + std::to_string(m) + " nodes, " + std::to_string(room) + " values are left for its nodes");
      std::memcpy(c + k, r + q, static_cast<std::size_t>(m) * sizeof(std::int64_t));
      q += static_cast<std::size_t>(m);
      k += static_cast<std::size_t>(m);
      o[i + 1] = static_cast<std::int64_t>(k);
    }
    if (q != size) fail_line("CELLS: " + std::to_string(size) + " values declared, the cells use " + std::to_string(q));
    return s;
  }

  void read_attribute(const std::string& key, const Words& w) {
    if (key == "LOOKUP_TABLE") {  // a standalone table: size RGBA entries
      need(w, 3);
      const std::size_t n = count(w[2]);
      values(binary_ ? DType::uint8 : DType::float32, mul(n, 4, "LOOKUP_TABLE"));
      return;
    }
    if (!active_) fail_line(key + " outside POINT_DATA / CELL_DATA");
    const std::size_t n = active_n_;
    need(w, 3);
    const std::string name = decode_name(w[1]);
    if (key == "COLOR_SCALARS") {
      const std::size_t nv = count(w[2]);
      NDArray a = values(binary_ ? DType::uint8 : DType::float32, mul(n, nv, "COLOR_SCALARS"));
      (*active_)[name] = nv == 1 ? a : a.reshaped({n, nv});
      return;
    }
    const DType dt = dtype(w[2]);
    if (key == "SCALARS") {
      std::size_t nc = 1;
      if (w.size() >= 4) nc = count(w[3]);
      if (nc < 1 || nc > 4) fail_line("SCALARS: numComp must be in 1..4, found " + std::to_string(nc));
      // An optional "LOOKUP_TABLE name" line.
      const std::size_t save = cur_.offset();
      cur_.skip_space();
      const Words w2 = line_words();
      if (w2.empty() || upper(w2[0]) != "LOOKUP_TABLE") cur_.seek(save);
      NDArray a = values(dt, mul(n, nc, "SCALARS"));
      (*active_)[name] = nc == 1 ? a : a.reshaped({n, nc});
    } else if (key == "VECTORS" || key == "NORMALS") {
      (*active_)[name] = values(dt, mul(n, 3, key.c_str())).reshaped({n, 3});
    } else if (key == "TENSORS") {
      (*active_)[name] = values(dt, mul(n, 9, "TENSORS")).reshaped({n, 3, 3});
    } else {  // TEXTURE_COORDINATES name dim type
      need(w, 4);
      const std::size_t d = count(w[2]);
      const DType dt2 = dtype(w[3]);
      NDArray a = values(dt2, mul(n, d, "TEXTURE_COORDINATES"));
      (*active_)[name] = d == 1 ? a : a.reshaped({n, d});
    }
  }

  void skip_metadata() {
    // Lines up to the first blank one.
    for (;;) {
      if (cur_.at_end()) return;
      if (io::Cursor::trim(cur_.line()).empty()) return;
    }
  }

  void read_field(std::size_t narrays, std::map<std::string, NDArray>& dst, std::size_t expected_tuples, bool check) {
    for (std::size_t i = 0; i < narrays; ++i) {
      cur_.skip_space();
      line_at_ = cur_.ptr();
      Words w = line_words();
      if (!w.empty() && upper(w[0]) == "METADATA") {
        skip_metadata();
        cur_.skip_space();
        line_at_ = cur_.ptr();
        w = line_words();
      }
      if (w.size() < 4) cur_.fail_expected("a FIELD array line 'name components tuples type'", line_at_);
      const std::string name = decode_name(w[0]);
      const std::size_t nc = count(w[1]), nt = count(w[2]);
      if (nc == 0) fail_line("FIELD array '" + name + "' has 0 components");
      if (check && nt != expected_tuples)
        fail_line("FIELD array '" + name + "': " + expected_found(std::to_string(expected_tuples) + " tuples", std::string(w[2])));
      NDArray a = values(dtype(w[3]), mul(nc, nt, "FIELD array"));
      dst[name] = nc == 1 ? a : a.reshaped({nt, nc});
      // Optional per-array METADATA block.
      const std::size_t save = cur_.offset();
      cur_.skip_space();
      const Words w2 = line_words();
      if (!w2.empty() && upper(w2[0]) == "METADATA") {
        skip_metadata();
      } else {
        cur_.seek(save);
      }
    }
  }

  // --- assembling the mesh --------------------------------------------------------------

  Mesh build() {
    Mesh mesh;
    line_at_ = cells_at_ ? cells_at_ : file_.data() + file_.size();
    if (dataset_.empty()) fail_line("no DATASET");
    std::vector<std::size_t> source;  // output cell -> file cell (POLYDATA splits cells)
    bool identity = true;
    if (dataset_ == "UNSTRUCTURED_GRID") {
      if (cells_.offsets.size() == 0 && types_.size() == 0) {
        cells_.offsets = NDArray::zeros(DType::int64, {1});
        cells_.connectivity = NDArray::uninit(DType::int64, {0});
        types_ = NDArray::uninit(DType::uint8, {0});
      }
      if (cells_.offsets.size() == 0) fail_line("CELL_TYPES without CELLS");
      if (types_.size() + 1 != cells_.offsets.size())
        fail_line("CELLS has " + std::to_string(cells_.offsets.size() - 1) + " cells, CELL_TYPES " + std::to_string(types_.size()));
    } else if (dataset_ == "POLYDATA") {
      build_polydata(source);
      identity = false;
    } else {
      build_structured();
    }
    if (points_.ndim() != 2) points_ = NDArray::zeros(DType::float64, {0, 3});
    mesh.points = points_;
    FlatCells flat;
    flat.offsets = cells_.offsets;
    flat.connectivity = cells_.connectivity;
    flat.types = types_;
    flat.owned = true;
    flat.largest_id = cells_.largest;
    flat.stream = cells_.connectivity.data<const std::int64_t>();
    flat.stream_size = cells_.connectivity.size();
    const auto* off = cells_.offsets.data<const std::int64_t>();
    flat.face_range = [off](std::size_t i) { return std::make_pair(off[i], off[i + 1]); };
    auto blocks = blocks_from_flat(flat, mesh.num_points(), [&](const std::string& w) { fail_line("cells: " + w); });
    mesh.cells = std::move(blocks.blocks);
    for (const std::string& note : blocks.skipped) warn(note);
    const std::size_t ncells = types_.size();
    for (auto& [name, a] : point_data_) {
      if (a.dim(0) != mesh.num_points())
        fail_line("POINT_DATA '" + name + "' has " + std::to_string(a.dim(0)) + " rows, there are " + std::to_string(mesh.num_points()) + " points");
      mesh.point_data[name] = a;
    }
    const std::size_t file_cells = identity ? ncells : poly_file_cells_;
    for (auto& [name, a] : cell_data_) {
      if (a.dim(0) != file_cells)
        fail_line("CELL_DATA '" + name + "' has " + std::to_string(a.dim(0)) + " rows, there are " + std::to_string(file_cells) + " cells");
      NDArray rows = a;
      if (!identity) {
        NDArray::Shape shape = a.shape();
        shape[0] = source.size();
        rows = NDArray::uninit(a.dtype(), shape);
        const std::size_t rb = a.row_size() * dtype_size(a.dtype());
        for (std::size_t i = 0; i < source.size(); ++i)
          std::memcpy(static_cast<char*>(rows.raw()) + i * rb, static_cast<const char*>(a.raw()) + source[i] * rb, rb);
      }
      mesh.cell_data[name] = split_rows(rows, blocks);
    }
    mesh.field_data = field_data_;
    return mesh;
  }

  void build_polydata(std::vector<std::size_t>& source) {
    std::vector<std::int64_t> off{0}, conn;
    std::vector<std::uint8_t> types;
    std::size_t file_cell = 0;
    auto emit = [&](std::uint8_t t, const std::int64_t* ids, std::size_t k) {
      conn.insert(conn.end(), ids, ids + k);
      off.push_back(static_cast<std::int64_t>(conn.size()));
      types.push_back(t);
      source.push_back(file_cell);
    };
    for (const char* key : {"VERTICES", "LINES", "POLYGONS", "TRIANGLE_STRIPS"}) {
      auto it = poly_.find(key);
      if (it == poly_.end()) continue;
      const auto* o = it->second.offsets.data<const std::int64_t>();
      const auto* c = it->second.connectivity.data<const std::int64_t>();
      const std::size_t n = it->second.offsets.size() - 1;
      for (std::size_t i = 0; i < n; ++i, ++file_cell) {
        if (o[i + 1] < o[i] || o[i + 1] > static_cast<std::int64_t>(it->second.connectivity.size()))
          fail_line(std::string(key) + ": offsets out of range at cell " + std::to_string(i));
        const std::int64_t* ids = c + o[i];
        const auto k = static_cast<std::size_t>(o[i + 1] - o[i]);
        const std::string skey = key;
        if (skey == "VERTICES") {
          for (std::size_t j = 0; j < k; ++j) emit(1, ids + j, 1);
        } else if (skey == "LINES") {
          for (std::size_t j = 0; j + 1 < k; ++j) emit(3, ids + j, 2);
        } else if (skey == "POLYGONS") {
          emit(k == 3 ? 5 : k == 4 ? 9 : 7, ids, k);
        } else {
          for (std::size_t j = 0; j + 2 < k; ++j) {
            const std::int64_t tri[3] = {ids[j], ids[j % 2 ? j + 2 : j + 1], ids[j % 2 ? j + 1 : j + 2]};
            emit(5, tri, 3);
          }
        }
      }
    }
    poly_file_cells_ = file_cell;
    cells_.offsets = NDArray::from_vector(off);
    cells_.connectivity = NDArray::from_vector(conn);
    types_ = NDArray::from_vector(types);
  }

  void build_structured() {
    if (!have_dims_) fail_line(dataset_ + " without DIMENSIONS");
    const std::size_t nx = dims_[0], ny = dims_[1], nz = dims_[2];
    const std::size_t np = mul(mul(nx, ny, "DIMENSIONS"), nz, "DIMENSIONS");
    if (dataset_ == "STRUCTURED_GRID") {
      if (points_.dim(0) != np) fail_line("STRUCTURED_GRID: DIMENSIONS give " + std::to_string(np) + " points, POINTS " + std::to_string(points_.dim(0)));
    } else {
      if (np > (std::size_t(1) << 31)) fail_line("DIMENSIONS declare " + std::to_string(np) + " points, more than meshio++ generates (2^31)");
      std::array<NDArray, 3> axis;
      for (int d = 0; d < 3; ++d) {
        if (dataset_ == "RECTILINEAR_GRID") {
          if (coords_[d].size() != dims_[d])
            fail_line("RECTILINEAR_GRID: " + std::string(1, char('X' + d)) + "_COORDINATES has " + std::to_string(coords_[d].size()) +
                      " values, DIMENSIONS " + std::to_string(dims_[d]));
          axis[d] = coords_[d];
        } else {
          std::vector<double> v(dims_[d]);
          for (std::size_t i = 0; i < dims_[d]; ++i) v[i] = origin_[d] + static_cast<double>(i) * spacing_[d];
          axis[d] = NDArray::from_vector(v);
        }
      }
      points_ = NDArray::uninit(DType::float64, {np, 3});
      auto* p = points_.data<double>();
      const double *ax = axis[0].data<const double>(), *ay = axis[1].data<const double>(), *az = axis[2].data<const double>();
      std::size_t q = 0;
      for (std::size_t k = 0; k < nz; ++k)
        for (std::size_t j = 0; j < ny; ++j)
          for (std::size_t i = 0; i < nx; ++i, ++q) p[3 * q] = ax[i], p[3 * q + 1] = ay[j], p[3 * q + 2] = az[k];
    }
    // Cells over the non-trivial directions, x fastest (meshio's _generate_cells).
    std::vector<std::size_t> n, stride;
    std::size_t s = 1;
    for (int d = 0; d < 3; ++d) {
      if (dims_[d] > 1) n.push_back(dims_[d]), stride.push_back(s);
      s *= dims_[d];
    }
    std::vector<std::int64_t> off{0}, conn;
    std::vector<std::uint8_t> types;
    auto push = [&](std::initializer_list<std::size_t> ids, std::uint8_t t) {
      for (auto v : ids) conn.push_back(static_cast<std::int64_t>(v));
      off.push_back(static_cast<std::int64_t>(conn.size()));
      types.push_back(t);
    };
    if (n.size() == 1) {
      for (std::size_t i = 0; i + 1 < n[0]; ++i) push({i * stride[0], (i + 1) * stride[0]}, 3);
    } else if (n.size() == 2) {
      for (std::size_t j = 0; j + 1 < n[1]; ++j)
        for (std::size_t i = 0; i + 1 < n[0]; ++i) {
          const std::size_t a = i * stride[0] + j * stride[1];
          push({a, a + stride[0], a + stride[0] + stride[1], a + stride[1]}, 9);
        }
    } else if (n.size() == 3) {
      for (std::size_t k = 0; k + 1 < n[2]; ++k)
        for (std::size_t j = 0; j + 1 < n[1]; ++j)
          for (std::size_t i = 0; i + 1 < n[0]; ++i) {
            const std::size_t a = i * stride[0] + j * stride[1] + k * stride[2];
            const std::size_t b = a + stride[2];
            push({a, a + stride[0], a + stride[0] + stride[1], a + stride[1], b, b + stride[0], b + stride[0] + stride[1], b + stride[1]}, 12);
          }
    }
    cells_.offsets = NDArray::from_vector(off);
    cells_.connectivity = NDArray::from_vector(conn);
    types_ = NDArray::from_vector(types);
  }

  io::FileBytes file_;
  io::Cursor cur_;
  const char* line_at_ = nullptr;
  const char* cells_at_ = nullptr;
  unsigned threads_ = 1;
  bool binary_ = false, version51_ = false;
  std::string dataset_;
  NDArray points_{NDArray::uninit(DType::float64, {0})};
  Section cells_;
  NDArray types_{NDArray::uninit(DType::uint8, {0})};
  std::map<std::string, Section> poly_;
  std::size_t poly_file_cells_ = 0;
  std::size_t dims_[3] = {1, 1, 1};
  bool have_dims_ = false;
  double origin_[3] = {0, 0, 0}, spacing_[3] = {1, 1, 1};
  NDArray coords_[3];
  std::map<std::string, NDArray> point_data_, cell_data_, field_data_;
  std::map<std::string, NDArray>* active_ = nullptr;
  std::size_t active_n_ = 0;
};

}  // namespace

Mesh read_vtk(const std::string& path, const Options& options) {
  OptionReader opts(options, "vtk");
  opts.finish();
  return Reader(path, opts.threads()).read();
}

}  // namespace meshioplusplus::vtk
