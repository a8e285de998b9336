# Run by `cmake --install` (install(SCRIPT) in install.cmake) with the prefix chosen then, not at
# configure time: the unit names the absolute paths of that prefix. CUZK_PACKAGING_DIR comes from
# install.cmake. GNUInstallDirs' rule for the configuration directory: /etc for the /usr prefix,
# <prefix>/etc otherwise. The unit is made in a temporary directory, never in the build tree.
set(prefix "${CMAKE_INSTALL_PREFIX}")
if(prefix STREQUAL "/usr")
  set(sysconfdir /etc)
else()
  set(sysconfdir "${prefix}/etc")
endif()
set(CUZK_FULL_BINDIR "${prefix}/bin")
set(CUZK_FULL_SYSCONFDIR "${sysconfdir}")
set(CUZK_FULL_DOCDIR "${prefix}/share/doc/cuzk")
set(root "$ENV{DESTDIR}")  # file(INSTALL) adds it itself; EXISTS does not

set(tmpdir "$ENV{TMPDIR}")
if(tmpdir STREQUAL "")
  set(tmpdir /tmp)
endif()
string(RANDOM LENGTH 16 tag)
set(work "${tmpdir}/cuzk-install-${tag}")
file(READ "${CUZK_PACKAGING_DIR}/cuzk-daemon.service.in" template)
string(CONFIGURE "${template}" unit @ONLY)
file(WRITE "${work}/cuzk-daemon.service" "${unit}")
file(INSTALL "${work}/cuzk-daemon.service" DESTINATION "${prefix}/lib/systemd/system"
     FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
file(REMOVE_RECURSE "${work}")
file(INSTALL "${CUZK_PACKAGING_DIR}/cuzk.sysusers" DESTINATION "${prefix}/lib/sysusers.d"
     RENAME cuzk.conf)
# The operator's configuration is theirs: installed only where there is none yet.
set(conf "${root}${sysconfdir}/cuzk/cuzk.toml")
if(EXISTS "${conf}")
  message(STATUS "Kept (exists): ${conf}")
else()
  file(INSTALL "${CUZK_PACKAGING_DIR}/cuzk.toml" DESTINATION "${sysconfdir}/cuzk")
endif()
