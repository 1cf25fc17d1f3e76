# ecsgen_generate(<target> SCHEMA <schema.json>): runs the generator on the schema at build
# time and makes <target>, a static library of <name>_ecs.c (name: the schema's "name") that
# carries the generated header's directory and the runtime. ECSGEN_COMMAND is the generator.
# The outputs' names come from the generator (ecsgen --list-outputs, its output registry).
# The outputs are touched after each run: the generator leaves unchanged files alone, and
# without the touch Ninja would re-run it on every build after such an edit.
function(ecsgen_generate target)
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
  add_custom_command(OUTPUT ${outputs}
    COMMAND ${ECSGEN_COMMAND} "${schema}" --out "${out}" --depfile "${out}/${name}_ecs.d"
    COMMAND ${CMAKE_COMMAND} -E touch ${outputs}
    DEPENDS "${schema}" DEPFILE "${out}/${name}_ecs.d"
    COMMENT "ecsgen ${ARG_SCHEMA}" VERBATIM)
  add_library(${target} STATIC ${outputs})
  target_include_directories(${target} PUBLIC "${out}")
  target_link_libraries(${target} PUBLIC ecsgen::ecsgen)
  set_target_properties(${target} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON)
endfunction()
