// meshio++ formats: Gmsh MSH (versions 2.2, 4.0, 4.1; ASCII and binary).
// Spec: https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "meshioplusplus/format.hpp"

namespace meshioplusplus {

Format gmsh_format();

namespace gmsh {

// What a partitioned MSH 4.1 file (`gmsh -part N [-part_split]`) says about ownership, for
// the MPI reader (src/mpi/): the serial read ignores it.
struct PartitionInfo {
  // $PartitionedEntities: (dim, tag) -> the partitions the entity belongs to.
  std::map<std::pair<int, int>, std::vector<int>> entity_partitions;
  // $GhostElements: element tag -> the partition that owns the element.
  std::map<std::uint64_t, int> ghost_owner;
  // Global tags: of each point (the mesh's order), of each cell (block-major).
  std::vector<std::uint64_t> node_tags, element_tags;
};

// Reads a Gmsh file as the "gmsh" format does, and fills `info` (any version; 2.2 and 4.0
// have no partition sections: only the tags are filled).
Mesh read_with_partitions(const std::string& path, const Options& options, PartitionInfo& info);

}  // namespace gmsh

}  // namespace meshioplusplus
