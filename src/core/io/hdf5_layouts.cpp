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
constexpr unsigned kCompactClass = 0;
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
    compact_bytes_ = element_bytes_ = elements_ = kUnknown;
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
        if (type == kDatatypeMessage && size >= 8) element_bytes_ = le(data + 4, 4);
        if (type == kAttributeMessage) attribute(data, size);
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
    if (version >= 3 && version <= 5 && file_[at + 1] == kCompactClass && size >= 4) {
      // class, the data's size (2 bytes), the data: all of it inside the message
      compact_bytes_ = le(at + 2, 2);
      if (compact_bytes_ > size - 4) problem_ = "its compact layout declares more bytes than its message holds";
      return;
    }
    std::uint64_t dims = 0, pos = 0;
    unsigned width = 4;
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

  // The attribute message at [at, at + size): each variable-length value of its data must be
  // a global heap object of exactly its bytes. Versions 1 (parts padded to 8 bytes), 2 and 3;
  // a shared datatype or dataspace (flags 1, 2) is elsewhere and left to HDF5.
  void attribute(std::uint64_t at, std::uint64_t size) {
    if (size < 8) return;
    const unsigned version = file_[at];
    if (version < 1 || version > 3 || (version >= 2 && (file_[at + 1] & 0x03))) return;
    const std::uint64_t name = le(at + 2, 2), type = le(at + 4, 2), space = le(at + 6, 2);
    auto part = [version](std::uint64_t n) { return version == 1 ? (n + 7) / 8 * 8 : n; };
    std::uint64_t pos = at + (version == 3 ? 9 : 8);
    const std::uint64_t end = at + size;
    if (pos + part(name) > end) return;
    pos += part(name);
    const std::uint64_t type_at = pos;
    if (type < 8 || pos + part(type) > end) return;
    pos += part(type);
    const std::uint64_t space_at = pos;
    if (pos + part(space) > end) return;
    pos += part(space);
    // Datatype: class in the low 4 bits of byte 0; a variable-length type's properties are its
    // base type, whose size is at 4 bytes into it. Nested variable-length types are left alone.
    if ((file_[type_at] & 0x0F) != kVariableLengthClass || type < 16) return;
    if ((file_[type_at + 8] & 0x0F) == kVariableLengthClass) return;
    const std::uint64_t base_size = le(type_at + 12, 4);
    std::uint64_t count = 0;
    if (!elements(space_at, space, count)) return;
    const std::uint64_t element = 4 + addr_bytes_ + 4;  // length, heap collection, object index
    if (count > (end - pos) / element) return;  // HDF5 refuses a short attribute itself
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
        const bool unlimited = given && m == (size_bytes_ == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * size_bytes_)) - 1);
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
  std::uint64_t compact_bytes_ = kUnknown, element_bytes_ = kUnknown, elements_ = kUnknown;
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
