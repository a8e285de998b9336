# Run by `cmake --install` (install(SCRIPT) in install.cmake) with the prefix chosen then, not at
# configure time: the unit names the absolute paths of that prefix. CUZK_PACKAGING_DIR,
# CUZK_EXAMPLE_CONFIG and CUZK_BUILD_DIR come from install.cmake. GNUInstallDirs' rule for the
# configuration directory: /etc for the /usr prefix, <prefix>/etc otherwise.
set(prefix "${CMAKE_INSTALL_PREFIX}")
if(prefix STREQUAL "/usr")
  set(sysconfdir /etc)
else()
  set(sysconfdir "${prefix}/etc")
endif()
set(CUZK_FULL_BINDIR "${prefix}/bin")
set(CUZK_FULL_SYSCONFDIR "${sysconfdir}")
set(root "$ENV{DESTDIR}")  # file(INSTALL) adds it itself; EXISTS does not

# Made in the build tree, one file per destination (installs to two places do not share it).
string(MD5 destination "${root}${prefix}")
set(unit "${CUZK_BUILD_DIR}/packaging/${destination}/cuzk-daemon.service")
configure_file("${CUZK_PACKAGING_DIR}/cuzk-daemon.service.in" "${unit}" @ONLY)
file(INSTALL "${unit}"
     DESTINATION "${prefix}/lib/systemd/system")
file(INSTALL "${CUZK_PACKAGING_DIR}/cuzk.sysusers" DESTINATION "${prefix}/lib/sysusers.d"
     RENAME cuzk.conf)
# The operator's configuration is theirs: installed only where there is none yet.
set(conf "${root}${sysconfdir}/cuzk/cuzk.toml")
if(EXISTS "${conf}")
  message(STATUS "Kept (exists): ${conf}")
else()
  file(INSTALL "${CUZK_EXAMPLE_CONFIG}" DESTINATION "${sysconfdir}/cuzk" RENAME cuzk.toml)
endif()
