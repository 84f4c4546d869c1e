// meshio++ core I/O: the storage layouts of an HDF5 file's datasets, checked from the file's
// bytes before HDF5 decodes them (see check_layouts in hdf5.hpp). HDF5 1.10.8, Debian 12's,
// divides by the chunk dimensions of a dataset's layout message when the dataset is opened
// (H5D__chunk_set_info) without checking them, so a corrupt file with a zero there kills the
// process with SIGFPE; later HDF5 releases refuse it. Until the library does, every dataset's
// object header is found here (H5Ovisit2 with basic information decodes no layout) and its
// layout message read directly.
// The same library copies a variable-length attribute value (netCDF-4's DIMENSION_LIST on
// every variable, variable-length strings) out of the global heap with the size the heap
// object declares, not the size the value needs: a corrupt size there overruns HDF5's own
// buffer (a segfault in H5HG_read). Every variable-length value of every attribute stored in
// an object header is therefore looked up in its global heap collection here, and its heap
// object must exist and hold exactly the value's bytes.
// Spec: HDF5 File Format Specification version 3.0, https://docs.hdfgroup.org/hdf5/v1_10/_f_m_t3.html
// (IV.A.1 object header prefixes, IV.A.2.i "Data Storage - Layout", IV.A.2.q continuation,
// IV.A.2.m attribute, IV.A.2.d datatype, IV.A.2.b dataspace, III.E global heap).
#ifdef MESHIOPP_HAVE_HDF5

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "core/io/hdf5.hpp"

namespace meshioplusplus::io::hdf5 {

namespace {

constexpr unsigned kLayoutMessage = 0x0008;
constexpr unsigned kContinuationMessage = 0x0010;
constexpr unsigned kAttributeMessage = 0x000C;
constexpr unsigned kDataspaceMessage = 0x0001;
constexpr unsigned kDatatypeMessage = 0x0003;
constexpr unsigned kLinkMessage = 0x0006;
constexpr unsigned kLinkInfoMessage = 0x0002;
constexpr unsigned kCompactClass = 0;
constexpr unsigned kContiguousClass = 1;
constexpr unsigned kChunkedClass = 2;
constexpr unsigned kVariableLengthClass = 9;
// A header is a few blocks; a loop of continuations (a corrupt file) stops here.
constexpr int kMaxBlocks = 4096;

// One object header's messages, walked over the file's bytes. Anything out of range or of
// an unknown version ends the walk quietly: HDF5 checks those itself and fails cleanly;
// only what HDF5 1.10.8 does not survive is told: a chunked layout with a zero dimension, a
// variable-length attribute value whose global heap object is missing or of another size.
class HeaderWalk {
 public:
  HeaderWalk(const unsigned char* file, std::size_t size, std::uint64_t base, unsigned sizeof_addr, unsigned sizeof_size)
      : file_(file), size_(size), base_(base), addr_bytes_(sizeof_addr), size_bytes_(sizeof_size) {}

