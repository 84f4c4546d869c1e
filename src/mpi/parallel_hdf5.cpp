// meshio++ MPI: the pieces the collective HDF5 layouts share (see parallel_hdf5.hpp).
// Spec: https://docs.hdfgroup.org/hdf5/v1_10/ (H5Pset_fapl_mpio, H5Pset_dxpl_mpio).
#include <mpi.h>

#include "mpi/mpi_internal.hpp"

#ifdef MESHIOPP_HAVE_PARALLEL_HDF5

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <set>

#include "meshioplusplus/errors.hpp"
#include "mpi/parallel_hdf5.hpp"

namespace meshioplusplus::mpi_detail {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kWindowBytes = std::size_t(4) << 20;

// Writing: metadata written collectively (every rank creates every object anyway).
// Reading: metadata read by each rank itself, so that a rank which stops at a corrupt
// dataset leaves none waiting in a collective metadata read.
h5::Handle mpio_access(const h5::Context& ctx, MPI_Comm comm, bool writing) {
  h5::Session session;
  h5::Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (!fapl || H5Pset_fapl_mpio(fapl.get(), comm, MPI_INFO_NULL) < 0 ||
      H5Pset_all_coll_metadata_ops(fapl.get(), writing) < 0 || H5Pset_coll_metadata_write(fapl.get(), writing) < 0)
    h5::fail(ctx, "cannot set up MPI-IO file access");
  return fapl;
}

void put_array(std::string& out, const std::string& name, const NDArray& a, bool whole) {
  put(out, name);
  put(out, std::to_string(static_cast<int>(a.dtype())));
  const NDArray::Shape& s = a.shape();
  put(out, std::to_string(s.size() - (whole ? 0 : 1)));
  for (std::size_t i = whole ? 0 : 1; i < s.size(); ++i) put(out, std::to_string(s[i]));
}

Declared::Array take_array(std::string_view& in) {
  Declared::Array a;
  a.name = take(in);
  a.dtype = static_cast<DType>(std::stoi(take(in)));
  const std::size_t dims = std::stoull(take(in));
  for (std::size_t k = 0; k < dims; ++k) a.trailing.push_back(std::stoull(take(in)));
  return a;
}

std::string describe(DType dtype, const NDArray::Shape& trailing) {
  std::string s(dtype_name(dtype));
  for (std::size_t n : trailing) s += " x " + std::to_string(n);
  return s;
}

NDArray::Shape trailing_of(const NDArray& a) { return NDArray::Shape(a.shape().begin() + 1, a.shape().end()); }

// Rows `ids` (sorted, unique) of dataset `name`, read in windows of nearby rows with
// independent transfers: no rank holds more than its rows and one window.
NDArray gather_rows(const h5::Context& ctx, hid_t loc, const std::string& name, const std::vector<std::int64_t>& ids,
                    std::size_t file_bytes) {
  const NDArray::Shape shape = h5::dataset_shape(ctx, loc, name);
  NDArray::Shape out_shape = shape;
  out_shape[0] = ids.size();
  const NDArray probe = h5::read_rows(ctx, loc, name, 0, 0, file_bytes);
  NDArray out = NDArray::uninit(probe.dtype(), out_shape);
  std::size_t row_bytes = dtype_size(probe.dtype());
  for (std::size_t d = 1; d < shape.size(); ++d) row_bytes *= shape[d];
  const std::uint64_t window_rows = std::max<std::uint64_t>(1, kWindowBytes / std::max<std::size_t>(row_bytes, 1));
  auto* dst = static_cast<unsigned char*>(out.raw());
  std::size_t i = 0;
  while (i < ids.size()) {
    const auto first = static_cast<std::uint64_t>(ids[i]);
    std::size_t j = i;
    while (j + 1 < ids.size() && static_cast<std::uint64_t>(ids[j + 1]) - first < window_rows) ++j;
    const NDArray window = h5::read_rows(ctx, loc, name, first, static_cast<std::uint64_t>(ids[j]) - first + 1, file_bytes);
    const auto* src = static_cast<const unsigned char*>(window.raw());
    for (std::size_t k = i; k <= j; ++k, dst += row_bytes)
      std::memcpy(dst, src + (static_cast<std::uint64_t>(ids[k]) - first) * row_bytes, row_bytes);
    i = j + 1;
  }
  return out;
}

}  // namespace

