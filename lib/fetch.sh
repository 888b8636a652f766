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
# fetch_source records the package and its exact version, and the kernel
# tarball, in build/BASE/source.txt (source_desc, source_tarball).

# apt with its own state, lists, cache and sources under $1, for the
# Debian architecture APT_ARCH (default amd64).
private_apt() {
	local root=$1 arch=${APT_ARCH:-amd64}
	shift
	apt-get -q -o Dir::State="$root/state" -o Dir::State::status=/dev/null \
		-o Dir::Cache="$root/cache" -o Dir::Etc::SourceList="$root/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null -o Dir::Etc::Parts=/dev/null \
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
		-o APT::Architecture="$arch" -o APT::Architectures="$arch" \
		-o Acquire::Languages=none "$@"
}

# apt_update ROOT ARCHIVE: a private apt state under ROOT for ARCHIVE
# ("URL SUITE COMPONENT"), its index checked against debian-archive-keyring.
apt_update() {
	local root=$1 archive=$2
	mkdir -p "$root"/{state/lists/partial,cache/archives/partial,dl}
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $archive" >"$root/sources.list"
	private_apt "$root" update >"$root/update.log" 2>&1 ||
		{ tail -5 "$root/update.log" >&2; die "apt-get update of $archive failed (log: ${root#"$TOP"/}/update.log)"; }
	# "W: ... not signed" or "NO_PUBKEY" must not pass as a warning.
	if grep -qE 'NO_PUBKEY|not signed|signatures were invalid|EXPKEYSIG' "$root/update.log"; then
		cat "$root/update.log" >&2
		die "the index of $archive is not signed by a key in debian-archive-keyring"
	fi
}

# The guest's programs on a target whose userland is not the machine's own
# (TARGET_USERLAND, a Debian architecture): Debian 12's packages for it,
# the versions the machine runs for x86_64, unpacked into one folder.
USERLAND_ARCHIVE="http://deb.debian.org/debian bookworm main"
USERLAND_PACKAGES="busybox-static trace-cmd libtracefs1 libtraceevent1 libzstd1 libc6"

# fetch_userland: the packages of the target's architecture, fetched once
# into build/apt/userland-ARCH and unpacked into userland_dir.
userland_dir() { echo "$BUILD/userland-$TARGET_USERLAND"; }
fetch_userland() {
	local arch=$TARGET_USERLAND root deb userland
	root=$BUILD/apt/userland-$arch
	userland=$(userland_dir)
	[ ! -f "$userland/.done" ] || return 0
	say "fetching the $arch guest userland from Debian ($USERLAND_PACKAGES)"
	APT_ARCH=$arch apt_update "$root" "$USERLAND_ARCHIVE"
	rm -rf "$root"/dl/*.deb "$userland"
	# shellcheck disable=SC2086
	(cd "$root/dl" && APT_ARCH=$arch private_apt "$root" download $USERLAND_PACKAGES) \
		>"$root/download.log" 2>&1 ||
		{ tail -5 "$root/download.log" >&2; die "apt-get download of the $arch userland failed"; }
	mkdir -p "$userland"
	for deb in "$root"/dl/*.deb; do dpkg-deb -x "$deb" "$userland"; done
	rm -rf "$userland"/usr/share/{doc,man,locale,lintian} "$userland"/usr/lib/*/gconv
	touch "$userland/.done"
}

fetch_download() {
	local root=$BUILD/apt/$BASE pkg=$BASE_PACKAGE suite deb ver
	local -n tarball_out=$1 desc_out=$2
	suite=$(awk '{ print $2 }' <<<"$BASE_ARCHIVE")
	tarball_out=$BDIR/$pkg.tar.xz
	if [ ! -f "$tarball_out" ]; then
		say "fetching $pkg from Debian $suite (private apt state in ${root#"$TOP"/})"
		apt_update "$root" "$BASE_ARCHIVE"
		rm -f "$root"/dl/*.deb
		(cd "$root/dl" && private_apt "$root" download "$pkg") >"$root/download.log" 2>&1 ||
			{ tail -5 "$root/download.log" >&2; die "apt-get download $pkg failed"; }
		deb=$(ls "$root"/dl/"$pkg"_*_all.deb)
		dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$pkg.tar.xz" >"$tarball_out.tmp"
		mv "$tarball_out.tmp" "$tarball_out"
		dpkg-deb -f "$deb" Version >"$BDIR/source.version"
	fi
	ver=$(cat "$BDIR/source.version")
	desc_out="Debian $pkg $ver ($suite)"
}

fetch_installed() {
	local pkg=$BASE_PACKAGE ver
	local -n tarball_out=$1 desc_out=$2
	tarball_out=/usr/src/$pkg.tar.xz
	[ -f "$tarball_out" ] || die "$tarball_out is missing (./harness deps installs $pkg)"
	ver=$(dpkg-query -W -f '${Version}' "$pkg")
	desc_out="Debian $pkg $ver ($(apt-cache madison "$pkg" 2>/dev/null | awk -v v="$ver" '$3 == v { print $6; exit }' | sed 's|/.*||'))"
	desc_out=${desc_out% ()}
}

fetch_source() {
	local tarball desc
	mkdir -p "$BDIR"
	if [ "$BASE_ARCHIVE" = installed ]; then fetch_installed tarball desc; else fetch_download tarball desc; fi
	local ver
	ver=$(awk '{ print $3 }' <<<"$desc")
	[ "$ver" = "$BASE_TESTED" ] ||
		echo "harness: NOTE: Debian now ships $BASE_PACKAGE $ver; the series was tested on $BASE_TESTED" >&2
	printf '%s\n%s\n' "$desc" "$tarball" >"$BDIR/source.txt"
}
source_desc() { sed -n 1p "$BDIR/source.txt"; }
source_tarball() { sed -n 2p "$BDIR/source.txt"; }
