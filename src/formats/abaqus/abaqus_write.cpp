// meshio++ Abaqus writer: nodes, elements, and regions as *NSET / *ELSET / *SURFACE.
// Spec: Abaqus Keywords Reference Guide, restated in the CalculiX User's Manual
// (http://www.dhondt.de/ccx_2.20.pdf, section 7).
//
// Options, as meshio's writer: float_fmt (node coordinates; default "": the shortest string
// that reads back to the same value, cut to 20 characters when it is longer, because
// CalculiX rejects longer numbers; meshio's default ".16e" can be asked for explicitly),
// translate_cell_names=true (Abaqus element names, else meshio's type names), threads (node
// and element lines are formatted in parallel chunks, core/io/parallel_text.hpp; the bytes
// never depend on it).
// Element names are ones both meshio and CalculiX know (abaqus_types.cpp). Element data
// lines carry at most 16 entries (C3D20 continues on a second line, as Abaqus requires).
// Point regions become *NSET, cell regions *ELSET, side regions *SURFACE, TYPE=ELEMENT with
// element-face pairs; empty regions are not written (solvers reject empty sets). Point, cell
// and field data are not written (meshio neither).
#include <algorithm>
#include <string>
#include <vector>

#include "core/io/file.hpp"
#include "core/io/parallel_text.hpp"
#include "core/io/text_writer.hpp"
#include "formats/abaqus/abaqus_internal.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::abaqus {

namespace {

constexpr std::size_t kPerLine = 16;  // Abaqus: at most 16 entries on a data line

// Set and surface names go out as written when they are plain words, else quoted.
std::string name_param(const std::string& path, const std::string& name) {
  if (name.empty() || name.find('"') != std::string::npos || name.find('\n') != std::string::npos)
    throw WriteError(error_message("abaqus", path, {}, "region name '" + name + "' cannot be written as an Abaqus set name"));
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
      return "\"" + name + "\"";
  return name;
}

// Labels (entries + 1), kPerLine to a line, each line but the last ending with a comma;
// the lines formatted on `threads` threads.
void write_labels(io::TextWriter& w, const std::int64_t* v, std::size_t n, unsigned threads) {
  io::write_rows(w, (n + kPerLine - 1) / kPerLine, threads, [&](io::TextWriter& t, std::size_t l0, std::size_t l1) {
    for (std::size_t i = l0 * kPerLine, e = std::min(n, l1 * kPerLine); i < e; ++i) {
      t.integer(v[i] + 1);
      t.str(i + 1 == n ? "\n" : (i + 1) % kPerLine == 0 ? ",\n" : ",");
    }
  });
}

}  // namespace

