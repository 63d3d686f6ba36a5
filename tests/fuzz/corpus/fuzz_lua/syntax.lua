local tb = require "tumble"
return { setup = function(world) world:add_box{ pos = { 0, 0, 1 }, }
