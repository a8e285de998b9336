#!/usr/bin/env bash
# `cmake --install` and `cpack -G DEB` of a configured, built tree put the programs, their man
# pages, the systemd unit, the cuzk user's sysusers.d entry, the packaged and the example config
# where packaging/install.cmake says, without writing into the build tree; the installed daemon
# loads the installed config, an operator's edited config survives a reinstall, and
# `systemd-analyze verify` accepts the unit (that part is skipped, saying so, when
# systemd-analyze is absent or cannot verify even a trivial unit here, e.g. in a container; with
# CI=true either is a failure: CI installs systemd, and an external check there must not skip).
# Usage: install_test.sh <build dir> <source dir>
set -euo pipefail
build="$1"; src="$2"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok   $*"; }

dest="$tmp/dest"
touch "$tmp/before"
sleep 1  # the marker's mtime is in whole seconds on some file systems
DESTDIR="$dest" cmake --install "$build" --prefix /usr > "$tmp/install.log" \
  || { cat "$tmp/install.log"; fail "cmake --install"; }
# (ctest's own files under Testing/ change meanwhile: CI of 2026-12-06 failed on
# Testing/Temporary/LastTest.log.tmp; no other test runs beside this one, RUN_SERIAL)
written=$(find "$build" -newer "$tmp/before" -type f ! -name install_manifest.txt \
  ! -path "$build/Testing/*")
[ -z "$written" ] || fail "cmake --install wrote into the build tree: $written"
ok "cmake --install writes nothing into the build tree (a copied build installs from itself)"
for p in cuzk cuzk-daemon cuzk-bench; do
  [ -x "$dest/usr/bin/$p" ] || fail "usr/bin/$p not installed"
done
ok "programs in /usr/bin"
unit="$dest/usr/lib/systemd/system/cuzk-daemon.service"
[ -f "$unit" ] || fail "no $unit"
[ -f "$dest/usr/lib/sysusers.d/cuzk.conf" ] || fail "no sysusers.d/cuzk.conf"
grep -qx 'u cuzk - "cuzk proving daemon" /var/lib/cuzk' "$dest/usr/lib/sysusers.d/cuzk.conf" \
  || fail "sysusers.d/cuzk.conf does not create the cuzk user"
cmp -s "$src/apps/cuzk-daemon/cuzk.example.toml" "$dest/usr/share/doc/cuzk/cuzk.example.toml" \
  || fail "share/doc/cuzk/cuzk.example.toml is not the example"
cmp -s "$src/packaging/cuzk.toml" "$dest/etc/cuzk/cuzk.toml" \
  || fail "/etc/cuzk/cuzk.toml is not packaging/cuzk.toml"
for page in cuzk cuzk-daemon cuzk-bench; do
  man="$dest/usr/share/man/man1/$page.1.gz"
  zcat "$man" 2>/dev/null | grep -q '^\.TH' || fail "no man page $man"
done
ok "unit, sysusers.d entry, configs in share/doc/cuzk and /etc/cuzk, man pages of the three"
for line in 'User=cuzk' 'Group=cuzk' 'RuntimeDirectory=curio' 'StateDirectory=cuzk' \
            'LimitMEMLOCK=infinity' 'Restart=on-failure' \
            'ExecStart=/usr/bin/cuzk-daemon --config /etc/cuzk/cuzk.toml'; do
  grep -qxF "$line" "$unit" || fail "the unit lacks: $line"
done
ok "unit: user cuzk, /run/curio, LimitMEMLOCK=infinity, Restart=on-failure, /usr paths"

# The installed daemon with the installed config: Curio's socket, group-writable, state kept.
printed=$("$dest/usr/bin/cuzk-daemon" --config "$dest/etc/cuzk/cuzk.toml" --print-config) \
  || fail "the installed config does not load"
