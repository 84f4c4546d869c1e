// meshio++ XDMF time series: meshio's TimeSeriesWriter / TimeSeriesReader layout (a
// uniform Grid "mesh" written once, and a GridType="Collection" CollectionType="Temporal"
// Grid whose step Grids include the mesh by XPointer and hold a <Time> and the step's
// Attributes). Heavy data goes to one <stem>.h5 beside the .xdmf file (or inline / raw
// binary files, as the writer of a whole mesh). Spec:
// https://www.xdmf.org/index.php/XDMF_Model_and_Format (Grid, Time, XInclude).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "meshioplusplus/format.hpp"
#include "meshioplusplus/mesh.hpp"

namespace meshioplusplus::xdmf {

class TimeSeriesWriter {
 public:
  // Options: data_format ("HDF", "XML", "Binary"), compression, compression_opts, and sync
  // (as every write: "false" skips flushing the files to the device at close()). The files
  // appear at close(); until then an existing file at `path` is untouched.
  TimeSeriesWriter(const std::string& path, const Options& options);
  ~TimeSeriesWriter();  // without close(), nothing is written
  TimeSeriesWriter(const TimeSeriesWriter&) = delete;
  TimeSeriesWriter& operator=(const TimeSeriesWriter&) = delete;

  void write_points_cells(const NDArray& points, const std::vector<CellBlock>& cells);
  void write_data(double t, const std::map<std::string, NDArray>& point_data,
                  const std::map<std::string, std::vector<NDArray>>& cell_data);
  // Writes the .xdmf file and commits every file; later calls are errors.
  void close();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

struct TimeStep {
  double t = 0;
  std::map<std::string, NDArray> point_data;
  std::map<std::string, std::vector<NDArray>> cell_data;
};

class TimeSeriesReader {
 public:
  explicit TimeSeriesReader(const std::string& path);
  ~TimeSeriesReader();
  TimeSeriesReader(const TimeSeriesReader&) = delete;
  TimeSeriesReader& operator=(const TimeSeriesReader&) = delete;

  std::size_t num_steps() const;
  // The mesh grid's points and cells.
  Mesh read_points_cells();
  // Step k (0-based): its time and data (cell data split over the mesh's blocks).
  TimeStep read_data(std::size_t k);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace meshioplusplus::xdmf
