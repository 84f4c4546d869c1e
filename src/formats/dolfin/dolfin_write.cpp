// meshio++ DOLFIN XML writer.
// Spec: https://people.sc.fsu.edu/~jburkardt/data/dolfin_xml/dolfin_xml.html
//
// As meshio: the mesh holds one cell type, tetrahedra when the mesh has any, else
// triangles (and, beyond meshio, intervals from "line" blocks when it has neither); the
// blocks of other types are skipped with a warning. Points keep their 2 or 3 columns
// (dim), numbers in the shortest form that reads back to the same value. Each cell data
// array of one value per cell goes to the companion file "<stem>_<name>.xml" as a
// <mesh_function> of type int, uint or float (meshio's names; our reader also takes
// DOLFIN's "double"), dim the cells' topological dimension (meshio writes 2 or 3 after the
// points), size the cell count; its values are those of the blocks written, in order
// (meshio writes one file per block under the same name, so the last block wins). Data
// with more than one value per cell, or a name that cannot be a file name the reader
// finds again (empty, or holding '.' or '/'), is skipped with a warning. Every file goes
// through its own AtomicFile; all are written before the first is committed, the mesh
// file last.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/io/file.hpp"
#include "core/io/parallel_text.hpp"
#include "core/io/text_writer.hpp"
#include "formats/dolfin/dolfin_internal.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::dolfin {

namespace {

constexpr std::string_view kHeader = "<?xml version=\"1.0\"?>\n<dolfin xmlns:dolfin=\"http://fenicsproject.org\">\n";

const CellKind* kind_to_write(const Mesh& mesh) {
  for (const char* want : {"tetra", "triangle", "line"})
    for (const CellBlock& b : mesh.cells)
      if (b.type == want)
        for (const CellKind& k : kCellKinds)
          if (want == std::string_view(k.meshio)) return &k;
  return nullptr;
}

// The vertex and cell rows are formatted on `threads` threads (core/io/parallel_text.hpp;
// the bytes never depend on it).
void write_mesh_file(io::AtomicFile& file, const Mesh& mesh, const CellKind& kind, std::size_t ncells, unsigned threads) {
  io::TextWriter w(file);
  const io::FloatFormat shortest;
  const std::size_t dim = mesh.points.dim(1);
  const bool f32 = mesh.points.dtype() == DType::float32;
  const NDArray points = mesh.points.as_dtype(DType::float64);
  const double* p = points.data<double>();
  w.str(kHeader).str("  <mesh celltype=\"").str(kind.dolfin).str("\" dim=\"").integer(dim).str("\">\n");
  w.str("    <vertices size=\"").integer(mesh.num_points()).str("\">\n");
  static constexpr const char* kAxes[] = {"\" x=\"", "\" y=\"", "\" z=\""};
  io::write_rows(w, mesh.num_points(), threads, [&](io::TextWriter& t, std::size_t r0, std::size_t r1) {
    for (std::size_t i = r0; i < r1; ++i) {
      t.str("      <vertex index=\"").integer(i);
      for (std::size_t k = 0; k < dim; ++k) {
        t.str(kAxes[k]);
        if (f32) t.real(static_cast<float>(p[dim * i + k]), shortest);
        else t.real(p[dim * i + k], shortest);
      }
      t.str("\" />\n");
    }
  });
  w.str("    </vertices>\n    <cells size=\"").integer(ncells).str("\">\n");
  static constexpr const char* kNodes[] = {"\" v0=\"", "\" v1=\"", "\" v2=\"", "\" v3=\""};
  std::size_t index = 0;
  for (const CellBlock& b : mesh.cells) {
    if (b.type != kind.meshio) continue;
    const NDArray conn = b.connectivity.as_dtype(DType::int64);
    const std::int64_t* c = conn.data<std::int64_t>();
    io::write_rows(w, b.size(), threads, [&](io::TextWriter& t, std::size_t r0, std::size_t r1) {
      for (std::size_t i = r0; i < r1; ++i) {
        t.str("      <").str(kind.dolfin).str(" index=\"").integer(index + i);
        for (int k = 0; k < kind.nodes; ++k) t.str(kNodes[k]).integer(c[kind.nodes * i + k]);
        t.str("\" />\n");
      }
    });
    index += b.size();
  }
  w.str("    </cells>\n  </mesh>\n</dolfin>\n");
  w.flush();
}

void write_mesh_function(io::AtomicFile& file, const std::vector<const NDArray*>& arrays, const CellKind& kind,
                         std::size_t ncells) {
  const DType dt = arrays.front()->dtype();
  const char* type = dtype_is_float(dt) ? "float" : dtype_is_signed_int(dt) ? "int" : "uint";
  io::TextWriter w(file);
  const io::FloatFormat shortest;
  w.str(kHeader).str("  <mesh_function type=\"").str(type).str("\" dim=\"").integer(kind.dim);
  w.str("\" size=\"").integer(ncells).str("\">\n");
  std::size_t index = 0;
  for (const NDArray* a : arrays) {
    visit_dtype(a->dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* v = a->data<T>();
      for (std::size_t i = 0; i < a->dim(0); ++i, ++index) {
        w.str("    <entity index=\"").integer(index).str("\" value=\"");
        if constexpr (std::is_floating_point_v<T>) w.real(v[i], shortest);
        else w.integer(v[i]);
        w.str("\" />\n");
      }
    });
  }
  w.str("  </mesh_function>\n</dolfin>\n");
  w.flush();
}

}  // namespace

