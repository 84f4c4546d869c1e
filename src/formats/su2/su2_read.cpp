// meshio++ SU2 reader.
// Spec: https://su2code.github.io/docs_v7/Mesh-File/
//
// Keywords ("NAME= value" lines; '%' starts a comment line; other lines are skipped, as
// meshio does): NDIME, NELEM, NPOIN (its first number; a second one, the count without
// halo points, is ignored), NMARK, MARKER_TAG, MARKER_ELEMS, and NZONE / IZONE for
// multi-zone files. Element rows are "type node... [index]", point rows "x y [z] [index
// [index]]": the trailing columns are optional and ignored, row by row.
//
// Cells, as meshio: per section one block per element type in type-id order; boundary
// blocks (lines in 2-D, triangles and quads in 3-D) merged into one block per type;
// cell data "su2:tag" (int32): 0 for NELEM elements, the marker's tag for marker elements
// (its integer value, or for a name the previous tag + 1, as meshio numbers them).
//
// Regions: each marker is a side region named MARKER_TAG (dim NDIME-1, tag as su2:tag)
// holding the (volume cell, local facet) pairs its elements are facets of (an interior
// marker element gives a pair for each of its two cells). Marker elements that bound no
// volume cell form a cell region of the same name over their boundary-block cells.
//
// Zones: `zone=k` reads the zone with IZONE= k alone; by default every zone is read, points
// and cells appended zone after zone, with a cell region "zone_<k>" per zone over its cells
// and marker regions named "zone_<k>:<tag>". A file without NZONE is one zone.
//
// Safe for untrusted input: counts are checked against the bytes left before anything is
// allocated, every node index against the zone's points, and every row ends at its line.
#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <type_traits>
#include <vector>

#include "core/growable_buffer.hpp"
#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "core/io/parallel_rows.hpp"
#include "formats/su2/su2_internal.hpp"
#include "meshioplusplus/cell_types.hpp"

namespace meshioplusplus::su2 {

namespace {

// A section's rows: the type of each (its index in kTypes) and their nodes, flat, in file
// order. A section of one type (the usual NELEM) hands its nodes over as its block (see
// build()), so they are gathered where GrowableBuffer can hand them over uncopied.
struct Section {
  std::array<std::size_t, kTypes.size()> per_type{};  // rows of each type of kTypes
  std::vector<std::uint8_t> types;
  GrowableBuffer nodes;  // int64
  std::size_t at = 0;    // byte offset of the keyword line

  std::size_t num_nodes() const { return nodes.size() / sizeof(std::int64_t); }
  const std::int64_t* node_data() const { return nodes.as<const std::int64_t>(); }
};

struct Marker {
  std::string tag;
  std::int32_t tag_id = 0;
  Section elems;
};

struct Zone {
  long long index = 1;
  std::size_t dim = 0;
  NDArray points;
  bool have_points = false;
  Section volume;
  std::vector<Marker> markers;
};

// A final block: one type, made of the rows of that type of one or more sections (the
// sections' indices: -1 for NELEM, else the marker), in order.
struct Block {
  const ElementType* type;
  std::vector<int> parts;
  std::size_t rows = 0;
};

class Reader {
 public:
  Reader(const std::string& path, long long zone, unsigned threads)
      : file_(path, "su2"), cur_(file_.text(), "su2", path), want_zone_(zone), threads_(threads) {}

