// meshio++ MPI: what the layouts of src/mpi/ share (docs/parallel.md): the rank helpers,
// all_or_none (a failure on one rank raised on all), the global numbering and ghost
// markers every local mesh gets (finish_local), length-prefixed strings for the small
// declarations ranks exchange, and the collective HDF5 layouts (hdf5_layouts.cpp).
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <numeric>
#include <string>
#include <string_view>
#include <utility>

#include "meshioplusplus/mesh.hpp"
#include "meshioplusplus/mpi.hpp"

namespace meshioplusplus::mpi_detail {

struct Ranks {
  int rank = 0, size = 1;
  explicit Ranks(MPI_Comm comm) {
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
  }
  // The contiguous range of `n` pieces rank r owns: [r*n/size, (r+1)*n/size).
  std::pair<std::uint64_t, std::uint64_t> range(std::uint64_t n) const {
    return share(static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(size), n);
  }
  static std::pair<std::uint64_t, std::uint64_t> share(std::uint64_t r, std::uint64_t ranks, std::uint64_t n) {
    using wide = unsigned __int128;  // r * n overflows 64 bits past 2^64 / ranks items
    return {static_cast<std::uint64_t>(static_cast<wide>(r) * n / ranks), static_cast<std::uint64_t>(static_cast<wide>(r + 1) * n / ranks)};
  }
};

// Runs `f` on this rank; when it threw on any rank, every rank throws: a failing rank its
// own exception, the others an `Error` naming the first failing rank and its message. One
// Allreduce, plus one Bcast when something failed.
template <class Error, class F>
void all_or_none(MPI_Comm comm, F&& f) {
  const Ranks ranks(comm);
  std::exception_ptr error;
  std::string message;
  try {
    f();
  } catch (const std::exception& e) {
    error = std::current_exception();
    message = e.what();
  } catch (...) {
    error = std::current_exception();
    message = "unknown error";
  }
  int first = error ? ranks.rank : ranks.size;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == ranks.size) return;
  unsigned long long length = message.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, first, comm);
  message.resize(length);
  MPI_Bcast(message.data(), static_cast<int>(length), MPI_CHAR, first, comm);
  if (error) std::rethrow_exception(error);
  throw Error("failed on rank " + std::to_string(first) + " of " + std::to_string(ranks.size) + ": " + message);
}

inline std::int64_t sum(MPI_Comm comm, std::int64_t v) {
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT64_T, MPI_SUM, comm);
  return v;
}

// The sum of `v` over the ranks before this one (0 on rank 0).
inline std::int64_t prefix(MPI_Comm comm, std::int64_t v) {
  std::int64_t out = 0;
  MPI_Exscan(&v, &out, 1, MPI_INT64_T, MPI_SUM, comm);
  if (Ranks(comm).rank == 0) out = 0;  // MPI_Exscan leaves rank 0's result undefined
  return out;
}

inline NDArray iota(std::size_t n, std::int64_t first) {
  NDArray a = NDArray::uninit(DType::int64, {n});
  std::iota(a.data<std::int64_t>(), a.data<std::int64_t>() + n, first);
  return a;
}

inline std::int64_t count_owned(const NDArray& ghost) {
  const auto* g = ghost.data<std::uint8_t>();
  return static_cast<std::int64_t>(std::count(g, g + ghost.size(), std::uint8_t{0}));
}

inline Mesh empty_mesh() {
  Mesh m;
  m.points = NDArray::zeros(DType::float64, {0, 3});
  return m;
}

// Global ids (the pieces' own, else numbered from `point_base` / `cell_base`), ghost
// markers (the pieces' own, else none) and the global counts, on every rank.
void finish_local(MPI_Comm comm, Mesh& m, std::int64_t num_partitions, bool number_points, bool number_cells);

// Length-prefixed fields: the declarations of a piece, compared and sent as one string.
inline void put(std::string& out, std::string_view s) { out.append(std::to_string(s.size())).append(":").append(s); }
inline std::string take(std::string_view& in) {
  const std::size_t colon = in.find(':');
  const std::size_t n = std::stoull(std::string(in.substr(0, colon)));
  std::string s(in.substr(colon + 1, n));
  in.remove_prefix(colon + 1 + n);
  return s;
}
// Layouts 3 and 4: VTKHDF (vtkhdf_layout.cpp) and XDMF + HDF5 (xdmf_layout.cpp), one file
// written and read collectively through parallel HDF5 (only in a build with parallel HDF5,
// MESHIOPP_HAVE_PARALLEL_HDF5).
Mesh read_vtkhdf(const std::string& path, MPI_Comm comm, const Options& options);
void write_vtkhdf(const std::string& path, const Mesh& mesh, MPI_Comm comm, const Options& options);
Mesh read_xdmf(const std::string& path, MPI_Comm comm, const Options& options);
void write_xdmf(const std::string& path, const Mesh& mesh, MPI_Comm comm, const Options& options);

}  // namespace meshioplusplus::mpi_detail
