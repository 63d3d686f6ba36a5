-- A mod that reaches for the file system when it loads.
local f = io.open("/etc/passwd")
return {}
