// meshio++ core I/O: the AVX2 builds of decode.hpp's hot loops and their run-time choice.
#include "core/io/decode.hpp"

namespace meshioplusplus::io {

#ifdef MESHIOPP_AVX2_DISPATCH
namespace {
__attribute__((target("avx2"))) std::uint64_t largest_int64_avx2(const std::int64_t* v, std::size_t n) {
  return largest_as_unsigned<std::int64_t>(v, n);
}

template <class I>
__attribute__((target("avx2"))) std::uint64_t decode_avx2(std::int64_t* out, const char* src, std::size_t n, bool swap, std::int64_t base) {
  return swap ? decode_indices_as<I, true>(out, src, n, base) : decode_indices_as<I, false>(out, src, n, base);
}
}  // namespace

std::uint64_t decode_int32_indices_avx2(std::int64_t* out, const char* src, std::size_t n, bool swap, std::int64_t base) {
  return decode_avx2<std::int32_t>(out, src, n, swap, base);
}
std::uint64_t decode_int64_indices_avx2(std::int64_t* out, const char* src, std::size_t n, bool swap, std::int64_t base) {
  return decode_avx2<std::int64_t>(out, src, n, swap, base);
}
#endif

std::uint64_t largest_as_unsigned(const std::int64_t* v, std::size_t n) {
#ifdef MESHIOPP_AVX2_DISPATCH
  if (cpu_has_avx2()) return largest_int64_avx2(v, n);
#endif
  return largest_as_unsigned<std::int64_t>(v, n);
}

}  // namespace meshioplusplus::io
