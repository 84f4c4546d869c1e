// meshio++ XDMF writer: XDMF 3 in meshio's layout (one uniform Grid: Geometry, Topology
// (Mixed for several blocks), Attributes), heavy data in an HDF5 file beside it (default),
// inline (data_format="XML") or in raw binary files (data_format="Binary"). Spec:
// https://www.xdmf.org/index.php/XDMF_Model_and_Format
#include <cstring>
#include <filesystem>

#include "core/io/array_writer.hpp"
#include "core/io/hdf5.hpp"
#include "formats/xdmf/xdmf_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::xdmf {

namespace {
const std::string kNoHdf5 = std::string(io::hdf5::kMissing) +
    " to write XDMF heavy data in HDF5 (the default data_format=\"HDF\"), or write data_format=\"XML\" or \"Binary\"";

std::string base_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }
}  // namespace

struct HeavyData::Files {
  std::vector<std::unique_ptr<io::AtomicFile>> binaries;
#ifdef MESHIOPP_HAVE_HDF5
  std::unique_ptr<io::AtomicFile> h5_target;
  std::unique_ptr<io::hdf5::FileInMemory> h5_memory;  // one mesh: the .h5 built in memory
  io::hdf5::Handle h5;                                 // a time series: HDF5 writes the temporary file
  hid_t h5_file() const { return h5_memory ? h5_memory->get() : h5.get(); }
#endif
};

HeavyData::HeavyData(const std::string& xdmf_path, OptionReader& opts, const std::string& default_compression)
    : xdmf_path_(xdmf_path), files_(std::make_unique<Files>()) {
  stem_ = (std::filesystem::path(xdmf_path).parent_path() / std::filesystem::path(xdmf_path).stem()).string();
  format_ = opts.get_string("data_format", "HDF");
  if (format_ != "HDF" && format_ != "XML" && format_ != "Binary")
    throw std::invalid_argument("xdmf: unknown data_format '" + format_ + "' (use 'XML', 'Binary', or 'HDF')");
  const std::string compression = opts.get_string("compression", default_compression);
  const long long level = opts.get_int("compression_opts", 4);
  if (compression == "None" || compression == "none" || compression.empty()) gzip_level_ = -1;
  else if (compression == "gzip") gzip_level_ = static_cast<int>(level);
  else throw std::invalid_argument("xdmf: compression '" + compression + "' is not supported (use \"gzip\" or None)");
  if (gzip_level_ > 9) throw std::invalid_argument("xdmf: compression_opts must be 0..9 for gzip");
}

HeavyData::~HeavyData() {
#ifdef MESHIOPP_HAVE_HDF5
  io::hdf5::Session session;
  files_->h5_memory.reset();
  files_->h5.reset();
#endif
}

void HeavyData::open(std::optional<std::size_t> expected_bytes) {
  if (format_ != "HDF") return;
#ifdef MESHIOPP_HAVE_HDF5
  const std::string target = stem_ + ".h5";
  files_->h5_target = std::make_unique<io::AtomicFile>(target, "xdmf");
  if (expected_bytes)
    files_->h5_memory = std::make_unique<io::hdf5::FileInMemory>(io::hdf5::Context{"xdmf", target, true}, *expected_bytes);
  else
    files_->h5 = io::hdf5::create_file({"xdmf", target, true}, files_->h5_target->temp_path());
#else
  throw write_error("xdmf", xdmf_path_, kNoHdf5);
#endif
}