  // "" when the object's layout (if any) is safe, else what is wrong with it.
  std::string check(std::uint64_t address) {
    problem_.clear();
    blocks_ = 0;
    compact_bytes_ = contiguous_bytes_ = element_bytes_ = elements_ = kUnknown;
    chunk_.clear();
    max_dims_.clear();
    const std::uint64_t at = base_ + address;
    if (!in_file(at, 16)) return "";
    if (std::memcmp(file_ + at, "OHDR", 4) == 0) {
      version2_header(at);
    } else if (file_[at] == 1) {
      // Version 1: version, reserved, message count (2), reference count (4), header size
      // (4), padding to 16; messages 8-byte aligned.
      walk_messages(at + 16, le(at + 8, 4), false, false);
    }
    // A compact dataset's data is in its layout message: HDF5 1.10.8 copies the dataspace's
    // bytes out of it without comparing them with what the message holds.
    if (problem_.empty() && compact_bytes_ != kUnknown && element_bytes_ != kUnknown && elements_ != kUnknown &&
        (elements_ > compact_bytes_ || elements_ * element_bytes_ != compact_bytes_))
      problem_ = "its compact layout holds " + std::to_string(compact_bytes_) + " bytes, not the " +
                 std::to_string(elements_) + " elements of " + std::to_string(element_bytes_) + " bytes its dataspace and datatype declare";
    // A contiguous dataset's storage must hold its values: HDF5 1.10.8 reads them through a
    // buffer of the storage's declared size, copying the dataspace's bytes out of it.
    if (problem_.empty() && contiguous_bytes_ != kUnknown && element_bytes_ != kUnknown && elements_ != kUnknown &&
        element_bytes_ != 0 && elements_ <= ~std::uint64_t{0} / element_bytes_ && contiguous_bytes_ < elements_ * element_bytes_)
      problem_ = "its contiguous layout stores " + std::to_string(contiguous_bytes_) + " bytes, not the " +
                 std::to_string(elements_) + " elements of " + std::to_string(element_bytes_) + " bytes its dataspace and datatype declare";
    // A chunk may not be larger than a fixed maximum dimension (HDF5 refuses to create one):
    // 1.10.8 reads such a chunk past the end of its decompressed data.
    if (problem_.empty() && elements_ != kUnknown && !chunk_.empty() && chunk_.size() >= max_dims_.size())
      for (std::size_t d = 0; d < max_dims_.size(); ++d)
        if (max_dims_[d] != kUnknown && chunk_[d] > max_dims_[d]) {
          problem_ = "its chunk dimension " + std::to_string(d) + " (" + std::to_string(chunk_[d]) +
                     ") exceeds the dataset's maximum dimension (" + std::to_string(max_dims_[d]) + ")";
          break;
        }
    return problem_;
  }