  Mesh read() {
    Zone* z = nullptr;
    std::string pending_tag;
    bool have_tag = false;
    std::int32_t next_tag_id = 0;
    long long nzone = 0;
    for (;;) {
      cur_.skip_space();
      if (cur_.at_end()) break;
      const char* at = cur_.ptr();
      const std::string_view line = cur_.line();
      if (line.front() == '%') continue;
      const std::size_t eq = line.find('=');
      if (eq == std::string_view::npos) continue;  // not a keyword line: skipped, as meshio does
      const std::string_view name = io::Cursor::trim(line.substr(0, eq));
      const std::string_view rest = io::Cursor::trim(line.substr(eq + 1));
      if (name == "NZONE") {
        nzone = count(rest, at, "a zone count");
      } else if (name == "IZONE") {
        zones_.push_back(Zone{});
        z = &zones_.back();
        z->index = count(rest, at, "a zone number");
        next_tag_id = 0;
      } else if (name == "NDIME") {
        if (!z) z = new_zone();
        const long long d = count(rest, at, "a dimension");
        if (d != 2 && d != 3) cur_.fail_at(expected_found("NDIME= 2 or 3", rest), at);
        if (z->dim != 0 && z->dim != static_cast<std::size_t>(d))
          cur_.fail_at("a second NDIME in zone " + std::to_string(z->index) + ": expected IZONE before it", at);
        z->dim = static_cast<std::size_t>(d);
      } else if (name == "NELEM") {
        if (!z) z = new_zone();
        z->volume = elements(static_cast<std::size_t>(count(rest, at, "an element count")), at);
      } else if (name == "NPOIN") {
        if (!z) z = new_zone();
        if (z->dim == 0) cur_.fail_at("NPOIN before NDIME: expected NDIME first", at);
        if (z->have_points) cur_.fail_at("a second NPOIN in zone " + std::to_string(z->index) + ": expected IZONE before it", at);
        const std::string_view first = rest.substr(0, std::min(rest.size(), rest.find_first_of(" \t")));
        points(*z, static_cast<std::size_t>(count(first, at, "a point count")));
      } else if (name == "NMARK") {
        count(rest, at, "a marker count");  // checked for form; the markers themselves are counted
      } else if (name == "MARKER_TAG") {
        pending_tag = std::string(rest);
        have_tag = true;
        // meshio's numbering: an integer tag is itself, a name is the previous tag + 1.
        std::int64_t v = 0;
        const char* e = io::parse_number(rest.data(), rest.data() + rest.size(), v);
        next_tag_id = (e && e == rest.data() + rest.size() && v >= std::numeric_limits<std::int32_t>::min() && v <= std::numeric_limits<std::int32_t>::max()) ? static_cast<std::int32_t>(v) : next_tag_id + 1;
      } else if (name == "MARKER_ELEMS") {
        if (!z) z = new_zone();
        if (!have_tag) cur_.fail_at("MARKER_ELEMS without a MARKER_TAG before it", at);
        Marker m;
        m.tag = pending_tag;
        m.tag_id = next_tag_id;
        m.elems = elements(static_cast<std::size_t>(count(rest, at, "a marker element count")), at);
        z->markers.push_back(std::move(m));
        have_tag = false;
      }
      // Any other keyword (a solver's extra sections) is skipped with its line.
    }
    if (zones_.empty()) cur_.fail_at("expected NDIME, NELEM and NPOIN, found none", cur_.end());
    if (nzone > 0 && static_cast<std::size_t>(nzone) != zones_.size())
      cur_.fail_at("NZONE= " + std::to_string(nzone) + " but " + std::to_string(zones_.size()) + " zones follow", cur_.end());
    return build();
  }

 private:
  Zone* new_zone() {
    zones_.push_back(Zone{});
    return &zones_.back();
  }

  long long count(std::string_view s, const char* at, const char* what) const {
    std::int64_t v = 0;
    const char* e = io::parse_number(s.data(), s.data() + s.size(), v);
    if (!e || e != s.data() + s.size() || v < 0) cur_.fail_at(expected_found(what, s), at);
    return v;
  }