void HeavyData::data_item(io::TextWriter& w, const NDArray& array, std::string_view indent) {
  const std::size_t size = dtype_size(array.dtype());
  w.str(indent).str("<DataItem DataType=\"").str(number_type(array.dtype())).str("\" Dimensions=\"");
  for (std::size_t i = 0; i < array.ndim(); ++i) {
    if (i) w.ch(' ');
    w.integer(array.shape()[i]);
  }
  w.str("\" Format=\"").str(format_).str("\" Precision=\"").integer(size).str("\">");
  if (format_ == "XML") {
    w.ch('\n');
    io::write_ascii(w, array, io::FloatFormat{}, {array.row_size(), " ", true});
    w.str(indent);
  } else if (format_ == "Binary") {
    const std::string target = stem_ + std::to_string(counter_++) + ".bin";
    auto file = std::make_unique<io::AtomicFile>(target, "xdmf");
    if (array.nbytes()) file->write(array.raw(), array.nbytes());
    files_->binaries.push_back(std::move(file));
    w.str(io::xml_escape(base_name(target)));
  } else {
#ifdef MESHIOPP_HAVE_HDF5
    const std::string name = "data" + std::to_string(counter_++);
    io::hdf5::write_dataset({"xdmf", stem_ + ".h5", true}, files_->h5_file(), name, array, {gzip_level_, false, 1 << 20});
    w.str(io::xml_escape(base_name(stem_ + ".h5"))).str(":/").str(name);
#endif
  }
  w.str("</DataItem>\n");
}

void HeavyData::commit() {
#ifdef MESHIOPP_HAVE_HDF5
  if (files_->h5_target) {
    io::hdf5::Session session;
    if (files_->h5_memory) {
      files_->h5_memory->write_to(*files_->h5_target);
      files_->h5_memory.reset();
    } else if (files_->h5 && H5Fflush(files_->h5.get(), H5F_SCOPE_GLOBAL) < 0) {
      io::hdf5::fail({"xdmf", stem_ + ".h5", true}, "cannot flush the HDF5 file");
    }
    files_->h5.reset();
    files_->h5_target->commit();
  }
#endif
  for (auto& f : files_->binaries) f->commit();
}

NDArray mixed_stream(const std::vector<CellBlock>& cells, const std::vector<std::size_t>& written,
                     const std::function<std::int64_t(std::int64_t)>& number) {
  std::size_t total = 0;
  for (std::size_t b : written) {
    const CellBlock& block = cells[b];
    const std::size_t nodes = block.ragged ? block.indices.size() : block.connectivity.size();
    total += nodes + block.size() * (counted_code(topology_for(block.type)->code) ? 2 : 1);
  }
  NDArray mixed = NDArray::uninit(DType::int64, {total});
  std::int64_t* out = mixed.data<std::int64_t>();
  for (std::size_t b : written) {
    const CellBlock& block = cells[b];
    const std::int64_t code = topology_for(block.type)->code;
    const bool counted = counted_code(static_cast<int>(code));
    for (std::size_t i = 0; i < block.size(); ++i) {
      const std::int64_t* nodes;
      std::size_t k;
      if (block.ragged) {
        const std::int64_t* off = block.offsets.data<const std::int64_t>();
        nodes = block.indices.data<const std::int64_t>() + off[i];
        k = static_cast<std::size_t>(off[i + 1] - off[i]);
      } else {
        k = block.connectivity.dim(1);
        nodes = block.connectivity.data<const std::int64_t>() + i * k;
      }
      *out++ = code;
      if (counted) *out++ = static_cast<std::int64_t>(k);
      if (number) {
        for (std::size_t j = 0; j < k; ++j) *out++ = number(nodes[j]);
      } else {
        std::memcpy(out, nodes, k * sizeof(std::int64_t));
        out += k;
      }
    }
  }
  return mixed;
}