Ownership settle_owners(MPI_Comm comm, const std::vector<std::int64_t>& used, std::uint64_t n) {
  const Ranks ranks(comm);
  const auto size = static_cast<std::size_t>(ranks.size);
  if (size == 1) {  // one rank owns what it uses and adopts the rest: nothing to exchange
    Ownership out;
    out.owner.assign(used.size(), 0);
    std::size_t i = 0;
    for (std::uint64_t g = 0; g < n; ++g) {
      if (i < used.size() && static_cast<std::uint64_t>(used[i]) == g) ++i;
      else out.adopted.push_back(static_cast<std::int64_t>(g));
    }
    return out;
  }
  std::vector<int> send_counts(size, 0), recv_counts(size, 0);
  // `used` is sorted: each home's ids are one run of it, cut where the shares
  // [h*n/R, (h+1)*n/R) end (Ranks::range, as the homes compute their own share).
  std::size_t i = 0;
  for (std::size_t h = 0; h < size; ++h) {
    const std::size_t first = i;
    const std::uint64_t end = Ranks::share(h, size, n).second;
    while (i < used.size() && static_cast<std::uint64_t>(used[i]) < end) ++i;
    send_counts[h] = static_cast<int>(i - first);
  }
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm);
  std::vector<int> send_displs(size, 0), recv_displs(size, 0);
  std::exclusive_scan(send_counts.begin(), send_counts.end(), send_displs.begin(), 0);
  std::exclusive_scan(recv_counts.begin(), recv_counts.end(), recv_displs.begin(), 0);
  const auto received = static_cast<std::size_t>(recv_displs.back() + recv_counts.back());
  std::vector<std::int64_t> asked(received);
  MPI_Alltoallv(used.data(), send_counts.data(), send_displs.data(), MPI_INT64_T, asked.data(), recv_counts.data(),
                recv_displs.data(), MPI_INT64_T, comm);
  // The lowest asking rank owns a point: the senders' runs arrive in rank order.
  const auto share = ranks.range(n);
  std::vector<int> owner_of(share.second - share.first, -1);
  for (std::size_t r = 0; r < size; ++r)
    for (int k = recv_displs[r]; k < recv_displs[r] + recv_counts[r]; ++k) {
      int& o = owner_of[static_cast<std::size_t>(asked[static_cast<std::size_t>(k)]) - share.first];
      if (o < 0) o = static_cast<int>(r);
    }
  std::vector<int> answers(received);
  for (std::size_t k = 0; k < received; ++k) answers[k] = owner_of[static_cast<std::size_t>(asked[k]) - share.first];
  Ownership out;
  out.owner.resize(used.size());
  MPI_Alltoallv(answers.data(), recv_counts.data(), recv_displs.data(), MPI_INT, out.owner.data(), send_counts.data(),
                send_displs.data(), MPI_INT, comm);
  for (std::size_t k = 0; k < owner_of.size(); ++k)
    if (owner_of[k] < 0) out.adopted.push_back(static_cast<std::int64_t>(share.first + k));
  return out;
}

h5::Handle create_collective(const h5::Context& ctx, MPI_Comm comm, const std::string& file) {
  const h5::Handle access = mpio_access(ctx, comm, true);
  return h5::create_file(ctx, file, access.get());
}

h5::Handle open_collective(const h5::Context& ctx, MPI_Comm comm) {
  const h5::Handle access = mpio_access(ctx, comm, false);
  return h5::open_file(ctx, access.get());
}

h5::Handle transfer(const h5::Context& ctx, bool collective) {
  h5::Session session;
  h5::Handle dxpl(H5Pcreate(H5P_DATASET_XFER), H5Pclose);
  if (!dxpl || H5Pset_dxpl_mpio(dxpl.get(), collective ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT) < 0)
    h5::fail(ctx, "cannot set up an MPI-IO transfer");
  return dxpl;
}

