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

# stridescope_include_root(TARGET LAYER FOLDER [HEADERS_ONLY])
#   Publishes build/include/LAYER/FOLDER, a link to the source folder FOLDER,
#   as TARGET's include root. HEADERS_ONLY links the folder's own *.h files one
#   by one instead of the whole folder, so its subfolders (the core's io/ and
#   fast/, layers above it) stay out of reach; a header added later is linked
#   when the build re-runs CMake, which the glob below asks for.
function(stridescope_include_root target layer folder)
  cmake_parse_arguments(PARSE_ARGV 3 arg "HEADERS_ONLY" "" "")
  set(root ${PROJECT_BINARY_DIR}/include/${layer})
  if(arg_HEADERS_ONLY)
    stridescope_link_folder(${root} ${folder} HEADERS_ONLY)
  else()
    stridescope_link_folder(${root} ${folder})
  endif()
  target_include_directories(${target} PUBLIC ${root})
endfunction()

# stridescope_link_folder(ROOT FOLDER [HEADERS_ONLY]): makes ROOT/FOLDER the
# link (or, HEADERS_ONLY, the folder of links) described above.
function(stridescope_link_folder root folder)
  cmake_parse_arguments(PARSE_ARGV 2 arg "HEADERS_ONLY" "" "")
  set(source ${PROJECT_SOURCE_DIR}/${folder})
  set(link ${root}/${folder})
  cmake_path(GET link PARENT_PATH parent)
  file(MAKE_DIRECTORY ${parent})
  if(arg_HEADERS_ONLY)
    if(IS_SYMLINK ${link})
      file(REMOVE ${link})
    endif()
    file(MAKE_DIRECTORY ${link})
    # Drop links to headers that no longer exist. Only links are removed:
    # never anything they point to.
    file(GLOB old_links ${link}/*)
    foreach(old IN LISTS old_links)
      if(IS_SYMLINK ${old})
        file(REMOVE ${old})
      endif()
    endforeach()
    file(GLOB headers CONFIGURE_DEPENDS ${source}/*.h)
    foreach(header IN LISTS headers)
      cmake_path(GET header FILENAME name)
      file(CREATE_LINK ${header} ${link}/${name} SYMBOLIC)
    endforeach()
  else()
    if(IS_SYMLINK ${link})
      file(REMOVE ${link})  # the link only; the build folder may have moved
    endif()
    file(CREATE_LINK ${source} ${link} SYMBOLIC)
  endif()
endfunction()
