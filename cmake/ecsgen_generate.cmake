# ecsgen_generate(<target> SCHEMA <schema.json> [SPLIT_C] [SYSTEM_HEADERS]): runs the
# generator on the schema at build time and makes <target>, a static library of <name>_ecs.c
# (name: the schema's "name") that carries the generated header's directory and the runtime.
# ECSGEN_COMMAND is the generator. SPLIT_C and SYSTEM_HEADERS pass --split-c (the .c in three
# parts that compile in parallel) and --system-headers (<name>_system_<s>.h per system).
# The outputs' names come from the generator (ecsgen --list-outputs: its output registry, or
# with a flag the schema's own files, read at configure time: re-run cmake after adding or
# renaming a system, which a new file in your target makes it do anyway).
# The generator leaves a file whose text did not change alone. Ninja re-reads the outputs'
# times after a custom command (restat: CMake sets it), so nothing built from such a file
# rebuilds, and the command does not run again. Other generators have no restat: there the
# outputs are touched after each run, else the command would run at every build.
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
  cmake_parse_arguments(ARG "SPLIT_C;SYSTEM_HEADERS" "SCHEMA" "" ${ARGN})
  if(NOT ARG_SCHEMA)
    message(FATAL_ERROR "ecsgen_generate(${target}): SCHEMA <schema.json> is required")
  endif()
  get_filename_component(schema "${ARG_SCHEMA}" ABSOLUTE)
  file(READ "${schema}" content)
  string(JSON name GET "${content}" name)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}")
  set(flags)
  if(ARG_SPLIT_C)
    list(APPEND flags --split-c)
  endif()
  if(ARG_SYSTEM_HEADERS)
    list(APPEND flags --system-headers)
  endif()
  set(listed) # without a flag the registry's names ({name}_ecs.h, ...): the schema is not read here
  if(flags)
    set(listed "${schema}" ${flags})
  endif()
  execute_process(COMMAND ${ECSGEN_COMMAND} ${listed} --list-outputs OUTPUT_VARIABLE outputs
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
  set(touch COMMAND ${CMAKE_COMMAND} -E touch ${outputs})
  if(CMAKE_GENERATOR MATCHES "Ninja")
    set(touch)
  endif()
  add_custom_command(OUTPUT ${outputs}
    COMMAND ${ECSGEN_COMMAND} "${schema}" --out "${rel_out}" --depfile "${out}/${name}_ecs.d" ${flags}
    ${touch}
    DEPENDS "${schema}" ${depfile} WORKING_DIRECTORY "${CMAKE_BINARY_DIR}"
    COMMENT "ecsgen ${ARG_SCHEMA}" VERBATIM)
  add_library(${target} STATIC ${outputs})
  target_include_directories(${target} PUBLIC "${out}")
  target_link_libraries(${target} PUBLIC ecsgen::ecsgen)
  set_target_properties(${target} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON)
endfunction()
