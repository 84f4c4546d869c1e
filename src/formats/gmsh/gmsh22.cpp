// meshio++ formats, Gmsh MSH 2.2 (legacy): reader and writer, ASCII and binary.
// Spec: https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format-version-2-_0028Legacy_0029
//
//   $Nodes     number-of-nodes, then node-number x y z per node
//              (binary: int32 node-number + 3 doubles)
//   $Elements  number-of-elements, then per element
//              elm-number elm-type number-of-tags tag... node-number...
//              (binary: groups of a header {elm-type, num-elm-follow, num-tags} and
//              num-elm-follow rows of int32 {elm-number, tag..., node-number...})
//   $Periodic  ASCII in both modes: count; dim slave master; [Affine v...]; count; pairs
// meshio groups consecutive elements of one type into one block; so do we. The first tag
// is the physical group, the second the elementary entity ("A zero tag is equivalent to
// no tag").
#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "core/io/section_reader.hpp"
#include "formats/gmsh/gmsh_common.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::gmsh {

namespace {

// 12-byte group headers of a binary $Elements section, served from a few MiB of the file
// copied out with pread; `p` (a pointer into the mapping, bounds checked by the cursor)
// names the header, the window is refilled from it when it falls outside.
class HeaderWindow {
 public:
  explicit HeaderWindow(const Input& in) : in_(in) {}
  const char* at(const char* p) {
    const std::size_t offset = in_.offset_of(p);
    if (offset < start_ || offset + 12 > start_ + size_) {
      size_ = std::min(kBytes, in_.cur.size() - offset);
      if (!buffer_) buffer_.reset(new char[kBytes]);  // overwritten before read
      in_.file->copy_out(offset, size_, buffer_.get());
      start_ = offset;
    }
    return buffer_.get() + (offset - start_);
  }
  // Gives the window's memory back (before the blocks it described are allocated).
  void release() {
    buffer_.reset();
    start_ = size_ = 0;
  }

 private:
  static constexpr std::size_t kBytes = std::size_t(4) << 20;
  const Input& in_;
  std::unique_ptr<char[]> buffer_;
  std::size_t start_ = 0, size_ = 0;
};

void read_nodes(ReadState& st) {
  Input& in = st.in;
  if (st.nodes.built()) in.fail("a second $Nodes section");
  const auto count = in.cur.number<std::uint64_t>("number of nodes");
  if (in.binary) in.cur.line();  // the rest of the count's line
  in.cur.need(count, in.binary ? 28 : 8, "nodes");
  const auto n = static_cast<std::size_t>(count);
  st.points = NDArray::uninit(DType::float64, {n, 3});
  st.node_tags.resize(n);
  double* xyz = st.points.data<double>();
  if (in.binary) {
    // Rows of int32 node-number + 3 doubles, copied out of the file with pread a chunk at a
    // time (Input::file) and split into the tags and points.
    const char* p = in.cur.take(28 * n, "nodes");
    const bool little = in.cur.little_endian();
    std::vector<std::int32_t> low(io::chunk_ranges(n, in.threads), 0);
    io::read_chunks(*in.file, in.offset_of(p), n, 28, in.threads, [&](std::size_t r, std::size_t i0, std::size_t k, const char* src) {
      for (std::size_t i = 0; i < k; ++i, src += 28) {
        const auto tag = io::load<std::int32_t>(src, little);
        low[r] = std::min(low[r], tag);
        st.node_tags[i0 + i] = static_cast<std::uint64_t>(static_cast<std::uint32_t>(tag));
        std::memcpy(xyz + 3 * (i0 + i), src + 4, 24);
      }
      return true;
    });
    if (little != io::host_is_little_endian()) io::byteswap_inplace(xyz, 3 * n, 8);
    if (*std::min_element(low.begin(), low.end()) < 0)
      for (std::size_t i = 0; i < n; ++i, p += 28)  // the first negative one, named at its byte
        if (static_cast<std::int64_t>(st.node_tags[i]) > std::numeric_limits<std::int32_t>::max())
          in.cur.fail_at("node tag " + std::to_string(static_cast<std::int32_t>(static_cast<std::uint32_t>(st.node_tags[i]))) + " is negative", p);
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      st.node_tags[i] = in.cur.number<std::uint64_t>("node tag");
      xyz[3 * i] = in.cur.number<double>("x coordinate");
      xyz[3 * i + 1] = in.cur.number<double>("y coordinate");
      xyz[3 * i + 2] = in.cur.number<double>("z coordinate");
    }
  }
  st.nodes.build(st.node_tags, in);
  in.end_section("Nodes");
}

struct Run {
  const ElementType* type;
  std::size_t count;
};

