# ecsgen_generate(<target> SCHEMA <schema.json>): runs the generator on the schema at build
# time and makes <target>, a static library of <name>_ecs.c (name: the schema's "name") that
# carries the generated header's directory and the runtime. ECSGEN_COMMAND is the generator.
# The outputs' names come from the generator (ecsgen --list-outputs, its output registry).
# The outputs are touched after each run: the generator leaves unchanged files alone, and
# without the touch Ninja would re-run it on every build after such an edit.
#
# The generated code is C: a macro (not a function), so that in a C++-only project
# (project(rpg CXX)) it can enable C in the caller's directory, where the target is made;
# enable_language() is refused inside a function, so there it stops with what to add.
macro(ecsgen_generate)
  if(NOT CMAKE_C_COMPILE_OBJECT)
    if(CMAKE_CURRENT_FUNCTION)
      message(FATAL_ERROR "ecsgen_generate(${ARGV0}): the generated code is C and C is not enabled here. "
        "Add C to your project's languages, e.g. project(${PROJECT_NAME} C CXX), or call "
        "enable_language(C) at file scope before calling ${CMAKE_CURRENT_FUNCTION}().")
    endif()
    enable_language(C)
  endif()
  _ecsgen_generate(${ARGV})
endmacro()

function(_ecsgen_generate target)
  cmake_parse_arguments(ARG "" "SCHEMA" "" ${ARGN})
  if(NOT ARG_SCHEMA)
    message(FATAL_ERROR "ecsgen_generate(${target}): SCHEMA <schema.json> is required")
  endif()
  get_filename_component(schema "${ARG_SCHEMA}" ABSOLUTE)
  file(READ "${schema}" content)
  string(JSON name GET "${content}" name)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}")
  execute_process(COMMAND ${ECSGEN_COMMAND} --list-outputs OUTPUT_VARIABLE outputs
    OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  string(REPLACE "{name}" "${name}" outputs "${outputs}")
  string(REPLACE "\n" ";" outputs "${outputs}")
  list(TRANSFORM outputs PREPEND "${out}/")
  list(SORT outputs) # in the depfile's order (sorted): Ninja matches its first target
  file(MAKE_DIRECTORY "${out}")
  # The depfile names the outputs relative to the top build directory, where the command
  # runs: that is how Ninja spells them whether CMake passes the depfile on as written
  # (before 3.20, or policy CMP0116 OLD, as under cmake_minimum_required(VERSION 3.16)) or
  # rewrites it (CMP0116 NEW). An absolute path there made every build re-run the generator.
  file(RELATIVE_PATH rel_out "${CMAKE_BINARY_DIR}" "${out}")
  set(depfile DEPFILE "${out}/${name}_ecs.d")
  if(CMAKE_VERSION VERSION_LESS 3.20 AND NOT CMAKE_GENERATOR MATCHES "Ninja")
    set(depfile) # DEPFILE is Ninja-only before 3.20: then only the schema is a dependency
  endif()
  add_custom_command(OUTPUT ${outputs}
    COMMAND ${ECSGEN_COMMAND} "${schema}" --out "${rel_out}" --depfile "${out}/${name}_ecs.d"
    COMMAND ${CMAKE_COMMAND} -E touch ${outputs}
    DEPENDS "${schema}" ${depfile} WORKING_DIRECTORY "${CMAKE_BINARY_DIR}"
    COMMENT "ecsgen ${ARG_SCHEMA}" VERBATIM)
  add_library(${target} STATIC ${outputs})
  target_include_directories(${target} PUBLIC "${out}")
  target_link_libraries(${target} PUBLIC ecsgen::ecsgen)
  set_target_properties(${target} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON)
endfunction()
