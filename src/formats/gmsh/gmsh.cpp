// meshio++ formats, Gmsh MSH: the dispatcher. Reads $MeshFormat (after any leading
// $Comments), checks the binary byte-order marker, and hands the rest of the file to the
// reader of its version; writes 2.2, 4.0 or 4.1 as the `fmt_version` keyword asks.
// Spec: https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format
//
//   $MeshFormat
//   version(ASCII double) file-type(ASCII int; 0 ASCII, 1 binary) data-size(ASCII int)
//   < int with value one; only in binary mode, to detect endianness >
//   $EndMeshFormat
#include "formats/gmsh/gmsh.hpp"

#include "core/io/file.hpp"
#include "formats/gmsh/gmsh_common.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus {

namespace {

Mesh read_gmsh_into(const std::string& path, const Options& options, gmsh::PartitionInfo* partitions) {
  OptionReader opts(options, "gmsh");
  opts.finish();
  // Mapped without its pages: binary files take their large sections with pread
  // (gmsh4_read.cpp, gmsh22.cpp); ASCII ones are parsed through the mapping, populated first.
  io::FileBytes file(path, gmsh::kFormat, /*populate=*/false);
  gmsh::Input in(file.text(), path, opts.threads());
  in.file = &file;
  auto& cur = in.cur;
  for (;;) {
    cur.skip_space();
    const char* at = cur.ptr();
    const std::string_view header = io::Cursor::trim(cur.line());
    if (header == "$MeshFormat") break;
    if (header != "$Comments") cur.fail_expected("$MeshFormat", at);
    in.skip_section("Comments");
  }
  cur.skip_space();
  const char* at = cur.ptr();
  const std::string_view version = cur.token();
  const int file_type = cur.number<int>("file-type (0 or 1)");
  const int data_size = cur.number<int>("data-size");
  if (file_type != 0 && file_type != 1) cur.fail_at("file-type 0 (ASCII) or 1 (binary), found " + std::to_string(file_type), at);
  Mesh (*reader)(gmsh::ReadState&) = nullptr;
  // Gmsh writes "4" for 4.0 and "2" / "2.2" for the legacy format.
  if (version == "2.2" || version == "2" || version == "2.0" || version == "2.1") reader = gmsh::read22;
  else if (version == "4" || version == "4.0") reader = gmsh::read40;
  else if (version == "4.1") reader = gmsh::read41;
  else cur.fail_at(expected_found("MSH version 2.2, 4.0 or 4.1", version), at);
  if (reader == gmsh::read22 ? data_size != 8 : (data_size != 4 && data_size != 8))
    cur.fail_at("unsupported data-size " + std::to_string(data_size), at);
  in.binary = file_type == 1;
  in.size_bytes = data_size;
  if (!in.binary) file.populate();
  if (in.binary) {
    cur.line();  // the rest of the version line
    const char* p = cur.take(4, "endianness marker");
    if (io::load<std::uint32_t>(p, true) == 1) cur.set_little_endian(true);
    else if (io::load<std::uint32_t>(p, false) == 1) cur.set_little_endian(false);
    else cur.fail_at("binary endianness marker: expected the integer 1 in either byte order", p);
  }
  in.end_section("MeshFormat");
  gmsh::ReadState st(in);
  st.partitions = partitions;
  return reader(st);
}

Mesh read_gmsh(const std::string& path, const Options& options) { return read_gmsh_into(path, options, nullptr); }

void write_gmsh(const std::string& path, const Mesh& mesh, const Options& options) {
  OptionReader opts(options, "gmsh");
  const std::string version = opts.get_string("fmt_version", "4.1");
  gmsh::WriteOptions wo;
  wo.binary = opts.get_bool("binary", true);
  wo.float_fmt = opts.get_string("float_fmt", "");
  opts.finish();
  io::FloatFormat::parse(wo.float_fmt);  // reject a bad float_fmt before touching the file
  if (version == "4.1") gmsh::write41(path, mesh, wo);
  else if (version == "4.0" || version == "4") gmsh::write40(path, mesh, wo);
  else if (version == "2.2") gmsh::write22(path, mesh, wo);
  else throw std::invalid_argument("gmsh: fmt_version '" + version + "' cannot be written (choose 2.2, 4.0 or 4.1)");
}

}  // namespace

Format gmsh_format() { return Format{"gmsh", {".msh"}, read_gmsh, write_gmsh}; }

Mesh gmsh::read_with_partitions(const std::string& path, const Options& options, PartitionInfo& info) {
  info = PartitionInfo{};
  return read_gmsh_into(path, options, &info);
}

}  // namespace meshioplusplus
