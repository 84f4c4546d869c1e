// meshio++ binding: BufferAllocator backed by two Python callables (mio.use_allocator and
// mio._gpu.pinned_reads are built on it).
//
//   alloc(nbytes) -> int address     free(address, nbytes) -> None
//
// Both C callbacks take the GIL (the core calls them from threads that released it). The
// callables live in a heap state owned by the allocator's shared_ptr, whose deleter runs
// when the last buffer born with this allocator dies, possibly long after uninstall. At
// interpreter shutdown (Py_IsInitialized() false, or finalizing) the free path does
// nothing: the process is ending and calling into Python then would crash.
#include "allocator_shim.hpp"

#include <cstdint>
#include <memory>

#include "meshioplusplus/ndarray.hpp"

namespace meshioplusplus::python {

namespace py = pybind11;

namespace {

bool python_usable() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsInitialized() && !Py_IsFinalizing();
#else
  return Py_IsInitialized() && !_Py_IsFinalizing();
#endif
}

thread_local std::string g_alloc_error;  // why the last Python alloc() on this thread failed

struct PyAllocatorState {
  py::object alloc;
  py::object free;
};

void* shim_alloc(std::size_t nbytes, void* user) {
  if (!python_usable()) return nullptr;
  py::gil_scoped_acquire gil;
  auto* state = static_cast<PyAllocatorState*>(user);
  try {
    py::object address = state->alloc(nbytes);
    const auto value = address.cast<std::uintptr_t>();
    return reinterpret_cast<void*>(value);
  } catch (const std::exception& e) {  // error_already_set too: its what() is the Python error
    g_alloc_error = e.what();
  }
  return nullptr;  // the core turns this into std::bad_alloc -> MemoryError
}

void shim_free(void* ptr, std::size_t nbytes, void* user) {
  if (!python_usable()) return;  // interpreter-shutdown straggler: leave it to the OS
  py::gil_scoped_acquire gil;
  auto* state = static_cast<PyAllocatorState*>(user);
  try {
    state->free(reinterpret_cast<std::uintptr_t>(ptr), nbytes);
  } catch (py::error_already_set& e) {
    e.discard_as_unraisable("meshioplusplus allocator: free");
  } catch (const std::exception&) {
  }
}

void release_state(const BufferAllocator* allocator) {
  auto* state = static_cast<PyAllocatorState*>(allocator->user);
  if (python_usable()) {
    py::gil_scoped_acquire gil;
    delete state;
  } else {
    state->alloc.release();  // no interpreter to decref into
    state->free.release();
    delete state;
  }
  delete allocator;
}

using AllocatorHandle = std::shared_ptr<const BufferAllocator>;

// What set_allocator returns: the allocator that was current before (null = default heap).
struct AllocatorToken {
  AllocatorHandle previous;
};

}  // namespace

std::string take_allocator_error() {
  std::string out;
  out.swap(g_alloc_error);
  return out;
}

void register_allocator_shim(py::module_& m) {
  py::class_<AllocatorToken>(m, "_AllocatorToken", "An installed (or default) buffer allocator, for restoring.");

  m.def(
      "set_allocator",
      [](py::function alloc, py::function free) {
        auto* state = new PyAllocatorState{std::move(alloc), std::move(free)};
        AllocatorHandle handle(new BufferAllocator{shim_alloc, shim_free, state}, release_state);
        AllocatorToken token{current_buffer_allocator()};
        set_buffer_allocator(std::move(handle));
        return token;
      },
      py::arg("alloc"), py::arg("free"),
      "Install Python callables alloc(nbytes) -> address and free(address, nbytes) as the "
      "buffer allocator. Returns a token for the allocator that was current before.");
  m.def(
      "restore_allocator", [](const AllocatorToken& token) { set_buffer_allocator(token.previous); }, py::arg("token"),
      "Reinstall the allocator a set_allocator() token stands for (the default heap if none was).");
  // Other extension modules of the package link their own copy of the core, whose
  // allocator is not this one: they ask this module for the installed allocator.
  using CurrentAllocatorFn = std::shared_ptr<const BufferAllocator> (*)();
  static CurrentAllocatorFn current = &current_buffer_allocator;
  m.attr("_allocator_api") = py::capsule(static_cast<void*>(&current), kAllocatorApiName);
  m.def("set_buffer_cache_limit", &set_buffer_cache_limit, py::arg("nbytes"),
        "Set how many bytes of freed large buffers the default heap keeps for reuse (0: none); returns the previous limit.");
  m.def("cached_buffer_bytes", &cached_buffer_bytes, "Bytes of freed large buffers the default heap keeps now.");
  m.def("release_cached_buffers", &release_cached_buffers, py::call_guard<py::gil_scoped_release>(),
        "Give every freed large buffer the default heap keeps back to the system now.");
  m.def(
      "allocator_installed", [] { return current_buffer_allocator() != nullptr; },
      "Whether a buffer allocator other than the default heap is installed now.");
}

}  // namespace meshioplusplus::python
