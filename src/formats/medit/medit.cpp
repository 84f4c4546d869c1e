// meshio++ Medit: the format's registration value, the read/write dispatch between the ASCII
// (.mesh) and binary (.meshb) halves, and the keyword table lookups.
// Spec: https://github.com/LoicMarechal/libMeshb. User documentation: docs/formats/medit.md.
//
// A read tells the two apart by the first four bytes (a binary file starts with the int32
// 1 in its own byte order), so a misnamed file still reads; a write chooses by the name, as
// meshio does: a path ending in 'b' is binary.
#include "formats/medit/medit.hpp"

#include <cstring>

#include "core/io/file.hpp"
#include "formats/medit/medit_internal.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus {

namespace medit {

const ElementKind* element_by_keyword(std::string_view keyword) {
  if (keyword == "Hexaedra") keyword = "Hexahedra";  // Dobrzynski's spelling (meshio reads it)
  for (const auto& e : kElements)
    if (e.keyword == keyword) return &e;
  return nullptr;
}

const ElementKind* element_by_code(std::int64_t code) {
  for (const auto& e : kElements)
    if (e.code == code) return &e;
  return nullptr;
}

const ElementKind* element_by_type(std::string_view type) {
  for (const auto& e : kElements)
    if (e.type == type) return &e;
  return nullptr;
}

namespace {

bool looks_binary(const io::FileBytes& file) {
  if (file.size() < 4) return false;
  static const char le[4] = {1, 0, 0, 0}, be[4] = {0, 0, 0, 1};
  const char* head = file.bytes_at(0, 4);
  return std::memcmp(head, le, 4) == 0 || std::memcmp(head, be, 4) == 0;
}

Mesh read(const std::string& path, const Options& options) {
  OptionReader opts(options, "medit");
  opts.finish();
  // Binary files are read with pread, never through the mapping (their sections with
  // io::read_chunks, the fields between them with Cursor::load_through); text in place,
  // every page mapped at once.
  io::FileBytes file(path, "medit", /*populate=*/false);
  if (looks_binary(file)) return read_binary(path, file, opts.threads());
  file.populate();
  return read_ascii(path, file.text(), opts.threads());
}

void write(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "medit");
  const std::string float_fmt = opts.get_string("float_fmt", ".16e");
  opts.finish();
  // Blocks without a Medit keyword are left out, as meshio leaves them out, with a warning.
  for (const auto& block : mesh.cells)
    if (block.ragged || !element_by_type(block.type))
      warn("medit: cell type '" + block.type + "' has no Medit keyword; skipping " + std::to_string(block.size()) +
           " cells");
  if (!path.empty() && path.back() == 'b') write_binary(path, mesh);
  else write_ascii(path, mesh, float_fmt);
}

}  // namespace

}  // namespace medit

Format medit_format() { return Format{"medit", {".mesh", ".meshb"}, &medit::read, &medit::write}; }

}  // namespace meshioplusplus
