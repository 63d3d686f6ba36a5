#!/usr/bin/env bash
# The cost of terrain as a heightfield against the same triangles as a mesh: bench/lua/terrain100.lua
# (100 spheres on 128 x 128 points for 300 steps) run once each way under callgrind, reporting the
# instructions (Ir, inclusive) of all the steps (tbWorld_Step) and of building the shape
# (tbCreateHeightfieldShape, tbCreateMeshShape). Instruction counts do not depend on machine load.
# Usage: bench/terrain_cost.sh        The program: $TUMBLE, else build/release/tumble.
set -euo pipefail
cd "$( dirname "$0" )/.."
tumble="${TUMBLE:-build/release/tumble}"
[ -x "$tumble" ] || { echo "terrain_cost.sh: $tumble not built (./build.sh build release)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "terrain_cost.sh: valgrind is missing" >&2; exit 1; }
scratch=$( mktemp -d )
trap 'rm -rf "$scratch"' EXIT

# inclusive Ir of function $2 in callgrind output $1
inclusive()
{
	callgrind_annotate --inclusive=yes --auto=no "$1" >"$1.txt" 2>/dev/null
	awk -v fn="$2" '$0 ~ (":" fn " ") { gsub( ",", "", $1 ); print $1; exit }' "$1.txt"
}

for kind in heightfield mesh; do
	TB_TERRAIN="$kind" valgrind --tool=callgrind --callgrind-out-file="$scratch/$kind.out" \
		"$tumble" --headless bench/lua/terrain100.lua >/dev/null 2>"$scratch/$kind.err"
	grep '^terrain100' "$scratch/$kind.err" || true
done
step_hf=$( inclusive "$scratch/heightfield.out" tbWorld_Step )
step_mesh=$( inclusive "$scratch/mesh.out" tbWorld_Step )
make_hf=$( inclusive "$scratch/heightfield.out" tbCreateHeightfieldShape )
make_mesh=$( inclusive "$scratch/mesh.out" tbCreateMeshShape )
printf '%-24s %16s %16s %8s\n' "" heightfield mesh ratio
printf '%-24s %16s %16s %8.3f\n' "300 steps (Ir)" "$step_hf" "$step_mesh" "$( echo "$step_hf / $step_mesh" | bc -l )"
printf '%-24s %16s %16s %8.3f\n' "building the shape (Ir)" "$make_hf" "$make_mesh" "$( echo "$make_hf / $make_mesh" | bc -l )"
