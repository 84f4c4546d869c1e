// meshio++ VTK parallel XML collections (PVTU, PVTP): reader, writer and the summary file.
// Spec: https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html (Parallel File
// Formats). What is shared and how pieces are merged: collection.hpp.
#include "formats/vtk_collection/collection.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <stdexcept>
#include <system_error>

#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "core/io/xml.hpp"
#include "formats/vtk_common/xml_data_write.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/mesh_ops.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus::vtk_collection {

namespace fs = std::filesystem;
using io::XmlElement;

namespace {

std::string stem_of(const std::string& path) { return fs::path(path).stem().string(); }

ArrayDecl decl_of(const io::Cursor& cur, const XmlElement& el, const char* default_name) {
  ArrayDecl d;
  const std::string* name = el.attribute("Name");
  const std::string* type = el.attribute("type");
  if (!name && !default_name) cur.fail_at("<" + std::string(el.name) + "> has no attribute Name", el.begin);
  if (!type) cur.fail_at("<" + std::string(el.name) + "> has no attribute type", el.begin);
  d.name = name ? *name : default_name;
  d.type = *type;
  if (const std::string* nc = el.attribute("NumberOfComponents")) {
    std::uint64_t n = 0;
    if (!io::parse_count(*nc, n) || n == 0) cur.fail_at(expected_found("NumberOfComponents >= 1", *nc), el.begin);
    d.components = static_cast<std::size_t>(n);
  }
  return d;
}

// The DataArray (PDataArray) children of a PointData / CellData (PPointData, ...) element.
std::vector<ArrayDecl> decls_in(const io::Cursor& cur, const XmlElement& group, std::string_view array_tag) {
  std::vector<ArrayDecl> out;
  for (const XmlElement& c : group.children) {
    if (c.name != array_tag) cur.fail_at(expected_found("<" + std::string(array_tag) + ">", c.name), c.begin);
    out.push_back(decl_of(cur, c, nullptr));
  }
  return out;
}

std::string names_of(const std::vector<ArrayDecl>& list) {
  std::string out;
  for (const ArrayDecl& d : list) out += (out.empty() ? "'" : ", '") + d.name + "' " + d.type + "x" + std::to_string(d.components);
  return out.empty() ? "none" : out;
}

// The Source of a piece resolved against the summary file's folder.
std::string resolve(const std::string& summary_path, const std::string& source) {
  const fs::path s(source);
  if (s.is_absolute()) return s.string();
  return (fs::path(summary_path).parent_path() / s).string();
}

// Values per row of a point data array, of a cell data array (its first block); 0 when empty.
std::size_t row_width(const NDArray& a) { return a.row_size(); }
std::size_t row_width(const std::vector<NDArray>& blocks) { return blocks.empty() ? 0 : blocks[0].row_size(); }

// Drops the arrays the summary does not declare (VTK reads only declared ones) and
// checks the declared ones are there.
template <class Map>
void keep_declared(Map& arrays, const std::vector<ArrayDecl>& declared, const char* what, const char* group,
                   std::size_t k, const std::string& source, const io::Cursor& cur, const XmlElement& piece) {
  std::set<std::string> names;
  for (const ArrayDecl& d : declared) {
    names.insert(d.name);
    if (!arrays.count(d.name))
      cur.fail_at(std::string(what) + " '" + d.name + "' declared in <" + group + "> is missing from piece " +
                      std::to_string(k) + " (" + source + ")",
                  piece.begin);
    const std::size_t width = row_width(arrays.at(d.name));
    if (width != 0 && width != d.components)
      cur.fail_at(std::string(what) + " '" + d.name + "': <" + group + "> declares " + std::to_string(d.components) +
                      " components, piece " + std::to_string(k) + " (" + source + ") has " + std::to_string(width),
                  piece.begin);
  }
  for (auto it = arrays.begin(); it != arrays.end();) {
    if (names.count(it->first)) {
      ++it;
      continue;
    }
    warn(std::string(what) + " '" + it->first + "' of piece " + std::to_string(k) + " (" + source + ") is not declared in <" +
         group + ">: skipped, as VTK does");
    it = arrays.erase(it);
  }
}

}  // namespace