// Adds `count` elements of `t` to the runs (consecutive equal types share one block).
void add_run(std::vector<Run>& runs, const ElementType* t, std::size_t count) {
  if (!runs.empty() && runs.back().type == t) runs.back().count += count;
  else runs.push_back({t, count});
}

void alloc_blocks(ReadState& st, const std::vector<Run>& runs) {
  for (const Run& r : runs) {
    st.blocks.push_back(CellBlock::rectangular(std::string(r.type->name),
                                               NDArray::uninit(DType::int64, {r.count, static_cast<std::size_t>(r.type->num_nodes)})));
    st.physical.push_back(NDArray::zeros(DType::int32, {r.count}));
    st.geometrical.push_back(NDArray::zeros(DType::int32, {r.count}));
  }
}

void read_elements(ReadState& st) {
  Input& in = st.in;
  st.require_nodes("Elements");
  if (st.have_elements) in.fail("a second $Elements section");
  const auto count = in.cur.number<std::uint64_t>("number of elements");
  if (in.binary) in.cur.line();
  in.cur.need(count, in.binary ? 12 : 8, "elements");
  const std::size_t start = in.cur.offset();
  std::vector<Run> runs;
  bool any_phys = false, any_geom = false;

  if (!in.binary) {
    // Pass 1: the run structure, so each block is allocated once at its final size.
    for (std::uint64_t e = 0; e < count; ++e) {
      in.cur.number<std::uint64_t>("element number");
      in.cur.skip_space();
      const char* at = in.cur.ptr();
      const int type_id = in.cur.number<int>("element type");
      const ElementType* t = element_type(type_id);
      if (!t) in.cur.fail_at("unknown element type " + std::to_string(type_id), at);
      at = in.cur.ptr();
      const int ntags = in.cur.number<int>("number of tags");
      if (ntags < 0 || ntags > 1000) in.cur.fail_at("number of tags 0..1000, found " + std::to_string(ntags), at);
      for (int i = 0; i < ntags + t->num_nodes; ++i)
        if (in.cur.token().empty()) in.cur.fail_expected("element tags and nodes");
      add_run(runs, t, 1);
    }
    in.cur.seek(start);
    alloc_blocks(st, runs);
    for (std::size_t b = 0; b < runs.size(); ++b) {
      const ElementType& t = *runs[b].type;
      const auto k = static_cast<std::size_t>(t.num_nodes);
      std::int64_t* conn = st.blocks[b].connectivity.data<std::int64_t>();
      std::int32_t* phys = st.physical[b].data<std::int32_t>();
      std::int32_t* geom = st.geometrical[b].data<std::int32_t>();
      for (std::size_t e = 0; e < runs[b].count; ++e) {
        st.element_tags.push(in.cur.number<std::uint64_t>("element number"));
        in.cur.number<int>("element type");
        const int ntags = in.cur.number<int>("number of tags");
        for (int i = 0; i < ntags; ++i) {
          const auto v = in.cur.number<std::int32_t>("element tag");
          if (i == 0) { phys[e] = v; any_phys = true; }
          if (i == 1) { geom[e] = v; any_geom = true; }
        }
        std::int64_t* row = conn + e * k;
        for (std::size_t i = 0; i < k; ++i) {
          in.cur.skip_space();
          const char* at = in.cur.ptr();
          row[t.to_ours(static_cast<int>(i))] = st.node_index(in.cur.number<std::uint64_t>("node number"), at);
        }
      }
    }
  } else {
    // Pass 1: walk the group headers. Gmsh writes a group per element; a run of
    // one-element groups of one type and tag count is a span of uniform rows whose stride
    // includes the next header, decoded as one block of rows in pass 2.
    struct Span {
      const ElementType* t;
      std::size_t ntags, count, offset;  // offset: of the first row, or of its header
      bool headed;                        // one-element groups, header included in the stride
    };
    std::vector<Span> spans;
    std::uint64_t seen = 0;
    // The headers are read from a window of the file copied out with pread (Input::file),
    // refilled from the next header on when it runs out: the mapping's pages stay untouched.
    HeaderWindow window(in);
    while (seen < count) {
      const char* at = in.cur.ptr();
      const std::size_t header = in.cur.offset();
      const char* h = window.at(in.cur.take(12, "element group header"));
      const bool little = in.cur.little_endian();
      const auto type_id = io::load<std::int32_t>(h, little);
      const auto follow = io::load<std::int32_t>(h + 4, little);
      const auto ntags = io::load<std::int32_t>(h + 8, little);
      const ElementType* t = element_type(type_id);
      if (!t) in.cur.fail_at("unknown element type " + std::to_string(type_id), at);
      if (follow < 0 || static_cast<std::uint64_t>(follow) > count - seen || ntags < 0 || ntags > 1000)
        in.cur.fail_at("element group of " + std::to_string(follow) + " elements with " + std::to_string(ntags) +
                           " tags does not fit the " + std::to_string(count) + " elements declared",
                       at);
      const std::size_t row = 4 * (1 + static_cast<std::size_t>(ntags) + static_cast<std::size_t>(t->num_nodes));
      in.cur.need(static_cast<std::uint64_t>(follow), row, "elements");
      in.cur.take(row * static_cast<std::size_t>(follow), "elements");
      add_run(runs, t, static_cast<std::size_t>(follow));
      seen += static_cast<std::uint64_t>(follow);
      const auto nt = static_cast<std::size_t>(ntags);
      if (follow == 1 && !spans.empty() && spans.back().headed && spans.back().t == t && spans.back().ntags == nt)
        ++spans.back().count;
      else if (follow > 0)
        spans.push_back({t, nt, static_cast<std::size_t>(follow), follow == 1 ? header : header + 12, follow == 1});
    }
    const char* after = in.cur.ptr();
    window.release();
    alloc_blocks(st, runs);
    std::size_t b = 0, filled = 0;
    for (const Span& s : spans) {
      while (filled == runs[b].count) { ++b; filled = 0; }  // runs of zero elements
      const ElementType& t = *s.t;
      const auto k = static_cast<std::size_t>(t.num_nodes);
      any_phys = any_phys || s.ntags > 0;
      any_geom = any_geom || s.ntags > 1;
      // Rows "elm-number tag... node-number..." of int32, decoded in place (node numbers
      // read as unsigned: a negative one is no tag of $Nodes).
      const std::size_t head = s.headed ? 12 : 0;
      BinaryRows rows;
      rows.rows = s.count;
      rows.row_bytes = head + 4 * (1 + s.ntags + k);
      rows.tag_offset = head;
      rows.node_offset = head + 4 * (1 + s.ntags);
      rows.tag_bytes = 4;
      rows.phys = s.ntags > 0 ? st.physical[b].data<std::int32_t>() + filled : nullptr;
      rows.geom = s.ntags > 1 ? st.geometrical[b].data<std::int32_t>() + filled : nullptr;
      rows.p = in.cur.begin() + s.offset;
      decode_element_rows_from_file(st, t, rows, st.blocks[b].connectivity.data<std::int64_t>() + filled * k);
      filled += s.count;
    }
    in.cur.set_ptr(after);
  }
  // meshio keeps gmsh:physical / gmsh:geometrical only when the file has those tags.
  if (!any_phys) for (auto& a : st.physical) a = NDArray();
  if (!any_geom) for (auto& a : st.geometrical) a = NDArray();
  st.have_elements = true;
  in.end_section("Elements");
}

