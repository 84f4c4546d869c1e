// SVG (write only): a small mesh of a triangle, a quad and a line written, the file parsed
// back for its viewBox, style and paths, compared with the drawing worked out by hand
// (y flipped within its range, scaled to image_width); 3-D points refused; no reader.
#include <gtest/gtest.h>

#include <regex>

#include "test_vtk_common.hpp"

using namespace vtktest;

namespace {

// 5 points of a 2 x 1 rectangle and its centre; a triangle, a quad, a line, and a vertex
// block (not drawn).
mpp::Mesh rectangle_mesh(std::size_t dim = 2, double z = 0.0) {
  std::vector<double> xy = {0, 0, 2, 0, 2, 1, 0, 1, 1, 0.5};
  std::vector<double> p;
  for (std::size_t i = 0; i < 5; ++i) {
    p.push_back(xy[2 * i]), p.push_back(xy[2 * i + 1]);
    if (dim == 3) p.push_back(z);
  }
  mpp::Mesh m;
  m.points = NDArray::from_vector(p, {5, dim});
  m.cells.push_back(mpp::CellBlock::rectangular("triangle", i64({0, 1, 4}, {1, 3})));
  m.cells.push_back(mpp::CellBlock::rectangular("vertex", i64({4}, {1, 1})));
  m.cells.push_back(mpp::CellBlock::rectangular("quad", i64({0, 1, 2, 3}, {1, 4})));
  m.cells.push_back(mpp::CellBlock::rectangular("line", i64({3, 2}, {1, 2})));
  return m;
}

std::vector<std::string> all(const std::string& text, const std::string& pattern) {
  std::vector<std::string> out;
  const std::regex re(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) out.push_back((*it)[1]);
  return out;
}

// A path's commands and numbers: "M 0.000 50.000L 1 2Z" -> {"M", "0", "50", "L", "1", "2", "Z"}.
std::vector<std::string> path_tokens(const std::string& d) {
  std::vector<std::string> out;
  const std::regex re("[MLZ]|-?[0-9.]+(e[-+]?[0-9]+)?");
  for (auto it = std::sregex_iterator(d.begin(), d.end(), re); it != std::sregex_iterator(); ++it) {
    const std::string t = it->str();
    out.push_back(t == "M" || t == "L" || t == "Z" ? t : std::to_string(std::stod(t)));
  }
  return out;
}

std::vector<std::string> expected(std::initializer_list<const char*> items) {
  std::vector<std::string> out;
  for (const char* s : items) out.push_back(std::string(s) == "M" || std::string(s) == "L" || std::string(s) == "Z" ? s : std::to_string(std::stod(s)));
  return out;
}

}  // namespace

TEST(SvgWrite, PathsViewBoxAndStyle) {
  const std::string path = tmp_path("rect.svg");
  mpp::write(path, rectangle_mesh(), "svg");
  const std::string text = slurp(path);
  // width 2 -> scale 50; y' = (1 + 0 - y) * 50.
  ASSERT_EQ(all(text, "viewBox=\"([^\"]*)\""), std::vector<std::string>{"0.000 0.000 100.000 50.000"});
  EXPECT_NE(text.find("<style>path {fill: #c8c5bd; stroke: #000080; stroke-width: 1.0; stroke-linejoin:bevel}</style>"), std::string::npos);
  const auto d = all(text, "<path d=\"([^\"]*)\"");
  ASSERT_EQ(d.size(), 3u);  // the vertex block is not drawn
  EXPECT_EQ(path_tokens(d[0]), expected({"M", "0", "50", "L", "100", "50", "L", "50", "25", "Z"}));
  EXPECT_EQ(path_tokens(d[1]), expected({"M", "0", "50", "L", "100", "50", "L", "100", "0", "L", "0", "0", "Z"}));
  EXPECT_EQ(path_tokens(d[2]), expected({"M", "0", "0", "L", "100", "0"}));  // a line is not closed
  EXPECT_EQ(text.rfind("</svg>"), text.size() - 6);
}

TEST(SvgWrite, Options) {
  const std::string path = tmp_path("opts.svg");
  mpp::write(path, rectangle_mesh(), "svg",
             {{"image_width", "None"}, {"float_fmt", ".1e"}, {"stroke_width", "0.5"}, {"fill", "red"}, {"stroke", "<b&w>"}});
  const std::string text = slurp(path);
  EXPECT_EQ(all(text, "viewBox=\"([^\"]*)\""), std::vector<std::string>{"0.0e+00 0.0e+00 2.0e+00 1.0e+00"});
  EXPECT_NE(text.find("path {fill: red; stroke: &lt;b&amp;w&gt;; stroke-width: 0.5; stroke-linejoin:bevel}"), std::string::npos);
  const auto d = all(text, "<path d=\"([^\"]*)\"");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(path_tokens(d[0]), expected({"M", "0", "1", "L", "2", "1", "L", "1", "0.5", "Z"}));
  EXPECT_THROW(mpp::write(path, rectangle_mesh(), "svg", {{"float_fmt", "x"}}), std::invalid_argument);
  EXPECT_THROW(mpp::write(path, rectangle_mesh(), "svg", {{"image_width", "wide"}}), std::invalid_argument);
  EXPECT_THROW(mpp::write(path, rectangle_mesh(), "svg", {{"colour", "red"}}), std::invalid_argument);
}

TEST(SvgWrite, FlatThreeDIsDrawnOtherwiseRefused) {
  const std::string path = tmp_path("flat.svg");
  mpp::write(path, rectangle_mesh(3, 0.0), "svg");
  const std::string flat = slurp(path);
  mpp::write(path, rectangle_mesh(2), "svg");
  EXPECT_EQ(flat, slurp(path));
  try {
    mpp::write(path, rectangle_mesh(3, 0.25), "svg");
    FAIL() << "3-D points with z != 0 must be refused";
  } catch (const mpp::WriteError& e) {
    EXPECT_NE(std::string(e.what()).find("flat 2D"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  EXPECT_EQ(flat, slurp(path));  // the refused write left the file as it was
}

TEST(SvgRead, IsRefusedAsWriteOnly) {
  const std::string path = tmp_path("ro.svg");
  mpp::write(path, rectangle_mesh(), "svg");
  try {
    mpp::read(path);
    FAIL() << "SVG has no reader";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("write-only"), std::string::npos) << e.what();
  }
}
