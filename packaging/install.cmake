# `cmake --install` and CPack (.deb): the programs in bin/, cuzk-daemon.service and the cuzk user
# (sysusers.d) for systemd, the documented example config in share/doc/cuzk/ and, when none is
# there yet, as <sysconfdir>/cuzk/cuzk.toml (an existing config is never overwritten; in the .deb
# it is a conffile). With --prefix /usr: /usr/bin, /usr/lib/systemd/system, /etc/cuzk.
include(GNUInstallDirs)

foreach(program cuzk cuzk-daemon cuzk-bench)
  if(TARGET ${program})
    install(TARGETS ${program} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

if(TARGET cuzk-daemon)
  set(example ${PROJECT_SOURCE_DIR}/apps/cuzk-daemon/cuzk.example.toml)
  install(FILES ${example} DESTINATION ${CMAKE_INSTALL_DOCDIR})
  # The unit, the sysusers entry and the config: paths of the prefix given to `cmake --install`.
  install(CODE "set(CUZK_PACKAGING_DIR \"${CMAKE_CURRENT_LIST_DIR}\")
                set(CUZK_EXAMPLE_CONFIG \"${example}\")
                set(CUZK_BUILD_DIR \"${PROJECT_BINARY_DIR}\")")
  install(SCRIPT ${CMAKE_CURRENT_LIST_DIR}/install_files.cmake)
endif()

# cpack -G DEB in the build tree: one package, Debian's shared libraries as its dependencies.
set(CPACK_PACKAGE_NAME cuzk)
set(CPACK_PACKAGE_CONTACT "cuzk maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Groth16 proving engine for Filecoin (PoRep C2, PoSt, SnapDeals) behind the cuzk.v1 gRPC API")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_INSTALL_PREFIX /usr)  # what CPACK_SET_DESTDIR installs with
set(CPACK_SET_DESTDIR ON)  # install_files.cmake writes /etc/cuzk under DESTDIR
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_LIST_DIR}/deb/postinst
                                       ${CMAKE_CURRENT_LIST_DIR}/deb/conffiles)
include(CPack)
