// meshio++ tests: canonical meshes and a mesh comparison shared by the VTU and legacy VTK
// tests (meshio's test helpers, recreated: lines, triangles, quads, tetra, hexahedron,
// wedge, pyramid, quadratic types, polygons, polyhedra, with point/cell/field data).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "meshioplusplus/meshioplusplus.hpp"
#include "test_support.hpp"

namespace vtktest {

namespace mpp = meshioplusplus;
using mpp::NDArray;
using namespace testsupport;  // tmp_path, slurp, spit, read_outcome, ...

inline NDArray i64(std::vector<std::int64_t> v, NDArray::Shape s) { return NDArray::from_vector(v, std::move(s)); }

// A 3x3x3 grid of points (27 points), enough for every type below.
inline NDArray grid_points(std::size_t dim = 3) {
  std::vector<double> p;
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 3; ++x) {
        p.push_back(x * 0.5 + 0.125 * z);
        p.push_back(y * 1.25 - 0.1 * x);
        if (dim == 3) p.push_back(z * 2.0 + 1e-3 * (x + y));
      }
  if (dim == 2) p.resize(27 * 2);
  return NDArray::from_vector(p, {27, dim});
}

// `n` points whose coordinates' shortest texts are of many lengths, all within the 20
// characters Abaqus takes (writers format them in chunks on several threads: enough points
// for several chunks).
inline NDArray many_points(std::size_t n) {
  std::vector<double> p(3 * n);
  for (std::size_t i = 0; i < n; ++i) {
    p[3 * i] = static_cast<double>(i) * 1e-3;
    p[3 * i + 1] = static_cast<double>(i % 4099) / 1024.0 - 0.5;
    p[3 * i + 2] = -static_cast<double>(i % 977) * 1.5e7;
  }
  return NDArray::from_vector(p, {n, 3});
}

// Writes `m` as `format` (with `options`) on 1, 2, 3 and 8 threads to
// tmp_path("threads<n>" + suffix); returns the thread counts whose bytes differ from one
// thread's ("" when none do).
inline std::string thread_counts_changing_bytes(const mpp::Mesh& m, const std::string& format, const std::string& suffix,
                                                mpp::Options options = {}) {
  std::string first, differing;
  for (std::string threads : {"1", "2", "3", "8"}) {
    const std::string path = tmp_path("threads" + threads + suffix);
    options["threads"] = threads;
    mpp::write(path, m, format, options);
    const std::string bytes = slurp(path);
    if (first.empty()) first = bytes;
    if (bytes != first) differing += threads + " ";
  }
  return differing;
}

inline mpp::CellBlock rect(const std::string& type, std::size_t k, std::size_t m, std::int64_t seed = 0) {
  std::vector<std::int64_t> c(k * m);
  for (std::size_t i = 0; i < k * m; ++i) c[i] = static_cast<std::int64_t>((i * 7 + static_cast<std::size_t>(seed) * 3 + i / k) % 27);
  return mpp::CellBlock::rectangular(type, NDArray::from_vector(c, {m, k}));
}

inline mpp::Mesh tri_mesh() {
  mpp::Mesh m;
  m.points = grid_points();
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", i64({0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4}, {4, 3})));
  return m;
}

inline mpp::Mesh linear_mix() {
  mpp::Mesh m;
  m.points = grid_points();
  m.cells.push_back(rect("vertex", 1, 2));
  m.cells.push_back(rect("line", 2, 3));
  m.cells.push_back(rect("triangle", 3, 2));
  m.cells.push_back(rect("quad", 4, 2));
  m.cells.push_back(rect("tetra", 4, 3));
  m.cells.push_back(rect("hexahedron", 8, 2));
  m.cells.push_back(mpp::CellBlock::rectangular("wedge", i64({0, 1, 3, 9, 10, 12, 1, 2, 4, 10, 11, 13}, {2, 6})));
  m.cells.push_back(rect("pyramid", 5, 2));
  m.cells.push_back(rect("triangle", 3, 1, 5));  // a second block of a type seen before
  return m;
}

inline mpp::Mesh quadratic_mix() {
  mpp::Mesh m;
  m.points = grid_points();
  for (auto [t, k] : std::vector<std::pair<std::string, std::size_t>>{
           {"line3", 3}, {"triangle6", 6}, {"quad8", 8}, {"quad9", 9}, {"tetra10", 10}, {"hexahedron20", 20},
           {"hexahedron27", 27}, {"wedge15", 15}, {"pyramid13", 13}, {"triangle7", 7}, {"line4", 4},
           {"wedge12", 12}, {"wedge18", 18}, {"hexahedron24", 24},
           // no fixed VTK type: written as VTK_LAGRANGE_*
           {"triangle10", 10}, {"quad16", 16}, {"tetra20", 20}, {"line5", 5}})
    m.cells.push_back(rect(t, k, 2, static_cast<std::int64_t>(k)));
  return m;
}

