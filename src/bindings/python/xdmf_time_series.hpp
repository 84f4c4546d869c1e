// meshio++ binding: the XDMF time series (formats/xdmf/xdmf_time_series.hpp) as
// _core.XdmfTimeSeriesWriter / _core.XdmfTimeSeriesReader; meshioplusplus.xdmf's
// TimeSeriesWriter / TimeSeriesReader (src/python/meshioplusplus/_xdmf.py) wrap them.
#pragma once

#include <pybind11/pybind11.h>

namespace meshioplusplus::python {

void register_xdmf_time_series(pybind11::module_& m);

}  // namespace meshioplusplus::python
