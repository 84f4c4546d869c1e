"""The parallel-HDF5 flavour of meshioplusplus._core: the same extension linked to Debian's
libhdf5_openmpi and libnetcdf_mpi instead of the serial pair, built where CMake finds MPI
and parallel HDF5. ``meshioplusplus._flavour`` decides which of the two a process loads
(docs/parallel.md, "One HDF5 per process")."""