 private:
  bool in_file(std::uint64_t at, std::uint64_t n) const { return at <= size_ && n <= size_ - at; }
  // A field of `bytes` bytes with every bit set: an undefined address, an unlimited dimension.
  static std::uint64_t all_ones(unsigned bytes) { return bytes >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * bytes)) - 1; }
  std::uint64_t le(std::uint64_t at, unsigned n) const {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i) v |= std::uint64_t(file_[at + i]) << (8 * i);
    return v;
  }

  void version2_header(std::uint64_t at) {
    // "OHDR", version 2, flags; access/modification/change/birth times (flag 0x20);
    // attribute phase change values (0x10); chunk 0's size in 1, 2, 4 or 8 bytes (flags & 3).
    if (file_[at + 4] != 2) return;
    const unsigned flags = file_[at + 5];
    const bool creation_order = (flags & 0x04) != 0;  // each message then carries 2 more bytes
    std::uint64_t pos = at + 6 + ((flags & 0x20) ? 16 : 0) + ((flags & 0x10) ? 4 : 0);
    const unsigned width = 1u << (flags & 0x03);
    if (!in_file(pos, width)) return;
    const std::uint64_t chunk0 = le(pos, width);
    walk_messages(pos + width, chunk0, true, creation_order);
  }

  // Messages in [begin, begin + length).
  void walk_messages(std::uint64_t begin, std::uint64_t length, bool v2, bool order) {
    if (++blocks_ > kMaxBlocks || !in_file(begin, length)) return;
    const std::uint64_t end = begin + length;
    const unsigned head = v2 ? (order ? 6 : 4) : 8;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> continuations;
    for (std::uint64_t pos = begin; pos + head <= end && problem_.empty();) {
      const unsigned type = v2 ? file_[pos] : static_cast<unsigned>(le(pos, 2));
      const std::uint64_t size = v2 ? le(pos + 1, 2) : le(pos + 2, 2);
      const unsigned flags = v2 ? file_[pos + 3] : file_[pos + 4];
      const std::uint64_t data = pos + head;
      if (size > end - data) return;
      if (!(flags & 0x02)) {  // a shared message's data is elsewhere (layouts never are)
        if (type == kLayoutMessage) layout(data, size);
        if (type == kDataspaceMessage && !elements(data, size, elements_, &max_dims_)) elements_ = kUnknown;
        if (type == kDatatypeMessage && size >= 8) {
          element_bytes_ = le(data + 4, 4);
          if (std::string why = datatype(data, size); !why.empty()) problem_ = "its datatype message declares " + why;
        }
        if (type == kAttributeMessage) attribute(data, size);
        if (type == kLinkMessage) link(data, size);
        if (type == kLinkInfoMessage) link_info(data, size);
        if (type == kContinuationMessage && size >= addr_bytes_ + size_bytes_)
          continuations.push_back({le(data, addr_bytes_), le(data + addr_bytes_, size_bytes_)});
      }
      pos = data + size;
    }
    for (const auto& [offset, bytes] : continuations) {
      if (!problem_.empty()) return;
      const std::uint64_t at = base_ + offset;
      if (v2) {  // "OCHK", messages, checksum (4)
        if (bytes < 8 || !in_file(at, bytes) || std::memcmp(file_ + at, "OCHK", 4) != 0) continue;
        walk_messages(at + 4, bytes - 8, true, order);
      } else {
        walk_messages(at, bytes, false, false);
      }
    }
  }

  // The layout message at [at, at + size): a chunked layout's dimensions must be positive.
  void layout(std::uint64_t at, std::uint64_t size) {
    if (size < 2) return;
    const unsigned version = file_[at];
    if (version >= 3 && version <= 5 && file_[at + 1] == kContiguousClass && size >= 2 + addr_bytes_ + size_bytes_) {
      contiguous_bytes_ = le(at + 2 + addr_bytes_, size_bytes_);  // class, the address, the size
      // HDF5 1.10.8 reads a contiguous dataset through a buffer cut at the file's end and
      // copies the dataset's bytes out of it: stored data must lie inside the file.
      const std::uint64_t address = le(at + 2, addr_bytes_);
      const std::uint64_t undefined = all_ones(addr_bytes_);
      if (address != undefined && contiguous_bytes_ != 0 && !in_file(base_ + address, contiguous_bytes_))
        problem_ = "its contiguous data (" + std::to_string(contiguous_bytes_) + " bytes at " + std::to_string(address) +
                   ") lies past the end of the file's " + std::to_string(size_) + " bytes";
      return;
    }
    if (version >= 3 && version <= 5 && file_[at + 1] == kCompactClass && size >= 4) {
      // class, the data's size (2 bytes), the data: all of it inside the message
      compact_bytes_ = le(at + 2, 2);
      if (compact_bytes_ > size - 4) problem_ = "its compact layout declares more bytes than its message holds";
      return;
    }
    std::uint64_t dims = 0, pos = 0;
    unsigned width = 4;
    if ((version == 1 || version == 2) && size >= 8 && file_[at + 2] == kCompactClass) {
      // dimensionality, class, 5 reserved, the dimensions (4 bytes each), the data's size (4
      // bytes), the data
      const std::uint64_t size_at = at + 8 + 4 * std::uint64_t{file_[at + 1]};
      if (size_at + 4 > at + size) {
        problem_ = "its compact layout (version " + std::to_string(version) + ") ends inside its dimensions";
        return;
      }
      compact_bytes_ = le(size_at, 4);
      if (compact_bytes_ > at + size - (size_at + 4)) problem_ = "its compact layout declares more bytes than its message holds";
      return;
    }
    if (version == 1 || version == 2) {
      // dimensionality, class, 5 reserved, the address (unless compact), the dimensions
      if (size < 8 || file_[at + 2] != kChunkedClass) return;
      dims = file_[at + 1];
      pos = at + 8 + addr_bytes_;
    } else if (version == 3) {
      // class, then for chunked: dimensionality, the B-tree address, the dimensions (4 bytes)
      if (file_[at + 1] != kChunkedClass || size < 3) return;
      dims = file_[at + 2];
      pos = at + 3 + addr_bytes_;
    } else if (version == 4 || version == 5) {
      // class, then for chunked: flags, dimensionality, the dimensions' width, the dimensions
      if (file_[at + 1] != kChunkedClass || size < 5) return;
      dims = file_[at + 3];
      width = file_[at + 4];
      if (width < 1 || width > 8) {
        problem_ = "its chunked layout declares dimensions of " + std::to_string(width) + " bytes";
        return;
      }
      pos = at + 5;
    } else {
      return;
    }
    if (dims == 0) {
      problem_ = "its chunked layout has no dimensions";
      return;
    }
    if (pos > at + size || dims * width > at + size - pos) return;  // HDF5 refuses a short message itself
    chunk_.clear();
    for (std::uint64_t d = 0; d < dims; ++d) {
      chunk_.push_back(le(pos + d * width, width));
      if (chunk_.back() == 0) {
        problem_ = "its chunked layout has a chunk dimension of 0 (dimension " + std::to_string(d) + ")";
        return;
      }
    }
  }

  // The attribute message at [at, at + size): HDF5 1.10.8 decodes the name up to its NUL,
  // then the datatype and dataspace, and copies elements x type size bytes of value, none of
  // it bounded by the message: each part must lie inside the message, the name must end in a
  // NUL, an atomic datatype must be whole (see datatype), and the value's bytes must be there.
  // Each variable-length value must then be a global heap object of exactly its bytes.
  // Versions 1 (parts padded to 8 bytes), 2 and 3; a shared datatype or dataspace (flags 1,
  // 2) is a reference to another message, and the value's size is left to HDF5 then.
  void attribute(std::uint64_t at, std::uint64_t size) {
    auto corrupt = [&](const std::string& what) { problem_ = "an attribute message at byte " + std::to_string(at) + " " + what; };
    if (size < 8) return corrupt("is " + std::to_string(size) + " bytes long, shorter than its fixed fields");
    const unsigned version = file_[at];
    if (version < 1 || version > 3) return;  // HDF5 refuses an unknown version itself
    const bool shared = version >= 2 && (file_[at + 1] & 0x03);
    const std::uint64_t name = le(at + 2, 2), type = le(at + 4, 2), space = le(at + 6, 2);
    auto part = [version](std::uint64_t n) { return version == 1 ? (n + 7) / 8 * 8 : n; };
    std::uint64_t pos = at + (version == 3 ? 9 : 8);
    const std::uint64_t end = at + size;
    if (pos > end || name == 0 || part(name) > end - pos) return corrupt("declares a name of " + std::to_string(name) + " bytes past its end");
    if (std::memchr(file_ + pos, 0, name) == nullptr) return corrupt("has a name without its terminating NUL");
    pos += part(name);
    const std::uint64_t type_at = pos;
    if (type < 8 || part(type) > end - pos) return corrupt("declares a datatype of " + std::to_string(type) + " bytes past its end");
    pos += part(type);
    const std::uint64_t space_at = pos;
    if (part(space) > end - pos) return corrupt("declares a dataspace of " + std::to_string(space) + " bytes past its end");
    pos += part(space);
    if (shared) return;
    if (std::string why = datatype(type_at, type); !why.empty()) return corrupt("has " + why);
    // A variable-length type's base type follows its 8-byte header; its values are converted
    // by the base's bits too.
    if ((file_[type_at] & 0x0F) == kVariableLengthClass && type > 8)
      if (std::string why = datatype(type_at + 8, type - 8); !why.empty()) return corrupt("has a variable-length type of " + why);
    std::uint64_t count = 0;
    if (!elements(space_at, space, count)) return;
    // Datatype: class in the low 4 bits of byte 0; a variable-length value is stored as its
    // length, heap collection and object index whatever the size field says.
    const bool variable = (file_[type_at] & 0x0F) == kVariableLengthClass;
    const std::uint64_t element = variable ? 4 + addr_bytes_ + 4 : le(type_at + 4, 4);
    if (element != 0 && count > (end - pos) / element)
      return corrupt("declares " + std::to_string(count) + " values of " + std::to_string(element) + " bytes but holds " +
                     std::to_string(end - pos));
    // A variable-length type's properties are its base type, whose size is 4 bytes into it.
    // Nested variable-length types are left alone.
    if (!variable || type < 16 || (file_[type_at + 8] & 0x0F) == kVariableLengthClass) return;
    const std::uint64_t base_size = le(type_at + 12, 4);
    for (std::uint64_t i = 0; i < count && problem_.empty(); ++i, pos += element) {
      const std::uint64_t length = le(pos, 4), collection = le(pos + 4, addr_bytes_);
      const std::uint64_t index = le(pos + 4 + addr_bytes_, 4);
      if (length == 0) continue;  // an empty value reads nothing from the heap
      const std::uint64_t want = length * base_size;
      const std::uint64_t have = heap_object_size(collection, index);
      if (!problem_.empty()) return;
      if (have != want)
        problem_ = "an attribute's variable-length value " + std::to_string(i) + " needs " + std::to_string(want) +
                   " bytes but its global heap object (collection at " + std::to_string(collection) + ", index " +
                   std::to_string(index) + ") " + (have == kMissing ? std::string("is missing") : "holds " + std::to_string(have));
    }
  }

  // "" when the datatype message at [at, at + size) is safe to convert from, else what is
  // wrong with it. HDF5 1.10.8 takes an integer's, bitfield's or float's bit offset and
  // precision (and a float's sign, exponent and mantissa positions) as given, and converting
  // such a value then reads bits past the value's bytes: they must lie inside its size.
  std::string datatype(std::uint64_t at, std::uint64_t size) const {
    if (size < 8) return "";
    const unsigned type_class = file_[at] & 0x0F;
    if (type_class != 0 && type_class != 1 && type_class != 4) return "";
    const std::uint64_t bytes = le(at + 4, 4), bits = 8 * bytes;
    if (bytes == 0) return "a number type of 0 bytes";
    if (size < (type_class == 1 ? 20u : 12u)) return "a number type whose properties are cut short";
    const std::uint64_t offset = le(at + 8, 2), precision = le(at + 10, 2);
    if (precision == 0 || offset + precision > bits)
      return "a number type of " + std::to_string(bytes) + " bytes declaring " + std::to_string(precision) +
             " bits of precision at bit " + std::to_string(offset);
    if (type_class != 1) return "";
    const std::uint64_t sign = file_[at + 2], exponent_at = file_[at + 12], exponent_bits = file_[at + 13];
    const std::uint64_t mantissa_at = file_[at + 14], mantissa_bits = file_[at + 15];
    if (sign >= bits || exponent_bits == 0 || exponent_at + exponent_bits > bits || mantissa_bits == 0 ||
        mantissa_at + mantissa_bits > bits)
      return "a float type of " + std::to_string(bytes) + " bytes whose sign, exponent or mantissa bits lie outside it";
    return "";
  }

  // The link message at [at, at + size) (a group's member in compact storage): version 1,
  // flags (bits 0-1 the name length's width, 2 creation order, 3 link type, 4 name character
  // set present), then those fields, the name, and the target (a hard link's address, or a
  // 2-byte length and that many bytes). HDF5 1.10.8 decodes every link message of a group
  // into a table before iterating it, with no bound on the message's size, and on a message
  // it refuses frees the table's entries that were never filled in (a double free in
  // H5G__link_release_table): each message must decode within its bytes here first. H5Ovisit
  // reports a group before it lists the group's links, so this check comes first.
  void link(std::uint64_t at, std::uint64_t size) {
    const std::uint64_t end = at + size;
    auto corrupt = [&](const std::string& what) { problem_ = "a link message at byte " + std::to_string(at) + " " + what; };
    if (size < 2 || file_[at] != 1) return corrupt("is not of version 1");
    const unsigned flags = file_[at + 1];
    if (flags & 0xE0) return corrupt("has reserved flag bits set (" + std::to_string(flags) + ")");
    std::uint64_t pos = at + 2;
    unsigned link_type = 0;
    if (flags & 0x08) {
      if (pos + 1 > end) return corrupt("ends inside its link type");
      link_type = file_[pos++];
      if (link_type > 1 && link_type < 64) return corrupt("has the unknown link type " + std::to_string(link_type));
    }
    if (flags & 0x04) pos += 8;  // creation order
    if (flags & 0x10) {
      if (pos + 1 > end) return corrupt("ends inside its name's character set");
      if (file_[pos++] > 1) return corrupt("declares an unknown character set for its name");
    }
    const unsigned width = 1u << (flags & 0x03);
    if (pos + width > end) return corrupt("ends inside its name's length");
    const std::uint64_t name_length = le(pos, width);
    pos += width;
    if (name_length == 0 || name_length > end - pos) return corrupt("declares a name of " + std::to_string(name_length) + " bytes in a message of " + std::to_string(size));
    pos += name_length;
    if (link_type == 0) {
      if (addr_bytes_ > end - pos) return corrupt("ends inside its target's address");
      return;
    }
    if (pos + 2 > end) return corrupt("ends inside its target's length");
    const std::uint64_t target = le(pos, 2);
    if ((link_type == 1 && target == 0) || target > end - pos - 2)
      return corrupt("declares a target of " + std::to_string(target) + " bytes in a message of " + std::to_string(size));
  }

  // The link info message at [at, at + size) (a new-style group's): version 0, flags (bit 0
  // the maximum creation index present, bit 1 creation order indexed), then the addresses of
  // the fractal heap and the name index B-tree (and the creation order index B-tree) of
  // dense link storage, undefined (all ones) while the links are compact. HDF5 1.10.8 opens
  // the B-tree of a defined heap address without checking the address against the file: a
  // flipped bit there was a segfault reading far past the end under H5Ovisit.
  void link_info(std::uint64_t at, std::uint64_t size) {
    auto corrupt = [&](const std::string& what) { problem_ = "a link info message at byte " + std::to_string(at) + " " + what; };
    if (size < 2 || file_[at] != 0) return corrupt("is not of version 0");
    const unsigned flags = file_[at + 1];
    if (flags & ~0x03u) return corrupt("has reserved flag bits set (" + std::to_string(flags) + ")");
    const unsigned addresses = (flags & 0x02) ? 3 : 2;
    const std::uint64_t pos = at + 2 + ((flags & 0x01) ? 8 : 0);
    if (pos + std::uint64_t{addresses} * addr_bytes_ > at + size) return corrupt("ends inside its addresses");
    const std::uint64_t undefined = all_ones(addr_bytes_);
    const std::uint64_t heap = le(pos, addr_bytes_);
    for (unsigned i = 0; i < addresses; ++i) {
      const std::uint64_t address = le(pos + i * addr_bytes_, addr_bytes_);
      if ((address == undefined) != (heap == undefined))
        return corrupt("has dense link storage addresses of which only some are defined");
      if (address != undefined && !in_file(base_ + address, 16))
        return corrupt("points at byte " + std::to_string(address) + ", outside the file's " + std::to_string(size_) + " bytes");
    }
  }

  // The number of elements a dataspace message at [at, at + size) describes (versions 1, 2).
  // With `max_dims`, also each dimension's maximum (kUnknown: unlimited).
  bool elements(std::uint64_t at, std::uint64_t size, std::uint64_t& count,
                std::vector<std::uint64_t>* max_dims = nullptr) const {
    if (size < 4) return false;
    const unsigned version = file_[at], rank = file_[at + 1];
    std::uint64_t dims_at = 0;
    if (version == 1) {
      dims_at = at + 8;
    } else if (version == 2) {
      if (file_[at + 3] == 2) {  // null dataspace: no elements
        count = 0;
        return true;
      }
      dims_at = at + 4;
    } else {
      return false;
    }
    if (rank * std::uint64_t{size_bytes_} > at + size - std::min(dims_at, at + size)) return false;
    count = 1;
    for (unsigned d = 0; d < rank; ++d) {
      const std::uint64_t n = le(dims_at + d * size_bytes_, size_bytes_);
      if (n != 0 && count > (std::uint64_t{1} << 40) / n) return false;  // HDF5 refuses that itself
      count *= n;
    }
    if (max_dims) {  // flag 1: the maximum dimensions follow the dimensions
      max_dims->clear();
      const bool given = (file_[at + 2] & 0x01) != 0;
      const std::uint64_t max_at = dims_at + rank * std::uint64_t{size_bytes_};
      if (given && rank * std::uint64_t{size_bytes_} > at + size - std::min(max_at, at + size)) return false;
      for (unsigned d = 0; d < rank; ++d) {
        const std::uint64_t m = le((given ? max_at : dims_at) + d * size_bytes_, size_bytes_);
        const bool unlimited = given && m == all_ones(size_bytes_);
        max_dims->push_back(unlimited ? kUnknown : m);
      }
    }
    return true;
  }

  static constexpr std::uint64_t kMissing = ~std::uint64_t{0};

  struct Heap {
    std::string problem;                           // what makes HDF5's own walk unsafe
    std::map<std::uint64_t, std::uint64_t> sizes;  // object index -> bytes
  };

  // The size of object `index` of the global heap collection at `address` (kMissing when
  // the object is not there). HDF5 walks a whole collection when it loads one: "GCOL",
  // version 1, 3 reserved, the collection's size; then objects: index (2), reference count
  // (2), 4 reserved, size, data padded to 8 bytes; index 0 is free space whose size counts
  // its own header (and a free space of size 0 is a walk that never ends). The walk is done
  // here first, once per collection; it must end exactly at the collection's end.
  std::uint64_t heap_object_size(std::uint64_t address, std::uint64_t index) {
    auto it = heaps_.find(address);
    if (it == heaps_.end()) it = heaps_.emplace(address, walk_heap(address)).first;
    const Heap& heap = it->second;
    if (!heap.problem.empty()) {
      problem_ = "the global heap collection at " + std::to_string(address) + " " + heap.problem;
      return kMissing;
    }
    const auto object = heap.sizes.find(index);
    return object == heap.sizes.end() ? kMissing : object->second;
  }

  Heap walk_heap(std::uint64_t address) const {
    Heap heap;
    const std::uint64_t at = base_ + address;
    const std::uint64_t head = 8 + size_bytes_, object_head = 8 + size_bytes_;
    if (!in_file(at, head) || std::memcmp(file_ + at, "GCOL", 4) != 0 || file_[at + 4] != 1) {
      heap.problem = "is not a global heap collection (version 1)";
      return heap;
    }
    const std::uint64_t bytes = le(at + 8, size_bytes_);
    if (bytes < head || !in_file(at, bytes)) {
      heap.problem = "declares " + std::to_string(bytes) + " bytes, more than the file holds";
      return heap;
    }
    const std::uint64_t end = at + bytes;
    for (std::uint64_t pos = at + head; pos < end;) {
      if (object_head > end - pos) break;  // a tail too short for an object is free space
      const std::uint64_t id = le(pos, 2), n = le(pos + 8, size_bytes_);
      std::uint64_t need = n;
      if (id != 0) {
        if (n > end - pos - object_head) {
          heap.problem = "has object " + std::to_string(id) + " of " + std::to_string(n) + " bytes past its end";
          return heap;
        }
        heap.sizes[id] = n;
        need = object_head + (n + 7) / 8 * 8;
      }
      if (need == 0 || need > end - pos) {
        heap.problem = "has an object (index " + std::to_string(id) + ", " + std::to_string(n) + " bytes) at offset " +
                       std::to_string(pos - at) + " that does not end within the collection";
        return heap;
      }
      pos += need;
    }
    return heap;
  }

  const unsigned char* file_;
  std::size_t size_;
  std::uint64_t base_;
  unsigned addr_bytes_, size_bytes_;
  int blocks_ = 0;
  std::string problem_;
  std::map<std::uint64_t, Heap> heaps_;  // by collection address
  // Of the object header being checked: a compact layout's data bytes, the datatype's size,
  // the dataspace's element count (kUnknown when absent or not understood).
  static constexpr std::uint64_t kUnknown = ~std::uint64_t{0};
  std::uint64_t compact_bytes_ = kUnknown, contiguous_bytes_ = kUnknown, element_bytes_ = kUnknown, elements_ = kUnknown;
  std::vector<std::uint64_t> chunk_, max_dims_;  // a chunked layout's dimensions; the dataspace's maxima
};

