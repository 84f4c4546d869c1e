// meshio++ Medit: the one keyword table shared by the ASCII and binary halves, and the entry
// points of each (medit_ascii.cpp, medit_binary.cpp, medit_common.cpp).
//
// Keyword names and codes are libMeshb's (GmfKwdFmt in sources/libmeshb7.c of
// https://github.com/LoicMarechal/libMeshb). Each element keyword maps to one meshio cell
// type; `to_vtk[j]` is the VTK-order position of the j-th node as the file lists it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/file.hpp"
#include "meshioplusplus/format.hpp"

namespace meshioplusplus::medit {

struct ElementKind {
  std::string_view keyword;  // ASCII keyword: "Tetrahedra"
  int code;                  // binary keyword code: 8
  std::string_view type;     // meshio cell type: "tetra"
  int nodes;                 // nodes per element
};

// Every element keyword read and written, linear first. Node order is VTK's for all of them
// (Medit's P2 tetrahedron lists the edge nodes 01 12 20 03 13 23, as VTK's tetra10 does).
inline constexpr std::array<ElementKind, 11> kElements{{
    {"Edges", 5, "line", 2},
    {"Triangles", 6, "triangle", 3},
    {"Quadrilaterals", 7, "quad", 4},
    {"Tetrahedra", 8, "tetra", 4},
    {"Prisms", 9, "wedge", 6},
    {"Pyramids", 49, "pyramid", 5},
    {"Hexahedra", 10, "hexahedron", 8},
    {"EdgesP2", 25, "line3", 3},
    {"TrianglesP2", 24, "triangle6", 6},
    {"QuadrilateralsQ2", 27, "quad9", 9},
    {"TetrahedraP2", 30, "tetra10", 10},
}};

inline constexpr int kCodeMeshVersionFormatted = 1;
inline constexpr int kCodeDimension = 3;
inline constexpr int kCodeVertices = 4;
inline constexpr int kCodeEnd = 54;

const ElementKind* element_by_keyword(std::string_view keyword);  // also "Hexaedra"
const ElementKind* element_by_code(std::int64_t code);
const ElementKind* element_by_type(std::string_view type);

// What both readers collect; finish() checks indices and builds the Mesh.
struct Parsed {
  int dim = 0;
  NDArray points;                 // (n, dim) float32 or float64
  NDArray point_refs;             // (n,) int32 or int64
  bool have_vertices = false;
  struct Block {
    const ElementKind* kind;
    NDArray connectivity;  // (m, k) int64, 0-based
    NDArray refs;          // (m,)
    std::size_t at;        // byte offset of the keyword (for errors)
    bool checked = false;  // every index already known to be in range
  };
  std::vector<Block> blocks;
};

// Checks every connectivity index against the vertex count (throwing ReadError at the
// keyword that holds a bad one) and builds the mesh: medit:ref point and cell data as
// meshio has them, and one cell region per (topological dimension, reference), made on
// `threads` threads.
Mesh finish(Parsed&& parsed, std::string_view path, std::string_view bytes, unsigned threads);

Mesh read_ascii(const std::string& path, std::string_view bytes, unsigned threads);
Mesh read_binary(const std::string& path, const io::FileBytes& file, unsigned threads);

// The references a writer stores: "medit:ref" when it is integer data (checked to have one
// value per point / cell), else for cells gmsh:physical, else the first integer array of one
// value per point / cell in name order, else none (every reference is then 1, as meshio).
const NDArray* point_refs(const Mesh& mesh);
const std::vector<NDArray>* cell_refs(const Mesh& mesh);

void write_ascii(const std::string& path, const Mesh& mesh, const std::string& float_fmt);
void write_binary(const std::string& path, const Mesh& mesh);

}  // namespace meshioplusplus::medit
