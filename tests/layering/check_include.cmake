# One probe of tests/layering: compiles `#include "FOLDER/<first header>"`
# (syntax only) with the include directories INCLUDES ('|'-separated) and
# checks the outcome. EXPECT=missing: the compiler must fail because it cannot
# find that header. EXPECT=found: it must compile.
#   cmake -DCOMPILER=c++ -DSTD_FLAG=-std=c++20 -DINCLUDES=a|b -DSOURCE_DIR=src
#         -DFOLDER=ui -DEXPECT=missing -DWORK_DIR=dir -P check_include.cmake
foreach(var COMPILER SOURCE_DIR FOLDER EXPECT WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_include.cmake needs -D${var}=...")
  endif()
endforeach()

# A real header of that folder, so a renamed file cannot make the probe pass.
file(GLOB headers RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/${FOLDER}/*.h)
list(SORT headers)
if(NOT headers)
  message(FATAL_ERROR "${SOURCE_DIR}/${FOLDER} holds no header to probe with")
endif()
list(GET headers 0 header)

file(MAKE_DIRECTORY ${WORK_DIR})
set(probe ${WORK_DIR}/probe.cpp)
file(WRITE ${probe} "#include \"${header}\"\n")
string(REPLACE "|" ";" include_dirs "${INCLUDES}")
set(include_flags)
foreach(dir IN LISTS include_dirs)
  list(APPEND include_flags -I${dir})
endforeach()
execute_process(
  COMMAND ${COMPILER} ${STD_FLAG} -fsyntax-only ${include_flags} ${probe}
  WORKING_DIRECTORY ${WORK_DIR}
  RESULT_VARIABLE result
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output)

string(REPLACE "." "\\." header_pattern "${header}")
if(EXPECT STREQUAL "missing")
  if(result EQUAL 0)
    message(FATAL_ERROR "${header} was found, but this target must not be able to include ${FOLDER}/; "
                        "include path: ${include_dirs}")
  endif()
  if(NOT output MATCHES "${header_pattern}'?:? (No such file or directory|file not found)")
    message(FATAL_ERROR "the compile failed, but not because ${header} was not found:\n${output}")
  endif()
  message(STATUS "as it should be, ${header} is out of reach: ${output}")
elseif(EXPECT STREQUAL "found")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${header} should compile with this include path (${include_dirs}):\n${output}")
  endif()
  message(STATUS "${header} is reachable, as it should be")
else()
  message(FATAL_ERROR "EXPECT must be missing or found, not '${EXPECT}'")
endif()