constexpr long kMaxDepth = 256;

struct Visit {
  HeaderWalk* walk;
  std::string kind, name, problem;
  // HDF5 1.10's H5Ovisit follows a corrupt group structure whose entries lead back to a
  // group above (a loop) without end, one path deeper each time: more objects than the file
  // has bytes for (an object header takes at least 16) ends the walk.
  std::uint64_t objects = 0, max_objects = 0;
  bool loops = false;
};

herr_t visit_object(hid_t, const char* name, const H5O_info_t* info, void* out) {
  auto* v = static_cast<Visit*>(out);
  // A path over kMaxDepth groups deep is taken for a loop too (each step deeper costs HDF5 a
  // walk from the root: a loop met the object bound only after seconds).
  if (++v->objects > v->max_objects || std::count(name, name + std::strlen(name), '/') > kMaxDepth) {
    v->loops = true;
    return 1;  // stop
  }
  if (info->type != H5O_TYPE_DATASET && info->type != H5O_TYPE_GROUP) return 0;
  std::string problem = v->walk->check(info->addr);
  if (problem.empty()) return 0;
  v->kind = info->type == H5O_TYPE_DATASET ? "dataset" : "group";
  v->name = std::strcmp(name, ".") == 0 ? "" : name;
  v->problem = std::move(problem);
  return 1;  // stop
}

}  // namespace

