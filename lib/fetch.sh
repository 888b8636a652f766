# SPDX-License-Identifier: GPL-2.0
# Fetching a base kernel's source from Debian's archive, as its data file
# (bases/BASE.sh) says:
#
#   BASE_ARCHIVE="URL SUITE COMPONENT"  BASE_PACKAGE is fetched with
#         "apt-get download" into a private apt state under build/apt/BASE:
#         the machine stays on Debian 12 and its apt configuration is not
#         touched. apt checks the InRelease signature against
#         debian-archive-keyring and the .deb's SHA256 against the signed
#         index; a failure of either stops here.
#   BASE_ARCHIVE=installed  BASE_PACKAGE comes from the machine's own
#         archive, installed as a package by "./harness deps".
#
# fetch_source sets SRC_TARBALL (the kernel tarball) and SRC_DESC (package
# and exact version), and records both in build/BASE/source.txt.

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

fetch_download() {
	local root=$BUILD/apt/$BASE pkg=$BASE_PACKAGE suite deb ver
	suite=$(awk '{ print $2 }' <<<"$BASE_ARCHIVE")
	mkdir -p "$root"/{state/lists/partial,cache/archives/partial,dl}
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $BASE_ARCHIVE" >"$root/sources.list"
	SRC_TARBALL=$BDIR/$pkg.tar.xz
	if [ ! -f "$SRC_TARBALL" ]; then
		say "fetching $pkg from Debian $suite (private apt state in ${root#"$TOP"/})"
		private_apt "$root" update >"$root/update.log" 2>&1 ||
			{ tail -5 "$root/update.log" >&2; die "apt-get update of $suite failed (log: ${root#"$TOP"/}/update.log)"; }
		# "W: ... not signed" or "NO_PUBKEY" must not pass as a warning.
		if grep -qE 'NO_PUBKEY|not signed|signatures were invalid|EXPKEYSIG' "$root/update.log"; then
			cat "$root/update.log" >&2
			die "the $suite index is not signed by a key in debian-archive-keyring"
		fi
		rm -f "$root"/dl/*.deb
		(cd "$root/dl" && private_apt "$root" download "$pkg") >"$root/download.log" 2>&1 ||
			{ tail -5 "$root/download.log" >&2; die "apt-get download $pkg failed"; }
		deb=$(ls "$root"/dl/"$pkg"_*_all.deb)
		dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$pkg.tar.xz" >"$SRC_TARBALL.tmp"
		mv "$SRC_TARBALL.tmp" "$SRC_TARBALL"
		dpkg-deb -f "$deb" Version >"$BDIR/source.version"
	fi
	ver=$(cat "$BDIR/source.version")
	SRC_DESC="Debian $pkg $ver ($suite)"
}

fetch_installed() {
	local pkg=$BASE_PACKAGE ver
	SRC_TARBALL=/usr/src/$pkg.tar.xz
	[ -f "$SRC_TARBALL" ] || die "$SRC_TARBALL is missing (./harness deps installs $pkg)"
	ver=$(dpkg-query -W -f '${Version}' "$pkg")
	SRC_DESC="Debian $pkg $ver ($(apt-cache madison "$pkg" 2>/dev/null | awk -v v="$ver" '$3 == v { print $6; exit }' | sed 's|/.*||'))"
	SRC_DESC=${SRC_DESC% ()}
}

fetch_source() {
	mkdir -p "$BDIR"
	if [ "$BASE_ARCHIVE" = installed ]; then fetch_installed; else fetch_download; fi
	local ver
	ver=$(awk '{ print $3 }' <<<"$SRC_DESC")
	[ "$ver" = "$BASE_TESTED" ] ||
		echo "harness: NOTE: Debian now ships $BASE_PACKAGE $ver; the series was tested on $BASE_TESTED" >&2
	printf '%s\n%s\n' "$SRC_DESC" "$SRC_TARBALL" >"$BDIR/source.txt"
}
