#!/usr/bin/env bash
# tumble --help names every option the program reads (runtime/main.c and the viewer's in
# runtime/viewer/viewer.c), so the man page made from it (help2man, ./build.sh install) does too;
# --version prints the version of physics/include/tumble/base.h.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

check "--help: exit 0" expect_status 0 "$TUMBLE" --help
cp "$SCRATCH/out" "$SCRATCH/help"
options=$( grep -oh 'strcmp( arg, "-[-a-z]*" )' runtime/main.c runtime/viewer/viewer.c | sed 's/.*"\(.*\)".*/\1/' | sort -u )
check "the sources parse options (found $( wc -w <<<"$options" ))" test "$( wc -w <<<"$options" )" -ge 15
for option in $options; do
	# As the first word of an option line: "  --name", or "  -h, --help".
	check "--help lists $option" grep -qE -- "^  (-[a-z], )?$option[ ,]" "$SCRATCH/help"
done
check "--help: the viewer's section" contains "$SCRATCH/help" "Viewer options"

version=$( tumble_version )
check "--version: exit 0" expect_status 0 "$TUMBLE" --version
check "--version: tumble $version" contains "$SCRATCH/out" "tumble $version"

check "help2man makes a man page from it" expect_status 0 help2man --no-info --name="run Tumble physics scenes" \
	--output="$SCRATCH/tumble.1" "$TUMBLE"
check "the man page: the viewer's --window" contains "$SCRATCH/tumble.1" '\-\-window'

finish
