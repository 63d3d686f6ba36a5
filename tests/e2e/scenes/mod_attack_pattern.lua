-- A backtracking pattern: each of the 12 lazy items tries every length of the subject.
return {
	update = function(world, dt, t)
		string.find(string.rep("a", 60), ".-.-.-.-.-.-.-.-.-.-.-.-b")
	end,
}
