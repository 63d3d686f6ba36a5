-- Lua API: all-hits rays, rays starting on a surface, and shape casts (world:cast{...}).
local tb = require "tumble"
local check = require "lib.check"

local scene = { steps = 1 }

-- A ground (top z = 0, layer 2), a 1 m box at x = 3 and a ball of radius 1 at x = -3.
local function make()
	local w = tb.world{ gravity = { 0, 0, 0 } }
	local ground = w:add_box{ name = "ground", size = { 40, 40, 2 }, pos = { 0, 0, -1 }, static = true, layer = 2 }
	local box = w:add_box{ name = "box", size = { 1, 1, 1 }, pos = { 3, 0, 0.5 }, static = true }
	local ball = w:add_sphere{ name = "ball", radius = 1, pos = { -3, 0, 1 }, static = true }
	return w, ground, box, ball
end

local function rays()
	local w, ground, box, ball = make()
	-- Along z = 0.5 from x = -10 to 10: into and out of the ball (entry only), then the box.
	local hits = w:raycast_all({ -10, 0, 0.5 }, { 10, 0, 0.5 })
	check.eq(#hits, 2, "hits along the ray")
	check.eq(hits[1].body, ball, "the ball first")
	check.eq(hits[2].body, box, "then the box")
	check.near(hits[1].fraction, (-3 - math.sqrt(0.75) + 10) / 20, 1e-4, "ball fraction")
	check.near(hits[2].fraction, 12.5 / 20, 1e-4, "box fraction")
	check.vec({ -1, 0, 0 }, 1e-4, "box normal", table.unpack(hits[2].normal))
	check.eq(#w:raycast_all({ -10, 0, 0.5 }, { 10, 0, 0.5 }, 2), 0, "mask 2: the ground alone, not on this ray")
	check.eq(#w:raycast_all({ 0, 0, 5 }, { 0, 0, -5 }, 2), 1, "mask 2: the ground below")
	check.eq(#w:raycast_all({ 0, 5, 5 }, { 0, 5, 6 }), 0, "nothing above")
	check.fails(function() w:raycast_all({ 0, 0, 0 }, { 0, 0, 1 }, 1.5) end, "raycast_all: mask must be an integer of layer bits, got 1.5")

	-- A ray starting on a surface and heading in reports it at fraction 0.
	local hit = w:raycast({ 5, 5, 0 }, { 5, 5, -1 })
	check.eq(hit and hit.body, ground, "from the ground's top, downwards")
	check.eq(hit.fraction, 0, "at fraction 0")
	check.vec({ 0, 0, 1 }, 1e-4, "the ground's normal", table.unpack(hit.normal))
	hit = w:raycast({ -3, 0, 2 }, { -3, 0, 0 })
	check.eq(hit and hit.body, ball, "from the ball's top")
	check.eq(hit.fraction, 0, "at fraction 0")
	check.eq(w:raycast({ 5, 5, 0 }, { 5, 5, 1 }), nil, "from the surface outwards: no hit")
	w:destroy()
end

local function casts()
	local w, ground, box, ball = make()
	local hit = w:cast{ shape = "sphere", radius = 0.5, from = { 0, 0, 5 }, to = { 0, 0, -5 } }
	check.eq(hit and hit.body, ground, "a sphere dropped lands on the ground")
	check.near(hit.fraction, 0.45, 1e-4, "sphere fraction")
	check.vec({ 0, 0, 0 }, 1e-4, "contact point", table.unpack(hit.point))
	check.vec({ 0, 0, 1 }, 1e-4, "normal", table.unpack(hit.normal))

	-- A capsule (radius 0.25, half length 0.5, upright) onto the box top (z = 1): stops at z = 1.75.
	hit = w:cast{ shape = "capsule", radius = 0.25, half_length = 0.5, from = { 3, 0, 6 }, to = { 3, 0, -2 } }
	check.eq(hit and hit.body, box, "the capsule lands on the box")
	check.near(hit.fraction, (6 - 1.75) / 8, 1e-4, "capsule fraction")
	-- Lying along x (a quarter turn about y), its end cap meets the box's face x = 2.5 at x = 1.75.
	hit = w:cast{ shape = "capsule", radius = 0.25, half_length = 0.5, rot = tb.axis_angle({ 0, 1, 0 }, math.pi / 2),
	              from = { 0, 0, 0.5 }, to = { 10, 0, 0.5 }, mask = 1 }
	check.eq(hit and hit.body, box, "lying capsule meets the box")
	check.near(hit.fraction, 1.75 / 10, 1e-4, "lying capsule fraction")

	-- A 1 x 1 x 0.4 box slid along x resting on the ground (z from 0 to 0.4): it touches the ground
	-- from the start, then its top edge meets the ball 0.6 m below the ball's centre (x = -3.8).
	local hits = w:cast{ shape = "box", size = { 1, 1, 0.4 }, from = { -10, 0, 0.2 }, to = { 10, 0, 0.2 }, all = true }
	check.eq(#hits, 3, "ground, ball, box")
	check.eq(hits[1].body, ground, "the ground first")
	check.eq(hits[1].fraction, 0, "touching the ground from the start")
	check.eq(hits[2].body, ball, "then the ball")
	check.near(hits[2].fraction, (-3.8 - 0.5 + 10) / 20, 1e-4, "ball fraction")
	check.eq(hits[3].body, box, "then the box")
	w:destroy()
end

local function cast_filters_and_bodies()
	local w, ground, box, ball = make()
	local hits = w:cast{ shape = "box", size = { 1, 1, 0.4 }, from = { -10, 0, 0.5 }, to = { 10, 0, 0.5 }, all = true }
	check.eq(#hits, 2, "ball and box (0.3 m above the ground)")
	check.eq(hits[1].body, ball, "ball first")
	-- The box's top corner edge (z = 0.7) meets the ball 0.3 m below its centre.
	check.near(hits[1].fraction, (-3 - math.sqrt(1 - 0.09) - 0.5 + 10) / 20, 1e-4, "ball fraction")
	check.eq(hits[2].body, box, "box second")
	check.near(hits[2].fraction, (2.5 - 0.5 + 10) / 20, 1e-4, "box fraction")

	-- Starting inside the ground: fraction 0, normal up; mask = 1 leaves the ground out.
	local hit = w:cast{ shape = "sphere", radius = 0.5, from = { 8, 0, 0.2 }, to = { 8, 0, 3 } }
	check.eq(hit and hit.body, ground, "overlapping at the start")
	check.eq(hit.fraction, 0, "fraction 0")
	check.vec({ 0, 0, 1 }, 1e-4, "the way out", table.unpack(hit.normal))
	check.eq(w:cast{ shape = "sphere", radius = 0.5, from = { 8, 0, 0.2 }, to = { 8, 0, 3 }, mask = 1 }, nil, "mask 1")

	-- A body's own shapes: a dynamic sphere cast sideways meets the box, not itself.
	local mover = w:add_sphere{ radius = 0.5, pos = { 0, 0, 0.6 } }
	hit = w:cast{ body = mover, to = { 10, 0, 0.6 } }
	check.eq(hit and hit.body, box, "a body cast hits the box")
	check.near(hit.fraction, 2 / 10, 1e-4, "body cast fraction")
	check.eq(w:cast{ body = mover, to = { 0, 10, 0.6 } }, nil, "nothing that way")

	check.fails(function() w:cast{ shape = "cone", from = { 0, 0, 0 }, to = { 1, 0, 0 } } end, "cast: invalid cast shape 'cone'")
	check.fails(function() w:cast{ from = { 0, 0, 0 }, to = { 1, 0, 0 } } end, "cast: shape must be \"sphere\", \"capsule\" or \"box\" (or give body), got nil")
	check.fails(function() w:cast{ shape = "sphere", to = { 1, 0, 0 } } end, "cast: from must be 3 finite numbers, got nil")
	check.fails(function() w:cast{ shape = "sphere", from = { 0, 0, 0 } } end, "cast: to must be 3 finite numbers, got nil")
	check.fails(function() w:cast{ shape = "sphere", from = { 0, 0, 0 }, to = { 1, 0, 0 }, radius = -1 } end, "cast: radius must be a positive number, got -1")
	check.fails(function() w:cast{ body = mover, from = { 0, 0, 0 }, to = { 1, 0, 0 } } end, "cast: a body is cast from its own pose: from and rot are not allowed with body")
	check.fails(function() w:cast{ body = 3, to = { 1, 0, 0 } } end, "cast: body must be a Body, got 3")
	check.fails(function() w:cast{ shape = "box", size = { 1, 1, 1 }, from = { 0, 0, 0 }, to = { 1, 0, 0 }, radius = 1 } end, "cast: unknown field 'radius'")
	w:destroy()
end

function scene.setup(world)
	rays()
	casts()
	cast_filters_and_bodies()
end

return scene
