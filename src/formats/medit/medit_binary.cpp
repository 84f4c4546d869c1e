// meshio++ Medit binary (.meshb): reader and writer.
// Spec: https://github.com/LoicMarechal/libMeshb (GmfOpenMesh, GmfKwdFmt and the keyword
// header of sources/libmeshb7.c, and its documentation).
//
// Layout: the int32 1 (its byte order is the file's: 0x01000000 read back means swap), the
// int32 version, then keywords. Keyword codes are int32 in every version; the next-keyword
// offset is int32 in versions 1-2 and int64 in 3-4; a list keyword's count and every integer
// field is int32 in versions 1-3 and int64 in 4; reals are float32 in version 1, float64
// after. Dimension (code 3) holds an int32. End (code 54) closes the file.
//
// Read: Dimension, Vertices, the element keywords of kElements, End; every other keyword
// is skipped through its next-keyword offset, which must move forward and stay in the file.
// Like meshio: float32 points for version 1, references int32 in versions 1-3 and int64 in
// 4 (connectivity is int64 whatever the version). Large sections are decoded on several
// threads (disjoint rows; the result does not depend on the thread count), elements in the
// host's byte order with AVX2 where the CPU has it (decode_elements_avx2). Safe for
// untrusted input: every count is checked against the bytes left before allocating, every
// index against the vertex count, and every skip moves forward.
//
// Write: meshio's layout (little-endian, float64 reals, 64-bit offsets): version 3 (int32
// integers) when every index and reference fits in an int32, else version 4.
#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>

#include "core/cpu_features.hpp"
#ifdef MESHIOPP_AVX2_DISPATCH
#include <immintrin.h>
#endif

#include "core/io/cursor.hpp"
#include "core/io/decode.hpp"
#include "core/io/file.hpp"
#include "core/io/section_reader.hpp"
#include "core/parallel.hpp"
#include "formats/medit/medit_internal.hpp"

namespace meshioplusplus::medit {

namespace {

template <class F, class I, bool Swap, std::size_t Dim>
void decode_vertices(const char* src, std::size_t rows, F* xyz, I* refs) {
  constexpr std::size_t rec = Dim * sizeof(F) + sizeof(I);
  for (std::size_t i = 0; i < rows; ++i) {
    const char* p = src + i * rec;
    for (std::size_t c = 0; c < Dim; ++c) xyz[i * Dim + c] = io::load_as<F, Swap>(p + c * sizeof(F));
    refs[i] = io::load_as<I, Swap>(p + Dim * sizeof(F));
  }
}

// Returns the largest 0-based index as unsigned (a 0 in the file wraps to the maximum), so
// one comparison afterwards checks the whole range. The node count K is a compile-time
// constant (one instance per element kind), so the row loop is unrolled and the loads,
// swaps and widenings become straight-line code (a runtime k left a short inner loop per
// row that cost more than the data movement).
template <class I, bool Swap, std::size_t K>
std::uint64_t decode_elements(const char* src, std::size_t rows, std::int64_t* conn, I* refs) {
  constexpr std::size_t rec = (K + 1) * sizeof(I);
  std::uint64_t top = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    const char* p = src + i * rec;
    for (std::size_t j = 0; j < K; ++j) {
      // 1-based -> 0-based without signed overflow (the range check catches 0 and lies)
      const auto v = static_cast<std::uint64_t>(static_cast<std::int64_t>(io::load_as<I, Swap>(p + j * sizeof(I)))) - 1;
      conn[i * K + j] = static_cast<std::int64_t>(v);
      top = std::max(top, v);
    }
    refs[i] = io::load_as<I, Swap>(p + K * sizeof(I));
  }
  return top;
}

#ifdef MESHIOPP_AVX2_DISPATCH
// Four node numbers of width I in one vector, and what decode_elements_avx2 does with them.
template <class I> struct Lanes;
template <> struct Lanes<std::int32_t> {
  using V = __m128i;
  __attribute__((target("avx2"))) static V load(const char* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
  __attribute__((target("avx2"))) static V splat(std::int32_t v) { return _mm_set1_epi32(v); }
  __attribute__((target("avx2"))) static V min(V a, V b) { return _mm_min_epi32(a, b); }
  __attribute__((target("avx2"))) static V max(V a, V b) { return _mm_max_epi32(a, b); }
  __attribute__((target("avx2"))) static __m256i widen(V v) { return _mm256_cvtepi32_epi64(v); }
  __attribute__((target("avx2"))) static V first_repeated(V v) { return _mm_shuffle_epi32(v, _MM_SHUFFLE(0, 2, 1, 0)); }
  __attribute__((target("avx2"))) static void spill(V v, std::int32_t* out) { _mm_storeu_si128(reinterpret_cast<__m128i*>(out), v); }
};
template <> struct Lanes<std::int64_t> {
  using V = __m256i;
  __attribute__((target("avx2"))) static V load(const char* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  __attribute__((target("avx2"))) static V splat(std::int64_t v) { return _mm256_set1_epi64x(v); }
  __attribute__((target("avx2"))) static V min(V a, V b) { return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b)); }
  __attribute__((target("avx2"))) static V max(V a, V b) { return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(b, a)); }
  __attribute__((target("avx2"))) static __m256i widen(V v) { return v; }
  __attribute__((target("avx2"))) static V first_repeated(V v) { return _mm256_permute4x64_epi64(v, _MM_SHUFFLE(0, 2, 1, 0)); }
  __attribute__((target("avx2"))) static void spill(V v, std::int64_t* out) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), v); }
};

