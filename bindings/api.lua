-- The Lua API of the module `tumble`, described once. bindings/gen_api.lua makes from it the Lua
-- Language Server definitions types/tumble.lua (---@meta) and the reference tables of
-- docs/LUA_API.md; tests/lua/test_api.lua fails when a function or field registered by the
-- bindings (bindings/*.c: luaL_Reg and tbLuaProperty tables) is missing here, or the other way
-- round, and when the generated files are not what this file makes.
--
-- Entries, positional:
--   functions and methods: { name, params, returns, doc, overloads = { params, ... }, table = true }
--     params: "name: type, name?: type" (? = optional); returns: "type" or "name: type, ...";
--     table = true: called with one table of fields, `world:add_box{...}`.
--   fields: { name, type, access ("r" or "rw"), doc, joints = "which joint types have it" }
-- Types are LuaLS types; tumble.* names are the aliases and classes below. Docs are Markdown.

local api = {}

api.aliases = {
	{ "tumble.Vec3", "number[]", "`{x, y, z}`: a point or vector (m, m/s, N, ... as the field says)" },
	{ "tumble.Quat", "number[]", "`{w, x, y, z}`: a rotation quaternion, scalar first (normalised on input)" },
	{ "tumble.Range", "number[]", "`{lo, hi}` with lo <= hi" },
	{ "tumble.Solver", '"soft"|"split"|"baumgarte"|"global"', "solver mode" },
	{ "tumble.GlobalMethod", '"gauss_seidel"|"jacobi"', "how the global solver iterates" },
	{ "tumble.BodyType", '"static"|"kinematic"|"dynamic"', "body type" },
	{ "tumble.MixRule", '"geometric_mean"|"average"|"minimum"|"maximum"|"multiply"', "how two shapes' friction or restitution combine" },
	{ "tumble.Event", '"contact_begin"|"contact_end"|"sensor_begin"|"sensor_end"|"joint_break"', "world event name" },
	{ "tumble.JointType", '"distance"|"ball"|"hinge"|"cone"|"fixed"|"slider"|"six_dof"|"motor"|"mouse"|"custom"|"wheel"', "joint type" },
	{ "tumble.Axis", '"x"|"y"|"z"|"rx"|"ry"|"rz"', "a six_dof axis" },
	{ "tumble.AxisLimit", '"free"|"fixed"|number[]', 'a six_dof axis: `"free"`, `"fixed"` or `{lo, hi}` (m; rad in [-pi, pi])' },
	{ "tumble.MoverMode", '"idle"|"velocity"|"path"|"target"', "what a mover is doing" },
	{ "tumble.MouseButton", '"left"|"middle"|"right"', "a mouse button" },
	{ "tumble.PathMode", '"once"|"loop"|"pingpong"', "how a mover runs its path" },
}

-- Classes in the order they are generated. kind: "module" (the table require returns), "table" (a
-- plain table of functions), "userdata" (a handle whose metatable tbLua_RegisterType made: `name`
-- is its __name), "record" (a table of fields made by Lua or returned by a function).
api.classes = {}

local function class( c )
	table.insert( api.classes, c )
	return c
end

class {
	name = "tumble",
	kind = "module",
	doc = "The physics module: `local tb = require \"tumble\"`.",
	var = "tb",
	functions = {
		{ "world", "def?: tumble.WorldDef", "tumble.World", "a new World (see below)", table = true },
		{ "axis_angle", "axis: tumble.Vec3, angle: number", "tumble.Quat", "`{w, x, y, z}` rotating by `angle` rad about `axis` (normalised)" },
		{ "quat_multiply", "a: tumble.Quat, b: tumble.Quat", "tumble.Quat", "`{w, x, y, z}` = a * b (rotate by b, then by a)" },
		{ "rotate", "q: tumble.Quat, v: tumble.Vec3", "x: number, y: number, z: number", "`x, y, z`: vector `v` rotated by `q`" },
	},
	fields = {
		{ "version", "string", "r", "`\"0.1.0\"`: the library version" },
		{ "input", "tumble.Input", "r", "keys and mouse (`tb.input.down(key)`)" },
		{ "camera", "tumble.Camera", "r", "the viewer's camera, driven from scripts" },
		{ "draw", "tumble.Draw", "r", "3D debug drawing from scripts" },
		{ "solvers", "tumble.Solver[]", "r", "the accepted solver names" },
		{ "body_types", "tumble.BodyType[]", "r", "the accepted body types" },
		{ "shape_types", "string[]", "r", "the shape types, one `world:add_<type>{...}` each; `add_compound`'s `shapes` take all but `\"mesh\"` and `\"heightfield\"`" },
		{ "mix_rules", "tumble.MixRule[]", "r", "the accepted mix rules" },
		{ "events", "tumble.Event[]", "r", "the event names of `world:on`" },
		{ "joint_types", "tumble.JointType[]", "r", "the joint types" },
	},
}

class {
	name = "tumble.Input",
	kind = "table",
	doc = "Keys and mouse, `tb.input`. Without a window (headless) no key or button is ever down and the mouse functions return nothing. \"Since the last step\": each press is seen by exactly one step's `update`.",
	var = "tb.input",
	functions = {
		{ "down", "key: string", "boolean", "`true` while the key is held (viewer; always `false` headless). Names as SDL's, any case: a-z, 0-9, punctuation, `\"space\"`, `\"return\"`, `\"left\"`, `\"left shift\"`, `\"f1\"` ...; another name is an error listing them" },
		{ "pressed", "key: string", "boolean", "`true` when the key went down since the last step (names as `down`)" },
		{ "released", "key: string", "boolean", "`true` when the key went up since the last step (names as `down`)" },
		{ "mouse", "", "x: number?, y: number?", "`x, y`: the cursor in window points from the top left; nothing headless" },
		{ "mouse_down", "button: tumble.MouseButton", "boolean", "`true` while the button is held (presses on the viewer's panels do not count)" },
		{ "mouse_pressed", "button: tumble.MouseButton", "boolean", "`true` when the button went down since the last step" },
		{ "mouse_released", "button: tumble.MouseButton", "boolean", "`true` when the button went up since the last step" },
		{ "mouse_ray", "", "ox: number?, oy: number?, oz: number?, dx: number?, dy: number?, dz: number?", "the world ray under the cursor: origin (the eye) and unit direction; nothing headless. `world:raycast` it to find what is under the mouse" },
	},
}

class {
	name = "tumble.Camera",
	kind = "table",
	doc = "The viewer's camera, `tb.camera`. Requests apply at the next frame; headless they are recorded (`get` reads them back) and nothing else happens.",
	var = "tb.camera",
	functions = {
		{ "look_at", "eye: tumble.Vec3, target: tumble.Vec3", "nil", "look at `target` from `eye` (m; at least 1 mm apart)" },
		{ "follow", "body: tumble.Body?, opts?: tumble.FollowOptions", "nil", "keep moving the camera's target to the body's centre of mass, every frame; `nil` stops" },
		{ "get", "", "ex: number?, ey: number?, ez: number?, tx: number?, ty: number?, tz: number?", "the eye and target shown last frame (headless: the last `look_at`); nothing before either" },
	},
}

class {
	name = "tumble.FollowOptions",
	kind = "record",
	doc = "Options of `tb.camera.follow`.",
	optional = true,
	fields = {
		{ "offset", "tumble.Vec3", "r", "the eye's place relative to the body (m); without it the user's orbit is kept" },
		{ "smoothing", "number", "r", "s: time constant of the camera's approach (default 0.25; 0 = rigid)" },
	},
}

class {
	name = "tumble.Draw",
	kind = "table",
	doc = "3D debug drawing, `tb.draw`, drawn on top of the bodies. What `update` draws shows until the next step; what the scene's `draw()` (called by the viewer every frame) draws shows that frame. Headless the shapes are recorded and dropped at each step. Colours are `{r, g, b}` or `{r, g, b, a}` in [0, 1], default white.",
	var = "tb.draw",
	functions = {
		{ "line", "a: tumble.Vec3, b: tumble.Vec3, color?: number[]", "nil", "a segment from `a` to `b`" },
		{ "arrow", "from: tumble.Vec3, to: tumble.Vec3, color?: number[]", "nil", "a segment with a head at `to`" },
		{ "point", "p: tumble.Vec3, color?: number[]", "nil", "a dot of a few pixels" },
		{ "box", "center: tumble.Vec3, size: tumble.Vec3, color?: number[], rot?: tumble.Quat", "nil", "a wire box of full extents `size` (m), turned by `rot`" },
		{ "sphere", "center: tumble.Vec3, radius: number, color?: number[]", "nil", "three wire circles of `radius` (m)" },
		{ "text", "pos: tumble.Vec3, text: string, color?: number[]", "nil", "a label centred above the point (first 200 characters)" },
		{ "count", "", "integer", "shapes queued since the last step (and this frame's `draw()`): at most 65536" },
	},
}

class {
	name = "World",
	kind = "userdata",
	doc = "A physics world, made by `tb.world{...}`; garbage collected when no variable or body refers to it.",
	var = "world",
	methods = {
		{ "step", "dt: number", "", "advance `dt` seconds, then run the event handlers (see Events; a mod may step only the worlds it made)" },
		{ "add_box", "def: tumble.BoxDef", "tumble.Body", "a new Body: a box (see Bodies)", table = true },
		{ "add_sphere", "def: tumble.SphereDef", "tumble.Body", "a new Body: a sphere", table = true },
		{ "add_capsule", "def: tumble.CapsuleDef", "tumble.Body", "a new Body: a capsule", table = true },
		{ "add_hull", "def: tumble.HullDef", "tumble.Body", "a new Body: a convex hull", table = true },
		{ "add_cylinder", "def: tumble.CylinderDef", "tumble.Body", "a new Body: a cylinder", table = true },
		{ "add_compound", "def: tumble.CompoundDef", "tumble.Body", "a new Body made of several shapes", table = true },
		{ "add_mesh", "def: tumble.MeshDef", "tumble.Body", "a new static Body: a triangle mesh (see Meshes)", table = true },
		{ "add_heightfield", "def: tumble.HeightfieldDef", "tumble.Body", "a new static Body: terrain from a grid of heights (see Heightfields)", table = true },
		{ "distance", "def: tumble.DistanceDef", "tumble.Joint", "a new distance Joint (see Joints)", table = true },
		{ "ball", "def: tumble.BallDef", "tumble.Joint", "a new ball Joint", table = true },
		{ "hinge", "def: tumble.HingeDef", "tumble.Joint", "a new hinge Joint", table = true },
		{ "cone", "def: tumble.ConeDef", "tumble.Joint", "a new cone Joint", table = true },
		{ "fixed", "def: tumble.FixedDef", "tumble.Joint", "a new fixed Joint (weld)", table = true },
		{ "slider", "def: tumble.SliderDef", "tumble.Joint", "a new slider Joint", table = true },
		{ "wheel", "def: tumble.WheelJointDef", "tumble.Joint", "a new wheel Joint: a wheel Body on a suspension, spinning free or driven", table = true },
		{ "six_dof", "def: tumble.SixDofDef", "tumble.Joint", "a new 6-DOF Joint", table = true },
		{ "motor", "def: tumble.MotorDef", "tumble.Joint", "a new motor Joint", table = true },
		{ "mouse", "def: tumble.MouseDef", "tumble.Joint", "a new mouse Joint (a soft drag towards a target)", table = true },
		{ "constraint", "def: tumble.ConstraintDef", "tumble.Joint", "a new custom Joint whose rows come from Lua", table = true },
		{ "joint", "name: string", "tumble.Joint?", "the Joint with that name, or `nil`" },
		{ "joints", "", "tumble.Joint[]", "list of every Joint (each once)" },
		{ "mover", "def: tumble.MoverDef", "tumble.Mover", "a new Mover (see Movers)", table = true },
		{ "character", "def: tumble.CharacterDef", "tumble.Character", "a new Character: a walking capsule (see Characters)", table = true },
		{ "vehicle", "def: tumble.VehicleDef", "tumble.Vehicle", "a new Vehicle: a chassis Body on cast wheels (see Vehicles)", table = true },
		{ "body", "name: string", "tumble.Body?", "the Body with that name, or `nil`" },
		{ "bodies", "", "tumble.Body[]", "list of every Body, in creation order" },
		{ "raycast", "from: tumble.Vec3, to: tumble.Vec3, mask?: integer", "tumble.RayHit?", "closest hit `{ body =, point = {x,y,z}, normal = {x,y,z}, fraction = }` or `nil`" },
		{ "raycast_all", "from: tumble.Vec3, to: tumble.Vec3, mask?: integer", "tumble.RayHit[]", "every hit along the ray, ordered by fraction (see Queries)" },
		{ "cast", "def: tumble.CastDef", "tumble.RayHit|tumble.RayHit[]|nil", "shape cast: the first hit of a sphere, capsule, box or body swept from `from` to `to`, or `nil`; with `all = true` every hit, ordered by fraction (see Queries)", table = true },
		{ "explode", "def: tumble.ExplosionDef", "integer", "push dynamic bodies away from a point (see Explosions); returns how many it pushed", table = true },
		{ "overlap_sphere", "center: tumble.Vec3, radius: number", "tumble.Body[]", "list of Bodies touching the sphere" },
		{ "overlap_box", "lower: tumble.Vec3, upper: tumble.Vec3", "tumble.Body[]", "list of Bodies whose bounds overlap the box" },
		{ "contacts", "", "tumble.Contact[]", "list of `{ a =, b =, point =, normal =, impulse =, separation = }`, one per contact point of the last step (normal from `a` to `b`; impulse: the normal impulse of the whole step, all sub-steps, N s)" },
		{ "on", "event: tumble.Event, fn: fun(ev: tumble.EventData)", "fun(ev: tumble.EventData)", "register a handler, returns `fn`" },
		{ "off", "event: tumble.Event, fn?: fun(ev: tumble.EventData)", "", "remove one of the caller's handlers, or all of its handlers of the event (the scene's and each mod's are apart)" },
		{ "stats", "", "tumble.Stats", "`{ bodies, awake_bodies, shapes, contacts, pairs, joints, islands, tree_height, allocations, allocation_failures, steps, step_ms, max_penetration, time }`" },
		{ "solver_report", "", "tumble.SolverReport", "the last `\"global\"` step's system and convergence: `{ method, iterations, rows, contact_rows, joint_rows, direct_rows, trees, loops, residual, complementarity, residuals, complementarity_errors }`; `residuals[i]` is \\|A lambda - b\\| of the unclamped rows after sweep i and `complementarity_errors[i]` the clamped rows' error, m/s (docs/SOLVER.md); zeros until a global step" },
		{ "state_hash", "", "integer", "integer; equal hashes mean bit-identical states (determinism tests)" },
		{ "snapshot", "", "tumble.Snapshot", "a Snapshot of the whole world state (see Snapshots)" },
		{ "restore", "snapshot: tumble.Snapshot", "", "put the world back in the snapshot's state, clock included" },
		{ "destroy", "", "", "destroy now; every handle of it becomes invalid (a mod may destroy only the worlds it made)" },
		{ "is_valid", "", "boolean", "`false` after destroy" },
	},
	fields = {
		{ "gravity", "tumble.Vec3", "rw", "`{x, y, z}` table, m/s²" },
		{ "iterations", "integer", "rw", "integer in [1, 1000]" },
		{ "solver", "tumble.Solver", "rw", "`\"soft\"`, `\"split\"`, `\"baumgarte\"`, `\"global\"`" },
		{ "global_method", "tumble.GlobalMethod", "rw", "how the `\"global\"` solver iterates: `\"gauss_seidel\"` or `\"jacobi\"`" },
		{ "threads", "integer", "rw", "worker threads, integer in [1, 16]" },
		{ "sleep", "boolean", "rw", "bodies at rest fall asleep" },
		{ "time", "number", "r", "simulated seconds" },
		{ "step_count", "integer", "r", "steps taken" },
		{ "body_count", "integer", "r", "live bodies" },
		{ "locked", "boolean", "r", "`true` during a step" },
	},
}

class {
	name = "Body",
	kind = "userdata",
	doc = "A rigid body, made by a `world:add_*{...}` constructor. One handle per body: handles compare with `==`.",
	var = "b",
	methods = {
		{ "position", "", "x: number, y: number, z: number", "`x, y, z` of the body origin" },
		{ "rotation", "", "w: number, x: number, y: number, z: number", "`w, x, y, z`" },
		{ "velocity", "", "x: number, y: number, z: number", "`x, y, z` of the centre of mass, m/s" },
		{ "angular_velocity", "", "x: number, y: number, z: number", "`x, y, z`, rad/s" },
		{ "set_position", "x: number, y: number, z: number", "", "teleport (wakes the body)", overloads = { "p: tumble.Vec3" } },
		{ "set_rotation", "w: number, x: number, y: number, z: number", "", "set the orientation (normalised)", overloads = { "q: tumble.Quat" } },
		{ "set_velocity", "x: number, y: number, z: number", "", "m/s", overloads = { "v: tumble.Vec3" } },
		{ "set_angular_velocity", "x: number, y: number, z: number", "", "rad/s", overloads = { "w: tumble.Vec3" } },
		{ "apply_impulse", "impulse: tumble.Vec3, point?: tumble.Vec3", "", "N s at a world point (default the centre of mass)" },
		{ "apply_angular_impulse", "impulse: tumble.Vec3", "", "N m s" },
		{ "apply_force", "force: tumble.Vec3, point?: tumble.Vec3", "", "N, over the next step" },
		{ "apply_torque", "torque: tumble.Vec3", "", "N m, over the next step" },
		{ "mass", "", "number", "kg" },
		{ "set_mass", "kg: number", "", "scale the shapes' densities to this mass" },
		{ "inertia", "", "ixx: number, iyy: number, izz: number", "`Ixx, Iyy, Izz` about the centre of mass, body axes, kg m²" },
		{ "center_of_mass", "", "x: number, y: number, z: number", "world `x, y, z`" },
		{ "point_velocity", "p: tumble.Vec3", "x: number, y: number, z: number", "velocity of a world point moving with the body" },
		{ "to_world", "x: number, y: number, z: number", "x: number, y: number, z: number", "a body point in world coordinates", overloads = { "p: tumble.Vec3" } },
		{ "to_local", "x: number, y: number, z: number", "x: number, y: number, z: number", "a world point in body coordinates", overloads = { "p: tumble.Vec3" } },
		{ "aabb", "", "minx: number, miny: number, minz: number, maxx: number, maxy: number, maxz: number", "`minx, miny, minz, maxx, maxy, maxz`" },
		{ "set_damping", "linear: number, angular?: number", "", "1/s" },
		{ "destroy", "", "", "remove from the world (shapes included)" },
		{ "is_valid", "", "boolean", "`false` once destroyed (never raises)" },
	},
	fields = {
		{ "friction", "number", "rw", "of all its shapes (read: the first shape's)" },
		{ "restitution", "number", "rw", "of all its shapes (read: the first shape's)" },
		{ "name", "string?", "rw", "string or `nil`" },
		{ "type", "tumble.BodyType", "rw", "`\"static\"`, `\"kinematic\"`, `\"dynamic\"`" },
		{ "sleeping", "boolean", "rw", "asleep (setting it puts to sleep or wakes)" },
		{ "awake", "boolean", "rw", "the opposite of `sleeping`" },
		{ "gravity_scale", "number", "rw", "multiplies the world's gravity" },
		{ "ccd", "boolean", "rw", "continuous collision" },
		{ "layer", "integer", "rw", "collision category bits of all its shapes (read: the first shape's); contacts are re-paired next step" },
		{ "mask", "integer", "rw", "the category bits its shapes collide with (as `layer`)" },
		{ "group", "integer", "rw", "collision group of all its shapes: same positive always collides, same negative never" },
		{ "sensor", "boolean", "rw", "all its shapes report events only, no collision response" },
		{ "fixed_rotation", "boolean", "rw", "never rotates (setting it stops its spin)" },
		{ "one_way", "tumble.Vec3?", "rw", "a one-way body (platform) blocks only bodies arriving from the side this normal points to (see One-way bodies); `nil` or `false`: solid" },
		{ "world", "tumble.World", "r", "its World" },
		{ "id", "integer", "r", "unique among live bodies of a world" },
		{ "shape_count", "integer", "r", "number of shapes" },
	},
}

local all = "all"
class {
	name = "Joint",
	kind = "userdata",
	doc = "A joint between bodies `a` and `b` (nil = the static world), made by a World constructor. A field that the joint's type does not have raises `Joint.limits: not available on a ball joint`.",
	var = "j",
	methods = {
		{ "error", "", "pos_error: number, angle_error: number", "`pos_error, angle_error`: current violation in m and rad (anchor gap, limit excess, axis tilt)" },
		{ "is_broken", "", "boolean", "`true` after it broke" },
		{ "anchors", "", "ax: number, ay: number, az: number, bx: number, by: number, bz: number", "`ax, ay, az, bx, by, bz`: world positions of the anchor carried by each body" },
		{ "axes_world", "", "ax: number, ay: number, az: number, bx: number, by: number, bz: number", "`ax, ay, az, bx, by, bz`: the joint axis carried by each body, in the world" },
		{ "force", "", "x: number, y: number, z: number", "`x, y, z`: the force the joint applied to body `b` in the last step (N)" },
		{ "torque", "", "x: number, y: number, z: number", "`x, y, z`: the torque the joint applied to body `b` in the last step (N m)" },
		{ "axis_position", "axis: tumble.Axis", "number", "6-DOF: position on `\"x\"` ... `\"rz\"` (m or rad)" },
		{ "set_axis_motor", "axis: tumble.Axis, speed: number, max_force: number", "", "6-DOF: drive an axis (m/s or rad/s; N or N m); `(axis, false)` stops driving it", overloads = { "axis: tumble.Axis, off: false" } },
		{ "row_impulse", "i: integer", "number", "custom: impulse of row `i` (1-based) in the last step, N s" },
		{ "destroy", "", "", "remove it (destroying a body removes its joints)" },
		{ "is_valid", "", "boolean", "`false` once destroyed (never raises)" },
	},
	fields = {
		{ "name", "string?", "rw", "string or nil", joints = all },
		{ "type", "tumble.JointType", "r", "`\"distance\"`, `\"ball\"`, `\"hinge\"`, `\"cone\"`, `\"fixed\"`, `\"slider\"`, `\"six_dof\"`, `\"motor\"`, `\"mouse\"`, `\"custom\"`, `\"wheel\"`", joints = all },
		{ "a", "tumble.Body?", "r", "body a (nil = the static world)", joints = all },
		{ "b", "tumble.Body?", "r", "body b (nil = the static world)", joints = all },
		{ "world", "tumble.World", "r", "its World", joints = all },
		{ "id", "integer", "r", "integer id", joints = all },
		{ "enabled", "boolean", "rw", "`false` disables it; `true` also repairs a broken joint", joints = all },
		{ "broken", "boolean", "r", "it broke (see `break_force`)", joints = all },
		{ "break_force", "number", "rw", "N; `math.huge` = unbreakable", joints = all },
		{ "break_torque", "number", "rw", "N m; `math.huge` = unbreakable", joints = all },
		{ "collide", "boolean", "rw", "the two bodies collide", joints = all },
		{ "limits", "tumble.Range?", "rw", "`{lo, hi}` (m or rad) or `nil` (no limit)", joints = "distance, hinge, slider, wheel" },
		{ "motor_speed", "number", "rw", "rad/s or m/s; setting it turns the motor on (and a hinge's servo off)", joints = "hinge, slider, motor, wheel" },
		{ "motor_enabled", "boolean", "rw", "the motor drives", joints = "hinge, slider, wheel" },
		{ "max_torque", "number", "rw", "N m (the hinge's motor and servo share it)", joints = "hinge, motor, wheel" },
		{ "max_force", "number", "rw", "N", joints = "slider, mouse" },
		{ "motor_torque", "number", "r", "what the motor applied in the last step", joints = "hinge, slider, motor, wheel" },
		{ "motor_force", "number", "r", "what the motor applied in the last step", joints = "hinge, slider, motor" },
		{ "servo_angle", "number", "rw", "rad; setting it turns the servo on (and the motor off)", joints = "hinge" },
		{ "servo_enabled", "boolean", "rw", "the servo drives", joints = "hinge" },
		{ "servo_gain", "number", "rw", "1/s: servo speed = gain * angle error, capped", joints = "hinge" },
		{ "servo_max_speed", "number", "rw", "rad/s: the servo's speed cap", joints = "hinge" },
		{ "angle", "number", "r", "rad", joints = "hinge" },
		{ "speed", "number", "r", "rad/s (m/s; a wheel's: along its suspension)", joints = "hinge, slider, wheel" },
		{ "translation", "number", "r", "m (a wheel's: along its suspension, 0 at rest, negative compressed)", joints = "slider, wheel" },
		{ "spin_speed", "number", "r", "rad/s of b about the axle, relative to a", joints = "wheel" },
		{ "spring_force", "number", "r", "N along the suspension on b in the last step (negative: pushing b down)", joints = "wheel" },
		{ "length", "number", "rw", "rest length, m", joints = "distance" },
		{ "current_length", "number", "r", "m", joints = "distance" },
		{ "spring", "tumble.Spring?", "rw", "`{ hz =, damping = }` or `{ stiffness =, damper = }` (N/m, N s/m), or `nil` (rigid; a wheel: sliding free)", joints = "distance, wheel" },
		{ "swing", "number?", "rw", "cone angle, rad; `nil` removes the limit", joints = "cone" },
		{ "pyramid", "number[]?", "rw", "`{y, z}`, rad; `nil` removes the limit", joints = "cone" },
		{ "twist", "tumble.Range?", "rw", "`{lo, hi}`, rad; `nil` removes the limit", joints = "cone" },
		{ "swing_angle", "number", "r", "rad", joints = "cone" },
		{ "twist_angle", "number", "r", "rad", joints = "cone" },
		{ "axes", "table<tumble.Axis, tumble.AxisLimit>", "rw", "`{ x = \"free\" \\| \"fixed\" \\| {lo, hi}, ... }`; setting changes only the axes named", joints = "six_dof" },
		{ "target", "tumble.Vec3", "rw", "`{x, y, z}`, m", joints = "mouse" },
		{ "hz", "number", "rw", "Hz", joints = "mouse" },
		{ "damping", "number", "rw", "damping ratio", joints = "mouse" },
		{ "rows", "fun(c: tumble.ConstraintState, dt: number): tumble.ConstraintRow[]?", "rw", "the rows function", joints = "custom" },
		{ "row_count", "integer", "r", "rows used in the last step", joints = "custom" },
	},
}

class {
	name = "Mover",
	kind = "userdata",
	doc = "Drives a kinematic body by setting its velocity every step, made by `world:mover{...}`.",
	var = "m",
	methods = {
		{ "follow", "def: tumble.PathDef", "", "a new path", table = true },
		{ "set_velocity", "v: tumble.Vec3, w?: tumble.Vec3", "", "constant velocity (m/s) and angular velocity (rad/s) from now on" },
		{ "move_to", "def: tumble.TargetDef", "", "go to a pose", table = true },
		{ "stop", "", "", "zero velocity" },
		{ "destroy", "", "", "remove the mover (the body stays)" },
		{ "is_valid", "", "boolean", "`false` once destroyed (never raises)" },
	},
	fields = {
		{ "body", "tumble.Body", "r", "its Body" },
		{ "mode", "tumble.MoverMode", "r", "`\"idle\"`, `\"velocity\"`, `\"path\"`, `\"target\"`" },
		{ "speed", "number", "rw", "read: current speed (m/s); write: the path's cruise speed" },
		{ "paused", "boolean", "rw", "a paused path mover slows down and waits" },
		{ "finished", "boolean", "r", "a `\"once\"` path or a target was reached" },
		{ "distance", "number", "r", "m along the path" },
		{ "length", "number", "r", "m of one pass" },
		{ "laps", "integer", "r", "ends reached" },
	},
}

class {
	name = "Character",
	kind = "userdata",
	doc = "A character controller made by `world:character{...}`: an upright capsule moved by `ch:move` before each step (see Characters).",
	var = "ch",
	methods = {
		{ "move", "velocity: tumble.Vec3, dt: number", "", "walk at this horizontal velocity (m/s, z ignored) for `dt` s: call once before each step (in `update`)" },
		{ "jump", "", "", "jump at the next `move` if on the ground then" },
		{ "position", "", "x: number, y: number, z: number", "`x, y, z` of its feet (the capsule's bottom)" },
		{ "velocity", "", "x: number, y: number, z: number", "`x, y, z`, m/s: its own motion over the last move plus the ground's it rides on" },
		{ "destroy", "", "", "remove it and its body" },
		{ "is_valid", "", "boolean", "`false` once destroyed (never raises)" },
	},
	fields = {
		{ "on_ground", "boolean", "r", "standing on walkable ground" },
		{ "ground_normal", "tumble.Vec3?", "r", "of the ground it stands on, or `nil` in the air" },
		{ "ground_body", "tumble.Body?", "r", "the Body it stands on, or `nil`" },
		{ "body", "tumble.Body", "r", "its kinematic capsule Body (what other bodies, rays and casts meet)" },
		{ "crouched", "boolean", "rw", "crouching (shorter); setting `false` stands up only when there is room" },
		{ "height", "number", "r", "current height, m" },
		{ "pushed", "integer", "r", "dynamic bodies it pushed in the last move" },
		{ "step_height", "number", "rw", "highest step it climbs, m" },
		{ "max_slope", "number", "rw", "steepest walkable slope, rad" },
		{ "jump_speed", "number", "rw", "m/s" },
		{ "push_force", "number", "rw", "most force it pushes dynamic bodies with, N" },
	},
}

class {
	name = "Vehicle",
	kind = "userdata",
	doc = "A vehicle made by `world:vehicle{...}`: a dynamic chassis Body held up by ray-cast wheels with suspension, tyres, engine, brakes and steering (see Vehicles).",
	var = "car",
	methods = {
		{ "wheel", "i: integer", "tumble.WheelState", "what wheel `i` (1-based) did in the last step" },
		{ "wheel_pose", "i: integer", "x: number, y: number, z: number, qw: number, qx: number, qy: number, qz: number", "the wheel's centre and rotation (steering and spin included), for drawing it" },
		{ "wheel_settings", "i: integer", "tumble.WheelDef", "the wheel's settings, as `world:vehicle{...}` takes them" },
		{ "set_wheel", "i: integer, def: tumble.WheelDef", "", "change some of wheel `i`'s settings (the fields given) while running" },
		{ "speed", "", "number", "the chassis's speed along its forward axis, m/s (negative backwards)" },
		{ "destroy", "", "", "remove the vehicle (its chassis Body stays)" },
		{ "is_valid", "", "boolean", "`false` once destroyed (never raises)" },
	},
	fields = {
		{ "chassis", "tumble.Body?", "r", "the chassis Body (`nil` once destroyed: the vehicle then does nothing)" },
		{ "wheel_count", "integer", "r", "number of wheels" },
		{ "throttle", "number", "rw", "engine input in [-1, 1] (negative: backwards)" },
		{ "steer", "number", "rw", "in [-1, 1]: each wheel turns by its `steer` angle times this (positive: left, with x forward and z up)" },
		{ "brake", "number", "rw", "in [0, 1], of each wheel's `brake_torque`" },
		{ "handbrake", "number", "rw", "in [0, 1], of each wheel's `handbrake_torque`" },
	},
}

class {
	name = "Snapshot",
	kind = "userdata",
	doc = "A copy of a world's whole state, made by `world:snapshot()`, for `world:restore(s)`.",
	var = "s",
	methods = {},
	fields = {
		{ "time", "number", "r", "the world's clock when it was taken, s" },
		{ "step_count", "integer", "r", "the world's steps when it was taken" },
		{ "bytes", "integer", "r", "memory it holds (counted as Lua memory)" },
	},
}

-- Tables going in (constructor fields) and coming out.

local bodyFields = {
	{ "name", "string", "r", "up to 31 bytes (UTF-8: 1 to 4 per character); `world:body(name)` finds it, reports list it" },
	{ "pos", "tumble.Vec3", "r", "position of the body origin, m (default `{0, 0, 0}`)" },
	{ "rot", "tumble.Quat", "r", "quaternion `{w, x, y, z}` (default `{1, 0, 0, 0}`)" },
	{ "vel", "tumble.Vec3", "r", "m/s (world frame)" },
	{ "angvel", "tumble.Vec3", "r", "rad/s (world frame)" },
	{ "static", "boolean", "r", "a static body" },
	{ "kinematic", "boolean", "r", "a kinematic body" },
	{ "type", "tumble.BodyType", "r", "the body type (default dynamic)" },
	{ "mass", "number", "r", "kg (dynamic bodies); scales the shapes' densities" },
	{ "density", "number", "r", "kg/m³ (default 1000; give `mass` or `density`, not both)" },
	{ "friction", "number", "r", "Coulomb coefficient (default 0.5)" },
	{ "restitution", "number", "r", "bounciness (default 0)" },
	{ "ccd", "boolean", "r", "continuous collision against everything (fast bullets)" },
	{ "sensor", "boolean", "r", "events only, no collision response" },
	{ "layer", "integer", "r", "collision category bits (default 1)" },
	{ "mask", "integer", "r", "the category bits it collides with (default all)" },
	{ "group", "integer", "r", "same positive group always collides, same negative never" },
	{ "linear_damping", "number", "r", "1/s" },
	{ "angular_damping", "number", "r", "1/s" },
	{ "gravity_scale", "number", "r", "default 1" },
	{ "fixed_rotation", "boolean", "r", "never rotates" },
	{ "one_way", "tumble.Vec3", "r", "a one-way body: blocks only from the side this normal points to (world frame)" },
	{ "can_sleep", "boolean", "r", "default `true`" },
	{ "awake", "boolean", "r", "default `true`" },
}

local jointFields = {
	{ "a", "tumble.Body", "r", "body a; nil = the static world" },
	{ "b", "tumble.Body", "r", "body b; nil = the static world" },
	{ "name", "string", "r", "up to 31 bytes (UTF-8: 1 to 4 per character); `world:joint(name)` finds it" },
	{ "collide", "boolean", "r", "let the two bodies collide with each other (default `false`)" },
	{ "break_force", "number", "r", "N: the joint breaks when its force exceeds this (default `math.huge`)" },
	{ "break_torque", "number", "r", "N m: the same for its torque" },
	{ "enabled", "boolean", "r", "a disabled joint does nothing (default `true`)" },
}
local anchor = { "anchor", "tumble.Vec3", "r", "the joint point, world coordinates at creation (default b's origin, or a's)" }
local axis = { "axis", "tumble.Vec3", "r", "the joint axis, world coordinates at creation (default `{1, 0, 0}`)" }
local ref = { "ref", "tumble.Vec3", "r", "reference direction perpendicular to the axis: the zero angle" }

-- A def class: fields are all optional (required ones say so in their doc).
local function def( name, doc, parent, fields, extra )
	local c = class { name = name, kind = "record", doc = doc, parent = parent, fields = {}, optional = true }
	for _, list in ipairs { fields or {}, extra or {} } do
		for _, f in ipairs( list ) do
			table.insert( c.fields, f )
		end
	end
	return c
end

def( "tumble.WorldDef", "Fields of `tb.world{...}`.", nil, {
	{ "gravity", "tumble.Vec3", "r", "m/s² (default `{0, 0, -10}`)" },
	{ "iterations", "integer", "r", "velocity iterations per step (default 10)" },
	{ "sub_steps", "integer", "r", "soft solver: sub-steps per step (1 to 64, default 8)" },
	{ "position_iterations", "integer", "r", "split (and soft, for deep overlap): position passes (default 3)" },
	{ "solver", "tumble.Solver", "r", "default `\"soft\"`" },
	{ "baumgarte", "number", "r", "Baumgarte factor in [0, 1] (default 0.2; baumgarte and global solvers)" },
	{ "global_method", "tumble.GlobalMethod", "r", "global solver: projected Gauss-Seidel or Jacobi (default `\"gauss_seidel\"`)" },
	{ "global_relaxation", "number", "r", "global solver with Jacobi: relaxation in (0, 2) of its update (default 1.5; docs/SOLVER.md)" },
	{ "direct_solve", "boolean", "r", "global solver: joint trees' equality rows solved exactly (default `true`)" },
	{ "slop", "number", "r", "allowed penetration, m (default 0.002)" },
	{ "max_correction_speed", "number", "r", "m/s (default 3)" },
	{ "contact_hertz", "number", "r", "soft contact stiffness, Hz (default 100)" },
	{ "contact_damping", "number", "r", "soft contact damping ratio (default 1)" },
	{ "joint_hertz", "number", "r", "soft joint stiffness, Hz (default 120)" },
	{ "joint_damping", "number", "r", "soft joint damping ratio (default 5)" },
	{ "restitution_threshold", "number", "r", "m/s: slower impacts do not bounce (default 1)" },
	{ "friction_mix", "tumble.MixRule", "r", "default `\"geometric_mean\"`" },
	{ "restitution_mix", "tumble.MixRule", "r", "default `\"maximum\"`" },
	{ "sleep", "boolean", "r", "bodies at rest fall asleep (default `true`)" },
	{ "continuous", "boolean", "r", "continuous collision for fast bodies (default `true`)" },
	{ "warm_starting", "boolean", "r", "default `true`" },
	{ "contact_reuse", "boolean", "r", "keep a resting pair's contact points (default `true`)" },
	{ "threads", "integer", "r", "worker threads inside a step, 1 to 16 (default the program's `--threads`)" },
	{ "max_linear_speed", "number", "r", "m/s, at most 100000 (default 400)" },
} )
def( "tumble.BodyDef", "Fields every body constructor accepts.", nil, bodyFields )
def( "tumble.BoxDef", "Fields of `world:add_box{...}`.", "tumble.BodyDef", {
	{ "size", "tumble.Vec3", "r", "`{sx, sy, sz}` full edge lengths, m (default 1 m cube)" },
} )
def( "tumble.SphereDef", "Fields of `world:add_sphere{...}`.", "tumble.BodyDef", {
	{ "radius", "number", "r", "m (default 0.5)" },
} )
def( "tumble.CapsuleDef", "Fields of `world:add_capsule{...}`.", "tumble.BodyDef", {
	{ "radius", "number", "r", "m (default 0.25)" },
	{ "half_length", "number", "r", "half the segment along the body's z axis, m (default 0.5)" },
} )
def( "tumble.HullDef", "Fields of `world:add_hull{...}`.", "tumble.BodyDef", {
	{ "points", "tumble.Vec3[]", "r", "4 to 1024 points spanning a volume (required)" },
} )
def( "tumble.CylinderDef", "Fields of `world:add_cylinder{...}`.", "tumble.BodyDef", {
	{ "radius", "number", "r", "m (default 0.5)" },
	{ "half_height", "number", "r", "half the length along the body's z axis, m (default 0.5)" },
} )
def( "tumble.CompoundDef", "Fields of `world:add_compound{...}`.", "tumble.BodyDef", {
	{ "shapes", "tumble.CompoundShape[]", "r", "the shapes, placed in the body frame (required)" },
} )
def( "tumble.CompoundShape", "One shape of `add_compound`'s `shapes`.", nil, {
	{ "type", '"box"|"sphere"|"capsule"|"hull"|"cylinder"', "r", "the shape type (required)" },
	{ "size", "tumble.Vec3", "r", "box: full edge lengths, m" },
	{ "radius", "number", "r", "sphere, capsule, cylinder: m" },
	{ "half_length", "number", "r", "capsule: m" },
	{ "half_height", "number", "r", "cylinder: m" },
	{ "points", "tumble.Vec3[]", "r", "hull: points" },
	{ "pos", "tumble.Vec3", "r", "position in the body frame" },
	{ "rot", "tumble.Quat", "r", "rotation in the body frame" },
	{ "density", "number", "r", "kg/m³" },
	{ "friction", "number", "r", "Coulomb coefficient" },
	{ "restitution", "number", "r", "bounciness" },
} )
def( "tumble.MeshDef", "Fields of `world:add_mesh{...}`.", nil, {
	{ "vertices", "tumble.Vec3[]", "r", "points in the body frame (required)" },
	{ "triangles", "integer[][]|integer[]", "r", "`{i, j, k}` 1-based vertex indices, or one flat list (required)" },
	{ "pos", "tumble.Vec3", "r", "position, m" },
	{ "rot", "tumble.Quat", "r", "rotation" },
	{ "name", "string", "r", "up to 31 bytes (UTF-8: 1 to 4 per character)" },
	{ "static", "true", "r", "meshes are static" },
	{ "friction", "number", "r", "the mesh's material" },
	{ "restitution", "number", "r", "the mesh's material" },
	{ "layer", "integer", "r", "collision category bits" },
	{ "mask", "integer", "r", "the category bits it collides with" },
	{ "group", "integer", "r", "collision group" },
	{ "sensor", "boolean", "r", "events only" },
} )
def( "tumble.HeightfieldDef", "Fields of `world:add_heightfield{...}`.", nil, {
	{ "heights", "number[]|number[][]", "r", "m: rows `{{h, ...}, ...}` (`heights[j][i]` at x = (i-1) sx, y = (j-1) sy), or one flat list, x fastest (required)" },
	{ "count_x", "integer", "r", "points along x, 2 to 4096 (required with a flat list)" },
	{ "count_y", "integer", "r", "points along y, 2 to 4096 (default: from the list)" },
	{ "cell_size", "number|number[]", "r", "m: `s` or `{sx, sy}`, each in [0.001, 10000] (default 1)" },
	{ "holes", "integer[][]", "r", "cells `{i, j}` (1-based, cell i spans points i and i+1) with no surface" },
	{ "pos", "tumble.Vec3", "r", "position of grid point (1, 1), m" },
	{ "rot", "tumble.Quat", "r", "rotation" },
	{ "name", "string", "r", "up to 31 bytes (UTF-8: 1 to 4 per character)" },
	{ "static", "true", "r", "heightfields are static" },
	{ "friction", "number", "r", "the terrain's material" },
	{ "restitution", "number", "r", "the terrain's material" },
	{ "layer", "integer", "r", "collision category bits" },
	{ "mask", "integer", "r", "the category bits it collides with" },
	{ "group", "integer", "r", "collision group" },
	{ "sensor", "boolean", "r", "events only" },
} )
def( "tumble.JointDef", "Fields every joint constructor accepts.", nil, jointFields )
def( "tumble.DistanceDef", "Fields of `world:distance{...}`.", "tumble.JointDef", {
	{ "anchor_a", "tumble.Vec3", "r", "world point on a (default its origin; required when a is nil)" },
	{ "anchor_b", "tumble.Vec3", "r", "world point on b (default its origin; required when b is nil)" },
	{ "length", "number", "r", "m (default the current distance)" },
	{ "min", "number", "r", "m: a rope, slack in between" },
	{ "max", "number", "r", "m" },
	{ "spring", "tumble.Spring", "r", "`{ hz, damping }` or `{ stiffness, damper }`: soft (see Springs)" },
} )
def( "tumble.BallDef", "Fields of `world:ball{...}`.", "tumble.JointDef", { anchor } )
def( "tumble.HingeDef", "Fields of `world:hinge{...}`.", "tumble.JointDef", { anchor, axis, ref,
	{ "limits", "tumble.Range", "r", "`{lo, hi}`, rad in [-pi, pi]" },
	{ "motor", "tumble.MotorSettings", "r", "`{ speed, max_torque }` (rad/s, N m)" },
	{ "servo", "tumble.Servo", "r", "`{ angle, max_torque, gain, max_speed }` (rad, N m, 1/s, rad/s)" },
} )
def( "tumble.ConeDef", "Fields of `world:cone{...}`.", "tumble.JointDef", { anchor, axis, ref,
	{ "axis_b", "tumble.Vec3", "r", "b's twist axis at rest when it differs" },
	{ "swing", "number", "r", "cone limit, rad in (0, pi]" },
	{ "pyramid", "number[]", "r", "`{y, z}`, rad" },
	{ "twist", "tumble.Range|false", "r", "`{lo, hi}` rad (default `{0, 0}`), or `false`: free twist" },
} )
def( "tumble.FixedDef", "Fields of `world:fixed{...}`.", "tumble.JointDef", { anchor } )
def( "tumble.SliderDef", "Fields of `world:slider{...}`.", "tumble.JointDef", { anchor, axis, ref,
	{ "limits", "tumble.Range", "r", "`{lo, hi}`, m" },
	{ "motor", "tumble.MotorSettings", "r", "`{ speed, max_force }` (m/s, N)" },
} )
def( "tumble.WheelJointDef", "Fields of `world:wheel{...}`: `b` is the wheel, `a` the chassis.", "tumble.JointDef", { anchor,
	{ "axis", "tumble.Vec3", "r", "the axle, world (default `{1, 0, 0}`)" },
	{ "suspension", "tumble.Vec3", "r", "the direction the wheel travels along, world, not along the axle (default `{0, 0, 1}`)" },
	{ "spring", "tumble.Spring|false", "r", "`{ stiffness, damper }` (N/m, N s/m) or `{ hz, damping }` (default `{ hz = 4, damping = 0.7 }`); `false`: none" },
	{ "limits", "tumble.Range", "r", "`{lo, hi}`, m of travel along `suspension`" },
	{ "motor", "tumble.MotorSettings", "r", "`{ speed, max_torque }` (rad/s about the axle, N m)" },
} )
def( "tumble.SixDofDef", "Fields of `world:six_dof{...}`.", "tumble.JointDef", { anchor, axis, ref,
	{ "axes", "table<tumble.Axis, tumble.AxisLimit>", "r", "each axis `\"free\"`, `\"fixed\"` (default) or `{lo, hi}`" },
	{ "motors", "table<tumble.Axis, tumble.MotorSettings>", "r", "`{ rz = { speed, max_force }, ... }`" },
} )
def( "tumble.MotorDef", "Fields of `world:motor{...}`.", "tumble.JointDef", { anchor, axis, ref,
	{ "speed", "number", "r", "rad/s" },
	{ "max_torque", "number", "r", "N m (default unlimited)" },
} )
def( "tumble.MouseDef", "Fields of `world:mouse{...}`.", "tumble.JointDef", {
	{ "body", "tumble.Body", "r", "the dragged body (required)" },
	{ "anchor", "tumble.Vec3", "r", "world point on it (default its origin)" },
	{ "target", "tumble.Vec3", "r", "default the anchor" },
	{ "hz", "number", "r", "default 5" },
	{ "damping", "number", "r", "default 0.7" },
	{ "max_force", "number", "r", "N (default 1000)" },
} )
def( "tumble.ConstraintDef", "Fields of `world:constraint{...}`.", "tumble.JointDef", { anchor, axis, ref,
	{ "rows", "fun(c: tumble.ConstraintState, dt: number): tumble.ConstraintRow[]?", "r", "the rows function" },
	{ "every_substep", "boolean", "r", "call rows before every sub-step (default `false`)" },
} )
local pathFields = {
	{ "path", "tumble.Vec3[]", "r", "2 or more points" },
	{ "speed", "number", "r", "m/s (default 1)" },
	{ "mode", "tumble.PathMode", "r", "default `\"once\"`" },
	{ "wait", "number|number[]", "r", "s at every point, or one value per point" },
	{ "smooth", "boolean", "r", "a Catmull-Rom spline through the points" },
	{ "acceleration", "number", "r", "m/s² for starts and stops (default instant)" },
}
def( "tumble.PathDef", "Fields of `m:follow{...}`.", nil, pathFields )
def( "tumble.TargetDef", "Fields of `m:move_to{...}` and a mover's `target`.", nil, {
	{ "pos", "tumble.Vec3", "r", "target position, m" },
	{ "rot", "tumble.Quat", "r", "target rotation" },
	{ "time", "number", "r", "s to get there" },
} )
def( "tumble.MoverDef", "Fields of `world:mover{...}`: `body` and one command.", nil, {
	{ "body", "tumble.Body", "r", "a kinematic body (required)" },
	{ "paused", "boolean", "r", "start paused" },
	{ "velocity", "tumble.Vec3", "r", "m/s" },
	{ "angular_velocity", "tumble.Vec3", "r", "rad/s" },
	{ "target", "tumble.TargetDef", "r", "go to a pose" },
}, pathFields )
def( "tumble.Spring", "A soft distance: a frequency and damping ratio, or a stiffness and damper.", nil, {
	{ "hz", "number", "r", "Hz, of the joint's effective mass along its axis (a body hung from the world at its centre of mass: its mass; two such bodies: m1 m2 / (m1 + m2))" },
	{ "damping", "number", "r", "damping ratio (with `hz`)" },
	{ "stiffness", "number", "r", "N/m (instead of `hz`)" },
	{ "damper", "number", "r", "N s/m (with `stiffness`)" },
} )
def( "tumble.MotorSettings", "A motor: target speed and the most it may apply.", nil, {
	{ "speed", "number", "r", "rad/s or m/s" },
	{ "max_torque", "number", "r", "N m" },
	{ "max_force", "number", "r", "N" },
} )
def( "tumble.Servo", "A hinge servo.", nil, {
	{ "angle", "number", "r", "rad" },
	{ "max_torque", "number", "r", "N m" },
	{ "gain", "number", "r", "1/s" },
	{ "max_speed", "number", "r", "rad/s" },
} )
def( "tumble.ConstraintRow", "A row returned by a custom constraint's rows function.", nil, {
	{ "J", "number[]", "r", "12 numbers: the Jacobian over (v_a, w_a, v_b, w_b), world frame" },
	{ "bias", "number", "r", "target of J v (default 0)" },
	{ "error", "number", "r", "position error C (m or rad, default 0)" },
	{ "min", "number", "r", "impulse lower bound, N s (default `-math.huge`)" },
	{ "max", "number", "r", "impulse upper bound, N s (default `math.huge`)" },
} )

def( "tumble.CastDef", "Fields of `world:cast{...}`: `shape` or `body`, and `to`.", nil, {
	{ "shape", '"sphere"|"capsule"|"box"', "r", "the shape cast (or give `body`)" },
	{ "body", "tumble.Body", "r", "cast this body's shapes from its pose; its own shapes are not hit" },
	{ "radius", "number", "r", "sphere (default 0.5), capsule (default 0.25), m" },
	{ "half_length", "number", "r", "capsule: half its segment, along its z axis (default 0.5), m" },
	{ "size", "tumble.Vec3", "r", "box: full edge lengths (default 1 m cube)" },
	{ "from", "tumble.Vec3", "r", "where the shape's centre starts (required with `shape`)" },
	{ "rot", "tumble.Quat", "r", "the shape's rotation, kept along the cast (default `{1, 0, 0, 0}`)" },
	{ "to", "tumble.Vec3", "r", "where the centre (a body: its origin) would end (required)" },
	{ "mask", "integer", "r", "the layer bits it hits (default all)" },
	{ "layer", "integer", "r", "its own layer bits, tested against each shape's mask (default all)" },
	{ "all", "boolean", "r", "return every hit in a list instead of the first (default `false`)" },
} )

def( "tumble.ExplosionDef", "Fields of `world:explode{...}`.", nil, {
	{ "center", "tumble.Vec3", "r", "where it goes off (required)" },
	{ "impulse", "number", "r", "N s given to each dynamic body in reach (required)" },
	{ "radius", "number", "r", "bodies whose surface is this close get the whole impulse, m (default 1)" },
	{ "falloff", "number", "r", "beyond `radius` the impulse falls linearly to 0 over this distance, m (default 0)" },
	{ "mask", "integer", "r", "only bodies on these layers (default all)" },
} )

def( "tumble.CharacterDef", "Fields of `world:character{...}`.", nil, {
	{ "pos", "tumble.Vec3", "r", "its feet, m (default `{0, 0, 0}`)" },
	{ "radius", "number", "r", "m (default 0.3)" },
	{ "height", "number", "r", "standing height, feet to top, m (default 1.8)" },
	{ "crouch_height", "number", "r", "crouching height, m (default 1.0)" },
	{ "step_height", "number", "r", "highest step it climbs and snaps down, m (default 0.3)" },
	{ "max_slope", "number", "r", "steepest walkable slope, rad (default pi/4)" },
	{ "jump_speed", "number", "r", "m/s (default 5)" },
	{ "push_force", "number", "r", "most force it pushes dynamic bodies with, N (default 500)" },
	{ "mass", "number", "r", "kg, for being pushed: bodies running into it give it their impulse over this (default 70; 0: never pushed)" },
	{ "layer", "integer", "r", "its body's layer bits (default 1)" },
	{ "mask", "integer", "r", "the layers it walks into (default all)" },
	{ "name", "string", "r", "its body's name" },
} )

def( "tumble.VehicleDef", "Fields of `world:vehicle{...}`.", nil, {
	{ "chassis", "tumble.Body", "r", "a dynamic Body of this world that carries no other vehicle (required)" },
	{ "wheels", "tumble.WheelDef[]", "r", "1 to 8 wheels (required)" },
	{ "forward", "tumble.Vec3", "r", "the chassis's forward axis, in its frame (default `{1, 0, 0}`)" },
	{ "up", "tumble.Vec3", "r", "its up axis, perpendicular to `forward` (default `{0, 0, 1}`)" },
	{ "engine_torque", "number", "r", "at full throttle, shared by the driven wheels, N m (default 1000)" },
	{ "max_speed", "number", "r", "the engine's torque falls to 0 at this rim speed, m/s (default 40)" },
	{ "anti_roll", "number[][]", "r", "up to 4 bars `{left wheel, right wheel, stiffness N/m}` (wheels 1-based)" },
	{ "mask", "integer", "r", "the layers the wheels stand on (default all)" },
	{ "layer", "integer", "r", "the wheel rays' own layer bits, tested against each shape's mask (default all)" },
} )

def( "tumble.WheelDef", "One wheel of `world:vehicle{...}` (and `car:set_wheel`). The suspension runs from `pos` along `direction`; the wheel centre is its length away.", nil, {
	{ "pos", "tumble.Vec3", "r", "suspension attachment point, chassis frame, m (default `{0, 0, 0}`)" },
	{ "direction", "tumble.Vec3", "r", "suspension direction, towards the ground, chassis frame (default `{0, 0, -1}`)" },
	{ "radius", "number", "r", "m (default 0.35)" },
	{ "width", "number", "r", "m, for drawing (default 0.2)" },
	{ "min_length", "number", "r", "shortest suspension (bump stop), m (default 0.05)" },
	{ "max_length", "number", "r", "longest suspension (hanging), m (default 0.35)" },
	{ "rest_length", "number", "r", "the spring's unloaded length, in [min_length, max_length], m (default max_length)" },
	{ "stiffness", "number", "r", "spring, N/m (default 30000)" },
	{ "damping", "number", "r", "damper, N s/m (default 3000)" },
	{ "friction", "number", "r", "tyre friction coefficient along the rolling direction (default 1.2)" },
	{ "lateral_friction", "number", "r", "tyre friction coefficient across it (default 1.2)" },
	{ "inertia", "number", "r", "about the axle, kg m^2 (default 1)" },
	{ "steer", "number", "r", "steering angle at full steer, rad in [-pi/2, pi/2] (default 0)" },
	{ "brake_torque", "number", "r", "at full brake, N m (default 1500)" },
	{ "handbrake_torque", "number", "r", "at full handbrake, N m (default 0)" },
	{ "driven", "boolean", "r", "the engine drives it (default `false`)" },
} )

local function record( name, doc, fields )
	return class { name = name, kind = "record", doc = doc, fields = fields }
end
record( "tumble.ConstraintState", "The step-start state a custom constraint's rows function gets.", {
	{ "joint", "tumble.Joint", "r", "the joint" },
	{ "a", "tumble.Body?", "r", "body a or nil" },
	{ "b", "tumble.Body?", "r", "body b or nil" },
	{ "anchor_a", "tumble.Vec3", "r", "world joint point of a" },
	{ "anchor_b", "tumble.Vec3", "r", "world joint point of b" },
	{ "axis_a", "tumble.Vec3", "r", "world axis of a" },
	{ "axis_b", "tumble.Vec3", "r", "world axis of b" },
	{ "rot_a", "tumble.Quat", "r", "world frame of a" },
	{ "rot_b", "tumble.Quat", "r", "world frame of b" },
	{ "center_a", "tumble.Vec3", "r", "centre of mass of a" },
	{ "center_b", "tumble.Vec3", "r", "centre of mass of b" },
	{ "vel_a", "tumble.Vec3", "r", "m/s" },
	{ "vel_b", "tumble.Vec3", "r", "m/s" },
	{ "angvel_a", "tumble.Vec3", "r", "rad/s" },
	{ "angvel_b", "tumble.Vec3", "r", "rad/s" },
	{ "dt", "number", "r", "s" },
	{ "sub_dt", "number", "r", "s" },
	{ "sub_step", "integer", "r", "sub-step index" },
} )
record( "tumble.WheelState", "`car:wheel(i)`: what a wheel did in the last step.", {
	{ "in_contact", "boolean", "r", "its ray found ground" },
	{ "contact", "tumble.Vec3?", "r", "the ground point, m (`nil` in the air)" },
	{ "normal", "tumble.Vec3?", "r", "the ground's normal (`nil` in the air)" },
	{ "ground", "tumble.Body?", "r", "the Body under it (`nil` in the air)" },
	{ "length", "number", "r", "suspension length, m (below `min_length` only while the bump stop pushes back)" },
	{ "compression", "number", "r", "`rest_length - length`, m" },
	{ "force", "number", "r", "suspension force along the normal, N" },
	{ "spin", "number", "r", "rad/s about the axle, positive rolling forwards" },
	{ "angle", "number", "r", "spin angle, rad in [0, 2 pi)" },
	{ "steer", "number", "r", "steering angle, rad" },
	{ "longitudinal_force", "number", "r", "tyre force along the rolling direction, N" },
	{ "lateral_force", "number", "r", "tyre force across it, N" },
} )
record( "tumble.RayHit", "A hit of `world:raycast`, `world:raycast_all` or `world:cast`.", {
	{ "body", "tumble.Body", "r", "the Body hit" },
	{ "point", "tumble.Vec3", "r", "world point on the Body's surface, m" },
	{ "normal", "tumble.Vec3", "r", "surface normal, out of the Body (against the motion)" },
	{ "fraction", "number", "r", "of the way from `from` to `to` (0: it started touching)" },
} )
record( "tumble.Contact", "One contact point of `world:contacts()`.", {
	{ "a", "tumble.Body", "r", "first body" },
	{ "b", "tumble.Body", "r", "second body" },
	{ "point", "tumble.Vec3", "r", "world point, m" },
	{ "normal", "tumble.Vec3", "r", "from a to b" },
	{ "impulse", "number", "r", "N s" },
	{ "separation", "number", "r", "m (negative: overlap)" },
} )
record( "tumble.EventData", "What an event handler gets (`world:on`); the fields depend on the event.", {
	{ "a", "tumble.Body?", "r", "contact events: first body (nil if destroyed)" },
	{ "b", "tumble.Body?", "r", "contact events: second body" },
	{ "point", "tumble.Vec3?", "r", "contact_begin: world point" },
	{ "normal", "tumble.Vec3?", "r", "contact_begin: from a to b" },
	{ "speed", "number?", "r", "contact_begin: approach speed, m/s" },
	{ "sensor", "tumble.Body?", "r", "sensor events: the sensor" },
	{ "visitor", "tumble.Body?", "r", "sensor events: the body inside" },
	{ "joint", "tumble.Joint?", "r", "joint_break: the Joint" },
	{ "name", "string?", "r", "joint_break: its name" },
	{ "type", "tumble.JointType?", "r", "joint_break: its type" },
	{ "force", "number?", "r", "joint_break: N" },
	{ "torque", "number?", "r", "joint_break: N m" },
} )
record( "tumble.Stats", "`world:stats()`.", {
	{ "bodies", "integer", "r", "" },
	{ "awake_bodies", "integer", "r", "" },
	{ "shapes", "integer", "r", "" },
	{ "contacts", "integer", "r", "" },
	{ "pairs", "integer", "r", "" },
	{ "joints", "integer", "r", "" },
	{ "islands", "integer", "r", "" },
	{ "tree_height", "integer", "r", "" },
	{ "allocations", "integer", "r", "" },
	{ "allocation_failures", "integer", "r", "allocations refused in the last step (what they would have held was dropped; see docs/RELIABILITY.md)" },
	{ "steps", "integer", "r", "" },
	{ "step_ms", "number", "r", "" },
	{ "max_penetration", "number", "r", "m" },
	{ "time", "number", "r", "s" },
} )
record( "tumble.SolverReport", "`world:solver_report()`: the last `\"global\"` step (docs/SOLVER.md).", {
	{ "method", "tumble.GlobalMethod", "r", "the world's `global_method`" },
	{ "iterations", "integer", "r", "sweeps made" },
	{ "rows", "integer", "r", "rows in the system" },
	{ "contact_rows", "integer", "r", "contact normal and friction rows" },
	{ "joint_rows", "integer", "r", "joint rows" },
	{ "direct_rows", "integer", "r", "joint equality rows solved exactly (joint trees)" },
	{ "trees", "integer", "r", "joint trees solved directly" },
	{ "loops", "integer", "r", "joint groups with a loop (iterated instead)" },
	{ "residual", "number", "r", "\\|A lambda - b\\| of the unclamped rows after the last sweep, m/s" },
	{ "complementarity", "number", "r", "error of the clamped rows after the last sweep, m/s" },
	{ "residuals", "number[]", "r", "the residual after each sweep, m/s" },
	{ "complementarity_errors", "number[]", "r", "the complementarity error after each sweep, m/s" },
} )

return api
