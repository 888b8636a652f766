# SPDX-License-Identifier: GPL-2.0
# The workspace of a base: build/BASE/linux, a git tree with the Debian
# source as one commit tagged "base" and the series on branch "stackmap".
# The series is edited there and exported back to patches/BASE/.

series() {
	ls "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | grep -v '/0000-' || true
}

# Leading patches of a series that fix the base kernel itself rather than
# add the stack map: the unpatched-base ftracetest baseline is recorded with
# them applied (the 7.3.4 base does not survive "Basic test for tracers"
# without the first one; see its commit message; the second one lets a
# fault injection boot option boot).
base_fixes() {
	case "$BASE" in
	7.3) echo 2 ;;
	*) echo 0 ;;
	esac
}

# The mainline series is mailed as [PATCH n/m], the backport as
# [PATCH 6.12 n/m], the way stable backports are.
subject_prefix() {
	if [ "$BASE" = "$MAINLINE" ]; then echo PATCH; else echo "PATCH $BASE"; fi
}

# Create the workspace from Debian's tarball; an existing one is left alone.
workspace() {
	if [ -d "$KT/.git" ]; then
		check_workspace_matches
		return 0
	fi
	fetch_source
	local tmp=$BDIR/extract.$$
	rm -rf "$tmp" && mkdir -p "$tmp"
	say "extracting ${SRC_TARBALL#"$TOP"/}"
	tar -C "$tmp" -xf "$SRC_TARBALL"
	mv "$tmp"/linux-source-* "$KT"
	rmdir "$tmp"
	(
		cd "$KT"
		git init -q -b base-tree
		git config core.abbrev 12
		git config user.name >/dev/null || git config user.name "stackmap harness"
		git config user.email >/dev/null || git config user.email "harness@localhost"
		# Debian's top-level .gitignore ignores everything ("/*"): force.
		git add -f -A .
		git commit -q -m "Linux $(base_version .) ($SRC_DESC)"
		git tag base
		git checkout -q -b stackmap
	)
	say "base: Linux $(base_version "$KT") from $SRC_DESC"
	apply_series "$KT"
}

apply_series() {
	local tree=$1 list
	list=$(series)
	[ -n "$list" ] || die "patches/$BASE/ holds no series"
	say "applying $(echo "$list" | wc -l) patches of patches/$BASE with git am"
	# shellcheck disable=SC2086
	if ! git -C "$tree" am -q --keep-cr $list; then
		git -C "$tree" am --abort || true
		die "the series in patches/$BASE does not apply to Linux $(base_version "$tree")" \
			"($(cat "$BDIR/source.txt" 2>/dev/null | head -1)): git am failed above." \
			"Rebase the series on the new base; nothing was built."
	fi
}

patch_ids() { git patch-id --stable | awk '{print $1}' | sort; }

check_workspace_matches() {
	local a b
	a=$(git -C "$KT" log -p --reverse base..HEAD | patch_ids)
	# shellcheck disable=SC2046
	b=$(cat $(series) /dev/null | patch_ids)
	# Nothing of the series in the workspace (a failed git am, say):
	# building it would test the base instead.
	[ -n "$a" ] || [ -z "$b" ] || die "${KT#"$TOP"/} holds none of patches/$BASE; run ./harness reapply"
	[ "$a" = "$b" ] || echo "harness: NOTE: ${KT#"$TOP"/} (base..HEAD) differs from patches/$BASE;" \
		"building it as it is (./harness export or ./harness reapply)" >&2
}

reapply() {
	[ -d "$KT/.git" ] || { workspace; return; }
	[ -z "$(git -C "$KT" status --porcelain --untracked-files=no)" ] ||
		die "${KT#"$TOP"/} has uncommitted changes; commit or stash them first"
	git -C "$KT" branch -f "backup-$(date +%Y%m%d-%H%M%S)" HEAD
	git -C "$KT" checkout -q -B stackmap base
	apply_series "$KT"
}

# Regenerate patches/BASE from the workspace. The text of the cover letter
# is kept; its shortlog and diffstat are regenerated.
export_series() {
	[ -e "$KT/.git" ] || die "no workspace at ${KT#"$TOP"/} (run ./harness build first)"
	local untracked
	untracked=$(git -C "$KT" status --porcelain --ignored --untracked-files=all | grep -v '^ M\|^M ' || true)
	if [ -n "$untracked" ]; then
		echo "$untracked" | head -20 >&2
		die "${KT#"$TOP"/} has files git does not track (Debian's .gitignore hides them):" \
			"git add -f and commit them, or remove them, before exporting"
	fi
	[ -z "$(git -C "$KT" status --porcelain --untracked-files=no)" ] ||
		die "${KT#"$TOP"/} has uncommitted changes"
	local n cover=$PATCHES/0000-cover-letter.patch tmp
	n=$(git -C "$KT" rev-list --count base..HEAD)
	[ "$n" -gt 0 ] || die "no commits on top of base"
	tmp=$(mktemp -d)
	git -C "$KT" -c core.abbrev=12 format-patch -q --cover-letter --no-signature \
		--zero-commit --subject-prefix="$(subject_prefix)" -o "$tmp" base..HEAD
	[ -f "$cover" ] && python3 "$TOP/lib/cover.py" "$cover" "$tmp/0000-cover-letter.patch"
	# The cover letter's date is "now": use the newest commit's, so that
	# exporting twice without a change gives no diff.
	sed -i "s/^Date: .*/Date: $(git -C "$KT" log -1 --format=%aD HEAD)/" "$tmp/0000-cover-letter.patch"
	rm -f "$PATCHES"/*.patch
	mkdir -p "$PATCHES"
	cp "$tmp"/*.patch "$PATCHES/"
	rm -rf "$tmp"
	say "exported $n patches (+ cover letter) to patches/$BASE/"
}

# ./harness apply KSRC=DIR: the series (mainline unless BASE=6.12) onto a
# kernel tree of the user's, on a new branch; the tree is left as it was if
# it does not apply.
apply_to() {
	local ksrc=${1:-}
	case "$ksrc" in
	KSRC=?*) ksrc=${ksrc#KSRC=} ;;
	*) die "apply needs KSRC=DIR, the path of your kernel git tree (got '${1:-}')" ;;
	esac
	git -C "$ksrc" rev-parse --git-dir >/dev/null 2>&1 || die "KSRC=$ksrc is not a git tree"
	[ -z "$(git -C "$ksrc" status --porcelain --untracked-files=no)" ] ||
		die "$ksrc has uncommitted changes; commit or stash them first"
	local br
	br="stackmap-$(date +%Y%m%d-%H%M%S)"
	git -C "$ksrc" checkout -q -b "$br"
	say "applying patches/$BASE to $ksrc on new branch $br"
	# shellcheck disable=SC2046
	if ! git -C "$ksrc" am -3 $(series); then
		git -C "$ksrc" am --abort || true
		git -C "$ksrc" checkout -q -
		git -C "$ksrc" branch -D "$br" >/dev/null
		die "patches/$BASE does not apply to $ksrc; your tree is back as it was"
	fi
	say "done: branch $br in $ksrc"
}