// The AVX2 build of decode_elements for records in the host's byte order (int32 in versions
// 1-3 written on a little-endian machine, meshio's files and ours; int64 in version 4).
// Each group of four node numbers is one load, widened to int64 and lowered by one in one
// 32-byte store; three nodes are loaded with the reference after them (still inside the
// record), whose lane repeats a node before the range is taken, and stored with a mask. The
// range is kept as the signed minimum and maximum instead of the largest unsigned index:
// the result is the same where every index is in range, and at least the vertex count
// (UINT64_MAX) where one is not, which is all the caller compares.
template <class I, std::size_t K>
__attribute__((target("avx2"))) std::uint64_t decode_elements_avx2(const char* src, std::size_t rows, std::int64_t* conn, I* refs) {
  using L = Lanes<I>;
  constexpr std::size_t rec = (K + 1) * sizeof(I), group = 4 * sizeof(I), groups = K / 4, rest = K % 4;
  typename L::V lo = L::splat(std::numeric_limits<I>::max()), hi = L::splat(std::numeric_limits<I>::min());
  I slo = std::numeric_limits<I>::max(), shi = std::numeric_limits<I>::min();
  const __m256i one = _mm256_set1_epi64x(1);
  const __m256i first3 = _mm256_setr_epi64x(-1, -1, -1, 0);
  for (std::size_t i = 0; i < rows; ++i) {
    const char* p = src + i * rec;
    std::int64_t* out = conn + i * K;
    for (std::size_t g = 0; g < groups; ++g) {
      const typename L::V v = L::load(p + group * g);
      lo = L::min(lo, v);
      hi = L::max(hi, v);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 4 * g), _mm256_sub_epi64(L::widen(v), one));
    }
    if constexpr (rest == 3) {
      const typename L::V v = L::first_repeated(L::load(p + group * groups));
      lo = L::min(lo, v);
      hi = L::max(hi, v);
      _mm256_maskstore_epi64(reinterpret_cast<long long*>(out + 4 * groups), first3, _mm256_sub_epi64(L::widen(v), one));
    } else {
      for (std::size_t j = 4 * groups; j < K; ++j) {
        const I v = io::load_as<I, false>(p + j * sizeof(I));
        slo = std::min(slo, v);
        shi = std::max(shi, v);
        out[j] = std::int64_t{v} - 1;
      }
    }
    refs[i] = io::load_as<I, false>(p + K * sizeof(I));
  }
  I l[4], h[4];
  L::spill(lo, l);
  L::spill(hi, h);
  slo = std::min({slo, l[0], l[1], l[2], l[3]});
  shi = std::max({shi, h[0], h[1], h[2], h[3]});
  if (rows == 0) return 0;
  return slo < 1 ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(shi) - 1;
}
#endif

// Calls f(std::integral_constant<std::size_t, K>{}) for the node count k of a kElements kind.
template <class F> decltype(auto) with_nodes(std::size_t k, F&& f) {
  switch (k) {
    case 2: return f(std::integral_constant<std::size_t, 2>{});
    case 3: return f(std::integral_constant<std::size_t, 3>{});
    case 4: return f(std::integral_constant<std::size_t, 4>{});
    case 5: return f(std::integral_constant<std::size_t, 5>{});
    case 6: return f(std::integral_constant<std::size_t, 6>{});
    case 8: return f(std::integral_constant<std::size_t, 8>{});
    case 9: return f(std::integral_constant<std::size_t, 9>{});
    default: return f(std::integral_constant<std::size_t, 10>{});
  }
}

