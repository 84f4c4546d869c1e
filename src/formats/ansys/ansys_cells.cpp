// meshio++ ANSYS Fluent reader, second half: volume cells rebuilt from the faces.
// Spec: https://romeo.univ-reims.fr/documents/fluent/tgrid/ug/appb.pdf (section 13: each
// face lists its nodes and the cells c0, c1 on either side, c1 = 0 on the boundary).
//
// Orientation: a face's nodes run so that its right-hand normal points into c0 (in 2-D,
// c0 lies left of n0 -> n1), the convention VTK's vtkFLUENTReader rebuilds cells with.
// Seen from a cell, a face it is c0 of is "inward" as listed, one it is c1 of reversed.
//
// Shapes, by the cell's faces (the type a cell section declares is not trusted: a hanging
// node makes a declared hexahedron a 7-faced cell):
//   2-D: its edges chained into a loop, counter-clockwise: 3 -> triangle, 4 -> quad, more ->
//        polygon
//   3-D: 4 triangles -> tetra; 1 quad + 4 triangles -> pyramid; 2 triangles + 3 quads ->
//        wedge; 6 quads -> hexahedron, in VTK's node order (meshio's for the wedge): the
//        base face inward, then the apex or, node by node, the node across the side edge;
//        anything else (or a set of faces that does not close into that shape) -> a
//        polyhedron listing its faces, outward.
// Blocks: per cell zone (in the order of their first cells), one block per shape in order
// of first appearance; cell order inside a block is the file's. Regions: a cell region per
// cell zone and a side region per boundary face zone (bc type other than 2, interior),
// named by the zone sections (39 / 45), else "zone_<id>"; side entries are (cell, local
// facet) pairs, facets numbered as cell_facets() numbers them. The core numbers no facets
// of polygons and polyhedra: their boundary faces are left out, with a warning.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
#include <map>

#include "core/parallel.hpp"
#include "core/uncached_scope.hpp"
#include "formats/ansys/ansys_internal.hpp"
#include "meshioplusplus/cell_types.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::ansys {

namespace {

enum Kind : std::uint8_t { kTriangle, kQuad, kTetra, kPyramid, kWedge, kHexahedron, kPolygon, kPolyhedron, kNone };
constexpr std::string_view kKindType[] = {"triangle", "quad", "tetra", "pyramid", "wedge", "hexahedron", "polygon", "polyhedron"};
constexpr int kKindNodes[] = {3, 4, 4, 5, 6, 8, -1, -1};

struct Builder {
  Builder(Topology& topology, const std::string& file) : t(topology), path(file) {}

  Topology& t;
  const std::string& path;
  ScratchVector<std::int64_t> start;  // cell -> its faces in `items` (CSR)
  UninitVector<std::int64_t> items;  // face * 2 + (1 when the cell is its c1)
  ScratchVector<std::uint8_t> kind;
  // k when every face has k nodes (a tetrahedral mesh's triangles): a face's nodes are then
  // found without loading its offsets, one cache miss fewer per face of a cell; else 0.
  std::size_t uniform = 0;

  [[noreturn]] void fail(const std::string& what) const { throw ReadError(error_message("ansys", path, {}, what)); }

  std::size_t face_size(std::int64_t item) const {
    if (uniform) return uniform;
    const auto f = static_cast<std::size_t>(item >> 1);
    return static_cast<std::size_t>(t.faces.offsets[f + 1] - t.faces.offsets[f]);
  }
  // The face's nodes as seen from the cell: inward (right-hand normal into the cell).
  template <class Out> void inward(std::int64_t item, Out* out) const {
    const auto f = static_cast<std::size_t>(item >> 1);
    const std::size_t k = face_size(item);
    const std::int64_t* b = t.faces.nodes.data() + (uniform ? f * uniform : static_cast<std::size_t>(t.faces.offsets[f]));
    for (std::size_t j = 0; j < k; ++j) out[j] = (item & 1) ? b[k - 1 - j] : b[j];
  }

