// meshio++ HMF: the format's registration value (reader in hmf_read.cpp, writer in
// hmf_write.cpp). Spec: https://github.com/nschloe/meshio/blob/v5.0.0/src/meshio/hmf/_hmf.py
#include "formats/hmf/hmf.hpp"

#include "formats/hmf/hmf_internal.hpp"

namespace meshioplusplus {

Format hmf_format() { return Format{"hmf", {".hmf"}, &hmf::read_hmf, &hmf::write_hmf}; }

}  // namespace meshioplusplus