void write_abaqus(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "abaqus");
  io::FloatFormat ff;
  try {
    ff = io::FloatFormat::parse(opts.get_string("float_fmt", ""));
  } catch (const std::invalid_argument& e) {
    throw WriteError(error_message("abaqus", path, {}, e.what()));
  }
  ff.max_width = 20;
  const bool translate = opts.get_bool("translate_cell_names", true);
  const unsigned threads = std::max(1u, opts.threads());
  opts.finish();

  const int dim = static_cast<int>(mesh.points.dim(1));
  std::vector<std::string> names;
  for (const CellBlock& b : mesh.cells) {
    if (b.ragged) throw WriteError(error_message("abaqus", path, {}, "cannot write ragged " + b.type + " cells: Abaqus has no such element"));
    std::string name = translate ? std::string(abaqus_type(b.type, dim)) : b.type;
    if (name.empty())
      throw WriteError(error_message("abaqus", path, {}, "cell type '" + b.type + "' has no Abaqus element name (write it with translate_cell_names=False, or drop it)"));
    names.push_back(std::move(name));
  }
  // Side regions: the Abaqus face label of every (cell, facet) pair, checked before writing.
  const std::vector<std::int64_t> bases = block_bases(mesh.cells);
  auto block_of = [&](std::int64_t cell) {
    return static_cast<std::size_t>(std::upper_bound(bases.begin(), bases.end(), cell) - bases.begin() - 1);
  };
  std::vector<std::vector<std::string>> faces(mesh.regions.size());
  for (std::size_t r = 0; r < mesh.regions.size(); ++r) {
    const Region& reg = mesh.regions[r];
    if (reg.kind != RegionKind::side) continue;
    const NDArray e = reg.entries.as_dtype(DType::int64);
    const std::int64_t* v = e.data<std::int64_t>();
    for (std::size_t i = 0; i < e.dim(0); ++i) {
      const std::string& type = mesh.cells[block_of(v[2 * i])].type;
      std::string label = face_label_of_facet(type, static_cast<int>(v[2 * i + 1]));
      if (label.empty())
        throw WriteError(error_message("abaqus", path, {}, "side region '" + reg.name + "': facet " + std::to_string(v[2 * i + 1]) + " of a " + type +
                                                               " cell has no Abaqus face label"));
      faces[r].push_back(std::move(label));
    }
  }

  io::AtomicFile file(path, "abaqus");
  io::TextWriter w(file);
  w.str("*HEADING\nAbaqus DataFile Version 6.14\nwritten by meshio++\n*NODE\n");
  const NDArray pts = mesh.points.as_dtype(DType::float64);
  const double* x = pts.data<double>();
  io::write_rows(w, pts.dim(0), threads, [&](io::TextWriter& t, std::size_t r0, std::size_t r1) {
    for (std::size_t i = r0; i < r1; ++i) {
      t.integer(i + 1);
      for (int d = 0; d < dim; ++d) t.str(", ").real(x[i * static_cast<std::size_t>(dim) + static_cast<std::size_t>(d)], ff);
      t.ch('\n');
    }
  });
  std::int64_t eid = 0;
  for (std::size_t bi = 0; bi < mesh.cells.size(); ++bi) {
    const CellBlock& b = mesh.cells[bi];
    w.str("*ELEMENT, TYPE=").str(names[bi]).ch('\n');
    const NDArray conn = b.connectivity.as_dtype(DType::int64);
    const std::int64_t* c = conn.data<std::int64_t>();
    const std::size_t m = conn.dim(0), k = conn.dim(1);
    // Abaqus position p holds our node inv[p] (the inverse of the read permutation).
    std::vector<std::size_t> inv(k);
    for (std::size_t j = 0; j < k; ++j) inv[j] = j;
    if (const int* perm = translate ? node_permutation(b.type) : nullptr)
      for (std::size_t j = 0; j < k; ++j) inv[static_cast<std::size_t>(perm[j])] = j;
    io::write_rows(w, m, threads, [&](io::TextWriter& t, std::size_t r0, std::size_t r1) {
      for (std::size_t i = r0; i < r1; ++i) {
        t.integer(eid + static_cast<std::int64_t>(i) + 1);
        for (std::size_t j = 0; j < k; ++j) {
          t.ch(',');
          if ((j + 1) % kPerLine == 0) t.ch('\n');
          t.integer(c[i * k + inv[j]] + 1);
        }
        t.ch('\n');
      }
    });
    eid += static_cast<std::int64_t>(m);
  }
  for (std::size_t r = 0; r < mesh.regions.size(); ++r) {
    const Region& reg = mesh.regions[r];
    const NDArray e = reg.entries.as_dtype(DType::int64);
    if (e.dim(0) == 0) continue;
    const std::string name = name_param(path, reg.name);
    if (reg.kind == RegionKind::point) {
      w.str("*NSET, NSET=").str(name).ch('\n');
      write_labels(w, e.data<std::int64_t>(), e.dim(0), threads);
    } else if (reg.kind == RegionKind::cell) {
      w.str("*ELSET, ELSET=").str(name).ch('\n');
      write_labels(w, e.data<std::int64_t>(), e.dim(0), threads);
    } else {
      w.str("*SURFACE, NAME=").str(name).str(", TYPE=ELEMENT\n");
      const std::int64_t* v = e.data<std::int64_t>();
      for (std::size_t i = 0; i < e.dim(0); ++i) w.integer(v[2 * i] + 1).str(", ").str(faces[r][i]).ch('\n');
    }
  }
  w.flush();
  file.commit();
}

}  // namespace meshioplusplus::abaqus