  // Spaces and tabs; then true if the row's line goes on.
  static bool more_on_line(const char*& p, const char* end) {
    while (p != end && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
    return p != end && *p != '\n';
  }

  // The optional element index after a row's nodes, then the end of its line.
  const char* element_row_end(const char* p, const char* end) const {
    std::uint64_t v = 0;
    if (more_on_line(p, end)) {
      if (!io::parse_uint(p, end, v)) cur_.fail_expected("an element index or the end of the row", p);
      if (more_on_line(p, end)) cur_.fail_expected("the end of the element row", p);
    }
    return p;
  }

  Section elements(std::size_t n, const char* at) {
    cur_.need(n, 5, "elements");  // the shortest row: "3 0 1" and a line break
    Section s;
    s.at = static_cast<std::size_t>(at - cur_.begin());
    if (n != 0 && uniform_elements(s, n)) return s;
    s.types.reserve(n);
    const char* p = cur_.ptr();
    const char* end = cur_.end();
    std::uint64_t v = 0;
    for (std::size_t e = 0; e < n; ++e) {
      if (!io::parse_uint(p, end, v)) cur_.fail_expected("an SU2 element type", p);
      const ElementType* t = type_by_id(v);
      if (!t) cur_.fail_at("element type " + std::to_string(v) + ": expected 3, 5, 9, 10, 12, 13 or 14", p - 1);
      const auto ti = static_cast<std::size_t>(t - kTypes.data());
      s.types.push_back(static_cast<std::uint8_t>(ti));
      ++s.per_type[ti];
      auto* out = reinterpret_cast<std::int64_t*>(s.nodes.extend(static_cast<std::size_t>(t->nodes) * sizeof(std::int64_t)));
      for (int k = 0; k < t->nodes; ++k) {
        if (!io::parse_uint(p, end, v)) cur_.fail_expected("a node index", p);
        out[k] = static_cast<std::int64_t>(v);
      }
      p = element_row_end(p, end);
    }
    cur_.seek(static_cast<std::size_t>(p - cur_.begin()));
    return s;
  }

  // The usual NELEM (every row of the first row's type, one row per line) parsed on all
  // threads straight into the section's nodes: each row's place is known. False, with `s`
  // untouched, when the section is short, the threads one, or a row breaks the pattern
  // (elements() then parses it sequentially, which also reports the first error in order).
  bool uniform_elements(Section& s, std::size_t n) {
    const char* p = cur_.ptr();
    const char* end = cur_.end();
    std::uint64_t v = 0;
    while (p != end && io::is_space(*p)) ++p;
    if (!io::parse_uint(p, end, v)) return false;
    const ElementType* t = type_by_id(v);
    if (!t || n < io::kParallelRowsMin || threads_ <= 1) return false;
    const auto k = static_cast<std::size_t>(t->nodes);
    const std::uint64_t id = v;
    auto* nodes = reinterpret_cast<std::int64_t*>(s.nodes.extend(n * k * sizeof(std::int64_t)));
    const char* stop = io::parallel_rows(cur_.ptr(), end, n, threads_, [&](const char* q, std::size_t r0, std::size_t r1) {
      std::uint64_t x = 0;
      for (std::size_t e = r0; e < r1; ++e) {
        if (!io::parse_uint(q, end, x) || x != id) cur_.fail_expected("a row of the section's first element type", q);
        std::int64_t* out = nodes + e * k;
        for (std::size_t j = 0; j < k; ++j) {
          if (!io::parse_uint(q, end, x)) cur_.fail_expected("a node index", q);
          out[j] = static_cast<std::int64_t>(x);
        }
        q = element_row_end(q, end);
      }
      return q;
    });
    if (!stop) {
      s.nodes.truncate(0);
      return false;
    }
    const auto ti = static_cast<std::size_t>(t - kTypes.data());
    s.types.assign(n, static_cast<std::uint8_t>(ti));
    s.per_type[ti] = n;
    cur_.seek(static_cast<std::size_t>(stop - cur_.begin()));
    return true;
  }

  // Rows of points, on all threads where they are one per line (each row's place is known).
  void points(Zone& z, std::size_t n) {
    const std::size_t d = z.dim;
    cur_.need(n, 2 * d - 1, "points");
    z.points = NDArray::uninit(DType::float64, {n, d});
    double* x = z.points.data<double>();
    const char* end = cur_.end();
    auto rows = [&](const char* p, std::size_t r0, std::size_t r1) {
      for (std::size_t i = r0; i < r1; ++i) {
        for (std::size_t c = 0; c < d; ++c) {
          while (p != end && io::is_space(*p)) ++p;
          const char* q = io::parse_number(p, end, x[i * d + c]);
          if (!q || (q != end && !io::is_space(*q))) cur_.fail_expected("a point coordinate", p);
          p = q;
        }
        for (int extra = 0; more_on_line(p, end); ++extra) {  // up to two index columns
          double ignored;
          const char* q = io::parse_number(p, end, ignored);
          if (extra == 2 || !q || (q != end && !io::is_space(*q))) cur_.fail_expected("the end of the point row", p);
          p = q;
        }
      }
      return p;
    };
    io::parse_rows(cur_, n, threads_, rows);
    z.have_points = true;
  }

  void check_range(const Zone& z, const Section& s) const {
    const std::size_t n = z.have_points ? z.points.dim(0) : 0;
    const std::int64_t* node = s.node_data();
    for (std::size_t i = 0; i < s.num_nodes(); ++i)
      if (static_cast<std::uint64_t>(node[i]) >= n)
        cur_.fail_at("node index " + std::to_string(node[i]) + " is outside 0.." + std::to_string(n == 0 ? 0 : n - 1) +
                         " (the zone has " + std::to_string(n) + " points)",
                     cur_.begin() + s.at);
  }

  // A facet by its sorted node indices (unused places: -1, or K's largest value, which no
  // index reaches), with two payload values: for a marker element its (cell, marker).
  template <class K> struct Facet {
    std::array<K, 4> key;
    K a, b;
  };
  template <class K, class Nodes> static Facet<K> facet(Nodes&& node, std::size_t k, K a, K b) {
    const K unused = std::is_signed_v<K> ? K(-1) : std::numeric_limits<K>::max();
    Facet<K> f{{unused, unused, unused, unused}, a, b};
    for (std::size_t i = 0; i < k; ++i) {  // insertion sort of at most 4 values
      const K v = static_cast<K>(node(i));
      std::size_t j = i;
      for (; j > 0 && f.key[j - 1] > v; --j) f.key[j] = f.key[j - 1];
      f.key[j] = v;
    }
    return f;
  }

  // The marker elements of zone `z` matched to the facets of its volume cells (the blocks'
  // connectivity `conns`, cells numbered from cell_base): per marker, the (cell, facet) pairs
  // it covers (`sides`) and the marker elements that are no volume cell's facet, as cells
  // (`unowned`). K holds every node, cell and marker index (see Facet).
  template <class K>
  void match_markers(const Zone& zone, const std::vector<Block>& blocks, const std::vector<NDArray>& conns, std::int64_t cell_base,
                     std::size_t total_points, std::size_t dim, std::vector<GrowableBuffer>& sides,
                     std::vector<GrowableBuffer>& unowned) const {
    const Zone* z = &zone;
    auto section = [&](int part) -> const Section& { return part < 0 ? z->volume : z->markers[static_cast<std::size_t>(part)].elems; };
    using F = Facet<K>;
    std::int64_t base = cell_base;
    // The marker elements, each with its global cell index and its marker, and the nodes
    // they touch flagged.
    std::vector<char> on_marker(total_points, 0);
    std::vector<F> elems;
    {
      std::size_t marker_rows = 0;
      for (const auto& mk : z->markers)
        for (const std::size_t r : mk.elems.per_type) marker_rows += r;
      elems.reserve(marker_rows);
    }
    for (std::size_t bi = 0; bi < blocks.size(); ++bi) {
      const auto& b = blocks[bi];
      const std::size_t k = static_cast<std::size_t>(b.type->nodes);
      const auto ti = static_cast<std::size_t>(b.type - kTypes.data());
      const std::int64_t* c = conns[bi].data<const std::int64_t>();
      std::size_t row = 0;
      for (int part : b.parts) {
        const std::size_t end = row + section(part).per_type[ti];
        if (part >= 0)
          for (std::size_t r = row; r < end; ++r) {
            const std::int64_t* out = c + r * k;
            for (std::size_t j = 0; j < k; ++j) on_marker[static_cast<std::size_t>(out[j])] = 1;
            elems.push_back(facet<K>([&](std::size_t j) { return out[j]; }, k, static_cast<K>(base + static_cast<std::int64_t>(r)), static_cast<K>(part)));
          }
        row = end;
      }
      base += static_cast<std::int64_t>(b.rows);
    }
    // Sorted by node key, then marker, then cell: a group of equal (key, marker) is one
    // distinct marker element, whatever its duplicates. A volume facet finds its equals by
    // binary search inside the range of its smallest node (a counting sort gives the
    // ranges). Only facets whose nodes all lie on some marker element are looked up:
    // flagging those nodes keeps the interior out. Walking the cells in order leaves every
    // region's entries sorted. A marker element may be a facet of two volume cells at most
    // (else the mesh is not conforming): that bound also keeps hostile files (duplicated
    // cells, a face in thousands of markers) linear.
    auto key_less = [](const F& x, const F& y) {
      if (x.key != y.key) return x.key < y.key;
      return x.b != y.b ? x.b < y.b : x.a < y.a;
    };
    std::sort(elems.begin(), elems.end(), key_less);
    auto same_group = [&](std::size_t i) { return i > 0 && elems[i - 1].key == elems[i].key && elems[i - 1].b == elems[i].b; };
    std::vector<K> bucket(total_points + 1, 0);  // K holds every count: elems has fewer than cells
    for (const F& e : elems) ++bucket[static_cast<std::size_t>(e.key[0]) + 1];
    for (std::size_t i = 1; i < bucket.size(); ++i) bucket[i] += bucket[i - 1];
    std::vector<std::uint8_t> owners(elems.size(), 0);  // per group, at its first element
    base = cell_base;
    for (std::size_t bi = 0; bi < blocks.size(); ++bi) {
      const auto& b = blocks[bi];
      const std::size_t k = static_cast<std::size_t>(b.type->nodes), rows = b.rows;
      if (!elems.empty() && cell_type(b.type->type).dim == static_cast<int>(dim)) {
        const auto& facets = cell_facets(b.type->type);
        for (std::size_t i = 0; i < rows; ++i) {
          const std::int64_t* c = conns[bi].data<std::int64_t>() + i * k;
          for (std::size_t f = 0; f < facets.size(); ++f) {
            const auto& local = facets[f];
            bool all = true;
            for (int l : local) all = all && on_marker[static_cast<std::size_t>(c[l])];
            if (!all) continue;
            const F key = facet<K>([&](std::size_t j) { return c[local[j]]; }, local.size(), std::numeric_limits<K>::min(), std::numeric_limits<K>::min());
            const auto n0 = static_cast<std::size_t>(key.key[0]);
            const auto from = elems.begin() + static_cast<std::ptrdiff_t>(bucket[n0]);
            const auto to = elems.begin() + static_cast<std::ptrdiff_t>(bucket[n0 + 1]);
            for (auto q = std::lower_bound(from, to, key, key_less); q != to && q->key == key.key; ++q) {
              const auto u = static_cast<std::size_t>(q - elems.begin());
              if (same_group(u)) continue;
              if (++owners[u] > 2)
                cur_.fail_at("marker '" + z->markers[static_cast<std::size_t>(q->b)].tag + "': an element is a facet of more than two volume cells (expected a conforming mesh)",
                             cur_.begin() + z->markers[static_cast<std::size_t>(q->b)].elems.at);
              auto& side = sides[static_cast<std::size_t>(q->b)];
              side.push(base + static_cast<std::int64_t>(i));
              side.push(static_cast<std::int64_t>(f));
            }
          }
        }
      }
      base += static_cast<std::int64_t>(rows);
    }
    for (std::size_t i = 0, group = 0; i < elems.size(); ++i) {
      if (!same_group(i)) group = i;
      if (owners[group] == 0) unowned[static_cast<std::size_t>(elems[i].b)].push(static_cast<std::int64_t>(elems[i].a));
    }
  }

  Mesh build() {
    std::vector<Zone*> chosen;
    for (auto& z : zones_)
      if (want_zone_ == 0 || z.index == want_zone_) chosen.push_back(&z);
    if (chosen.empty()) {
      std::string have;
      for (const auto& z : zones_) have += (have.empty() ? "" : ", ") + std::to_string(z.index);
      throw ReadError(error_message("su2", cur_.path(), {}, "zone " + std::to_string(want_zone_) + " is not in the file (zones: " + have + ")"));
    }
    const bool several = chosen.size() > 1;
    Mesh m;
    std::size_t dim = chosen.front()->dim, total_points = 0;
    for (Zone* z : chosen) {
      if (z->dim == 0 || !z->have_points) cur_.fail_at("zone " + std::to_string(z->index) + ": expected NDIME and NPOIN, found " + (z->dim ? "no NPOIN" : "no NDIME"), cur_.end());
      if (z->dim != dim) cur_.fail_at("zones of different NDIME (" + std::to_string(dim) + ", " + std::to_string(z->dim) + ") cannot be read together: read one with zone=", cur_.end());
      check_range(*z, z->volume);
      for (const auto& mk : z->markers) check_range(*z, mk.elems);
      total_points += z->points.dim(0);
    }
    if (several) {
      m.points = NDArray::uninit(DType::float64, {total_points, dim});
    } else {
      m.points = std::move(chosen.front()->points);  // one zone: its points are the mesh's
    }
    std::vector<NDArray> tags;
    std::int64_t point_base = 0, cell_base = 0;
    for (Zone* z : chosen) {
      const std::size_t np = several ? z->points.dim(0) : total_points;
      if (several) {
        if (np) std::memcpy(m.points.data<double>() + static_cast<std::size_t>(point_base) * dim, z->points.raw(), np * dim * sizeof(double));
        z->points = NDArray();
      }
      // meshio's blocks: per section one per type in type-id order, then the boundary
      // blocks merged into one per type at the first one's place.
      std::vector<Block> blocks;
      std::map<std::string_view, std::size_t> first;
      auto section = [&](int part) -> const Section& { return part < 0 ? z->volume : z->markers[static_cast<std::size_t>(part)].elems; };
      for (int part = -1; part < static_cast<int>(z->markers.size()); ++part)
        for (std::size_t t = 0; t < kTypes.size(); ++t) {
          const std::size_t rows = section(part).per_type[t];
          if (rows == 0) continue;
          if (is_boundary_type(kTypes[t].type, dim)) {
            auto it = first.find(kTypes[t].type);
            if (it != first.end()) {
              blocks[it->second].parts.push_back(part);
              blocks[it->second].rows += rows;
              continue;
            }
            first[kTypes[t].type] = blocks.size();
          }
          blocks.push_back(Block{&kTypes[t], {part}, rows});
        }
      // Each block's arrays, allocated once and filled from the sections' rows.
      std::vector<NDArray> conns;
      std::int64_t base = cell_base;
      for (const auto& b : blocks) {
        const std::size_t k = static_cast<std::size_t>(b.type->nodes);
        const auto ti = static_cast<std::size_t>(b.type - kTypes.data());
        NDArray conn;
        Section& sole = b.parts.front() < 0 ? z->volume : z->markers[static_cast<std::size_t>(b.parts.front())].elems;
        if (b.parts.size() == 1 && sole.types.size() == b.rows) {
          // The section is this block: its nodes become the connectivity, uncopied.
          conn = sole.nodes.take(DType::int64, {b.rows, k});
          std::vector<std::uint8_t>().swap(sole.types);
          if (point_base != 0)
            for (std::int64_t* c = conn.data<std::int64_t>(), *e = c + b.rows * k; c != e; ++c) *c += point_base;
        } else {
          conn = NDArray::uninit(DType::int64, {b.rows, k});
          std::int64_t* out = conn.data<std::int64_t>();
          for (int part : b.parts) {
            const Section& sec = section(part);
            const std::int64_t* node = sec.node_data();
            for (const std::uint8_t et : sec.types) {
              if (et == ti)
                for (std::size_t j = 0; j < k; ++j) *out++ = node[j] + point_base;
              node += kTypes[et].nodes;
            }
          }
        }
        NDArray tag = NDArray::uninit(DType::int32, {b.rows});
        std::int32_t* tg = tag.data<std::int32_t>();
        std::size_t row = 0;
        for (int part : b.parts) {
          const std::int32_t tag_id = part < 0 ? 0 : z->markers[static_cast<std::size_t>(part)].tag_id;
          const std::size_t end = row + section(part).per_type[ti];
          std::fill(tg + row, tg + end, tag_id);
          row = end;
        }
        conns.push_back(std::move(conn));
        tags.push_back(std::move(tag));
        base += static_cast<std::int64_t>(b.rows);
      }
      // Every row is in a block now: the sections give their memory back before the markers
      // are matched (their row counts and offsets stay, for the messages).
      for (int part = -1; part < static_cast<int>(z->markers.size()); ++part) {
        Section& sec = part < 0 ? z->volume : z->markers[static_cast<std::size_t>(part)].elems;
        sec.nodes.clear();
        std::vector<std::uint8_t>().swap(sec.types);
      }
      // Which volume cell facets the marker elements are: as 4-byte numbers where every node,
      // cell and marker index fits (the facets then take half the memory), else 8-byte.
      std::vector<GrowableBuffer> sides(z->markers.size()), unowned(z->markers.size());
      constexpr std::size_t kNarrow = std::numeric_limits<std::uint32_t>::max();
      if (total_points < kNarrow && static_cast<std::size_t>(base) < kNarrow && z->markers.size() < kNarrow)
        match_markers<std::uint32_t>(*z, blocks, conns, cell_base, total_points, dim, sides, unowned);
      else
        match_markers<std::int64_t>(*z, blocks, conns, cell_base, total_points, dim, sides, unowned);
      const std::string prefix = several ? "zone_" + std::to_string(z->index) + ":" : "";
      for (std::size_t k = 0; k < z->markers.size(); ++k) {
        const auto& mk = z->markers[k];
        const bool has_sides = sides[k].size() != 0;
        if (has_sides) {
          const std::size_t n = sides[k].size() / (2 * sizeof(std::int64_t));
          Region r{prefix + mk.tag, RegionKind::side, static_cast<int>(dim) - 1, mk.tag_id, sides[k].take(DType::int64, {n, 2})};
          r.canonicalize();
          m.regions.push_back(std::move(r));
        }
        if (unowned[k].size() != 0 || !has_sides) {
          const std::size_t n = unowned[k].size() / sizeof(std::int64_t);
          Region r{prefix + mk.tag, RegionKind::cell, static_cast<int>(dim) - 1, mk.tag_id, unowned[k].take(DType::int64, {n})};
          r.canonicalize();
          m.regions.push_back(std::move(r));
        }
      }
      // The zone's blocks.
      for (std::size_t bi = 0; bi < blocks.size(); ++bi)
        m.cells.push_back(CellBlock::rectangular(std::string(blocks[bi].type->type), std::move(conns[bi])));
      if (several) {
        std::vector<std::int64_t> all(static_cast<std::size_t>(base - cell_base));
        for (std::size_t i = 0; i < all.size(); ++i) all[i] = cell_base + static_cast<std::int64_t>(i);
        m.regions.push_back(Region{"zone_" + std::to_string(z->index), RegionKind::cell, static_cast<int>(dim),
                                   static_cast<int>(z->index), NDArray::from_vector(all)});
      }
      point_base += static_cast<std::int64_t>(np);
      cell_base = base;
    }
    m.cell_data["su2:tag"] = std::move(tags);
    return m;
  }

  io::FileBytes file_;
  io::Cursor cur_;
  long long want_zone_;
  unsigned threads_;
  std::deque<Zone> zones_;  // a deque: `z` above points into it while zones are added
};

}  // namespace

Mesh read_su2(const std::string& path, const Options& options) {
  OptionReader opts(options, "su2");
  const long long zone = opts.get_int("zone", 0);
  const unsigned threads = opts.threads();
  opts.finish();
  if (zone < 0) throw std::invalid_argument("su2: option 'zone': expected a zone number (IZONE) or 0 for all, found " + std::to_string(zone));
  return Reader(path, zone, threads).read();
}

}  // namespace meshioplusplus::su2
