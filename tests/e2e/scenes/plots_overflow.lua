-- Twenty plots from the scene's panel: more than the viewer keeps (16) and more than an 800x450
-- window fits. Each plot left out is said once, by name.
local scene = {}
function scene.ui(ui)
	for i = 1, 20 do
		ui.plot(("series %02d"):format(i), i)
	end
end
return scene
