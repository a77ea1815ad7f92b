# The probe of tests/layering: for each folder, preprocesses
# `#include "FOLDER/<its first header>"` with the include directories INCLUDES
# and checks the outcome. Folders in MISSING must fail because the compiler
# cannot find that header; folders in FOUND must preprocess cleanly.
#   cmake -DCOMPILER=c++ -DSTD_FLAG=-std=c++20 -DINCLUDES="a|b" -DSOURCE_DIR=src
#         -DMISSING="ui|gpu" -DFOUND=core -DWORK_DIR=dir -P check_includes.cmake
# (lists are '|'-separated so that they pass through add_test whole)
foreach(var COMPILER SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_includes.cmake needs -D${var}=...")
  endif()
endforeach()

string(REPLACE "|" ";" include_dirs "${INCLUDES}")
set(include_flags)
foreach(dir IN LISTS include_dirs)
  list(APPEND include_flags -I${dir})
endforeach()
file(MAKE_DIRECTORY ${WORK_DIR})

# Preprocesses an include of the first header of `folder`; sets `header`,
# `result` and `output` in the caller.
function(probe folder)
  # A real header of that folder, so a renamed file cannot make a probe pass.
  file(GLOB headers RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/${folder}/*.h)
  list(SORT headers)
  if(NOT headers)
    message(FATAL_ERROR "${SOURCE_DIR}/${folder} holds no header to probe with")
  endif()
  list(GET headers 0 first)
  string(MAKE_C_IDENTIFIER ${folder} name)
  set(source ${WORK_DIR}/${name}.cpp)
  file(WRITE ${source} "#include \"${first}\"\n")
  execute_process(
    COMMAND ${COMPILER} ${STD_FLAG} -E -o ${WORK_DIR}/${name}.ii ${include_flags} ${source}
    RESULT_VARIABLE code
    OUTPUT_VARIABLE text
    ERROR_VARIABLE text)
  set(header ${first} PARENT_SCOPE)
  set(result ${code} PARENT_SCOPE)
  set(output "${text}" PARENT_SCOPE)
endfunction()

string(REPLACE "|" ";" missing "${MISSING}")
foreach(folder IN LISTS missing)
  probe(${folder})
  if(result EQUAL 0)
    message(FATAL_ERROR "${header} was found, but this target must not reach ${folder}/; "
                        "include path: ${include_dirs}")
  endif()
  string(REPLACE "." "\\." pattern "${header}")
  if(NOT output MATCHES "${pattern}'?:? (No such file or directory|file not found)")
    # The header itself was found; something it includes was not.
    message(FATAL_ERROR "${header} is reachable, but this target must not reach ${folder}/ "
                        "(preprocessing failed only further on):\n${output}")
  endif()
  message(STATUS "out of reach, as it should be: ${header}")
endforeach()

string(REPLACE "|" ";" found "${FOUND}")
foreach(folder IN LISTS found)
  probe(${folder})
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${header} should be reachable with this include path (${include_dirs}):\n${output}")
  endif()
  message(STATUS "reachable, as it should be: ${header}")
endforeach()