std::string temporary_name(MPI_Comm comm, const std::string& path) {
  std::string name;
  if (Ranks(comm).rank == 0) {
    std::random_device device;
    name = path + ".part-" + std::to_string(device()) + std::to_string(device());
  }
  unsigned long long length = name.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  name.resize(length);
  MPI_Bcast(name.data(), static_cast<int>(length), MPI_CHAR, 0, comm);
  return name;
}

void put_in_place(MPI_Comm comm, const std::string& temporary, const std::string& path, const std::string& format) {
  all_or_none<WriteError>(comm, [&] {
    if (Ranks(comm).rank != 0) return;
    std::error_code ec;
    fs::rename(temporary, path, ec);
    if (ec) {
      fs::remove(temporary, ec);
      throw write_error(format, path, "cannot put the written file in place: " + ec.message());
    }
  });
}

Declared agree(MPI_Comm comm, bool empty, const NDArray& points, const std::map<std::string, NDArray>& point_data,
               const std::map<std::string, NDArray>& cell_rows, const std::map<std::string, NDArray>& field_data,
               const std::string& layout) {
  const Ranks ranks(comm);
  int reference = empty ? ranks.size : ranks.rank;
  MPI_Allreduce(MPI_IN_PLACE, &reference, 1, MPI_INT, MPI_MIN, comm);
  const bool all_empty = reference == ranks.size;
  if (all_empty) reference = 0;
  std::string text;
  if (ranks.rank == reference) {
    put_array(text, "", points, false);
    put(text, layout);
    for (const auto* list : {&point_data, &cell_rows}) {
      put(text, std::to_string(list->size()));
      for (const auto& [name, a] : *list) put_array(text, name, a, false);
    }
    put(text, std::to_string(field_data.size()));
    for (const auto& [name, a] : field_data) put_array(text, name, a, true);
  }
  unsigned long long length = text.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, reference, comm);
  text.resize(length);
  MPI_Bcast(text.data(), static_cast<int>(length), MPI_CHAR, reference, comm);
  Declared d;
  std::string_view in(text);
  d.points = take_array(in);
  d.layout = take(in);
  for (auto* list : {&d.point_data, &d.cell_data, &d.field_data}) {
    const std::size_t n = std::stoull(take(in));
    for (std::size_t i = 0; i < n; ++i) list->push_back(take_array(in));
  }
  d.reference = reference;
  d.all_empty = all_empty;
  // Points of one dtype in the file: float64 unless every rank holding points has the same.
  int mixed = !empty && points.dtype() != d.points.dtype;
  MPI_Allreduce(MPI_IN_PLACE, &mixed, 1, MPI_INT, MPI_MAX, comm);
  if (mixed) d.points.dtype = DType::float64;
  return d;
}

NDArray no_rows(DType dtype, const NDArray::Shape& trailing) {
  NDArray::Shape s{0};
  s.insert(s.end(), trailing.begin(), trailing.end());
  return NDArray::zeros(dtype, s);
}

void conform(const std::string& format, const std::string& path, std::map<std::string, NDArray>& arrays,
             const std::vector<Declared::Array>& declared, bool empty, const char* kind, int rank, int reference) {
  if (empty) {
    arrays.clear();
    for (const auto& d : declared) arrays[d.name] = no_rows(d.dtype, d.trailing);
    return;
  }
  const std::string same = ": every rank must write the same arrays";
  std::set<std::string> names;
  for (const auto& d : declared) {
    names.insert(d.name);
    auto it = arrays.find(d.name);
    const std::string theirs = "rank " + std::to_string(reference) + " holds " + describe(d.dtype, d.trailing);
    if (it == arrays.end())
      throw write_error(format, path, std::string(kind) + " '" + d.name + "': " + theirs + ", rank " + std::to_string(rank) +
                                          " has no such array" + same);
    if (it->second.dtype() != d.dtype || trailing_of(it->second) != d.trailing)
      throw write_error(format, path, std::string(kind) + " '" + d.name + "': " + theirs + ", rank " + std::to_string(rank) +
                                          " " + describe(it->second.dtype(), trailing_of(it->second)) + same);
  }
  for (const auto& [name, a] : arrays)
    if (!names.count(name))
      throw write_error(format, path, std::string(kind) + " '" + name + "' is on rank " + std::to_string(rank) +
                                          " but not on rank " + std::to_string(reference) + same);
}

