// meshio++ PVD: ParaView's data collection file (reader of its dataset list, a time step as a
// mesh, and the writer of the list). Format and choices: pvd.hpp; docs/formats/pvd.md.
// Reference: https://www.paraview.org/Wiki/ParaView/Data_formats#PVD_File_Format
#include "formats/pvd/pvd.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <system_error>

#include "core/io/cursor.hpp"
#include "core/io/file.hpp"
#include "core/io/text_writer.hpp"
#include "core/io/xml.hpp"
#include "formats/vtk_common/xml_data_write.hpp"
#include "meshioplusplus/errors.hpp"
#include "meshioplusplus/mesh_ops.hpp"
#include "meshioplusplus/warnings.hpp"

namespace meshioplusplus {
namespace pvd {

namespace fs = std::filesystem;
using io::XmlElement;

std::vector<DataSet> read_datasets(const std::string& path) {
  io::FileBytes file(path, "pvd");
  io::Cursor cur(file.text(), "pvd", path);
  const io::XmlDocument doc = io::parse_xml(cur);
  const XmlElement& root = doc.root;
  const std::string* type = root.attribute("type");
  if (root.name != "VTKFile" || !type || *type != "Collection")
    cur.fail_at(expected_found("<VTKFile type=\"Collection\">", type ? *type : std::string(root.name)), root.begin);
  const XmlElement* collection = nullptr;
  for (const XmlElement& c : root.children) {
    if (c.name != "Collection") cur.fail_at(expected_found("<Collection>", c.name), c.begin);
    if (collection) cur.fail_at("more than one <Collection>", c.begin);
    collection = &c;
  }
  if (!collection) cur.fail_at("no <Collection> element", root.begin);
  std::vector<DataSet> out;
  for (const XmlElement& d : collection->children) {
    if (d.name != "DataSet") cur.fail_at(expected_found("<DataSet>", d.name), d.begin);
    DataSet ds;
    const std::string* f = d.attribute("file");
    if (!f || f->empty()) cur.fail_at("<DataSet> has no file attribute", d.begin);
    ds.file = *f;
    if (const std::string* t = d.attribute("timestep")) {
      const std::string_view v = io::Cursor::trim(*t);
      const char* end = io::parse_number(v.data(), v.data() + v.size(), ds.timestep);
      if (!end || end != v.data() + v.size() || !std::isfinite(ds.timestep))
        cur.fail_at(expected_found("a finite number in timestep", *t), d.begin);
    }
    if (const std::string* p = d.attribute("part")) {
      const std::string_view v = io::Cursor::trim(*p);
      const char* end = io::parse_number(v.data(), v.data() + v.size(), ds.part);
      if (!end || end != v.data() + v.size() || ds.part < 0) cur.fail_at(expected_found("an integer >= 0 in part", *p), d.begin);
    }
    out.push_back(std::move(ds));
  }
  return out;
}

std::string resolve(const std::string& pvd_path, const std::string& file) {
  const fs::path f(file);
  if (f.is_absolute()) return f.string();
  return (fs::path(pvd_path).parent_path() / f).string();
}

void write_datasets(const std::string& path, const std::vector<DataSet>& datasets) {
  io::AtomicFile file(path, "pvd");
  io::TextWriter w(file);
  w.str("<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n<!--This file was created by meshio++-->\n<Collection>\n");
  for (const DataSet& d : datasets) {
    if (!std::isfinite(d.timestep)) throw write_error("pvd", path, "timestep " + std::to_string(d.timestep) + " is not finite");
    char t[32];
    const auto r = std::to_chars(t, t + sizeof t, d.timestep);  // shortest round-trip spelling
    w.str("<DataSet timestep=\"").str(std::string_view(t, static_cast<std::size_t>(r.ptr - t)));
    w.str("\" part=\"").integer(d.part).str("\" file=\"").str(io::xml_escape(d.file)).str("\"/>\n");
  }
  w.str("</Collection>\n</VTKFile>\n");
  w.flush();
  file.commit();
}

namespace {

Mesh read_pvd(const std::string& path, const Options& options) {
  Options data_options = options;
  std::size_t step = 0;
  if (auto it = data_options.find("step"); it != data_options.end()) {
    Options mine{*it};
    OptionReader opts(mine, "pvd");
    const long long k = opts.get_int("step", 0);
    if (k < 0) throw std::invalid_argument("pvd: option 'step': expected an index >= 0, found " + it->second);
    step = static_cast<std::size_t>(k);
    data_options.erase(it);
  }
  const std::vector<DataSet> all = read_datasets(path);
  // Distinct timesteps in file order.
  std::vector<double> times;
  for (const DataSet& d : all)
    if (std::find(times.begin(), times.end(), d.timestep) == times.end()) times.push_back(d.timestep);
  if (times.empty()) throw read_error("pvd", path, "the Collection lists no DataSet");
  if (step >= times.size())
    throw std::invalid_argument("pvd: option 'step': " + std::to_string(step) + " is past the last step (the file has " +
                                std::to_string(times.size()) + ", numbered from 0)");
  if (times.size() > 1 && !options.count("step"))
    warn("the collection holds " + std::to_string(times.size()) +
         " time steps; read the first (option step=<k> reads another, meshioplusplus.pvd.TimeSeriesReader all)");
  std::vector<Mesh> parts;
  for (const DataSet& d : all) {
    if (d.timestep != times[step]) continue;
    const std::string file = resolve(path, d.file);
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
      throw read_error("pvd", path, "DataSet file \"" + d.file + "\" is not a file (looked for " + file + ")");
    // The format's own reader (not read()): its warnings join this read's, ragged blocks stay.
    const Format* found = nullptr;
    try {
      found = &deduce_format(file, false);
    } catch (const std::invalid_argument& e) {
      throw read_error("pvd", path, "DataSet file \"" + d.file + "\": " + e.what());
    }
    const Format& format = *found;
    if (format.name == "pvd")  // a collection naming a collection (or itself): never followed
      throw read_error("pvd", path, "DataSet file \"" + d.file + "\" is a .pvd: nested collections are not read");
    parts.push_back(format.read(file, data_options));
  }
  try {
    return concatenate(parts);
  } catch (const std::invalid_argument& e) {
    throw read_error("pvd", path, std::string("the parts of the time step do not fit together: ") + e.what());
  }
}

void write_pvd(const std::string& path, const Mesh& mesh, const Options& options) {
  const std::string name = fs::path(path).stem().string() + "_0.vtu";
  find_format("vtu").write(resolve(path, name), mesh, options);
  write_datasets(path, {DataSet{0.0, 0, name}});
}

}  // namespace
}  // namespace pvd

Format pvd_format() { return Format{"pvd", {".pvd"}, &pvd::read_pvd, &pvd::write_pvd}; }

}  // namespace meshioplusplus