  void index_faces() {
    Faces& f = t.faces;
    const std::size_t nc = t.num_cells, nf = f.c0.size();
    start.assign(nc + 1, 0);
    const std::size_t k0 = nf ? static_cast<std::size_t>(f.offsets[1] - f.offsets[0]) : 0;
    bool same = nf > 0;
    for (std::size_t i = 0; i < nf && same; ++i) same = static_cast<std::size_t>(f.offsets[i + 1] - f.offsets[i]) == k0;
    uniform = same ? k0 : 0;
    if (uniform) {  // a face's nodes are found without offsets: they go before `items` comes
      const UncachedScope dropped;
      decltype(f.offsets)().swap(f.offsets);
    }
    for (std::size_t i = 0; i < nf; ++i) {
      for (std::int64_t c : {f.c0[i], f.c1[i]})
        if (c < -1 || c >= static_cast<std::int64_t>(nc)) fail("face " + std::to_string(i + 1) + ": cell " + std::to_string(c + 1) + " is outside 0.." + std::to_string(nc));
      if (f.c0[i] >= 0) ++start[static_cast<std::size_t>(f.c0[i]) + 1];
      if (f.c1[i] >= 0 && f.c1[i] != f.c0[i]) ++start[static_cast<std::size_t>(f.c1[i]) + 1];
    }
    for (std::size_t c = 0; c < nc; ++c) start[c + 1] += start[c];
    items.resize(static_cast<std::size_t>(start[nc]));
    const UncachedScope dropped;  // `at` below: nothing later reuses its size
    ScratchVector<std::int64_t> at(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < nf; ++i) {
      if (f.c0[i] >= 0) items[static_cast<std::size_t>(at[static_cast<std::size_t>(f.c0[i])]++)] = static_cast<std::int64_t>(i) * 2;
      if (f.c1[i] >= 0 && f.c1[i] != f.c0[i]) items[static_cast<std::size_t>(at[static_cast<std::size_t>(f.c1[i])]++)] = static_cast<std::int64_t>(i) * 2 + 1;
    }
  }

  // 2-D: the cell's edges chained into a loop; false when they do not close.
  bool loop(std::size_t c, std::vector<std::int64_t>& out) const {
    const auto b = static_cast<std::size_t>(start[c]), e = static_cast<std::size_t>(start[c + 1]);
    std::vector<std::array<std::int64_t, 2>> edges;
    for (std::size_t i = b; i < e; ++i) {
      if (face_size(items[i]) != 2) return false;
      std::int64_t n[2];
      inward(items[i], n);
      edges.push_back({n[0], n[1]});
    }
    std::sort(edges.begin() + 1, edges.end());
    out.clear();
    out.push_back(edges[0][0]);
    std::int64_t cur = edges[0][1];
    std::vector<char> used(edges.size(), 0);
    for (std::size_t k = 1; k < edges.size(); ++k) {
      auto it = std::lower_bound(edges.begin() + 1, edges.end(), std::array<std::int64_t, 2>{cur, std::numeric_limits<std::int64_t>::min()});
      while (it != edges.end() && (*it)[0] == cur && used[static_cast<std::size_t>(it - edges.begin())]) ++it;
      if (it == edges.end() || (*it)[0] != cur) return false;
      used[static_cast<std::size_t>(it - edges.begin())] = 1;
      out.push_back(cur);
      cur = (*it)[1];
    }
    return cur == edges[0][0];
  }

