// meshio++ Neuroglancer precomputed mesh: the registration value, the reader and the writer
// (the format is one small binary layout). User documentation: docs/formats/neuroglancer.md.
// Spec: https://github.com/google/neuroglancer/blob/master/src/datasource/precomputed/meshes.md
//
// Little endian throughout: uint32 vertex count n, n x 3 float32 positions, then uint32
// vertex indices, three per triangle, to the end of the file. Read: points float32 (n, 3)
// as meshio; one "triangle" block (int64); a tail that is not whole triangles, or an
// index >= n, is a ReadError (meshio checks only index > n). Write: float32 positions
// (2-D points get z = 0), the "triangle" blocks in order; any other block is skipped with a
// warning, as meshio does; an index above 2^32 - 1 is a WriteError.
#include "formats/neuroglancer/neuroglancer.hpp"

#include <cstring>
#include <limits>
#include <type_traits>
#include <string>
#include <vector>

#include "core/io/array_writer.hpp"
#include "core/io/byteorder.hpp"
#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "core/io/section_reader.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus {

namespace {

Mesh read_neuroglancer(const std::string& path, const Options& options) {
  OptionReader opts(options, "neuroglancer");
  opts.finish();
  // Both arrays are read with pread (io::read_chunks), not through the mapping: see
  // core/io/section_reader.hpp.
  io::FileBytes file(path, "neuroglancer", /*populate=*/false);
  io::Cursor cur(file.text(), "neuroglancer", path);
  cur.set_little_endian(true);
  const std::uint32_t n = cur.load<std::uint32_t>("the vertex count");
  cur.need(n, 12, "vertices");  // 12 bytes each, before anything is allocated
  Mesh m;
  m.points = NDArray::uninit(DType::float32, {n, 3});
  const std::size_t points_at = cur.offset();
  cur.take(std::size_t{12} * n, "vertex positions");
  io::read_values(file, points_at, std::size_t{3} * n, 4, !io::host_is_little_endian(), opts.threads(), m.points.raw());
  if (cur.left() % 12 != 0)
    cur.fail("the triangle indices take " + std::to_string(cur.left()) + " bytes, not a multiple of 12 (3 uint32 per triangle)");
  const std::size_t ntri = cur.left() / 12, tri_at = cur.offset();
  NDArray tri = NDArray::uninit(DType::int64, {ntri, 3});
  std::int64_t* out = tri.data<std::int64_t>();
  const char* src = cur.take(ntri * 12, "triangle indices");
  if (ntri > 0 && io::read_indices<std::uint32_t>(file, tri_at, 3 * ntri, !io::host_is_little_endian(), 0, opts.threads(), out) >= n)
    for (std::size_t i = 0; i < 3 * ntri; ++i)
      if (static_cast<std::uint64_t>(out[i]) >= n)
        cur.fail_at("triangle " + std::to_string(i / 3) + ": vertex index " + std::to_string(out[i]) + " is outside [0, " + std::to_string(n) + ")",
                    src + 4 * i);
  m.cells.push_back(CellBlock::rectangular("triangle", std::move(tri)));
  return m;
}

void write_neuroglancer(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "neuroglancer");
  opts.finish();
  const std::size_t dim = mesh.points.dim(1);
  if (mesh.points.ndim() != 2 || (dim != 2 && dim != 3)) throw write_error("neuroglancer", path, "points must be (n, 2) or (n, 3)");
  if (mesh.num_points() > std::numeric_limits<std::uint32_t>::max())
    throw write_error("neuroglancer", path, std::to_string(mesh.num_points()) + " points: the vertex count is a uint32");
  std::string skipped;
  for (const CellBlock& b : mesh.cells)
    if (b.type != "triangle" && skipped.find("'" + b.type + "'") == std::string::npos) skipped += (skipped.empty() ? "'" : ", '") + b.type + "'";
  if (!skipped.empty()) warn("Neuroglancer holds triangles only: skipped " + skipped);

  // The indices checked and narrowed (one pass) before the file is touched.
  std::vector<NDArray> triangles;
  for (const CellBlock& b : mesh.cells) {
    if (b.type != "triangle") continue;
    NDArray narrow = NDArray::uninit(DType::uint32, {b.size(), 3});
    std::uint32_t* out = narrow.data<std::uint32_t>();
    visit_dtype(b.connectivity.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_integral_v<T>) {
        const T* c = b.connectivity.data<T>();
        for (std::size_t i = 0; i < 3 * b.size(); ++i) {
          if (c[i] < 0 || static_cast<std::uint64_t>(c[i]) > std::numeric_limits<std::uint32_t>::max())
            throw write_error("neuroglancer", path, "vertex index " + std::to_string(c[i]) + " does not fit a uint32");
          out[i] = static_cast<std::uint32_t>(c[i]);
        }
      } else {
        throw write_error("neuroglancer", path, "triangle connectivity must be integers");
      }
    });
    triangles.push_back(std::move(narrow));
  }
  NDArray xyz = mesh.points.as_dtype(DType::float32);
  if (dim == 2) {
    NDArray padded = NDArray::uninit(DType::float32, {mesh.num_points(), 3});
    for (std::size_t i = 0; i < mesh.num_points(); ++i)
      for (std::size_t k = 0; k < 3; ++k) padded.data<float>()[3 * i + k] = k < 2 ? xyz.data<float>()[2 * i + k] : 0.0f;
    xyz = std::move(padded);
  }

  io::AtomicFile file(path, "neuroglancer");
  io::TextWriter w(file);
  io::write_binary(w, NDArray::from_vector<std::uint32_t>({static_cast<std::uint32_t>(mesh.num_points())}, {1}), true);
  io::write_binary(w, xyz, true);
  for (const NDArray& t : triangles) io::write_binary(w, t, true);
  w.flush();
  file.commit();
}

}  // namespace

Format neuroglancer_format() { return Format{"neuroglancer", {}, &read_neuroglancer, &write_neuroglancer}; }

}  // namespace meshioplusplus
