# SPDX-License-Identifier: GPL-2.0
# The workspace of a base: build/BASE/linux, a git tree with the Debian
# source as one commit tagged "base" and the series on branch "stackmap".
# The series is edited there and exported back to patches/BASE/.

# The series folders of a base, in the order they apply: each fix of
# another subsystem is a submission of its own under patches/BASE-fixes/
# (one folder each, applied in name order), then the feature series
# patches/BASE, then its follow-ups patches/BASE-instances and
# patches/BASE-tool, where they exist.
series_dirs() {
	local d
	for d in "$PATCHROOT/$BASE-fixes"/*/; do
		[ ! -d "$d" ] || echo "${d%/}"
	done
	for d in "$PATCHROOT/$BASE" "$PATCHROOT/$BASE-instances" "$PATCHROOT/$BASE-tool"; do
		[ ! -d "$d" ] || echo "$d"
	done
	return 0
}

# dir_patches DIR: the numbered patches of one folder, without its cover letter.
dir_patches() {
	ls "$1"/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | grep -v '/0000-' || true
}

# series: every patch of every folder, in the order git am takes them.
series() {
	local d
	for d in $(series_dirs); do
		dir_patches "$d"
	done
}

# The branch of the workspace that ends at a folder's last commit:
# fixes/NAME, series, instances or tool. "git rebase -i --update-refs"
# keeps them where they belong while the stack is edited.
dir_branch() {
	case "$1" in
	*/"$BASE-fixes"/*) echo "fixes/${1##*/}" ;;
	*/"$BASE") echo series ;;
	*/"$BASE"-*) echo "${1##*/"$BASE"-}" ;;
	esac
}

