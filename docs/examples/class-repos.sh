#!/bin/sh
# A class of Git repositories to try README's "Grading a class" on: the
# fixture class's students (harness/tests/fixtures/class), each folder a
# repository with its files committed on 30 November 2026; bob commits a
# fix on 3 December, after the deadline; frank hands in alice's guess.py
# with other names and comments. Run from the repository's root:
#     sh docs/examples/class-repos.sh target/walk/class
set -eu
dest=${1:?usage: class-repos.sh DEST}
[ -e "$dest" ] && { echo "$dest exists: remove it first" >&2; exit 2; }
mkdir -p "$dest"
cp -R harness/tests/fixtures/class/. "$dest"

commit() { # commit DIR DATE MESSAGE: everything in DIR, at DATE
    git -C "$1" add -A
    GIT_AUTHOR_DATE=$2 GIT_COMMITTER_DATE=$2 git -C "$1" \
        -c user.name=student -c user.email=student@example.org \
        -c commit.gpgsign=false commit -q -m "$3"
}

mkdir "$dest/frank"
sed -e 's/lo/low/g; s/ hi/ high/g; s/mid/middle/g; s/reply/answer/g' \
    -e 's/^# .*/# my own binary search/' \
    "$dest/alice/guess.py" > "$dest/frank/guess.py"

for student in "$dest"/*/; do
    git -C "$student" init -q
    commit "$student" 2026-11-30T12:00:00Z "hand in"
done

cat > "$dest/bob/sum.c" <<'C'
#include <stdio.h>
int main(void) {
    int t;
    long long a, b;
    scanf("%d", &t);
    while (t--) { scanf("%lld %lld", &a, &b); printf("%lld\n", a + b); }
    return 0;
}
C
commit "$dest/bob" 2026-12-03T09:00:00Z "sum: long long"
echo "$dest: $(ls "$dest" | wc -l) entries, one Git repository per student"