  // 3-D fixed shapes; false when the faces do not make the shape.
  bool shape(std::size_t c, Kind k, std::int64_t* out) const {
    const auto b = static_cast<std::size_t>(start[c]), e = static_cast<std::size_t>(start[c + 1]);
    const std::size_t base_size = (k == kTetra || k == kWedge) ? 3 : 4;
    std::size_t base = b;
    while (base < e && face_size(items[base]) != base_size) ++base;
    inward(items[base], out);
    auto in_base = [&](std::int64_t v) { return std::find(out, out + base_size, v) != out + base_size; };
    const int total = kKindNodes[k];
    if (k == kTetra || k == kPyramid) {
      out[base_size] = -1;
      for (std::size_t i = b; i < e && out[base_size] < 0; ++i) {
        if (i == base) continue;
        std::int64_t n[4];
        inward(items[i], n);
        for (std::size_t j = 0; j < face_size(items[i]); ++j)
          if (!in_base(n[j])) out[base_size] = n[j];
      }
      if (out[base_size] < 0) return false;
    } else {
      std::int64_t* up = out + base_size;
      std::fill(up, up + base_size, -1);
      for (std::size_t i = b; i < e; ++i) {
        if (i == base) continue;
        std::int64_t n[4];
        const std::size_t m = face_size(items[i]);
        inward(items[i], n);
        for (std::size_t j = 0; j < m; ++j) {
          const std::int64_t p = n[j], q = n[(j + 1) % m];
          for (auto [from, to] : {std::pair{p, q}, std::pair{q, p}}) {
            if (!in_base(from) || in_base(to)) continue;
            std::int64_t& slot = up[std::find(out, out + base_size, from) - out];
            if (slot >= 0 && slot != to) return false;
            slot = to;
          }
        }
      }
      for (std::size_t j = 0; j < base_size; ++j)
        if (up[j] < 0 || std::find(up, up + j, up[j]) != up + j) return false;
    }
    for (int j = 0; j < total; ++j)
      if (std::find(out, out + j, out[j]) != out + j) return false;
    // Every face's nodes are the cell's.
    for (std::size_t i = b; i < e; ++i) {
      std::int64_t n[4];
      inward(items[i], n);
      for (std::size_t j = 0; j < face_size(items[i]); ++j)
        if (std::find(out, out + total, n[j]) == out + total) return false;
    }
    return true;
  }

  // The shape a cell's faces suggest, by their count and sizes alone (a fixed shape is
  // confirmed, and its nodes found, by nodes_of()).
  Kind candidate(std::size_t c) const {
    const auto b = static_cast<std::size_t>(start[c]), e = static_cast<std::size_t>(start[c + 1]);
    const std::size_t n = e - b;
    if (n == 0) return kNone;
    if (t.dim == 2) {
      if (n < 3) fail("cell " + std::to_string(c + 1) + " has only " + std::to_string(n) + " faces: expected a closed cell");
      return n == 3 ? kTriangle : n == 4 ? kQuad : kPolygon;
    }
    std::size_t tri = 0, quad = 0;
    for (std::size_t i = b; i < e; ++i) {
      const std::size_t k = face_size(items[i]);
      if (k < 3) fail("cell " + std::to_string(c + 1) + " of a 3-D mesh has a face of " + std::to_string(k) + " nodes");
      tri += k == 3;
      quad += k == 4;
    }
    if (n == 4 && tri == 4) return kTetra;
    if (n == 5 && quad == 1 && tri == 4) return kPyramid;
    if (n == 5 && tri == 2 && quad == 3) return kWedge;
    if (n == 6 && quad == 6) return kHexahedron;
    if (n < 4) fail("cell " + std::to_string(c + 1) + " has only " + std::to_string(n) + " faces: expected a closed cell");
    return kPolyhedron;
  }

  // The nodes of cell `c` of fixed candidate shape `k` into `out`; false when its faces do
  // not make that shape after all (a 3-D cell is then a polyhedron; a 2-D one an error).
  bool nodes_of(std::size_t c, Kind k, std::int64_t* out) const {
    if (t.dim == 2) {
      std::vector<std::int64_t> l;
      if (!loop(c, l))
        fail("cell " + std::to_string(c + 1) + ": its " + std::to_string(start[c + 1] - start[c]) + " faces do not form a closed loop of edges");
      std::copy(l.begin(), l.end(), out);
      return true;
    }
    return shape(c, k, out);
  }

  // A block: the cells of one zone and one shape.
  struct Block {
    std::int32_t zone;
    Kind kind;
    std::size_t first, count = 0;
  };
  ScratchVector<std::int32_t> block_of;   // cell -> its block, -1 for a cell without faces
  ScratchVector<std::int64_t> out_index;  // cell -> its index in the mesh's cells, -1 likewise
  std::vector<std::int64_t> base;         // block -> the mesh index of its first cell
  std::vector<std::int64_t*> rows;        // block -> its connectivity (fixed shapes)

  // Where cell `c` (of a fixed shape) writes its nodes: its row of its block.
  std::int64_t* cell_nodes(std::size_t c) const {
    const auto bi = static_cast<std::size_t>(block_of[c]);
    return rows[bi] + static_cast<std::size_t>(out_index[c] - base[bi]) * static_cast<std::size_t>(kKindNodes[kind[c]]);
  }

