// meshio++ Exodus II: a bounds check of a netCDF classic header (CDF-1, CDF-2, CDF-5)
// before netCDF-C parses it. Spec: the netCDF classic format grammar,
// https://docs.unidata.ucar.edu/netcdf-c/current/file_format_specifications.html
//
// netCDF-C allocates names, attribute values and lists at the sizes the header declares
// before it knows the file holds them (a 40-byte file can ask for gigabytes). This walk
// reads the same grammar with io::Cursor and checks every declared count against the bytes
// left, so such a header is a ReadError before nc_open sees it. Safe for untrusted input:
// every read is bounded by the end of the header bytes, every loop by a checked count.
#ifdef MESHIOPP_HAVE_NETCDF

#include <string>

#include "core/io/cursor.hpp"
#include "formats/exodus/exodus_internal.hpp"

namespace meshioplusplus::exodus {

namespace {

constexpr std::uint32_t kDimension = 0x0A, kVariable = 0x0B, kAttribute = 0x0C;

class HeaderWalk {
 public:
  HeaderWalk(std::string_view bytes, const std::string& path) : c_(bytes, "exodus", path) { c_.set_little_endian(false); }

  void run() {
    c_.take(3, "magic");
    const auto version = static_cast<unsigned char>(*c_.take(1, "version byte"));
    if (version != 1 && version != 2 && version != 5) c_.fail("netCDF classic version byte: " + expected_found("1, 2 or 5", std::to_string(version)));
    wide_ = version == 5;
    offset64_ = version != 1;
    non_neg("numrecs");
    ndims_ = list(kDimension, "dimensions", [&] {
      name("dimension name");
      non_neg("dimension length");
    });
    attributes();
    list(kVariable, "variables", [&] {
      name("variable name");
      const std::uint64_t n = non_neg("variable rank");
      c_.need(n, wide_ ? 8 : 4, "dimension ids of a variable");
      for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t id = non_neg("dimension id");
        if (id >= ndims_) c_.fail("dimension id " + expected_found("below " + std::to_string(ndims_), std::to_string(id)));
      }
      attributes();
      type();
      non_neg("variable size");
      if (offset64_) c_.load<std::uint64_t>("variable offset");
      else c_.load<std::uint32_t>("variable offset");
    });
  }

 private:
  std::uint64_t non_neg(std::string_view what) {
    return wide_ ? c_.load<std::uint64_t>(what) : c_.load<std::uint32_t>(what);
  }

  // ABSENT (two zeros) or TAG nelems [element ...]; each element takes at least 8 bytes.
  template <class F> std::uint64_t list(std::uint32_t tag, std::string_view what, F&& element) {
    const std::uint32_t t = c_.load<std::uint32_t>(what);
    const std::uint64_t n = non_neg(what);
    if (t == 0 && n == 0) return 0;
    if (t != tag) c_.fail(std::string(what) + " list tag: " + expected_found(std::to_string(tag), std::to_string(t)));
    c_.need(n, 8, what);
    for (std::uint64_t i = 0; i < n; ++i) element();
    return n;
  }

  void name(std::string_view what) {
    const std::uint64_t n = non_neg(what);
    c_.need(n, 1, "bytes of a " + std::string(what));
    c_.take(static_cast<std::size_t>((n + 3) / 4 * 4), what);
  }

  std::size_t type() {
    const std::uint32_t t = c_.load<std::uint32_t>("type");
    static const std::size_t sizes[] = {0, 1, 1, 2, 4, 4, 8, 1, 2, 4, 8, 8};
    if (t < 1 || t > (wide_ ? 11u : 6u)) c_.fail("netCDF type " + expected_found(wide_ ? "1..11" : "1..6", std::to_string(t)));
    return sizes[t];
  }

  void attributes() {
    list(kAttribute, "attributes", [&] {
      name("attribute name");
      const std::size_t size = type();
      const std::uint64_t n = non_neg("attribute values");
      c_.need(n, size, "attribute values of " + std::to_string(size) + " bytes");
      c_.take(static_cast<std::size_t>((n * size + 3) / 4 * 4), "attribute values");
    });
  }

  io::Cursor c_;
  bool wide_ = false, offset64_ = false;
  std::uint64_t ndims_ = 0;
};

}  // namespace

void check_classic_header(std::string_view bytes, const std::string& path) {
  if (bytes.size() < 4 || bytes.substr(0, 3) != "CDF") return;  // not classic: netCDF-C decides
  HeaderWalk(bytes, path).run();
}

}  // namespace meshioplusplus::exodus

#endif  // MESHIOPP_HAVE_NETCDF
