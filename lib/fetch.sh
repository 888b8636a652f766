# SPDX-License-Identifier: GPL-2.0
# Fetching a base kernel's source from Debian's archive.
#
#   7.3   linux-source-7.3 from trixie-backports, fetched with apt-get download
#         into a private apt state under build/apt/: the machine stays on
#         Debian 12 and its apt configuration is not touched. apt checks the
#         InRelease signature against debian-archive-keyring and the .deb's
#         SHA256 against the signed index; a failure of either stops here.
#   6.12  linux-source-6.12 from the machine's own archive (bookworm-security),
#         installed as a package by "./harness deps".
#
# fetch_source sets SRC_TARBALL (the kernel tarball) and SRC_DESC (package
# and exact version), and records both in build/BASE/source.txt.

APT_SUITE_7_3="trixie-backports"
# The version the series was last tested on; a newer 7.3.y is used all the
# same, with a note, and the series must still apply to it.
TESTED_7_3="7.3.4-1~bpo13+1"
TESTED_6_12="6.12.118-1~deb12u1"

# apt with its own state, lists, cache and sources under $1.
private_apt() {
	local root=$1
	shift
	apt-get -q -o Dir::State="$root/state" -o Dir::State::status=/dev/null \
		-o Dir::Cache="$root/cache" -o Dir::Etc::SourceList="$root/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null -o Dir::Etc::Parts=/dev/null \
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
		-o APT::Architecture=amd64 -o Acquire::Languages=none "$@"
}

fetch_7_3() {
	local root=$BUILD/apt/7.3 deb ver
	mkdir -p "$root"/{state/lists/partial,cache/archives/partial,dl}
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $APT_SUITE_7_3 main" \
		>"$root/sources.list"
	SRC_TARBALL=$BDIR/linux-source-7.3.tar.xz
	if [ ! -f "$SRC_TARBALL" ]; then
		say "fetching linux-source-7.3 from Debian $APT_SUITE_7_3 (private apt state in ${root#"$TOP"/})"
		private_apt "$root" update >"$root/update.log" 2>&1 ||
			{ tail -5 "$root/update.log" >&2; die "apt-get update of $APT_SUITE_7_3 failed (log: ${root#"$TOP"/}/update.log)"; }
		# "W: ... not signed" or "NO_PUBKEY" must not pass as a warning.
		if grep -qE 'NO_PUBKEY|not signed|signatures were invalid|EXPKEYSIG' "$root/update.log"; then
			cat "$root/update.log" >&2
			die "the $APT_SUITE_7_3 index is not signed by a key in debian-archive-keyring"
		fi
		rm -f "$root"/dl/*.deb
		(cd "$root/dl" && private_apt "$root" download linux-source-7.3) >"$root/download.log" 2>&1 ||
			{ tail -5 "$root/download.log" >&2; die "apt-get download linux-source-7.3 failed"; }
		deb=$(ls "$root"/dl/linux-source-7.3_*_all.deb)
		dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-7.3.tar.xz >"$SRC_TARBALL.tmp"
		mv "$SRC_TARBALL.tmp" "$SRC_TARBALL"
		dpkg-deb -f "$deb" Version >"$BDIR/source.version"
	fi
	ver=$(cat "$BDIR/source.version")
	SRC_DESC="Debian linux-source-7.3 $ver ($APT_SUITE_7_3)"
	[ "$ver" = "$TESTED_7_3" ] ||
		echo "harness: NOTE: Debian now ships linux-source-7.3 $ver; the series was tested on $TESTED_7_3" >&2
}

fetch_6_12() {
	SRC_TARBALL=/usr/src/linux-source-6.12.tar.xz
	[ -f "$SRC_TARBALL" ] || die "$SRC_TARBALL is missing (./harness deps installs linux-source-6.12)"
	local ver
	ver=$(dpkg-query -W -f '${Version}' linux-source-6.12)
	SRC_DESC="Debian linux-source-6.12 $ver (bookworm-security)"
	[ "$ver" = "$TESTED_6_12" ] ||
		echo "harness: NOTE: Debian now ships linux-source-6.12 $ver; the series was tested on $TESTED_6_12" >&2
}

fetch_source() {
	mkdir -p "$BDIR"
	case "$BASE" in
	7.3) fetch_7_3 ;;
	6.12) fetch_6_12 ;;
	esac
	printf '%s\n%s\n' "$SRC_DESC" "$SRC_TARBALL" >"$BDIR/source.txt"
}
