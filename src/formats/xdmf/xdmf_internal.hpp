// meshio++ XDMF: declarations shared by the reader, the writer and the time series (the
// topology and number-type tables, the parsed document with its heavy-data files, and the
// heavy-data sink of the writers). Spec: https://www.xdmf.org/index.php/XDMF_Model_and_Format
// (topology type codes of mixed topologies: XdmfTopologyType.cpp of the XDMF library).
#pragma once

#include <optional>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "core/io/xml.hpp"
#include "meshioplusplus/format.hpp"
#include "meshioplusplus/mesh.hpp"

namespace meshioplusplus::xdmf {

Mesh read_xdmf(const std::string& path, const Options& options);
void write_xdmf(const std::string& path, const Mesh& mesh, const Options& options);

// --- tables (xdmf_types.cpp) -------------------------------------------------------------
// One XDMF topology as meshio++ reads and writes it.
struct Topology {
  std::string_view meshio;  // "tetra10"
  std::string_view xdmf;    // the name written ("Tetrahedron_10")
  int code;                 // its code in a Mixed topology
};
// By meshio name (writing); nullptr when XDMF has none.
const Topology* topology_for(std::string_view meshio_type);
// By XDMF name (any of the aliases meshio accepts, case-insensitive); nullptr when unknown.
const Topology* topology_named(std::string_view xdmf_name);
// By Mixed code; nullptr when unknown. Codes 1 (Polyvertex), 2 (Polyline) and 3 (Polygon)
// are followed by a node count in the mixed array.
const Topology* topology_coded(std::int64_t code);
inline constexpr int kPolyvertex = 1, kPolyline = 2, kPolygon = 3;
// Whether a cell of this Mixed code is followed by its node count (Polyvertex, Polyline, Polygon).
inline bool counted_code(int code) { return code == kPolyvertex || code == kPolyline || code == kPolygon; }

// DataType and Precision of a dtype ("Float", "8").
std::string_view number_type(DType dtype);
// "Scalar", "Vector", "Tensor", "Tensor6" or "Matrix" for an attribute of this shape.
std::string_view attribute_type(const NDArray& data);

// --- reading (xdmf_read.cpp) -------------------------------------------------------------
// An .xdmf file parsed, with the heavy-data files it references (opened once each).
class Document {
 public:
  explicit Document(const std::string& path);
  ~Document();
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  const std::string& path() const { return path_; }
  int major_version() const { return major_; }
  const io::XmlElement& domain() const { return *domain_; }
  // The Grid children of the Domain.
  std::vector<const io::XmlElement*> grids() const;

  // Reads the Geometry and Topology of `grid` into mesh.points / mesh.cells.
  void read_points_cells(const io::XmlElement& grid, Mesh& mesh);
  // Reads the Attributes of `grid` (cell data split over `mesh.cells`), its Information as
  // field data; other children are skipped with a warning unless `quiet` names them.
  void read_attributes(const io::XmlElement& grid, Mesh& mesh, std::initializer_list<std::string_view> quiet);

  [[noreturn]] void fail(const io::XmlElement& at, const std::string& what) const;

 private:
  NDArray data_item(const io::XmlElement& parent);
  NDArray read_item(const io::XmlElement& item);
  NDArray read_hdf(const io::XmlElement& item, std::string_view reference);
  NDArray read_binary(const io::XmlElement& item, DType dtype, std::size_t count);
  std::string resolve(std::string_view relative) const;

  std::string path_;
  std::string folder_;
  io::FileBytes file_;
  io::Cursor cur_;
  io::XmlDocument doc_;
  const io::XmlElement* domain_ = nullptr;
  int major_ = 3;
  struct HeavyFiles;
  std::unique_ptr<HeavyFiles> heavy_;
};

// --- writing (xdmf_write.cpp) ------------------------------------------------------------
// Where heavy data goes: inline text (XML), one raw file per array (Binary, <stem><k>.bin),
// or datasets data<k> of one HDF5 file (HDF, <stem>.h5); every file beside the .xdmf file,
// referenced by its name. Each side file is written to a temporary file and renamed on
// commit(), after which the caller commits the .xdmf file.
class HeavyData {
 public:
  // Reads data_format, compression (default `compression`: meshio's mesh writer gzips,
  // its time series writer does not) and compression_opts from `opts`.
  HeavyData(const std::string& xdmf_path, OptionReader& opts, const std::string& compression = "gzip");
  ~HeavyData();
  HeavyData(const HeavyData&) = delete;
  HeavyData& operator=(const HeavyData&) = delete;

  // Creates the side files (after the options are checked). With the heavy data's size
  // known (`expected_bytes`: one mesh), the .h5 is built in memory (io::hdf5::FileInMemory)
  // and copied to its AtomicFile at commit(), so HDF5 never writes to a disk that can fail
  // it (HDF5 1.10 crashes at exit on a file whose close failed); a time series, whose size
  // grows step by step, lets HDF5 write the .h5's temporary file itself.
  void open(std::optional<std::size_t> expected_bytes = std::nullopt);
  // <DataItem ...>...</DataItem> of `array` (its Dimensions are the array's shape).
  void data_item(io::TextWriter& w, const NDArray& array, std::string_view indent);
  void commit();

 private:
  std::string xdmf_path_;
  std::string stem_;  // the .xdmf path without its extension
  std::string format_;
  int gzip_level_ = 4;
  std::size_t counter_ = 0;
  struct Files;
  std::unique_ptr<Files> files_;
};

// The cells of blocks `written` as one Mixed topology stream: per cell its code, its node
// count when counted_code(), its nodes through `number` (empty: as they are). Also the
// collective XDMF writer's (src/mpi/xdmf_layout.cpp), which numbers nodes globally.
NDArray mixed_stream(const std::vector<CellBlock>& cells, const std::vector<std::size_t>& written,
                     const std::function<std::int64_t(std::int64_t)>& number = {});

// <Geometry> and <Topology> of a mesh (blocks XDMF cannot hold are skipped with a warning;
// `written` gets the indices of the blocks written).
void write_points_cells(io::TextWriter& w, HeavyData& heavy, const NDArray& points, const std::vector<CellBlock>& cells,
                        std::vector<std::size_t>& written, std::string_view indent);
// <Attribute> elements of point data and of cell data (over the `written` blocks).
void write_attributes(io::TextWriter& w, HeavyData& heavy, const std::map<std::string, NDArray>& point_data,
                      const std::map<std::string, std::vector<NDArray>>& cell_data,
                      const std::vector<std::size_t>& written, std::string_view indent);

}  // namespace meshioplusplus::xdmf
