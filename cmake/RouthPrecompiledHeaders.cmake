# Precompiled headers: Eigen, Boost and the standard library headers most of routh's files
# include, parsed once per large target instead of once per file. With a compiler cache they are
# off by default: the cache serves rebuilds, and files compiled with a precompiled header would
# miss it. The sanitizer and fuzzing builds go without them.
if(CMAKE_CXX_COMPILER_LAUNCHER OR ROUTH_SANITIZE OR ROUTH_FUZZ)
  set(routh_pch_default OFF)
else()
  set(routh_pch_default ON)
endif()
option(ROUTH_PRECOMPILE_HEADERS "Precompile the heavy third-party headers of the large targets"
       ${routh_pch_default})
set(ROUTH_PRECOMPILED_HEADERS
    <Eigen/Core> <Eigen/Cholesky> <Eigen/LU> <Eigen/Geometry> <boost/container/small_vector.hpp>
    <algorithm> <cmath> <functional> <limits> <map> <memory> <optional> <sstream> <string>
    <variant> <vector>)

# routh_precompile_headers(TARGET [HEADER...]): the common headers and the target's own heavy ones
function(routh_precompile_headers target)
  if(ROUTH_PRECOMPILE_HEADERS)
    target_precompile_headers(${target} PRIVATE ${ROUTH_PRECOMPILED_HEADERS} ${ARGN})
  endif()
endfunction()