for want in "listen = 'unix:///run/curio/cuzk.sock'" "socket_mode = '0660'" \
            "cache_dir = '/var/lib/cuzk/pce'" "dir = '/var/lib/cuzk/spool'"; do
  grep -qF "$want" <<< "$printed" || fail "--print-config lacks $want: $printed"
done
"$dest/usr/bin/cuzk-daemon" --version | grep -q '[0-9]\.[0-9]' || fail "cuzk-daemon --version"
ok "the installed cuzk-daemon loads /etc/cuzk/cuzk.toml"

echo "# edited by the operator" >> "$dest/etc/cuzk/cuzk.toml"
DESTDIR="$dest" cmake --install "$build" --prefix /usr > "$tmp/install2.log"
tail -n1 "$dest/etc/cuzk/cuzk.toml" | grep -qx "# edited by the operator" \
  || fail "a reinstall overwrote the operator's /etc/cuzk/cuzk.toml"
grep -q "Kept (exists): .*/etc/cuzk/cuzk.toml" "$tmp/install2.log" || fail "no 'Kept' message"
ok "a reinstall keeps an edited /etc/cuzk/cuzk.toml"

# systemd-analyze checks ExecStart's binary exists: verify a tree installed at its prefix.
skip_part() {  # reason: said, and a failure in CI
  [ "${CI:-}" = true ] && fail "systemd-analyze: $1 (CI=true: the external check must run)"
  echo "SKIPPED PART: $1: the unit is not verified"
}
if ! command -v systemd-analyze > /dev/null; then
  skip_part "not found (Debian package systemd)"
else
  printf '[Service]\nExecStart=/bin/true\n' > "$tmp/trivial.service"
  if ! systemd-analyze verify "$tmp/trivial.service" > "$tmp/trivial.log" 2>&1 \
     || [ -s "$tmp/trivial.log" ]; then
    cat "$tmp/trivial.log"
    skip_part "it cannot verify a trivial unit here"
  else
    cmake --install "$build" --prefix "$tmp/prefix" > /dev/null
    out=$(systemd-analyze verify "$tmp/prefix/lib/systemd/system/cuzk-daemon.service" 2>&1) \
      || fail "systemd-analyze verify: $out"
    [ -z "$out" ] || fail "systemd-analyze verify warns: $out"
    ok "systemd-analyze verify: the unit is clean ($(systemd-analyze --version | head -1))"
  fi
fi

# The .deb: the same files under /usr and /etc, Debian's libraries as dependencies, the config
# a conffile, the postinst that creates the user.
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/deb" > "$tmp/cpack.log" 2>&1 \
  || { cat "$tmp/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$tmp"/deb/*.deb)
files=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/cuzk ./usr/bin/cuzk-daemon ./usr/bin/cuzk-bench \
         ./usr/lib/systemd/system/cuzk-daemon.service ./usr/lib/sysusers.d/cuzk.conf \
         ./etc/cuzk/cuzk.toml ./usr/share/doc/cuzk/cuzk.example.toml \
         ./usr/share/doc/cuzk/copyright ./usr/share/doc/cuzk/changelog.gz \
         ./usr/share/man/man1/cuzk-daemon.1.gz; do
  grep -qxF "$f" <<< "$files" || fail "$(basename "$deb") lacks $f"
done
dpkg-deb -f "$deb" Depends | grep -q 'libgrpc++' || fail "Depends lacks libgrpc++: $(dpkg-deb -f "$deb" Depends)"
dpkg-deb -e "$deb" "$tmp/control"
grep -qx /etc/cuzk/cuzk.toml "$tmp/control/conffiles" || fail "/etc/cuzk/cuzk.toml is no conffile"
grep -q 'systemd-sysusers .*cuzk.conf' "$tmp/control/postinst" || fail "postinst makes no user"
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/lib/systemd/system/cuzk-daemon.service | cmp -s - "$unit" \
  || fail "the .deb's unit differs from the cmake --install one"
ok "$(basename "$deb"): the files, Depends on Debian's gRPC, conffile, postinst"
echo PASS