# Leading patches that fix the base kernel itself (patches/BASE-fixes): the
# unpatched-base ftracetest baseline is recorded with them applied (7.3.4
# does not survive "Basic test for tracers" without the x86 ftrace fix).
base_fix_patches() {
	local d
	for d in $(series_dirs); do
		case "$d" in */"$BASE-fixes"/*) dir_patches "$d" ;; esac
	done
}

# The mainline series is mailed as [PATCH n/m], the backport as
# [PATCH 6.12 n/m], the way stable backports are.
subject_prefix() {
	if [ "$BASE" = "$MAINLINE" ]; then echo PATCH; else echo "PATCH $BASE"; fi
}

# git_identity TREE: a committer for git am in TREE where the machine has
# none (a fresh machine has no ~/.gitconfig): the harness's own.
git_identity() {
	git -C "$1" config user.name >/dev/null || git -C "$1" config user.name "stackmap harness"
	git -C "$1" config user.email >/dev/null || git -C "$1" config user.email "harness@localhost"
}

# Create the workspace from Debian's tarball; an existing one is left alone.
workspace() {
	mkdir -p "$RUN"
	if [ -d "$KT/.git" ]; then
		check_workspace_matches
		return 0
	fi
	fetch_source
	local tmp=$BDIR/extract.$$
	rm -rf "$tmp" && mkdir -p "$tmp"
	say "extracting $(source_tarball | sed "s|^$TOP/||")"
	tar -C "$tmp" -xf "$(source_tarball)"
	mv "$tmp"/linux-source-* "$KT"
	rmdir "$tmp"
	(
		cd "$KT"
		git init -q -b base-tree
		git config core.abbrev 12
		git_identity .
		# Debian's top-level .gitignore ignores everything ("/*"): force.
		git add -f -A .
		git commit -q -m "Linux $(base_version .) ($(source_desc))"
		git tag base
		git checkout -q -b stackmap
	)
	say "base: Linux $(base_version "$KT") from $(source_desc)"
	apply_series "$KT"
}

# apply_series TREE: git am every series folder onto TREE, in order, and
# point each folder's branch (dir_branch) at its last commit.
apply_series() {
	local tree=$1 d list
	[ -n "$(series)" ] || die "patches/$BASE/ holds no series"
	for d in $(series_dirs); do
		list=$(dir_patches "$d")
		[ -n "$list" ] || continue
		say "applying $(echo "$list" | wc -l) patches of ${d#"$PATCHROOT"/} with git am"
		# shellcheck disable=SC2086
		if ! git -C "$tree" am -q --keep-cr $list; then
			git -C "$tree" am --abort || true
			die "${d#"$PATCHROOT"/} does not apply to Linux $(base_version "$tree")" \
				"($(cat "$BDIR/source.txt" 2>/dev/null | head -1)) after the folders before it:" \
				"git am failed above. Rebase the series on the new base; nothing was built."
		fi
		git -C "$tree" branch -f "$(dir_branch "$d")" HEAD
	done
}

# folder_of BRANCH: the series folder a workspace branch exports to.
folder_of() {
	case "$1" in
	fixes/*) echo "$PATCHROOT/$BASE-fixes/${1#fixes/}" ;;
	series) echo "$PATCHROOT/$BASE" ;;
	*) echo "$PATCHROOT/$BASE-$1" ;;
	esac
}

# folder_ranges: "BRANCH FROM TO" for each folder branch of the workspace,
# in the order they stack on base; the last folder ends at HEAD (a
# workspace without folder branches is one series).
folder_ranges() {
	local b from=base to last sorted
	sorted=$(git -C "$KT" for-each-ref --format='%(refname:short)' refs/heads/fixes/ \
		refs/heads/series refs/heads/instances refs/heads/tool | while read -r b; do
		git -C "$KT" merge-base --is-ancestor "$b" HEAD ||
			die "branch $b of ${KT#"$TOP"/} is not in the history of HEAD"
		echo "$(git -C "$KT" rev-list --count "base..$b") $b"
	done | sort -n | cut -d' ' -f2)
	[ -n "$sorted" ] || sorted=series
	last=$(echo "$sorted" | tail -1)
	for b in $sorted; do
		to=$b
		[ "$b" = "$last" ] && to=HEAD
		echo "$b $(git -C "$KT" rev-parse "$from") $(git -C "$KT" rev-parse "$to")"
		from=$to
	done
}

patch_ids() { git patch-id --stable | awk '{print $1}' | sort; }

# workspace_matches: the workspace's commits (base..HEAD) are the patches
# of the series folders; prints "none" if it holds none of them.
workspace_matches() {
	local a b
	a=$(git -C "$KT" log -p --reverse base..HEAD | patch_ids)
	# shellcheck disable=SC2046
	b=$(cat $(series) /dev/null | patch_ids)
	[ -n "$a" ] || [ -z "$b" ] || { echo none; return 1; }
	[ "$a" = "$b" ]
}

check_workspace_matches() {
	local m
	m=$(workspace_matches) && return 0
	# Nothing of the series in the workspace (a failed git am, say):
	# building it would test the base instead.
	[ "$m" != none ] || die "${KT#"$TOP"/} holds none of patches/$BASE; run ./harness reapply"
	echo "harness: NOTE: ${KT#"$TOP"/} (base..HEAD) differs from patches/$BASE;" \
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

# Regenerate every series folder of the base from the workspace, one
# range per folder branch (folder_ranges). The text of each cover letter is
# kept; its shortlog and diffstat are regenerated.
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
	local ranges b from to dir n tmp old
	ranges=$(folder_ranges)
	tmp=$(mktemp -d)
	# The cover letters as they are, by folder, before the folders go.
	old=$tmp/old
	for dir in $(series_dirs); do
		[ -f "$dir/0000-cover-letter.patch" ] || continue
		mkdir -p "$old/${dir#"$PATCHROOT"/}"
		cp "$dir/0000-cover-letter.patch" "$old/${dir#"$PATCHROOT"/}/"
	done
	while read -r b from to; do
		dir=$(folder_of "$b")
		n=$(git -C "$KT" rev-list --count "$from..$to")
		[ "$n" -gt 0 ] || die "folder branch $b holds no commits"
		mkdir -p "$tmp/new/${dir#"$PATCHROOT"/}"
		# The cover letter is from the series' author, whoever exports it
		# (git takes its From: from the committer identity otherwise).
		git -C "$KT" -c core.abbrev=12 -c user.name="$(git -C "$KT" log -1 --format=%an "$to")" \
			-c user.email="$(git -C "$KT" log -1 --format=%ae "$to")" format-patch -q --cover-letter \
			--no-signature --zero-commit --subject-prefix="$(subject_prefix)" -o "$tmp/new/${dir#"$PATCHROOT"/}" "$from..$to"
		local cover=$tmp/new/${dir#"$PATCHROOT"/}/0000-cover-letter.patch
		[ -f "$old/${dir#"$PATCHROOT"/}/0000-cover-letter.patch" ] &&
			python3 "$TOP/lib/cover.py" "$old/${dir#"$PATCHROOT"/}/0000-cover-letter.patch" "$cover"
		# The cover letter's date is "now": use the newest commit's, so that
		# exporting twice without a change gives no diff.
		sed -i "s/^Date: .*/Date: $(git -C "$KT" log -1 --format=%aD "$to")/" "$cover"
		say "exported $n patches (+ cover letter) to ${dir#"$TOP"/}/"
	done <<<"$ranges"
	for dir in $(series_dirs); do
		rm -f "$dir"/*.patch
		rmdir "$dir" 2>/dev/null || true
	done
	rmdir "$PATCHROOT/$BASE-fixes" 2>/dev/null || true
	cp -r "$tmp/new/." "$PATCHROOT/"
	rm -rf "$tmp"
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