std::string piece_source(const std::string& path, std::size_t k, const Kind& kind) {
  const std::string stem = stem_of(path);
  return stem + "/" + stem + "_" + std::to_string(k) + kind.piece_extension;
}

std::string piece_path(const std::string& path, std::size_t k, const Kind& kind) {
  return resolve(path, piece_source(path, k, kind));
}

void make_piece_folder(const std::string& path, const Kind& kind) {
  const fs::path folder = fs::path(path).parent_path() / stem_of(path);
  std::error_code ec;
  fs::create_directory(folder, ec);  // one level: a missing parent folder is an error, as for any write
  if (ec || !fs::is_directory(folder))
    throw write_error(kind.format, path, "cannot create the pieces' folder " + folder.string() + ": " + ec.message());
}

Summary summary_of_piece(const std::string& piece_file, const Kind& kind) {
  io::FileBytes file(piece_file, kind.piece_format);
  io::Cursor cur(file.text(), kind.piece_format, piece_file);
  const io::XmlDocument doc = io::parse_xml(cur);
  const XmlElement& root = doc.root;
  const std::string* type = root.attribute("type");
  if (root.name != "VTKFile" || !type || *type != kind.grid)
    cur.fail_at(expected_found(std::string("<VTKFile type=\"") + kind.grid + "\">", type ? *type : std::string(root.name)),
                root.begin);
  Summary s;
  if (const std::string* v = root.attribute("byte_order")) s.byte_order = *v;
  if (const std::string* v = root.attribute("header_type")) s.header_type = *v;
  if (const std::string* v = root.attribute("compressor")) s.compressor = *v;
  const XmlElement* piece = nullptr;
  for (const XmlElement& c : root.children)
    if (c.name == kind.grid)
      for (const XmlElement& p : c.children)
        if (p.name == "Piece" && !piece) piece = &p;
  if (!piece) cur.fail_at(std::string("no <Piece> in <") + kind.grid + ">", root.begin);
  for (const XmlElement& g : piece->children) {
    if (g.name == "Points" && !g.children.empty()) s.points = decl_of(cur, g.children[0], "Points");
    else if (g.name == "PointData") s.point_data = decls_in(cur, g, "DataArray");
    else if (g.name == "CellData") s.cell_data = decls_in(cur, g, "DataArray");
  }
  return s;
}

void write_summary(const std::string& path, const Kind& kind, const Summary& s) {
  io::AtomicFile file(path, kind.format);
  io::TextWriter w(file);
  const std::string grid = std::string("P") + kind.grid;
  w.str("<?xml version=\"1.0\"?>\n<VTKFile type=\"").str(grid).str("\" version=\"1.0\" byte_order=\"").str(io::xml_escape(s.byte_order)).str("\"");
  if (!s.header_type.empty()) w.str(" header_type=\"").str(io::xml_escape(s.header_type)).str("\"");
  if (!s.compressor.empty()) w.str(" compressor=\"").str(io::xml_escape(s.compressor)).str("\"");
  w.str(">\n<!--This file was created by meshio++-->\n<").str(grid).str(" GhostLevel=\"0\">\n");
  auto decl = [&](const ArrayDecl& d) {
    w.str("  <PDataArray type=\"").str(io::xml_escape(d.type)).str("\" Name=\"").str(io::xml_escape(d.name));
    w.str("\" NumberOfComponents=\"").integer(d.components).str("\"/>\n");
  };
  auto group = [&](const char* tag, const std::vector<ArrayDecl>& list) {
    if (list.empty()) return;
    w.str("<").str(tag).str(">\n");
    for (const ArrayDecl& d : list) decl(d);
    w.str("</").str(tag).str(">\n");
  };
  group("PPointData", s.point_data);
  group("PCellData", s.cell_data);
  w.str("<PPoints>\n");
  decl(s.points);
  w.str("</PPoints>\n");
  for (const std::string& src : s.sources) w.str("<Piece Source=\"").str(io::xml_escape(src)).str("\"/>\n");
  w.str("</").str(grid).str(">\n</VTKFile>\n");
  w.flush();
  file.commit();
}