void expect_shape(const h5::Context& ctx, hid_t loc, const std::string& name, std::uint64_t rows, std::size_t columns,
                  const char* what_rows) {
  const NDArray::Shape shape = h5::dataset_shape(ctx, loc, name);
  const bool ok = columns ? shape.size() == 2 && shape[0] == rows && shape[1] == columns
                          : !shape.empty() && shape[0] == rows;
  if (!ok)
    throw read_error(ctx.format, ctx.path,
                     "dataset " + name + ": " +
                         expected_found(std::to_string(rows) + " rows" + (columns ? " of " + std::to_string(columns) + " values" : "") +
                                            " (" + what_rows + ")",
                                        h5::shape_text(shape)));
}

std::vector<std::int64_t> to_local_points(const std::vector<std::pair<std::int64_t*, std::size_t>>& ids) {
  std::size_t count = 0;
  std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = -1;
  for (const auto& [p, n] : ids) {
    count += n;
    for (std::size_t i = 0; i < n; ++i) lo = std::min(lo, p[i]), hi = std::max(hi, p[i]);
  }
  std::vector<std::int64_t> used;
  if (count == 0) return used;
  const auto range = static_cast<std::uint64_t>(hi - lo) + 1;
  if (range <= count) {
    std::vector<std::int64_t> local(range, -1);
    for (const auto& [p, n] : ids)
      for (std::size_t i = 0; i < n; ++i) local[static_cast<std::size_t>(p[i] - lo)] = 0;
    for (std::size_t k = 0; k < range; ++k)
      if (local[k] == 0) {
        local[k] = static_cast<std::int64_t>(used.size());
        used.push_back(lo + static_cast<std::int64_t>(k));
      }
    for (const auto& [p, n] : ids)
      for (std::size_t i = 0; i < n; ++i) p[i] = local[static_cast<std::size_t>(p[i] - lo)];
    return used;
  }
  used.reserve(count);
  for (const auto& [p, n] : ids) used.insert(used.end(), p, p + n);
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  for (const auto& [p, n] : ids)
    for (std::size_t i = 0; i < n; ++i) p[i] = std::lower_bound(used.begin(), used.end(), p[i]) - used.begin();
  return used;
}

std::vector<std::int64_t> read_points_of_cells(MPI_Comm comm, const h5::Context& ctx, std::size_t file_bytes,
                                               std::uint64_t total, const std::vector<std::int64_t>& used,
                                               const PointRows& points, const std::vector<PointRows>& data, Mesh& mesh) {
  const Ranks ranks(comm);
  const Ownership ownership = settle_owners(comm, used, total);
  std::vector<std::int64_t> rows = used;
  rows.insert(rows.end(), ownership.adopted.begin(), ownership.adopted.end());
  all_or_none<ReadError>(comm, [&] {
    mesh.points = gather_rows(ctx, points.loc, points.dataset, rows, file_bytes);
    for (const PointRows& d : data) mesh.point_data[d.name] = gather_rows(ctx, d.loc, d.dataset, rows, file_bytes);
    NDArray ghost = NDArray::zeros(DType::uint8, {rows.size()});
    auto* g = ghost.data<std::uint8_t>();
    for (std::size_t i = 0; i < used.size(); ++i)
      if (ownership.owner[i] != ranks.rank) g[i] = kDuplicatePoint;
    if (auto it = mesh.point_data.find(kGhostType); it != mesh.point_data.end()) {  // the file's own marks stay
      const NDArray marks = it->second.as_dtype(DType::uint8);
      for (std::size_t i = 0; i < rows.size(); ++i) g[i] = std::max(g[i], marks.data<const std::uint8_t>()[i]);
    }
    mesh.point_data[kGhostType] = ghost;
    if (!mesh.point_data.count(kGlobalPointIds)) mesh.point_data[kGlobalPointIds] = NDArray::from_vector(rows);
  });
  return rows;
}

}  // namespace meshioplusplus::mpi_detail

#endif  // MESHIOPP_HAVE_PARALLEL_HDF5
