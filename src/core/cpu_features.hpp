// meshio++ core: which instruction sets a hot loop may use, asked of the CPU at run time.
//
// The library is built for the architecture's baseline (x86-64: SSE2), so it runs on any
// machine. On x86-64 with GCC or Clang a few hot loops (index decoding and range checks in
// core/io/decode.cpp, base64 in core/codec/base64.cpp) also have an AVX2 build, made with
// __attribute__((target("avx2"))), and take it when cpu_has_avx2() says the CPU has AVX2.
#pragma once

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MESHIOPP_AVX2_DISPATCH 1
#endif

namespace meshioplusplus {

#ifdef MESHIOPP_AVX2_DISPATCH
// Asked once per process.
bool cpu_has_avx2();
#endif

}  // namespace meshioplusplus
