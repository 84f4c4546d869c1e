// meshio++ MED: declarations shared by the reader and the writer (see med.hpp).
// Spec: https://docs.salome-platform.org/latest/dev/MEDCoupling/developer/med-file.html
// The HDF5 layout (MED-fichier 3.0 .. 4.1, what libmed and meshio write):
//   /INFOS_GENERALES            attributes MAJ, MIN, REL (the MED version)
//   /ENS_MAA/<mesh>             attributes DIM, ESP (space dimension), NOM, UNI, ...
//     <dt><it>/                 one computation step, "%020d%020d" of its numbers
//       NOE/COO                 coordinates, (NBR * ESP,) column-major (all x, then all y)
//       NOE/FAM                 node family numbers (0: none)
//       MAI/<type>/NOD          connectivity of one geometric type ("TR3"), (NBR * k,)
//                               column-major, 1-based; MAI/<type>/FAM cell family numbers
//   /FAS/<mesh>/NOEUD|ELEME/<family>   attribute NUM (the family number), GRO/NOM:
//                               (NBR,) groups, each an array of 80 signed chars
//   /CHA/<field>                attributes MAI (its mesh), TYP, NCO, NOM (component names)
//     <dt><it>/                 one step, attributes NDT, NOR, PDT (its time)
//       NOE | MAI.<type> | NOE.<type>   (node / cell / cell-node values) attribute PFL
//         <profile>/CO          values (NBR * NGA * NCO,) column-major; attributes NBR, NGA
//   /PROFILS/<profile>/PFL      1-based indices of the entities a profile holds
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "meshioplusplus/format.hpp"
#include "meshioplusplus/mesh.hpp"

#include "core/io/hdf5.hpp"

namespace meshioplusplus::med {

Mesh read_med(const std::string& path, const Options& options);
void write_med(const std::string& path, const Mesh& mesh, const Options& options);

// meshio's cell types and MED's names for them (MED-fichier's med_geometry_type; node order
// as the file holds it, as meshio reads and writes it).
std::optional<std::string_view> med_type_name(std::string_view meshio_type);
std::optional<std::string_view> meshio_type_name(std::string_view med_type);

inline constexpr std::size_t kGroupNameSize = 80;  // MED_LNAME_SIZE: a group name
inline constexpr std::size_t kNameSize = 64;       // MED_NAME_SIZE: mesh, field, family names
inline constexpr const char* kNoProfile = "MED_NO_PROFILE_INTERNAL";

// Column-major (Fortran order) values of shape (rows, a, b) as a row-major (rows, a * b)
// array of `dtype`; and back: a row-major array of rows of a * b values flattened, as
// `dtype`, as numpy's flatten(order="F") of its (rows, a, b) shape. b = 1 for (rows, a)
// arrays. Integer outputs are shifted in the same pass: from_columns subtracts `shift`,
// to_columns adds it (MED's 1-based node numbers). from_columns of one column shares the
// input's buffer; (rows, a) arrays are converted on `threads` threads.
NDArray from_columns(const NDArray& flat, std::size_t rows, std::size_t a, std::size_t b, DType dtype, std::int64_t shift = 0,
                     unsigned threads = 1);
NDArray to_columns(const NDArray& rows, std::size_t a, std::size_t b, DType dtype, std::int64_t shift = 0);

// MED's connectivity: a column-major (m, k) array of 1-based node numbers (any integer
// type) as row-major 0-based int64 (m, k), on `threads` threads in one pass; first_bad is
// the row-major index of the first node (of the lowest cell) outside 1..num_points, if any.
struct NodeRows {
  NDArray nodes;
  std::optional<std::size_t> first_bad;
};
NodeRows node_rows_from_columns(const NDArray& flat, std::size_t m, std::size_t k, std::size_t num_points, unsigned threads);
#ifdef MESHIOPP_HAVE_HDF5
// The same from the dataset itself, read a piece of rows at a time (no array of the whole
// dataset beside the result): for datasets io::hdf5::DatasetPieces reads in pieces.
NodeRows node_rows_in_pieces(const io::hdf5::DatasetPieces& data, std::size_t m, std::size_t k, std::size_t num_points,
                             unsigned threads);
#endif

#ifdef MESHIOPP_HAVE_HDF5
// A family's group names: dataset `path` of (n,) arrays of 80 chars (NUL-padded), as
// meshio strips them (surrounding white space, then trailing NULs). `file_bytes` bounds n.
std::vector<std::string> read_group_names(const io::hdf5::Context& ctx, hid_t file, const std::string& path,
                                          std::size_t file_bytes);
void write_group_names(const io::hdf5::Context& ctx, hid_t loc, const std::string& name,
                       const std::vector<std::string>& names);
#endif

}  // namespace meshioplusplus::med
