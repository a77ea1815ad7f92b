# The build, not discipline, keeps the layering: io, fast and gpu build on the
# core, ui on core and io, app on all of them, and no layer includes one above
# or beside it. No target has the project's root folder on its include path:
# each layer has an include root of its own in the build tree,
# build/include/<layer>/, holding a symbolic link to that layer's folder and
# nothing else, and publishes it to the targets that link it. So
# `#include "core/tensor_desc.h"` works wherever the core is linked, while
# `#include "ui/..."` from the core, or `#include "gpu/..."` from the app
# library, is "No such file or directory" at compile time.
# tests/layering proves it.

# stridescope_include_root(TARGET LAYER FOLDER [EXCEPT SUBFOLDER...])
#   Publishes build/include/LAYER/FOLDER, a link to the source folder FOLDER,
#   as TARGET's include root. With EXCEPT, FOLDER is instead a folder of links
#   to each of its headers and subfolders but the SUBFOLDERs named, so those
#   (the core's io/ and fast/, layers built on it) stay out of reach; a header
#   or subfolder added later is linked when the build re-runs CMake, which the
#   glob below asks for.
function(stridescope_include_root target layer folder)
  set(root ${PROJECT_BINARY_DIR}/include/${layer})
  stridescope_link_folder(${root} ${folder} ${ARGN})
  target_include_directories(${target} PUBLIC ${root})
endfunction()

# stridescope_link_folder(ROOT FOLDER [EXCEPT SUBFOLDER...]): makes ROOT/FOLDER
# the link (or, with EXCEPT, the folder of links) described above.
function(stridescope_link_folder root folder)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "EXCEPT")
  set(source ${PROJECT_SOURCE_DIR}/${folder})
  set(link ${root}/${folder})
  cmake_path(GET link PARENT_PATH parent)
  file(MAKE_DIRECTORY ${parent})
  if(arg_EXCEPT)
    if(IS_SYMLINK ${link})
      file(REMOVE ${link})
    endif()
    file(MAKE_DIRECTORY ${link})
    # Drop links to entries that may no longer exist. Only links are
    # removed: never anything they point to.
    file(GLOB old_links ${link}/*)
    foreach(old IN LISTS old_links)
      if(IS_SYMLINK ${old})
        file(REMOVE ${old})
      endif()
    endforeach()
    file(GLOB entries LIST_DIRECTORIES true CONFIGURE_DEPENDS ${source}/*)
    foreach(entry IN LISTS entries)
      cmake_path(GET entry FILENAME name)
      if(IS_DIRECTORY ${entry})
        if(name IN_LIST arg_EXCEPT)
          continue()
        endif()
      elseif(NOT name MATCHES "\\.h$")
        continue()
      endif()
      file(CREATE_LINK ${entry} ${link}/${name} SYMBOLIC)
    endforeach()
  else()
    if(IS_SYMLINK ${link})
      file(REMOVE ${link})  # the link only; the build folder may have moved
    endif()
    file(CREATE_LINK ${source} ${link} SYMBOLIC)
  endif()
endfunction()