void read_periodic(ReadState& st) {
  Input& in = st.in;
  st.require_nodes("Periodic");
  auto& cur = in.cur;  // ASCII in binary files too
  const auto nlinks = cur.number<std::uint64_t>("number of periodic links");
  in.cur.need(nlinks, 8, "periodic links");
  for (std::uint64_t l = 0; l < nlinks; ++l) {
    PeriodicLink link;
    link.dim = cur.number<int>("entity dimension");
    link.tag = cur.number<int>("entity tag");
    link.master_tag = cur.number<int>("master entity tag");
    in.affine_line(link);
    const auto npairs = cur.number<std::uint64_t>("number of corresponding nodes");
    in.cur.need(npairs, 4, "corresponding nodes");
    link.node_pairs = NDArray::uninit(DType::int64, {static_cast<std::size_t>(npairs), 2});
    std::int64_t* o = link.node_pairs.data<std::int64_t>();
    for (std::uint64_t i = 0; i < 2 * npairs; ++i) {
      cur.skip_space();
      const char* at = cur.ptr();
      o[i] = st.node_index(cur.number<std::uint64_t>("node number"), at);
    }
    st.periodic.push_back(std::move(link));
  }
  in.end_section("Periodic");
}

}  // namespace

Mesh read22(ReadState& st) {
  Input& in = st.in;
  st.version2 = true;
  for (std::string name = st.next_section(); !name.empty(); name = st.next_section()) {
    if (st.read_common_section(name)) continue;
    if (name == "Nodes") read_nodes(st);
    else if (name == "Elements") read_elements(st);
    else if (name == "Periodic") read_periodic(st);
    else in.skip_section(name);
  }
  return st.finish();
}

// ---------------------------------------------------------------------------------------
// Writer

