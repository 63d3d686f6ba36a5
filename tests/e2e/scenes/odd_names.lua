-- Body names that need escaping in JSON: quote, backslash, tab, newline, non-ASCII.
return {
	steps = 1,
	setup = function(world)
		world:add_box{ name = 'say "hi"', pos = { 0, 0, 5 } }
		world:add_box{ name = "back\\slash\ttab\nline", pos = { 2, 0, 5 } }
		world:add_box{ name = "grüße", pos = { 4, 0, 5 } }
	end,
}
