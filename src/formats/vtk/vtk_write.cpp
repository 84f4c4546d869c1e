// meshio++ legacy VTK writer: UNSTRUCTURED_GRID, versions 5.1 (default, as meshio) and 4.2.
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html#simple-legacy-formats
//
// Options: binary=true (big-endian binary, else ASCII), fmt_version="5.1" | "4.2",
// float_fmt="" (ASCII floats; "" = shortest round-trip). Like meshio: point and cell data
// as "FIELD FieldData" arrays; field_data as a dataset FIELD after CELL_TYPES (where both
// VTK and meshio read it). Names with spaces or '%' are escaped as %XX, as VTK does.
// Polyhedra are written with their face stream in place of their connectivity, which is
// what vtkUnstructuredGridWriter writes and vtkUnstructuredGridReader reads.

#include "core/io/array_writer.hpp"
#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "formats/vtk/vtk_internal.hpp"
#include "formats/vtk_common/cell_blocks.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/mesh_ops.hpp"

namespace meshioplusplus::vtk {

namespace {

// Names both VTK 9.1's vtkDataReader and meshio read where one exists: VTK 9.1 knows
// "vtktypeint64"/"vtktypeuint64" but not the other vtktype* names meshio's 5.1 writer uses.
const char* legacy_type_name(DType d, bool v51) {
  switch (d) {
    case DType::int8: return "signed_char";
    case DType::int16: return "short";
    case DType::int32: return "int";
    case DType::int64: return v51 ? "vtktypeint64" : "long";
    case DType::uint8: return "unsigned_char";
    case DType::uint16: return "unsigned_short";
    case DType::uint32: return "unsigned_int";
    case DType::uint64: return v51 ? "vtktypeuint64" : "unsigned_long";
    case DType::float32: return "float";
    case DType::float64: break;
  }
  return "double";
}

std::string encode_name(const std::string& s) {
  if (s.empty()) return "%00";
  std::string out;
  static const char* hex = "0123456789ABCDEF";
  for (unsigned char c : s) {
    if (c <= ' ' || c == '%' || c >= 127) {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

class Writer {
 public:
  Writer(io::AtomicFile& f, bool binary, bool v51, io::FloatFormat ff) : w_(f), binary_(binary), v51_(v51), ff_(ff) {}

  // Values of `a` (all of them, row-major): big-endian binary, or ASCII `per_line` per line;
  // a line break after them either way.
  void data(const NDArray& a, std::size_t per_line) {
    if (binary_) {
      io::write_binary(w_, a, false);
      w_.ch('\n');
    } else if (a.size() == 0) {
      w_.ch('\n');
    } else {
      io::write_ascii(w_, a, ff_, {per_line, " ", true});
    }
  }

  void field(const std::map<std::string, NDArray>& arrays) {
    w_.str("FIELD FieldData ").integer(arrays.size()).ch('\n');
    for (const auto& [name, a] : arrays) {
      const std::size_t tuples = a.ndim() == 0 ? 1 : a.dim(0);
      const std::size_t comps = a.ndim() >= 2 ? a.row_size() : 1;
      w_.str(encode_name(name)).ch(' ').integer(comps).ch(' ').integer(tuples).ch(' ').str(legacy_type_name(a.dtype(), v51_)).ch('\n');
      data(a, comps);
    }
  }

  io::TextWriter& text() { return w_; }

 private:
  io::TextWriter w_;
  bool binary_, v51_;
  io::FloatFormat ff_;
};

}  // namespace

void write_vtk(const std::string& path, const Mesh& input, const Options& options) {
  const Mesh mesh = sets_as_data(input);  // VTK has no sets: meshio writes them as int data
  OptionReader opts(options, "vtk");
  const bool binary = opts.get_bool("binary", true);
  const std::string version = opts.get_string("fmt_version", "5.1");
  const std::string float_fmt = opts.get_string("float_fmt", "");
  opts.finish();
  if (version != "5.1" && version != "4.2")
    throw std::invalid_argument("vtk: option 'fmt_version': expected \"5.1\" or \"4.2\", found '" + version + "'");
  const bool v51 = version == "5.1";
  const FlatOut flat = flat_from_blocks(mesh.cells, true, "vtk", path);
  const std::size_t ncells = flat.types.size();

  io::AtomicFile file(path, "vtk");
  Writer w(file, binary, v51, io::FloatFormat::parse(float_fmt));
  auto& t = w.text();
  t.str("# vtk DataFile Version ").str(version).str("\nwritten by meshio++\n").str(binary ? "BINARY\n" : "ASCII\n");
  t.str("DATASET UNSTRUCTURED_GRID\n");

  // Points, padded to 3 coordinates.
  const NDArray pts = points_3d(mesh.points);
  t.str("POINTS ").integer(pts.dim(0)).ch(' ').str(pts.dtype() == DType::float32 ? "float" : "double").ch('\n');
  w.data(pts.dtype() == DType::float32 ? pts : pts.as_dtype(DType::float64), 3);

  const auto* off = flat.offsets.data<const std::int64_t>();
  const auto* conn = flat.connectivity.data<const std::int64_t>();
  if (v51) {
    t.str("CELLS ").integer(ncells + 1).ch(' ').integer(flat.connectivity.size()).ch('\n');
    t.str("OFFSETS vtktypeint64\n");
    w.data(NDArray::view(const_cast<std::int64_t*>(off), DType::int64, {ncells + 1}), 1);
    t.str("CONNECTIVITY vtktypeint64\n");
    w.data(flat.connectivity, binary ? 1 : std::max<std::size_t>(1, flat.connectivity.size()));
  } else {
    // 4.2: per cell its node count then its nodes; int32.
    const std::size_t total = ncells + flat.connectivity.size();
    if (flat.connectivity.size() > 0 && off[ncells] > 0x7fffffff) throw write_error("vtk", path, "4.2 cannot hold more than 2^31 connectivity entries");
    t.str("CELLS ").integer(ncells).ch(' ').integer(total).ch('\n');
    if (binary) {
      std::vector<std::int32_t> legacy(total);
      std::size_t q = 0;
      for (std::size_t i = 0; i < ncells; ++i) {
        legacy[q++] = static_cast<std::int32_t>(off[i + 1] - off[i]);
        for (std::int64_t j = off[i]; j < off[i + 1]; ++j) legacy[q++] = static_cast<std::int32_t>(conn[j]);
      }
      w.data(NDArray::from_vector(legacy), 1);
    } else {
      for (std::size_t i = 0; i < ncells; ++i) {
        t.integer(off[i + 1] - off[i]);
        for (std::int64_t j = off[i]; j < off[i + 1]; ++j) t.ch(' ').integer(conn[j]);
        t.ch('\n');
      }
    }
  }
  t.str("CELL_TYPES ").integer(ncells).ch('\n');
  const auto* flat_types = flat.types.data<const std::uint8_t>();
  std::vector<std::int32_t> types(flat_types, flat_types + ncells);
  w.data(NDArray::from_vector(types), 1);

  if (!mesh.field_data.empty()) w.field(mesh.field_data);
  if (!mesh.point_data.empty()) {
    t.str("POINT_DATA ").integer(mesh.num_points()).ch('\n');
    w.field(std::map<std::string, NDArray>(mesh.point_data.begin(), mesh.point_data.end()));
  }
  if (!mesh.cell_data.empty()) {
    t.str("CELL_DATA ").integer(ncells).ch('\n');
    std::map<std::string, NDArray> cd;
    for (const auto& [name, list] : mesh.cell_data) cd[name] = concat_cell_data(name, list, "vtk", path);
    w.field(cd);
  }
  t.flush();
  file.commit();
}

}  // namespace meshioplusplus::vtk