void write_dolfin(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "dolfin-xml");
  const unsigned threads = std::max(1u, opts.threads());
  opts.finish();
  if (mesh.points.ndim() != 2 || (mesh.points.dim(1) != 2 && mesh.points.dim(1) != 3))
    throw write_error("dolfin-xml", path, "points must be (n, 2) or (n, 3)");
  const CellKind* kind = kind_to_write(mesh);
  if (!kind) throw write_error("dolfin-xml", path, "DOLFIN XML holds tetra, triangle or line cells; the mesh has none");
  std::size_t ncells = 0;
  std::string skipped;
  std::vector<std::size_t> kept;
  for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
    const CellBlock& block = mesh.cells[b];
    if (block.type == kind->meshio) {
      ncells += block.size(), kept.push_back(b);
    } else if (skipped.find("'" + block.type + "'") == std::string::npos) {
      skipped += (skipped.empty() ? "'" : ", '") + block.type + "'";
    }
  }
  if (!skipped.empty())
    warn("DOLFIN XML holds one cell type: wrote '" + std::string(kind->meshio) + "', skipped " + skipped);

  // Cell data that can go to a companion file.
  std::vector<std::pair<std::string, std::vector<const NDArray*>>> functions;
  for (const auto& [name, arrays] : mesh.cell_data) {
    if (name.empty() || name.find_first_of("./") != std::string::npos) {
      warn("cell data '" + name + "' skipped: its name cannot be a companion file name (no '.' or '/')");
      continue;
    }
    std::vector<const NDArray*> parts;
    bool scalar = true;
    for (std::size_t b : kept) {
      const NDArray& a = arrays.at(b);
      scalar = scalar && (a.ndim() == 1 || (a.ndim() == 2 && a.dim(1) == 1)) && a.dtype() == arrays.at(kept[0]).dtype();
      parts.push_back(&a);
    }
    if (!scalar) {
      warn("cell data '" + name + "' skipped: a mesh function holds one value per cell, of one type");
      continue;
    }
    if (!parts.empty()) functions.emplace_back(name, std::move(parts));
  }

  io::AtomicFile file(path, "dolfin-xml");
  write_mesh_file(file, mesh, *kind, ncells, threads);
  std::vector<std::unique_ptr<io::AtomicFile>> companions;
  for (const auto& [name, parts] : functions) {
    companions.push_back(std::make_unique<io::AtomicFile>(companion_path(path, name), "dolfin-xml"));
    write_mesh_function(*companions.back(), parts, *kind, ncells);
  }
  // The companions first: a failure there leaves the mesh file as it was.
  for (auto& c : companions) c->commit();
  file.commit();
}

}  // namespace meshioplusplus::dolfin