class Reader {
 public:
  Reader(const std::string& path, const io::FileBytes& file, unsigned threads)
      : file_(file), cur_(file.text(), "medit", path), bytes_(file.text()), path_(path), threads_(threads) {
    cur_.load_through(file);
  }

  Mesh read() {
    const std::int32_t code = cur_.load<std::int32_t>("byte-order code");
    if (code == 16777216) cur_.set_little_endian(false);
    else if (code != 1) cur_.fail_at("expected the byte-order code 1, found " + std::to_string(code), cur_.begin());
    swap_ = cur_.little_endian() != io::host_is_little_endian();
    const char* vat = cur_.ptr();
    version_ = cur_.load<std::int32_t>("version");
    if (version_ < 1 || version_ > 4) cur_.fail_at("expected a version from 1 to 4, found " + std::to_string(version_), vat);
    for (;;) {
      if (cur_.at_end()) break;  // no End keyword: what was read stands (meshio warns and does the same)
      const char* at = cur_.ptr();
      const std::int32_t kw = cur_.load<std::int32_t>("keyword code");
      if (kw == kCodeEnd) break;
      const std::int64_t next = version_ >= 3 ? cur_.load<std::int64_t>("next-keyword offset")
                                              : cur_.load<std::int32_t>("next-keyword offset");
      if (kw == kCodeDimension) {
        const char* dat = cur_.ptr();
        const std::int32_t d = cur_.load<std::int32_t>("dimension");
        if (d != 2 && d != 3) cur_.fail_at("Dimension: expected 2 or 3, found " + std::to_string(d), dat);
        out_.dim = d;
      } else if (kw == kCodeVertices) {
        vertices(at);
      } else if (const ElementKind* e = element_by_code(kw)) {
        elements(*e, at);
      } else {
        const auto here = static_cast<std::int64_t>(cur_.offset());
        if (next < here || next > static_cast<std::int64_t>(cur_.size()))
          cur_.fail_at("keyword " + std::to_string(kw) + ": expected a next-keyword offset from " + std::to_string(here) +
                           " to " + std::to_string(cur_.size()) + ", found " + std::to_string(next),
                       at);
        cur_.seek(static_cast<std::size_t>(next));
      }
    }
    return finish(std::move(out_), path_, bytes_, threads_);
  }

 private:
  std::size_t count(const char* what) {
    const char* at = cur_.ptr();
    const std::int64_t n = version_ == 4 ? cur_.load<std::int64_t>(what) : cur_.load<std::int32_t>(what);
    if (n < 0) cur_.fail_at(std::string("expected a ") + what + " of 0 or more, found " + std::to_string(n), at);
    return static_cast<std::size_t>(n);
  }

  void vertices(const char* at) {
    if (out_.dim == 0) cur_.fail_at("Vertices before Dimension: expected Dimension first", at);
    if (out_.have_vertices) cur_.fail_at("a second Vertices section: expected one", at);
    const std::size_t n = count("vertex count");
    const auto d = static_cast<std::size_t>(out_.dim);
    const std::size_t rw = version_ == 1 ? 4 : 8, iw = version_ == 4 ? 8 : 4;
    cur_.need(n, d * rw + iw, "vertices");
    const std::size_t offset = cur_.offset(), rec = d * rw + iw;
    cur_.take(n * rec, "vertices");
    out_.points = NDArray::uninit(rw == 4 ? DType::float32 : DType::float64, {n, d});
    out_.point_refs = NDArray::uninit(iw == 4 ? DType::int32 : DType::int64, {n});
    auto run = [&](auto f, auto i) {
      using F = decltype(f);
      using I = decltype(i);
      F* xyz = out_.points.data<F>();
      I* refs = out_.point_refs.data<I>();
      io::read_chunks(file_, offset, n, rec, threads_, [&](std::size_t, std::size_t c0, std::size_t rows, const char* src) {
        if (d == 2) {
          if (swap_) decode_vertices<F, I, true, 2>(src, rows, xyz + c0 * 2, refs + c0);
          else decode_vertices<F, I, false, 2>(src, rows, xyz + c0 * 2, refs + c0);
        } else {
          if (swap_) decode_vertices<F, I, true, 3>(src, rows, xyz + c0 * 3, refs + c0);
          else decode_vertices<F, I, false, 3>(src, rows, xyz + c0 * 3, refs + c0);
        }
        return true;
      });
    };
    if (rw == 4) run(float{}, std::int32_t{});
    else if (iw == 4) run(double{}, std::int32_t{});
    else run(double{}, std::int64_t{});
    out_.have_vertices = true;
  }

