// meshio++ core: run-time CPU features (see cpu_features.hpp).
#include "core/cpu_features.hpp"

namespace meshioplusplus {

#ifdef MESHIOPP_AVX2_DISPATCH
bool cpu_has_avx2() {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
}
#endif

}  // namespace meshioplusplus
