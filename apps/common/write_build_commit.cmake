# Writes OUTPUT, a header that defines BSRFLOW_GIT_COMMIT as the commit the apps are being built
# from: the short hash of SOURCE_DIR's HEAD, plus "-dirty.<d>" when tracked files have uncommitted
# changes, d the first 7 hex digits of the SHA-1 of `git diff --no-color --no-ext-diff HEAD` - so
# that a report from an experiment build names its patch (`git diff HEAD > x.patch` hashes the
# same: sha1sum x.patch); "unknown" without git (GIT_EXECUTABLE empty), when SOURCE_DIR is not the
# top of a git checkout (a tarball unpacked inside some other repository must not report that
# one's HEAD), or when git fails.
#
#   cmake -DGIT_EXECUTABLE=... -DSOURCE_DIR=... -DOUTPUT=... -P write_build_commit.cmake
#
# apps/CMakeLists.txt runs this on every build (target bsrflow_build_commit), so a build dir
# configured at one commit and rebuilt at another reports the second. OUTPUT is replaced only when
# its content changes: an unchanged commit recompiles and relinks nothing.
set(commit unknown)
if(GIT_EXECUTABLE)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --show-toplevel
                  WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE top_failed ERROR_QUIET)
  file(REAL_PATH "${SOURCE_DIR}" source_real)
  file(REAL_PATH "${top}" top_real)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short HEAD
                  WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE hash OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE hash_failed ERROR_QUIET)
  # --no-optional-locks: do not take the index lock, so a build never collides with a `git commit`
  # running at the same time.
  execute_process(COMMAND ${GIT_EXECUTABLE} --no-optional-locks status --porcelain --untracked-files=no
                  WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE status_failed ERROR_QUIET)
  # Without all these answers the stamp would claim more than is known.
  if(top_failed EQUAL 0 AND top_real STREQUAL source_real AND hash_failed EQUAL 0 AND status_failed EQUAL 0
     AND hash MATCHES "^[0-9a-f]+$")
    set(commit ${hash})
    if(NOT changes STREQUAL "")
      execute_process(COMMAND ${GIT_EXECUTABLE} --no-optional-locks diff --no-color --no-ext-diff HEAD
                      WORKING_DIRECTORY ${SOURCE_DIR}
                      OUTPUT_VARIABLE diff RESULT_VARIABLE diff_failed ERROR_QUIET)
      if(diff_failed EQUAL 0)
        string(SHA1 diff_hash "${diff}")
        string(SUBSTRING "${diff_hash}" 0 7 diff_hash)
        string(APPEND commit "-dirty.${diff_hash}")
      else()
        string(APPEND commit "-dirty")
      endif()
    endif()
  endif()
endif()

file(WRITE ${OUTPUT}.tmp
  "// Generated on every build by apps/common/write_build_commit.cmake; do not edit.\n"
  "#pragma once\n"
  "#define BSRFLOW_GIT_COMMIT \"${commit}\"\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUTPUT}.tmp ${OUTPUT}
                COMMAND_ERROR_IS_FATAL ANY)
file(REMOVE ${OUTPUT}.tmp)
