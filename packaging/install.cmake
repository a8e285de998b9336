# `cmake --install` and CPack (.deb): the programs in bin/ (stripped by cpack, and by
# `cmake --install --strip`), their man pages (help2man, from --help) in share/man/man1,
# cuzk-daemon.service and the cuzk user (sysusers.d) for systemd, README, copyright, changelog
# and the documented example config in share/doc/cuzk/ and, when none is there yet, the packaged
# config (packaging/cuzk.toml: Curio's socket, group-writable, state under /var/lib/cuzk) as
# <sysconfdir>/cuzk/cuzk.toml (an existing config is never overwritten; in the .deb it is a
# conffile). With --prefix /usr: /usr/bin, /usr/lib/systemd/system, /etc/cuzk. Nothing is
# written into the build tree at install time, so a copied build installs from where it is.
include(GNUInstallDirs)

foreach(program cuzk cuzk-daemon cuzk-bench)
  if(TARGET ${program})
    install(TARGETS ${program} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

# Man pages from each program's --help and --version (help2man), compressed as Debian wants.
find_program(CUZK_HELP2MAN help2man)
find_program(CUZK_GZIP gzip)
if(CUZK_HELP2MAN AND CUZK_GZIP AND TARGET cuzk AND TARGET cuzk-daemon AND TARGET cuzk-bench)
  set(man_dir ${PROJECT_BINARY_DIR}/man)
  set(man_pages)
  foreach(program cuzk cuzk-daemon cuzk-bench)
    if(program STREQUAL "cuzk")
      set(what "Groth16 proving engine for Filecoin: the offline toolbox (and the daemon's launcher)")
    elseif(program STREQUAL "cuzk-daemon")
      set(what "Groth16 proving daemon for Filecoin behind the cuzk.v1 gRPC API")
    else()
      set(what "cuzk daemon client, microbenchmarks and GPU kernel checks")
    endif()
    add_custom_command(
      OUTPUT ${man_dir}/${program}.1.gz
      COMMAND ${CMAKE_COMMAND} -E make_directory ${man_dir}
      COMMAND ${CUZK_HELP2MAN} --no-info --no-discard-stderr --section=1 --name=${what}
              --output=${man_dir}/${program}.1 $<TARGET_FILE:${program}>
      COMMAND ${CUZK_GZIP} -9nf ${man_dir}/${program}.1
      DEPENDS ${program}
      COMMENT "help2man: ${program}.1"
      VERBATIM)
    list(APPEND man_pages ${man_dir}/${program}.1.gz)
  endforeach()
  add_custom_target(cuzk_man_pages ALL DEPENDS ${man_pages})
  install(FILES ${man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "cuzk: no man pages (help2man and gzip are needed: scripts/deps.sh)")
endif()

if(TARGET cuzk-daemon)
  set(doc ${PROJECT_SOURCE_DIR}/packaging/doc)
  install(FILES ${PROJECT_SOURCE_DIR}/apps/cuzk-daemon/cuzk.example.toml
                ${PROJECT_SOURCE_DIR}/README.md ${doc}/copyright
          DESTINATION ${CMAKE_INSTALL_DOCDIR})
  # Debian's changelog of a native package: compressed, reproducibly (no name, no time).
  set(changelog ${PROJECT_BINARY_DIR}/packaging/changelog.gz)
  add_custom_command(
    OUTPUT ${changelog}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/packaging
    COMMAND sh -c "gzip -9nc '${doc}/changelog' > '${changelog}'"
    DEPENDS ${doc}/changelog
    VERBATIM)
  add_custom_target(cuzk_changelog ALL DEPENDS ${changelog})
  install(FILES ${changelog} DESTINATION ${CMAKE_INSTALL_DOCDIR})
  # The unit, the sysusers entry and the config: paths of the prefix given to `cmake --install`.
  install(CODE "set(CUZK_PACKAGING_DIR \"${CMAKE_CURRENT_LIST_DIR}\")")
  install(SCRIPT ${CMAKE_CURRENT_LIST_DIR}/install_files.cmake)
endif()

# cpack -G DEB in the build tree: one package, Debian's shared libraries as its dependencies,
# binaries stripped, maintainer scripts that create the user and stop the service on removal.
set(CUZK_DEB_MAINTAINER "cuzk maintainers <maintainers@users.noreply.a-seed-af3fb930.example>"
    CACHE STRING "the .deb's Maintainer (Name <address>)")
set(CPACK_PACKAGE_NAME cuzk)
set(CPACK_PACKAGE_CONTACT "${CUZK_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CUZK_DEB_MAINTAINER}")
# Debian's Description: a synopsis under 80 characters, then the extended text (lines under 80).
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Groth16 prover for Filecoin behind Curio's cuzk.v1 gRPC API")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "cuzk proves Filecoin's Groth16 proofs (PoRep commit phase 2, WinningPoSt,
WindowPoSt and SnapDeals) on NVIDIA GPUs or the CPU, bit-compatible with
rust-fil-proofs. The daemon, cuzk-daemon, serves Curio's cuzk.v1 gRPC API as a
drop-in replacement for the Rust cuzk daemon; cuzk is the offline toolbox and
cuzk-bench the client.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_INSTALL_PREFIX /usr)  # what CPACK_SET_DESTDIR installs with
set(CPACK_SET_DESTDIR ON)  # install_files.cmake writes /etc/cuzk under DESTDIR
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${CMAKE_CURRENT_LIST_DIR}/deb/postinst ${CMAKE_CURRENT_LIST_DIR}/deb/prerm
    ${CMAKE_CURRENT_LIST_DIR}/deb/postrm ${CMAKE_CURRENT_LIST_DIR}/deb/conffiles)
include(CPack)