namespace {

// A parsed summary file: the declared arrays and the <Piece> elements (the cursor and the
// document point into `file`, kept alive with them).
struct ParsedSummary {
  io::FileBytes file;
  io::Cursor cur;
  io::XmlDocument doc;
  const XmlElement* grid = nullptr;
  std::vector<ArrayDecl> point_decls, cell_decls;
  std::vector<const XmlElement*> pieces;

  ParsedSummary(const std::string& path, const Kind& kind)
      : file(path, kind.format), cur(file.text(), kind.format, path), doc(io::parse_xml(cur)) {
    const XmlElement& root = doc.root;
    const std::string pgrid = std::string("P") + kind.grid;
    if (root.name != "VTKFile") cur.fail_at(expected_found("root element VTKFile", root.name), root.begin);
    const std::string* type = root.attribute("type");
    if (!type || *type != pgrid)
      cur.fail_at(expected_found("VTKFile type=\"" + pgrid + "\"", type ? *type : std::string("no type")), root.begin);
    for (const XmlElement& c : root.children) {
      if (c.name != pgrid) cur.fail_at(expected_found("<" + pgrid + ">", c.name), c.begin);
      if (grid) cur.fail_at("more than one <" + pgrid + ">", c.begin);
      grid = &c;
    }
    if (!grid) cur.fail_at("no <" + pgrid + "> element", root.begin);
    if (const std::string* ghost = grid->attribute("GhostLevel"); ghost && *ghost != "0")
      warn("GhostLevel=\"" + *ghost + "\": the pieces' ghost cells and points are read like the others (duplicated)");
    for (const XmlElement& c : grid->children) {
      if (c.name == "PPointData") point_decls = decls_in(cur, c, "PDataArray");
      else if (c.name == "PCellData") cell_decls = decls_in(cur, c, "PDataArray");
      else if (c.name == "Piece") pieces.push_back(&c);
      else if (c.name != "PPoints")  // the pieces' points are what counts
        warn("<" + std::string(c.name) + "> in <" + pgrid + ">: skipped, not mesh data");
    }
    if (pieces.empty()) cur.fail_at("no <Piece> in <" + pgrid + ">", grid->begin);
  }
};

}  // namespace

std::size_t piece_count(const std::string& path, const Kind& kind) { return ParsedSummary(path, kind).pieces.size(); }

Mesh read_range(const std::string& path, const Options& piece_options, const Kind& kind, std::size_t first, std::size_t last) {
  const ParsedSummary s(path, kind);
  const io::Cursor& cur = s.cur;
  last = std::min(last, s.pieces.size());
  std::vector<Mesh> meshes;
  for (std::size_t k = first; k < last; ++k) {
    const XmlElement& piece = *s.pieces[k];
    const std::string* source = piece.attribute("Source");
    if (!source || source->empty()) cur.fail_at("<Piece> " + std::to_string(k) + " has no Source", piece.begin);
    const std::string file_path = resolve(path, *source);
    std::error_code ec;
    if (!fs::is_regular_file(file_path, ec))
      cur.fail_at("piece " + std::to_string(k) + ": Source \"" + *source + "\" is not a file (looked for " + file_path + ")",
                  piece.begin);
    Mesh m = find_format(kind.piece_format).read(file_path, piece_options);
    keep_declared(m.point_data, s.point_decls, "point data", "PPointData", k, *source, cur, piece);
    keep_declared(m.cell_data, s.cell_decls, "cell data", "PCellData", k, *source, cur, piece);
    meshes.push_back(std::move(m));
  }
  if (meshes.empty()) throw std::invalid_argument(std::string(kind.format) + ": no pieces in the range read");
  try {
    return concatenate(meshes);
  } catch (const std::invalid_argument& e) {
    cur.fail_at(std::string("the pieces do not fit together: ") + e.what() + " (parts are the <Piece>s, from 0)", s.grid->begin);
  }
}