// 27 points with awkward coordinates (a third, subnormal-ish, huge) and two cells of each of
// `types` (name, nodes per cell): what the solver-deck writers' round trips start from.
inline mpp::Mesh awkward_mix(const std::vector<std::pair<std::string, std::size_t>>& types) {
  mpp::Mesh m;
  std::vector<double> p;
  for (int i = 0; i < 27; ++i) p.insert(p.end(), {i * 0.1 - 1.0 / 3.0, -1e-300 * i, 6.02e23 / (i + 1)});
  m.points = NDArray::from_vector(p, {27, 3});
  for (const auto& [t, k] : types) m.cells.push_back(rect(t, k, 2, static_cast<std::int64_t>(k)));
  return m;
}

inline mpp::Mesh polygon_mesh() {
  mpp::Mesh m;
  m.points = grid_points();
  m.cells.push_back(mpp::CellBlock::rectangular("polygon", i64({0, 1, 2, 5, 4, 3, 4, 5, 8, 7, 6, 3}, {2, 6})));
  m.cells.push_back(rect("triangle", 3, 1));
  m.cells.push_back(mpp::CellBlock::polygons(i64({0, 5, 12, 16}, {4}),
                                             i64({0, 1, 2, 5, 4, 9, 10, 11, 14, 17, 16, 15, 18, 19, 22, 21}, {16})));
  return m;
}

// A cube (8 nodes, 6 faces) and a pyramid on top (5 nodes, 5 faces), then a tetra as a
// polyhedron: polyhedra of different node counts in one ragged block.
inline mpp::Mesh polyhedron_mesh(bool mixed = false) {
  mpp::Mesh m;
  m.points = grid_points();
  std::vector<std::vector<std::vector<std::int64_t>>> cells = {
      {{0, 1, 4, 3}, {9, 12, 13, 10}, {0, 9, 10, 1}, {1, 10, 13, 4}, {4, 13, 12, 3}, {3, 12, 9, 0}},
      {{9, 10, 13, 12}, {9, 10, 22}, {10, 13, 22}, {13, 12, 22}, {12, 9, 22}},
      {{1, 2, 5}, {1, 2, 11}, {2, 5, 11}, {5, 1, 11}},
  };
  std::vector<std::int64_t> off{0}, foff{0}, idx;
  for (const auto& c : cells) {
    for (const auto& f : c) {
      idx.insert(idx.end(), f.begin(), f.end());
      foff.push_back(static_cast<std::int64_t>(idx.size()));
    }
    off.push_back(static_cast<std::int64_t>(foff.size() - 1));
  }
  if (mixed) m.cells.push_back(rect("tetra", 4, 2));
  m.cells.push_back(mpp::CellBlock::polyhedra(i64(off, {off.size()}), i64(foff, {foff.size()}), i64(idx, {idx.size()})));
  if (mixed) m.cells.push_back(rect("hexahedron", 8, 1));
  return m;
}

// Adds point data (float64 scalar, float32 vector, int32), cell data (per block, float64
// and int64 2-component) and field data (int32, float64) -- meshio's add_*_data helpers.
inline mpp::Mesh with_data(mpp::Mesh m, bool field = true) {
  const std::size_t n = m.num_points();
  std::vector<double> s(n);
  std::vector<float> v(3 * n);
  std::vector<std::int32_t> ii(n);
  for (std::size_t i = 0; i < n; ++i) {
    s[i] = 0.1 * static_cast<double>(i) - 1.0 / 3.0;
    ii[i] = static_cast<std::int32_t>(i) * -3;
    for (int c = 0; c < 3; ++c) v[3 * i + c] = static_cast<float>(i) / 7.0f + static_cast<float>(c);
  }
  m.point_data["a"] = NDArray::from_vector(s);
  m.point_data["vec 3"] = NDArray::from_vector(v, {n, 3});
  m.point_data["ints"] = NDArray::from_vector(ii);
  for (const auto& b : m.cells) {
    const std::size_t c = b.size();
    std::vector<double> cs(c);
    std::vector<std::int64_t> ci(2 * c);
    for (std::size_t i = 0; i < c; ++i) cs[i] = 1.5 * static_cast<double>(i) + static_cast<double>(m.cell_data["cd"].size()), ci[2 * i] = static_cast<std::int64_t>(i), ci[2 * i + 1] = -7;
    m.cell_data["cd"].push_back(NDArray::from_vector(cs));
    m.cell_data["cd2"].push_back(NDArray::from_vector(ci, {c, 2}));
  }
  if (field) {
    m.field_data["one"] = NDArray::from_vector<std::int32_t>({1, 3});
    m.field_data["pi"] = NDArray::from_vector<double>({3.141592653589793});
  }
  return m;
}

