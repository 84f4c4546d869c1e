// meshio++ AVS-UCD reader (ASCII).
// Spec: https://lanl.github.io/LaGriT/pages/docs/read_avs.html
//
// Layout: '#' comment lines, then "nnodes ncells nnode_data ncell_data nmodel_data", the
// nodes ("id x y z"), the cells ("id material type n1 ... nk", types pt line tri quad tet
// pyr prism hex), then, when the header counts are not zero, the node data and the cell
// data: "ncomponents size1 size2 ...", one "label, units" line per component, and one
// "id v1 v2 ..." row per node (cell). Node and cell ids are labels in any order.
//
// As meshio reads it: nodes become points in file order, cells one block per run of one
// type (AVS node orders mapped to meshio's), the material numbers cell data
// "avsucd:material" (int64), each data component an array named by its label (spaces as
// '_'), 1-D for size 1 and (n, size) otherwise, float64. Model data is not read (meshio
// neither).
#include <cmath>
#include <limits>
#include <vector>

#include "core/cell_collector.hpp"
#include "core/growable_buffer.hpp"
#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "core/label_map.hpp"
#include "formats/avsucd/avsucd_internal.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::avsucd {

namespace {

const CellType* find_type(std::string_view name) {
  for (const CellType& t : kCellTypes)
    if (t.avs == name) return &t;
  return nullptr;
}

class Reader {
 public:
  explicit Reader(const std::string& path) : file_(path, "avsucd"), cur_(file_.text(), "avsucd", path) {}

  Mesh read() {
    const std::size_t nn = count("the node count");
    const std::size_t nc = count("the cell count");
    const std::size_t nnd = count("the node data count");
    const std::size_t ncd = count("the cell data count");
    count("the model data count");
    Mesh m;
    LabelMap nodes = read_nodes(m, nn);
    LabelMap cells = read_cells(m, nc, nodes);
    if (nnd) {
      std::vector<std::pair<std::string, NDArray>> data = read_data(nn, nodes, "node");
      for (auto& [name, a] : data) m.point_data[name] = std::move(a);
    }
    if (ncd) {
      std::vector<std::pair<std::string, NDArray>> data = read_data(nc, cells, "cell");
      for (auto& [name, a] : data) m.cell_data[name] = split(a);
    }
    return m;
  }

 private:
  void skip() { cur_.skip_space_and_comments('#'); }

  std::size_t count(std::string_view what) {
    skip();
    const char* at = cur_.ptr();
    return static_cast<std::size_t>(cur_.count(cur_.token(), what, at));
  }

  std::int64_t label(std::string_view what) {
    skip();
    return cur_.number<std::int64_t>(what);
  }

  LabelMap build(LabelList& labels, std::string_view what) {
    LabelMap map;
    const LabelMap::BuildResult r = map.build(labels);
    if (r.duplicates)
      warn("avsucd: " + std::to_string(r.duplicates) + " " + std::string(what) + " ids defined more than once (e.g. " +
           std::to_string(r.first_duplicate) + "); the later definition is used");
    return map;
  }

  LabelMap read_nodes(Mesh& m, std::size_t nn) {
    cur_.need(nn, 8, "nodes");  // "1 0 0 0\n"
    LabelList labels;  // consecutive ids (the usual 1..n) cost nothing
    m.points = NDArray::uninit(DType::float64, {nn, 3});
    double* p = m.points.data<double>();
    for (std::size_t i = 0; i < nn; ++i) {
      labels.push_back(label("a node id"));
      for (int k = 0; k < 3; ++k) {
        skip();
        p[3 * i + k] = cur_.number<double>("a node coordinate");
      }
    }
    return build(labels, "node");
  }

