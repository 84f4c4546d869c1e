// meshio++ XDMF time series: writer and reader in meshio's layout (see
// xdmf_time_series.hpp). Spec: https://www.xdmf.org/index.php/XDMF_Model_and_Format
#include "formats/xdmf/xdmf_time_series.hpp"

#include "formats/xdmf/xdmf_internal.hpp"
#include "meshioplusplus/errors.hpp"

namespace meshioplusplus::xdmf {

// --- writer --------------------------------------------------------------------------------
namespace {
Options without_sync(Options options) {
  options.erase("sync");
  return options;
}
}  // namespace

struct TimeSeriesWriter::State {
  std::string path;
  bool sync;  // the `sync` option: every file is made (and so committed) under it
  Options options;
  OptionReader opts;
  HeavyData heavy;  // reads its options first; the files come after finish()
  std::unique_ptr<io::AtomicFile> file;
  std::unique_ptr<io::TextWriter> writer;
  std::vector<std::size_t> written;
  bool has_mesh = false, in_collection = false, closed = false;

  State(const std::string& p, const Options& o)
      : path(p), sync(sync_option(o, "xdmf")), options(without_sync(o)), opts(options, "xdmf"), heavy(path, opts, "None") {
    opts.finish();
    const io::SyncScope scope(sync);
    file = std::make_unique<io::AtomicFile>(path, "xdmf");
    writer = std::make_unique<io::TextWriter>(*file);
  }
};

TimeSeriesWriter::TimeSeriesWriter(const std::string& path, const Options& options) {
  s_ = std::make_unique<State>(path, options);
  const io::SyncScope scope(s_->sync);
  s_->heavy.open();
  s_->writer->str("<?xml version=\"1.0\"?>\n<Xdmf xmlns:xi=\"http://www.w3.org/2003/XInclude\" Version=\"3.0\">\n  <Domain>\n");
}

TimeSeriesWriter::~TimeSeriesWriter() = default;

void TimeSeriesWriter::write_points_cells(const NDArray& points, const std::vector<CellBlock>& cells) {
  if (s_->closed) throw write_error("xdmf", s_->path, "the time series is closed");
  if (s_->has_mesh) throw write_error("xdmf", s_->path, "the mesh of a time series is written once");
  const io::SyncScope scope(s_->sync);
  s_->writer->str("    <Grid Name=\"mesh\" GridType=\"Uniform\">\n");
  xdmf::write_points_cells(*s_->writer, s_->heavy, points, cells, s_->written, "      ");
  s_->writer->str("    </Grid>\n");
  s_->has_mesh = true;
}

void TimeSeriesWriter::write_data(double t, const std::map<std::string, NDArray>& point_data,
                                  const std::map<std::string, std::vector<NDArray>>& cell_data) {
  if (s_->closed) throw write_error("xdmf", s_->path, "the time series is closed");
  if (!s_->has_mesh) throw write_error("xdmf", s_->path, "write_points_cells() must come before write_data()");
  const io::SyncScope scope(s_->sync);
  io::TextWriter& w = *s_->writer;
  if (!s_->in_collection) {
    w.str("    <Grid Name=\"TimeSeries_meshio\" GridType=\"Collection\" CollectionType=\"Temporal\">\n");
    s_->in_collection = true;
  }
  w.str("      <Grid>\n        <xi:include xpointer=\"xpointer(//Grid[@Name=&quot;mesh&quot;]/*[self::Topology or self::Geometry])\" />\n");
  w.str("        <Time Value=\"").real(t, io::FloatFormat{}).str("\" />\n");
  write_attributes(w, s_->heavy, point_data, cell_data, s_->written, "        ");
  w.str("      </Grid>\n");
}

void TimeSeriesWriter::close() {
  if (s_->closed) return;
  s_->closed = true;
  const io::SyncScope scope(s_->sync);
  io::TextWriter& w = *s_->writer;
  if (!s_->in_collection) w.str("    <Grid Name=\"TimeSeries_meshio\" GridType=\"Collection\" CollectionType=\"Temporal\">\n");
  w.str("    </Grid>\n  </Domain>\n</Xdmf>\n");
  w.flush();
  s_->heavy.commit();
  s_->file->commit();
}

// --- reader --------------------------------------------------------------------------------
struct TimeSeriesReader::State {
  Document doc;
  const io::XmlElement* mesh_grid = nullptr;
  std::vector<const io::XmlElement*> steps;
  bool have_mesh = false;
  Mesh mesh;  // points and cells, read once

  explicit State(const std::string& path) : doc(path) {}
};

TimeSeriesReader::TimeSeriesReader(const std::string& path) : s_(std::make_unique<State>(path)) {
  Document& doc = s_->doc;
  const io::XmlElement* collection = nullptr;
  for (const io::XmlElement* g : doc.grids()) {
    const std::string* type = g->attribute("GridType");
    if (type && *type == "Collection") collection = g;
    else if (type && *type == "Uniform") s_->mesh_grid = g;
  }
  if (!collection) doc.fail(doc.domain(), "no <Grid GridType=\"Collection\"> (not a time series)");
  const std::string* kind = collection->attribute("CollectionType");
  if (!kind || *kind != "Temporal") doc.fail(*collection, expected_found("CollectionType=\"Temporal\"", kind ? *kind : ""));
  for (const auto& g : collection->children)
    if (g.name == "Grid") s_->steps.push_back(&g);
  if (!s_->mesh_grid)
    for (const io::XmlElement* g : s_->steps) {
      const std::string* type = g->attribute("GridType");
      if (type && *type == "Uniform") {
        s_->mesh_grid = g;
        break;
      }
    }
  if (!s_->mesh_grid) doc.fail(*collection, "no uniform <Grid> holds the mesh of the time series");
}

TimeSeriesReader::~TimeSeriesReader() = default;

std::size_t TimeSeriesReader::num_steps() const { return s_->steps.size(); }

Mesh TimeSeriesReader::read_points_cells() {
  if (!s_->have_mesh) {
    s_->doc.read_points_cells(*s_->mesh_grid, s_->mesh);
    s_->have_mesh = true;
  }
  Mesh out;
  out.points = s_->mesh.points;
  out.cells = s_->mesh.cells;
  return out;
}

TimeStep TimeSeriesReader::read_data(std::size_t k) {
  if (k >= s_->steps.size())
    throw std::out_of_range("xdmf: step " + std::to_string(k) + " of a time series of " + std::to_string(s_->steps.size()) + " steps");
  Mesh mesh = read_points_cells();
  const io::XmlElement& step = *s_->steps[k];
  const io::XmlElement* time = nullptr;
  for (const auto& c : step.children)
    if (c.name == "Time") time = &c;
  const std::string* value = time ? time->attribute("Value") : nullptr;
  if (!value) s_->doc.fail(step, "the step has no <Time Value=...>");
  TimeStep out;
  try {
    io::Cursor number(*value, "xdmf", s_->doc.path());
    out.t = number.number<double>("a time value");
  } catch (const ReadError&) {
    s_->doc.fail(*time, "Time Value: " + expected_found("a number", *value));
  }
  s_->doc.read_attributes(step, mesh, {"Time", "xi:include", "Grid"});
  out.point_data = std::move(mesh.point_data);
  out.cell_data = std::move(mesh.cell_data);
  return out;
}

}  // namespace meshioplusplus::xdmf
