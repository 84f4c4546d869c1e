// meshio++ VTK parallel XML collections (PVTU, PVTP): the logic both share, parameterized
// by the piece format and the grid type (a Kind).
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html (Parallel File
// Formats): a summary file
//
//   <VTKFile type="PUnstructuredGrid" version="1.0" byte_order=".." header_type="..">
//     <PUnstructuredGrid GhostLevel="0">
//       <PPointData> <PDataArray type="Float64" Name="T" NumberOfComponents="1"/> </PPointData>
//       <PCellData> ... </PCellData>
//       <PPoints> <PDataArray type="Float64" Name="Points" NumberOfComponents="3"/> </PPoints>
//       <Piece Source="x/x_0.vtu"/> ...      (relative to the summary file's folder)
//
// and one serial file per piece (.vtu, .vtp), read and written by the registered piece
// format (find_format(kind.piece_format)), never by a copy of it.
//
// Reading assembles one mesh with concatenate() (meshioplusplus/mesh_ops.hpp): points in
// piece order, connectivity shifted per piece, blocks the runs of one cell type across the
// pieces (as one file holding all the pieces' cells), data stacked; an array declared in
// PPointData / PCellData and missing from a piece is a ReadError naming the piece.
//
// Writing, for MPI callers too (each rank writes its own piece, rank 0 the summary; no
// mesh needed for the summary):
//   piece_source(path, k, kind)   "x/x_3.vtu" for "dir/x.pvtu": VTK's piece naming with
//                                 UseSubdirectory on (ParaView's writers), relative to dir
//   piece_path(path, k, kind)     "dir/x/x_3.vtu", the file to write piece k to (its folder
//                                 must exist: make_piece_folder(path, kind))
//   summary_of_piece(file, kind)  the array declarations of a piece file already written
//   write_summary(path, kind, s)  the summary file, atomically
#pragma once

#include <string>
#include <vector>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::vtk_collection {

struct Kind {
  const char* format;           // "pvtu"
  const char* piece_format;     // "vtu": the registered format of the pieces
  const char* grid;             // "UnstructuredGrid": the pieces' grid; the summary's is "P" + grid
  const char* piece_extension;  // ".vtu"
};

// One PDataArray: the attributes of a DataArray as the piece files hold it.
struct ArrayDecl {
  std::string name;
  std::string type;  // VTK type name: "Float64", "Int32", ...
  std::size_t components = 1;
  bool operator==(const ArrayDecl&) const = default;
};

struct Summary {
  std::string byte_order = "LittleEndian";
  std::string header_type;  // "UInt32" / "UInt64"; "" leaves the attribute out
  std::string compressor;   // "vtkZLibDataCompressor", ...; "" leaves it out
  ArrayDecl points{"Points", "Float64", 3};
  std::vector<ArrayDecl> point_data, cell_data;
  std::vector<std::string> sources;  // Piece Source=, relative to the summary's folder
};

std::string piece_source(const std::string& path, std::size_t k, const Kind& kind);
std::string piece_path(const std::string& path, std::size_t k, const Kind& kind);
// Creates the pieces' folder ("dir/x" for "dir/x.pvtu"); WriteError naming it on failure.
void make_piece_folder(const std::string& path, const Kind& kind);
// The declarations (points, point and cell data, byte order, header type, compressor) of
// a piece file; `sources` is left empty. ReadError if it is not a `kind.grid` file.
Summary summary_of_piece(const std::string& piece_file, const Kind& kind);
// Writes `summary` to `path` atomically (an existing file is untouched on failure).
void write_summary(const std::string& path, const Kind& kind, const Summary& summary);

// For MPI readers: the number of <Piece>s the summary names, and the mesh of pieces
// [first, last) (last past the end: to the end) joined as read() joins them; every option
// goes to the piece reader. std::invalid_argument when the range holds no piece.
std::size_t piece_count(const std::string& path, const Kind& kind);
Mesh read_range(const std::string& path, const Options& piece_options, const Kind& kind, std::size_t first, std::size_t last);

// The Format entry points of pvtu / pvtp. Read option `piece=<k>`: piece k alone (0-based);
// every other option goes to the piece reader. Write options all go to the piece writer.
Mesh read(const std::string& path, const Options& options, const Kind& kind);
void write(const std::string& path, const Mesh& mesh, const Options& options, const Kind& kind);
void write_pieces(const std::string& path, const std::vector<Mesh>& pieces, const Options& options, const Kind& kind);

// The Format value of the collection `K` (a Kind with static storage): name K.format,
// extension "." + K.format, the three entry points above bound to K.
template <const Kind& K> Format collection_format() {
  return Format{K.format, {std::string(".") + K.format},
                [](const std::string& path, const Options& options) { return read(path, options, K); },
                [](const std::string& path, const Mesh& mesh, const Options& options) { write(path, mesh, options, K); },
                /*claims=*/nullptr,
                [](const std::string& path, const std::vector<Mesh>& pieces, const Options& options) {
                  write_pieces(path, pieces, options, K);
                }};
}

}  // namespace meshioplusplus::vtk_collection