  LabelMap read_cells(Mesh& m, std::size_t nc, const LabelMap& nodes) {
    cur_.need(nc, 9, "cells");  // "1 0 pt 1\n"
    LabelList labels;
    GrowableBuffer material;  // int64 per cell, file order
    CellCollector collector;
    for (std::size_t i = 0; i < nc; ++i) {
      skip();
      const std::size_t offset = cur_.offset();
      labels.push_back(label("a cell id"));
      material.push(label("a cell material number"));
      skip();
      const char* at = cur_.ptr();
      const std::string_view name = cur_.token();
      const CellType* t = find_type(name);
      if (!t) cur_.fail_at(expected_found("a cell type (pt, line, tri, quad, tet, pyr, prism, hex)", name), at);
      std::int64_t file_order[8];
      for (std::size_t j = 0; j < t->nodes; ++j) file_order[j] = label("a cell node id");
      std::int64_t* row = collector.add(t->meshio, t->nodes, offset);
      for (std::size_t j = 0; j < t->nodes; ++j) row[j] = file_order[t->from_file[j]];
    }
    std::vector<CellCollector::Block> blocks = collector.blocks(nodes, [&](std::string_view type, std::int64_t id, std::size_t offset) {
      cur_.fail_at(std::string(type) + " cell: node id " + std::to_string(id) + " is not defined", cur_.begin() + offset);
    });
    std::vector<NDArray> mats;
    for (CellCollector::Block& b : blocks) {
      m.cells.push_back(CellBlock::rectangular(std::string(b.type), std::move(b.connectivity)));
      sizes_.push_back(b.count);
      if (blocks.size() == 1) {  // the numbers are the block's, in order: handed over
        mats.push_back(material.take(DType::int64, {b.count}));
        break;
      }
      NDArray a = NDArray::uninit(DType::int64, {b.count});
      std::copy_n(material.as<const std::int64_t>() + b.first, b.count, a.data<std::int64_t>());
      mats.push_back(std::move(a));
    }
    m.cell_data[kMaterial] = std::move(mats);
    return build(labels, "cell");
  }

  // A node or cell data section for `n` entities whose ids `ids` maps to rows.
  std::vector<std::pair<std::string, NDArray>> read_data(std::size_t n, const LabelMap& ids, std::string_view what) {
    const std::string kind(what);
    const std::size_t ncomp = count("the " + kind + " data component count");
    cur_.need(ncomp, 2, kind + " data components");
    std::vector<std::size_t> sizes(ncomp);
    std::size_t width = 0;
    for (std::size_t c = 0; c < ncomp; ++c) {
      sizes[c] = count("a " + kind + " data component size");
      cur_.need(sizes[c], 2, kind + " data values");
      width += sizes[c];
    }
    cur_.line();  // the rest of the sizes line
    std::vector<std::pair<std::string, NDArray>> out;
    for (std::size_t c = 0; c < ncomp; ++c) {
      skip();
      if (cur_.at_end()) cur_.fail_expected("a " + kind + " data label line (label, units)");
      std::string_view l = cur_.line();
      std::string name(io::Cursor::trim(l.substr(0, l.find(','))));
      for (char& ch : name)
        if (ch == ' ') ch = '_';
      NDArray a = sizes[c] == 1 ? NDArray::uninit(DType::float64, {n}) : NDArray::uninit(DType::float64, {n, sizes[c]});
      std::fill_n(a.data<double>(), n * sizes[c], std::numeric_limits<double>::quiet_NaN());
      out.emplace_back(std::move(name), std::move(a));
    }
    cur_.need_values(cur_.product(n, width + 1, kind + " data", cur_.ptr()), kind + " data values");
    const std::string id_what = "a " + kind + " id", value_what = "a " + kind + " data value";
    for (std::size_t i = 0; i < n; ++i) {
      skip();
      const char* at = cur_.ptr();
      const std::int64_t id = label(id_what);
      const std::int64_t row = ids.find(id);
      if (row < 0) cur_.fail_at(kind + " data: " + kind + " id " + std::to_string(id) + " is not defined", at);
      for (std::size_t c = 0; c < ncomp; ++c) {
        double* dst = out[c].second.data<double>() + static_cast<std::size_t>(row) * sizes[c];
        for (std::size_t k = 0; k < sizes[c]; ++k) {
          skip();
          dst[k] = cur_.number<double>(value_what);
        }
      }
    }
    return out;
  }

  // One array over all cells, as one array per block.
  std::vector<NDArray> split(const NDArray& a) const {
    std::vector<NDArray> out;
    const std::size_t width = a.ndim() == 2 ? a.dim(1) : 1;
    std::size_t first = 0;
    for (std::size_t n : sizes_) {
      NDArray b = a.ndim() == 2 ? NDArray::uninit(DType::float64, {n, width}) : NDArray::uninit(DType::float64, {n});
      std::copy_n(a.data<double>() + first * width, n * width, b.data<double>());
      out.push_back(std::move(b));
      first += n;
    }
    return out;
  }

  io::FileBytes file_;
  io::Cursor cur_;
  std::vector<std::size_t> sizes_;  // cells per block
};

}  // namespace

Mesh read_avsucd(const std::string& path, const Options& options) {
  OptionReader opts(options, "avsucd");
  opts.finish();
  return Reader(path).read();
}

}  // namespace meshioplusplus::avsucd
