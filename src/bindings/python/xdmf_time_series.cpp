// meshio++ binding: the XDMF time series classes (see xdmf_time_series.hpp). Meshes and
// data cross as the parts dict (_schema.CoreParts), arrays without copies; the GIL is
// released while C++ reads or writes.
#include "xdmf_time_series.hpp"

#include <pybind11/stl.h>

#include "formats/xdmf/xdmf_time_series.hpp"
#include "mesh_dict.hpp"
#include "numpy_bridge.hpp"

namespace meshioplusplus::python {

namespace py = pybind11;
using xdmf::TimeSeriesReader;
using xdmf::TimeSeriesWriter;

void register_xdmf_time_series(py::module_& m) {
  py::class_<TimeSeriesWriter>(m, "XdmfTimeSeriesWriter")
      .def(py::init([](const std::string& path, const py::dict& options) {
             Options opts;
             for (auto [key, value] : options) opts[py::str(key)] = py::str(value);
             py::gil_scoped_release release;
             return std::make_unique<TimeSeriesWriter>(path, opts);
           }),
           py::arg("path"), py::arg("options") = py::dict())
      .def(
          "write_points_cells",
          [](TimeSeriesWriter& w, const py::dict& parts) {
            std::vector<py::object> keep;
            Mesh mesh = dict_to_mesh(parts, keep);
            py::gil_scoped_release release;
            w.write_points_cells(mesh.points, mesh.cells);
          },
          py::arg("parts"), "The mesh (points and cells of the parts dict), written once.")
      .def(
          "write_data",
          [](TimeSeriesWriter& w, double t, const py::dict& parts) {
            std::vector<py::object> keep;
            Mesh mesh = dict_to_mesh(parts, keep);
            py::gil_scoped_release release;
            w.write_data(t, mesh.point_data, mesh.cell_data);
          },
          py::arg("t"), py::arg("parts"), "One step: time t, the point and cell data of the parts dict.")
      .def(
          "close",
          [](TimeSeriesWriter& w) {
            py::gil_scoped_release release;
            w.close();
          },
          "Write the .xdmf file and commit every file.");

  py::class_<TimeSeriesReader>(m, "XdmfTimeSeriesReader")
      .def(py::init([](const std::string& path) {
             py::gil_scoped_release release;
             return std::make_unique<TimeSeriesReader>(path);
           }),
           py::arg("path"))
      .def_property_readonly("num_steps", &TimeSeriesReader::num_steps)
      .def("read_points_cells",
           [](TimeSeriesReader& r) {
             Mesh mesh;
             {
               py::gil_scoped_release release;
               mesh = r.read_points_cells();
             }
             return mesh_to_dict(mesh);
           })
      .def(
          "read_data",
          [](TimeSeriesReader& r, std::size_t k) {
            Mesh mesh;
            double t = 0;
            {
              py::gil_scoped_release release;
              xdmf::TimeStep step = r.read_data(k);
              t = step.t;
              mesh.point_data = std::move(step.point_data);
              mesh.cell_data = std::move(step.cell_data);
            }
            py::dict parts = mesh_to_dict(mesh);
            return py::make_tuple(t, parts["point_data"], parts["cell_data"]);
          },
          py::arg("k"), "(t, point_data, cell_data) of step k.");
}

}  // namespace meshioplusplus::python
