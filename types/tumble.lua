---@meta tumble
-- Generated from bindings/api.lua by bindings/gen_api.lua: edit those, not this file.
-- Lua Language Server definitions of the module `tumble` (docs/LUA_API.md): add this folder to
-- the workspace.library setting (the repository's .luarc.json does) for completion and checks.

---`{x, y, z}`: a point or vector (m, m/s, N, ... as the field says)
---@alias tumble.Vec3 number[]

---`{w, x, y, z}`: a rotation quaternion, scalar first (normalised on input)
---@alias tumble.Quat number[]

---`{lo, hi}` with lo <= hi
---@alias tumble.Range number[]

---solver mode
---@alias tumble.Solver "soft"|"split"|"baumgarte"|"global"

---how the global solver iterates
---@alias tumble.GlobalMethod "gauss_seidel"|"jacobi"

---body type
---@alias tumble.BodyType "static"|"kinematic"|"dynamic"

---how two shapes' friction or restitution combine
---@alias tumble.MixRule "geometric_mean"|"average"|"minimum"|"maximum"|"multiply"

---world event name
---@alias tumble.Event "contact_begin"|"contact_end"|"sensor_begin"|"sensor_end"|"joint_break"

---joint type
---@alias tumble.JointType "distance"|"ball"|"hinge"|"cone"|"fixed"|"slider"|"six_dof"|"motor"|"mouse"|"custom"|"wheel"

---a six_dof axis
---@alias tumble.Axis "x"|"y"|"z"|"rx"|"ry"|"rz"

---a six_dof axis: `"free"`, `"fixed"` or `{lo, hi}` (m; rad in [-pi, pi])
---@alias tumble.AxisLimit "free"|"fixed"|number[]

---what a mover is doing
---@alias tumble.MoverMode "idle"|"velocity"|"path"|"target"

---a mouse button
---@alias tumble.MouseButton "left"|"middle"|"right"

---how a mover runs its path
---@alias tumble.PathMode "once"|"loop"|"pingpong"

---The physics module: `local tb = require "tumble"`.
---@class tumble
---@field version string (read only) `"0.1.0"`: the library version
---@field input tumble.Input (read only) keys and mouse (`tb.input.down(key)`)
---@field camera tumble.Camera (read only) the viewer's camera, driven from scripts
---@field draw tumble.Draw (read only) 3D debug drawing from scripts
---@field solvers tumble.Solver[] (read only) the accepted solver names
---@field body_types tumble.BodyType[] (read only) the accepted body types
---@field shape_types string[] (read only) the shape types, one `world:add_<type>{...}` each; `add_compound`'s `shapes` take all but `"mesh"` and `"heightfield"`
---@field mix_rules tumble.MixRule[] (read only) the accepted mix rules
---@field events tumble.Event[] (read only) the event names of `world:on`
---@field joint_types tumble.JointType[] (read only) the joint types
local tumble = {}

---a new World (see below)
---@param def? tumble.WorldDef
---@return tumble.World
function tumble.world(def) end

---`{w, x, y, z}` rotating by `angle` rad about `axis` (normalised)
---@param axis tumble.Vec3
---@param angle number
---@return tumble.Quat
function tumble.axis_angle(axis, angle) end

---`{w, x, y, z}` = a * b (rotate by b, then by a)
---@param a tumble.Quat
---@param b tumble.Quat
---@return tumble.Quat
function tumble.quat_multiply(a, b) end

---`x, y, z`: vector `v` rotated by `q`
---@param q tumble.Quat
---@param v tumble.Vec3
---@return number x
---@return number y
---@return number z
function tumble.rotate(q, v) end

---Keys and mouse, `tb.input`. Without a window (headless) no key or button is ever down and the mouse functions return nothing. "Since the last step": each press is seen by exactly one step's `update`.
---@class tumble.Input
local tumble_Input = {}

---`true` while the key is held (viewer; always `false` headless). Names as SDL's, any case: a-z, 0-9, punctuation, `"space"`, `"return"`, `"left"`, `"left shift"`, `"f1"` ...; another name is an error listing them
---@param key string
---@return boolean
function tumble_Input.down(key) end

---`true` when the key went down since the last step (names as `down`)
---@param key string
---@return boolean
function tumble_Input.pressed(key) end

---`true` when the key went up since the last step (names as `down`)
---@param key string
---@return boolean
function tumble_Input.released(key) end

---`x, y`: the cursor in window points from the top left; nothing headless
---@return number? x
---@return number? y
function tumble_Input.mouse() end

---`true` while the button is held (presses on the viewer's panels do not count)
---@param button tumble.MouseButton
---@return boolean
function tumble_Input.mouse_down(button) end

---`true` when the button went down since the last step
---@param button tumble.MouseButton
---@return boolean
function tumble_Input.mouse_pressed(button) end

---`true` when the button went up since the last step
---@param button tumble.MouseButton
---@return boolean
function tumble_Input.mouse_released(button) end

---the world ray under the cursor: origin (the eye) and unit direction; nothing headless. `world:raycast` it to find what is under the mouse
---@return number? ox
---@return number? oy
---@return number? oz
---@return number? dx
---@return number? dy
---@return number? dz
function tumble_Input.mouse_ray() end

---The viewer's camera, `tb.camera`. Requests apply at the next frame; headless they are recorded (`get` reads them back) and nothing else happens.
---@class tumble.Camera
local tumble_Camera = {}

---look at `target` from `eye` (m; at least 1 mm apart)
---@param eye tumble.Vec3
---@param target tumble.Vec3
---@return nil
function tumble_Camera.look_at(eye, target) end

---keep moving the camera's target to the body's centre of mass, every frame; `nil` stops
---@param body tumble.Body?
---@param opts? tumble.FollowOptions
---@return nil
function tumble_Camera.follow(body, opts) end

---the eye and target shown last frame (headless: the last `look_at`); nothing before either
---@return number? ex
---@return number? ey
---@return number? ez
---@return number? tx
---@return number? ty
---@return number? tz
function tumble_Camera.get() end

---Options of `tb.camera.follow`.
---@class tumble.FollowOptions
---@field offset? tumble.Vec3 the eye's place relative to the body (m); without it the user's orbit is kept
---@field smoothing? number s: time constant of the camera's approach (default 0.25; 0 = rigid)
local tumble_FollowOptions = {}

---3D debug drawing, `tb.draw`, drawn on top of the bodies. What `update` draws shows until the next step; what the scene's `draw()` (called by the viewer every frame) draws shows that frame. Headless the shapes are recorded and dropped at each step. Colours are `{r, g, b}` or `{r, g, b, a}` in [0, 1], default white.
---@class tumble.Draw
local tumble_Draw = {}

---a segment from `a` to `b`
---@param a tumble.Vec3
---@param b tumble.Vec3
---@param color? number[]
---@return nil
function tumble_Draw.line(a, b, color) end

---a segment with a head at `to`
---@param from tumble.Vec3
---@param to tumble.Vec3
---@param color? number[]
---@return nil
function tumble_Draw.arrow(from, to, color) end

---a dot of a few pixels
---@param p tumble.Vec3
---@param color? number[]
---@return nil
function tumble_Draw.point(p, color) end

---a wire box of full extents `size` (m), turned by `rot`
---@param center tumble.Vec3
---@param size tumble.Vec3
---@param color? number[]
---@param rot? tumble.Quat
---@return nil
function tumble_Draw.box(center, size, color, rot) end

---three wire circles of `radius` (m)
---@param center tumble.Vec3
---@param radius number
---@param color? number[]
---@return nil
function tumble_Draw.sphere(center, radius, color) end

---a label centred above the point (first 200 characters)
---@param pos tumble.Vec3
---@param text string
---@param color? number[]
---@return nil
function tumble_Draw.text(pos, text, color) end

---shapes queued since the last step (and this frame's `draw()`): at most 65536
---@return integer
function tumble_Draw.count() end

---A physics world, made by `tb.world{...}`; garbage collected when no variable or body refers to it.
---@class tumble.World
---@field gravity tumble.Vec3 `{x, y, z}` table, m/s²
---@field iterations integer integer in [1, 1000]
---@field solver tumble.Solver `"soft"`, `"split"`, `"baumgarte"`, `"global"`
---@field global_method tumble.GlobalMethod how the `"global"` solver iterates: `"gauss_seidel"` or `"jacobi"`
---@field threads integer worker threads, integer in [1, 16]
---@field sleep boolean bodies at rest fall asleep
---@field time number (read only) simulated seconds
---@field step_count integer (read only) steps taken
---@field body_count integer (read only) live bodies
---@field locked boolean (read only) `true` during a step
local tumble_World = {}

---advance `dt` seconds, then run the event handlers (see Events; a mod may step only the worlds it made)
---@param dt number
function tumble_World:step(dt) end

---a new Body: a box (see Bodies)
---@param def tumble.BoxDef
---@return tumble.Body
function tumble_World:add_box(def) end

---a new Body: a sphere
---@param def tumble.SphereDef
---@return tumble.Body
function tumble_World:add_sphere(def) end

---a new Body: a capsule
---@param def tumble.CapsuleDef
---@return tumble.Body
function tumble_World:add_capsule(def) end

---a new Body: a convex hull
---@param def tumble.HullDef
---@return tumble.Body
function tumble_World:add_hull(def) end

---a new Body: a cylinder
---@param def tumble.CylinderDef
---@return tumble.Body
function tumble_World:add_cylinder(def) end

---a new Body made of several shapes
---@param def tumble.CompoundDef
---@return tumble.Body
function tumble_World:add_compound(def) end

---a new static Body: a triangle mesh (see Meshes)
---@param def tumble.MeshDef
---@return tumble.Body
function tumble_World:add_mesh(def) end

---a new static Body: terrain from a grid of heights (see Heightfields)
---@param def tumble.HeightfieldDef
---@return tumble.Body
function tumble_World:add_heightfield(def) end

---a new distance Joint (see Joints)
---@param def tumble.DistanceDef
---@return tumble.Joint
function tumble_World:distance(def) end

---a new ball Joint
---@param def tumble.BallDef
---@return tumble.Joint
function tumble_World:ball(def) end

---a new hinge Joint
---@param def tumble.HingeDef
---@return tumble.Joint
function tumble_World:hinge(def) end

---a new cone Joint
---@param def tumble.ConeDef
---@return tumble.Joint
function tumble_World:cone(def) end

---a new fixed Joint (weld)
---@param def tumble.FixedDef
---@return tumble.Joint
function tumble_World:fixed(def) end

---a new slider Joint
---@param def tumble.SliderDef
---@return tumble.Joint
function tumble_World:slider(def) end

---a new wheel Joint: a wheel Body on a suspension, spinning free or driven
---@param def tumble.WheelJointDef
---@return tumble.Joint
function tumble_World:wheel(def) end

---a new 6-DOF Joint
---@param def tumble.SixDofDef
---@return tumble.Joint
function tumble_World:six_dof(def) end

---a new motor Joint
---@param def tumble.MotorDef
---@return tumble.Joint
function tumble_World:motor(def) end

---a new mouse Joint (a soft drag towards a target)
---@param def tumble.MouseDef
---@return tumble.Joint
function tumble_World:mouse(def) end

---a new custom Joint whose rows come from Lua
---@param def tumble.ConstraintDef
---@return tumble.Joint
function tumble_World:constraint(def) end

---the Joint with that name, or `nil`
---@param name string
---@return tumble.Joint?
function tumble_World:joint(name) end

---list of every Joint (each once)
---@return tumble.Joint[]
function tumble_World:joints() end

---a new Mover (see Movers)
---@param def tumble.MoverDef
---@return tumble.Mover
function tumble_World:mover(def) end

---a new Character: a walking capsule (see Characters)
---@param def tumble.CharacterDef
---@return tumble.Character
function tumble_World:character(def) end

---a new Vehicle: a chassis Body on cast wheels (see Vehicles)
---@param def tumble.VehicleDef
---@return tumble.Vehicle
function tumble_World:vehicle(def) end

---the Body with that name, or `nil`
---@param name string
---@return tumble.Body?
function tumble_World:body(name) end

---list of every Body, in creation order
---@return tumble.Body[]
function tumble_World:bodies() end

---closest hit `{ body =, point = {x,y,z}, normal = {x,y,z}, fraction = }` or `nil`
---@param from tumble.Vec3
---@param to tumble.Vec3
---@param mask? integer
---@return tumble.RayHit?
function tumble_World:raycast(from, to, mask) end

---every hit along the ray, ordered by fraction (see Queries)
---@param from tumble.Vec3
---@param to tumble.Vec3
---@param mask? integer
---@return tumble.RayHit[]
function tumble_World:raycast_all(from, to, mask) end

---shape cast: the first hit of a sphere, capsule, box or body swept from `from` to `to`, or `nil`; with `all = true` every hit, ordered by fraction (see Queries)
---@param def tumble.CastDef
---@return tumble.RayHit|tumble.RayHit[]|nil
function tumble_World:cast(def) end

---push dynamic bodies away from a point (see Explosions); returns how many it pushed
---@param def tumble.ExplosionDef
---@return integer
function tumble_World:explode(def) end

---list of Bodies touching the sphere
---@param center tumble.Vec3
---@param radius number
---@return tumble.Body[]
function tumble_World:overlap_sphere(center, radius) end

---list of Bodies whose bounds overlap the box
---@param lower tumble.Vec3
---@param upper tumble.Vec3
---@return tumble.Body[]
function tumble_World:overlap_box(lower, upper) end

---list of `{ a =, b =, point =, normal =, impulse =, separation = }`, one per contact point of the last step (normal from `a` to `b`; impulse: the normal impulse of the whole step, all sub-steps, N s)
---@return tumble.Contact[]
function tumble_World:contacts() end

---register a handler, returns `fn`
---@param event tumble.Event
---@param fn fun(ev: tumble.EventData)
---@return fun(ev: tumble.EventData)
function tumble_World:on(event, fn) end

---remove one of the caller's handlers, or all of its handlers of the event (the scene's and each mod's are apart)
---@param event tumble.Event
---@param fn? fun(ev: tumble.EventData)
function tumble_World:off(event, fn) end

---`{ bodies, awake_bodies, shapes, contacts, pairs, joints, islands, tree_height, allocations, allocation_failures, steps, step_ms, max_penetration, time }`
---@return tumble.Stats
function tumble_World:stats() end

---the last `"global"` step's system and convergence: `{ method, iterations, rows, contact_rows, joint_rows, direct_rows, trees, loops, residual, complementarity, residuals, complementarity_errors }`; `residuals[i]` is \|A lambda - b\| of the unclamped rows after sweep i and `complementarity_errors[i]` the clamped rows' error, m/s (docs/SOLVER.md); zeros until a global step
---@return tumble.SolverReport
function tumble_World:solver_report() end

---integer; equal hashes mean bit-identical states (determinism tests)
---@return integer
function tumble_World:state_hash() end

---a Snapshot of the whole world state (see Snapshots)
---@return tumble.Snapshot
function tumble_World:snapshot() end

---put the world back in the snapshot's state, clock included
---@param snapshot tumble.Snapshot
function tumble_World:restore(snapshot) end

---destroy now; every handle of it becomes invalid (a mod may destroy only the worlds it made)
function tumble_World:destroy() end

---`false` after destroy
---@return boolean
function tumble_World:is_valid() end

---A rigid body, made by a `world:add_*{...}` constructor. One handle per body: handles compare with `==`.
---@class tumble.Body
---@field friction number of all its shapes (read: the first shape's)
---@field restitution number of all its shapes (read: the first shape's)
---@field name string? string or `nil`
---@field type tumble.BodyType `"static"`, `"kinematic"`, `"dynamic"`
---@field sleeping boolean asleep (setting it puts to sleep or wakes)
---@field awake boolean the opposite of `sleeping`
---@field gravity_scale number multiplies the world's gravity
---@field ccd boolean continuous collision
---@field layer integer collision category bits of all its shapes (read: the first shape's); contacts are re-paired next step
---@field mask integer the category bits its shapes collide with (as `layer`)
---@field group integer collision group of all its shapes: same positive always collides, same negative never
---@field sensor boolean all its shapes report events only, no collision response
---@field fixed_rotation boolean never rotates (setting it stops its spin)
---@field one_way tumble.Vec3? a one-way body (platform) blocks only bodies arriving from the side this normal points to (see One-way bodies); `nil` or `false`: solid
---@field world tumble.World (read only) its World
---@field id integer (read only) unique among live bodies of a world
---@field shape_count integer (read only) number of shapes
local tumble_Body = {}

---`x, y, z` of the body origin
---@return number x
---@return number y
---@return number z
function tumble_Body:position() end

---`w, x, y, z`
---@return number w
---@return number x
---@return number y
---@return number z
function tumble_Body:rotation() end

---`x, y, z` of the centre of mass, m/s
---@return number x
---@return number y
---@return number z
function tumble_Body:velocity() end

---`x, y, z`, rad/s
---@return number x
---@return number y
---@return number z
function tumble_Body:angular_velocity() end

---teleport (wakes the body)
---@param x number
---@param y number
---@param z number
---@overload fun(self: tumble.Body, p: tumble.Vec3)
function tumble_Body:set_position(x, y, z) end

---set the orientation (normalised)
---@param w number
---@param x number
---@param y number
---@param z number
---@overload fun(self: tumble.Body, q: tumble.Quat)
function tumble_Body:set_rotation(w, x, y, z) end

---m/s
---@param x number
---@param y number
---@param z number
---@overload fun(self: tumble.Body, v: tumble.Vec3)
function tumble_Body:set_velocity(x, y, z) end

---rad/s
---@param x number
---@param y number
---@param z number
---@overload fun(self: tumble.Body, w: tumble.Vec3)
function tumble_Body:set_angular_velocity(x, y, z) end

---N s at a world point (default the centre of mass)
---@param impulse tumble.Vec3
---@param point? tumble.Vec3
function tumble_Body:apply_impulse(impulse, point) end

---N m s
---@param impulse tumble.Vec3
function tumble_Body:apply_angular_impulse(impulse) end

---N, over the next step
---@param force tumble.Vec3
---@param point? tumble.Vec3
function tumble_Body:apply_force(force, point) end

---N m, over the next step
---@param torque tumble.Vec3
function tumble_Body:apply_torque(torque) end

---kg
---@return number
function tumble_Body:mass() end

---scale the shapes' densities to this mass
---@param kg number
function tumble_Body:set_mass(kg) end

---`Ixx, Iyy, Izz` about the centre of mass, body axes, kg m²
---@return number ixx
---@return number iyy
---@return number izz
function tumble_Body:inertia() end

---world `x, y, z`
---@return number x
---@return number y
---@return number z
function tumble_Body:center_of_mass() end

---velocity of a world point moving with the body
---@param p tumble.Vec3
---@return number x
---@return number y
---@return number z
function tumble_Body:point_velocity(p) end

---a body point in world coordinates
---@param x number
---@param y number
---@param z number
---@return number x
---@return number y
---@return number z
---@overload fun(self: tumble.Body, p: tumble.Vec3)
function tumble_Body:to_world(x, y, z) end

---a world point in body coordinates
---@param x number
---@param y number
---@param z number
---@return number x
---@return number y
---@return number z
---@overload fun(self: tumble.Body, p: tumble.Vec3)
function tumble_Body:to_local(x, y, z) end

---`minx, miny, minz, maxx, maxy, maxz`
---@return number minx
---@return number miny
---@return number minz
---@return number maxx
---@return number maxy
---@return number maxz
function tumble_Body:aabb() end

---1/s
---@param linear number
---@param angular? number
function tumble_Body:set_damping(linear, angular) end

---remove from the world (shapes included)
function tumble_Body:destroy() end

---`false` once destroyed (never raises)
---@return boolean
function tumble_Body:is_valid() end

---A joint between bodies `a` and `b` (nil = the static world), made by a World constructor. A field that the joint's type does not have raises `Joint.limits: not available on a ball joint`.
---@class tumble.Joint
---@field name string? string or nil
---@field type tumble.JointType (read only) `"distance"`, `"ball"`, `"hinge"`, `"cone"`, `"fixed"`, `"slider"`, `"six_dof"`, `"motor"`, `"mouse"`, `"custom"`, `"wheel"`
---@field a tumble.Body? (read only) body a (nil = the static world)
---@field b tumble.Body? (read only) body b (nil = the static world)
---@field world tumble.World (read only) its World
---@field id integer (read only) integer id
---@field enabled boolean `false` disables it; `true` also repairs a broken joint
---@field broken boolean (read only) it broke (see `break_force`)
---@field break_force number N; `math.huge` = unbreakable
---@field break_torque number N m; `math.huge` = unbreakable
---@field collide boolean the two bodies collide
---@field limits tumble.Range? `{lo, hi}` (m or rad) or `nil` (no limit) (distance, hinge, slider, wheel)
---@field motor_speed number rad/s or m/s; setting it turns the motor on (and a hinge's servo off) (hinge, slider, motor, wheel)
---@field motor_enabled boolean the motor drives (hinge, slider, wheel)
---@field max_torque number N m (the hinge's motor and servo share it) (hinge, motor, wheel)
---@field max_force number N (slider, mouse)
---@field motor_torque number (read only) what the motor applied in the last step (hinge, slider, motor, wheel)
---@field motor_force number (read only) what the motor applied in the last step (hinge, slider, motor)
---@field servo_angle number rad; setting it turns the servo on (and the motor off) (hinge)
---@field servo_enabled boolean the servo drives (hinge)
---@field servo_gain number 1/s: servo speed = gain * angle error, capped (hinge)
---@field servo_max_speed number rad/s: the servo's speed cap (hinge)
---@field angle number (read only) rad (hinge)
---@field speed number (read only) rad/s (m/s; a wheel's: along its suspension) (hinge, slider, wheel)
---@field translation number (read only) m (a wheel's: along its suspension, 0 at rest, negative compressed) (slider, wheel)
---@field spin_speed number (read only) rad/s of b about the axle, relative to a (wheel)
---@field spring_force number (read only) N along the suspension on b in the last step (negative: pushing b down) (wheel)
---@field length number rest length, m (distance)
---@field current_length number (read only) m (distance)
---@field spring tumble.Spring? `{ hz =, damping = }` or `{ stiffness =, damper = }` (N/m, N s/m), or `nil` (rigid; a wheel: sliding free) (distance, wheel)
---@field swing number? cone angle, rad; `nil` removes the limit (cone)
---@field pyramid number[]? `{y, z}`, rad; `nil` removes the limit (cone)
---@field twist tumble.Range? `{lo, hi}`, rad; `nil` removes the limit (cone)
---@field swing_angle number (read only) rad (cone)
---@field twist_angle number (read only) rad (cone)
---@field axes table<tumble.Axis, tumble.AxisLimit> `{ x = "free" \| "fixed" \| {lo, hi}, ... }`; setting changes only the axes named (six_dof)
---@field target tumble.Vec3 `{x, y, z}`, m (mouse)
---@field hz number Hz (mouse)
---@field damping number damping ratio (mouse)
---@field rows fun(c: tumble.ConstraintState, dt: number): tumble.ConstraintRow[]? the rows function (custom)
---@field row_count integer (read only) rows used in the last step (custom)
local tumble_Joint = {}

---`pos_error, angle_error`: current violation in m and rad (anchor gap, limit excess, axis tilt)
---@return number pos_error
---@return number angle_error
function tumble_Joint:error() end

---`true` after it broke
---@return boolean
function tumble_Joint:is_broken() end

---`ax, ay, az, bx, by, bz`: world positions of the anchor carried by each body
---@return number ax
---@return number ay
---@return number az
---@return number bx
---@return number by
---@return number bz
function tumble_Joint:anchors() end

---`ax, ay, az, bx, by, bz`: the joint axis carried by each body, in the world
---@return number ax
---@return number ay
---@return number az
---@return number bx
---@return number by
---@return number bz
function tumble_Joint:axes_world() end

---`x, y, z`: the force the joint applied to body `b` in the last step (N)
---@return number x
---@return number y
---@return number z
function tumble_Joint:force() end

---`x, y, z`: the torque the joint applied to body `b` in the last step (N m)
---@return number x
---@return number y
---@return number z
function tumble_Joint:torque() end

---6-DOF: position on `"x"` ... `"rz"` (m or rad)
---@param axis tumble.Axis
---@return number
function tumble_Joint:axis_position(axis) end

---6-DOF: drive an axis (m/s or rad/s; N or N m); `(axis, false)` stops driving it
---@param axis tumble.Axis
---@param speed number
---@param max_force number
---@overload fun(self: tumble.Joint, axis: tumble.Axis, off: false)
function tumble_Joint:set_axis_motor(axis, speed, max_force) end

---custom: impulse of row `i` (1-based) in the last step, N s
---@param i integer
---@return number
function tumble_Joint:row_impulse(i) end

---remove it (destroying a body removes its joints)
function tumble_Joint:destroy() end

---`false` once destroyed (never raises)
---@return boolean
function tumble_Joint:is_valid() end

---Drives a kinematic body by setting its velocity every step, made by `world:mover{...}`.
---@class tumble.Mover
---@field body tumble.Body (read only) its Body
---@field mode tumble.MoverMode (read only) `"idle"`, `"velocity"`, `"path"`, `"target"`
---@field speed number read: current speed (m/s); write: the path's cruise speed
---@field paused boolean a paused path mover slows down and waits
---@field finished boolean (read only) a `"once"` path or a target was reached
---@field distance number (read only) m along the path
---@field length number (read only) m of one pass
---@field laps integer (read only) ends reached
local tumble_Mover = {}

---a new path
---@param def tumble.PathDef
function tumble_Mover:follow(def) end

---constant velocity (m/s) and angular velocity (rad/s) from now on
---@param v tumble.Vec3
---@param w? tumble.Vec3
function tumble_Mover:set_velocity(v, w) end

---go to a pose
---@param def tumble.TargetDef
function tumble_Mover:move_to(def) end

---zero velocity
function tumble_Mover:stop() end

---remove the mover (the body stays)
function tumble_Mover:destroy() end

---`false` once destroyed (never raises)
---@return boolean
function tumble_Mover:is_valid() end

---A character controller made by `world:character{...}`: an upright capsule moved by `ch:move` before each step (see Characters).
---@class tumble.Character
---@field on_ground boolean (read only) standing on walkable ground
---@field ground_normal tumble.Vec3? (read only) of the ground it stands on, or `nil` in the air
---@field ground_body tumble.Body? (read only) the Body it stands on, or `nil`
---@field body tumble.Body (read only) its kinematic capsule Body (what other bodies, rays and casts meet)
---@field crouched boolean crouching (shorter); setting `false` stands up only when there is room
---@field height number (read only) current height, m
---@field pushed integer (read only) dynamic bodies it pushed in the last move
---@field step_height number highest step it climbs, m
---@field max_slope number steepest walkable slope, rad
---@field jump_speed number m/s
---@field push_force number most force it pushes dynamic bodies with, N
local tumble_Character = {}

---walk at this horizontal velocity (m/s, z ignored) for `dt` s: call once before each step (in `update`)
---@param velocity tumble.Vec3
---@param dt number
function tumble_Character:move(velocity, dt) end

---jump at the next `move` if on the ground then
function tumble_Character:jump() end

---`x, y, z` of its feet (the capsule's bottom)
---@return number x
---@return number y
---@return number z
function tumble_Character:position() end

---`x, y, z`, m/s: its own motion over the last move plus the ground's it rides on
---@return number x
---@return number y
---@return number z
function tumble_Character:velocity() end

---remove it and its body
function tumble_Character:destroy() end

---`false` once destroyed (never raises)
---@return boolean
function tumble_Character:is_valid() end

---A vehicle made by `world:vehicle{...}`: a dynamic chassis Body held up by ray-cast wheels with suspension, tyres, engine, brakes and steering (see Vehicles).
---@class tumble.Vehicle
---@field chassis tumble.Body? (read only) the chassis Body (`nil` once destroyed: the vehicle then does nothing)
---@field wheel_count integer (read only) number of wheels
---@field throttle number engine input in [-1, 1] (negative: backwards)
---@field steer number in [-1, 1]: each wheel turns by its `steer` angle times this (positive: left, with x forward and z up)
---@field brake number in [0, 1], of each wheel's `brake_torque`
---@field handbrake number in [0, 1], of each wheel's `handbrake_torque`
local tumble_Vehicle = {}

---what wheel `i` (1-based) did in the last step
---@param i integer
---@return tumble.WheelState
function tumble_Vehicle:wheel(i) end

---the wheel's centre and rotation (steering and spin included), for drawing it
---@param i integer
---@return number x
---@return number y
---@return number z
---@return number qw
---@return number qx
---@return number qy
---@return number qz
function tumble_Vehicle:wheel_pose(i) end

---the wheel's settings, as `world:vehicle{...}` takes them
---@param i integer
---@return tumble.WheelDef
function tumble_Vehicle:wheel_settings(i) end

---change some of wheel `i`'s settings (the fields given) while running
---@param i integer
---@param def tumble.WheelDef
function tumble_Vehicle:set_wheel(i, def) end

---the chassis's speed along its forward axis, m/s (negative backwards)
---@return number
function tumble_Vehicle:speed() end

---remove the vehicle (its chassis Body stays)
function tumble_Vehicle:destroy() end

---`false` once destroyed (never raises)
---@return boolean
function tumble_Vehicle:is_valid() end

---A copy of a world's whole state, made by `world:snapshot()`, for `world:restore(s)`.
---@class tumble.Snapshot
---@field time number (read only) the world's clock when it was taken, s
---@field step_count integer (read only) the world's steps when it was taken
---@field bytes integer (read only) memory it holds (counted as Lua memory)
local tumble_Snapshot = {}

---Fields of `tb.world{...}`.
---@class tumble.WorldDef
---@field gravity? tumble.Vec3 m/s² (default `{0, 0, -10}`)
---@field iterations? integer velocity iterations per step (default 10)
---@field sub_steps? integer soft solver: sub-steps per step (1 to 64, default 8)
---@field position_iterations? integer split (and soft, for deep overlap): position passes (default 3)
---@field solver? tumble.Solver default `"soft"`
---@field baumgarte? number Baumgarte factor in [0, 1] (default 0.2; baumgarte and global solvers)
---@field global_method? tumble.GlobalMethod global solver: projected Gauss-Seidel or Jacobi (default `"gauss_seidel"`)
---@field global_relaxation? number global solver with Jacobi: relaxation in (0, 2) of its update (default 1.5; docs/SOLVER.md)
---@field direct_solve? boolean global solver: joint trees' equality rows solved exactly (default `true`)
---@field slop? number allowed penetration, m (default 0.002)
---@field max_correction_speed? number m/s (default 3)
---@field contact_hertz? number soft contact stiffness, Hz (default 100)
---@field contact_damping? number soft contact damping ratio (default 1)
---@field joint_hertz? number soft joint stiffness, Hz (default 120)
---@field joint_damping? number soft joint damping ratio (default 5)
---@field restitution_threshold? number m/s: slower impacts do not bounce (default 1)
---@field friction_mix? tumble.MixRule default `"geometric_mean"`
---@field restitution_mix? tumble.MixRule default `"maximum"`
---@field sleep? boolean bodies at rest fall asleep (default `true`)
---@field continuous? boolean continuous collision for fast bodies (default `true`)
---@field warm_starting? boolean default `true`
---@field contact_reuse? boolean keep a resting pair's contact points (default `true`)
---@field threads? integer worker threads inside a step, 1 to 16 (default the program's `--threads`)
---@field max_linear_speed? number m/s, at most 100000 (default 400)
local tumble_WorldDef = {}

---Fields every body constructor accepts.
---@class tumble.BodyDef
---@field name? string up to 31 bytes (UTF-8: 1 to 4 per character); `world:body(name)` finds it, reports list it
---@field pos? tumble.Vec3 position of the body origin, m (default `{0, 0, 0}`)
---@field rot? tumble.Quat quaternion `{w, x, y, z}` (default `{1, 0, 0, 0}`)
---@field vel? tumble.Vec3 m/s (world frame)
---@field angvel? tumble.Vec3 rad/s (world frame)
---@field static? boolean a static body
---@field kinematic? boolean a kinematic body
---@field type? tumble.BodyType the body type (default dynamic)
---@field mass? number kg (dynamic bodies); scales the shapes' densities
---@field density? number kg/m³ (default 1000; give `mass` or `density`, not both)
---@field friction? number Coulomb coefficient (default 0.5)
---@field restitution? number bounciness (default 0)
---@field ccd? boolean continuous collision against everything (fast bullets)
---@field sensor? boolean events only, no collision response
---@field layer? integer collision category bits (default 1)
---@field mask? integer the category bits it collides with (default all)
---@field group? integer same positive group always collides, same negative never
---@field linear_damping? number 1/s
---@field angular_damping? number 1/s
---@field gravity_scale? number default 1
---@field fixed_rotation? boolean never rotates
---@field one_way? tumble.Vec3 a one-way body: blocks only from the side this normal points to (world frame)
---@field can_sleep? boolean default `true`
---@field awake? boolean default `true`
local tumble_BodyDef = {}

---Fields of `world:add_box{...}`.
---@class tumble.BoxDef : tumble.BodyDef
---@field size? tumble.Vec3 `{sx, sy, sz}` full edge lengths, m (default 1 m cube)
local tumble_BoxDef = {}

---Fields of `world:add_sphere{...}`.
---@class tumble.SphereDef : tumble.BodyDef
---@field radius? number m (default 0.5)
local tumble_SphereDef = {}

---Fields of `world:add_capsule{...}`.
---@class tumble.CapsuleDef : tumble.BodyDef
---@field radius? number m (default 0.25)
---@field half_length? number half the segment along the body's z axis, m (default 0.5)
local tumble_CapsuleDef = {}

---Fields of `world:add_hull{...}`.
---@class tumble.HullDef : tumble.BodyDef
---@field points? tumble.Vec3[] 4 to 1024 points spanning a volume (required)
local tumble_HullDef = {}

---Fields of `world:add_cylinder{...}`.
---@class tumble.CylinderDef : tumble.BodyDef
---@field radius? number m (default 0.5)
---@field half_height? number half the length along the body's z axis, m (default 0.5)
local tumble_CylinderDef = {}

---Fields of `world:add_compound{...}`.
---@class tumble.CompoundDef : tumble.BodyDef
---@field shapes? tumble.CompoundShape[] the shapes, placed in the body frame (required)
local tumble_CompoundDef = {}

---One shape of `add_compound`'s `shapes`.
---@class tumble.CompoundShape
---@field type? "box"|"sphere"|"capsule"|"hull"|"cylinder" the shape type (required)
---@field size? tumble.Vec3 box: full edge lengths, m
---@field radius? number sphere, capsule, cylinder: m
---@field half_length? number capsule: m
---@field half_height? number cylinder: m
---@field points? tumble.Vec3[] hull: points
---@field pos? tumble.Vec3 position in the body frame
---@field rot? tumble.Quat rotation in the body frame
---@field density? number kg/m³
---@field friction? number Coulomb coefficient
---@field restitution? number bounciness
local tumble_CompoundShape = {}

---Fields of `world:add_mesh{...}`.
---@class tumble.MeshDef
---@field vertices? tumble.Vec3[] points in the body frame (required)
---@field triangles? integer[][]|integer[] `{i, j, k}` 1-based vertex indices, or one flat list (required)
---@field pos? tumble.Vec3 position, m
---@field rot? tumble.Quat rotation
---@field name? string up to 31 bytes (UTF-8: 1 to 4 per character)
---@field static? true meshes are static
---@field friction? number the mesh's material
---@field restitution? number the mesh's material
---@field layer? integer collision category bits
---@field mask? integer the category bits it collides with
---@field group? integer collision group
---@field sensor? boolean events only
local tumble_MeshDef = {}

---Fields of `world:add_heightfield{...}`.
---@class tumble.HeightfieldDef
---@field heights? number[]|number[][] m: rows `{{h, ...}, ...}` (`heights[j][i]` at x = (i-1) sx, y = (j-1) sy), or one flat list, x fastest (required)
---@field count_x? integer points along x, 2 to 4096 (required with a flat list)
---@field count_y? integer points along y, 2 to 4096 (default: from the list)
---@field cell_size? number|number[] m: `s` or `{sx, sy}`, each in [0.001, 10000] (default 1)
---@field holes? integer[][] cells `{i, j}` (1-based, cell i spans points i and i+1) with no surface
---@field pos? tumble.Vec3 position of grid point (1, 1), m
---@field rot? tumble.Quat rotation
---@field name? string up to 31 bytes (UTF-8: 1 to 4 per character)
---@field static? true heightfields are static
---@field friction? number the terrain's material
---@field restitution? number the terrain's material
---@field layer? integer collision category bits
---@field mask? integer the category bits it collides with
---@field group? integer collision group
---@field sensor? boolean events only
local tumble_HeightfieldDef = {}

---Fields every joint constructor accepts.
---@class tumble.JointDef
---@field a? tumble.Body body a; nil = the static world
---@field b? tumble.Body body b; nil = the static world
---@field name? string up to 31 bytes (UTF-8: 1 to 4 per character); `world:joint(name)` finds it
---@field collide? boolean let the two bodies collide with each other (default `false`)
---@field break_force? number N: the joint breaks when its force exceeds this (default `math.huge`)
---@field break_torque? number N m: the same for its torque
---@field enabled? boolean a disabled joint does nothing (default `true`)
local tumble_JointDef = {}

---Fields of `world:distance{...}`.
---@class tumble.DistanceDef : tumble.JointDef
---@field anchor_a? tumble.Vec3 world point on a (default its origin; required when a is nil)
---@field anchor_b? tumble.Vec3 world point on b (default its origin; required when b is nil)
---@field length? number m (default the current distance)
---@field min? number m: a rope, slack in between
---@field max? number m
---@field spring? tumble.Spring `{ hz, damping }` or `{ stiffness, damper }`: soft (see Springs)
local tumble_DistanceDef = {}

---Fields of `world:ball{...}`.
---@class tumble.BallDef : tumble.JointDef
---@field anchor? tumble.Vec3 the joint point, world coordinates at creation (default b's origin, or a's)
local tumble_BallDef = {}

---Fields of `world:hinge{...}`.
---@class tumble.HingeDef : tumble.JointDef
---@field anchor? tumble.Vec3 the joint point, world coordinates at creation (default b's origin, or a's)
---@field axis? tumble.Vec3 the joint axis, world coordinates at creation (default `{1, 0, 0}`)
---@field ref? tumble.Vec3 reference direction perpendicular to the axis: the zero angle
---@field limits? tumble.Range `{lo, hi}`, rad in [-pi, pi]
---@field motor? tumble.MotorSettings `{ speed, max_torque }` (rad/s, N m)
---@field servo? tumble.Servo `{ angle, max_torque, gain, max_speed }` (rad, N m, 1/s, rad/s)
local tumble_HingeDef = {}

---Fields of `world:cone{...}`.
---@class tumble.ConeDef : tumble.JointDef
---@field anchor? tumble.Vec3 the joint point, world coordinates at creation (default b's origin, or a's)
---@field axis? tumble.Vec3 the joint axis, world coordinates at creation (default `{1, 0, 0}`)
---@field ref? tumble.Vec3 reference direction perpendicular to the axis: the zero angle
---@field axis_b? tumble.Vec3 b's twist axis at rest when it differs
---@field swing? number cone limit, rad in (0, pi]
---@field pyramid? number[] `{y, z}`, rad
---@field twist? tumble.Range|false `{lo, hi}` rad (default `{0, 0}`), or `false`: free twist
local tumble_ConeDef = {}

---Fields of `world:fixed{...}`.
---@class tumble.FixedDef : tumble.JointDef
---@field anchor? tumble.Vec3 the joint point, world coordinates at creation (default b's origin, or a's)
local tumble_FixedDef = {}

---Fields of `world:slider{...}`.
---@class tumble.SliderDef : tumble.JointDef
---@field anchor? tumble.Vec3 the joint point, world coordinates at creation (default b's origin, or a's)
---@field axis? tumble.Vec3 the joint axis, world coordinates at creation (default `{1, 0, 0}`)
---@field ref? tumble.Vec3 reference direction perpendicular to the axis: the zero angle
---@field limits? tumble.Range `{lo, hi}`, m
---@field motor? tumble.MotorSettings `{ speed, max_force }` (m/s, N)
local tumble_SliderDef = {}

---Fields of `world:wheel{...}`: `b` is the wheel, `a` the chassis.
---@class tumble.WheelJointDef : tumble.JointDef
---@field anchor? tumble.Vec3 the joint point, world coordinates at creation (default b's origin, or a's)
---@field axis? tumble.Vec3 the axle, world (default `{1, 0, 0}`)
---@field suspension? tumble.Vec3 the direction the wheel travels along, world, not along the axle (default `{0, 0, 1}`)
---@field spring? tumble.Spring|false `{ stiffness, damper }` (N/m, N s/m) or `{ hz, damping }` (default `{ hz = 4, damping = 0.7 }`); `false`: none
---@field limits? tumble.Range `{lo, hi}`, m of travel along `suspension`
---@field motor? tumble.MotorSettings `{ speed, max_torque }` (rad/s about the axle, N m)
local tumble_WheelJointDef = {}

---Fields of `world:six_dof{...}`.
---@class tumble.SixDofDef : tumble.JointDef
---@field anchor? tumble.Vec3 the joint point, world coordinates at creation (default b's origin, or a's)
---@field axis? tumble.Vec3 the joint axis, world coordinates at creation (default `{1, 0, 0}`)
---@field ref? tumble.Vec3 reference direction perpendicular to the axis: the zero angle
---@field axes? table<tumble.Axis, tumble.AxisLimit> each axis `"free"`, `"fixed"` (default) or `{lo, hi}`
---@field motors? table<tumble.Axis, tumble.MotorSettings> `{ rz = { speed, max_force }, ... }`
local tumble_SixDofDef = {}

---Fields of `world:motor{...}`.
---@class tumble.MotorDef : tumble.JointDef
---@field anchor? tumble.Vec3 the joint point, world coordinates at creation (default b's origin, or a's)
---@field axis? tumble.Vec3 the joint axis, world coordinates at creation (default `{1, 0, 0}`)
---@field ref? tumble.Vec3 reference direction perpendicular to the axis: the zero angle
---@field speed? number rad/s
---@field max_torque? number N m (default unlimited)
local tumble_MotorDef = {}

---Fields of `world:mouse{...}`.
---@class tumble.MouseDef : tumble.JointDef
---@field body? tumble.Body the dragged body (required)
---@field anchor? tumble.Vec3 world point on it (default its origin)
---@field target? tumble.Vec3 default the anchor
---@field hz? number default 5
---@field damping? number default 0.7
---@field max_force? number N (default 1000)
local tumble_MouseDef = {}

---Fields of `world:constraint{...}`.
---@class tumble.ConstraintDef : tumble.JointDef
---@field anchor? tumble.Vec3 the joint point, world coordinates at creation (default b's origin, or a's)
---@field axis? tumble.Vec3 the joint axis, world coordinates at creation (default `{1, 0, 0}`)
---@field ref? tumble.Vec3 reference direction perpendicular to the axis: the zero angle
---@field rows? fun(c: tumble.ConstraintState, dt: number): tumble.ConstraintRow[]? the rows function
---@field every_substep? boolean call rows before every sub-step (default `false`)
local tumble_ConstraintDef = {}

---Fields of `m:follow{...}`.
---@class tumble.PathDef
---@field path? tumble.Vec3[] 2 or more points
---@field speed? number m/s (default 1)
---@field mode? tumble.PathMode default `"once"`
---@field wait? number|number[] s at every point, or one value per point
---@field smooth? boolean a Catmull-Rom spline through the points
---@field acceleration? number m/s² for starts and stops (default instant)
local tumble_PathDef = {}

---Fields of `m:move_to{...}` and a mover's `target`.
---@class tumble.TargetDef
---@field pos? tumble.Vec3 target position, m
---@field rot? tumble.Quat target rotation
---@field time? number s to get there
local tumble_TargetDef = {}

---Fields of `world:mover{...}`: `body` and one command.
---@class tumble.MoverDef
---@field body? tumble.Body a kinematic body (required)
---@field paused? boolean start paused
---@field velocity? tumble.Vec3 m/s
---@field angular_velocity? tumble.Vec3 rad/s
---@field target? tumble.TargetDef go to a pose
---@field path? tumble.Vec3[] 2 or more points
---@field speed? number m/s (default 1)
---@field mode? tumble.PathMode default `"once"`
---@field wait? number|number[] s at every point, or one value per point
---@field smooth? boolean a Catmull-Rom spline through the points
---@field acceleration? number m/s² for starts and stops (default instant)
local tumble_MoverDef = {}

---A soft distance: a frequency and damping ratio, or a stiffness and damper.
---@class tumble.Spring
---@field hz? number Hz, of the joint's effective mass along its axis (a body hung from the world at its centre of mass: its mass; two such bodies: m1 m2 / (m1 + m2))
---@field damping? number damping ratio (with `hz`)
---@field stiffness? number N/m (instead of `hz`)
---@field damper? number N s/m (with `stiffness`)
local tumble_Spring = {}

---A motor: target speed and the most it may apply.
---@class tumble.MotorSettings
---@field speed? number rad/s or m/s
---@field max_torque? number N m
---@field max_force? number N
local tumble_MotorSettings = {}

---A hinge servo.
---@class tumble.Servo
---@field angle? number rad
---@field max_torque? number N m
---@field gain? number 1/s
---@field max_speed? number rad/s
local tumble_Servo = {}

---A row returned by a custom constraint's rows function.
---@class tumble.ConstraintRow
---@field J? number[] 12 numbers: the Jacobian over (v_a, w_a, v_b, w_b), world frame
---@field bias? number target of J v (default 0)
---@field error? number position error C (m or rad, default 0)
---@field min? number impulse lower bound, N s (default `-math.huge`)
---@field max? number impulse upper bound, N s (default `math.huge`)
local tumble_ConstraintRow = {}

---Fields of `world:cast{...}`: `shape` or `body`, and `to`.
---@class tumble.CastDef
---@field shape? "sphere"|"capsule"|"box" the shape cast (or give `body`)
---@field body? tumble.Body cast this body's shapes from its pose; its own shapes are not hit
---@field radius? number sphere (default 0.5), capsule (default 0.25), m
---@field half_length? number capsule: half its segment, along its z axis (default 0.5), m
---@field size? tumble.Vec3 box: full edge lengths (default 1 m cube)
---@field from? tumble.Vec3 where the shape's centre starts (required with `shape`)
---@field rot? tumble.Quat the shape's rotation, kept along the cast (default `{1, 0, 0, 0}`)
---@field to? tumble.Vec3 where the centre (a body: its origin) would end (required)
---@field mask? integer the layer bits it hits (default all)
---@field layer? integer its own layer bits, tested against each shape's mask (default all)
---@field all? boolean return every hit in a list instead of the first (default `false`)
local tumble_CastDef = {}

---Fields of `world:explode{...}`.
---@class tumble.ExplosionDef
---@field center? tumble.Vec3 where it goes off (required)
---@field impulse? number N s given to each dynamic body in reach (required)
---@field radius? number bodies whose surface is this close get the whole impulse, m (default 1)
---@field falloff? number beyond `radius` the impulse falls linearly to 0 over this distance, m (default 0)
---@field mask? integer only bodies on these layers (default all)
local tumble_ExplosionDef = {}

---Fields of `world:character{...}`.
---@class tumble.CharacterDef
---@field pos? tumble.Vec3 its feet, m (default `{0, 0, 0}`)
---@field radius? number m (default 0.3)
---@field height? number standing height, feet to top, m (default 1.8)
---@field crouch_height? number crouching height, m (default 1.0)
---@field step_height? number highest step it climbs and snaps down, m (default 0.3)
---@field max_slope? number steepest walkable slope, rad (default pi/4)
---@field jump_speed? number m/s (default 5)
---@field push_force? number most force it pushes dynamic bodies with, N (default 500)
---@field mass? number kg, for being pushed: bodies running into it give it their impulse over this (default 70; 0: never pushed)
---@field layer? integer its body's layer bits (default 1)
---@field mask? integer the layers it walks into (default all)
---@field name? string its body's name
local tumble_CharacterDef = {}

---Fields of `world:vehicle{...}`.
---@class tumble.VehicleDef
---@field chassis? tumble.Body a dynamic Body of this world that carries no other vehicle (required)
---@field wheels? tumble.WheelDef[] 1 to 8 wheels (required)
---@field forward? tumble.Vec3 the chassis's forward axis, in its frame (default `{1, 0, 0}`)
---@field up? tumble.Vec3 its up axis, perpendicular to `forward` (default `{0, 0, 1}`)
---@field engine_torque? number at full throttle, shared by the driven wheels, N m (default 1000)
---@field max_speed? number the engine's torque falls to 0 at this rim speed, m/s (default 40)
---@field anti_roll? number[][] up to 4 bars `{left wheel, right wheel, stiffness N/m}` (wheels 1-based)
---@field mask? integer the layers the wheels stand on (default all)
---@field layer? integer the wheel rays' own layer bits, tested against each shape's mask (default all)
local tumble_VehicleDef = {}

---One wheel of `world:vehicle{...}` (and `car:set_wheel`). The suspension runs from `pos` along `direction`; the wheel centre is its length away.
---@class tumble.WheelDef
---@field pos? tumble.Vec3 suspension attachment point, chassis frame, m (default `{0, 0, 0}`)
---@field direction? tumble.Vec3 suspension direction, towards the ground, chassis frame (default `{0, 0, -1}`)
---@field radius? number m (default 0.35)
---@field width? number m, for drawing (default 0.2)
---@field min_length? number shortest suspension (bump stop), m (default 0.05)
---@field max_length? number longest suspension (hanging), m (default 0.35)
---@field rest_length? number the spring's unloaded length, in [min_length, max_length], m (default max_length)
---@field stiffness? number spring, N/m (default 30000)
---@field damping? number damper, N s/m (default 3000)
---@field friction? number tyre friction coefficient along the rolling direction (default 1.2)
---@field lateral_friction? number tyre friction coefficient across it (default 1.2)
---@field inertia? number about the axle, kg m^2 (default 1)
---@field steer? number steering angle at full steer, rad in [-pi/2, pi/2] (default 0)
---@field brake_torque? number at full brake, N m (default 1500)
---@field handbrake_torque? number at full handbrake, N m (default 0)
---@field driven? boolean the engine drives it (default `false`)
local tumble_WheelDef = {}

---The step-start state a custom constraint's rows function gets.
---@class tumble.ConstraintState
---@field joint tumble.Joint the joint
---@field a tumble.Body? body a or nil
---@field b tumble.Body? body b or nil
---@field anchor_a tumble.Vec3 world joint point of a
---@field anchor_b tumble.Vec3 world joint point of b
---@field axis_a tumble.Vec3 world axis of a
---@field axis_b tumble.Vec3 world axis of b
---@field rot_a tumble.Quat world frame of a
---@field rot_b tumble.Quat world frame of b
---@field center_a tumble.Vec3 centre of mass of a
---@field center_b tumble.Vec3 centre of mass of b
---@field vel_a tumble.Vec3 m/s
---@field vel_b tumble.Vec3 m/s
---@field angvel_a tumble.Vec3 rad/s
---@field angvel_b tumble.Vec3 rad/s
---@field dt number s
---@field sub_dt number s
---@field sub_step integer sub-step index
local tumble_ConstraintState = {}

---`car:wheel(i)`: what a wheel did in the last step.
---@class tumble.WheelState
---@field in_contact boolean its ray found ground
---@field contact tumble.Vec3? the ground point, m (`nil` in the air)
---@field normal tumble.Vec3? the ground's normal (`nil` in the air)
---@field ground tumble.Body? the Body under it (`nil` in the air)
---@field length number suspension length, m (below `min_length` only while the bump stop pushes back)
---@field compression number `rest_length - length`, m
---@field force number suspension force along the normal, N
---@field spin number rad/s about the axle, positive rolling forwards
---@field angle number spin angle, rad in [0, 2 pi)
---@field steer number steering angle, rad
---@field longitudinal_force number tyre force along the rolling direction, N
---@field lateral_force number tyre force across it, N
local tumble_WheelState = {}

---A hit of `world:raycast`, `world:raycast_all` or `world:cast`.
---@class tumble.RayHit
---@field body tumble.Body the Body hit
---@field point tumble.Vec3 world point on the Body's surface, m
---@field normal tumble.Vec3 surface normal, out of the Body (against the motion)
---@field fraction number of the way from `from` to `to` (0: it started touching)
local tumble_RayHit = {}

---One contact point of `world:contacts()`.
---@class tumble.Contact
---@field a tumble.Body first body
---@field b tumble.Body second body
---@field point tumble.Vec3 world point, m
---@field normal tumble.Vec3 from a to b
---@field impulse number N s
---@field separation number m (negative: overlap)
local tumble_Contact = {}

---What an event handler gets (`world:on`); the fields depend on the event.
---@class tumble.EventData
---@field a tumble.Body? contact events: first body (nil if destroyed)
---@field b tumble.Body? contact events: second body
---@field point tumble.Vec3? contact_begin: world point
---@field normal tumble.Vec3? contact_begin: from a to b
---@field speed number? contact_begin: approach speed, m/s
---@field sensor tumble.Body? sensor events: the sensor
---@field visitor tumble.Body? sensor events: the body inside
---@field joint tumble.Joint? joint_break: the Joint
---@field name string? joint_break: its name
---@field type tumble.JointType? joint_break: its type
---@field force number? joint_break: N
---@field torque number? joint_break: N m
local tumble_EventData = {}

---`world:stats()`.
---@class tumble.Stats
---@field bodies integer
---@field awake_bodies integer
---@field shapes integer
---@field contacts integer
---@field pairs integer
---@field joints integer
---@field islands integer
---@field tree_height integer
---@field allocations integer
---@field allocation_failures integer allocations refused in the last step (what they would have held was dropped; see docs/RELIABILITY.md)
---@field steps integer
---@field step_ms number
---@field max_penetration number m
---@field time number s
local tumble_Stats = {}

---`world:solver_report()`: the last `"global"` step (docs/SOLVER.md).
---@class tumble.SolverReport
---@field method tumble.GlobalMethod the world's `global_method`
---@field iterations integer sweeps made
---@field rows integer rows in the system
---@field contact_rows integer contact normal and friction rows
---@field joint_rows integer joint rows
---@field direct_rows integer joint equality rows solved exactly (joint trees)
---@field trees integer joint trees solved directly
---@field loops integer joint groups with a loop (iterated instead)
---@field residual number \|A lambda - b\| of the unclamped rows after the last sweep, m/s
---@field complementarity number error of the clamped rows after the last sweep, m/s
---@field residuals number[] the residual after each sweep, m/s
---@field complementarity_errors number[] the complementarity error after each sweep, m/s
local tumble_SolverReport = {}

return tumble