void write22(const std::string& path, const Mesh& mesh, const WriteOptions& opt) {
  const WritePlan plan = plan_write(mesh, false, path);
  if (mesh.num_points() >= 0x7fffffffu || mesh.num_cells() >= 0x7fffffffu)
    throw write_error(kFormat, path, "MSH 2.2 numbers nodes and elements with 32-bit integers; use fmt_version=4.1");
  Out out(path, opt);
  write_header(out, "2.2");
  write_physical_names(out, plan);

  const std::size_t n = mesh.num_points(), pdim = mesh.points.dim(1);
  out.w.str("$Nodes\n").integer(n).ch('\n');
  visit_dtype(mesh.points.dtype(), [&](auto tv) {
    using T = decltype(tv);
    const T* p = static_cast<const T*>(mesh.points.raw());
    auto xyz = [&](std::size_t i, double* x) {
      const T* r = p + i * pdim;
      x[0] = static_cast<double>(r[0]);
      x[1] = static_cast<double>(r[1]);
      x[2] = pdim > 2 ? static_cast<double>(r[2]) : 0.0;
    };
    if (out.binary) {
      // Rows of int32 node-number + 3 doubles, built a batch at a time, one write each.
      constexpr std::size_t kBatch = 1 << 17;
      std::vector<char> buf(28 * std::min(kBatch, n));
      for (std::size_t i0 = 0; i0 < n; i0 += kBatch) {
        const std::size_t i1 = std::min(n, i0 + kBatch);
        char* q = buf.data();
        for (std::size_t i = i0; i < i1; ++i, q += 28) {
          const auto tag = static_cast<std::int32_t>(i + 1);
          double x[3];
          xyz(i, x);
          std::memcpy(q, &tag, 4);
          std::memcpy(q + 4, x, 24);
        }
        out.bytes(buf.data(), 28 * (i1 - i0));
      }
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        double x[3];
        xyz(i, x);
        out.w.integer(i + 1).ch(' ').real(x[0], out.ff).ch(' ').real(x[1], out.ff).ch(' ').real(x[2], out.ff).ch('\n');
      }
    }
  });
  if (out.binary) out.w.ch('\n');
  out.w.str("$EndNodes\n");

  out.w.str("$Elements\n").integer(mesh.num_cells()).ch('\n');
  std::int64_t number = 1;
  for (std::size_t b = 0; b < plan.blocks.size(); ++b) {
    const BlockPlan& bp = plan.blocks[b];
    const ElementType& t = *bp.type;
    const auto k = static_cast<std::size_t>(t.num_nodes);
    const std::size_t m = mesh.cells[b].size();
    if (out.binary && m > 0) {
      out.put<std::int32_t>(t.id);
      out.put<std::int32_t>(static_cast<std::int32_t>(m));
      out.put<std::int32_t>(2);
    }
    // elm-number, then the tags: one physical tag per element in MSH 2.2 (the entity's
    // first group) and the elementary entity.
    auto lead = [&](std::size_t e, std::int32_t* row) {
      const WriteEntity& ent = plan.entities[static_cast<std::size_t>(bp.uniform_entity >= 0 ? bp.uniform_entity : bp.entity[e])];
      row[0] = static_cast<std::int32_t>(number++);
      row[1] = ent.physicals.empty() ? 0 : ent.physicals.front();
      row[2] = ent.tag;
    };
    if (out.binary) {
      binary_element_rows<std::int32_t, 3>(out, mesh.cells[b].connectivity, t, m, {},
                                           [&](std::size_t e, std::size_t, std::int32_t* row) { lead(e, row); });
      continue;
    }
    std::int32_t row[3 + 1000];
    element_rows(mesh.cells[b].connectivity, t, m, {}, row + 3, [&](std::size_t e, std::size_t) {
      lead(e, row);
      out.w.integer(row[0]).ch(' ').integer(t.id).str(" 2 ").integer(row[1]).ch(' ').integer(row[2]);
      for (std::size_t i = 0; i < k; ++i) out.w.ch(' ').integer(row[3 + i]);
      out.w.ch('\n');
    });
  }
  if (out.binary) out.w.ch('\n');
  out.w.str("$EndElements\n");

  if (!mesh.gmsh_periodic.empty()) {
    out.w.str("$Periodic\n").integer(mesh.gmsh_periodic.size()).ch('\n');
    for (const PeriodicLink& l : mesh.gmsh_periodic) {
      out.w.integer(l.dim).ch(' ').integer(l.tag).ch(' ').integer(l.master_tag).ch('\n');
      if (!l.affine.empty()) {
        out.w.str("Affine");
        for (double a : l.affine) out.w.ch(' ').real(a, io::FloatFormat{});
        out.w.ch('\n');
      }
      const std::size_t npairs = l.node_pairs.size() / 2;
      out.w.integer(npairs).ch('\n');
      for (std::size_t i = 0; i < npairs; ++i)
        out.w.integer(l.node_pairs.value_as_int64(2 * i) + 1).ch(' ').integer(l.node_pairs.value_as_int64(2 * i + 1) + 1).ch('\n');
    }
    out.w.str("$EndPeriodic\n");
  }
  write_data_sections(out, mesh);
  out.commit();
}

}  // namespace meshioplusplus::gmsh