  // The blocks of the cells' current kinds (per zone in order of its first cell, per shape
  // in order of first appearance), `order` the order they go into the mesh (by zone), and
  // every cell's block and mesh index.
  void layout(std::vector<Block>& blocks, std::vector<std::size_t>& order) {
    const std::size_t nc = t.num_cells;
    blocks.clear();
    block_of.assign(nc, -1);
    std::vector<std::size_t> zone_rank(t.zones.size() + 1, SIZE_MAX);
    std::size_t ranks = 0;
    for (std::size_t c = 0; c < nc; ++c) {
      if (kind[c] == kNone) continue;
      const std::int32_t z = t.cell_zone[c];
      auto& rank = zone_rank[z < 0 ? t.zones.size() : static_cast<std::size_t>(z)];
      if (rank == SIZE_MAX) rank = ranks++;
      std::size_t bi = 0;
      while (bi < blocks.size() && !(blocks[bi].zone == z && blocks[bi].kind == kind[c])) ++bi;
      if (bi == blocks.size()) blocks.push_back(Block{z, static_cast<Kind>(kind[c]), c});
      ++blocks[bi].count;
      block_of[c] = static_cast<std::int32_t>(bi);
    }
    order.resize(blocks.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    auto rank_of = [&](const Block& b) { return zone_rank[b.zone < 0 ? t.zones.size() : static_cast<std::size_t>(b.zone)]; };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rank_of(blocks[a]) < rank_of(blocks[b]); });
    base.assign(blocks.size(), 0);
    std::int64_t total = 0;
    for (std::size_t i : order) {
      base[i] = total;
      total += static_cast<std::int64_t>(blocks[i].count);
    }
    out_index.assign(nc, -1);
    std::vector<std::size_t> filled(blocks.size(), 0);
    for (std::size_t c = 0; c < nc; ++c)
      if (block_of[c] >= 0) {
        const auto bi = static_cast<std::size_t>(block_of[c]);
        out_index[c] = base[bi] + static_cast<std::int64_t>(filled[bi]++);
      }
  }

  // A face of a boundary zone (not interior): what the side regions need of it once the
  // faces' cell and zone columns are given back.
  struct BoundaryFace {
    std::int64_t face, c0, c1;
    std::int32_t zone;
  };
  std::vector<BoundaryFace> boundary_faces;

  // After index_faces(): the boundary faces kept aside, then the faces' cell and zone
  // columns freed: the cells are built from `items` and the nodes alone.
  void keep_boundary_faces_only() {
    Faces& f = t.faces;
    std::vector<char> boundary(t.zones.size());  // per zone, asked once rather than per face
    for (std::size_t zi = 0; zi < t.zones.size(); ++zi) boundary[zi] = !(t.zones[zi].bc_type == 2 || t.zones[zi].type_word == "interior");
    for (std::size_t i = 0; i < f.c0.size(); ++i)
      if (boundary[static_cast<std::size_t>(f.zone[i])]) boundary_faces.push_back({static_cast<std::int64_t>(i), f.c0[i], f.c1[i], f.zone[i]});
    const UncachedScope dropped;  // back to the system: nothing later reuses these sizes
    decltype(f.c0)().swap(f.c0);
    decltype(f.c1)().swap(f.c1);
    decltype(f.zone)().swap(f.zone);
  }