  void elements(const ElementKind& e, const char* at) {
    const std::size_t m = count("element count");
    const auto k = static_cast<std::size_t>(e.nodes);
    const std::size_t iw = version_ == 4 ? 8 : 4;
    cur_.need(m, (k + 1) * iw, e.keyword);
    const std::size_t offset = cur_.offset(), rec = (k + 1) * iw;
    cur_.take(m * rec, e.keyword);
    Parsed::Block b{&e, NDArray::uninit(DType::int64, {m, k}), NDArray::uninit(iw == 4 ? DType::int32 : DType::int64, {m}),
                    static_cast<std::size_t>(at - cur_.begin())};
    auto run = [&](auto i) {
      using I = decltype(i);
      std::int64_t* conn = b.connectivity.data<std::int64_t>();
      I* refs = b.refs.data<I>();
      std::vector<std::uint64_t> tops(io::chunk_ranges(m, threads_), 0);
      io::read_chunks(file_, offset, m, rec, threads_, [&](std::size_t r, std::size_t c0, std::size_t rows, const char* src) {
        const std::uint64_t top = with_nodes(k, [&](auto K) {
#ifdef MESHIOPP_AVX2_DISPATCH
          if (!swap_ && avx2_) return decode_elements_avx2<I, K()>(src, rows, conn + c0 * K(), refs + c0);
#endif
          return swap_ ? decode_elements<I, true, K()>(src, rows, conn + c0 * K(), refs + c0)
                       : decode_elements<I, false, K()>(src, rows, conn + c0 * K(), refs + c0);
        });
        tops[r] = std::max(tops[r], top);
        return true;
      });
      const std::uint64_t top = *std::max_element(tops.begin(), tops.end());
      // In range: finish() need not look again (else it finds and names the bad index).
      b.checked = out_.have_vertices && (m == 0 || top < out_.points.dim(0));
    };
    if (iw == 4) run(std::int32_t{});
    else run(std::int64_t{});
    out_.blocks.push_back(std::move(b));
  }

#ifdef MESHIOPP_AVX2_DISPATCH
  const bool avx2_ = cpu_has_avx2();
#endif
  const io::FileBytes& file_;
  io::Cursor cur_;
  std::string_view bytes_;
  std::string path_;
  unsigned threads_;
  bool swap_ = false;
  std::int32_t version_ = 0;
  Parsed out_;
};

// Little-endian values, gathered in a fixed buffer (one memcpy each) and written in 1 MiB
// pieces.
class Out {
 public:
  explicit Out(io::AtomicFile& f) : f_(f), buf_(new char[kCap]) {}
  template <class T> void put(T v) {
    if (pos_ + sizeof(T) > kCap) flush();
    if constexpr (sizeof(T) > 1)
      if (!io::host_is_little_endian()) io::byteswap_inplace(&v, 1, sizeof v);
    std::memcpy(buf_.get() + pos_, &v, sizeof v);
    pos_ += sizeof v;
  }
  // Bytes already in the file's byte order.
  void bytes(const void* p, std::size_t n) {
    flush();
    f_.write(p, n);
  }
  void flush() {
    if (pos_) f_.write(buf_.get(), pos_);
    pos_ = 0;
  }

 private:
  static constexpr std::size_t kCap = 1 << 20;
  io::AtomicFile& f_;
  std::unique_ptr<char[]> buf_;
  std::size_t pos_ = 0;
};

// Whether every value + `add` (0 or 1) fits an int32: one pass for the smallest and largest
// (no early exit, the size read once: a loop the compiler vectorises).
bool fits_int32(const NDArray& a, std::int64_t add) {
  const std::size_t n = a.size();
  if (n == 0) return true;
  const std::int64_t* p = a.data<std::int64_t>();
  std::int64_t lo = 0, hi = 0;  // 0 always fits
  for (std::size_t i = 0; i < n; ++i) lo = std::min(lo, p[i]), hi = std::max(hi, p[i]);
  return hi <= std::numeric_limits<std::int32_t>::max() - add && lo >= std::numeric_limits<std::int32_t>::min() - add;
}