void check_layouts(const Context& ctx, hid_t file, const void* bytes, std::size_t size) {
  Session session;
  Handle fcpl(H5Fget_create_plist(file), H5Pclose);
  std::size_t sizeof_addr = 8, sizeof_size = 8;
  hsize_t userblock = 0;
  if (!fcpl || H5Pget_sizes(fcpl.get(), &sizeof_addr, &sizeof_size) < 0 || H5Pget_userblock(fcpl.get(), &userblock) < 0)
    fail(ctx, "cannot read the file's superblock");
  if (sizeof_addr < 2 || sizeof_addr > 8 || sizeof_size < 2 || sizeof_size > 8)
    fail(ctx, "the superblock declares addresses of " + std::to_string(sizeof_addr) + " bytes and lengths of " +
                  std::to_string(sizeof_size) + " bytes");
  HeaderWalk walk(static_cast<const unsigned char*>(bytes), size, userblock, static_cast<unsigned>(sizeof_addr),
                  static_cast<unsigned>(sizeof_size));
  Visit visit{&walk, {}, {}, {}};
  visit.max_objects = size / 16 + 16;
  if (H5Ovisit2(file, H5_INDEX_NAME, H5_ITER_NATIVE, &visit_object, &visit, H5O_INFO_BASIC) < 0 && visit.problem.empty() &&
      !visit.loops)
    fail(ctx, "cannot list the objects of the file");
  if (visit.loops)
    fail(ctx, "the file's groups nest deeper, or hold more objects, than its " + std::to_string(size) +
                  " bytes can (a loop in a corrupt group structure)");
  if (!visit.problem.empty())
    fail(ctx, visit.kind + " /" + visit.name + ": " + visit.problem + ", which HDF5 1.10 cannot read safely (a corrupt file)");
}

}  // namespace meshioplusplus::io::hdf5

#endif  // MESHIOPP_HAVE_HDF5