  void run(Mesh& m) {
    index_faces();
    keep_boundary_faces_only();
    const std::size_t nc = t.num_cells;
    kind.assign(nc, kNone);
    const std::size_t chunk = 4096;
    parallel_for((nc + chunk - 1) / chunk, t.threads, [&](std::size_t k) {
      for (std::size_t c = k * chunk, e = std::min(nc, c + chunk); c < e; ++c) kind[c] = candidate(c);
    });
    std::size_t skipped = 0;
    for (std::size_t c = 0; c < nc; ++c) skipped += kind[c] == kNone;
    if (skipped) warn("ansys: " + std::to_string(skipped) + " cells have no faces (dead or parent cells); skipped");

    // Blocks: per zone in order of its first cell, per shape in order of first appearance.
    // A fixed-shape cell's nodes are written straight into its block's row; a cell whose
    // faces turn out not to make its candidate shape (a hanging node on a "hexahedron")
    // becomes a polyhedron, and the blocks are laid out again (rare: once per such file).
    std::vector<Block> blocks;
    std::vector<std::size_t> order;
    std::vector<CellBlock> made;
    for (;;) {
      layout(blocks, order);
      made.assign(blocks.size(), CellBlock{});
      for (std::size_t bi = 0; bi < blocks.size(); ++bi) {
        const Kind k = blocks[bi].kind;
        if (kKindNodes[k] > 0)
          made[bi] = CellBlock::rectangular(std::string(kKindType[k]), NDArray::uninit(DType::int64, {blocks[bi].count, static_cast<std::size_t>(kKindNodes[k])}));
      }
      rows.assign(blocks.size(), nullptr);
      for (std::size_t bi = 0; bi < blocks.size(); ++bi)
        if (kKindNodes[blocks[bi].kind] > 0) rows[bi] = made[bi].connectivity.data<std::int64_t>();
      std::atomic<bool> demoted{false};
      // A cell's faces lie anywhere in the file's face list: their nodes are cache misses,
      // which most of the time here waited on. The faces of the cell kAhead further on are
      // asked for ahead (their offsets where faces differ in size).
      constexpr std::size_t kAhead = 16;
      parallel_for((nc + chunk - 1) / chunk, t.threads, [&](std::size_t k) {
        for (std::size_t c = k * chunk, e = std::min(nc, c + chunk); c < e; ++c) {
          if (c + kAhead < e)
            for (auto i = static_cast<std::size_t>(start[c + kAhead]); i < static_cast<std::size_t>(start[c + kAhead + 1]); ++i) {
              const auto f = static_cast<std::size_t>(items[i] >> 1);
              if (uniform) __builtin_prefetch(t.faces.nodes.data() + f * uniform);
              else __builtin_prefetch(t.faces.offsets.data() + f);
            }
          if (kind[c] == kNone || kKindNodes[kind[c]] <= 0) continue;
          if (!nodes_of(c, static_cast<Kind>(kind[c]), cell_nodes(c))) {
            kind[c] = kPolyhedron;  // this cell's own slot: no other thread writes it
            demoted.store(true, std::memory_order_relaxed);
          }
        }
      });
      if (!demoted.load()) break;
    }

    std::vector<std::vector<std::int64_t>> poly_offsets(blocks.size()), poly_faces(blocks.size()), poly_nodes(blocks.size());
    for (std::size_t bi = 0; bi < blocks.size(); ++bi) {
      if (kKindNodes[blocks[bi].kind] > 0) continue;
      poly_offsets[bi].push_back(0);
      if (blocks[bi].kind == kPolyhedron) poly_faces[bi].push_back(0);
    }
    std::vector<std::int64_t> tmp;
    for (std::size_t c = 0; c < nc; ++c) {
      if (block_of[c] < 0) continue;
      const auto bi = static_cast<std::size_t>(block_of[c]);
      const Kind k = blocks[bi].kind;
      if (kKindNodes[k] > 0) {
        continue;  // written in place above
      } else if (k == kPolygon) {
        if (!loop(c, tmp)) fail("cell " + std::to_string(c + 1) + ": its faces do not form a closed loop of edges");
        poly_nodes[bi].insert(poly_nodes[bi].end(), tmp.begin(), tmp.end());
        poly_offsets[bi].push_back(static_cast<std::int64_t>(poly_nodes[bi].size()));
      } else {  // polyhedron: every face outward (the reverse of inward)
        for (auto i = static_cast<std::size_t>(start[c]); i < static_cast<std::size_t>(start[c + 1]); ++i) {
          tmp.resize(face_size(items[i]));
          inward(items[i], tmp.data());
          poly_nodes[bi].insert(poly_nodes[bi].end(), tmp.rbegin(), tmp.rend());
          poly_faces[bi].push_back(static_cast<std::int64_t>(poly_nodes[bi].size()));
        }
        poly_offsets[bi].push_back(static_cast<std::int64_t>(poly_faces[bi].size() - 1));
      }
    }
    for (std::size_t bi = 0; bi < blocks.size(); ++bi) {
      if (blocks[bi].kind == kPolygon) made[bi] = CellBlock::polygons(NDArray::from_vector(poly_offsets[bi]), NDArray::from_vector(poly_nodes[bi]));
      if (blocks[bi].kind == kPolyhedron)
        made[bi] = CellBlock::polyhedra(NDArray::from_vector(poly_offsets[bi]), NDArray::from_vector(poly_faces[bi]), NDArray::from_vector(poly_nodes[bi]));
    }
    for (std::size_t i : order) m.cells.push_back(std::move(made[i]));

    // Regions.
    auto zone_name = [&](const Zone& z) { return z.name.empty() ? "zone_" + std::to_string(z.id) : z.name; };
    const int dim = static_cast<int>(t.dim);
    for (std::size_t zi = 0; zi < t.zones.size(); ++zi) {
      const Zone& z = t.zones[zi];
      if (z.faces) continue;
      std::vector<std::int64_t> entries;
      for (std::size_t c = 0; c < nc; ++c)
        if (t.cell_zone[c] == static_cast<std::int32_t>(zi) && out_index[c] >= 0) entries.push_back(out_index[c]);
      if (entries.empty()) continue;
      Region r{zone_name(z), RegionKind::cell, dim, static_cast<int>(z.id), NDArray::from_vector(entries)};
      r.canonicalize();
      m.regions.push_back(std::move(r));
    }
    std::vector<std::vector<std::int64_t>> sides(t.zones.size());
    std::vector<std::size_t> unnumbered(t.zones.size(), 0);  // faces of polygons / polyhedra
    for (const BoundaryFace& bf : boundary_faces) {
      const auto zi = static_cast<std::size_t>(bf.zone);
      for (int side = 0; side < 2; ++side) {
        const std::int64_t c = side ? bf.c1 : bf.c0;
        if (c < 0 || out_index[static_cast<std::size_t>(c)] < 0) continue;
        if (kKindNodes[kind[static_cast<std::size_t>(c)]] < 0) {
          ++unnumbered[zi];
          continue;
        }
        const std::int64_t facet = local_facet(static_cast<std::size_t>(c), static_cast<std::size_t>(bf.face));
        if (facet < 0) continue;
        sides[zi].push_back(out_index[static_cast<std::size_t>(c)]);
        sides[zi].push_back(facet);
      }
    }
    for (std::size_t zi = 0; zi < t.zones.size(); ++zi) {
      if (unnumbered[zi])
        warn("ansys: " + std::to_string(unnumbered[zi]) + " faces of zone '" + zone_name(t.zones[zi]) +
             "' bound polygons or polyhedra, whose facets side regions cannot number; left out of its side region");
      if (sides[zi].empty()) continue;
      Region r{zone_name(t.zones[zi]), RegionKind::side, dim - 1, static_cast<int>(t.zones[zi].id), NDArray::from_vector(sides[zi], {sides[zi].size() / 2, 2})};
      r.canonicalize();
      m.regions.push_back(std::move(r));
    }
  }