template <class I>
void write_records(io::AtomicFile& file, const Mesh& mesh, const NDArray& pts, const NDArray& prefs,
                   const std::vector<const ElementKind*>& kinds, const std::vector<NDArray>& conns,
                   const std::vector<NDArray>& crefs, int version) {
  Out o(file);
  const std::size_t n = pts.dim(0), d = pts.dim(1);
  const std::int64_t kw = 4, pw = 8, iw = sizeof(I);
  std::int64_t pos = 4 * kw + pw;  // code, version, Dimension keyword, its offset, its value
  o.put<std::int32_t>(1);
  o.put<std::int32_t>(version);
  o.put<std::int32_t>(kCodeDimension);
  o.put<std::int64_t>(pos);
  o.put<std::int32_t>(static_cast<std::int32_t>(d));
  pos += kw + pw + iw + static_cast<std::int64_t>(n * (d * 8 + sizeof(I)));
  o.put<std::int32_t>(kCodeVertices);
  o.put<std::int64_t>(pos);
  o.put<I>(static_cast<I>(n));
  const double* x = pts.data<double>();
  const std::int64_t* pr = prefs.size() ? prefs.data<std::int64_t>() : nullptr;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t c = 0; c < d; ++c) o.put<double>(x[i * d + c]);
    o.put<I>(static_cast<I>(pr ? pr[i] : 1));
  }
  for (std::size_t b = 0; b < kinds.size(); ++b) {
    if (!kinds[b]) continue;
    const std::size_t m = conns[b].dim(0), k = static_cast<std::size_t>(kinds[b]->nodes);
    pos += kw + pw + iw + static_cast<std::int64_t>(m * (k + 1) * sizeof(I));
    o.put<std::int32_t>(kinds[b]->code);
    o.put<std::int64_t>(pos);
    o.put<I>(static_cast<I>(m));
    const std::int64_t* c = conns[b].data<std::int64_t>();
    const std::int64_t* r = crefs[b].size() ? crefs[b].data<std::int64_t>() : nullptr;
    // Rows converted a chunk at a time into a typed buffer (a loop the compiler vectorises).
    constexpr std::size_t kRows = 1 << 14;
    std::vector<I> rows(kRows * (k + 1));
    for (std::size_t i0 = 0; i0 < m; i0 += kRows) {
      const std::size_t n = std::min(kRows, m - i0);
      for (std::size_t i = 0; i < n; ++i) {
        I* out = rows.data() + i * (k + 1);
        const std::int64_t* in = c + (i0 + i) * k;
        for (std::size_t j = 0; j < k; ++j) out[j] = static_cast<I>(in[j] + 1);
        out[k] = static_cast<I>(r ? r[i0 + i] : 1);
      }
      if (!io::host_is_little_endian()) io::byteswap_inplace(rows.data(), n * (k + 1), sizeof(I));
      o.bytes(rows.data(), n * (k + 1) * sizeof(I));
    }
  }
  (void)mesh;
  o.put<std::int32_t>(kCodeEnd);
  o.put<std::int64_t>(0);
  o.flush();
}

}  // namespace

Mesh read_binary(const std::string& path, const io::FileBytes& file, unsigned threads) { return Reader(path, file, threads).read(); }

void write_binary(const std::string& path, const Mesh& mesh) {
  const std::size_t d = mesh.points.dim(1);
  if (d != 2 && d != 3) throw WriteError("medit: points must have 2 or 3 coordinates, found " + std::to_string(d));
  const NDArray pts = mesh.points.as_dtype(DType::float64);
  const NDArray* pr = point_refs(mesh);
  const NDArray prefs = pr ? pr->as_dtype(DType::int64) : NDArray();
  const std::vector<NDArray>* cr = cell_refs(mesh);
  bool fits = mesh.num_points() <= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()) && fits_int32(prefs, 0);
  std::vector<const ElementKind*> kinds;
  std::vector<NDArray> conns, crefs;
  io::AtomicFile file(path, "medit");
  for (std::size_t b = 0; b < mesh.cells.size(); ++b) {
    const CellBlock& block = mesh.cells[b];
    const ElementKind* e = block.ragged ? nullptr : element_by_type(block.type);  // others are left out, as meshio does
    kinds.push_back(e);
    conns.push_back(e ? block.connectivity.as_dtype(DType::int64) : NDArray());
    NDArray refs;
    if (e && cr) {
      if (b >= cr->size() || (*cr)[b].ndim() != 1 || (*cr)[b].dim(0) != block.size())
        throw WriteError("medit: cell data used as element references must have one value per cell (block " +
                         std::to_string(b) + ", " + block.type + ")");
      refs = (*cr)[b].as_dtype(DType::int64);
    }
    // Node numbers need no pass of their own: write() validated every index below the point
    // count, so 1-based they fit int32 whenever that count does (checked above).
    if (e) fits = fits && fits_int32(refs, 0) && block.size() <= 0x7fffffffu;
    crefs.push_back(refs);
  }
  if (fits) write_records<std::int32_t>(file, mesh, pts, prefs, kinds, conns, crefs, 3);
  else write_records<std::int64_t>(file, mesh, pts, prefs, kinds, conns, crefs, 4);
  file.commit();
}

}  // namespace meshioplusplus::medit