void write_points_cells(io::TextWriter& w, HeavyData& heavy, const NDArray& points, const std::vector<CellBlock>& cells,
                        std::vector<std::size_t>& written, std::string_view indent) {
  const std::string inner = std::string(indent) + "  ";
  if (points.ndim() != 2 || points.dim(1) < 2 || points.dim(1) > 3)
    throw std::invalid_argument("xdmf: points must have 2 or 3 columns");
  w.str(indent).str("<Geometry GeometryType=\"").str(points.dim(1) == 2 ? "XY" : "XYZ").str("\">\n");
  heavy.data_item(w, points, inner);
  w.str(indent).str("</Geometry>\n");

  written.clear();
  for (std::size_t b = 0; b < cells.size(); ++b) {
    const CellBlock& block = cells[b];
    if (!topology_for(block.type) || (block.ragged && block.type != "polygon")) {
      warn("skipped " + std::to_string(block.size()) + " " + block.type + " cells: XDMF has no such topology");
      continue;
    }
    written.push_back(b);
  }
  if (written.empty()) return;
  const CellBlock& first = cells[written[0]];
  if (written.size() == 1 && !first.ragged && first.type != "polygon") {
    const Topology* t = topology_for(first.type);
    w.str(indent).str("<Topology TopologyType=\"").str(t->xdmf).str("\" NumberOfElements=\"").integer(first.size())
        .str("\" NodesPerElement=\"").integer(first.connectivity.dim(1)).str("\">\n");
    heavy.data_item(w, first.connectivity, inner);
    w.str(indent).str("</Topology>\n");
    return;
  }
  std::size_t ncells = 0;
  for (std::size_t b : written) ncells += cells[b].size();
  const NDArray mixed = mixed_stream(cells, written);
  w.str(indent).str("<Topology TopologyType=\"Mixed\" NumberOfElements=\"").integer(ncells).str("\">\n");
  heavy.data_item(w, mixed, inner);
  w.str(indent).str("</Topology>\n");
}

namespace {
void attribute(io::TextWriter& w, HeavyData& heavy, const std::string& name, const NDArray& data, const char* center,
               std::string_view indent) {
  w.str(indent).str("<Attribute Name=\"").str(io::xml_escape(name)).str("\" AttributeType=\"").str(attribute_type(data))
      .str("\" Center=\"").str(center).str("\">\n");
  heavy.data_item(w, data, std::string(indent) + "  ");
  w.str(indent).str("</Attribute>\n");
}
}  // namespace

void write_attributes(io::TextWriter& w, HeavyData& heavy, const std::map<std::string, NDArray>& point_data,
                      const std::map<std::string, std::vector<NDArray>>& cell_data,
                      const std::vector<std::size_t>& written, std::string_view indent) {
  for (const auto& [name, data] : point_data) attribute(w, heavy, name, data, "Node", indent);
  for (const auto& [name, per_block] : cell_data) {
    if (written.empty()) continue;
    // One array over every written block, in block order (meshio's raw cell data).
    const NDArray& first = per_block.at(written[0]);
    std::size_t rows = 0;
    for (std::size_t b : written) {
      const NDArray& a = per_block.at(b);
      if (a.dtype() != first.dtype() || a.row_size() != first.row_size() || a.ndim() != first.ndim())
        throw WriteError("cell data '" + name + "' differs in dtype or shape between blocks: XDMF holds one array over all cells");
      rows += a.dim(0);
    }
    if (written.size() == 1) {
      attribute(w, heavy, name, first, "Cell", indent);
      continue;
    }
    NDArray::Shape shape = first.shape();
    shape[0] = rows;
    NDArray all = NDArray::uninit(first.dtype(), shape);
    char* out = static_cast<char*>(all.raw());
    for (std::size_t b : written) {
      const NDArray& a = per_block.at(b);
      if (a.nbytes()) std::memcpy(out, a.raw(), a.nbytes());
      out += a.nbytes();
    }
    attribute(w, heavy, name, all, "Cell", indent);
  }
}

void write_xdmf(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "xdmf");
  HeavyData heavy(path, opts);
  opts.finish();
  io::AtomicFile file(path, "xdmf");
#ifdef MESHIOPP_HAVE_HDF5
  heavy.open(io::hdf5::array_bytes(mesh));
#else
  heavy.open();
#endif
  io::TextWriter w(file);
  w.str("<?xml version=\"1.0\"?>\n<Xdmf Version=\"3.0\">\n  <Domain>\n    <Grid Name=\"Grid\">\n");
  std::vector<std::size_t> written;
  write_points_cells(w, heavy, mesh.points, mesh.cells, written, "      ");
  write_attributes(w, heavy, mesh.point_data, mesh.cell_data, written, "      ");
  if (!mesh.field_data.empty()) warn("field data is not written: meshio's XDMF writer has none");
  w.str("    </Grid>\n  </Domain>\n</Xdmf>\n");
  w.flush();
  heavy.commit();
  file.commit();
}

}  // namespace meshioplusplus::xdmf