  // The local facet number of face `face` in fixed-shape cell `c` (as cell_facets numbers
  // them), -1 when the face is not one of the cell's.
  std::int64_t local_facet(std::size_t c, std::size_t face) const {
    const Kind k = static_cast<Kind>(kind[c]);
    const std::int64_t* fn = t.faces.nodes.data() + (uniform ? face * uniform : static_cast<std::size_t>(t.faces.offsets[face]));
    const std::size_t fk = face_size(static_cast<std::int64_t>(face) * 2);
    auto has = [&](const std::vector<std::int64_t>& nodes) {
      if (nodes.size() != fk) return false;
      for (std::size_t j = 0; j < fk; ++j)
        if (std::find(nodes.begin(), nodes.end(), fn[j]) == nodes.end()) return false;
      return true;
    };
    std::vector<std::int64_t> nodes;
    const auto& facets = cell_facets(kKindType[k]);
    for (std::size_t j = 0; j < facets.size(); ++j) {
      nodes.clear();
      for (int l : facets[j]) nodes.push_back(cell_nodes(c)[l]);
      if (has(nodes)) return static_cast<std::int64_t>(j);
    }
    return -1;
  }
};

}  // namespace

void build_cells(Topology& topo, Mesh& mesh, const std::string& path) {
  Builder b(topo, path);
  b.run(mesh);
}

}  // namespace meshioplusplus::ansys
