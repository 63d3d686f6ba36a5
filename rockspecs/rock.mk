# The LuaRocks build of the module `tumble` (rockspecs/tumble-*.rockspec, "make" backend), run from
# the repository root by `luarocks make rockspecs/tumble-<version>.rockspec`. LuaRocks passes the
# variables below; the defaults suit a plain `make -f rockspecs/rock.mk` with Debian's lua5.4.
# Sources by wildcard, as premake5.lua finds them, so a new .c file needs no edit here either.
# The project's own build is premake5.lua (./build.sh); this file only builds what the rock installs:
# tumble.so (bindings and the physics core in one shared object) and the helper libraries of
# scripts/lib as "tumble.NAME".

CC ?= cc
CFLAGS ?= -O2 -fPIC
LIBFLAG ?= -shared
LUA_INCDIR ?= /usr/include/lua5.4
INST_LIBDIR ?= install/lib
INST_LUADIR ?= install/lua
# The project's warnings, errors as everywhere else (premake5.lua's cWarnings).
WARNINGS ?= -std=c11 -Wall -Wextra -Wpedantic -Werror

BUILD := build/rock
SOURCES := $(sort $(wildcard physics/src/*.c bindings/*.c))
OBJECTS := $(patsubst %.c,$(BUILD)/%.o,$(SOURCES))
HEADERS := $(wildcard physics/include/tumble/*.h physics/src/*.h bindings/*.h)
HELPERS := $(sort $(wildcard scripts/lib/*.lua))

.PHONY: all install clean

all: $(BUILD)/tumble.so

$(BUILD)/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARNINGS) -DNDEBUG -Iphysics/include -Iphysics/src -Ibindings -isystem $(LUA_INCDIR) -c $< -o $@

# The Lua API comes from the interpreter that loads the module: liblua is not linked.
$(BUILD)/tumble.so: $(OBJECTS)
	$(CC) $(LIBFLAG) -o $@ $(OBJECTS) -lm

install: $(BUILD)/tumble.so
	install -d $(INST_LIBDIR) $(INST_LUADIR)/tumble
	install -m 755 $(BUILD)/tumble.so $(INST_LIBDIR)/tumble.so
	install -m 644 $(HELPERS) $(INST_LUADIR)/tumble/

clean:
	rm -rf $(BUILD)