inline std::string compare_arrays(const std::string& what, const NDArray& a, const NDArray& b, bool exact_dtype = true) {
  if (a.shape() != b.shape()) {
    std::string s = what + ": shape differs (";
    for (auto d : a.shape()) s += std::to_string(d) + ",";
    s += ") vs (";
    for (auto d : b.shape()) s += std::to_string(d) + ",";
    return s + ")";
  }
  if (exact_dtype && a.dtype() != b.dtype())
    return what + ": dtype " + std::string(mpp::dtype_name(a.dtype())) + " vs " + std::string(mpp::dtype_name(b.dtype()));
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a.value_as_double(i) != b.value_as_double(i) && !(std::isnan(a.value_as_double(i)) && std::isnan(b.value_as_double(i))))
      return what + ": value " + std::to_string(i) + " differs: " + std::to_string(a.value_as_double(i)) + " vs " +
             std::to_string(b.value_as_double(i));
  return "";
}

// "" when equal; else the first difference. Points are compared after padding 2-D to 3-D.
inline std::string compare_meshes(const mpp::Mesh& expected, const mpp::Mesh& got, bool field = true) {
  NDArray ep = expected.points;
  if (ep.dim(1) == 2 && got.points.dim(1) == 3) {
    std::vector<double> p3;
    for (std::size_t i = 0; i < ep.dim(0); ++i) p3.insert(p3.end(), {ep.value_as_double(2 * i), ep.value_as_double(2 * i + 1), 0.0});
    ep = NDArray::from_vector(p3, {ep.dim(0), 3}).as_dtype(ep.dtype());
  }
  if (auto d = compare_arrays("points", ep, got.points); !d.empty()) return d;
  if (expected.cells.size() != got.cells.size())
    return "cell block count " + std::to_string(expected.cells.size()) + " vs " + std::to_string(got.cells.size());
  for (std::size_t b = 0; b < expected.cells.size(); ++b) {
    const auto& e = expected.cells[b];
    const auto& g = got.cells[b];
    const std::string w = "cells[" + std::to_string(b) + "]";
    if (e.type != g.type) return w + ": type " + e.type + " vs " + g.type;
    if (e.ragged != g.ragged) return w + ": ragged " + std::to_string(e.ragged) + " vs " + std::to_string(g.ragged);
    if (!e.ragged) {
      if (auto d = compare_arrays(w, e.connectivity, g.connectivity, false); !d.empty()) return d;
      continue;
    }
    if (auto d = compare_arrays(w + ".offsets", e.offsets, g.offsets, false); !d.empty()) return d;
    if (auto d = compare_arrays(w + ".indices", e.indices, g.indices, false); !d.empty()) return d;
    if (e.type == "polyhedron")
      if (auto d = compare_arrays(w + ".face_offsets", e.face_offsets, g.face_offsets, false); !d.empty()) return d;
  }
  if (expected.point_data.size() != got.point_data.size()) return "point_data count differs";
  for (const auto& [k, a] : expected.point_data) {
    if (!got.point_data.count(k)) return "point_data['" + k + "'] missing";
    if (auto d = compare_arrays("point_data['" + k + "']", a, got.point_data.at(k)); !d.empty()) return d;
  }
  if (expected.cell_data.size() != got.cell_data.size()) return "cell_data count differs";
  for (const auto& [k, list] : expected.cell_data) {
    if (!got.cell_data.count(k)) return "cell_data['" + k + "'] missing";
    const auto& gl = got.cell_data.at(k);
    if (gl.size() != list.size()) return "cell_data['" + k + "'] block count differs";
    for (std::size_t b = 0; b < list.size(); ++b)
      if (auto d = compare_arrays("cell_data['" + k + "'][" + std::to_string(b) + "]", list[b], gl[b]); !d.empty()) return d;
  }
  if (field) {
    if (expected.field_data.size() != got.field_data.size()) return "field_data count differs";
    for (const auto& [k, a] : expected.field_data) {
      if (!got.field_data.count(k)) return "field_data['" + k + "'] missing";
      if (auto d = compare_arrays("field_data['" + k + "']", a, got.field_data.at(k)); !d.empty()) return d;
    }
  }
  return "";
}

}  // namespace vtktest
