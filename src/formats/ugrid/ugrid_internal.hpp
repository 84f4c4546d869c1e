// meshio++ UGRID: the file variants (chosen by the name, as meshio and UG_IO choose), the
// element table, and the reader / writer entry points.
// Spec: https://www.simcenter.msstate.edu/software/documentation/ug_io/3d_grid_file_type_ugrid.html
// Variants: https://www.simcenter.msstate.edu/software/documentation/ug_io/ugc_file_formats.html
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus::ugrid {

// x.ugrid is ASCII; x.<suffix>.ugrid is binary: 'b' C stream, 'r' Fortran unformatted
// (each record framed by an int32 byte count before and after it), an 'l' first for
// little-endian (else big-endian), 8 or 4 for the bytes of a real, an 'l' last for 64-bit
// integers (else 32-bit; meshio reads and writes b8l and lb8l).
struct Variant {
  std::string_view suffix;  // "" for ASCII
  bool binary = false;
  bool fortran = false;
  bool little = false;
  int real_bytes = 8;
  int int_bytes = 4;
};

inline constexpr std::array<Variant, 11> kVariants{{
    {"", false, false, false, 8, 4},
    {"b8l", true, false, false, 8, 8},
    {"b8", true, false, false, 8, 4},
    {"b4", true, false, false, 4, 4},
    {"lb8l", true, false, true, 8, 8},
    {"lb8", true, false, true, 8, 4},
    {"lb4", true, false, true, 4, 4},
    {"r8", true, true, false, 8, 4},
    {"r4", true, true, false, 4, 4},
    {"lr8", true, true, true, 8, 4},
    {"lr4", true, true, true, 4, 4},
}};

// The variant the name asks for: its next-to-last dot-separated part, when a known
// suffix (meshio's rule), else ASCII.
const Variant& variant_of(std::string_view path);

// The sections after the counts, in file order: nodes per element and meshio's type.
struct Section {
  std::string_view type;
  int nodes;
  bool surface;
};
inline constexpr std::array<Section, 6> kSections{{
    {"triangle", 3, true},
    {"quad", 4, true},
    {"tetra", 4, false},
    {"pyramid", 5, false},
    {"wedge", 6, false},
    {"hexahedron", 8, false},
}};

// UGRID's pyramid lists the base as 1 0 . . with the apex third (ug_io's node order,
// https://www.simcenter.msstate.edu/software/documentation/ug_io/3d_input_output_grids.html);
// kPyramidToVtk[j] is the file column of VTK's node j, as meshio maps it.
inline constexpr std::array<int, 5> kPyramidToVtk{1, 0, 3, 4, 2};

Mesh read_ugrid(const std::string& path, const Options& options);
void write_ugrid(const std::string& path, const Mesh& mesh, const Options& options);

}  // namespace meshioplusplus::ugrid