Mesh read(const std::string& path, const Options& options, const Kind& kind) {
  Options piece_options = options;
  std::optional<std::size_t> only;
  if (auto it = piece_options.find("piece"); it != piece_options.end()) {
    Options mine{*it};
    OptionReader opts(mine, kind.format);
    const long long k = opts.get_int("piece", 0);
    if (k < 0) throw std::invalid_argument(std::string(kind.format) + ": option 'piece': expected an index >= 0, found " + it->second);
    only = static_cast<std::size_t>(k);
    piece_options.erase(it);
  }
  if (!only) return read_range(path, piece_options, kind, 0, static_cast<std::size_t>(-1));
  const std::size_t count = piece_count(path, kind);
  if (*only >= count)
    throw std::invalid_argument(std::string(kind.format) + ": option 'piece': " + std::to_string(*only) + " is past the last piece (the file has " +
                                std::to_string(count) + ", numbered from 0)");
  return read_range(path, piece_options, kind, *only, *only + 1);
}

void write(const std::string& path, const Mesh& mesh, const Options& options, const Kind& kind) {
  write_pieces(path, std::vector<Mesh>{mesh}, options, kind);
}

void write_pieces(const std::string& path, const std::vector<Mesh>& pieces, const Options& options, const Kind& kind) {
  if (pieces.empty()) throw std::invalid_argument(std::string(kind.format) + ": no pieces to write");
  // The summary declares one set of arrays: every piece must hold the same names.
  auto names = [](const Mesh& m) {
    std::vector<std::string> out;
    for (const auto& entry : m.point_data) out.push_back("point data '" + entry.first + "'");
    for (const auto& entry : m.cell_data) out.push_back("cell data '" + entry.first + "'");
    for (const Region& r : m.regions) out.push_back(std::string(region_kind_name(r.kind)) + " set '" + r.name + "'");
    return std::set<std::string>(out.begin(), out.end());
  };
  const std::set<std::string> first = names(pieces[0]);
  for (std::size_t k = 1; k < pieces.size(); ++k)
    if (names(pieces[k]) != first) {
      std::string diff;
      for (const auto& n : names(pieces[k])) if (!first.count(n)) diff += " " + n + " only in piece " + std::to_string(k) + ";";
      for (const auto& n : first) if (!names(pieces[k]).count(n)) diff += " " + n + " missing from piece " + std::to_string(k) + ";";
      throw std::invalid_argument(std::string(kind.format) + ": every piece must hold the same data arrays and sets:" + diff);
    }
  const Format& piece_format = find_format(kind.piece_format);
  make_piece_folder(path, kind);
  Summary summary;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const std::string file_path = piece_path(path, k, kind);
    piece_format.write(file_path, pieces[k], options);
    Summary s = summary_of_piece(file_path, kind);
    if (k == 0) {
      summary = std::move(s);
    } else if (!(s.points == summary.points) || s.point_data != summary.point_data || s.cell_data != summary.cell_data) {
      throw write_error(kind.format, path,
                        "piece " + std::to_string(k) + " holds arrays of other types than piece 0 (point data " +
                            names_of(s.point_data) + " vs " + names_of(summary.point_data) + "; cell data " +
                            names_of(s.cell_data) + " vs " + names_of(summary.cell_data) + "; points " + s.points.type +
                            " vs " + summary.points.type + "): the summary file was not written");
    }
    summary.sources.push_back(piece_source(path, k, kind));
  }
  write_summary(path, kind, summary);
}

}  // namespace meshioplusplus::vtk_collection
