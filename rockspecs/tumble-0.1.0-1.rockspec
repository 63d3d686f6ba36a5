-- LuaRocks package of the Lua module `tumble`: `luarocks --lua-version 5.4 make
-- rockspecs/tumble-0.1.0-1.rockspec` from the repository root builds tumble.so (the bindings and the
-- physics core) with rockspecs/rock.mk and installs it with the helper libraries of scripts/lib as
-- "tumble.NAME" (require "tumble.ragdolls"). The version is TB_VERSION_* of
-- physics/include/tumble/base.h (tests/e2e/luarocks.sh checks that they agree).
rockspec_format = "3.0"
package = "tumble"
version = "0.1.0-1"
source = {
	-- luarocks make builds the checkout it is run in; the project is not published elsewhere yet.
	url = "file://.",
}
description = {
	summary = "A 3D rigid-body physics engine in C11 with a Lua 5.4 module",
	detailed = [[
Rigid bodies with boxes, spheres, capsules, convex hulls and meshes; hinge, slider, ball, cone,
distance, six-degree-of-freedom, motor and custom joints; character movers; snapshots.
Scenes are Lua tables: world = tumble.world{...}, world:add_box{...}, world:step(dt).
]],
	license = "MIT",
	labels = { "physics", "simulation", "3d" },
}
dependencies = {
	"lua >= 5.4, < 5.5",
}
build = {
	type = "make",
	makefile = "rockspecs/rock.mk",
	build_variables = {
		CC = "$(CC)",
		CFLAGS = "$(CFLAGS)",
		LIBFLAG = "$(LIBFLAG)",
		LUA_INCDIR = "$(LUA_INCDIR)",
	},
	install_variables = {
		INST_LIBDIR = "$(LIBDIR)",
		INST_LUADIR = "$(LUADIR)",
	},
}
